//! `referee serve DIR`: a read-only web server of a results folder, live.
//!
//! - `/` the leaderboard, rendered from the folder at each request (the
//!   report's own page and templates), with a script that follows the
//!   server's events (`/events`, server-sent events) and puts each new
//!   leaderboard in the page as games finish: no reload;
//! - `/projector` (or `/?projector`): one featured game large, the
//!   standings beside it, finished games played one at a time at a chosen
//!   speed, then each new game as it finishes (the finale);
//! - `/game/N`: game N's viewer, made from its transcript; while game N
//!   is played, a page that follows it move by move (`/game/N/events`,
//!   its live file as server-sent events), until the viewer replaces it;
//! - `/api/snapshot`, `/api/games`: the same data as JSON;
//! - `/assets/shown.js`: the function every page's script shows a bot's
//!   text through (its control and reordering characters escaped);
//! - anything else: a file of the folder's report (`DIR/report/`), never
//!   a path out of it.
//!
//! Only GET and HEAD are answered: there is no write endpoint. Every text
//! a bot wrote goes to the browser escaped (the report's templates) or as
//! JSON data put in the page as text through `shown`, never as markup.

use std::io::{self, Write};
use std::net::{IpAddr, SocketAddr};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use serde_json::json;

mod http;

use crate::bot;
use crate::input_file::{self, Links};
use crate::live::{LiveError, Watched};
use crate::reporter::html::{self, Templates, REPORT_DIR};
use crate::reporter::live_game::live_path;

const LIVE_JS: &str = include_str!("live.js");
const PROJECTOR: &str = include_str!("projector.html");
const LIVE_GAME: &str = include_str!("live_game.html");
/// The scripts put at the end of the leaderboard: `shown` (what the
/// status line shows of the bots' names goes through it), then live.js.
const LEADERBOARD_SCRIPTS: &str =
    "<script src=\"/assets/shown.js\"></script>\n<script src=\"/live.js\"></script>\n";

/// How often the folder is looked at for new games.
const POLL: Duration = Duration::from_millis(250);
/// A comment sent on a quiet event stream, so that a browser gone is
/// noticed and proxies keep the connection.
const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// Browsers following the events at once (each holds a thread).
const MAX_STREAMS: usize = 64;
/// Event streams one address may hold at once: a browser opens at most 6
/// connections to a server, so this is a few browsers' worth, and one
/// machine that opens stream after stream without reading them (each
/// would be held until its writes fail, for ever when it never closes)
/// cannot take every stream from the others.
const MAX_STREAMS_PER_ADDRESS: usize = 8;
/// How often a running game's live file is looked at for new moves.
const LIVE_POLL: Duration = Duration::from_millis(100);
/// The longest line of a live file passed on (a judge's frame is at most
/// 64 KiB, its account line 1000 characters): a longer one is skipped.
const MAX_LIVE_LINE: usize = 1 << 20;

/// Why the server cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Folder(#[from] LiveError),
    #[error("{addr} is in use (another server, another `referee serve`?): give another --port, or stop the other")]
    InUse { addr: SocketAddr },
    #[error("cannot listen on {addr}: {why}; give an address of this machine to --bind (e.g. 0.0.0.0:8080 to share on the network)")]
    Bind { addr: SocketAddr, why: String },
}

pub struct ServeOptions {
    pub folder: PathBuf,
    pub events: Option<PathBuf>,
    pub bind: SocketAddr,
    pub templates: Templates,
}

/// The event streams held now: in all, and by each browser's address.
#[derive(Default)]
struct Streams {
    total: usize,
    by_address: std::collections::HashMap<std::net::IpAddr, usize>,
}

/// What the request threads share: the folder, and a counter raised each
/// time its files change.
struct Shared {
    /// Listening on loopback only: requests must name this machine.
    loopback: bool,
    watched: Watched,
    templates: Templates,
    changes: Mutex<u64>,
    changed: Condvar,
    streams: Mutex<Streams>,
    /// The snapshot as JSON, made once per change for every browser.
    latest: Mutex<Option<(u64, Arc<String>)>>,
}

