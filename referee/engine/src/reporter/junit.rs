//! JUnit XML for CI systems, written to a file when a check ends: one
//! `<testsuite>` for the check with its game, variant and bot as
//! properties, one `<testcase>` per requirement with the measured value in
//! `<system-out>`, a `<failure>` when the requirement does not hold and a
//! `<skipped>` when `--fail-fast` left it undecided.
//!
//! The XML is built by [`quick_junit`] (nextest's own JUnit writer): a
//! typed report serialized by the crate, so escaping, the characters XML
//! 1.0 cannot hold (dropped) and the shape CI systems read are its
//! concern, not a template kept by hand here.

use std::path::{Path, PathBuf};
use std::time::Duration;

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

use super::{Finish, ReportError, Reporter, Run};
use crate::model::check::{CheckReport, Status};

/// Writes the check's JUnit XML to a file.
pub struct JUnit {
    path: PathBuf,
}

impl JUnit {
    pub fn new(path: &Path) -> JUnit {
        JUnit {
            path: path.to_path_buf(),
        }
    }
}

impl Reporter for JUnit {
    /// A JUnit file of an earlier run at the path goes when this one
    /// starts: a run stopped or killed before its end leaves none, never
    /// the earlier run's verdict as if it were its own.
    fn run_started(&mut self, _run: &Run<'_>) -> Result<(), ReportError> {
        if std::fs::symlink_metadata(&self.path).is_ok_and(|m| m.is_file()) {
            std::fs::remove_file(&self.path)
                .map_err(|e| ReportError::new(&self.path, "cannot replace the JUnit file", e))?;
        }
        Ok(())
    }

    /// A file is written whole (a kill leaves it complete or none);
    /// what is no regular file (`/dev/stdout`, a pipe, a link) is written
    /// through, never replaced.
    fn run_finished(&mut self, finish: &Finish<'_>) -> Result<(), ReportError> {
        let Finish::Check(report) = finish else {
            return Ok(());
        };
        let text = render(report);
        let written = match std::fs::symlink_metadata(&self.path) {
            Ok(meta) if !meta.is_file() => std::fs::write(&self.path, text),
            _ => crate::atomic_file::write(&self.path, text),
        };
        written.map_err(|e| ReportError::new(&self.path, "cannot write the JUnit file", e))
    }
}

/// The check as a JUnit report.
pub fn report(check: &CheckReport) -> Report {
    let time = Duration::try_from_secs_f64(check.elapsed_s).unwrap_or_default();
    let mut suite = TestSuite::new(check.name.as_str());
    suite.set_time(time);
    suite.add_properties([
        Property::new("game", check.game.as_str()),
        Property::new("variant", check.variant.as_str()),
        Property::new("bot", check.bot_spec.as_str()),
        Property::new("time_scale", check.time_scale.to_string()),
    ]);
    for r in &check.requirements {
        let mut text = format!(
            "measured: {} {} (need {})\n{}\n",
            r.measured, r.unit, r.bound, r.summary
        );
        for d in &r.details {
            text.push_str(d);
            text.push('\n');
        }
        let status = match r.status {
            Status::Pass => TestCaseStatus::success(),
            Status::Fail => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status
                    .set_message(format!("{}: {} (need {})", r.name, r.summary, r.bound))
                    .set_type(r.kind.as_str())
                    .set_description(text.as_str());
                status
            }
            Status::NotRun => {
                let mut status = TestCaseStatus::skipped();
                status.set_message(format!("{}: not run (fail-fast)", r.name));
                status
            }
        };
        let mut case = TestCase::new(r.name.as_str(), status);
        case.set_classname(format!("{}.{}", check.name, r.kind))
            .set_system_out(text);
        suite.add_test_case(case);
    }
    let mut report = Report::new("referee check");
    report.set_time(time).add_test_suite(suite);
    report
}

/// The check as JUnit XML.
pub fn render(check: &CheckReport) -> String {
    report(check)
        .to_string()
        .expect("a report built here serializes")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::check::{RequirementResult, REPORT_VERSION};

    #[test]
    fn one_case_per_requirement_and_a_failure_or_skip_for_each_not_passed() {
        let case = |name: &str, status| RequirementResult {
            name: name.into(),
            kind: "win-rate".into(),
            passed: status == Status::Pass,
            status,
            measured: 35.0,
            unit: "%".into(),
            bound: ">= 40%".into(),
            summary: "won 7 of 20 games <vs> \"x\"\u{1}".into(),
            details: vec![],
            games: vec![],
        };
        let report = CheckReport {
            version: REPORT_VERSION,
            name: "c&c".into(),
            game: "arrow5".into(),
            variant: "classic".into(),
            bot: "b".into(),
            bot_spec: "./b".into(),
            passed: false,
            fail_fast: true,
            elapsed_s: 1.0,
            time_scale: 2.5,
            requirements: vec![
                case("one", Status::Pass),
                case("two", Status::Fail),
                case("three", Status::NotRun),
            ],
        };
        let xml = render(&report);
        assert_eq!(xml.matches("<testcase ").count(), 3, "{xml}");
        assert_eq!(xml.matches("<failure ").count(), 1, "{xml}");
        assert_eq!(xml.matches("<skipped ").count(), 1, "{xml}");
        assert!(xml.contains("skipped=\"1\""), "{xml}");
        assert!(
            xml.contains("<property name=\"time_scale\" value=\"2.5\"/>"),
            "{xml}"
        );
        assert!(xml.contains("name=\"c&amp;c\""), "{xml}");
        assert!(xml.contains("&lt;vs&gt;"), "{xml}");
        assert!(!xml.contains("<vs>") && !xml.contains('\u{1}'), "{xml}");
    }
}
