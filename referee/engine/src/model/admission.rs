//! What `referee collect` found of each team: a row of its admission
//! report.

/// How a team came out of collecting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Unpacked, recognised, compiled, and played its smoke game cleanly.
    Admitted,
    /// No submission (on the roster but absent, or only late ones).
    Missing,
    /// A submission that was refused, not recognised, did not compile, or
    /// got a verdict in its smoke game.
    Broken,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Admitted => "admitted",
            Status::Missing => "missing",
            Status::Broken => "broken",
        }
    }
}

/// One row of the admission report (the CSV's columns, in order; see
/// `reporter::admission`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Admission {
    pub team: String,
    pub status: Status,
    /// The language recognised (empty if none).
    pub language: String,
    /// Where the submission came from (empty if missing).
    pub source: String,
    /// Short reason: `late`, `refused`, `not recognised`, `compile`,
    /// a verdict name, ...
    pub reason: String,
    /// The details: the entry refused, the compiler's or bot's message.
    pub message: String,
}
