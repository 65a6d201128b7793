//! The few parts of HTTP/1.1 the read-only server needs: a listener that
//! takes connections, one request read from each, within a size and a
//! time, and a response written back, after which the connection closes.
//!
//! Why not a library's server: the one used before (`tiny_http`) read a
//! request's head without a bound (a 200 MiB `Host` line was 200 MiB of
//! the server's memory, per connection) and without a time (a connection
//! that never finished its head held its thread for good), and neither can
//! be set from outside it. A server that answers GET and HEAD of a
//! classroom's browsers needs a head of a few hundred bytes and no
//! keep-alive; the rest of HTTP (bodies, pipelining, upgrades) is refused
//! or ignored.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The longest request head read (request line and headers, with the
/// blank line that ends them): a browser's is under 2 KiB; a longer one is
/// refused (431).
pub(super) const MAX_HEAD: usize = 16 * 1024;
/// The time a client has to send its whole head from when its connection
/// is taken (else it is closed unanswered).
const HEAD_TIME: Duration = Duration::from_secs(10);
/// The longest a write to a client may wait for the client to read: an
/// answer or an event stream to a client that reads nothing ends then.
const WRITE_TIME: Duration = Duration::from_secs(30);
/// The longest a connection is kept after its answer, for the client to
/// close it (see [`Connection::close`]).
const DRAIN_TIME: Duration = Duration::from_secs(2);
/// Connections served at once (each holds a thread); one more is answered
/// 503 without being read.
const MAX_CONNECTIONS: usize = 512;

/// The server's listening socket.
pub(super) struct Listener {
    socket: TcpListener,
    connections: Arc<AtomicUsize>,
    /// The system refused a connection for want of files: said once until
    /// one is taken again.
    said_full: bool,
}

/// One connection taken, counted among the [`MAX_CONNECTIONS`] until it
/// is dropped.
pub(super) struct Connection {
    stream: TcpStream,
    peer: SocketAddr,
    _held: Held,
}

struct Held(Arc<AtomicUsize>);

impl Drop for Held {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Listener {
    pub(super) fn bind(addr: SocketAddr) -> io::Result<Listener> {
        let socket = TcpListener::bind(addr)?;
        socket.set_nonblocking(true)?;
        Ok(Listener {
            socket,
            connections: Arc::new(AtomicUsize::new(0)),
            said_full: false,
        })
    }

    pub(super) fn local_addr(&self) -> io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// The next connection, waiting for one at most `wait`: `None` when
    /// none came, or when one more was more than the server serves at once
    /// (it is answered 503 and closed) or than the system allows.
    pub(super) fn accept_within(&mut self, wait: Duration) -> Option<Connection> {
        let socket = self.socket.as_fd();
        let mut ready = [rustix::event::PollFd::new(
            &socket,
            rustix::event::PollFlags::IN,
        )];
        let timeout = rustix::event::Timespec {
            tv_sec: wait.as_secs() as i64,
            tv_nsec: i64::from(wait.subsec_nanos()),
        };
        if !matches!(rustix::event::poll(&mut ready, Some(&timeout)), Ok(n) if n > 0) {
            return None;
        }
        let (stream, peer) = match self.socket.accept() {
            Ok(taken) => taken,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return None,
            Err(e) => {
                // Out of files (a flood of connections held open): the
                // connection waits in the queue; taken once files free up.
                if !self.said_full {
                    eprintln!("warning: serve: a connection is not taken now ({e}); taken when the system allows");
                    self.said_full = true;
                }
                std::thread::sleep(Duration::from_millis(100));
                return None;
            }
        };
        self.said_full = false;
        let held = Held(Arc::clone(&self.connections));
        let before = self.connections.fetch_add(1, Ordering::Relaxed);
        let _ = stream.set_nonblocking(false);
        let _ = stream.set_write_timeout(Some(WRITE_TIME));
        let connection = Connection {
            stream,
            peer,
            _held: held,
        };
        if before >= MAX_CONNECTIONS {
            connection.refuse(503, "the server is busy: try again in a moment");
            return None;
        }
        Some(connection)
    }
}

/// A request's head, as read.
#[derive(Debug, PartialEq)]
pub(super) struct Head {
    pub(super) method: String,
    /// The request target as sent (`/path?query`).
    pub(super) target: String,
    /// `HTTP/1.0` or `HTTP/1.1`.
    pub(super) version: String,
    /// Each header's name (as sent) and value (spaces around it trimmed).
    pub(super) headers: Vec<(String, String)>,
}

impl Head {
    /// The values of the headers named `name` (any case).
    pub(super) fn values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Why a request was not read: said to the client, if at all, with this
/// status.
#[derive(Debug, PartialEq)]
pub(super) enum Unread {
    /// The client closed, or took longer than [`HEAD_TIME`]: nothing to
    /// say.
    Gone,
    /// A head longer than [`MAX_HEAD`].
    TooLarge,
    /// Not an HTTP/1.x request.
    Malformed(&'static str),
}

impl Connection {
    pub(super) fn peer(&self) -> SocketAddr {
        self.peer
    }

