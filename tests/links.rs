//! Every relative link and `#anchor` in every Markdown file of the
//! repository resolves: the file (or folder) exists inside the repository,
//! and the anchor is the slug of a heading of the target file, by GitHub's
//! rules. Needs no bot and no referee binary: only the files.

use std::collections::HashMap;
use std::fs;
use std::path::{Component, Path, PathBuf};

use super::harness::root;

/// Folders never searched for Markdown files: build output, version control
/// and tool folders (names starting with a dot), and tournament results
/// (ignored by git).
fn skipped(root: &Path, dir: &Path) -> bool {
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.starts_with('.')
        || name == "target"
        || name == "node_modules"
        || dir == root.join("tournaments").join("results")
}

/// Every `*.md` file under `dir`, sorted.
fn markdown_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("a folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if !skipped(root, &path) {
                markdown_files(root, &path, out);
            }
        } else if path.extension().is_some_and(|ext| ext == "md") {
            out.push(path);
        }
    }
}

/// The lines of a Markdown file outside fenced code blocks, numbered from 1.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = vec![];
    let mut fence: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker: String = trimmed
            .chars()
            .take_while(|&c| c == '`' || c == '~')
            .collect();
        let is_fence =
            marker.len() >= 3 && marker.chars().all(|c| c == marker.chars().next().unwrap());
        match &fence {
            Some(open) => {
                if is_fence
                    && marker.starts_with(open.as_str())
                    && trimmed[marker.len()..].trim().is_empty()
                {
                    fence = None;
                }
                continue;
            }
            None if is_fence => {
                fence = Some(marker);
                continue;
            }
            None => {}
        }
        out.push((i + 1, line.to_string()));
    }
    out
}

/// Replaces every inline code span (a run of backticks to the next run of
/// the same length) with spaces.
fn blank_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|&&c| c == '`').count();
        // Find the closing run of exactly the same length.
        let mut j = i + run;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let r = chars[j..].iter().take_while(|&&c| c == '`').count();
                if r == run {
                    close = Some(j);
                    break;
                }
                j += r;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                out.extend(std::iter::repeat_n(' ', j + run - i));
                i = j + run;
            }
            None => {
                // An unmatched run is literal text.
                out.extend(std::iter::repeat_n('`', run));
                i += run;
            }
        }
    }
    out
}

/// The destinations of the inline links and images (`[text](dest)`,
/// `[text](<dest> "title")`) and of the link reference definitions
/// (`[label]: dest`) of one prose line.
fn link_targets(line: &str) -> Vec<String> {
    let mut out = vec![];
    let trimmed = line.trim_start();
    if trimmed.starts_with('[') {
        if let Some(end) = trimmed.find("]:") {
            let dest = trimmed[end + 2..].split_whitespace().next().unwrap_or("");
            if !dest.is_empty() {
                out.push(
                    dest.trim_start_matches('<')
                        .trim_end_matches('>')
                        .to_string(),
                );
            }
            return out;
        }
    }
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let (dest, used) = if let Some(inner) = after.strip_prefix('<') {
            match inner.find('>') {
                Some(end) => (inner[..end].to_string(), end + 2),
                None => (String::new(), 0),
            }
        } else {
            // Up to the closing parenthesis (balanced) or the first space.
            let mut depth = 0usize;
            let mut end = after.len();
            for (i, c) in after.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' if depth == 0 => {
                        end = i;
                        break;
                    }
                    ')' => depth -= 1,
                    c if c.is_whitespace() => {
                        end = i;
                        break;
                    }
                    _ => {}
                }
            }
            (after[..end].to_string(), end)
        };
        if !dest.is_empty() {
            out.push(dest);
        }
        rest = &after[used..];
    }
    out
}

/// GitHub's anchor for a heading's text: inline markup dropped, lowercase,
/// every character but letters, digits, spaces, `-` and `_` removed, spaces
/// turned into `-`.
pub fn slug(heading: &str) -> String {
    // Links in a heading contribute their text only.
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        match rest[open..].find("](") {
            Some(mid) => {
                let after = &rest[open + mid + 2..];
                match after.find(')') {
                    Some(close) => {
                        text.push_str(&rest[..open]);
                        text.push_str(&rest[open + 1..open + mid]);
                        rest = &after[close + 1..];
                    }
                    None => break,
                }
            }
            None => break,
        }
    }
    text.push_str(rest);
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor a Markdown file offers: its headings' slugs (a repeated slug
/// gets `-1`, `-2`, ...) and explicit `id="..."` / `name="..."` anchors.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = vec![];
    for (_, line) in prose_lines(text) {
        let trimmed = line.trim_start();
        let hashes = trimmed.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && trimmed[hashes..].starts_with([' ', '\t']) {
            let mut heading = trimmed[hashes..].trim();
            // A closing sequence of '#' is not part of the heading.
            let closing = heading.trim_end_matches('#');
            if closing.ends_with(' ') || closing.is_empty() {
                heading = closing.trim_end();
            }
            let base = slug(heading);
            let n = seen.entry(base.clone()).or_insert(0);
            out.push(if *n == 0 {
                base.clone()
            } else {
                format!("{base}-{n}")
            });
            *n += 1;
        }
        for key in ["id=\"", "name=\""] {
            let mut rest = line.as_str();
            while let Some(at) = rest.find(key) {
                let value = &rest[at + key.len()..];
                if let Some(end) = value.find('"') {
                    out.push(value[..end].to_string());
                }
                rest = &rest[at + key.len()..];
            }
        }
    }
    out
}

