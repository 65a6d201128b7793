//! Text that came from a bot or a file (bot names, replies, stderr, error
//! details) shown on a terminal: control characters are escaped so that a
//! bot cannot move the cursor, clear the screen, ring the bell, retitle the
//! window or hide text with them.
//!
//! Convention: every control character (C0, DEL, C1), the Unicode
//! direction overrides and isolates that can reorder what is shown, and
//! the characters that show as nothing (a byte order mark, zero-width
//! spaces and joiners, direction marks, a soft hyphen) or as a space that
//! is not the space (a no-break space, the typographic spaces, letters and
//! braille that show blank), which would make a quoted reply look like one
//! it is not, is
//! written as `\x1b` (two hex digits, lower case) when below U+0100 and as
//! `\u{202e}` above. A NUL is `\x00`, a BEL `\x07`, an ESC `\x1b`, a tab
//! `\x09`. JSON and CSV outputs keep the exact text (their own quoting
//! applies); only text meant for people goes through here.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` is shown escaped: a control character, or one that shows
/// as nothing, reorders the text around it or breaks its line
/// ([`is_hidden_or_reordering`]).
fn needs_escape(c: char) -> bool {
    c.is_control() || is_hidden_or_reordering(c)
}

/// Whether `c` shows as nothing (zero-width spaces and joiners, direction
/// marks, a soft hyphen, a byte order mark) or as a space that is not the
/// space (U+00A0, U+2000-U+200A, U+3000, blank letters such as U+3164),
/// reorders the text around it
/// (direction overrides and isolates) or breaks a line without being a
/// control character (U+2028, U+2029): in a name, it makes one that reads
/// as another's, or garbles the page it is shown on.
pub fn is_hidden_or_reordering(c: char) -> bool {
    matches!(
        c,
        '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
            | '\u{00ad}'
            | '\u{061c}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{feff}'
            // Spaces that are not the space, and letters that show as a
            // blank: `0\u{a0}1 2 3` reads as a well-formed reply that
            // was refused.
            | '\u{00a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
            | '\u{115f}'
            | '\u{1160}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{ffa0}'
    )
}

fn push_escaped(out: &mut String, c: char) {
    let code = u32::from(c);
    if code < 0x100 {
        let _ = write!(out, "\\x{code:02x}");
    } else {
        let _ = write!(out, "\\u{{{code:x}}}");
    }
}

/// `name` with every character that is not an ASCII letter or digit, nor
/// one of `keep`, replaced by `_`, cut to `max` characters: the shared
/// rule of the names the referee makes files and folders from (results
/// folders, team folders, cached builds), each adding its own.
pub fn name_chars(name: &str, keep: &[char], max: usize) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || keep.contains(&c) {
                c
            } else {
                '_'
            }
        })
        .take(max)
        .collect()
}

/// Bytes in lower-case hex, two digits each (keys, content hashes,
/// cache names).
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// One piece of text (a name, a line, a detail) for a terminal: every
/// control character escaped, line breaks included.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if needs_escape(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A block of text made of lines (a rendered report, an error message):
/// as [`escape`], but the line breaks (`\n`) are kept.
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && needs_escape(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c != '\n' && needs_escape(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// An error and its causes (its `source` chain), `: `-separated: each
/// error's message says what failed, its cause says why. An error's
/// message never quotes its cause (or, when another crate's does, the
/// referee's error that wraps it says its text and does not chain it:
/// the sandbox's `LandlockError`), so each is said once as it is.
pub fn with_causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        text.push_str(": ");
        text.push_str(&e.to_string());
        cause = e.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Failed(&'static str, Option<Box<Failed>>);
    impl std::fmt::Display for Failed {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }
    impl std::error::Error for Failed {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|e| e as _)
        }
    }

    #[test]
    fn causes_are_said_once_each() {
        let denied = || Some(Box::new(Failed("Permission denied", None)));
        let chain = Failed(
            "cannot read the key file k",
            Some(Box::new(Failed("open", denied()))),
        );
        assert_eq!(
            with_causes(&chain),
            "cannot read the key file k: open: Permission denied"
        );
        // Each is said as it is: an error whose message says its cause
        // does not chain it (see the sandbox's `LandlockError`).
        let quoted = Failed("landlock: failed: Permission denied", None);
        assert_eq!(with_causes(&quoted), "landlock: failed: Permission denied");
        // The same words in the text are no reason to drop a cause.
        let elsewhere = Failed("open failed", Some(Box::new(Failed("failed", None))));
        assert_eq!(with_causes(&elsewhere), "open failed: failed");
    }

    #[test]
    fn control_characters_are_shown_escaped() {
        assert_eq!(escape("plain name-1_ü"), "plain name-1_ü");
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
        assert_eq!(escape("a\x1b[2Jb"), "a\\x1b[2Jb");
        assert_eq!(escape("\x07\0\x7f\t"), "\\x07\\x00\\x7f\\x09");
        assert_eq!(escape("x\u{9b}y"), "x\\x9by");
        assert_eq!(escape("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(escape("two\nlines\r"), "two\\x0alines\\x0d");
        assert_eq!(escape_lines("two\nlines\r\n"), "two\nlines\\x0d\n");
        assert_eq!(escape_lines("ok\n"), "ok\n");
        // Invisible characters: a reply that looks well formed is not.
        assert_eq!(escape("\u{feff}0 1"), "\\u{feff}0 1");
        assert_eq!(escape("0\u{200b} 1\u{ad}"), "0\\u{200b} 1\\xad");
        assert_eq!(escape("a\u{2060}b\u{200e}"), "a\\u{2060}b\\u{200e}");
    }
}