impl Shared {
    /// The folder's snapshot as JSON (`{"error": ...}` when it cannot be
    /// read now: a folder being rewritten, a row half there, is read again
    /// at its next change), and the change it is of.
    fn snapshot_json(&self) -> (u64, Arc<String>) {
        let now = *self.changes.lock().unwrap_or_else(PoisonError::into_inner);
        let mut latest = self.latest.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((of, json)) = &*latest {
            if *of == now {
                return (now, Arc::clone(json));
            }
        }
        let json = match self.watched.snapshot() {
            Ok(snapshot) => serde_json::to_string(&snapshot),
            Err(e) => serde_json::to_string(&json!({ "error": e.to_string() })),
        }
        .unwrap_or_else(|e| json!({ "error": e.to_string() }).to_string());
        let json = Arc::new(json);
        *latest = Some((now, Arc::clone(&json)));
        (now, json)
    }
}

/// Serves until Ctrl-C (or SIGTERM); `ready` is told the address listened
/// on (with `--port 0`, the port the system chose).
pub fn serve(options: ServeOptions, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    // First: a Ctrl-C while the folder is read ends the server as one
    // later does, not by the default action.
    bot::install_interrupt_handler();
    let watched = Watched::open(&options.folder, options.events.as_deref())?;
    // The folder is read once before listening: a folder that cannot be
    // shown is said now, not on the first page.
    watched.snapshot()?;
    raise_open_files_limit();
    let mut listener = listen(options.bind)?;
    let addr = listener.local_addr().unwrap_or(options.bind);
    if bot::stop_requested() {
        return Ok(());
    }
    ready(addr);
    let shared = Arc::new(Shared {
        loopback: is_loopback(addr.ip()),
        watched,
        templates: options.templates,
        changes: Mutex::new(0),
        changed: Condvar::new(),
        streams: Mutex::new(Streams::default()),
        latest: Mutex::new(None),
    });
    let watcher = {
        let shared = Arc::clone(&shared);
        std::thread::spawn(move || watch(&shared))
    };
    while !bot::stop_requested() {
        if let Some(connection) = listener.accept_within(Duration::from_millis(200)) {
            let shared = Arc::clone(&shared);
            // A thread the system refuses (too many at once) drops the
            // connection, which the client sees closed: the server goes on.
            let _ = std::thread::Builder::new().spawn(move || answer(connection, &shared));
        }
    }
    // Wake the event streams: they end and their threads with them.
    shared.changed.notify_all();
    let _ = watcher.join();
    Ok(())
}

/// Whether a request's `Host` names this machine as a server listening
/// on loopback is reached: `localhost` (or a name under it) or an address,
/// any port. None (an HTTP/1.0 client) is no browser's request.
fn host_is_this_machine(host: Option<&str>) -> bool {
    let Some(host) = host else {
        return true;
    };
    let host = host.trim();
    let is_port = |port: &str| !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit());
    if let Some(rest) = host.strip_prefix('[') {
        // [v6] or [v6]:port
        return rest.split_once(']').is_some_and(|(ip, after)| {
            ip.parse::<std::net::Ipv6Addr>().is_ok()
                && (after.is_empty() || after.strip_prefix(':').is_some_and(is_port))
        });
    }
    let name = match host.split_once(':') {
        Some((name, port)) if is_port(port) => name,
        Some(_) => return false,
        None => host,
    };
    let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    if name.parse::<std::net::Ipv4Addr>().is_ok() {
        return true;
    }
    // A name of DNS labels (letters, digits, '-'; one dot between two)
    // that is localhost's.
    let labels = name.split('.').all(|label| {
        !label.is_empty()
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
    });
    labels && (name == "localhost" || name.ends_with(".localhost"))
}

/// Whether `ip` is this machine's loopback, an IPv4 one written as IPv6
/// (`::ffff:127.0.0.1`) too.
pub fn is_loopback(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map_or(v6.is_loopback(), |v4| v4.is_loopback()),
    }
}

/// The server's socket on `addr`.
fn listen(addr: SocketAddr) -> Result<http::Listener, ServeError> {
    http::Listener::bind(addr).map_err(|e| match e.kind() {
        io::ErrorKind::AddrInUse => ServeError::InUse { addr },
        _ => ServeError::Bind {
            addr,
            why: e.to_string(),
        },
    })
}

