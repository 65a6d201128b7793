//! JSON on stdout: a match's record (one object on one line, without the
//! readable account and the replay plan) and a check's report (pretty-printed). Both carry a
//! `version` ([`crate::record::RECORD_VERSION`],
//! [`crate::model::check::REPORT_VERSION`]).

use super::{Finish, Place, ReportError, Reporter};
use crate::record::MatchRecord;

/// The JSON reporter.
#[derive(Default)]
pub struct Json;

impl Reporter for Json {
    fn game_finished(
        &mut self,
        record: &MatchRecord,
        place: &Place<'_>,
    ) -> Result<(), ReportError> {
        if let Place::Match = place {
            // The plan is the command's data: the command says it here.
            let record = MatchRecord {
                account: vec![],
                plan: None,
                ..record.clone()
            };
            println!(
                "{}",
                serde_json::to_string(&record).expect("a record serializes")
            );
        }
        Ok(())
    }

    fn run_finished(&mut self, finish: &Finish<'_>) -> Result<(), ReportError> {
        if let Finish::Check(report) = finish {
            println!(
                "{}",
                serde_json::to_string_pretty(report).expect("the report serializes")
            );
        }
        Ok(())
    }
}
