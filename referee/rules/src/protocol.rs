//! The syntax of the line protocol (`protocol.md`): turning a bot's line into
//! a syntax-level reply. Failing here is the *protocol* verdict; whether the
//! reply is allowed by the rules is the game's business (the *illegal* verdict).

/// The longest line a bot may write, newline excluded (`protocol.md`, Limits).
pub const MAX_LINE_BYTES: usize = 1024;
/// The most a bot may write to stdout in one game.
pub const MAX_OUTPUT_BYTES: usize = 1 << 20;

/// Splits a reply into exactly `N` one-character symbols.
///
/// Symbols may be separated by spaces, tabs, commas or dashes, or written with
/// no separator at all (`1 0 3 6 9`, `1-0-3-6-9`, `10369`). A variation
/// selector after an emoji (`👁️`) is ignored. Which characters are *symbols of
/// the game* is not checked here.
pub fn parse_symbols<const N: usize>(line: &str) -> Result<[char; N], String> {
    // A well-formed reply (every move's) is read without allocating; any
    // other line is read again by `parse_symbol_vec`, which says what is
    // wrong with it.
    if let Some(symbols) = symbols_in_place(line) {
        return Ok(symbols);
    }
    parse_symbol_vec(line, N).map(|symbols| {
        symbols
            .try_into()
            .expect("parse_symbol_vec returns exactly N symbols")
    })
}

/// The grammar's separators only (protocol.md): not every Unicode space.
fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '\t' | ',' | '-')
}

/// The emoji variation selector, ignored after a symbol (`👁️`).
const VARIATION_SELECTOR: char = '\u{fe0f}';

/// [`parse_symbol_vec`]'s reading of a line that holds exactly `N`
/// symbols, into an array; `None` for any other line.
fn symbols_in_place<const N: usize>(line: &str) -> Option<[char; N]> {
    let line = line.trim();
    let mut symbols = ['\0'; N];
    let mut count = 0;
    let mut push = |c: char| {
        let slot = symbols.get_mut(count)?;
        *slot = c;
        count += 1;
        Some(())
    };
    if line.contains(is_separator) {
        for token in line.split(is_separator).filter(|t| !t.is_empty()) {
            let mut chars = token.chars().filter(|&c| c != VARIATION_SELECTOR);
            match (chars.next(), chars.next()) {
                (Some(c), None) => push(c)?,
                _ => return None,
            }
        }
    } else {
        for c in line.chars().filter(|&c| c != VARIATION_SELECTOR) {
            push(c)?;
        }
    }
    (count == N && N > 0).then_some(symbols)
}

/// [`parse_symbols`] for a count known only at run time.
pub fn parse_symbol_vec(line: &str, n: usize) -> Result<Vec<char>, String> {
    let line = line.trim();
    if line.is_empty() {
        return Err(format!("expected {n} symbols, got an empty line"));
    }
    let mut symbols = Vec::with_capacity(n);
    if line.contains(is_separator) {
        for token in line.split(is_separator).filter(|t| !t.is_empty()) {
            let mut chars = token.chars().filter(|&c| c != VARIATION_SELECTOR);
            match (chars.next(), chars.next()) {
                (Some(c), None) => symbols.push(c),
                _ => {
                    return Err(format!(
                        "expected {n} single-character symbols, got the token '{}'",
                        shorten(token)
                    ))
                }
            }
        }
    } else {
        symbols.extend(line.chars().filter(|&c| c != VARIATION_SELECTOR));
    }
    if symbols.len() != n {
        return Err(format!(
            "expected {n} symbols, got {} in '{}'",
            symbols.len(),
            shorten(line)
        ));
    }
    Ok(symbols)
}

/// A line cut to a length fit for an error message.
pub fn shorten(line: &str) -> String {
    const MAX: usize = 60;
    if line.chars().count() <= MAX {
        line.to_string()
    } else {
        let cut: String = line.chars().take(MAX).collect();
        format!("{cut}…")
    }
}

/// The last line every bot receives: `end win|loss|draw REASON`. Its stdin is
/// closed right after.
pub fn end_line(result: &str, reason: &str) -> String {
    format!("end {result} {reason}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_documented_spellings() {
        for line in [
            "1 0 3 6 9",
            "10369",
            "1,0,3,6,9",
            "1-0-3-6-9",
            "  1 0 3 6 9 \r",
            "1\t0 3 6 9",
        ] {
            assert_eq!(
                parse_symbols::<5>(line),
                Ok(['1', '0', '3', '6', '9']),
                "{line:?}"
            );
        }
        assert_eq!(
            parse_symbols::<5>("1 0 3 6 👁️"),
            Ok(['1', '0', '3', '6', '👁'])
        );
        assert_eq!(parse_symbols::<5>("1036👁"), Ok(['1', '0', '3', '6', '👁']));
        // Only the grammar's separators: a no-break space is a symbol.
        assert!(parse_symbols::<5>("1\u{a0}0\u{a0}3\u{a0}6\u{a0}9").is_err());
        assert!(parse_symbols::<5>("1 0 3 6\u{2003}9").is_err());
    }

    /// The reading without allocation takes exactly the lines the full
    /// reading takes, as the same symbols (any other line goes to the full
    /// reading, which says what is wrong).
    #[test]
    fn the_reading_in_place_agrees_with_the_full_reading() {
        use proptest::prelude::*;
        let alphabet = prop::sample::select(vec![
            "1", "0", "9", "E", "x", " ", "\t", ",", "-", "\r", "\u{fe0f}", "👁", "\u{a0}", "12",
        ]);
        proptest!(|(parts in prop::collection::vec(alphabet, 0..14))| {
            let line: String = parts.concat();
            let full = parse_symbol_vec(&line, 5).ok();
            let in_place = symbols_in_place::<5>(&line).map(|s| s.to_vec());
            prop_assert_eq!(&in_place, &full, "{:?}", line);
        });
    }

    #[test]
    fn refuses_wrong_counts_and_long_tokens() {
        assert!(parse_symbols::<5>("").unwrap_err().contains("empty"));
        assert!(parse_symbols::<5>("1 0 3 6").unwrap_err().contains("got 4"));
        assert!(parse_symbols::<5>("1036912").unwrap_err().contains("got 7"));
        assert!(parse_symbols::<5>("10 3 6 9 1")
            .unwrap_err()
            .contains("'10'"));
        // Unknown characters are syntax-valid symbols; the game judges them.
        assert_eq!(
            parse_symbols::<5>("x 0 3 6 9"),
            Ok(['x', '0', '3', '6', '9'])
        );
    }
}