/// Each connection holds an open file: the soft limit (often 1024) is
/// raised to the hard one, up to 65536, so that a few hundred browsers
/// held open do not exhaust it.
fn raise_open_files_limit() {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let limit = getrlimit(Resource::Nofile);
    let wanted = limit.maximum.map_or(1 << 16, |hard| hard.min(1 << 16));
    if limit.current.is_some_and(|soft| soft < wanted) {
        let _ = setrlimit(
            Resource::Nofile,
            Rlimit {
                current: Some(wanted),
                maximum: limit.maximum,
            },
        );
    }
}

/// Raises the change counter whenever the folder's files change.
fn watch(shared: &Shared) {
    let mut stamp = shared.watched.stamp();
    while !bot::stop_requested() {
        std::thread::sleep(POLL);
        let now = shared.watched.stamp();
        if now != stamp {
            stamp = now;
            *shared
                .changes
                .lock()
                .unwrap_or_else(PoisonError::into_inner) += 1;
            shared.changed.notify_all();
        }
    }
}

/// A response: status, content type, body.
struct Reply {
    status: u16,
    kind: &'static str,
    body: Vec<u8>,
}

impl Reply {
    fn ok(kind: &'static str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status: 200,
            kind,
            body: body.into(),
        }
    }

    fn error(status: u16, message: &str) -> Reply {
        Reply {
            status,
            kind: "text/plain; charset=utf-8",
            body: format!("{message}\n").into_bytes(),
        }
    }
}

fn answer(mut connection: http::Connection, shared: &Shared) {
    let request = match connection.read_head() {
        Ok(head) => head,
        Err(http::Unread::Gone) => return,
        Err(http::Unread::TooLarge) => {
            return connection.refuse(
                431,
                &format!("a request's head is {} KiB at most", http::MAX_HEAD / 1024),
            )
        }
        Err(http::Unread::Malformed(why)) => {
            return connection.refuse(400, &format!("not a request of HTTP/1.1: {why}"))
        }
    };
    let hosts: Vec<&str> = request.values("Host").collect();
    if hosts.is_empty() && request.version == "HTTP/1.1" {
        // HTTP/1.1 requires it: a request without one is no client's.
        return connection.refuse(400, "a request of HTTP/1.1 names its Host");
    }
    let host_ok = match hosts[..] {
        [] => host_is_this_machine(None),
        [host] => host_is_this_machine(Some(host)),
        // Two: which one a proxy read is anybody's guess.
        _ => return connection.refuse(400, "a request names one Host"),
    };
    if shared.loopback && !host_ok {
        // A page of another site whose name was made to lead here (DNS
        // rebinding) would read the standings with the browser's help.
        return connection.refuse(
            421,
            "this server answers requests for localhost only: open http://127.0.0.1 (or localhost) at its port",
        );
    }
    let head = request.method == "HEAD";
    if !head && request.method != "GET" {
        return connection.refuse(405, "read-only: this server answers GET and HEAD only");
    }
    let (path, query) = request
        .target
        .split_once('?')
        .unwrap_or((&request.target, ""));
    let stream = path == "/events" || live_events_of(path).is_some();
    if stream && head {
        // What a stream's answer is, without the stream: a HEAD has no body.
        return respond(connection, Reply::ok("text/event-stream", ""), true);
    }
    // An HTTP/1.0 client knows no chunks: its stream ends with the
    // connection.
    let chunked = request.version == "HTTP/1.1";
    if path == "/events" {
        return stream_events(connection, shared, chunked);
    }
    if let Some(number) = live_events_of(path) {
        return stream_live(connection, shared, number, chunked);
    }
    let reply = route(path, query, shared);
    respond(connection, reply, head);
}

fn respond(connection: http::Connection, reply: Reply, head: bool) {
    connection.respond(
        reply.status,
        &[
            ("Content-Type", reply.kind),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
        ],
        &reply.body,
        !head,
    );
}