/// `path` with `.` and `..` resolved lexically (no file system access), or
/// `None` when `..` climbs above the root of the path.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other),
        }
    }
    Some(out)
}

/// Decodes `%XX` escapes (a link to `my%20file.md`).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Some(v) = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Why `target`, a link in `file`, does not resolve (None: it resolves).
fn check_link(
    root: &Path,
    file: &Path,
    target: &str,
    cache: &mut HashMap<PathBuf, Vec<String>>,
) -> Option<String> {
    let lower = target.to_ascii_lowercase();
    let is_external = lower.starts_with("//")
        || lower.split_once(':').is_some_and(|(scheme, _)| {
            !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        });
    if is_external {
        return None;
    }
    let (path_part, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (target, None),
    };
    let path_part = percent_decode(path_part.split('?').next().unwrap_or(""));
    let resolved = if path_part.is_empty() {
        file.to_path_buf()
    } else if let Some(from_root) = path_part.strip_prefix('/') {
        root.join(from_root)
    } else {
        file.parent().unwrap().join(&path_part)
    };
    let resolved = match normalize(&resolved) {
        Some(p) if p.starts_with(root) => p,
        _ => return Some("points outside the repository".into()),
    };
    if !resolved.exists() {
        return Some("no such file".into());
    }
    let anchor = match anchor {
        Some(a) if !a.is_empty() => percent_decode(a),
        _ => return None,
    };
    if resolved.extension().is_none_or(|ext| ext != "md") {
        // Anchors into other files (`#L10` of source code) are not checked.
        return None;
    }
    let known = cache
        .entry(resolved.clone())
        .or_insert_with(|| anchors(&fs::read_to_string(&resolved).unwrap_or_default()));
    if known.contains(&anchor) {
        None
    } else {
        Some(format!("no heading with the anchor #{anchor}"))
    }
}

/// Every broken link of the Markdown files under `root`, as
/// `file:line -> target (why)`.
fn broken_links(root: &Path) -> (usize, Vec<String>) {
    let mut files = vec![];
    markdown_files(root, root, &mut files);
    let mut cache = HashMap::new();
    let mut broken = vec![];
    let mut links = 0;
    for file in &files {
        let text = fs::read_to_string(file)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        for (line_no, line) in prose_lines(&text) {
            // A link written in an inline code span is not a link.
            for target in link_targets(&blank_code_spans(&line)) {
                links += 1;
                if let Some(why) = check_link(root, file, &target, &mut cache) {
                    let shown = file.strip_prefix(root).unwrap_or(file).display();
                    broken.push(format!("{shown}:{line_no} -> {target} ({why})"));
                }
            }
        }
    }
    (links, broken)
}

#[test]
fn every_markdown_link_and_anchor_resolves() {
    let root = normalize(&root()).expect("the repository root");
    let mut files = vec![];
    markdown_files(&root, &root, &mut files);
    assert!(
        files.iter().any(|f| f.ends_with("README.md")),
        "no README.md found under {}",
        root.display()
    );
    let (links, broken) = broken_links(&root);
    assert!(
        links > 0,
        "no links found in {} Markdown files",
        files.len()
    );
    assert!(
        broken.is_empty(),
        "{} broken link(s) in the Markdown files:\n  {}",
        broken.len(),
        broken.join("\n  ")
    );
}

#[test]
fn slugs_follow_github() {
    assert_eq!(slug("6. Cryptron (HackDroids)"), "6-cryptron-hackdroids");
    assert_eq!(slug("`referee check`"), "referee-check");
    assert_eq!(
        slug("Disqualifications (verdicts)"),
        "disqualifications-verdicts"
    );
    assert_eq!(
        slug("2. Sandbox: what a bot may and may not do"),
        "2-sandbox-what-a-bot-may-and-may-not-do"
    );
    assert_eq!(
        slug("Solo games and `referee bench` (every code game)"),
        "solo-games-and-referee-bench-every-code-game"
    );
    assert_eq!(
        slug("The [hidden eye](x.md) variant"),
        "the-hidden-eye-variant"
    );
    assert_eq!(slug("snake_case and A-B"), "snake_case-and-a-b");
    let text = "# A\n## Rules\n```\n## Not a heading\n```\n### Rules\n## Rules ##\n";
    assert_eq!(anchors(text), ["a", "rules", "rules-1", "rules-2"]);
}

