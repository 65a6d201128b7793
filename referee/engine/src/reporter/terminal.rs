//! What a person reads: progress on stderr (a bar on a terminal, plain
//! lines otherwise), and on stdout the account of a match, a tournament's
//! standings, a bench's summary, a check's requirements, an A/B run's
//! progress and result, then the files written. Everything quoted from a
//! bot or a file is shown with control characters escaped ([`crate::text`]).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use super::{fixed, Finish, Place, ReportError, Reporter, Run};
use crate::model::bench::{BenchSummary, Selection};
use crate::model::check::AbResult;
use crate::model::check::{CheckReport, Status};
use crate::model::standings::StandingRow;
use crate::model::tournament::RoundsTables;
use crate::record::MatchRecord;
use crate::report::{as_invoked, render_match};
use crate::sprt::{Bounds, Tally};
use crate::text::{escape, escape_lines};

/// The terminal reporter.
#[derive(Default)]
pub struct Terminal {
    /// Files the run wrote, named after the summary (`CSV: a5.csv`).
    files: Vec<(&'static str, PathBuf)>,
    progress: Option<Progress>,
    /// A bench of one secret: its game, shown in full.
    single: Option<MatchRecord>,
    keep_single: bool,
    /// An A/B run's bounds, and when its last progress line was printed.
    sprt: Option<(Bounds, Instant)>,
    /// A tournament's results folder, and the command that finishes it.
    folder: Option<PathBuf>,
    resume: String,
    /// Progress only: the results are shown by another format (`--json`).
    progress_only: bool,
}

impl Terminal {
    pub fn new() -> Terminal {
        Terminal::default()
    }

    /// A terminal reporter that shows progress on stderr and leaves the
    /// results to another format (`check --json`).
    pub fn progress_only() -> Terminal {
        let mut terminal = Terminal::new();
        terminal.progress_only = true;
        terminal
    }

    /// Names a file the run writes, after the summary: `{label}: {path}`.
    pub fn with_file(mut self, label: &'static str, path: Option<&PathBuf>) -> Terminal {
        if let Some(path) = path {
            self.files.push((label, path.clone()));
        }
        self
    }

    /// The command that finishes a tournament, for the lines that say it
    /// is not finished.
    pub fn with_resume(mut self, command: String) -> Terminal {
        self.resume = command;
        self
    }

    fn print_files(&self) {
        for (label, path) in &self.files {
            println!("{label}: {}", path.display());
        }
    }

    fn finish_progress(&mut self) {
        if let Some(progress) = self.progress.take() {
            progress.finish();
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        self.finish_progress();
    }
}

impl Reporter for Terminal {
    fn run_started(&mut self, run: &Run<'_>) -> Result<(), ReportError> {
        match run {
            Run::Match => {}
            Run::Check {
                name,
                bot,
                requirements,
                jobs,
            } => eprintln!(
                "{}: bot {} ({}), {requirements} requirements, {jobs} jobs",
                escape(name),
                escape(bot.name),
                escape(bot.command),
            ),
            Run::Tournament {
                out,
                total,
                already_done,
                to_play,
                ..
            } => {
                self.folder = Some(out.to_path_buf());
                if *already_done > 0 {
                    eprintln!("resuming: {already_done} games already played, {to_play} to play");
                }
                self.progress = Some(Progress::tournament(*total, *already_done));
            }
            Run::Bench { selection, total } => {
                self.keep_single = matches!(selection, Selection::One(_));
                self.progress = Some(Progress::bench(*total));
            }
            Run::Sprt {
                config,
                new,
                old,
                bounds,
                max_games,
            } => {
                let bounds = *bounds;
                let (lower, upper) = bounds.llr_bounds();
                println!(
                    "SPRT {} ({}): NEW {} vs OLD {}; H0 elo {} H1 elo {}, alpha {} beta {}, LLR bounds [{lower:.3}, {upper:.3}], at most {} games",
                    config.game_name(),
                    config.variant_name(),
                    escape(new.command),
                    escape(old.command),
                    bounds.elo0,
                    bounds.elo1,
                    bounds.alpha,
                    bounds.beta,
                    max_games - max_games % 2
                );
                self.sprt = Some((bounds, Instant::now()));
            }
        }
        Ok(())
    }

