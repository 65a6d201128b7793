//! Gathering the teams' submissions of a contest into a folder of bots
//! (`referee collect`): where submissions come from (a folder of team
//! folders and archives, or git repositories), which one counts (the
//! latest before a deadline), and the admission report. Unpacking with its
//! checks is [`unpack`]; compiling and the smoke game are the runner's.

pub mod made;
pub mod unpack;

pub use crate::model::admission::{Admission, Status};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, UNIX_EPOCH};

use unpack::{ArchiveKind, Caps, UnpackError};

/// A bad input of `collect`: a file, a flag, two teams of one name.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct CollectError(pub String);

fn bad(message: impl Into<String>) -> CollectError {
    CollectError(message.into())
}

/// Seconds since 1970 (UTC) of `2026-12-01T18:00:00Z`, with `Z` or an
/// offset (`+01:00`); a date alone (`2026-12-01`) is its midnight UTC.
pub fn parse_deadline(text: &str) -> Result<i64, CollectError> {
    let refuse = || {
        bad(format!(
            "--deadline '{text}': give a date and time like 2026-12-01T18:00:00Z (UTC) or 2026-12-01T19:00:00+01:00"
        ))
    };
    let t = text.trim();
    let (date, rest) = if t.len() == 10 {
        (t, "T00:00:00Z")
    } else {
        (
            t.get(..10).ok_or_else(refuse)?,
            t.get(10..).ok_or_else(refuse)?,
        )
    };
    let num = |s: &str| -> Result<i64, CollectError> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(refuse());
        }
        s.parse().map_err(|_| refuse())
    };
    let d: Vec<&str> = date.split('-').collect();
    let [y, m, day] = d.as_slice() else {
        return Err(refuse());
    };
    let (y, m, day) = (num(y)?, num(m)?, num(day)?);
    let rest = rest
        .strip_prefix('T')
        .or_else(|| rest.strip_prefix(' '))
        .ok_or_else(refuse)?;
    let time = rest.get(..8).ok_or_else(refuse)?;
    let zone = &rest[8..];
    let hms: Vec<&str> = time.split(':').collect();
    let [h, min, s] = hms.as_slice() else {
        return Err(refuse());
    };
    let (h, min, s) = (num(h)?, num(min)?, num(s)?);
    let offset = match zone {
        "Z" | "z" => 0,
        _ => {
            let sign = match zone.as_bytes().first() {
                Some(b'+') => 1,
                Some(b'-') => -1,
                _ => return Err(refuse()),
            };
            let (oh, om) = zone[1..].split_once(':').ok_or_else(refuse)?;
            let (oh, om) = (num(oh)?, num(om)?);
            if oh > 23 || om > 59 {
                return Err(refuse());
            }
            sign * (oh * 3600 + om * 60)
        }
    };
    let days_in_month = [
        31,
        28 + i64::from(is_leap(y)),
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&m)
        || day < 1
        || day > days_in_month[(m - 1) as usize]
        || h > 23
        || min > 59
        || s > 59
    {
        return Err(refuse());
    }
    Ok(crate::units::days_from_civil(y, m, day) * 86400 + h * 3600 + min * 60 + s - offset)
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

/// `2026-12-01T18:00:00Z` of seconds since 1970 (before 1970: 1970).
pub fn show_time(secs: i64) -> String {
    let (y, m, d, h, min, sec) = crate::units::utc_civil(secs.max(0) as u64);
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{sec:02}Z")
}

/// A team name made safe for a folder and a bot name: spaces at either
/// end dropped, ASCII letters, digits, `-` and `_` kept, every other
/// character `_` (`Zoë` is `Zo_`, `équipe` is `_quipe`), at most 100 of
/// them. `None` if no ASCII letter or digit is left (`日本`), or if it
/// begins with `-` (a tool would take the folder for an option). Both
/// `collect` and grading's roster name teams with it.
pub fn safe_name(raw: &str) -> Option<String> {
    let name = crate::text::name_chars(raw.trim(), &['-', '_'], 100);
    let usable = name.chars().any(|c| c.is_ascii_alphanumeric()) && !name.starts_with('-');
    usable.then_some(name)
}

/// Why a submission's name gives no team name: what to rename it to.
pub fn unusable_team_name(raw: &str) -> String {
    format!(
        "the name '{}' makes no usable team name: name it with ASCII letters, digits, '-' or '_', not '-' first",
        crate::text::escape(raw)
    )
}

