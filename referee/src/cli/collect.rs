//! `referee collect`: the teams' submissions into a folder of bots, each
//! admitted after a smoke game against a reference bot, with an admission
//! report (`admission.csv` and the terminal).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use clap::Args;

use referee_engine::bot::{Arena, BotCommand, BotSpecError, Languages};
use referee_engine::collect::made::{self, MadeFolders, PlaceError, ADMISSION_CSV};
use referee_engine::collect::{
    self, unpack::Caps, Admission, FetchError, FetchRules, Found, Status, Submission,
};
use referee_engine::match_plan::MatchPlan;
use referee_engine::reporter::admission::AdmissionReport;
use referee_engine::runner::{play_match, MatchError};
use referee_engine::text::with_causes;
use referee_engine::verdict::Verdict;

use super::{Failure, GameFlags, KeyFlags, LimitFlags};

/// The folder of `--out` where submissions are unpacked before they are
/// admitted (hidden: a `bots_dir` skips it).
const STAGING: &str = ".collect";

/// The long help of `referee collect` (`--help`).
pub const LONG_ABOUT: &str = "Gather the teams' submissions into a folder of bots (--out), ready for a \
tournament file's `bots_dir`. Each submission is unpacked or copied (archives are checked entry \
by entry: no path out of the folder, no links, no devices, size and ratio caps), recognised by \
its language (a folder holding main.py, main.c, Main.java, ...; else its one top-level source \
file), compiled, and admitted only after one smoke game against --reference with no verdict. \
Each admitted team is the folder OUT/TEAM, a one-file team's too (its file keeps its name), so that no bot shares a folder with another's (TEAM: the \
team's name with characters other than letters, digits, '-' and '_' made '_'); a team not \
admitted has no bot there.\n\n\
Sources: --from DIR holds one entry per team: a folder, a .zip, a .tar.gz/.tgz, or one source \
file, named by the team. A team folder whose entries are all folders named by a date (2026-11-30 or \
2026-11-30T12:00:00Z) holds one submission per date; otherwise a submission was handed in when \
it last changed (the latest mtime of its files). --repos CSV lists git repositories (columns \
team,url,ref; ref a tag or branch), cloned with the `git` program, which never asks for a \
password (no terminal, no askpass, no credential helper, ssh in batch mode: a repository must be \
readable without one) and is stopped after --git-timeout (its team is then broken).\n\n\
--deadline keeps each team's latest submission before it (for git: the latest commit of the \
ref, by committer date). A team with only later ones is `missing` (reason `late`). --roster CSV \
(columns student,team) lists the teams expected: one with no submission is `missing`; a \
submission of a team not on it is `broken` (reason `not on the roster`).\n\n\
The report, OUT/admission.csv and the terminal, says for each team: admitted, missing, or \
broken with the reason and the message (the entry refused, the compiler's output, the bot's \
verdict and stderr).\n\n\
Exit codes: 0 it ran (even if teams are broken or missing); 130 stopped by Ctrl-C (the report \
holds the teams done); 2 bad input (a flag, a source \
folder or CSV, no submission at all, two submissions of one team, a reference bot that does \
not play); 1 internal failure. A team's submission that cannot be taken (a .rar, a .txt, a \
link) makes only that team broken.";

/// The example under `referee collect --help`.
pub const AFTER_HELP: &str = "Example:\n  \
referee collect --game arrow5 --from submissions/ --roster roster.csv \\\n      \
--deadline 2026-12-01T18:00:00Z --reference \\\n      \
target/release/arrow5_random --out bots/";

#[derive(Args)]
pub struct CollectArgs {
    /// The game of the contest: arrow5, mastermind, safecracker or cryptron
    #[arg(long)]
    pub game: String,
    /// A folder with one folder, .zip, .tar.gz or source file per team (named by the team)
    #[arg(long, value_name = "DIR")]
    pub from: Option<PathBuf>,
    /// A CSV of git repositories: columns team,url,ref (ref: a tag or branch)
    #[arg(long, value_name = "CSV")]
    pub repos: Option<PathBuf>,
    /// A CSV of the students and their teams: columns student,team
    #[arg(long, value_name = "CSV")]
    pub roster: Option<PathBuf>,
    /// Keep each team's latest submission before this time: 2026-12-01T18:00:00Z (or an offset, +01:00)
    #[arg(long, value_name = "TIME")]
    pub deadline: Option<String>,
    /// The bot each submission plays its smoke game against
    #[arg(long, value_name = "BOT")]
    pub reference: String,
    /// The folder of bots to write: OUT/TEAM for each admitted team, and OUT/admission.csv (a new
    /// or empty folder, or one an earlier collect wrote)
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Time each git command (a clone, a checkout) of --repos may take (ms, s, m, h; a bare number is seconds) before it is stopped
    /// and its team is broken (a server that does not answer) [default: 120s]; at most 24h
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true, value_parser = super::duration)]
    pub git_timeout: Option<std::time::Duration>,
    /// Seed of the smoke games [default: 1]
    #[arg(long, value_parser = super::whole::<u64>)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub game_flags: GameFlags,
    #[command(flatten)]
    pub limits: LimitFlags,
    #[command(flatten)]
    pub key: KeyFlags,
    #[command(flatten)]
    pub events: super::EventFlags,
}

