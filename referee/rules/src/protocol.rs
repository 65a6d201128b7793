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
    parse_symbol_vec(line, N).map(|symbols| {
        symbols
            .try_into()
            .expect("parse_symbol_vec returns exactly N symbols")
    })
}

/// [`parse_symbols`] for a count known only at run time.
pub fn parse_symbol_vec(line: &str, n: usize) -> Result<Vec<char>, String> {
    let line = line.trim();
    if line.is_empty() {
        return Err(format!("expected {n} symbols, got an empty line"));
    }
    // The grammar's separators only (protocol.md): not every Unicode space.
    let is_separator = |c: char| matches!(c, ' ' | '\t' | ',' | '-');
    let mut symbols = Vec::with_capacity(n);
    if line.contains(is_separator) {
        for token in line.split(is_separator).filter(|t| !t.is_empty()) {
            let mut chars = token.chars().filter(|&c| c != '\u{fe0f}');
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
        symbols.extend(line.chars().filter(|&c| c != '\u{fe0f}'));
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
