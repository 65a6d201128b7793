//! `referee generate-assets DIR` (hidden): the man pages and shell
//! completions, generated from the command line's own definitions so that
//! they never drift from `--help`. The Debian package ships them
//! (`.ci/build-deb`, docs/ci.md).

use std::path::PathBuf;

use anyhow::{anyhow, Context};
use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::{Cli, Failure};

#[derive(Args)]
pub struct AssetsArgs {
    /// The folder to write into: DIR/man/referee.1 and one page per
    /// command (referee-match.1, ...), DIR/completions/ for bash, zsh and
    /// fish
    pub dir: PathBuf,
}

pub fn run_assets(args: AssetsArgs) -> Result<(), Failure> {
    let man = args.dir.join("man");
    let completions = args.dir.join("completions");
    for dir in [&man, &completions] {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create", dir.display()))
            .map_err(Failure::input)?;
    }
    // Hidden commands (this one) get no page and no completion.
    let mut shown = Cli::command();
    shown.build();
    // referee.1, then one page per command (referee-match.1, ...); the
    // `help` command's tree would only repeat them.
    let pages = std::iter::once(&shown).chain(
        shown
            .get_subcommands()
            .filter(|c| !c.is_hide_set() && c.get_name() != "help"),
    );
    for page in pages {
        let name = page.get_display_name().unwrap_or(page.get_name());
        let path = man.join(format!("{name}.1"));
        let mut text = Vec::new();
        clap_mangen::Man::new(page.clone())
            .render(&mut text)
            .and_then(|()| std::fs::write(&path, text))
            .with_context(|| format!("{}: cannot write", path.display()))
            .map_err(Failure::input)?;
    }
    for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
        clap_complete::generate_to(shell, &mut shown, "referee", &completions)
            .with_context(|| {
                format!(
                    "{}: cannot write the {shell} completions",
                    completions.display()
                )
            })
            .map_err(Failure::input)?;
    }
    let pages = std::fs::read_dir(&man)
        .map_err(|e| Failure::input(anyhow!(e)))?
        .count();
    eprintln!(
        "wrote {pages} man pages to {} and bash, zsh and fish completions to {}",
        man.display(),
        completions.display()
    );
    Ok(())
}