pub fn run_collect(args: CollectArgs, arena: &Arena) -> Result<super::ExitCode, Failure> {
    super::output_folder("--out", &args.out)?;
    let languages = arena.languages();
    let input = |e: collect::CollectError| Failure::Input(anyhow!(e));
    if args.events.on_stdout() {
        return Err(Failure::Input(anyhow!(
            "--events -: collect prints its admission report on stdout; give --events a file"
        )));
    }
    let config = args.game_flags.config(&args.game).map_err(Failure::input)?;
    let deadline = args
        .deadline
        .as_deref()
        .map(collect::parse_deadline)
        .transpose()
        .map_err(input)?;
    if args.from.is_none() && args.repos.is_none() {
        return Err(Failure::Input(anyhow!(
            "collect needs a source: --from DIR (a folder per team) or --repos CSV (git repositories)"
        )));
    }
    let mut reference = BotCommand::parse(&args.reference, languages)
        .map_err(|e| Failure::Input(anyhow!("--reference: {e}")))?;
    let roster = args
        .roster
        .as_deref()
        .map(collect::read_roster)
        .transpose()
        .map_err(input)?;
    let mut found = Vec::new();
    if let Some(from) = &args.from {
        found.extend(collect::folder_submissions(from, deadline, languages).map_err(input)?);
    }
    if let Some(repos) = &args.repos {
        found.extend(collect::repo_submissions(repos).map_err(input)?);
    }
    if found.is_empty() {
        let sources: Vec<String> = [("--from", &args.from), ("--repos", &args.repos)]
            .iter()
            .filter_map(|(flag, path)| path.as_ref().map(|p| format!("{flag} {}", p.display())))
            .collect();
        return Err(Failure::Input(anyhow!(
            "{}: no submissions, nothing to collect (a submission is a team's folder, .zip, \
             .tar.gz or source file, or a line of the repositories CSV; hidden entries are \
             skipped)",
            sources.join(" and ")
        )));
    }
    let mut by_name: BTreeMap<String, Vec<Found>> = BTreeMap::new();
    for f in found {
        by_name.entry(f.team().to_string()).or_default().push(f);
    }
    // Submissions that make one team name (`Team A` and `Team_A`) are
    // that team's, broken until one is renamed; the other teams are
    // collected.
    let by_team: BTreeMap<String, Found> = by_name
        .into_iter()
        .map(|(team, mut same)| {
            let found = match same.len() {
                1 => same.pop().expect("one"),
                n => {
                    let sources: Vec<String> = same.iter().map(describe).collect();
                    let (count, list, mend) = match &sources[..] {
                        [a, b] => ("two".to_string(), format!("{a} and {b}"), "rename one"),
                        _ => (n.to_string(), sources.join(", "), "rename all but one"),
                    };
                    Found::Refused {
                        why: format!(
                            "{count} submissions make the team name '{}': {list}; {mend}",
                            referee_engine::text::escape(&team)
                        ),
                        source: sources.join(" and "),
                        team,
                    }
                }
            };
            (found.team().to_string(), found)
        })
        .collect();
    args.limits.check_sandbox(arena)?;
    let key = args.key.run_key()?;
    // The bots folder must not be a team of the source, nor hold it.
    if let Some(from) = &args.from {
        let out_abs = std::path::absolute(&args.out).map_err(Failure::internal)?;
        let from_abs = from.canonicalize().map_err(Failure::internal)?;
        let out_real = args.out.canonicalize().unwrap_or(out_abs.clone());
        if [&out_abs, &out_real]
            .iter()
            .any(|o| o.starts_with(&from_abs) || from_abs.starts_with(o))
        {
            return Err(Failure::Input(anyhow!(
                "--out {} and --from {}: one is inside the other; give the bots a folder of their own",
                args.out.display(),
                from.display()
            )));
        }
    }
    // Told apart from a team of the same name in the smoke games' records.
    if by_team.contains_key(&reference.name) {
        reference.name = "reference".to_string();
    }

    // Each smoke game's bots see nothing of the submissions (`--from`),
    // nor of the bots folder but their own files (the staged team's
    // folder, or the reference's), nor each other's.
    let submissions: Vec<PathBuf> = [args.from.as_deref(), Some(args.out.as_path())]
        .into_iter()
        .flatten()
        .filter_map(|p| std::path::absolute(p).ok())
        .collect();
    // The reference must play cleanly itself: against itself.
    let smoke = |team_bot: BotCommand| -> Result<referee_engine::record::MatchRecord, MatchError> {
        let mut limits =
            [&team_bot, &reference].map(|bot| args.limits.limits_for(arena, &config, bot.language));
        let run_files = args
            .key
            .hidden()
            .into_iter()
            .chain(submissions.iter().cloned())
            .chain(args.events.hidden());
        let hidden = super::hidden_from_bots(run_files, Some(&args.out), [&team_bot, &reference]);
        for limit in &mut limits {
            limit.process.hidden.extend(hidden.iter().cloned());
        }
        let plan = MatchPlan {
            config: config.clone(),
            seed: args.seed.unwrap_or(1),
            key: key.clone(),
            bots: vec![team_bot, reference.clone()],
            limits: limits.into(),
        };
        play_match(&plan, None)
    };
    let check = smoke(reference.clone());
    // Stopped (Ctrl-C, SIGTERM) while it got ready, the reference's game
    // cut short among it: nothing is written, and the reference is not
    // blamed for the stop.
    if referee_engine::bot::stop_requested() {
        eprintln!("referee: stopped by a signal (Ctrl-C or SIGTERM) before the first team; nothing was written");
        return Ok(super::ExitCode::Interrupted);
    }
    let check = check.map_err(|e| {
        Failure::Input(anyhow!(e).context(format!("--reference {}", args.reference)))
    })?;
    if let Some(bad) = check.players.iter().find(|p| p.verdict != Verdict::Ok) {
        return Err(Failure::Input(anyhow!(
            "--reference {}: it does not play cleanly against itself ({}: {})",
            args.reference,
            bad.verdict,
            bad.disqualification
                .as_ref()
                .map(|d| d.detail.clone())
                .unwrap_or_default()
        )));
    }

    // Collect writes into a folder of its own: one of other files is
    // more likely a slip of the keyboard than a bots folder. (In one it
    // wrote, it still replaces or removes only what it made.)
    let foreign = fs::read_dir(&args.out).ok().and_then(|entries| {
        let names: Vec<_> = entries.flatten().map(|e| e.file_name()).collect();
        let ours = |n: &std::ffi::OsStr| n == ADMISSION_CSV || n == made::RECORD;
        (!names.iter().any(|n| ours(n)))
            .then(|| names.into_iter().find(|n| n != STAGING))
            .flatten()
    });
    if let Some(name) = foreign {
        return Err(Failure::Input(anyhow!(
            "--out {}: it holds '{}' but no admission.csv, so it is not a folder `collect` wrote; \
             name a new or empty folder",
            args.out.display(),
            name.to_string_lossy()
        )));
    }
    fs::create_dir_all(&args.out).map_err(|e| {
        Failure::Input(anyhow!(
            "--out {}: cannot make the folder: {e}",
            args.out.display()
        ))
    })?;
    let out = args.out.canonicalize().map_err(Failure::internal)?;
    // Read before a killed run's staged folders are removed (see
    // `MadeFolders::open`).
    let mut made = MadeFolders::open(&out).map_err(|e| {
        Failure::Input(anyhow!(
            "--out {}: cannot read or write its record {}: {e}",
            args.out.display(),
            made::RECORD
        ))
    })?;
    let staging = out.join(STAGING);
    let _ = fs::remove_dir_all(&staging);
    fs::create_dir(&staging)
        .map_err(|e| Failure::Input(anyhow!("cannot write {}: {e}", staging.display())))?;
    let report_path = out.join(ADMISSION_CSV);
    let mut report = AdmissionReport::new(&report_path);
    let report_error = |e: std::io::Error| {
        Failure::internal(anyhow!("cannot write {}: {e}", report_path.display()))
    };
    let teams: Vec<String> = match &roster {
        Some(roster) => roster
            .keys()
            .chain(by_team.keys())
            .cloned()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect(),
        None => by_team.keys().cloned().collect(),
    };
    let mut events = args.events.open()?;
    if let Some(events) = &mut events {
        events.collect_started(&args.game, &out, teams.len());
    }
    let mut counts = [0usize; 3];
    // Ctrl-C (or SIGTERM) ends the team being played (the handler is
    // installed as the command starts); the report keeps the teams done,
    // and collecting again does them all.
    for team in teams {
        if referee_engine::bot::stop_requested() {
            break;
        }
        // A name collect could not have made (a submission refused for its
        // name) has no folder, and is no path.
        let folder_named = collect::safe_name(&team).as_deref() == Some(team.as_str());
        let taken = folder_named
            .then(|| made.taken_by(&team, languages))
            .flatten();
        let row = match by_team.get(&team) {
            None => Admission {
                team: team.clone(),
                status: Status::Missing,
                language: String::new(),
                source: String::new(),
                reason: "no submission".into(),
                message: by_team
                    .keys()
                    .find(|t| t.eq_ignore_ascii_case(&team))
                    .map(|near| {
                        format!("a submission is named '{near}': names must match, case included")
                    })
                    .unwrap_or_default(),
            },
            Some(Found::Late { submitted, .. }) => Admission {
                team: team.clone(),
                status: Status::Missing,
                language: String::new(),
                source: String::new(),
                reason: "late".into(),
                message: format!(
                    "only submissions after the deadline (the latest: {})",
                    collect::show_time(*submitted)
                ),
            },
            Some(Found::Refused { source, why, .. }) => Admission {
                team: team.clone(),
                status: Status::Broken,
                language: String::new(),
                source: source.clone(),
                reason: "refused".into(),
                message: why.clone(),
            },
            Some(Found::Submitted(submission)) => match &taken {
                // Anything collect did not make that holds the team's
                // name is the organiser's: left as it is, the team refused.
                Some(entry) => Admission {
                    team: team.clone(),
                    status: Status::Broken,
                    language: String::new(),
                    source: submission.origin.describe(),
                    reason: "name taken".into(),
                    message: name_taken(&team, &args.out, entry),
                },
                None => {
                    let not_on_roster = roster
                        .as_ref()
                        .filter(|r| !r.contains_key(&team))
                        .map(|r| not_on_roster(&team, r));
                    admit(
                        submission,
                        not_on_roster,
                        (&mut made, &args.out),
                        &staging,
                        FetchRules {
                            deadline,
                            caps: Caps::default(),
                            git_limit: args.git_timeout.unwrap_or(collect::GIT_TIMEOUT),
                        },
                        languages,
                        &smoke,
                    )
                }
            },
        };
        if referee_engine::bot::stop_requested() {
            break;
        }
        // A team not admitted keeps no bot of an earlier run: the folder
        // collect made for it, never a file of the organiser's of its name.
        if row.status != Status::Admitted && folder_named {
            if let Err(e) = made.remove(&team) {
                eprintln!(
                    "referee: cannot remove {}, the bot of team '{team}' an earlier collect admitted: {e}",
                    out.join(&team).display()
                );
            }
        }
        counts[match row.status {
            Status::Admitted => 0,
            Status::Broken => 1,
            Status::Missing => 2,
        }] += 1;
        if let Some(events) = &mut events {
            events.admission(&row);
        }
        report.team_done(row).map_err(report_error)?;
    }
    let _ = fs::remove_dir_all(&staging);
    report.finish().map_err(report_error)?;
    if let Some(events) = &mut events {
        events.collect_finished(counts[0], counts[1], counts[2]);
    }
    if referee_engine::bot::stop_requested() {
        eprintln!(
            "referee: stopped by Ctrl-C; the report holds the teams done; collect again to do them all"
        );
        return Ok(super::ExitCode::Interrupted);
    }
    Ok(super::ExitCode::Ok)
}