fn route(path: &str, query: &str, shared: &Shared) -> Reply {
    let projector = query
        .split('&')
        .any(|p| p == "projector" || p.starts_with("projector="));
    match path {
        "/" | "/index.html" if projector => Reply::ok("text/html; charset=utf-8", PROJECTOR),
        "/projector" | "/projector/" => Reply::ok("text/html; charset=utf-8", PROJECTOR),
        "/" | "/index.html" => leaderboard(shared),
        "/live.js" => Reply::ok("text/javascript; charset=utf-8", LIVE_JS),
        // Every page of the server shows a bot's text through this one
        // script (the live pages, and the report's game pages at the same
        // path): the referee's own, never a file of the folder.
        "/assets/shown.js" => Reply::ok("text/javascript; charset=utf-8", html::SHOWN_JS),
        "/api/snapshot" => {
            let (_, json) = shared.snapshot_json();
            Reply::ok("application/json", json.as_bytes())
        }
        "/api/games" if shared.watched.is_free_for_all() => match shared.watched.ffa_games() {
            Ok(games) => json_reply(&games),
            Err(e) => Reply::error(500, &e.to_string()),
        },
        "/api/games" => match shared.watched.games() {
            Ok(games) => json_reply(&games),
            Err(e) => Reply::error(500, &e.to_string()),
        },
        _ => match path.strip_prefix("/game/").map(str::parse::<u64>) {
            Some(Ok(number)) => game_page(shared, number),
            Some(Err(_)) => Reply::error(404, "no such game: /game/N takes a game's number"),
            None => report_file(&shared.watched.folder, path),
        },
    }
}

fn json_reply(value: &impl serde::Serialize) -> Reply {
    match serde_json::to_vec(value) {
        Ok(body) => Reply::ok("application/json", body),
        Err(e) => Reply::error(500, &e.to_string()),
    }
}

/// The leaderboard as the report renders it now, without its reload tag
/// (the page follows the events instead), with the live script.
fn leaderboard(shared: &Shared) -> Reply {
    let folder = &shared.watched.folder;
    // Links to bot and game pages once the whole report is written.
    let live = !folder.join(REPORT_DIR).join("games").is_dir();
    match html::leaderboard_html(folder, &shared.templates, live) {
        Ok(page) => {
            let page = without_refresh(&page);
            let page = match page.rfind("</body>") {
                Some(at) => format!("{}{LEADERBOARD_SCRIPTS}{}", &page[..at], &page[at..]),
                None => format!("{page}{LEADERBOARD_SCRIPTS}"),
            };
            Reply::ok("text/html; charset=utf-8", page)
        }
        Err(e) => Reply::error(500, &format!("the leaderboard: {e}")),
    }
}