    fn game_finished(
        &mut self,
        record: &MatchRecord,
        place: &Place<'_>,
    ) -> Result<(), ReportError> {
        match place {
            Place::Match => {
                print!("{}", render_match(record));
                self.print_files();
            }
            Place::Tournament { row, .. } => {
                if let Some(progress) = &mut self.progress {
                    progress.tick(Some((row.game, &row.detail)));
                }
            }
            Place::Bench { .. } => {
                if let Some(progress) = &mut self.progress {
                    progress.tick(None);
                }
                if self.keep_single {
                    self.single = Some(record.clone());
                }
            }
            Place::Sprt {
                game: 1,
                tally,
                llr,
                ..
            } => {
                if let Some((bounds, last_print)) = &mut self.sprt {
                    // A line every 10 pairs at first, then at most every 2 s.
                    if tally.pairs() <= 10
                        || last_print.elapsed().as_secs_f64() >= 2.0
                        || tally.pairs() % 100 == 0
                    {
                        println!("{}", sprt_line(tally, *llr, bounds));
                        *last_print = Instant::now();
                    }
                }
            }
            Place::Sprt { .. } => {}
        }
        Ok(())
    }

    fn run_finished(&mut self, finish: &Finish<'_>) -> Result<(), ReportError> {
        self.finish_progress();
        match finish {
            Finish::Tournament { outcome, standings } => {
                // Stdout is the event stream's (`--events -`): the
                // standings are in it, and in standings.csv.
                if !self.progress_only {
                    print!("{}", standings_table(&outcome.standings));
                    if let Some(order) = standings.ranking().describe() {
                        println!("{order}");
                    }
                    if let Some(tables) = &outcome.rounds {
                        print!("{}", rounds_table(tables));
                    }
                }
                let folder = self.folder.clone().unwrap_or_default();
                let games_line = format!(
                    "\n{} of {} games in {} ({} played now){}",
                    outcome.total_in_folder,
                    outcome.scheduled,
                    folder.display(),
                    outcome.played_now,
                    if outcome.transcript_failures > 0 {
                        format!(
                            "; {} transcripts could not be written",
                            outcome.transcript_failures
                        )
                    } else {
                        String::new()
                    }
                );
                if self.progress_only {
                    eprintln!("{games_line}");
                } else {
                    println!("{games_line}");
                }
                if !outcome.void_games.is_empty() {
                    let numbers: Vec<String> =
                        outcome.void_games.iter().map(u64::to_string).collect();
                    eprintln!(
                        "{} games were void, their judge failed: games {} ({}); they count for nobody. Play them again with: {}",
                        numbers.len(),
                        numbers.join(", "),
                        // The judge's error quotes its stderr, which a
                        // bot's reply can reach: shown escaped.
                        escape_lines(outcome.void_why.as_deref().unwrap_or("the judge failed")),
                        self.resume
                    );
                }
                let not_played = outcome.not_played - outcome.void_games.len() as u64;
                if not_played > 0 {
                    eprintln!(
                        "{} games were not played ({}); they count for nobody. Play them with: {}",
                        not_played,
                        escape_lines(
                            outcome
                                .not_played_why
                                .as_deref()
                                .unwrap_or("the system would not start a bot")
                        ),
                        self.resume
                    );
                }
                if outcome.interrupted {
                    eprintln!(
                        "interrupted: standings cover the games done; finish with: {}",
                        self.resume
                    );
                }
            }
            Finish::Bench(summary) => {
                if let Some(record) = self.single.take() {
                    print!("{}", render_match(&record));
                    println!();
                }
                print!("{}", escape_lines(&bench_summary(summary)));
                self.print_files();
            }
            Finish::Check(_) if self.progress_only => {}
            Finish::Check(report) => {
                print!("{}", escape_lines(&render_check(report)));
                self.print_files();
            }
            Finish::Sprt(outcome) => {
                let Some((bounds, _)) = &self.sprt else {
                    return Ok(());
                };
                println!("{}", sprt_line(&outcome.tally, outcome.llr, bounds));
                println!(
                    "Pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 for NEW): {:?}",
                    outcome.tally.pentanomial
                );
                if outcome.verdicts_new + outcome.verdicts_old > 0 {
                    println!(
                        "Verdicts: NEW in {} pairs, OLD in {} pairs",
                        outcome.verdicts_new, outcome.verdicts_old
                    );
                    if let Some(first) = &outcome.first_new_verdict {
                        // "NEW <verdict>: referee match ...": the replay as it can be pasted.
                        let first = match first.split_once(": ") {
                            Some((head, replay)) => format!("{head}: {}", as_invoked(replay)),
                            None => first.clone(),
                        };
                        println!("  first of NEW: {}", escape(&first));
                    }
                }
                let line = match outcome.result {
                    AbResult::H1 => format!("H1 accepted: {}", bounds.h1_means()),
                    AbResult::H0 => "H0 accepted: NEW is not better by elo1".into(),
                    AbResult::Inconclusive => "inconclusive: --max-games reached".into(),
                };
                println!("Result: {line} after {} games", outcome.tally.games());
            }
        }
        Ok(())
    }

