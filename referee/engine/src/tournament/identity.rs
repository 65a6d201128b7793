//! What decides a game, as one hash: its identity. A round robin or a
//! gauntlet keeps its results by identity ([`super::store`]), so that a
//! tournament run again after bots were added, replaced or removed plays
//! only the games whose identity is new.
//!
//! A game's identity is the SHA-256 of:
//! - the tournament's part: the game and its options in their canonical
//!   form ([`crate::games::CanonicalConfig`], version 1), the file's `seed`,
//!   and the referee's secret key (hashed: the key never leaves it);
//! - the content of the bot in seat A, then of the bot in seat B (see
//!   [`bot_content`]: their files, language and limits; not their names,
//!   paths or dates, but for bots of one content under several names,
//!   each made its own by its name: [`contents_of`]);
//! - the game's index within its pairing (0 and 1 for the first pair of
//!   games with sides swapped, 2 and 3 for the next, ...).
//!
//! A game's seed comes from the same things but the key and the seats (both
//! games of a swapped pair share it): adding a bot changes no other game's
//! seed, and the seed printed in a replay command reproduces the game.

use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::plan::TournamentPlan;
use crate::plan_file::TournamentBot;

/// A game's identity, or a bot's content: 256 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hash256(pub [u8; 32]);

impl Hash256 {
    pub fn to_hex(&self) -> String {
        crate::text::hex(&self.0)
    }

    pub fn from_hex(text: &str) -> Option<Hash256> {
        if text.len() != 64 || !text.is_ascii() {
            return None;
        }
        let mut bytes = [0u8; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Hash256(bytes))
    }

    /// The first 64 bits, for shards.
    pub fn low_u64(&self) -> u64 {
        u64::from_le_bytes(self.0[..8].try_into().expect("8 bytes"))
    }
}

/// A bot file that cannot be read to hash it.
#[derive(Debug, thiserror::Error)]
#[error("bot '{bot}': cannot read {} to tell whether it changed", path.display())]
pub struct ContentError {
    pub bot: String,
    pub path: PathBuf,
    #[source]
    pub source: io::Error,
}

/// Every bot's content, in order, hashed on the pool's `jobs` threads: a
/// compiled bot is megabytes to read, and before the first game is
/// played nothing else can use the cores `--jobs` gave the run.
pub fn contents_of(bots: &[TournamentBot], jobs: usize) -> Result<Vec<Hash256>, ContentError> {
    let mut contents: Vec<Option<Result<Hash256, ContentError>>> =
        (0..bots.len()).map(|_| None).collect();
    let mut items = bots.iter().enumerate();
    crate::pool::Pool { jobs, pin: None }.run(
        || items.next(),
        |(i, bot)| (i, bot_content(bot)),
        |(i, content)| {
            contents[i] = Some(content);
            crate::pool::Flow::Go
        },
    );
    // In the plan's order, so that the first failure is the one reported
    // whatever `jobs`; a bot left unhashed (the pool stops handing out
    // work when the referee is asked to stop) is hashed here.
    let contents: Vec<Hash256> = contents
        .into_iter()
        .zip(bots)
        .map(|(content, bot)| content.unwrap_or_else(|| bot_content(bot)))
        .collect::<Result<_, _>>()?;
    Ok(told_apart(contents, bots))
}

/// `contents` with each bot whose content another bot shares (two teams
/// that handed in the same starter, a bot entered twice under two names)
/// made its own by its name: else their games would share identities, and
/// the store would keep one game's result for each of them (a bot that
/// draws at random plays games that differ, and each is recorded as it
/// was played). A bot whose content is its own keeps it, so the games of
/// the other bots stay kept when copies come or go.
fn told_apart(contents: Vec<Hash256>, bots: &[TournamentBot]) -> Vec<Hash256> {
    let mut count = std::collections::HashMap::new();
    for content in &contents {
        *count.entry(*content).or_insert(0usize) += 1;
    }
    contents
        .iter()
        .zip(bots)
        .map(|(content, bot)| {
            if count[content] == 1 {
                return *content;
            }
            let mut h = Sha256::new();
            h.update(content.0);
            h.update(b"\0name\0");
            h.update(bot.name.as_bytes());
            Hash256(h.finalize().into())
        })
        .collect()
}

