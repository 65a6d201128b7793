//! The results every command produces and every reporter shows: the rows
//! and tables of a tournament, a bench's rows and summary, a check's
//! report, an A/B run's outcome, a term contest's grades, `collect`'s
//! admission rows. It sits below both: a command builds these values and
//! hands them to the [`reporter`](crate::reporter) seam, which imports
//! them from here, never from the commands (as a test-runner's reporter
//! reads its events, not the runner).

pub mod admission;
pub mod bench;
pub mod check;
pub mod ffa;
pub mod folder;
pub mod grades;
pub mod moves;
pub mod standings;
pub mod tournament;