#[test]
fn broken_links_are_found_and_located() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let root = normalize(dir.path()).unwrap();
    fs::create_dir_all(root.join("docs")).unwrap();
    fs::write(root.join("docs/guide.md"), "# Guide\n\n## Two words\n").unwrap();
    fs::write(
        root.join("README.md"),
        "# Top\n\
         [ok](docs/guide.md) [ok](docs/guide.md#two-words) [ok](#top) [web](https://example.com/x)\n\
         `[code](missing.md)`\n\
         ```\n[fenced](missing.md)\n```\n\
         [gone](docs/missing.md)\n\
         [bad anchor](docs/guide.md#three-words)\n\
         [outside](../elsewhere.md)\n\
         [ref]: docs/nope.md\n",
    )
    .unwrap();
    let (_, broken) = broken_links(&root);
    assert_eq!(
        broken,
        [
            "README.md:7 -> docs/missing.md (no such file)",
            "README.md:8 -> docs/guide.md#three-words (no heading with the anchor #three-words)",
            "README.md:9 -> ../elsewhere.md (points outside the repository)",
            "README.md:10 -> docs/nope.md (no such file)",
        ]
    );
}

/// The figures table of docs/measurements.md ("Figures quoted in other
/// pages"): each bot's name and its figures, as written.
fn measured_figures(measurements: &str) -> Vec<(String, String)> {
    let mut figures = Vec::new();
    let mut lines = measurements
        .lines()
        .skip_while(|l| *l != "## Figures quoted in other pages");
    assert!(
        lines.next().is_some(),
        "docs/measurements.md has no figures table"
    );
    for line in lines.take_while(|l| !l.starts_with("## ")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if let [_, bot, _, figure, _] = cells[..] {
            if let Some(bot) = bot.strip_prefix('`').and_then(|b| b.strip_suffix('`')) {
                figures.push((bot.to_string(), figure.to_string()));
            }
        }
    }
    assert!(!figures.is_empty(), "the figures table has no rows");
    figures
}

/// A page's prose in blocks (a paragraph, a list item, a table row; code
/// blocks left out), each with the number of its first line.
fn prose_blocks(text: &str) -> Vec<(usize, String)> {
    let mut blocks: Vec<(usize, String)> = Vec::new();
    let mut open = false;
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            fenced = !fenced;
            open = false;
            continue;
        }
        if fenced || trimmed.is_empty() {
            open = false;
            continue;
        }
        let starts_item = trimmed.starts_with('|')
            || trimmed.starts_with("- ")
            || trimmed.starts_with("* ")
            || trimmed
                .split_once(". ")
                .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if open && !starts_item {
            let block = &mut blocks.last_mut().expect("an open block").1;
            block.push(' ');
            block.push_str(trimmed);
        } else {
            blocks.push((i + 1, trimmed.to_string()));
        }
        // A table row is a block of its own.
        open = !trimmed.starts_with('|');
    }
    blocks
}

/// The numbers with a decimal point in `text` that are not times, sizes or
/// versions, with where they start.
fn decimal_figures(text: &str) -> Vec<(usize, &str)> {
    const UNITS: &[&str] = &[
        "ms", "s", "µs", "us", "ns", "min", "h", "x", "KiB", "MiB", "GiB", "kB", "MB", "GB",
    ];
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit()
            || (i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'.'))
        {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        let token = text[start..i].trim_end_matches('.');
        let rest = &text[start + token.len()..];
        let parts: Vec<&str> = token.split('.').collect();
        if parts.len() != 2 {
            continue; // no decimal point, or a version (1.2.3)
        }
        let unit: String = rest
            .strip_prefix(' ')
            .unwrap_or(rest)
            .chars()
            .take_while(|c| c.is_alphabetic())
            .collect();
        if rest.starts_with('%') || UNITS.contains(&unit.as_str()) {
            continue;
        }
        found.push((start, token));
    }
    found
}