/// `page` without its `<meta http-equiv="refresh">` tags.
fn without_refresh(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    let mut rest = page;
    while let Some(at) = rest.find("<meta http-equiv=\"refresh\"") {
        out.push_str(&rest[..at]);
        rest = rest[at..].split_once('>').map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out
}

/// Game `number`'s viewer, from its transcript: `transcripts/` (formats
/// played in rounds, and round robins once published), else the store.
fn game_page(shared: &Shared, number: u64) -> Reply {
    let folder = &shared.watched.folder;
    let Some(path) = transcript_of(folder, number) else {
        // Being played: its moves as they are made.
        if live_path(folder, number).is_file() {
            return Reply::ok("text/html; charset=utf-8", LIVE_GAME);
        }
        return Reply::error(404, &format!("game {number} has no transcript (yet)"));
    };
    let entries = match crate::transcript::read(&path) {
        Ok(entries) => entries,
        Err(e) => return Reply::error(500, &format!("game {number}: {e}")),
    };
    match html::game_page_html(&entries, &shared.templates) {
        Ok(page) => Reply::ok("text/html; charset=utf-8", page),
        Err(e) => Reply::error(500, &format!("game {number}: {e}")),
    }
}

fn transcript_of(folder: &Path, number: u64) -> Option<PathBuf> {
    let published = folder
        .join("transcripts")
        .join(format!("game-{number:06}.jsonl"));
    if published.is_file() {
        return Some(published);
    }
    let store = folder.join(crate::tournament::store::STORE_FOLDER);
    let text = input_file::read_to_string(
        &store.join(crate::tournament::store::STORE_GAMES),
        Links::Refused,
        input_file::TABLE_CAP,
    )
    .ok()?;
    let id = text.lines().rev().find_map(|line| {
        let game: serde_json::Value = serde_json::from_str(line).ok()?;
        (game["row"]["game"].as_u64() == Some(number))
            .then(|| game["id"].as_str().map(String::from))?
    })?;
    // An id is hex: never a path.
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some(store.join("transcripts").join(format!("{id}.jsonl")))
}

/// A file of the report folder: the URL's path, decoded, must name a
/// regular file inside `DIR/report/` (no `..`, no encoded `/`, no link,
/// no hidden file, no second name: [`served_file`]). The report's assets
/// fall back to the built-in ones (a folder whose report was not written,
/// or was copied with hard links).
fn report_file(folder: &Path, url_path: &str) -> Reply {
    let Some(relative) = confined(url_path) else {
        return Reply::error(404, "not found");
    };
    let built_in = || {
        relative
            .strip_prefix("assets")
            .ok()
            .and_then(|name| name.to_str())
            .and_then(html::built_in_asset)
    };
    match served_file(&folder.join(REPORT_DIR), &relative) {
        Served::File(body) => Reply::ok(content_type(&relative), body),
        // Not there, or a file with a second name: the report's own
        // asset then, if it has one.
        Served::Missing | Served::Linked => match built_in() {
            Some(text) => Reply::ok(content_type(&relative), text),
            None => Reply::error(404, "not found"),
        },
        Served::Refused => Reply::error(404, "not found"),
    }
}

/// What a report file's request found.
enum Served {
    File(Vec<u8>),
    /// Nothing of that name.
    Missing,
    /// A regular file with a second name (a hard link).
    Linked,
    /// Anything else: a link, a folder, a device, too large, unreadable.
    Refused,
}

/// The file at `relative` under `root`, opened by the kernel beneath
/// `root` and through no link (`openat2`: no `..`, no symbolic link, no
/// mount crossed), so that no folder swapped for a link while the request
/// is served can lead out of the report; then read as opened. A file with
/// a second name is not served: a hard link placed in the report could be
/// the run's key, `games.csv` or a transcript (nothing the referee writes
/// in the report has one).
fn served_file(root: &Path, relative: &Path) -> Served {
    use rustix::fs::{Mode, OFlags, ResolveFlags};
    use std::os::unix::fs::MetadataExt;
    let Ok(root) = rustix::fs::open(
        root,
        OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NOFOLLOW,
        Mode::empty(),
    ) else {
        return Served::Missing;
    };
    let opened = rustix::fs::openat2(
        &root,
        relative,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY,
        Mode::empty(),
        ResolveFlags::BENEATH
            | ResolveFlags::NO_SYMLINKS
            | ResolveFlags::NO_MAGICLINKS
            | ResolveFlags::NO_XDEV,
    );
    let file = match opened {
        Ok(fd) => std::fs::File::from(fd),
        Err(rustix::io::Errno::NOENT) => return Served::Missing,
        Err(_) => return Served::Refused,
    };
    let Ok(meta) = file.metadata() else {
        return Served::Refused;
    };
    if !meta.is_file() || meta.len() > input_file::TEXT_CAP {
        return Served::Refused;
    }
    if meta.nlink() != 1 {
        return Served::Linked;
    }
    let mut body = Vec::new();
    match io::Read::read_to_end(
        &mut io::Read::take(&file, input_file::TEXT_CAP + 1),
        &mut body,
    ) {
        Ok(_) if body.len() as u64 <= input_file::TEXT_CAP => Served::File(body),
        _ => Served::Refused,
    }
}

/// The relative path a URL's path names, or `None` when it would leave
/// the folder or hide something: `..`, `.`, hidden names, an encoded `/`
/// or `\`, a NUL, bytes that are not UTF-8.
fn confined(url_path: &str) -> Option<PathBuf> {
    let lower = url_path.to_ascii_lowercase();
    if ["%2f", "%5c", "%00", "\\"]
        .iter()
        .any(|bad| lower.contains(bad))
    {
        return None;
    }
    let decoded = percent_decode(url_path)?;
    let mut relative = PathBuf::new();
    for part in decoded.split('/').filter(|p| !p.is_empty()) {
        if part.starts_with('.') || part.contains('\0') {
            return None;
        }
        relative.push(part);
    }
    if relative
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return None;
    }
    if relative.as_os_str().is_empty() {
        return None;
    }
    Some(relative)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("csv") | Some("txt") | Some("md") => "text/plain; charset=utf-8",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
}