/// Why `team` is not admitted when the roster has no such team: said,
/// with the roster's team that differs from it only in case (`Alpha` for
/// a submission `alpha`), which is then `missing`.
fn not_on_roster(team: &str, roster: &BTreeMap<String, Vec<String>>) -> String {
    let mut message = format!("no student of the roster is in team '{team}'");
    if let Some(near) = roster.keys().find(|t| t.eq_ignore_ascii_case(team)) {
        message.push_str(&format!(
            "; the roster has the team '{near}': names must match, case included (rename the submission or the roster's team)"
        ));
    }
    message
}

/// Why `team` is not admitted when the bots folder `out` holds `entry` of
/// its name that collect did not make (the organiser's reference bot
/// `random.py`, a results folder): collect leaves it as it is.
fn name_taken(team: &str, out: &Path, entry: &str) -> String {
    format!(
        "team '{team}': the bots folder already holds {}, which collect did not make, so it is left as it is and the team is not admitted; move that out of the bots folder, or have the team rename its submission, then collect again",
        out.join(referee_engine::text::escape(entry).as_ref()).display()
    )
}

fn describe(found: &Found) -> String {
    match found {
        Found::Submitted(s) => s.origin.describe(),
        Found::Late { team, .. } => format!("{team} (late)"),
        Found::Refused { source, .. } => source.clone(),
    }
}

