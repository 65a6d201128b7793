//! The referee's secret key: where every code the referee chooses comes
//! from, so that nothing public predicts it.
//!
//! A game's seed is public (it is in the greeting, the tournament file, the
//! replay command). What the referee draws for a game (its codes, the bots'
//! seeds, a coin toss) comes from [`RefereeKey::rng`]: ChaCha20 keyed with a
//! 256-bit secret drawn from the operating system, on the stream named by
//! the game's seed. ChaCha20 is a pseudo-random function of its key: seeing
//! the output of any number of streams (every greeting seed, every code of
//! finished games) tells nothing about the key, so nothing about another
//! stream. Without the key, the same seed gives unrelated codes; with it,
//! the game is reproduced exactly (`--resume`, shards, replay commands).
//!
//! The key lives in a file readable by the referee's user only (0600), in
//! the results folder, which the sandbox hides from every bot.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use rand::{RngCore, SeedableRng};

use crate::input_file::Links;
use rand_chacha::ChaCha20Rng;

/// File name of the key in a results folder.
pub const KEY_FILE: &str = "referee.key";

/// The most read of a key file: 64 hex digits and some white space.
const KEY_CAP: u64 = 4096;

/// 256 secret bits.
#[derive(Clone, PartialEq, Eq)]
pub struct RefereeKey([u8; 32]);

/// Where a run's key came from, for the replay commands it prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeySource {
    /// A file (`--key-file`, or the one kept in a results folder): replay
    /// commands name it.
    File(PathBuf),
    /// Drawn for this run and kept nowhere else: replay commands carry it
    /// (`--key HEX`), since nothing else can reproduce the game.
    Fresh,
    /// Given on the command line (`--key HEX`).
    Given,
}

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("the key must be 64 hexadecimal digits (256 bits); got {0} characters")]
    Length(usize),
    #[error("the key must be 64 hexadecimal digits; '{0}' is not one")]
    Digit(char),
    #[error("cannot read the key file {}: {}", .0.path().display(), .0.why())]
    Read(crate::input_file::InputError),
    #[error("the key file {}: {why}", path.display())]
    Content { path: PathBuf, why: Box<KeyError> },
    #[error("cannot write the key file {}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("it holds a different key than the one given (--key or --key-file): a results folder keeps the key its games were played with")]
    Mismatch,
    #[error("cannot draw a key from the operating system: {0}")]
    Random(rand::Error),
}

impl RefereeKey {
    /// A new key from the operating system's random source.
    pub fn generate() -> Result<RefereeKey, KeyError> {
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng
            .try_fill_bytes(&mut bytes)
            .map_err(KeyError::Random)?;
        Ok(RefereeKey(bytes))
    }

    /// The random stream of the game (or bench secret) with this seed.
    pub fn rng(&self, seed: u64) -> ChaCha20Rng {
        let mut rng = ChaCha20Rng::from_seed(self.0);
        rng.set_stream(seed);
        rng
    }

    pub fn to_hex(&self) -> String {
        crate::text::hex(&self.0)
    }

    pub fn from_hex(text: &str) -> Result<RefereeKey, KeyError> {
        let text = text.trim();
        if text.len() != 64 {
            return Err(KeyError::Length(text.chars().count()));
        }
        let mut bytes = [0u8; 32];
        let digits: Vec<char> = text.chars().collect();
        for (i, pair) in digits.chunks(2).enumerate() {
            let mut byte = 0u8;
            for &c in pair {
                let d = c.to_digit(16).ok_or(KeyError::Digit(c))?;
                byte = byte * 16 + d as u8;
            }
            bytes[i] = byte;
        }
        Ok(RefereeKey(bytes))
    }

    /// Reads a key file the person named (`--key-file`; 64 hex digits,
    /// surrounding white space ignored).
    pub fn read(path: &Path) -> Result<RefereeKey, KeyError> {
        RefereeKey::read_file(path, Links::Followed)
    }

    /// Reads the key kept in a results folder or a shard: a link there is
    /// refused (see [`crate::input_file`]).
    pub fn read_kept(path: &Path) -> Result<RefereeKey, KeyError> {
        RefereeKey::read_file(path, Links::Refused)
    }

    fn read_file(path: &Path, links: Links) -> Result<RefereeKey, KeyError> {
        let text =
            crate::input_file::read_to_string(path, links, KEY_CAP).map_err(KeyError::Read)?;
        RefereeKey::from_hex(&text).map_err(|why| KeyError::Content {
            path: path.to_path_buf(),
            why: Box::new(why),
        })
    }

    /// Writes the key to a new file readable by its owner only. Refuses to
    /// replace an existing file (a key replaced would change every game).
    /// The file is written aside and linked into place only when complete,
    /// so a killed referee leaves either no key file or a whole one.
    pub fn write_new(&self, path: &Path) -> Result<(), KeyError> {
        let error = |source| KeyError::Write {
            path: path.to_path_buf(),
            source,
        };
        let folder = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let mut aside = tempfile::Builder::new()
            .prefix(".referee.key.")
            .tempfile_in(folder)
            .map_err(error)?;
        // tempfile creates the file 0600.
        writeln!(aside, "{}", self.to_hex()).map_err(error)?;
        aside.as_file().sync_all().map_err(error)?;
        aside.persist_noclobber(path).map_err(|e| error(e.error))?;
        if let Ok(dir) = std::fs::File::open(folder) {
            let _ = dir.sync_all();
        }
        Ok(())
    }