/// Where a team's submission is.
#[derive(Clone, Debug)]
pub enum Origin {
    /// The folder `below` (`TEAM` or `TEAM/DATE`, the team's) of the
    /// organiser's folder `top`.
    Folder {
        top: PathBuf,
        below: PathBuf,
    },
    /// One source file (`team.py`).
    File(PathBuf),
    Archive(PathBuf, ArchiveKind),
    /// A link or special file where a submission was expected: the team's
    /// submission is broken, and the others are collected.
    Refused(PathBuf, String),
    Git {
        url: String,
        reference: String,
    },
}

impl Origin {
    /// For the report: the path or `URL@REF`.
    pub fn describe(&self) -> String {
        match self {
            Origin::Folder { top, below } => top.join(below).display().to_string(),
            Origin::File(p) | Origin::Archive(p, _) | Origin::Refused(p, _) => {
                p.display().to_string()
            }
            Origin::Git { url, reference } => format!("{}@{reference}", shown_url(url)),
        }
    }
}

/// A team's submission, as found.
#[derive(Clone, Debug)]
pub struct Submission {
    /// The safe name: its folder in the bots folder and its bot name.
    pub team: String,
    pub origin: Origin,
}

/// What the sources hold for a team.
#[derive(Clone, Debug)]
pub enum Found {
    Submitted(Submission),
    /// Only submissions after the deadline (the latest one's time).
    Late {
        team: String,
        submitted: i64,
    },
    /// A submission refused before it is fetched, as its name gives no
    /// team name (`team` is then the name as handed in) or another
    /// submission gives the same one: that team is broken, and the
    /// others are collected.
    Refused {
        team: String,
        /// Where it came from, as [`Origin::describe`] says.
        source: String,
        why: String,
    },
}

impl Found {
    pub fn team(&self) -> &str {
        match self {
            Found::Submitted(s) => &s.team,
            Found::Late { team, .. } | Found::Refused { team, .. } => team,
        }
    }
}

/// The last time anything in `path` changed: a file's mtime, or the latest
/// mtime of a folder's entries (links not followed).
fn latest_mtime(path: &Path) -> i64 {
    let secs = |meta: &fs::Metadata| {
        meta.modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0)
    };
    let Ok(meta) = fs::symlink_metadata(path) else {
        return 0;
    };
    if !meta.is_dir() {
        return secs(&meta);
    }
    let mut latest = 0;
    let mut queue = vec![path.to_path_buf()];
    let mut seen = 0;
    while let Some(dir) = queue.pop() {
        for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
            seen += 1;
            if seen > 100_000 {
                return latest;
            }
            if let Ok(meta) = entry.metadata() {
                latest = latest.max(secs(&meta));
                if meta.is_dir() {
                    queue.push(entry.path());
                }
            }
        }
    }
    latest
}

/// A folder whose entries are all folders named by a date
/// (`2026-11-30`, `2026-11-30T12:00:00Z`): one per submission, with the
/// time each was handed in.
fn dated_submissions(dir: &Path) -> Option<Vec<(i64, std::ffi::OsString)>> {
    let mut dated = Vec::new();
    for entry in fs::read_dir(dir).ok()?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let is_dir = entry.file_type().ok()?.is_dir();
        let when = parse_deadline(&name).ok()?;
        if !is_dir {
            return None;
        }
        dated.push((when, entry.file_name()));
    }
    if dated.is_empty() {
        return None;
    }
    dated.sort();
    Some(dated)
}

