//! JUnit XML for CI systems: one `<testsuite>` for the check, one
//! `<testcase>` per requirement, the measured value in `<system-out>` and a
//! `<failure message=...>` when the requirement does not hold. Written by
//! hand: the shape is small, and [`escape`] covers every character XML 1.0
//! cannot hold raw.

use super::{CheckReport, Status};

/// Text safe inside an XML attribute or element: markup characters become
/// entities, characters XML 1.0 forbids (most control characters) become
/// `?`.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// The report as JUnit XML: a failed requirement is a `<failure>`, one
/// `--fail-fast` left undecided is `<skipped>`.
pub fn render(report: &CheckReport) -> String {
    let count = |status| {
        report
            .requirements
            .iter()
            .filter(|r| r.status == status)
            .count()
    };
    let (failures, skipped) = (count(Status::Fail), count(Status::NotRun));
    let suite = escape(&report.name);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites name=\"referee check\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{:.3}\">\n",
        report.requirements.len(),
        report.elapsed_s
    ));
    out.push_str(&format!(
        "  <testsuite name=\"{suite}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{:.3}\">\n",
        report.requirements.len(),
        report.elapsed_s
    ));
    out.push_str(&format!(
        "    <properties>\n      <property name=\"game\" value=\"{}\"/>\n      <property name=\"variant\" value=\"{}\"/>\n      <property name=\"bot\" value=\"{}\"/>\n    </properties>\n",
        escape(&report.game),
        escape(&report.variant),
        escape(&report.bot_spec)
    ));
    for r in &report.requirements {
        out.push_str(&format!(
            "    <testcase name=\"{}\" classname=\"{suite}.{}\">\n",
            escape(&r.name),
            r.kind
        ));
        let mut text = format!(
            "measured: {} {} (need {})\n{}\n",
            r.measured, r.unit, r.bound, r.summary
        );
        for d in &r.details {
            text.push_str(d);
            text.push('\n');
        }
        if r.status == Status::NotRun {
            out.push_str(&format!(
                "      <skipped message=\"{}\"/>\n",
                escape(&format!("{}: not run (fail-fast)", r.name))
            ));
        }
        if r.status == Status::Fail {
            out.push_str(&format!(
                "      <failure message=\"{}\" type=\"{}\">{}</failure>\n",
                escape(&format!("{}: {} (need {})", r.name, r.summary, r.bound)),
                r.kind,
                escape(&text)
            ));
        }
        out.push_str(&format!(
            "      <system-out>{}</system-out>\n",
            escape(&text)
        ));
        out.push_str("    </testcase>\n");
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{RequirementResult, REPORT_VERSION};

    #[test]
    fn markup_and_control_characters_are_escaped() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>\u{1}\n"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;?\n"
        );
    }

    #[test]
    fn one_case_per_requirement_and_a_failure_for_each_failed_one() {
        let case = |name: &str, passed| RequirementResult {
            name: name.into(),
            kind: "win-rate",
            passed,
            status: if passed { Status::Pass } else { Status::Fail },
            measured: 35.0,
            unit: "%",
            bound: ">= 40%".into(),
            summary: "won 7 of 20 games <vs> \"x\"".into(),
            details: vec![],
        };
        let report = CheckReport {
            version: REPORT_VERSION,
            name: "c&c".into(),
            game: "arrow5".into(),
            variant: "classic".into(),
            bot: "b".into(),
            bot_spec: "./b".into(),
            passed: false,
            fail_fast: false,
            elapsed_s: 1.0,
            requirements: vec![case("one", true), case("two", false)],
        };
        let xml = render(&report);
        assert_eq!(xml.matches("<testcase ").count(), 2);
        assert_eq!(xml.matches("<failure ").count(), 1);
        assert!(xml.contains("name=\"c&amp;c\""));
        assert!(xml.contains("&lt;vs&gt; &quot;x&quot;"));
        assert!(!xml.contains("<vs>"));
    }
}