/// What a bot is, as a hash: its language, its limits, and its files by
/// content. A C or C++ bot is its source; a bot run by an interpreter
/// found in `PATH` (`python3 bot.py`, a `.py` file) is its script and the
/// interpreter's name; an executable given by path is the executable's
/// bytes. Every argument naming a file counts by that file's content, any
/// other argument as written. A folder bot is its source files (those
/// its language builds), each by name and content.
pub fn bot_content(bot: &TournamentBot) -> Result<Hash256, ContentError> {
    let command = &bot.command;
    let mut h = Sha256::new();
    let field = |h: &mut Sha256, tag: &str, bytes: &[u8]| {
        h.update(tag.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    // A file is streamed through the hash: a bot may be larger than the
    // memory it is allowed.
    let file = |h: &mut Sha256, tag: &str, path: &Path| {
        let fail = |source| ContentError {
            bot: bot.name.clone(),
            path: path.to_path_buf(),
            source,
        };
        // A bot's file is a regular file: a link to a device or a FIFO
        // would be hashed for ever.
        let mut f = crate::input_file::open(path, crate::input_file::Links::Followed, u64::MAX)
            .map_err(|e| fail(e.into()))?;
        let len = f.metadata().map_err(fail)?.len();
        h.update(tag.as_bytes());
        h.update(len.to_le_bytes());
        let copied = io::copy(&mut f, h).map_err(fail)?;
        if copied != len {
            return Err(fail(io::Error::other("it changed while it was read")));
        }
        Ok(())
    };
    field(&mut h, "language", command.language.name().as_bytes());
    if let Some(source) = command.source.as_ref().filter(|s| s.is_dir()) {
        // A folder bot is every source file its language builds or runs
        // from the folder (a Python bot's helper modules too), each by its
        // place in the folder and its content.
        let files = crate::bot::spec::source_files(source, command.language);
        field(&mut h, "files", &(files.len() as u64).to_le_bytes());
        for relative in files {
            field(&mut h, "path", relative.as_os_str().as_encoded_bytes());
            file(&mut h, "source", &source.join(relative))?;
        }
    } else if let Some(source) = &command.source {
        file(&mut h, "source", source)?;
    } else if program_is_the_bots(&command.spec, command.language) {
        file(&mut h, "program", &command.program)?;
    } else {
        let name = command
            .program
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        field(&mut h, "interpreter", name.as_bytes());
    }
    for arg in &command.args {
        let path = Path::new(arg);
        if path.is_file() {
            file(&mut h, "file", path)?;
        } else {
            field(&mut h, "arg", arg.as_encoded_bytes());
        }
    }
    let limits = &bot.limits;
    let numbers = [
        limits.time_limit.as_nanos() as u64,
        limits.startup_limit.as_nanos() as u64,
        limits.time_bank.as_nanos() as u64,
        limits.process.memory_kb,
        limits.process.disk_kb,
        u64::from(limits.process.allow_fork),
    ];
    for n in numbers {
        field(&mut h, "limit", &n.to_le_bytes());
    }
    // A margin plays other games; none (the default) leaves the identities
    // of games played before margins existed as they were.
    if !limits.time_margin.is_zero() || limits.strikes > 0 {
        field(
            &mut h,
            "margin",
            &limits.time_margin.as_nanos().to_le_bytes(),
        );
        field(&mut h, "strikes", &limits.strikes.to_le_bytes());
    }
    Ok(Hash256(h.finalize().into()))
}

/// Whether a spec's program is the bot's own file (a path: `./bot`,
/// `dir/bot`) rather than an interpreter found in `PATH` (`python3 x.py`,
/// `x.py`, `bash x.sh`), which counts by name: the machine's python3 may be
/// updated without every game being played again. A `LANG:` prefix is
/// the bot's `language` when it has one (the one it was forced to).
fn program_is_the_bots(spec: &str, language: crate::bot::Language) -> bool {
    let trimmed = spec.trim();
    let names_language = |prefix: &str| {
        let prefix = prefix.to_ascii_lowercase();
        language.name() == prefix || language.def().aliases.contains(&prefix)
    };
    let rest = match trimmed.split_once(':') {
        Some((lang, rest)) if names_language(lang) && !rest.is_empty() => rest.trim(),
        _ => trimmed,
    };
    let first = if Path::new(rest).is_file() {
        rest.to_string()
    } else {
        shell_words::split(rest)
            .ok()
            .and_then(|w| w.into_iter().next())
            .unwrap_or_else(|| rest.to_string())
    };
    first.contains('/') && !first.ends_with(".py")
}

/// The identities and seeds of a tournament's games.
#[derive(Clone, Debug)]
pub struct GameIdentities {
    /// The tournament's part of every identity (with the key).
    tournament: Hash256,
    /// The seeds' part (without the key: seeds are public).
    seeds: Hash256,
    /// Each bot's content, in the plan's order.
    pub contents: Vec<Hash256>,
}

impl GameIdentities {
    /// Reads every bot's files, on up to `jobs` threads. `key` is the
    /// secret key of the results folder.
    pub fn new(
        plan: &TournamentPlan,
        key: &crate::key::RefereeKey,
        jobs: usize,
    ) -> Result<GameIdentities, ContentError> {
        let contents = contents_of(&plan.bots, jobs)?;
        Ok(GameIdentities::from_contents(plan, key, contents))
    }

    /// Each bot's content as the store writes it (hex), by bot index.
    pub fn content_hexes(&self) -> Vec<String> {
        self.contents.iter().map(Hash256::to_hex).collect()
    }

    /// With the bots' contents already known.
    pub fn from_contents(
        plan: &TournamentPlan,
        key: &crate::key::RefereeKey,
        contents: Vec<Hash256>,
    ) -> GameIdentities {
        let mut game = Sha256::new();
        // The configuration as data, never as flags: renaming an option
        // must not make every stored game new (see `CanonicalConfig`).
        game.update(plan.config.canonical().bytes());
        game.update(b"\0seed\0");
        game.update(plan.seed.to_le_bytes());
        let seeds = Hash256(game.clone().finalize().into());
        let mut with_key = Sha256::new();
        with_key.update(seeds.0);
        with_key.update(b"key\0");
        with_key.update(key.to_hex().as_bytes());
        GameIdentities {
            tournament: Hash256(with_key.finalize().into()),
            seeds,
            contents,
        }
    }

    /// The identity of the game with bot `a` in seat A, `b` in seat B,
    /// `index` within their pairing.
    pub fn game(&self, a: usize, b: usize, index: u64) -> Hash256 {
        let mut h = Sha256::new();
        h.update(self.tournament.0);
        h.update(self.contents[a].0);
        h.update(self.contents[b].0);
        h.update(index.to_le_bytes());
        Hash256(h.finalize().into())
    }

    /// The seed of the `pair_round`-th pair of games of bots `i` and `j`
    /// (either order: both games of the pair share it), below 2^53 so that
    /// any JSON reader keeps it.
    pub fn seed(&self, i: usize, j: usize, pair_round: u64) -> u64 {
        let (x, y) = if self.contents[i] <= self.contents[j] {
            (i, j)
        } else {
            (j, i)
        };
        let mut h = Sha256::new();
        h.update(self.seeds.0);
        h.update(self.contents[x].0);
        h.update(self.contents[y].0);
        h.update(pair_round.to_le_bytes());
        let digest: [u8; 32] = h.finalize().into();
        u64::from_le_bytes(digest[..8].try_into().expect("8 bytes")) >> 11
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{Language, Languages};

    #[test]
    fn hex_goes_both_ways() {
        let h = Hash256([0xab; 32]);
        assert_eq!(Hash256::from_hex(&h.to_hex()), Some(h));
        assert_eq!(Hash256::from_hex("xyz"), None);
        assert_eq!(Hash256::from_hex(&"g".repeat(64)), None);
    }

    #[test]
    fn interpreters_count_by_name_and_bot_files_by_content() {
        let (native, python) = (Language::native(), Language::named("python"));
        assert!(program_is_the_bots("./bot", native));
        assert!(program_is_the_bots("/abs/bot --fast", native));
        assert!(program_is_the_bots("native:dir/launcher x", native));
        assert!(!program_is_the_bots("python3 bot.py", python));
        assert!(!program_is_the_bots("dir/bot.py", python));
        assert!(!program_is_the_bots("true", native));
    }

    fn script_bot(dir: &Path, name: &str, text: &str) -> TournamentBot {
        let path = dir.join(format!("{name}.py"));
        std::fs::write(&path, text).unwrap();
        let command =
            crate::bot::BotCommand::parse(path.to_str().unwrap(), &Languages::built_in()).unwrap();
        let config =
            crate::games::GameConfig::from_options("arrow5", &crate::games::GameOptions::default())
                .unwrap();
        let limits = crate::match_plan::MatchLimits::defaults_for(&config, command.language);
        TournamentBot {
            name: name.into(),
            command,
            limits,
        }
    }

    #[test]
    fn bots_of_one_content_under_several_names_are_each_their_own() {
        let dir = tempfile::tempdir().unwrap();
        let alone = script_bot(dir.path(), "alone", "print(0)\n");
        let mut copy_one = script_bot(dir.path(), "starter", "print(1)\n");
        let mut copy_two = copy_one.clone();
        copy_one.name = "team one".into();
        copy_two.name = "team two".into();
        let both = contents_of(&[alone.clone(), copy_one.clone(), copy_two.clone()], 2).unwrap();
        assert_ne!(both[1], both[2], "two names of one file are two bots");
        // The bot of a content of its own keeps it, copies or not: its
        // other games stay kept when a copy comes or goes.
        let without = contents_of(&[alone, copy_one.clone()], 1).unwrap();
        assert_eq!(both[0], without[0]);
        assert_eq!(without[1], contents_of(&[copy_one], 1).unwrap()[0]);
        assert_ne!(
            both[1], without[1],
            "a copy's content is told apart only beside another"
        );
    }

    #[test]
    fn a_time_margin_or_scaled_limits_make_another_bot() {
        let dir = tempfile::tempdir().unwrap();
        let bot = script_bot(dir.path(), "b", "print(1)\n");
        let plain = contents_of(std::slice::from_ref(&bot), 1).unwrap();
        let mut margin = bot.clone();
        margin.limits.time_margin = std::time::Duration::from_millis(50);
        let mut scaled = bot.clone();
        scaled.limits = scaled
            .limits
            .clone()
            .scaled(crate::match_plan::TimeScale::new(2.0).unwrap());
        let with_margin = contents_of(&[margin], 1).unwrap();
        let with_scale = contents_of(&[scaled], 1).unwrap();
        assert_ne!(plain, with_margin);
        assert_ne!(plain, with_scale);
        assert_ne!(with_margin, with_scale);
        // Hashed again, the same.
        assert_eq!(contents_of(&[bot], 1).unwrap(), plain);
    }

    #[test]
    fn bots_hashed_on_several_threads_keep_their_order_and_first_failure() {
        let dir = tempfile::tempdir().unwrap();
        let bots: Vec<TournamentBot> = (0..9)
            .map(|i| script_bot(dir.path(), &format!("b{i}"), &format!("print({i})\n")))
            .collect();
        let one = contents_of(&bots, 1).unwrap();
        for jobs in [2, 3, 16] {
            assert_eq!(contents_of(&bots, jobs).unwrap(), one, "--jobs {jobs}");
        }
        // Two bots gone: the error names the first of them in the plan.
        std::fs::remove_file(dir.path().join("b6.py")).unwrap();
        std::fs::remove_file(dir.path().join("b3.py")).unwrap();
        for jobs in [1, 2, 3] {
            let err = contents_of(&bots, jobs).unwrap_err();
            assert_eq!(err.bot, "b3", "--jobs {jobs}");
        }
        assert!(contents_of(&[], 2).unwrap().is_empty());
    }

    #[test]
    fn a_folder_bot_is_its_source_files() {
        let dir = tempfile::tempdir().unwrap();
        let bot_dir = dir.path().join("team");
        std::fs::create_dir(&bot_dir).unwrap();
        std::fs::write(bot_dir.join("main.py"), "print(1)\n").unwrap();
        std::fs::write(bot_dir.join("util.py"), "x = 1\n").unwrap();
        let content = || {
            let command =
                crate::bot::BotCommand::parse(bot_dir.to_str().unwrap(), &Languages::built_in())
                    .unwrap();
            let config = crate::games::GameConfig::from_options(
                "arrow5",
                &crate::games::GameOptions::default(),
            )
            .unwrap();
            let limits = crate::match_plan::MatchLimits::defaults_for(&config, command.language);
            bot_content(&TournamentBot {
                name: "team".into(),
                command,
                limits,
            })
            .unwrap()
        };
        let first = content();
        assert_eq!(content(), first);
        std::fs::write(bot_dir.join("util.py"), "x = 2\n").unwrap();
        let changed = content();
        assert_ne!(changed, first);
        // Written again with the same files: the same content, whatever the dates.
        let moved = dir.path().join("elsewhere");
        std::fs::rename(&bot_dir, &moved).unwrap();
        std::fs::create_dir(&bot_dir).unwrap();
        for f in ["main.py", "util.py"] {
            std::fs::copy(moved.join(f), bot_dir.join(f)).unwrap();
        }
        assert_eq!(content(), changed);
    }
}