    /// Reads the request's head, within [`MAX_HEAD`] and [`HEAD_TIME`];
    /// what follows it (a body, another request) is not read.
    pub(super) fn read_head(&mut self) -> Result<Head, Unread> {
        let deadline = Instant::now() + HEAD_TIME;
        let mut head = Vec::with_capacity(1024);
        let mut chunk = [0u8; 4096];
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || self.stream.set_read_timeout(Some(left)).is_err() {
                return Err(Unread::Gone);
            }
            let n = match self.stream.read(&mut chunk) {
                Ok(0) => return Err(Unread::Gone),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => return Err(Unread::Gone),
            };
            // Where the blank line may end: it may straddle two reads.
            let from = head.len().saturating_sub(3);
            head.extend_from_slice(&chunk[..n]);
            if let Some(end) = end_of_head(&head[from..]) {
                if from + end > MAX_HEAD {
                    return Err(Unread::TooLarge);
                }
                head.truncate(from + end);
                return parse_head(&head);
            }
            if head.len() > MAX_HEAD {
                return Err(Unread::TooLarge);
            }
        }
    }

    /// Writes a whole response (`body` left out for HEAD, its length
    /// said all the same) and closes the connection.
    pub(super) fn respond(
        mut self,
        status: u16,
        headers: &[(&str, &str)],
        body: &[u8],
        with_body: bool,
    ) {
        let mut out = format!("HTTP/1.1 {status} {}\r\n", reason(status));
        for (name, value) in headers {
            out.push_str(&format!("{name}: {value}\r\n"));
        }
        out.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        ));
        let mut bytes = out.into_bytes();
        if with_body {
            bytes.extend_from_slice(body);
        }
        // A client gone before its answer: nothing to do.
        let _ = self.stream.write_all(&bytes);
        self.close();
    }

    /// Answers `status` with `message` as text, and closes.
    pub(super) fn refuse(self, status: u16, message: &str) {
        self.respond(
            status,
            &[("Content-Type", "text/plain; charset=utf-8")],
            format!("{message}\n").as_bytes(),
            true,
        );
    }

    /// The connection to write a response of its own on (an event
    /// stream), head and all.
    pub(super) fn into_writer(self) -> Writer {
        Writer(self)
    }

    /// Closes after a response: the writing side first, then what the
    /// client still sends is read and dropped until it closes too, for
    /// [`DRAIN_TIME`] at most: a close with unread bytes resets the
    /// connection, and a client's system drops an answer it has not yet
    /// read when reset (a 431 to a client still sending its head).
    fn close(mut self) {
        let _ = self.stream.flush();
        let _ = self.stream.shutdown(std::net::Shutdown::Write);
        let until = Instant::now() + DRAIN_TIME;
        let mut sink = [0u8; 16 * 1024];
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() || self.stream.set_read_timeout(Some(left)).is_err() {
                break;
            }
            match self.stream.read(&mut sink) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    }
}

/// A connection written to as a stream; closed when dropped.
pub(super) struct Writer(Connection);

impl Write for Writer {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.stream.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.stream.flush()
    }
}

