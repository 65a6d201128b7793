//! `referee serve DIR` (a read-only web server of a results folder, live)
//! and `referee watch DIR` (the same folder in the terminal). Both read
//! only the folder (`referee_engine::live`): a tournament started
//! elsewhere, or a shard, can be watched.

use std::io::{IsTerminal, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::Args;

use referee_engine::live::{frame, Watched};
use referee_engine::reporter::html::Templates;
use referee_engine::serve::{serve, ServeError, ServeOptions};

use super::{ExitCode, Failure};

#[derive(Args)]
#[command(
    after_help = "Pages:\n  /             the leaderboard, updated as games finish (no reload)\n  \
/projector    one game large, the standings beside it: the finished games played one at a time \
(?speed=MS a move, default 700; &from=N the first game; &pause=MS between games), then each new game as it finishes; \
with none left, a game being played, move by move\n  \
/game/N       game N's viewer; while it is played, its moves as they are made (no reload), then its viewer\n  \
/api/snapshot, /api/games   the same as JSON\n\n\
The games running now come from the tournament's event stream: run it with \
--events FOLDER/events.jsonl (or give serve --events FILE); a tournament with --events also \
writes each running game's public moves to FOLDER/live/, which the game pages follow.\n\n\
Examples:\n  \
target/release/referee serve \\\n      \
tournaments/results/arrow5-samples-20261127-101500\n  \
# shared on the network\n  \
target/release/referee serve DIR --bind 0.0.0.0:8080"
)]
pub struct ServeArgs {
    /// A results folder: the --out of `referee tournament` (running or finished), a shard's, or `merge`'s
    pub folder: PathBuf,
    /// Listen on ADDR:PORT instead, e.g. 0.0.0.0:8080 to share with the network: anyone who reaches it sees the standings and the finished games, their codes too
    #[arg(long, value_name = "ADDR:PORT", conflicts_with = "port")]
    pub bind: Option<SocketAddr>,
    /// The port on 127.0.0.1 (this machine only) [0: any free port, printed]
    #[arg(long, value_name = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// The tournament's event stream, for the games running now and the time left [default: FOLDER/events.jsonl when it exists]
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,
    /// A folder of templates replacing the report's built-in ones of the same name
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
}

pub fn run_serve(args: ServeArgs) -> Result<ExitCode, Failure> {
    let bind = args
        .bind
        .unwrap_or(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), args.port));
    let options = ServeOptions {
        folder: args.folder.clone(),
        events: args.events.clone(),
        bind,
        templates: Templates {
            dir: args.templates.clone(),
        },
    };
    let folder = args.folder.display().to_string();
    serve(options, |addr| {
        println!("serving {folder} at http://{addr}/ (projector: http://{addr}/projector); Ctrl-C stops");
        if !referee_engine::serve::is_loopback(addr.ip()) {
            eprintln!(
                "warning: shared beyond this machine ({addr}): anyone who reaches it sees the standings and the finished games, their codes too"
            );
        }
        let _ = std::io::stdout().flush();
    })
    .map_err(|e| match e {
        ServeError::Folder(_) | ServeError::InUse { .. } | ServeError::Bind { .. } => {
            Failure::input(e)
        }
    })?;
    eprintln!("serve: stopped");
    Ok(ExitCode::Ok)
}

#[derive(Args)]
#[command(
    after_help = "Keys: q (or Esc, Ctrl-C) quits. The view follows the terminal's size.\n\n\
The games running now, their last moves and the time left come from the tournament's event stream \
and its live files: run it with --events FOLDER/events.jsonl (or give watch --events FILE).\n\n\
Examples:\n  \
target/release/referee watch \\\n      \
tournaments/results/arrow5-samples-20261127-101500\n  \
# one frame as plain text, e.g. for a script\n  \
target/release/referee watch DIR --once"
)]
pub struct WatchArgs {
    /// A results folder: the --out of `referee tournament` (running or finished), a shard's, or `merge`'s
    pub folder: PathBuf,
    /// Print one frame as plain text and exit (what is printed when stdout is not a terminal)
    #[arg(long)]
    pub once: bool,
    /// The tournament's event stream, for the games running now and the time left [default: FOLDER/events.jsonl when it exists]
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,
}

fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

pub fn run_watch(args: WatchArgs) -> Result<ExitCode, Failure> {
    let watched = Watched::open(&args.folder, args.events.as_deref()).map_err(Failure::input)?;
    let snapshot = watched.snapshot().map_err(Failure::input)?;
    if args.once || !std::io::stdout().is_terminal() {
        print!("{}", frame(&snapshot, unix_now()));
        return Ok(ExitCode::Ok);
    }
    screen(&watched).map_err(|e| Failure::internal(anyhow::anyhow!("the terminal: {e}")))?;
    Ok(ExitCode::Ok)
}

/// The terminal as the view takes it (raw, the alternate screen, no
/// cursor), given back as it was however the view ends.
struct Screen;

impl Screen {
    fn take() -> std::io::Result<Screen> {
        crossterm::terminal::enable_raw_mode()?;
        let screen = Screen;
        crossterm::execute!(
            std::io::stdout(),
            crossterm::terminal::EnterAlternateScreen,
            crossterm::cursor::Hide
        )?;
        Ok(screen)
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = crossterm::execute!(
            std::io::stdout(),
            crossterm::cursor::Show,
            crossterm::terminal::LeaveAlternateScreen
        );
        let _ = crossterm::terminal::disable_raw_mode();
    }
}

/// Draws the folder until q: again when its files change, when the
/// terminal is resized, and every second (the running games' times).
fn screen(watched: &Watched) -> std::io::Result<()> {
    use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyModifiers};
    let _screen = Screen::take()?;
    let mut stamp = None;
    let mut drawn = Instant::now() - Duration::from_secs(60);
    let mut text = String::new();
    loop {
        let now_stamp = watched.stamp();
        let resized = event::poll(Duration::from_millis(250))?
            && match event::read()? {
                Event::Key(KeyEvent {
                    code: KeyCode::Char('q') | KeyCode::Esc,
                    ..
                }) => return Ok(()),
                Event::Key(KeyEvent {
                    code: KeyCode::Char('c'),
                    modifiers,
                    ..
                }) if modifiers.contains(KeyModifiers::CONTROL) => return Ok(()),
                Event::Resize(..) => true,
                _ => false,
            };
        if stamp.as_ref() != Some(&now_stamp) {
            stamp = Some(now_stamp);
            text = match watched.snapshot() {
                Ok(snapshot) => frame(&snapshot, unix_now()),
                Err(e) => format!("cannot read the folder now: {e}\n"),
            };
            drawn = Instant::now() - Duration::from_secs(60);
        }
        if resized || drawn.elapsed() >= Duration::from_secs(1) {
            if let Ok(snapshot) = watched.snapshot() {
                text = frame(&snapshot, unix_now());
            }
            draw(&text)?;
            drawn = Instant::now();
        }
    }
}

/// One frame, cut to the terminal's size (a small terminal shows the top).
fn draw(text: &str) -> std::io::Result<()> {
    use crossterm::{cursor, queue, style, terminal};
    let (width, height) = terminal::size()?;
    let mut out = std::io::stdout().lock();
    queue!(out, terminal::Clear(terminal::ClearType::All))?;
    let lines = text
        .lines()
        .chain(std::iter::once("q quits"))
        .take(height as usize);
    for (row, line) in lines.enumerate() {
        let cut: String = line.chars().take(width as usize).collect();
        queue!(out, cursor::MoveTo(0, row as u16), style::Print(cut))?;
    }
    out.flush()
}
