//! What `collect` itself put in a bots folder, so that it replaces or
//! removes only that: the organiser may keep other files there (a
//! reference bot `random.py`, a results folder), and a team that hands in
//! a submission of their name must not have them removed.
//!
//! The record is `OUT/.collect-made`: one line per team folder collect
//! moved in, `DEVICE INODE BIRTH TEAM`, the folder's identity taken before
//! the move (a rename keeps it). A folder is collect's when the record
//! names it and its identity is the recorded one, so a collect killed at
//! any moment leaves a record that claims no file it did not make (a claim
//! written before its move is of the staged folder, which `OUT/TEAM` is
//! only once the move is done) and loses none it made (the claim is
//! written before the move). Hidden, so a `bots_dir` skips it.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::input_file::{self, Links};

/// The record's name in the bots folder.
pub const RECORD: &str = ".collect-made";

/// The admission report's name in the bots folder.
pub const ADMISSION_CSV: &str = "admission.csv";

/// A folder's identity: device, inode, and birth time (ns since 1970; 0
/// where the file system keeps none), so that an inode number used again
/// by a folder made later is not taken for the one recorded.
type Identity = (u64, u64, u128);

/// The identity of `path` itself (a link is not followed), if it is a
/// folder.
fn folder_identity(path: &Path) -> Option<Identity> {
    let meta = fs::symlink_metadata(path).ok()?;
    if !meta.is_dir() {
        return None;
    }
    let birth = meta
        .created()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    Some((meta.dev(), meta.ino(), birth))
}

/// The team folders collect made in a bots folder (see the module's doc).
pub struct MadeFolders {
    out: PathBuf,
    folders: BTreeMap<String, Identity>,
}

/// Why a team's folder was not moved into the bots folder.
#[derive(Debug, thiserror::Error)]
pub enum PlaceError {
    /// Something collect did not make holds the team's name: its entry name.
    #[error("the bots folder holds '{0}', which collect did not make")]
    Taken(String),
    /// The folder, or the record, could not be written.
    #[error("cannot put the team's bot at {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

impl MadeFolders {
    /// The record of `out` (a folder), its claims of folders no longer
    /// there (a collect killed between a claim and its move, a folder the
    /// organiser removed) dropped, written back. With no record (a folder
    /// of a collect before it was kept), the folders of the teams its
    /// `admission.csv` says admitted are collect's. Call it before the
    /// staged folders of a killed run are removed: while they are there,
    /// no other folder has their identity.
    pub fn open(out: &Path) -> io::Result<MadeFolders> {
        let record = out.join(RECORD);
        let claimed: Vec<(String, Identity)> = if fs::symlink_metadata(&record).is_ok() {
            let bytes = input_file::read(&record, Links::Refused, input_file::TEXT_CAP)
                .map_err(|e| io::Error::other(e.to_string()))?;
            String::from_utf8_lossy(&bytes)
                .lines()
                .filter_map(|line| {
                    let mut words = line.splitn(4, ' ');
                    let dev = words.next()?.parse().ok()?;
                    let ino = words.next()?.parse().ok()?;
                    let birth = words.next()?.parse().ok()?;
                    Some((words.next()?.to_string(), (dev, ino, birth)))
                })
                .collect()
        } else {
            admitted_teams(out)
                .into_iter()
                .filter_map(|team| Some((team.clone(), folder_identity(&out.join(team))?)))
                .collect()
        };
        let mut made = MadeFolders {
            out: out.to_path_buf(),
            folders: BTreeMap::new(),
        };
        made.folders = claimed
            .into_iter()
            .filter(|(team, identity)| {
                // A claim is a path to remove: only a team's name as
                // collect makes them (no `/`, no `..`) is taken.
                super::safe_name(team).as_deref() == Some(team.as_str())
                    && folder_identity(&out.join(team)) == Some(*identity)
            })
            .collect();
        made.write()?;
        Ok(made)
    }

    fn write(&self) -> io::Result<()> {
        let mut text = String::new();
        for (team, (dev, ino, birth)) in &self.folders {
            text.push_str(&format!("{dev} {ino} {birth} {team}\n"));
        }
        crate::atomic_file::write(&self.out.join(RECORD), text)
    }

    /// Whether `OUT/TEAM` is the folder collect made for `team`.
    fn made(&self, team: &str) -> bool {
        self.folders
            .get(team)
            .is_some_and(|identity| folder_identity(&self.out.join(team)) == Some(*identity))
    }

    /// What collect did not make and that holds `team`'s name in the bots
    /// folder (its entry name): `OUT/TEAM` itself (of any case, on a file
    /// system that ignores it), an entry of that name in any case, or a
    /// source file of that stem (a `bots_dir` takes it for a bot of that
    /// name). Hidden entries (collect's own) hold no team's name, which
    /// never begins with `.`.
    pub fn taken_by(&self, team: &str, languages: &crate::bot::Languages) -> Option<String> {
        let at_name = self.out.join(team);
        if fs::symlink_metadata(&at_name).is_ok() && !self.made(team) {
            return Some(team.to_string());
        }
        let mut names: Vec<String> = fs::read_dir(&self.out)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| !name.starts_with('.') && !self.made(name))
            .collect();
        names.sort();
        names.into_iter().find(|name| {
            let path = self.out.join(name);
            let stem = Path::new(name).file_stem().and_then(|s| s.to_str());
            name.eq_ignore_ascii_case(team)
                || (stem.is_some_and(|s| s.eq_ignore_ascii_case(team))
                    && fs::symlink_metadata(&path).is_ok_and(|m| m.is_file())
                    && languages.of_source(&path).is_some())
        })
    }