/// `/events`: the folder's snapshot now, then again each time it changes,
/// as server-sent events (`event: snapshot`), until the browser goes or
/// the server stops.
fn stream_events(connection: http::Connection, shared: &Shared, chunked: bool) {
    held_stream(connection, shared, chunked, |out| follow(out, shared));
}

/// Runs the event stream `stream` on `request`'s connection, counted
/// among the [`MAX_STREAMS`] (503 beyond them).
fn held_stream(
    connection: http::Connection,
    shared: &Shared,
    chunked: bool,
    stream: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) {
    let address = Some(connection.peer().ip());
    {
        let mut streams = shared
            .streams
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let of_address = address.map_or(0, |a| streams.by_address.get(&a).copied().unwrap_or(0));
        let refusal = if streams.total >= MAX_STREAMS {
            Some("too many browsers follow this server; try again later")
        } else if of_address >= MAX_STREAMS_PER_ADDRESS {
            Some("too many pages of this machine follow this server; close some, then try again")
        } else {
            None
        };
        if let Some(why) = refusal {
            drop(streams);
            return respond(connection, Reply::error(503, why), false);
        }
        streams.total += 1;
        if let Some(a) = address {
            *streams.by_address.entry(a).or_default() += 1;
        }
    }
    let mut out = connection.into_writer();
    // Chunked, so that the stream's end is the response's end: a client
    // that reads to the end (curl, a script) is done when the stream is,
    // and the connection's thread with it. (An HTTP/1.0 client's ends with
    // the connection.)
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
         X-Content-Type-Options: nosniff\r\n{}Connection: close\r\n\r\n",
        if chunked {
            "Transfer-Encoding: chunked\r\n"
        } else {
            ""
        }
    );
    let _ = out.write_all(head.as_bytes()).and_then(|()| {
        if chunked {
            let mut chunked = Chunked {
                inner: &mut out,
                pending: b"retry: 2000\n\n".to_vec(),
            };
            stream(&mut chunked)?;
            chunked.finish()
        } else {
            out.write_all(b"retry: 2000\n\n")?;
            stream(&mut out)
        }
    });
    let mut streams = shared
        .streams
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    streams.total -= 1;
    if let Some(a) = address {
        if let Some(held) = streams.by_address.get_mut(&a) {
            *held -= 1;
            if *held == 0 {
                streams.by_address.remove(&a);
            }
        }
    }
}

/// A response body in HTTP/1.1 chunks: what is written between two
/// flushes goes as one chunk; [`Chunked::finish`] ends the body.
struct Chunked<'a> {
    inner: &'a mut dyn Write,
    pending: Vec<u8>,
}

impl Write for Chunked<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            write!(self.inner, "{:x}\r\n", self.pending.len())?;
            self.inner.write_all(&self.pending)?;
            self.inner.write_all(b"\r\n")?;
            self.pending.clear();
        }
        self.inner.flush()
    }
}

impl Chunked<'_> {
    fn finish(mut self) -> io::Result<()> {
        self.flush()?;
        self.inner.write_all(b"0\r\n\r\n")?;
        self.inner.flush()
    }
}

/// The game of `/game/N/events`.
fn live_events_of(path: &str) -> Option<u64> {
    path.strip_prefix("/game/")?
        .strip_suffix("/events")?
        .parse()
        .ok()
}

/// `/game/N/events`: game N's live file as server-sent events, from its
/// first line: `event: game` (its head), `event: move` for each move as
/// it is written, then `event: end` once the file is gone (the game is
/// over: its viewer is at `/game/N`), and the stream ends.
fn stream_live(connection: http::Connection, shared: &Shared, number: u64, chunked: bool) {
    let path = live_path(&shared.watched.folder, number);
    held_stream(connection, shared, chunked, |out| {
        follow_live(out, &path, number)
    });
}