/// The submissions of a folder holding one entry per team: a folder or an
/// archive (`.zip`, `.tar.gz`, `.tgz`) named by the team. Hidden entries
/// are skipped. A team folder whose entries are all folders named by a
/// date holds one submission per date; otherwise the submission was
/// handed in when it last changed (its latest mtime). With a deadline,
/// each team's latest submission before it counts. A lone file is a
/// submission when one of `languages` takes it as a source.
pub fn folder_submissions(
    from: &Path,
    deadline: Option<i64>,
    languages: &crate::bot::Languages,
) -> Result<Vec<Found>, CollectError> {
    let entries = fs::read_dir(from).map_err(|e| {
        bad(format!(
            "--from {}: cannot read the folder ({e}); give the folder holding one folder or archive per team",
            from.display()
        ))
    })?;
    let mut names: Vec<_> = entries.flatten().map(|e| e.file_name()).collect();
    names.sort();
    let mut found = Vec::new();
    for name in names {
        let shown = name.to_string_lossy().into_owned();
        if shown.starts_with('.') {
            continue;
        }
        let path = from.join(&name);
        let meta = fs::symlink_metadata(&path)
            .map_err(|e| bad(format!("{}: cannot read it: {e}", path.display())))?;
        let (raw_team, origin) = if meta.is_dir() {
            (
                shown.as_str(),
                Origin::Folder {
                    top: from.to_path_buf(),
                    below: PathBuf::from(&name),
                },
            )
        } else if let (true, Some((kind, stem))) = (meta.is_file(), ArchiveKind::of(&shown)) {
            (stem, Origin::Archive(path.clone(), kind))
        } else if let (true, Some(stem)) = (
            meta.is_file() && languages.of_source(&path).is_some(),
            Path::new(&shown).file_stem().and_then(|s| s.to_str()),
        ) {
            (stem, Origin::File(path.clone()))
        } else if !meta.is_file() {
            let what = if meta.file_type().is_symlink() {
                "a symbolic link"
            } else {
                "a special file"
            };
            let team = Path::new(&shown)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or(&shown);
            (
                team,
                Origin::Refused(
                    path.clone(),
                    format!("it is {what}; a team's submission is a folder, a .zip, a .tar.gz or one source file"),
                ),
            )
        } else {
            // A file of another kind (a .tar, a .rar, a .txt): that team's
            // submission is broken, and the others are collected.
            let team = Path::new(&shown)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or(&shown);
            (
                team,
                Origin::Refused(
                    path.clone(),
                    "it is neither an archive the referee unpacks nor a source file of a known language; a team's submission is a folder, a .zip, a .tar.gz or one source file".into(),
                ),
            )
        };
        // Handed in by a team, not the organiser: only that team is
        // broken, as a submission of a kind not taken is.
        let Some(team) = safe_name(raw_team) else {
            found.push(Found::Refused {
                team: raw_team.to_string(),
                source: path.display().to_string(),
                why: unusable_team_name(raw_team),
            });
            continue;
        };
        let mut candidates = match (&origin, dated_submissions(&path)) {
            (Origin::Folder { .. }, Some(dated)) => dated
                .into_iter()
                .map(|(when, date)| {
                    let below = Path::new(&name).join(date);
                    (
                        when,
                        Origin::Folder {
                            top: from.to_path_buf(),
                            below,
                        },
                    )
                })
                .collect(),
            _ => vec![(latest_mtime(&path), origin)],
        };
        let latest_any = candidates.last().map(|c| c.0).unwrap_or(0);
        if let Some(deadline) = deadline {
            candidates.retain(|(when, _)| *when <= deadline);
        }
        found.push(match candidates.pop() {
            Some((_, origin)) => Found::Submitted(Submission { team, origin }),
            None => Found::Late {
                team,
                submitted: latest_any,
            },
        });
    }
    Ok(found)
}

/// The submissions of a CSV of git repositories: columns `team`, `url`,
/// `ref` (a tag or branch; `HEAD` if empty). Cloning is left to
/// [`fetch`].
pub fn repo_submissions(csv_path: &Path) -> Result<Vec<Found>, CollectError> {
    let (mut reader, columns) = csv_table(
        csv_path,
        "--repos",
        &["team", "url", "ref"],
        2,
        "team,url,ref (ref: a tag or branch, optional)",
    )?;
    let (team_col, url_col) = (columns[0].expect("required"), columns[1].expect("required"));
    let ref_col = columns[2];
    let mut found = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let record = record.map_err(|e| bad(format!("{}:{line}: {e}", csv_path.display())))?;
        let field = |c: usize| record.get(c).unwrap_or("").to_string();
        let raw_team = field(team_col);
        let team = safe_name(&raw_team).ok_or_else(|| {
            bad(format!(
                "{}:{line}: {}",
                csv_path.display(),
                unusable_team_name(&raw_team)
            ))
        })?;
        let url = field(url_col);
        if url.is_empty() || url.starts_with('-') {
            return Err(bad(format!(
                "{}:{line}: team '{raw_team}': '{url}' is not a repository address",
                csv_path.display()
            )));
        }
        let reference = ref_col.map(field).filter(|r| !r.is_empty());
        let reference = reference.unwrap_or_else(|| "HEAD".to_string());
        if reference.starts_with('-') {
            return Err(bad(format!(
                "{}:{line}: team '{raw_team}': '{reference}' is not a tag or branch",
                csv_path.display()
            )));
        }
        found.push(Found::Submitted(Submission {
            team,
            origin: Origin::Git { url, reference },
        }));
    }
    Ok(found)
}