    /// Removes `OUT/TEAM` if collect made it (a team not admitted keeps no
    /// bot of an earlier run); anything else is left as it is.
    pub fn remove(&mut self, team: &str) -> io::Result<()> {
        if !self.made(team) {
            return Ok(());
        }
        fs::remove_dir_all(self.out.join(team))?;
        self.folders.remove(team);
        self.write()
    }

    /// Moves `folder` (staged in the bots folder) to `OUT/TEAM`, replacing
    /// the team's folder of an earlier run, never anything else.
    pub fn place(&mut self, team: &str, folder: &Path) -> Result<(), PlaceError> {
        let target = self.out.join(team);
        let failed = |source| PlaceError::Io {
            path: target.clone(),
            source,
        };
        if fs::symlink_metadata(&target).is_ok() {
            if !self.made(team) {
                return Err(PlaceError::Taken(team.to_string()));
            }
            fs::remove_dir_all(&target).map_err(failed)?;
        }
        let identity = folder_identity(folder).ok_or_else(|| {
            failed(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is not a folder", folder.display()),
            ))
        })?;
        // Claimed before the move: a kill between the two leaves a claim
        // of the staged folder, which is not `OUT/TEAM`.
        self.folders.insert(team.to_string(), identity);
        self.write().map_err(failed)?;
        if let Err(e) = fs::rename(folder, &target) {
            self.folders.remove(team);
            let _ = self.write();
            return Err(failed(e));
        }
        Ok(())
    }
}

/// The teams an `admission.csv` of `out` says admitted (none if there is
/// no such file, or it does not read).
fn admitted_teams(out: &Path) -> Vec<String> {
    let Ok(file) = input_file::reader(
        &out.join(ADMISSION_CSV),
        Links::Refused,
        input_file::TEXT_CAP,
    ) else {
        return Vec::new();
    };
    let mut reader = csv::Reader::from_reader(file);
    let Ok(headers) = reader.headers().cloned() else {
        return Vec::new();
    };
    let column = |name: &str| headers.iter().position(|h| h == name);
    let (Some(team), Some(status)) = (column("team"), column("status")) else {
        return Vec::new();
    };
    reader
        .records()
        .map_while(Result::ok)
        .filter(|row| row.get(status) == Some("admitted"))
        .filter_map(|row| row.get(team).map(str::to_string))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn languages() -> crate::bot::Languages {
        crate::bot::Languages::built_in()
    }

    /// A folder staged in `out`, as collect stages a team's bot.
    fn staged(out: &Path, team: &str) -> PathBuf {
        let folder = out.join(".collect").join(team);
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join("main.py"), "print('bot')\n").unwrap();
        folder
    }

    #[test]
    fn only_what_collect_made_is_replaced_or_removed() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        let mut made = MadeFolders::open(out).unwrap();
        made.place("alpha", &staged(out, "alpha")).unwrap();
        // The organiser's files, beside the team collect made.
        fs::write(out.join("random.py"), "reference\n").unwrap();
        fs::create_dir(out.join("results")).unwrap();
        let langs = languages();
        assert_eq!(made.taken_by("alpha", &langs), None);
        assert_eq!(
            made.taken_by("random", &langs).as_deref(),
            Some("random.py")
        );
        assert_eq!(made.taken_by("RESULTS", &langs).as_deref(), Some("results"));
        assert!(matches!(
            made.place("results", &staged(out, "results")),
            Err(PlaceError::Taken(_))
        ));
        made.remove("results").unwrap();
        made.remove("random").unwrap();
        assert!(out.join("results").is_dir() && out.join("random.py").is_file());
        // Read again, as the next collect does: alpha is still collect's,
        // replaced, then removed.
        let mut made = MadeFolders::open(out).unwrap();
        made.place("alpha", &staged(out, "alpha")).unwrap();
        assert!(out.join("alpha/main.py").is_file());
        made.remove("alpha").unwrap();
        assert!(!out.join("alpha").exists());
    }

    #[test]
    fn a_killed_collect_leaves_a_record_that_claims_no_other_folder() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        let mut made = MadeFolders::open(out).unwrap();
        made.place("alpha", &staged(out, "alpha")).unwrap();
        // Killed after claiming bravo's staged folder, before its move;
        // the organiser then makes a folder of that name.
        let bravo = staged(out, "bravo");
        made.folders
            .insert("bravo".into(), folder_identity(&bravo).unwrap());
        made.write().unwrap();
        drop(made);
        fs::create_dir(out.join("bravo")).unwrap();
        let made = MadeFolders::open(out).unwrap();
        assert_eq!(made.taken_by("alpha", &languages()), None);
        assert_eq!(
            made.taken_by("bravo", &languages()).as_deref(),
            Some("bravo")
        );
    }

    #[test]
    fn a_folder_of_an_earlier_collect_is_known_by_its_admission_report() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        for team in ["alpha", "bravo"] {
            fs::create_dir(out.join(team)).unwrap();
        }
        fs::write(
            out.join(ADMISSION_CSV),
            "team,status,language,source,reason,message\n\
             alpha,admitted,python,subs/alpha,,\n\
             bravo,broken,python,subs/bravo,crash,\n",
        )
        .unwrap();
        let made = MadeFolders::open(out).unwrap();
        assert_eq!(made.taken_by("alpha", &languages()), None);
        assert_eq!(
            made.taken_by("bravo", &languages()).as_deref(),
            Some("bravo")
        );
    }

    #[test]
    fn no_team_is_named_like_collects_own_files() {
        for own in [RECORD, ADMISSION_CSV, ".collect"] {
            assert_ne!(super::super::safe_name(own).as_deref(), Some(own));
        }
    }
}