/// Where a page quotes a figure for a bot of the table that is not one of
/// its figures (nor one rounded): "page:line: ...". A figure is the bot's
/// when the nearest bot named before it, in its block, is that bot.
fn misquoted_figures(page: &str, text: &str, figures: &[(String, String)]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (line, block) in prose_blocks(text) {
        for (at, number) in decimal_figures(&block) {
            let Some((_, bot)) = figures
                .iter()
                .filter_map(|(bot, _)| block[..at].rfind(bot.as_str()).map(|p| (p, bot)))
                .max()
            else {
                continue;
            };
            let decimals = number.split('.').nth(1).map_or(0, str::len) as i32;
            let value: f64 = number.parse().unwrap();
            let its: Vec<&str> = figures
                .iter()
                .filter(|(b, _)| b == bot)
                .map(|(_, f)| f.as_str())
                .collect();
            let matches = its.iter().any(|f| {
                let f: f64 = f.parse().unwrap();
                (f - value).abs() <= 0.5 * 10f64.powi(-decimals) + 1e-9
            });
            if !matches {
                wrong.push(format!(
                    "{page}:{line}: '{number}' for `{bot}` is none of its figures in \
                     docs/measurements.md ({})",
                    its.join(", ")
                ));
            }
        }
    }
    wrong
}

#[test]
fn every_quoted_solver_figure_is_in_the_table() {
    let root = root();
    let measurements = root.join("docs").join("measurements.md");
    let figures = measured_figures(&fs::read_to_string(&measurements).unwrap());
    let mut pages = Vec::new();
    markdown_files(&root, &root, &mut pages);
    let mut wrong = Vec::new();
    let mut checked = 0;
    for page in pages.iter().filter(|p| **p != measurements) {
        let text = fs::read_to_string(page).unwrap();
        let shown = page.strip_prefix(&root).unwrap().display().to_string();
        checked += prose_blocks(&text)
            .iter()
            .filter(|(_, b)| figures.iter().any(|(bot, _)| b.contains(bot.as_str())))
            .count();
        wrong.extend(misquoted_figures(&shown, &text, &figures));
    }
    assert!(checked > 5, "only {checked} blocks name a bot of the table");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn misquoted_figures_are_found_and_located() {
    let figures = vec![
        ("arrow5_strong".to_string(), "4.3665".to_string()),
        ("mastermind_knuth".to_string(), "4.476".to_string()),
    ];
    let text = "Intro.\n\n- A bot (`arrow5_strong`, about 4.5 attacks).\n\
                - Rounded (`arrow5_strong`, 4.37 and 4.366, in 2.5 ms).\n\
                - Knuth (`mastermind_knuth`, 4.476); Kooi's rule 4.373\n  on the next line.\n\n\
                | `arrow5_strong` | 4.3665 / 4.3787 | v1.2.3 |\n\
                \n```\narrow5_strong 9.99\n```\n";
    let wrong = misquoted_figures("page.md", text, &figures);
    assert_eq!(wrong.len(), 3, "{wrong:#?}");
    assert!(
        wrong[0].starts_with("page.md:3: '4.5' for `arrow5_strong`"),
        "{wrong:#?}"
    );
    assert!(
        wrong[1].starts_with("page.md:5: '4.373' for `mastermind_knuth`"),
        "{wrong:#?}"
    );
    assert!(
        wrong[2].starts_with("page.md:8: '4.3787' for `arrow5_strong`"),
        "{wrong:#?}"
    );
}

#[test]
fn the_complete_arrow5_game_of_the_rules_is_protocol_mds_example() {
    // The rules page's complete game (attacks and signals, with its glyphs)
    // is the one protocol.md's transcript shows for A, on the wire.
    let root = root();
    let rules = fs::read_to_string(root.join("docs/rules/arrow5.md")).unwrap();
    let from_rules: Vec<(String, String)> = rules
        .lines()
        .skip_while(|l| *l != "## A complete game")
        .take_while(|l| !l.starts_with("## Playing"))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('`').collect();
            (cells.len() >= 4 && l.starts_with("| `"))
                .then(|| (cells[1].to_string(), cells[3].replace('·', ".").to_string()))
        })
        .collect();
    assert_eq!(from_rules.len(), 5, "{from_rules:?}");
    assert!(rules.contains("The defender's code is `1 0 3 6 9`"));
    let protocol = fs::read_to_string(root.join("protocol.md")).unwrap();
    let lines: Vec<&str> = protocol
        .lines()
        .skip_while(|l| !l.contains("docs/rules/arrow5.md#a-complete-game"))
        .take_while(|l| !l.starts_with("to A    < end"))
        .collect();
    assert!(lines.contains(&"from B  > 1 0 3 6 9"), "B's code");
    let from_protocol: Vec<(String, String)> = lines
        .windows(2)
        .filter_map(|w| {
            let attack = w[0].strip_prefix("from A  > ")?;
            let signal = w[1].strip_prefix("to A    < signal ")?;
            Some((attack.to_string(), signal.to_string()))
        })
        .collect();
    assert_eq!(from_rules, from_protocol);
}