/// The teams of a roster CSV (columns `student` and `team`; other columns
/// ignored), by safe name (a name that makes none as written), with their
/// students.
pub fn read_roster(path: &Path) -> Result<BTreeMap<String, Vec<String>>, CollectError> {
    let (mut reader, columns) =
        csv_table(path, "--roster", &["student", "team"], 2, "student,team")?;
    let (student_col, team_col) = (columns[0].expect("required"), columns[1].expect("required"));
    let mut teams: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        let record = record.map_err(|e| bad(format!("{}:{line}: {e}", path.display())))?;
        let raw_team = record.get(team_col).unwrap_or("");
        // A name that makes no folder name stays as written, as grading
        // keeps it: the submission of that name is refused under it.
        let team = safe_name(raw_team).unwrap_or_else(|| raw_team.to_string());
        if team.is_empty() {
            return Err(bad(format!("{}:{line}: no team's name", path.display())));
        }
        // As grading reads the roster (`crate::grading::read_roster`), so
        // that a class list collect takes is one the grades take too.
        let student = record.get(student_col).unwrap_or("").to_string();
        if student.is_empty() {
            return Err(bad(format!("{}:{line}: no student's name", path.display())));
        }
        if let Some((other, _)) = teams
            .iter()
            .find(|(t, students)| **t != team && students.contains(&student))
        {
            return Err(bad(format!(
                "{}:{line}: the student '{}' is listed twice, in the teams '{other}' and '{team}'; a student is in one team",
                path.display(),
                crate::text::escape(&student)
            )));
        }
        teams.entry(team).or_default().push(student);
    }
    Ok(teams)
}

/// A CSV file given as `flag`, fields trimmed, and the position of each of
/// `names` in its first line (any case); the first `required` must be
/// there, or the error says the first line must name `columns`.
fn csv_table(
    path: &Path,
    flag: &str,
    names: &[&str],
    required: usize,
    columns: &str,
) -> Result<(csv::Reader<std::fs::File>, Vec<Option<usize>>), CollectError> {
    let file = crate::input_file::open(
        path,
        crate::input_file::Links::Followed,
        crate::input_file::TEXT_CAP,
    )
    .map_err(|e| bad(format!("{flag}: {e}")))?;
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(file);
    let headers = reader
        .headers()
        .map_err(|e| bad(format!("{flag} {}: {e}", path.display())))?;
    let found: Vec<Option<usize>> = names
        .iter()
        .map(|name| headers.iter().position(|h| h.eq_ignore_ascii_case(name)))
        .collect();
    if found[..required].iter().any(Option::is_none) {
        return Err(bad(format!(
            "{flag} {}: the first line must name the columns {columns}",
            path.display()
        )));
    }
    Ok((reader, found))
}

/// How long one `git` command (a clone, a checkout) may take by default
/// before it is stopped (`collect --git-timeout`).
pub const GIT_TIMEOUT: Duration = Duration::from_secs(120);

/// What `git` is told so that it never waits for a person: no terminal
/// prompt, no askpass program (an empty `GIT_ASKPASS` hides `core.askPass`
/// and `SSH_ASKPASS`), ssh in batch mode (no password, no question about
/// an unknown host key).
const GIT_ENV: &[(&str, &str)] = &[
    ("GIT_TERMINAL_PROMPT", "0"),
    ("GIT_ASKPASS", ""),
    ("SSH_ASKPASS", ""),
    (
        "GIT_SSH_COMMAND",
        "ssh -o BatchMode=yes -o ConnectTimeout=30",
    ),
    ("GIT_ALLOW_PROTOCOL", "file:git:http:https:ssh"),
];

/// The secret a repository address carries: the user information of a
/// URL, `oauth2:TOKEN` in `https://oauth2:TOKEN@host/team.git` (the way
/// to read a private repository without a credential helper). `None`
/// without one; ssh's user alone (`ssh://git@host/...`) is no secret.
fn url_secret(url: &str) -> Option<(usize, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    let authority = &rest[..rest.find('/').unwrap_or(rest.len())];
    let (userinfo, _) = authority.rsplit_once('@')?;
    let ssh_user = scheme.eq_ignore_ascii_case("ssh") && !userinfo.contains(':');
    (!userinfo.is_empty() && !ssh_user).then_some((scheme.len() + 3, userinfo))
}