    fn progress(&mut self, line: &str) {
        eprintln!("check: {}", escape_lines(line));
    }
}

/// A tournament's standings as a table (after a run, or `referee merge`),
/// starting with a blank line.
pub fn standings_table(rows: &[StandingRow]) -> String {
    let mut out = format!(
        "\n{:>4}  {:<20} {:>6} {:>5} {:>5} {:>5} {:>6}  {:>16}  {:>4}\n",
        "rank", "bot", "played", "won", "drawn", "lost", "points", "rating (95%)", "dq"
    );
    for r in rows {
        out.push_str(&format!(
            "{:>4}  {:<20} {:>6} {:>5} {:>5} {:>5} {:>6}  {:>6} ±{:<7}  {:>4}\n",
            r.rank,
            escape(&r.bot),
            r.played,
            r.wins,
            r.draws,
            r.losses,
            r.points,
            fixed(r.rating, 0),
            fixed((r.rating_high - r.rating).max(0.0), 0),
            r.disqualifications()
        ));
    }
    out
}

/// A Swiss tournament's final order (score, Buchholz, rating, byes) or a
/// knockout's bracket, starting with a blank line.
pub fn rounds_table(tables: &RoundsTables) -> String {
    match tables {
        RoundsTables::Swiss {
            table,
            rounds_complete,
            rounds_total,
            ..
        } => {
            let mut out = format!(
                "\nSwiss, {rounds_complete} of {rounds_total} rounds (swiss.csv, rounds.csv)\n\
                 The final order: score (match points, a bye's included), then Buchholz, then rating; \
                 the standings above count the games only.\n\
                 {:>4}  {:<20} {:>6} {:>8} {:>7} {:>4}\n",
                "rank", "bot", "score", "buchholz", "rating", "byes"
            );
            for r in table {
                out.push_str(&format!(
                    "{:>4}  {:<20} {:>6} {:>8} {:>7} {:>4}\n",
                    r.rank,
                    escape(&r.bot),
                    r.score,
                    r.buchholz,
                    fixed(r.rating, 0),
                    r.byes
                ));
            }
            out
        }
        RoundsTables::Knockout { groups, text, .. } => {
            let mut out = String::new();
            if !groups.is_empty() {
                out.push_str(&format!(
                    "\nGroups (groups.csv)\n{:>5} {:>4}  {:<20} {:>6} {:>5} {:>5} {:>5} {:>6} {:>7}\n",
                    "group", "rank", "bot", "played", "won", "drawn", "lost", "points", "rating"
                ));
                for r in groups {
                    out.push_str(&format!(
                        "{:>5} {:>4}  {:<20} {:>6} {:>5} {:>5} {:>5} {:>6} {:>7}{}\n",
                        r.group,
                        r.rank,
                        escape(&r.bot),
                        r.played,
                        r.wins,
                        r.draws,
                        r.losses,
                        r.points,
                        fixed(r.rating, 0),
                        if r.qualified { "  -> knockout" } else { "" }
                    ));
                }
            }
            if !text.is_empty() {
                out.push_str(&format!("\nKnockout (bracket.txt, bracket.csv)\n{text}"));
            }
            out
        }
    }
}

/// A bench's summary: the selection, what was cracked, the histogram of
/// attacks, every failure, the times.
fn bench_summary(s: &BenchSummary) -> String {
    let mut out = String::new();
    let selection = match s.selection {
        Selection::All => format!("all {} secrets", s.secret_count),
        Selection::Sample(k) => format!(
            "{k} of {} secrets, sampled with seed {}",
            s.secret_count, s.seed
        ),
        Selection::One(i) => format!("secret {i} of {}", s.secret_count),
    };
    out.push_str(&format!(
        "Bench: {} ({}), bot {}, {selection}, bot seeds from seed {}, {} job{}\n",
        s.game,
        s.variant,
        s.bot,
        s.seed,
        s.jobs,
        if s.jobs == 1 { "" } else { "s" }
    ));
    out.push_str(&format!("Cracked: {} of {} games\n", s.cracked, s.games));
    out.push_str(&format!(
        "Attacks: average {:.3}, largest {}, {} in all (over the cracked games)\n",
        s.average, s.largest, s.total_attacks
    ));
    out.push_str("Histogram (attacks: games):\n");
    let widest = s.histogram.values().copied().max().unwrap_or(0).max(1);
    for (attacks, games) in &s.histogram {
        let bar = "#".repeat(((games * 50).div_ceil(widest)) as usize);
        out.push_str(&format!(
            "  {attacks:>3}: {games:>7}  {:>5.1}%  {bar}\n",
            100.0 * *games as f64 / s.games.max(1) as f64
        ));
    }
    if s.failures.is_empty() {
        out.push_str("Failures: none\n");
    } else {
        out.push_str(&format!("Failures: {}\n", s.failures.len()));
        for f in &s.failures {
            let detail = if f.detail.is_empty() {
                String::new()
            } else {
                format!(": {}", f.detail)
            };
            out.push_str(&format!(
                "  secret {} [{}]  {} after {} attack{} ({}){detail}\n",
                f.secret_index,
                f.secret,
                f.reason,
                f.attacks,
                if f.attacks == 1 { "" } else { "s" },
                f.verdict
            ));
        }
    }
    out.push_str(&format!(
        "Time: {:.1} s; bot replies {:.3} ms on average, {:.3} ms at most\n",
        s.elapsed.as_secs_f64(),
        s.time_mean_ms,
        s.time_max_ms
    ));
    out
}

/// One progress line of an A/B run.
fn sprt_line(t: &Tally, llr: f64, bounds: &Bounds) -> String {
    let (lower, upper) = bounds.llr_bounds();
    let e = t.elo();
    format!(
        "games {}  W/D/L {}/{}/{}  score {:.1}%  elo {} [{}, {}]  LLR {} [{}, {}]",
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score(),
        fixed(e.elo, 1),
        fixed(e.low, 1),
        fixed(e.high, 1),
        fixed(llr, 2),
        fixed(lower, 2),
        fixed(upper, 2)
    )
}

/// `x` as printed with one decimal, without the sign of a value that
/// rounds to zero (`-0.0`).
/// Progress on stderr: a bar on a terminal; plain lines otherwise, at most
/// one every `every` (a tournament: 5 s; a bench: every tenth of the work,
/// and at least every 10 s).
enum Progress {
    Bar {
        bar: ProgressBar,
        /// Cleared when done (a bench), or left (a tournament).
        clear: bool,
    },
    Lines {
        bench: bool,
        total: u64,
        done: u64,
        start: Instant,
        last: Instant,
        /// A bench's next tenth of the work to report.
        next_step: u64,
    },
}

impl Progress {
    fn lines(bench: bool, total: u64, done: u64) -> Progress {
        let now = Instant::now();
        Progress::Lines {
            bench,
            total,
            done,
            start: now,
            last: now,
            next_step: 1,
        }
    }