fn follow_live(out: &mut dyn Write, path: &Path, number: u64) -> io::Result<()> {
    use std::io::Read;
    use std::os::unix::fs::MetadataExt;
    let end = |out: &mut dyn Write| {
        write!(out, "event: end\ndata: {}\n\n", json!({ "game": number }))?;
        out.flush()
    };
    // A file that is not a regular one (a link, a FIFO) is never read.
    let Ok(mut file) = input_file::open(path, Links::Refused, input_file::TRANSCRIPT_CAP) else {
        return end(out);
    };
    let inode = file.metadata()?.ino();
    let mut pending: Vec<u8> = vec![];
    let mut skipping = false;
    let mut quiet = std::time::Instant::now();
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        // Whether it is still this game's file, before reading what it
        // holds: the last moves are read before the end is told.
        let gone = std::fs::symlink_metadata(path).map_or(true, |m| m.ino() != inode);
        let mut told = false;
        loop {
            let n = file.read(&mut chunk)?;
            if n == 0 {
                break;
            }
            for &byte in &chunk[..n] {
                if byte != b'\n' {
                    if pending.len() < MAX_LIVE_LINE {
                        pending.push(byte);
                    } else {
                        skipping = true;
                    }
                    continue;
                }
                let line = std::mem::take(&mut pending);
                if std::mem::take(&mut skipping) {
                    continue;
                }
                // Each line is parsed and written again: one line of JSON
                // data, whatever the file holds.
                let Ok(value) = serde_json::from_slice::<serde_json::Value>(&line) else {
                    continue;
                };
                let kind = match value["kind"].as_str() {
                    Some("game") => "game",
                    Some("move") => "move",
                    _ => continue,
                };
                write!(out, "event: {kind}\ndata: {value}\n\n")?;
                told = true;
            }
        }
        if told {
            out.flush()?;
            quiet = std::time::Instant::now();
        }
        if gone {
            return end(out);
        }
        if bot::stop_requested() {
            return Ok(());
        }
        if quiet.elapsed() >= KEEP_ALIVE {
            out.write_all(b": still here\n\n")?;
            out.flush()?;
            quiet = std::time::Instant::now();
        }
        std::thread::sleep(LIVE_POLL);
    }
}

fn follow(out: &mut dyn Write, shared: &Shared) -> io::Result<()> {
    let mut seen = None;
    loop {
        let now = *shared
            .changes
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if seen != Some(now) {
            let (of, data) = shared.snapshot_json();
            seen = Some(of);
            // JSON on one line: one `data:` line.
            write!(out, "event: snapshot\ndata: {data}\n\n")?;
        } else {
            out.write_all(b": still here\n\n")?;
        }
        out.flush()?;
        let changes = shared
            .changes
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let _ = shared
            .changed
            .wait_timeout_while(changes, KEEP_ALIVE, |c| {
                Some(*c) == seen && !bot::stop_requested()
            })
            .unwrap_or_else(PoisonError::into_inner);
        if bot::stop_requested() {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_in_the_report_folder() {
        assert_eq!(
            confined("/assets/style.css"),
            Some(PathBuf::from("assets/style.css"))
        );
        assert_eq!(
            confined("/games/game%20one.html"),
            Some(PathBuf::from("games/game one.html"))
        );
        for bad in [
            "/../referee.key",
            "/assets/../../referee.key",
            "/%2e%2e/referee.key",
            "/..%2freferee.key",
            "/..%2Freferee.key",
            "/assets%5c..%5c..%5creferee.key",
            "/.hidden",
            "/a%00b",
            "/%ff",
            "/",
        ] {
            assert_eq!(confined(bad), None, "{bad}");
        }
    }

    #[test]
    fn only_this_machines_names_reach_a_loopback_server() {
        for host in [
            None,
            Some("localhost"),
            Some("localhost:8080"),
            Some("LOCALHOST."),
            Some("app.localhost:1"),
            Some("127.0.0.1:8080"),
            Some("127.0.0.2"),
            Some("[::1]:8080"),
            Some("[::1]"),
            Some("[::ffff:127.0.0.1]:80"),
        ] {
            assert!(host_is_this_machine(host), "{host:?}");
        }
        for host in [
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "127.0.0.1.evil.example",
            "[evil]:80",
            "",
            "localhost:80:80",
            "evil.example#.localhost",
            "evil .localhost",
            "..localhost",
            "[::1]evil",
            "[::1]:x",
            "localhost:",
            "2130706433",
            "0x7f.1",
        ] {
            assert!(!host_is_this_machine(Some(host)), "{host}");
        }
    }

    #[test]
    fn the_refresh_tag_goes() {
        assert_eq!(
            without_refresh("<head><meta http-equiv=\"refresh\" content=\"3\"><title>"),
            "<head><title>"
        );
    }
}