/// A repository address as the report and messages show it, its secret
/// (see `url_secret`) as `***`: `admission.csv` and the terminal are
/// shown to others, and the token would let them read the repository.
pub fn shown_url(url: &str) -> String {
    match url_secret(url) {
        Some((at, secret)) => format!("{}***{}", &url[..at], &url[at + secret.len()..]),
        None => url.to_string(),
    }
}

/// `text` (git's message about `url`) with `url`'s secret as `***`.
fn without_secret(text: &str, url: &str) -> String {
    match url_secret(url) {
        Some((_, secret)) => text.replace(secret, "***"),
        None => text.to_string(),
    }
}

/// Runs `git` with `args` in its own session (see [`crate::bot::tool`]),
/// stopped after `limit`, with no credential helper (a helper may open a
/// window or ask on the terminal); its stdout, or on failure its stderr.
fn git(url: &str, args: &[&str], limit: Duration) -> Result<String, FetchError> {
    let mut command = Command::new("git");
    command
        .args(["-c", "credential.helper=", "-c", "core.askPass="])
        .args(args)
        .envs(GIT_ENV.iter().copied());
    let out = crate::bot::tool::run(command, limit).map_err(|source| FetchError::GitRun {
        url: shown_url(url),
        source,
    })?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    } else {
        Err(FetchError::Git {
            url: shown_url(url),
            message: without_secret(String::from_utf8_lossy(&out.stderr).trim(), url),
        })
    }
}

/// Why a submission could not be fetched.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error(transparent)]
    Refused(#[from] UnpackError),
    /// git ran and refused: its message.
    #[error("git: {url}: {message}")]
    Git { url: String, message: String },
    /// git did not run, or did not end in its time.
    #[error("git: {url}")]
    GitRun {
        url: String,
        #[source]
        source: crate::bot::tool::ToolError,
    },
    /// Only commits after the deadline.
    #[error("no commit of {reference} before the deadline")]
    Late { reference: String },
}

/// What a submission is fetched under.
#[derive(Clone, Copy, Debug)]
pub struct FetchRules {
    /// Seconds since 1970 (UTC): a git ref's latest commit before it.
    pub deadline: Option<i64>,
    /// The most a submission may hold once unpacked.
    pub caps: Caps,
    /// The time of each git command ([`GIT_TIMEOUT`] by default).
    pub git_limit: Duration,
}

/// Puts the submission's files into `dest` (which must not exist): unpacked,
/// copied, or checked out at the latest commit of its ref before the
/// deadline. `scratch` is a folder for the clone (removed after).
pub fn fetch(
    origin: &Origin,
    dest: &Path,
    scratch: &Path,
    rules: FetchRules,
) -> Result<(), FetchError> {
    let FetchRules {
        deadline,
        caps,
        git_limit,
    } = rules;
    match origin {
        Origin::Folder { top, below } => Ok(unpack::copy_folder(top, below, dest, caps)?),
        Origin::File(path) => Ok(unpack::copy_file(path, dest, caps)?),
        Origin::Archive(path, kind) => Ok(unpack::unpack_archive(path, *kind, dest, caps)?),
        Origin::Refused(_, why) => Err(unpack::UnpackError::Whole(why.clone()).into()),
        Origin::Git { url, reference } => {
            let _ = fs::remove_dir_all(scratch);
            let clone = scratch.to_string_lossy().into_owned();
            let result = (|| {
                let git = |args: &[&str]| git(url, args, git_limit);
                git(&["clone", "--quiet", "--no-checkout", "--", url, &clone])?;
                let resolved = [
                    format!("refs/tags/{reference}"),
                    format!("refs/remotes/origin/{reference}"),
                    reference.clone(),
                ]
                .into_iter()
                .find_map(|r| {
                    git(&[
                        "-C",
                        &clone,
                        "rev-parse",
                        "--verify",
                        "--quiet",
                        &format!("{r}^{{commit}}"),
                    ])
                    .ok()
                })
                .ok_or_else(|| FetchError::Git {
                    url: shown_url(url),
                    message: format!("no tag or branch '{reference}'"),
                })?;
                let commit = match deadline {
                    None => resolved,
                    Some(secs) => {
                        let before = format!("--before={secs}");
                        let found =
                            git(&["-C", &clone, "rev-list", "-n", "1", &before, &resolved])?;
                        if found.is_empty() {
                            return Err(FetchError::Late {
                                reference: reference.clone(),
                            });
                        }
                        found
                    }
                };
                git(&["-C", &clone, "checkout", "--quiet", "--detach", &commit])?;
                let (top, below) = match (scratch.parent(), scratch.file_name()) {
                    (Some(top), Some(below)) => (top, Path::new(below)),
                    _ => (scratch, Path::new("")),
                };
                Ok(unpack::copy_folder(top, below, dest, caps)?)
            })();
            let _ = fs::remove_dir_all(scratch);
            result
        }
    }
}