    fn tournament(total: u64, already_done: u64) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress::lines(false, total, already_done);
        }
        let bar = ProgressBar::new(total).with_position(already_done);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {rate}  ETA {eta}  {msg}")
                .expect("valid template")
                // indicatif's {per_sec} prints 12.8042/s.
                .with_key(
                    "rate",
                    |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.1} games/s", state.per_sec());
                    },
                ),
        );
        Progress::Bar { bar, clear: false }
    }

    fn bench(total: u64) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress::lines(true, total, 0);
        }
        let bar = ProgressBar::new(total);
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} games, eta {eta}",
            )
            .expect("a valid template"),
        );
        Progress::Bar { bar, clear: true }
    }

    /// One more game done; a tournament's game with its number and what
    /// went wrong in it, if anything.
    fn tick(&mut self, game: Option<(u64, &str)>) {
        match self {
            Progress::Bar { bar, .. } => {
                // A knockout's tie-breaks are games beyond those it
                // announced: the bar grows with them.
                if bar.length().is_some_and(|len| bar.position() >= len) {
                    bar.inc_length(1);
                }
                bar.inc(1);
                if let Some((number, detail)) = game {
                    if !detail.is_empty() {
                        bar.set_message(format!("game {number}: {}", escape(detail)));
                    }
                }
            }
            Progress::Lines {
                bench: false,
                total,
                done,
                start,
                last,
                ..
            } => {
                *done += 1;
                // Tie-breaks, as for the bar.
                *total = (*total).max(*done);
                if last.elapsed() >= Duration::from_secs(5) || done == total {
                    let rate = *done as f64 / start.elapsed().as_secs_f64().max(1e-9);
                    eprintln!("{done}/{total} games ({rate:.1} games/s)");
                    *last = Instant::now();
                }
            }
            Progress::Lines {
                bench: true,
                total,
                done,
                start,
                last,
                next_step,
            } => {
                *done += 1;
                let done = *done;
                let step_reached = done * 10 >= *next_step * *total;
                if step_reached || last.elapsed() >= Duration::from_secs(10) {
                    while done * 10 >= *next_step * *total && *next_step <= 10 {
                        *next_step += 1;
                    }
                    *last = Instant::now();
                    eprintln!(
                        "bench: {done}/{total} games ({:.0}%), {:.1} s",
                        100.0 * done as f64 / (*total).max(1) as f64,
                        start.elapsed().as_secs_f64()
                    );
                }
            }
        }
    }

    fn finish(self) {
        match self {
            Progress::Bar { bar, clear: true } => bar.finish_and_clear(),
            Progress::Bar { bar, clear: false } => bar.finish(),
            Progress::Lines { .. } => {}
        }
    }
}

