//! `--summary FILE`: a Markdown summary of a check or an A/B run, made for
//! `$GITHUB_STEP_SUMMARY` (a job's summary page on GitHub Actions; other CI
//! systems show Markdown files too). It is appended to FILE, as that file
//! expects: several steps may each add their own summary.
//!
//! Text that comes from a bot or a file (names, details, replay commands)
//! is escaped for Markdown tables and inline HTML.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::model::check::{AbOutcome, AbResult};
use crate::model::check::{CheckReport, Status};
use crate::reporter::{Contender, Finish, ReportError, Reporter, Run};
use crate::sprt::Bounds;

pub struct Summary {
    path: PathBuf,
    /// The A/B plan's names and bounds, told at the start.
    /// NEW's and OLD's names, the bounds in words, what H1 means.
    sprt: Option<(String, String, String, String)>,
}

impl Summary {
    pub fn new(path: &Path) -> Summary {
        Summary {
            path: path.to_path_buf(),
            sprt: None,
        }
    }

    fn append(&self, text: &str) -> Result<(), ReportError> {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(|e| ReportError::new(&self.path, "cannot write the summary", e))
    }
}

/// Text for a Markdown table cell: no column breaks, no markup, one line.
/// Besides HTML, the punctuation that makes links, images, emphasis,
/// strikethrough or a heading (`[`, `]`, `(`, `)`, `!`, `*`, `_`, `~`,
/// `#`) is escaped with a backslash, which CommonMark renders as the
/// character itself: a bot's reply cannot put its image or link in a CI
/// job's summary.
pub fn md_cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\n' | '\r' => out.push(' '),
            '`' => out.push('\''),
            '\\' | '|' | '[' | ']' | '(' | ')' | '!' | '*' | '_' | '~' | '#' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

pub fn check_markdown(report: &CheckReport) -> String {
    let mut out = format!(
        "## {} `referee check`: {} ({} {})\n\n",
        if report.passed { "✅" } else { "❌" },
        md_cell(&report.name),
        md_cell(&report.game),
        md_cell(&report.variant)
    );
    out.push_str(&format!(
        "Bot **{}** (`{}`): {} in {:.1} s.\n\n",
        md_cell(&report.bot),
        md_cell(&report.bot_spec),
        if report.passed {
            "every requirement holds"
        } else {
            "a requirement failed"
        },
        report.elapsed_s
    ));
    if report.time_scale != 1.0 {
        out.push_str(&format!(
            "Time limits scaled by {} (`--time-scale`).\n\n",
            report.time_scale
        ));
    }
    out.push_str("| requirement | result | measured | bound | evidence |\n|---|---|---|---|---|\n");
    for r in &report.requirements {
        let result = match r.status {
            Status::Pass => "✅ pass",
            Status::Fail => "❌ fail",
            Status::NotRun => "⏭ not run",
        };
        out.push_str(&format!(
            "| {} | {result} | {} {} | {} | {} |\n",
            md_cell(&r.name),
            r.measured,
            r.unit,
            md_cell(&r.bound),
            md_cell(&r.summary)
        ));
    }
    let failing: Vec<_> = report
        .requirements
        .iter()
        .filter(|r| !r.details.is_empty())
        .collect();
    if !failing.is_empty() {
        out.push_str("\n<details><summary>Failing games and how to replay them</summary>\n\n");
        for r in failing {
            out.push_str(&format!("**{}**\n\n", md_cell(&r.name)));
            for d in &r.details {
                out.push_str(&format!("- {}\n", md_cell(d)));
            }
            out.push('\n');
        }
        out.push_str("</details>\n");
    }
    out.push('\n');
    out
}

fn sprt_markdown(names: &(String, String, String, String), outcome: &AbOutcome) -> String {
    let (new, old, bounds, h1_means) = names;
    let (icon, verdict) = match outcome.result {
        AbResult::H1 => ("✅", format!("H1 accepted: {h1_means}")),
        AbResult::H0 => ("❌", "H0 accepted: NEW is not better".into()),
        AbResult::Inconclusive => ("⚠️", "inconclusive: the game cap came first".into()),
    };
    let t = &outcome.tally;
    let mut out = format!(
        "## {icon} `referee sprt`: {verdict}\n\nNEW **{}** against OLD **{}**, {}.\n\n",
        md_cell(new),
        md_cell(old),
        md_cell(bounds)
    );
    out.push_str("| games | NEW won | drawn | lost | pairs 0 / ½ / 1 / 1½ / 2 | LLR | verdicts NEW / OLD |\n|---|---|---|---|---|---|---|\n");
    out.push_str(&format!(
        "| {} | {} | {} | {} | {} | {:.3} | {} / {} |\n",
        t.wins + t.draws + t.losses,
        t.wins,
        t.draws,
        t.losses,
        t.pentanomial.map(|n| n.to_string()).join(" / "),
        outcome.llr,
        outcome.verdicts_new,
        outcome.verdicts_old
    ));
    if let Some(replay) = &outcome.first_new_verdict {
        out.push_str(&format!(
            "\nNEW's first verdict replays with: `{}`\n",
            replay.replace('`', "'")
        ));
    }
    out.push('\n');
    out
}

fn plan_names(
    new: &Contender<'_>,
    old: &Contender<'_>,
    b: &Bounds,
) -> (String, String, String, String) {
    (
        new.name.to_string(),
        old.name.to_string(),
        format!(
            "H0 elo {} against H1 elo {}, alpha {}, beta {}",
            b.elo0, b.elo1, b.alpha, b.beta
        ),
        b.h1_means(),
    )
}

impl Reporter for Summary {
    fn run_started(&mut self, run: &Run<'_>) -> Result<(), ReportError> {
        if let Run::Sprt {
            new, old, bounds, ..
        } = run
        {
            self.sprt = Some(plan_names(new, old, bounds));
        }
        Ok(())
    }

    fn run_finished(&mut self, finish: &Finish<'_>) -> Result<(), ReportError> {
        match finish {
            Finish::Check(report) => self.append(&check_markdown(report)),
            Finish::Sprt(outcome) => match &self.sprt {
                Some(names) => self.append(&sprt_markdown(names, outcome)),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_cannot_break_the_table_or_add_markup() {
        assert_eq!(md_cell("a|b<script>\nx`y"), "a\\|b&lt;script&gt; x'y");
        // A reply made of an image and a link stays text.
        assert_eq!(
            md_cell("![pwn](http://x/t.png) [fix](http://y) *z*"),
            "\\!\\[pwn\\]\\(http://x/t.png\\) \\[fix\\]\\(http://y\\) \\*z\\*"
        );
    }
}