/// Why the unpacked submission at `root` (shown to the user as `shown`,
/// its source) is no bot, and what the team should hand in instead: it
/// is empty, it holds several source files and no entry file (which one
/// is the bot?), or neither. `wanted`: the entry files of the languages.
pub fn not_a_bot(
    root: &Path,
    shown: &str,
    wanted: &str,
    languages: &crate::bot::Languages,
) -> String {
    let shown = crate::text::escape(shown);
    let mut names: Vec<(String, bool)> = fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| {
            let source = e.file_type().is_ok_and(|t| t.is_file())
                && languages.of_source(&e.path()).is_some();
            (
                crate::text::escape(&e.file_name().to_string_lossy()).into_owned(),
                source,
            )
        })
        .collect();
    names.sort();
    let listed = |names: Vec<&String>| {
        const SHOWN: usize = 8;
        let mut text = names
            .iter()
            .take(SHOWN)
            .map(|n| n.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        if names.len() > SHOWN {
            text.push_str(&format!(", and {} more", names.len() - SHOWN));
        }
        text
    };
    let sources: Vec<&String> = names.iter().filter(|(_, s)| *s).map(|(n, _)| n).collect();
    let entry = format!("a folder bot starts from its language's entry file, one of: {wanted}");
    if names.is_empty() {
        format!(
            "{shown} is empty (it holds no file); hand in the bot: a folder or archive holding its entry file, or one source file ({entry})"
        )
    } else if sources.len() > 1 {
        format!(
            "{shown} holds {} source files ({}) and no entry file, so which one is the bot is not known; name the bot's main file as its entry file, or hand in that one file alone ({entry})",
            sources.len(),
            listed(sources)
        )
    } else {
        format!(
            "{shown} holds no bot: no entry file and no source file of a known language at its top (it holds {}); {entry}",
            listed(names.iter().map(|(n, _)| n).collect())
        )
    }
}

/// When the folder `root` (shown as `shown`) holds the entry files of
/// more than one language (`main.c` and `main.py`), why that is no bot: the
/// referee would take the first language's and the team may have meant
/// the other. `None` for a file, or a folder of one language at most.
pub fn two_languages(
    root: &Path,
    shown: &str,
    languages: &crate::bot::Languages,
) -> Option<String> {
    if !root.is_dir() {
        return None;
    }
    let entries: Vec<String> = languages
        .all()
        .into_iter()
        .filter_map(|lang| {
            let entry = lang.folder_entry(root)?;
            let name = entry
                .strip_prefix(root)
                .unwrap_or(&entry)
                .display()
                .to_string();
            Some(format!(
                "{} for {}",
                crate::text::escape(&name),
                lang.name()
            ))
        })
        .collect();
    (entries.len() > 1).then(|| {
        format!(
            "{} holds the entry files of {} languages ({}), so which one is the bot is not known; keep only the bot's",
            crate::text::escape(shown),
            entries.len(),
            entries.join(", ")
        )
    })
}

/// A lone Java source named otherwise than its public class (`team7.java`
/// holding `public class Arrow5Starter`: a one-file submission is named by
/// its team) renamed after the class, as `javac` requires; any other path
/// (a folder, another language, a class named as its file, no public
/// class found, a file of the class's name already there) as it is.
pub fn java_named_by_class(path: &Path, languages: &crate::bot::Languages) -> PathBuf {
    let unchanged = || path.to_path_buf();
    if !path.is_file() || languages.of_source(path).map(|l| l.name()) != Some("java") {
        return unchanged();
    }
    let Some(class) = fs::read_to_string(path).ok().and_then(|s| public_class(&s)) else {
        return unchanged();
    };
    let renamed = path.with_file_name(format!("{class}.java"));
    if renamed == path || renamed.exists() || fs::rename(path, &renamed).is_err() {
        return unchanged();
    }
    renamed
}