/// The report for a terminal: one line per requirement, PASS or FAIL first.
pub fn render_check(report: &CheckReport) -> String {
    let mut out = format!(
        "Check {}: bot {} ({}), {} ({})\n",
        report.name, report.bot, report.bot_spec, report.game, report.variant
    );
    if report.time_scale != 1.0 {
        out.push_str(&format!(
            "  time limits x{} (--time-scale)\n",
            report.time_scale
        ));
    }
    for r in &report.requirements {
        out.push_str(&format!(
            "  {}  {}: {} (need {})\n",
            r.status.label(),
            r.name,
            r.summary,
            r.bound
        ));
        for d in &r.details {
            out.push_str(&format!("          {d}\n"));
        }
    }
    let failed: Vec<&str> = report
        .requirements
        .iter()
        .filter(|r| r.status == Status::Fail)
        .map(|r| r.name.as_str())
        .collect();
    let not_run: Vec<&str> = report
        .requirements
        .iter()
        .filter(|r| r.status == Status::NotRun)
        .map(|r| r.name.as_str())
        .collect();
    let not_run = if not_run.is_empty() {
        String::new()
    } else {
        format!(
            "; {} not run (fail-fast): {}",
            not_run.len(),
            not_run.join("; ")
        )
    };
    if failed.is_empty() && not_run.is_empty() {
        out.push_str(&format!(
            "Result: PASS, all {} requirements hold ({:.1} s)\n",
            report.requirements.len(),
            report.elapsed_s
        ));
    } else {
        out.push_str(&format!(
            "Result: FAIL, {} of {} requirements failed: {}{not_run} ({:.1} s)\n",
            failed.len(),
            report.requirements.len(),
            failed.join("; "),
            report.elapsed_s
        ));
    }
    out
}