    /// The key of a results folder: read if the folder has one (a resumed
    /// run), else `given` (a shared key file) or a new one, written there.
    pub fn for_folder(folder: &Path, given: Option<RefereeKey>) -> Result<RefereeKey, KeyError> {
        let path = folder.join(KEY_FILE);
        if crate::input_file::is_there(&path) {
            let kept = RefereeKey::read_kept(&path)?;
            if let Some(given) = given {
                if given != kept {
                    return Err(KeyError::Content {
                        path,
                        why: Box::new(KeyError::Mismatch),
                    });
                }
            }
            return Ok(kept);
        }
        let key = match given {
            Some(key) => key,
            None => RefereeKey::generate()?,
        };
        key.write_new(&path)?;
        Ok(key)
    }

    /// Eight hex digits that name the key without revealing it (safe to
    /// print and publish): the first word of the key's own stream `u64::MAX`,
    /// which no game uses.
    pub fn fingerprint(&self) -> String {
        let mut rng = ChaCha20Rng::from_seed(self.0);
        rng.set_stream(u64::MAX);
        rng.set_word_pos(1 << 40);
        format!("{:08x}", rng.next_u32())
    }
}

impl fmt::Debug for RefereeKey {
    /// Never the key itself: a debug print must not leak it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RefereeKey({})", self.fingerprint())
    }
}

/// A run's key and where it came from: what every game of the run draws
/// from, and how its replay commands name it.
#[derive(Clone, Debug)]
pub struct RunKey {
    pub key: RefereeKey,
    pub source: KeySource,
}

impl RunKey {
    /// How a command line chose its key: `--key HEX`, `--key-file PATH`, or
    /// neither (a fresh one).
    pub fn from_options(hex: Option<&str>, file: Option<&Path>) -> Result<RunKey, KeyError> {
        let (key, source) = match (hex, file) {
            (Some(hex), _) => (RefereeKey::from_hex(hex)?, KeySource::Given),
            (None, Some(path)) => (RefereeKey::read(path)?, KeySource::File(path.to_path_buf())),
            (None, None) => (RefereeKey::generate()?, KeySource::Fresh),
        };
        Ok(RunKey { key, source })
    }

    /// A fresh key (tests, library users who replay nothing).
    pub fn fresh() -> RunKey {
        RunKey {
            key: RefereeKey::generate().expect("the operating system's random source"),
            source: KeySource::Fresh,
        }
    }

    /// The key kept in a results folder (see [`RefereeKey::for_folder`]).
    pub fn for_folder(folder: &Path, given: Option<RefereeKey>) -> Result<RunKey, KeyError> {
        Ok(RunKey {
            key: RefereeKey::for_folder(folder, given)?,
            source: KeySource::File(folder.join(KEY_FILE)),
        })
    }

    pub fn rng(&self, seed: u64) -> ChaCha20Rng {
        self.key.rng(seed)
    }

    /// The replay command's words that give the same key.
    pub fn replay_flags(&self) -> Vec<String> {
        match &self.source {
            KeySource::File(path) => vec!["--key-file".into(), path.display().to_string()],
            KeySource::Fresh | KeySource::Given => vec!["--key".into(), self.key.to_hex()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn hex_round_trips_and_bad_keys_are_refused_with_why() {
        let key = RefereeKey::generate().unwrap();
        assert_eq!(RefereeKey::from_hex(&key.to_hex()).unwrap(), key);
        assert!(matches!(
            RefereeKey::from_hex("abc"),
            Err(KeyError::Length(3))
        ));
        let bad = format!("{}zz", &key.to_hex()[..62]);
        assert!(matches!(
            RefereeKey::from_hex(&bad),
            Err(KeyError::Digit('z'))
        ));
    }

    #[test]
    fn two_keys_draw_different_streams_for_the_same_seed() {
        let (a, b) = (
            RefereeKey::generate().unwrap(),
            RefereeKey::generate().unwrap(),
        );
        let draw = |k: &RefereeKey| -> Vec<u32> { (0..8).map(|_| k.rng(7).gen()).collect() };
        assert_ne!(draw(&a), draw(&b));
        // The same key and seed: the same stream; another seed: another.
        assert_eq!(a.rng(7).gen::<u64>(), a.rng(7).gen::<u64>());
        assert_ne!(a.rng(7).gen::<u64>(), a.rng(8).gen::<u64>());
    }

    #[test]
    fn the_debug_print_hides_the_key() {
        let key = RefereeKey::generate().unwrap();
        let shown = format!("{key:?}");
        assert!(!shown.contains(&key.to_hex()[..16]), "{shown}");
        assert_eq!(key.fingerprint(), key.clone().fingerprint());
    }

    #[test]
    fn a_folder_keeps_its_key_and_refuses_another() {
        let dir = tempfile::tempdir().unwrap();
        let first = RefereeKey::for_folder(dir.path(), None).unwrap();
        let again = RefereeKey::for_folder(dir.path(), None).unwrap();
        assert_eq!(first, again);
        let other = RefereeKey::generate().unwrap();
        let err = RefereeKey::for_folder(dir.path(), Some(other)).unwrap_err();
        assert!(err.to_string().contains("different key"), "{err}");
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join(KEY_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