/// Where a head ends in `bytes` (just past its blank line: CRLF CRLF, or
/// LF LF from a hand-typed request), if it does.
fn end_of_head(bytes: &[u8]) -> Option<usize> {
    (0..bytes.len()).find_map(|i| {
        if bytes[i..].starts_with(b"\r\n\r\n") {
            Some(i + 4)
        } else if bytes[i..].starts_with(b"\n\n") {
            Some(i + 2)
        } else if bytes[i..].starts_with(b"\n\r\n") {
            Some(i + 3)
        } else {
            None
        }
    })
}

/// A head's request line and headers.
fn parse_head(bytes: &[u8]) -> Result<Head, Unread> {
    let text = std::str::from_utf8(bytes).map_err(|_| Unread::Malformed("not UTF-8"))?;
    let mut lines = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line));
    let request_line = lines.next().unwrap_or("");
    let mut parts = request_line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(Unread::Malformed(
            "a request line is METHOD TARGET HTTP/1.1",
        ));
    };
    if method.is_empty() || !method.bytes().all(is_token) {
        return Err(Unread::Malformed("a method is a word"));
    }
    if !target.starts_with('/') || target.bytes().any(|b| b <= b' ' || b == 0x7f) {
        return Err(Unread::Malformed("a target is a path from /"));
    }
    if version != "HTTP/1.1" && version != "HTTP/1.0" {
        return Err(Unread::Malformed("this server speaks HTTP/1.0 and 1.1"));
    }
    let mut headers = vec![];
    for line in lines.filter(|line| !line.is_empty()) {
        let Some((name, value)) = line.split_once(':') else {
            return Err(Unread::Malformed("a header is NAME: VALUE"));
        };
        // A name with a space, or a line folded onto the one before it,
        // is read differently by different servers: refused.
        if name.is_empty() || !name.bytes().all(is_token) {
            return Err(Unread::Malformed("a header's name is a word"));
        }
        if value.bytes().any(|b| (b < b' ' && b != b'\t') || b == 0x7f) {
            return Err(Unread::Malformed(
                "a header's value holds a control character",
            ));
        }
        headers.push((
            name.to_string(),
            value.trim_matches([' ', '\t']).to_string(),
        ));
    }
    Ok(Head {
        method: method.to_string(),
        target: target.to_string(),
        version: version.to_string(),
        headers,
    })
}

/// A character of an HTTP token (a method, a header's name).
fn is_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        421 => "Misdirected Request",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_is_read_as_sent() {
        let head = parse_head(b"GET /a?b=c HTTP/1.1\r\nHost:  localhost:80 \r\nX-Y: z\r\n\r\n")
            .expect("a head");
        assert_eq!(head.method, "GET");
        assert_eq!(head.target, "/a?b=c");
        assert_eq!(head.version, "HTTP/1.1");
        assert_eq!(head.values("host").collect::<Vec<_>>(), ["localhost:80"]);
        assert_eq!(head.values("x-y").collect::<Vec<_>>(), ["z"]);
    }

    #[test]
    fn heads_no_two_servers_would_read_alike_are_refused() {
        for bad in [
            &b"GET /\r\n\r\n"[..],
            b"GET / HTTP/1.1 x\r\n\r\n",
            b"GET  / HTTP/1.1\r\n\r\n",
            b"GET http://a/ HTTP/1.1\r\n\r\n",
            b"GET / HTTP/2.0\r\n\r\n",
            b"G(T / HTTP/1.1\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost : a\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",
            b"GET / HTTP/1.1\r\nNoColon\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: a\x01b\r\n\r\n",
            b"GET /\xff HTTP/1.1\r\n\r\n",
        ] {
            assert!(
                matches!(parse_head(bad), Err(Unread::Malformed(_))),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn a_head_ends_at_its_blank_line_however_it_is_written() {
        assert_eq!(end_of_head(b"GET / HTTP/1.0\r\n\r\nbody"), Some(18));
        assert_eq!(end_of_head(b"GET / HTTP/1.0\n\nbody"), Some(16));
        assert_eq!(end_of_head(b"GET / HTTP/1.0\r\nHost: a\r\n"), None);
    }
}