/// One team's submission: fetched into the staging folder, recognised,
/// played against the reference, and moved to `out/TEAM` if admitted.
fn admit(
    submission: &Submission,
    not_on_roster: Option<String>,
    (made, out): (&mut MadeFolders, &Path),
    staging: &Path,
    rules: FetchRules,
    languages: &Languages,
    smoke: &dyn Fn(BotCommand) -> Result<referee_engine::record::MatchRecord, MatchError>,
) -> Admission {
    let (team, origin) = (submission.team.as_str(), &submission.origin);
    let mut row = Admission {
        team: team.to_string(),
        status: Status::Broken,
        language: String::new(),
        source: origin.describe(),
        reason: String::new(),
        message: String::new(),
    };
    if let Some(message) = not_on_roster {
        row.reason = "not on the roster".into();
        row.message = message;
        return row;
    }
    let unpacked = staging.join(team);
    let scratch = staging.join(format!("{team}.git"));
    if let Err(e) = collect::fetch(origin, &unpacked, &scratch, rules) {
        let _ = fs::remove_dir_all(&unpacked);
        if let FetchError::Late { .. } = e {
            row.status = Status::Missing;
            row.reason = "late".into();
        } else {
            row.reason = "refused".into();
        }
        row.message = format!("team '{team}': {}", with_causes(&e));
        return row;
    }
    collect::unpack::open_to_bots(&unpacked);
    let root = collect::bot_path(&collect::unpack::lone_folder(&unpacked), languages);
    let root = collect::java_named_by_class(&root, languages);
    if let Some(why) = collect::two_languages(&root, &row.source, languages) {
        row.reason = "not recognised".into();
        row.message = format!("team '{team}': {why}");
        let _ = fs::remove_dir_all(&unpacked);
        return row;
    }
    let mut bot = match BotCommand::parse(&root.to_string_lossy(), languages) {
        Ok(bot) => bot,
        Err(e) => {
            row.reason = match e {
                BotSpecError::NoToolchain { .. } => "no toolchain",
                _ => "not recognised",
            }
            .into();
            row.message = match &e {
                // The staging folder's path means nothing to the user.
                BotSpecError::NoEntryPoint { wanted, .. } => format!(
                    "team '{team}': {}",
                    collect::not_a_bot(&root, &row.source, wanted, languages)
                ),
                _ => format!("team '{team}': {e}"),
            };
            let _ = fs::remove_dir_all(&unpacked);
            return row;
        }
    };
    bot.name = team.to_string();
    row.language = bot.language.name().to_string();
    let record = match smoke(bot) {
        Ok(record) => record,
        Err(e) => {
            row.reason = "not played".into();
            row.message = with_causes(&e);
            let _ = fs::remove_dir_all(&unpacked);
            return row;
        }
    };
    let player = &record.players[0];
    if player.verdict != Verdict::Ok {
        row.reason = player.verdict.to_string();
        let mut message = player
            .disqualification
            .as_ref()
            .map(|d| d.detail.clone())
            .unwrap_or_default();
        if !player.stderr_tail.is_empty() {
            message.push_str("\nstderr:\n");
            message.push_str(&player.stderr_tail.join("\n"));
        }
        row.message = message;
        let _ = fs::remove_dir_all(&unpacked);
        return row;
    }
    // Every bot is a folder of its own, `OUT/TEAM`: a one-file bot's is
    // the folder that holds it (its file keeps its name), so no two teams
    // share a folder, which a bot may read.
    let folder = if root.is_file() {
        root.parent()
            .map_or_else(|| root.clone(), Path::to_path_buf)
    } else {
        root.clone()
    };
    match made.place(team, &folder) {
        Ok(()) => {}
        Err(PlaceError::Taken(entry)) => {
            row.reason = "name taken".into();
            row.message = name_taken(team, out, &entry);
            let _ = fs::remove_dir_all(&unpacked);
            return row;
        }
        Err(e) => {
            row.reason = "not written".into();
            row.message = with_causes(&e);
            let _ = fs::remove_dir_all(&unpacked);
            return row;
        }
    }
    let _ = fs::remove_dir_all(&unpacked);
    row.status = Status::Admitted;
    row
}