/// The name of the first top-level `public` class (interface, enum,
/// record) of a Java source, comments and literals skipped.
fn public_class(source: &str) -> Option<String> {
    let chars: Vec<char> = source.chars().collect();
    let (mut i, mut depth) = (0, 0usize);
    // The words of the declaration being read at the top level.
    let mut words: Vec<String> = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == '"' || c == '\'' {
            i += 1;
            while i < chars.len() && chars[i] != c {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            if depth == 0 {
                let declares = matches!(
                    words.last().map(String::as_str),
                    Some("class" | "interface" | "enum" | "record")
                );
                if declares && words.iter().any(|w| w == "public") {
                    return Some(word);
                }
                words.push(word);
            }
        } else {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if matches!(c, '{' | '}' | ';') && depth <= 1 {
                words.clear();
            }
            i += 1;
        }
    }
    None
}

// Where a submission's bot is: below both collect and the tournament
// file's `bots_dir`, which reads collect's folders the same way.
pub use crate::plan_file::bot_path;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_read_as_utc_seconds() {
        assert_eq!(parse_deadline("1970-01-01T00:00:00Z").unwrap(), 0);
        assert_eq!(parse_deadline("2000-03-01").unwrap(), 951868800);
        assert_eq!(
            parse_deadline("2026-12-01T19:00:00+01:00").unwrap(),
            parse_deadline("2026-12-01T18:00:00Z").unwrap()
        );
        assert!(parse_deadline("2026-02-30T00:00:00Z").is_err());
        assert!(parse_deadline("tomorrow").is_err());
        assert!(parse_deadline("2026-12-01T18:00:00").is_err());
        let t = parse_deadline("2024-02-29T23:59:58Z").unwrap();
        assert_eq!(show_time(t), "2024-02-29T23:59:58Z");
    }

    #[test]
    fn the_public_class_of_a_java_source_is_found() {
        let source = "// public class Comment {}\n/* public class Block */\nimport java.util.*;\n\
                      class Helper { public class Inner {} }\n\
                      @SuppressWarnings(\"x\") public final class Arrow5Starter {\n  String s = \"public class No\";\n}\n";
        assert_eq!(public_class(source).as_deref(), Some("Arrow5Starter"));
        assert_eq!(public_class("class Main {}"), None);
    }

    #[test]
    fn repository_secrets_are_not_shown() {
        let shown = |url| shown_url(url);
        assert_eq!(
            shown("https://oauth2:glpat-XYZ@gitlab.example/t/bot.git"),
            "https://***@gitlab.example/t/bot.git"
        );
        assert_eq!(
            shown("https://ghp_TOKEN@github.com/t/bot"),
            "https://***@github.com/t/bot"
        );
        assert_eq!(
            shown("ssh://git@host/t/bot.git"),
            "ssh://git@host/t/bot.git"
        );
        assert_eq!(
            shown("git@github.com:t/bot.git"),
            "git@github.com:t/bot.git"
        );
        assert_eq!(shown("https://host/a@b.git"), "https://host/a@b.git");
        assert_eq!(shown("/srv/git/team"), "/srv/git/team");
        assert_eq!(
            without_secret("fatal: 'https://u:pw1@h/x' refused", "https://u:pw1@h/x"),
            "fatal: 'https://***@h/x' refused"
        );
    }

    #[test]
    fn team_names_are_made_safe() {
        assert_eq!(safe_name(" Team Rocket! ").as_deref(), Some("Team_Rocket_"));
        assert_eq!(safe_name("../..").as_deref(), None);
        assert_eq!(safe_name("-rf").as_deref(), None);
        // Every character but ASCII letters, digits, `-` and `_` is `_`,
        // first and last too: `Zoë` and `Zo` are two teams.
        assert_eq!(safe_name("Zoë").as_deref(), Some("Zo_"));
        assert_eq!(safe_name("équipe").as_deref(), Some("_quipe"));
        assert_eq!(safe_name("_team").as_deref(), Some("_team"));
        assert_eq!(safe_name("日本"), None);
        assert_eq!(safe_name("__"), None);
        assert_eq!(safe_name(&"a".repeat(300)).map(|n| n.len()), Some(100));
    }
}
