//! The HTML report in a real headless Chromium (Debian's `chromium`;
//! `.ci/run` installs it): pages load without console messages, the
//! leaderboard matches standings.csv, replay viewers stepped to move k show
//! the position an independent replay of the transcript gives, links
//! resolve, and nothing a bot names itself or prints becomes markup.
//! Screenshots land in `target/report-screenshots/`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use referee_engine::games::code_game::CodeRules;
use referee_engine::games::cryptron::{mirror, parse_line, Board};
use referee_engine::games::{GameConfig, GameOptions, Seat};
use referee_engine::transcript::{self, Direction, Entry};

use crate::harness::*;

const BUDGET: Duration = Duration::from_secs(240);

/// The Chromium on this machine; the browser tests cannot run without one.
fn chromium() -> PathBuf {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::var("PATH").unwrap_or_default().split(':') {
            let path = Path::new(dir).join(name);
            if path.is_file() {
                return path;
            }
        }
    }
    panic!("the report tests need a headless Chromium: apt-get install -y chromium (.ci/run does)");
}

/// What Chromium made of a page: the DOM after its scripts ran, and the
/// console messages it printed.
struct Loaded {
    dom: String,
    console: Vec<String>,
}

fn browse(url: &str, screenshot: Option<&Path>) -> Loaded {
    browse_with(url, screenshot, &[])
}

/// [`browse`] with more Chromium flags.
fn browse_with(url: &str, screenshot: Option<&Path>, flags: &[&str]) -> Loaded {
    let profile = tempfile::tempdir().unwrap();
    let mut command = Command::new(chromium());
    command.args(flags);
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--enable-logging=stderr",
        "--v=0",
        "--window-size=1200,1500",
    ]);
    command.arg(format!("--user-data-dir={}", profile.path().display()));
    // Chromium's own temporary folder (its singleton's socket) inside the
    // profile, removed with it: in /tmp it stays behind whenever Chromium
    // does not end on its own.
    command.env("TMPDIR", profile.path());
    match screenshot {
        Some(path) => command.arg(format!("--screenshot={}", path.display())),
        None => command.arg("--dump-dom"),
    };
    command.arg(url);
    let run = run_within(command, Duration::from_secs(90));
    assert_eq!(run.status, 0, "chromium {url}: {}", run.stderr);
    Loaded {
        dom: run.stdout,
        console: run
            .stderr
            .lines()
            .filter(|l| l.contains(":CONSOLE"))
            .map(str::to_string)
            .collect(),
    }
}

fn url(path: &Path, fragment: &str) -> String {
    format!("file://{}{fragment}", path.display())
}

/// Every `attr="value"` of the elements named `tag` in `html`, in order.
fn attributes(html: &str, tag: &str, attr: &str) -> Vec<String> {
    let mut out = vec![];
    let open = format!("<{tag}");
    let key = format!(" {attr}=\"");
    for piece in html.split(&open).skip(1) {
        let element = &piece[..piece.find('>').unwrap_or(piece.len())];
        if let Some(start) = element.find(&key) {
            let rest = &element[start + key.len()..];
            out.push(unescape(&rest[..rest.find('"').unwrap_or(rest.len())]));
        }
    }
    out
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&#x2f;", "/")
        .replace("&amp;", "&")
}

/// The cells of the rows of the table with id `id`, as text.
fn table_rows(dom: &str, id: &str) -> Vec<Vec<String>> {
    let start = dom.find(&format!("id=\"{id}\"")).expect("the table");
    let body = &dom[start..];
    let body = &body[body.find("<tbody>").unwrap()..body.find("</tbody>").unwrap()];
    body.split("<tr")
        .skip(1)
        .map(|row| {
            row.split("<td")
                .skip(1)
                .map(|cell| {
                    let inner = &cell[cell.find('>').unwrap() + 1..];
                    let inner = &inner[..inner.find("</td>").unwrap()];
                    unescape(&strip_tags(inner)).trim().to_string()
                })
                .collect()
        })
        .collect()
}

fn strip_tags(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

fn screenshots() -> PathBuf {
    let dir = root().join("target/report-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every local link of every page of the report leads to a file, and a
/// link's `#fragment` to an element with that id (or a move of the viewer).
fn assert_links_resolve(report: &Path) {
    let mut pages = vec![report.join("index.html")];
    pages.extend(Some(report.join("grades.html")).filter(|p| p.exists()));
    for sub in ["bots", "games"] {
        for entry in std::fs::read_dir(report.join(sub)).unwrap() {
            pages.push(entry.unwrap().path());
        }
    }
    let mut checked = 0;
    for page in &pages {
        let html = std::fs::read_to_string(page).unwrap();
        let links = attributes(&html, "a", "href")
            .into_iter()
            .chain(attributes(&html, "link", "href"))
            .chain(attributes(&html, "script", "src"));
        for link in links {
            assert!(
                !link.starts_with("http:")
                    && !link.starts_with("https:")
                    && !link.starts_with("//"),
                "{}: the report loads nothing from the network: {link}",
                page.display()
            );
            let (file, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            assert!(target.is_file(), "{}: broken link {link}", page.display());
            if !fragment.is_empty() && !fragment.starts_with("move-") {
                let text = std::fs::read_to_string(&target).unwrap();
                assert!(
                    text.contains(&format!("id=\"{fragment}\"")),
                    "{}: {link} names no element",
                    page.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "links were checked: {checked}");
}

fn play_tournament(dir: &Path, file: &Path) -> PathBuf {
    let out = dir.join("results");
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "2",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("report: "), "{}", run.stderr);
    out
}

/// The moves of a transcript as the viewer counts them: each reply that is
/// not an answer to `code`, with its seat.
fn transcript_moves(entries: &[Entry]) -> Vec<(Seat, String, Option<String>)> {
    let mut moves: Vec<(Seat, String, Option<String>)> = vec![];
    let mut asked: [String; 2] = Default::default();
    for entry in entries {
        if let Entry::Message { bot, dir, line, .. } = entry {
            match dir {
                Direction::To => {
                    if line.starts_with("signal") || line.starts_with("feedback") {
                        if let Some(m) = moves.iter_mut().rev().find(|m| m.0 == *bot) {
                            m.2.get_or_insert_with(|| line.clone());
                        }
                    }
                    asked[bot.index()] = line.split(' ').next().unwrap_or("").to_string();
                }
                Direction::From => {
                    let request = std::mem::take(&mut asked[bot.index()]);
                    if request != "code" {
                        moves.push((*bot, line.clone(), None));
                    }
                }
                Direction::Stderr => {}
            }
        }
    }
    moves
}

/// The markup of the element with id `id`, up to the first `end` after it.
fn element<'a>(dom: &'a str, id: &str, end: &str) -> &'a str {
    let start = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no element #{id}"));
    let stop = dom[start..].find(end).map_or(dom.len(), |e| start + e);
    &dom[start..stop]
}

/// What each seat answered to `code`, A then B, without separators.
fn code_answers(entries: &[Entry]) -> Vec<String> {
    let mut asked: [String; 2] = Default::default();
    let mut codes = vec![String::new(), String::new()];
    for entry in entries {
        if let Entry::Message { bot, dir, line, .. } = entry {
            match dir {
                Direction::To => asked[bot.index()] = line.clone(),
                Direction::From if asked[bot.index()] == "code" => {
                    codes[bot.index()] = line.replace([' ', '-'], "")
                }
                _ => {}
            }
        }
    }
    codes
}

/// A Cryptron tournament's report: leaderboard rows as standings.csv, and
/// the viewer of game 1 at every move showing the board the rules give
/// when the transcript's moves are played on the set-up.
#[test]
fn cryptron_report_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    let file = two_bot_tournament(
        dir.path(),
        "cryptron",
        2,
        [
            ("random", &sample_bin("cryptron_random")),
            ("starter", &sample_file("c/cryptron_starter.c")),
        ],
        "",
    );
    let out = play_tournament(dir.path(), &file);
    let report = out.join("report");
    let shots = screenshots();

    let index = browse(&url(&report.join("index.html"), ""), None);
    assert!(index.console.is_empty(), "{:?}", index.console);
    let standings = csv_records(&out.join("standings.csv"));
    let rows = table_rows(&index.dom, "standings");
    assert_eq!(rows.len(), standings.len());
    for (row, s) in rows.iter().zip(&standings) {
        assert_eq!(row[0], s["rank"]);
        assert_eq!(row[1], s["bot"]);
        assert_eq!(row[2], s["played"]);
        assert_eq!(row[3], s["wins"]);
        assert_eq!(row[4], s["draws"]);
        assert_eq!(row[5], s["losses"]);
        assert_eq!(row[6], s["points"]);
        let rating: f64 = s["rating"].parse().unwrap();
        assert_eq!(row[7], format!("{rating:.0}"));
    }
    browse(
        &url(&report.join("index.html"), ""),
        Some(&shots.join("cryptron-leaderboard.png")),
    );

    let entries = transcript::read(&out.join("transcripts/game-000001.jsonl")).unwrap();
    let moves = transcript_moves(&entries);
    assert!(moves.len() > 10, "a whole game: {}", moves.len());
    let game_page = report.join("games/game-000001.html");
    // The independent replay: the rules' board, each move judged and played.
    let mut board = Board::initial();
    let mut boards = vec![board];
    for (seat, line, _) in &moves {
        let turn = board.judge(*seat, parse_line(line).unwrap()).unwrap();
        board.play_unchecked(*seat, turn);
        boards.push(board);
    }
    let steps: Vec<usize> = vec![0, 1, 2, moves.len() / 2, moves.len() - 1, moves.len()];
    for &k in &steps {
        let page = browse(&url(&game_page, &format!("#move-{k}")), None);
        assert!(page.console.is_empty(), "move {k}: {:?}", page.console);
        assert!(
            page.dom.contains(&format!("data-move=\"{k}\"")),
            "the viewer is at move {k}"
        );
        let rows = attributes(&page.dom, "tr", "data-row");
        let a = attributes(&page.dom, "tr", "data-a");
        let b = attributes(&page.dom, "tr", "data-b");
        assert_eq!(rows.len(), 8, "8 rows at move {k}");
        for ((row, a), b) in rows.iter().zip(&a).zip(&b) {
            let r: u8 = row.parse().unwrap();
            assert_eq!(
                (a.parse::<u8>().unwrap(), b.parse::<u8>().unwrap()),
                (boards[k].own(Seat::A, r), boards[k].own(Seat::B, mirror(r))),
                "row {r} at move {k}"
            );
        }
        let points = attributes(&page.dom, "p", "data-a");
        assert_eq!(
            points,
            [boards[k].points(Seat::A).to_string()],
            "points at move {k}"
        );
    }
    browse(
        &url(&game_page, "#move-6"),
        Some(&shots.join("cryptron-viewer.png")),
    );
    let bot_page = report.join("bots/bot-0.html");
    let page = browse(&url(&bot_page, ""), Some(&shots.join("bot-page.png")));
    assert!(page.console.is_empty(), "{:?}", page.console);
    assert_links_resolve(&report);
}

/// Plays `args` (a `match` or `bench` command line) with its transcript
/// kept as `dir/STEM.jsonl`, and writes that game's page with `referee
/// replay --html` as `dir/STEM.html`: the transcript's and the page's paths.
fn replayed_page(dir: &Path, stem: &str, args: &[&str]) -> (PathBuf, PathBuf) {
    let transcript = dir.join(format!("{stem}.jsonl"));
    let mut played = args.to_vec();
    played.extend(["--transcript", transcript.to_str().unwrap()]);
    let run = referee(&played, BUDGET);
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    let html = dir.join(format!("{stem}.html"));
    let run = referee(
        &[
            "replay",
            transcript.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    (transcript, html)
}

/// Arrow 5: the viewer stepped to move k lists, for each seat, exactly the
/// attacks and signals of the transcript's first k moves, and the codes
/// once at the end.
#[test]
fn arrow5_viewer_steps_through_the_transcript() {
    let dir = tempfile::tempdir().unwrap();
    let (transcript_path, html) = replayed_page(
        dir.path(),
        "game",
        &[
            "match",
            "arrow5",
            &sample_bin("arrow5_strong"),
            &sample_bin("arrow5_random"),
            "--seed",
            "11",
        ],
    );
    let text = std::fs::read_to_string(&html).unwrap();
    assert!(
        !text.contains(" src=\"") && !text.contains("stylesheet"),
        "one self-contained page"
    );
    let entries = transcript::read(&transcript_path).unwrap();
    let moves = transcript_moves(&entries);
    for k in [0, 1, 2, 3, moves.len() - 1, moves.len()] {
        let page = browse(&url(&html, &format!("#move-{k}")), None);
        assert!(page.console.is_empty(), "{:?}", page.console);
        for (seat, id) in [(Seat::A, "attacks-a"), (Seat::B, "attacks-b")] {
            let start = page.dom.find(&format!("id=\"{id}\"")).unwrap();
            let list = &page.dom[start..start + page.dom[start..].find("</ol>").unwrap()];
            let lines = attributes(list, "li", "data-line");
            let feedback = attributes(list, "li", "data-feedback");
            let expected: Vec<&(Seat, String, Option<String>)> =
                moves[..k].iter().filter(|m| m.0 == seat).collect();
            assert_eq!(
                lines,
                expected.iter().map(|m| m.1.clone()).collect::<Vec<_>>(),
                "{seat}'s attacks at move {k}"
            );
            assert_eq!(
                feedback,
                expected
                    .iter()
                    .map(|m| m.2.clone().unwrap_or_default())
                    .collect::<Vec<_>>(),
                "{seat}'s signals at move {k}"
            );
        }
        assert_eq!(
            page.dom.contains("id=\"codes\""),
            k == moves.len(),
            "codes revealed only at the end (move {k})"
        );
        // The eye is drawn (no emoji font needed): one SVG eye per E.
        let board = element(&page.dom, "board", "</div>");
        assert!(!board.contains('\u{1F441}'), "no emoji eye at move {k}");
        for row in board.split("<li").skip(1) {
            let line = attributes(&format!("<li{row}"), "li", "data-line");
            let Some(line) = line.first() else { continue };
            assert_eq!(
                row.matches("class=\"eye\"").count(),
                line.matches('E').count(),
                "eyes of {line} at move {k}"
            );
        }
    }
    // At the end each seat's code, as it chose it, is drawn.
    let page = browse(&url(&html, &format!("#move-{}", moves.len())), None);
    let codes = element(&page.dom, "codes", "</ul>");
    let shown: Vec<String> = attributes(codes, "li", "data-code")
        .iter()
        .map(|c| c.replace('\u{1F441}', "E").replace(' ', ""))
        .collect();
    assert_eq!(shown, code_answers(&entries), "the codes at the end");
    assert_eq!(
        codes.matches("class=\"eye\"").count(),
        shown.iter().map(|c| c.matches('E').count()).sum::<usize>()
    );
    browse(
        &url(&html, "#move-5"),
        Some(&screenshots().join("arrow5-viewer.png")),
    );
}

/// `replay --html game.jsonl` (the transcript as --html's value) and
/// `replay game.jsonl --html` write the viewer beside the transcript; the
/// viewer never replaces the transcript, and no transcript is exit 2.
#[test]
fn replay_html_writes_the_viewer_beside_the_transcript() {
    let dir = tempfile::tempdir().unwrap();
    let transcript_path = dir.path().join("game.jsonl");
    let run = referee(
        &[
            "match",
            "mastermind",
            &sample_bin("mastermind_knuth"),
            &sample_bin("mastermind_random"),
            "--transcript",
            transcript_path.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let transcript = transcript_path.to_str().unwrap();
    let beside = dir.path().join("game.html");
    for args in [
        ["replay", "--html", transcript],
        ["replay", transcript, "--html"],
    ] {
        let _ = std::fs::remove_file(&beside);
        let run = referee(&args, BUDGET);
        assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
        let page = std::fs::read_to_string(&beside).unwrap();
        assert!(
            page.contains("id=\"viewer\"") && page.contains("id=\"game-data\""),
            "{args:?}: a viewer"
        );
    }
    assert!(
        transcript::read(&transcript_path).is_ok(),
        "transcript kept"
    );
    let run = referee(&["replay"], BUDGET);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("needs a transcript"), "{}", run.stderr);
}

/// A bot's move with a right-to-left override (U+202E) and a terminal
/// escape: the viewer shows both as the page's text shows them (`\u{202e}`,
/// `\x1b`), so the override cannot turn the line around. They were raw in
/// what the viewer drew from the page's JSON. The JSON keeps the bot's
/// own text (the rows' `data-line`).
#[test]
fn the_viewer_shows_a_bots_reordering_characters_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("override.py");
    std::fs::write(
        &bot,
        "import sys\nfor line in sys.stdin:\n    \
         if line.startswith('code'): print('0 1 2 3 4', flush=True)\n    \
         elif line.startswith('attack'): print('5 6 \\u202e7 8 9\\x1b[31m', flush=True)\n",
    )
    .unwrap();
    let (_, html) = replayed_page(
        dir.path(),
        "game",
        &[
            "match",
            "arrow5",
            &format!("python3 {}", bot.display()),
            &sample_bin("arrow5_random"),
            "--seed",
            "3",
        ],
    );
    let played = "5 6 \u{202e}7 8 9\u{1b}[31m";
    let page = browse(&url(&html, "#move-1"), None);
    assert!(page.console.is_empty(), "{:?}", page.console);
    let viewer = element(&page.dom, "viewer", "id=\"progress\"");
    let text = unescape(&strip_tags(viewer));
    for raw in ['\u{202e}', '\u{1b}'] {
        assert!(!text.contains(raw), "{raw:?} raw in the viewer: {text}");
    }
    let escaped = "5 6 \\u{202e}7 8 9\\x1b[31m";
    let info = unescape(&strip_tags(element(&page.dom, "move-info", "</div>")));
    assert!(
        info.contains(&format!("A played {escaped}")),
        "the move: {info}"
    );
    assert!(
        info.contains(&format!("answered '{escaped}'")),
        "the verdict: {info}"
    );
    let board = element(&page.dom, "attacks-a", "</ol>");
    assert!(
        unescape(&strip_tags(board)).contains(escaped),
        "A's attack: {board}"
    );
    assert_eq!(attributes(board, "li", "data-line"), [played]);
}

/// A bot named like markup and a bot printing markup on stderr: the report
/// shows their text and runs none of it.
#[test]
fn nothing_a_bot_says_becomes_markup() {
    let dir = tempfile::tempdir().unwrap();
    let stderr_bot = dir.path().join("loud.py");
    std::fs::write(
        &stderr_bot,
        format!(
            "import sys, subprocess\nsys.stderr.write('<img src=x onerror=\"document.title=1\"></pre><script>document.title=2</script>\\n')\nsys.stderr.flush()\n\
             sys.exit(subprocess.call(['{}']))\n",
            sample_bin("arrow5_random")
        ),
    )
    .unwrap();
    // Exits at once: a crash, so its stderr is on its page.
    let crasher = dir.path().join("crash.py");
    std::fs::write(
        &crasher,
        "import sys\nsys.stderr.write('<b id=\"injected\">bold</b>\\x1b]0;pwned\\x07\\n')\nsys.exit(3)\n",
    )
    .unwrap();
    let file = dir.path().join("t.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"t\"\ngame = \"arrow5\"\ngames_per_pairing = 2\nseed = 5\n\
             [[bots]]\nname = \"<script>document.title=3</script>\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"loud\"\nbot = \"{}\"\n\
             [[bots]]\nname = \"a&b\"\nbot = \"{}\"\n",
            sample_bin("arrow5_random"),
            stderr_bot.display(),
            crasher.display()
        ),
    )
    .unwrap();
    let out = play_tournament(dir.path(), &file);
    let report = out.join("report");
    let mut pages = vec![report.join("index.html")];
    for sub in ["bots", "games"] {
        for entry in std::fs::read_dir(report.join(sub)).unwrap() {
            pages.push(entry.unwrap().path());
        }
    }
    for page in &pages {
        let html = std::fs::read_to_string(page).unwrap();
        for raw in [
            "<script>document",
            "<img src=x",
            "<b id=\"injected\"",
            "</pre><script",
        ] {
            assert!(!html.contains(raw), "{}: unescaped {raw}", page.display());
        }
        // A bot's terminal escapes are shown escaped, never in the page's
        // bytes (its JSON data has them as \u001b).
        assert!(
            !html.contains(['\u{1b}', '\u{7}']),
            "{}: a raw escape",
            page.display()
        );
        let loaded = browse(&url(page, ""), None);
        assert!(
            loaded.console.is_empty(),
            "{}: {:?}",
            page.display(),
            loaded.console
        );
        assert!(
            !loaded.dom.contains("<b id=\"injected\""),
            "{}",
            page.display()
        );
        let title = &loaded.dom
            [loaded.dom.find("<title>").unwrap() + 7..loaded.dom.find("</title>").unwrap()];
        assert!(
            !["1", "2", "3"].contains(&title),
            "a script ran in {}",
            page.display()
        );
    }
    // The text is there, as text.
    let index = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(index.contains("&lt;script&gt;document.title=3&lt;/script&gt;"));
    let crash_page = pages
        .iter()
        .filter(|p| p.to_string_lossy().contains("/bots/"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .find(|html| html.contains("a&amp;b"))
        .expect("the crashing bot's page");
    assert!(
        crash_page.contains("crash"),
        "its disqualifications are listed"
    );
    assert!(
        crash_page.contains("&lt;b id=&quot;injected&quot;&gt;bold&lt;&#x2f;b&gt;")
            || crash_page.contains("&lt;b id=&quot;injected&quot;&gt;bold&lt;/b&gt;"),
        "its stderr is shown as text"
    );
    assert_links_resolve(&report);
}

/// `referee report` on a folder that is not a results folder says so.
#[test]
fn report_of_a_folder_without_results_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let run = referee(&["report", dir.path().to_str().unwrap()], BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("tournament.json"), "{}", run.stderr);
}

/// `check --report DIR`: each requirement as the JSON report has it, pass
/// or fail, and links to the games that count against it, each a viewer.
#[test]
fn check_report_links_the_failing_games() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("check-report");
    let check = root().join("tournaments/check-arrow5.toml");
    let text = std::fs::read_to_string(&check)
        .unwrap()
        .replace("samples = 200", "samples = 20")
        .replace(
            "../target/release/",
            &format!(
                "{}/",
                Path::new(&sample_bin("arrow5_random"))
                    .parent()
                    .unwrap()
                    .display()
            ),
        );
    let file = dir.path().join("check.toml");
    std::fs::write(&file, text).unwrap();
    let run = referee(
        &[
            "check",
            file.to_str().unwrap(),
            "--bot",
            &sample_file("hostile/arrow5_weak.py"),
            "--json",
            "--jobs",
            "2",
            "--report",
            report.to_str().unwrap(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 1, "{}", run.stderr);
    let json = run.json();
    let page = browse(&url(&report.join("index.html"), ""), None);
    assert!(page.console.is_empty(), "{:?}", page.console);
    let statuses = attributes(&page.dom, "tr", "data-status");
    let expected: Vec<String> = json["requirements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(statuses, expected);
    assert!(expected.contains(&"fail".to_string()));
    // Each evidence cell is one short line; the detail and the games fold
    // under it.
    let table = element(&page.dom, "requirements", "</table>");
    let mut folded = 0;
    for row in table.split("<tr").skip(2) {
        let cell = &row[row.find("class=\"evidence\"").expect("an evidence cell")..];
        let cell = &cell[..cell.find("</td>").unwrap()];
        if !(cell.contains("<ul") || cell.contains("<a ")) {
            continue;
        }
        let open = cell.find("<details>").expect("the detail is folded");
        let line_end = cell.find("</summary>").unwrap();
        for inner in ["<ul", "<a "] {
            assert!(
                cell.find(inner).is_none_or(|at| at > line_end),
                "{inner} folded: {cell}"
            );
        }
        let line = strip_tags(&cell[open..line_end]);
        assert!(
            line.len() < 300 && !line.contains('\n'),
            "a short line: {line}"
        );
        folded += 1;
    }
    assert!(folded >= 2, "the failed requirements' evidence is folded");
    // The lost games of the failed win-rate requirement are linked, and
    // each link opens that game's viewer.
    let links: Vec<String> = attributes(&page.dom, "a", "href")
        .into_iter()
        .filter(|l| l.starts_with("games/"))
        .collect();
    assert!(!links.is_empty(), "links to the failing games");
    for link in links.iter().take(3) {
        let game = browse(&url(&report.join(link), "#move-4"), None);
        assert!(game.console.is_empty(), "{link}: {:?}", game.console);
        assert!(game.dom.contains("data-move=\"4\""), "{link}");
    }
    browse(
        &url(&report.join("index.html"), ""),
        Some(&screenshots().join("check-report.png")),
    );
    // `referee report` writes a check's folder again from its check.json.
    let first = std::fs::read_to_string(report.join("index.html")).unwrap();
    std::fs::remove_file(report.join("index.html")).unwrap();
    let run = referee(&["report", report.to_str().unwrap()], BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("the check's page"), "{}", run.stdout);
    assert_eq!(
        std::fs::read_to_string(report.join("index.html")).unwrap(),
        first
    );
}

/// While a tournament runs its leaderboard page is there and refreshes
/// itself; killed, the folder keeps it; resumed to the end, the whole
/// report replaces it (no refresh, a viewer per game).
#[test]
fn live_leaderboard_then_the_whole_report_after_a_kill_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let paced = format!("python3 {} sleep 300 all", sample_file("hostile/paced.py"));
    let file = two_bot_tournament(
        dir.path(),
        "arrow5",
        6,
        [("paced", &paced), ("random", &sample_bin("arrow5_random"))],
        "[options]\nmax_rounds = 3\n",
    );
    let out = dir.path().join("results");
    let mut child = Command::new(referee_bin())
        .args([
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "1",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let index = out.join("report/index.html");
    let start = std::time::Instant::now();
    // The live page is written at the start and again as games finish.
    while !(index.exists()
        && out
            .join("games.csv")
            .metadata()
            .is_ok_and(|m| m.len() > 300))
        && start.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    let live = std::fs::read_to_string(&index).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(live.contains("http-equiv=\"refresh\""), "{live}");
    let page = browse(&url(&index, ""), None);
    assert!(page.console.is_empty(), "{:?}", page.console);
    assert!(
        page.dom.contains("live: this page reloads"),
        "the page says it is live"
    );
    let run = referee(
        &[
            "tournament",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--resume",
            "--jobs",
            "2",
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let done = std::fs::read_to_string(&index).unwrap();
    assert!(!done.contains("http-equiv=\"refresh\""));
    assert!(done.contains("6 of 6 games"), "{done}");
    assert_eq!(
        std::fs::read_dir(out.join("report/games")).unwrap().count(),
        6
    );
    assert!(
        !out.join(".report.new").exists(),
        "no half-written report is left"
    );
}

/// `--templates DIR` replaces a built-in page; a template that does not
/// parse is refused with its name and line, and the old report stays.
#[test]
fn an_organiser_overrides_a_template() {
    let dir = tempfile::tempdir().unwrap();
    let file = two_bot_tournament(
        dir.path(),
        "arrow5",
        2,
        [
            ("a", &sample_bin("arrow5_random")),
            ("b", &sample_bin("arrow5_strong")),
        ],
        "",
    );
    let out = play_tournament(dir.path(), &file);
    let templates = dir.path().join("templates");
    std::fs::create_dir(&templates).unwrap();
    std::fs::write(
        templates.join("index.html"),
        "{% extends \"base.html\" %}{% block main %}<p id=\"ours\">Our course: {{ board | length }} bots</p>{% endblock %}",
    )
    .unwrap();
    let (out_arg, templates_arg) = (out.to_str().unwrap(), templates.to_str().unwrap());
    let run = referee(&["report", out_arg, "--templates", templates_arg], BUDGET);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let index = std::fs::read_to_string(out.join("report/index.html")).unwrap();
    assert!(
        index.contains("<p id=\"ours\">Our course: 2 bots</p>"),
        "{index}"
    );
    std::fs::write(templates.join("bot.html"), "{% for x in %}").unwrap();
    let run = referee(&["report", out_arg, "--templates", templates_arg], BUDGET);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("bot.html"), "{}", run.stderr);
    assert!(run.stderr.contains("bot.html:1"), "{}", run.stderr);
    assert_eq!(
        std::fs::read_to_string(out.join("report/index.html")).unwrap(),
        index
    );
}

/// The viewer's rows of one seat's attacks in a dumped page: each row's
/// markup, the rows played (with `data-line`) apart from the empty ones.
fn attack_rows<'a>(dom: &'a str, seat: &str) -> (Vec<&'a str>, Vec<&'a str>) {
    let list = element(dom, &format!("attacks-{seat}"), "</ol>");
    list.split("<li")
        .skip(1)
        .partition(|row| row[..row.find('>').unwrap_or(0)].contains("data-line="))
}

/// Mastermind: the whole board at move 0 (a row of empty holes per attack
/// allowed), each attack as coloured pegs with the colour's symbol and
/// its black and white key pegs, the codes at the end, and a chart of the
/// attacks each seat has left, all as the transcript has them.
#[test]
fn mastermind_viewer_draws_pegs_from_move_0() {
    let dir = tempfile::tempdir().unwrap();
    let (transcript_path, html) = replayed_page(
        dir.path(),
        "game",
        &[
            "match",
            "mastermind",
            &sample_bin("mastermind_knuth"),
            &sample_bin("mastermind_random"),
            "--seed",
            "4",
            "--pegs",
            "5",
            "--colours",
            "8",
            "--max-attacks",
            "14",
            // The bots' codes follow the key: a fixed one makes the game
            // the same every run (with a fresh key one CI run played a
            // game A did not crack).
            "--key",
            "4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b4b",
        ],
    );
    let entries = transcript::read(&transcript_path).unwrap();
    let moves = transcript_moves(&entries);
    let n = moves.len();
    assert!(n >= 4, "a game of a few attacks: {n}");
    for k in [0, 1, 2, n - 1, n] {
        let page = browse(&url(&html, &format!("#move-{k}")), None);
        assert!(page.console.is_empty(), "{:?}", page.console);
        for (seat, name) in [(Seat::A, "a"), (Seat::B, "b")] {
            let (played, empty) = attack_rows(&page.dom, name);
            let expected: Vec<&(Seat, String, Option<String>)> =
                moves[..k].iter().filter(|m| m.0 == seat).collect();
            assert_eq!(played.len(), expected.len(), "{seat}'s attacks at move {k}");
            for (row, m) in played.iter().zip(&expected) {
                let pegs = attributes(&format!("<li{row}"), "svg", "data-colour");
                let symbols: Vec<String> = m.1.split_whitespace().map(str::to_string).collect();
                assert_eq!(pegs, symbols, "{seat}'s pegs at move {k}");
                let words: Vec<String> =
                    m.2.as_deref()
                        .unwrap_or("")
                        .split(' ')
                        .skip(1)
                        .map(str::to_string)
                        .collect();
                let key: Vec<String> = attributes(row, "svg", "data-black")
                    .into_iter()
                    .chain(attributes(row, "svg", "data-white"))
                    .collect();
                assert_eq!(key, words, "{seat}'s key pegs at move {k}");
            }
            // Rows not yet played: empty holes, one per peg.
            let left = if k < n { 14 - expected.len() } else { 0 };
            assert_eq!(empty.len(), left, "{seat}'s empty rows at move {k}");
            for row in &empty {
                assert_eq!(row.matches("peg hole").count(), 5, "5 holes a row");
            }
        }
        assert_eq!(
            page.dom.contains("id=\"codes\""),
            k == n,
            "codes at move {k}"
        );
    }
    let end = browse(&url(&html, &format!("#move-{n}")), None);
    let codes = element(&end.dom, "codes", "</ul>");
    let shown: Vec<String> = attributes(codes, "li", "data-code")
        .iter()
        .map(|c| c.replace(' ', ""))
        .collect();
    assert_eq!(shown, code_answers(&entries), "the codes at the end");
    assert_eq!(codes.matches("data-colour=").count(), 10, "drawn as pegs");
    // The chart: attacks left after each move, per seat.
    let chart = element(&end.dom, "progress-chart", "</svg>");
    let series = attributes(chart, "path", "data-values");
    for (seat, values) in Seat::BOTH.iter().zip(&series) {
        let expected: Vec<String> = (0..=n)
            .map(|i| (14 - moves[..i].iter().filter(|m| m.0 == *seat).count()).to_string())
            .collect();
        assert_eq!(values, &expected.join(" "), "{seat}'s attacks left");
    }
    assert!(
        chart.contains("class=\"progress-now\""),
        "the chart marks the move"
    );
    // And the codes still possible for each seat after each of its
    // attacks: 8^5 before any, then those that score every attack as
    // the feedback did, counted here from the transcript by the rules.
    let Ok(GameConfig::Mastermind(rules)) = GameConfig::from_options(
        "mastermind",
        &GameOptions {
            pegs: Some(5),
            colours: Some(8),
            ..Default::default()
        },
    ) else {
        panic!("mastermind's rules")
    };
    let all: Vec<_> = (0..rules.secret_count())
        .map(|i| rules.nth_code(i))
        .collect();
    let candidates = element(&end.dom, "candidates-chart", "</svg>");
    let series = attributes(candidates, "path", "data-values");
    for (seat, values) in Seat::BOTH.iter().zip(&series) {
        let mut expected = vec![32768usize];
        for i in 1..=n {
            let attacks: Vec<&(Seat, String, Option<String>)> =
                moves[..i].iter().filter(|m| m.0 == *seat).collect();
            let possible = all
                .iter()
                .filter(|code| {
                    attacks.iter().all(|(_, line, feedback)| {
                        let attack = rules.code(&rules.read(line).unwrap()).unwrap();
                        Some(rules.feedback_line(&rules.feedback(code, &attack))) == *feedback
                    })
                })
                .count();
            expected.push(possible);
        }
        let expected: Vec<String> = expected.iter().map(usize::to_string).collect();
        assert_eq!(values, &expected.join(" "), "{seat}'s codes still possible");
    }
    assert!(series[0].ends_with(" 1"), "A cracked: one code left");
    let shots = screenshots();
    browse(
        &url(&html, "#move-0"),
        Some(&shots.join("mastermind-move-0.png")),
    );
    browse(
        &url(&html, &format!("#move-{n}")),
        Some(&shots.join("mastermind-end.png")),
    );
}

/// The scrub slider moves the game, the buttons move the slider, and the
/// projector control enlarges the viewer and back: driven from a page that
/// holds the viewer in a frame, as a person would with the mouse.
#[test]
fn viewer_slider_and_projector_mode() {
    let dir = tempfile::tempdir().unwrap();
    let (transcript_path, _page) = replayed_page(
        dir.path(),
        "game",
        &[
            "match",
            "arrow5",
            &sample_bin("arrow5_strong"),
            &sample_bin("arrow5_random"),
            "--seed",
            "11",
        ],
    );
    let n = transcript_moves(&transcript::read(&transcript_path).unwrap()).len();
    let driver = dir.path().join("driver.html");
    std::fs::write(
        &driver,
        r##"<!DOCTYPE html><html><body><iframe id="f" src="game.html" width="1180" height="1400"></iframe><pre id="out"></pre>
<script>
window.addEventListener("load", function () {
  var out = [];
  try {
    var d = document.getElementById("f").contentDocument;
    var scrub = d.getElementById("scrub");
    out.push("max=" + scrub.max);
    scrub.value = "3";
    scrub.dispatchEvent(new Event("input"));
    out.push("move=" + d.getElementById("viewer").dataset.move);
    out.push("rows=" + d.querySelectorAll("#board li[data-line]").length);
    d.getElementById("last").click();
    out.push("slider=" + scrub.value);
    d.getElementById("projector").click();
    out.push("projector=" + d.body.classList.contains("projector"));
    out.push("header=" + d.defaultView.getComputedStyle(d.querySelector("header")).display);
    if (location.search !== "?stay") {
      d.getElementById("projector").click();
      out.push("after=" + d.body.classList.contains("projector"));
    }
  } catch (e) { out.push("error=" + e); }
  document.getElementById("out").textContent = out.join(" ");
});
</script></body></html>"##,
    )
    .unwrap();
    let flags = ["--allow-file-access-from-files"];
    let page = browse_with(&url(&driver, ""), None, &flags);
    let out = element(&page.dom, "out", "</pre>");
    assert!(!out.contains("error="), "{out}");
    for fact in [
        format!("max={n}"),
        "move=3".to_string(),
        // Moves 1 to 3: two attacks of A and one of B.
        "rows=3".to_string(),
        format!("slider={n}"),
        "projector=true".to_string(),
        "header=none".to_string(),
        "after=false".to_string(),
    ] {
        assert!(out.contains(&fact), "{fact} in {out}");
    }
    browse_with(
        &url(&driver, "?stay"),
        Some(&screenshots().join("viewer-projector.png")),
        &flags,
    );
}

/// Safe Cracker: the codes the referee drew are shown when the game ends
/// (and not before): in a tournament's viewer, each the code the other
/// seat's cracking guess found; in a solo game's, the referee's secret.
#[test]
fn safecracker_viewer_reveals_the_codes_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let file = two_bot_tournament(
        dir.path(),
        "safecracker",
        2,
        [
            ("optimal", &sample_bin("safecracker_optimal")),
            ("other", &sample_bin("safecracker_optimal")),
        ],
        "[options]\ncodes = \"random\"\ndigits = 4\nlength = 4\n",
    );
    let out = play_tournament(dir.path(), &file);
    let mut checked = 0;
    for game in [1, 2] {
        let page_path = out.join(format!("report/games/game-{game:06}.html"));
        let entries =
            transcript::read(&out.join(format!("transcripts/game-{game:06}.jsonl"))).unwrap();
        let moves = transcript_moves(&entries);
        let n = moves.len();
        let before = browse(&url(&page_path, &format!("#move-{}", n - 1)), None);
        assert!(
            !before.dom.contains("id=\"codes\""),
            "hidden before the end"
        );
        let end = browse(&url(&page_path, &format!("#move-{n}")), None);
        assert!(end.console.is_empty(), "{:?}", end.console);
        let codes = element(&end.dom, "codes", "</ul>");
        let seats = attributes(codes, "li", "data-seat");
        let shown = attributes(codes, "li", "data-code");
        assert_eq!(seats, ["a", "b"], "both codes at the end of game {game}");
        assert!(shown.iter().all(|c| c.len() == 7), "{shown:?}");
        // The last guess cracked the code of the seat that did not make it.
        let (cracker, guess, feedback) = moves.last().unwrap();
        assert_eq!(feedback.as_deref(), Some("feedback 4"), "a cracked game");
        let held = shown[cracker.other().index()].replace('-', "");
        assert_eq!(held, guess.replace([' ', '-'], ""), "game {game}");
        checked += 1;
    }
    assert_eq!(checked, 2);
    // A solo game: the referee's secret is revealed at the end.
    let (transcript_path, html) = replayed_page(
        dir.path(),
        "solo",
        &[
            "bench",
            "safecracker",
            &sample_bin("safecracker_optimal"),
            "--secret",
            "17",
        ],
    );
    let moves = transcript_moves(&transcript::read(&transcript_path).unwrap());
    let end = browse(&url(&html, &format!("#move-{}", moves.len())), None);
    let codes = element(&end.dom, "codes", "</ul>");
    assert_eq!(attributes(codes, "li", "data-seat"), ["b"]);
    assert_eq!(
        attributes(codes, "li", "data-code")[0].replace('-', ""),
        moves.last().unwrap().1.replace([' ', '-'], ""),
        "the secret the last guess cracked"
    );
    browse(
        &url(&html, &format!("#move-{}", moves.len())),
        Some(&screenshots().join("safecracker-solo-end.png")),
    );
}

/// The replay command a game's page prints runs as printed from where the
/// tournament was run (a repository root, the referee and the bots named
/// by relative paths) and plays the same game again, move for move.
#[test]
fn a_game_pages_replay_command_replays_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let bin = Path::new(&sample_bin("arrow5_random"))
        .parent()
        .unwrap()
        .to_path_buf();
    std::os::unix::fs::symlink(&bin, root.join("bin")).unwrap();
    std::os::unix::fs::symlink(referee_bin(), root.join("referee-here")).unwrap();
    std::fs::create_dir(root.join("contest")).unwrap();
    std::fs::write(
        root.join("contest/t.toml"),
        "name = \"t\"\ngame = \"arrow5\"\ngames_per_pairing = 2\nseed = 9\n\
         [[bots]]\nname = \"strong\"\nbot = \"../bin/arrow5_strong\"\n\
         [[bots]]\nname = \"random\"\nbot = \"../bin/arrow5_random\"\n",
    )
    .unwrap();
    let shell = |line: &str| {
        let mut command = Command::new("sh");
        command.args(["-c", line]).current_dir(root);
        run_within(command, BUDGET)
    };
    let run = shell("./referee-here tournament contest/t.toml --out results --jobs 1");
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    for game in [1, 2] {
        let page =
            std::fs::read_to_string(root.join(format!("results/report/games/game-{game:06}.html")))
                .unwrap();
        let printed = unescape(
            page.split("<pre id=\"replay\">")
                .nth(1)
                .and_then(|rest| rest.split("</pre>").next())
                .expect("the page prints a replay command"),
        );
        assert!(
            printed.starts_with("./referee-here match arrow5 "),
            "{printed}"
        );
        let again = root.join(format!("again-{game}.jsonl"));
        let run = shell(&format!("{printed} --transcript {}", again.display()));
        assert_eq!(run.status, 0, "{printed}: {}", run.stderr);
        let played = |path: &Path| -> Vec<(Seat, String)> {
            transcript_moves(&transcript::read(path).unwrap())
                .into_iter()
                .map(|(seat, line, _)| (seat, line))
                .collect()
        };
        let original = played(&root.join(format!("results/transcripts/game-{game:06}.jsonl")));
        assert!(!original.is_empty());
        assert_eq!(played(&again), original, "game {game} again: {printed}");
    }
}

/// A graded tournament's report has a grades page beside the leaderboard:
/// each team's mark, band, record, win rate and interval against each
/// reference and reason as grades.csv has them, the students as
/// students.csv, a roster team without a bot with its reason, and names
/// that are markup shown as text.
#[test]
fn grades_page_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = "name = \"graded\"\ngame = \"arrow5\"\nformat = \"gauntlet\"\n\
        challengers = [\"random\", \"strong\"]\ngames_per_pairing = 2\nseed = 5\n\
        [options]\nmax_rounds = 30\n\
        [grading]\nreferences = [\"random\", \"strong\"]\nroster = \"roster.csv\"\n\
        bands = [\n  { against = \"random\", win_rate = 0.6, marks = 50 },\n  \
        { against = \"strong\", win_rate = 0.5, marks = 80 },\n]\n"
        .to_string();
    for (bot, k) in [("random", 5), ("strong", 2), ("ann", 3), ("dave", 2)] {
        text.push_str(&format!(
            "[[bots]]\nname = \"{bot}\"\nbot = \"{}\"\n",
            cracks_at(k)
        ));
    }
    let file = dir.path().join("graded.toml");
    std::fs::write(&file, text).unwrap();
    std::fs::write(
        dir.path().join("roster.csv"),
        "student,team\n<img src=x onerror=alert(1)>,ann\nDora,dave\nZoe,zed\n",
    )
    .unwrap();
    let out = play_tournament(dir.path(), &file);
    let report = out.join("report");

    let index = browse(&url(&report.join("index.html"), ""), None);
    assert!(index.console.is_empty(), "{:?}", index.console);
    assert_eq!(
        attributes(&index.dom, "a", "href")
            .iter()
            .filter(|h| *h == "grades.html")
            .count(),
        1,
        "a link to the grades beside the leaderboard"
    );
    let page = report.join("grades.html");
    browse(&url(&page, ""), Some(&screenshots().join("grades.png")));
    let loaded = browse(&url(&page, ""), None);
    assert!(loaded.console.is_empty(), "{:?}", loaded.console);
    let grades = loaded.dom;
    let rows = table_rows(&grades, "grades");
    let csv = csv_records(&out.join("grades/grades.csv"));
    assert_eq!(rows.len(), 3, "ann, dave and zed: {rows:?}");
    let percent = |cell: &str| {
        let p = (cell.parse::<f64>().unwrap() * 1000.0).round() / 10.0;
        if p.fract() == 0.0 {
            format!("{p:.0}%")
        } else {
            format!("{p:.1}%")
        }
    };
    for (row, g) in rows.iter().zip(&csv) {
        assert_eq!(row[0], g["team"]);
        assert_eq!(row[1], g["marks"]);
        assert_eq!(row[2], g["band"]);
        for (i, r) in ["random", "strong"].iter().enumerate() {
            let vs = |c: &str| g[&format!("{c}_vs_{r}")].clone();
            assert_eq!(
                row[3 + 3 * i],
                format!("{}/{}/{}", vs("wins"), vs("draws"), vs("losses"))
            );
            assert_eq!(row[4 + 3 * i], percent(&vs("win_rate")));
            assert_eq!(
                row[5 + 3 * i],
                format!("{} to {}", percent(&vs("low")), percent(&vs("high")))
            );
        }
        assert_eq!(row[9], g["reason"]);
    }
    assert_eq!(rows[1][1], "80", "dave meets the strong band: {rows:?}");
    assert!(
        rows[2][0] == "zed" && rows[2][1] == "0" && rows[2][9].starts_with("no admitted bot"),
        "{rows:?}"
    );
    let students = table_rows(&grades, "students");
    assert_eq!(
        students,
        csv_records(&out.join("grades/students.csv"))
            .iter()
            .map(|s| ["student", "team", "marks", "reason"]
                .map(|c| s[c].clone())
                .to_vec())
            .collect::<Vec<_>>()
    );
    assert_eq!(students[0][0], "<img src=x onerror=alert(1)>");
    assert!(!grades.contains("<img src"), "a name is never markup");
    assert_links_resolve(&report);
}

/// A judge game (the `higher` fixture judge of tests/judges/): its page
/// draws the judge's frames with the generic viewer, the one in force at
/// each move; a game folder's own viewer.js draws them instead.
#[test]
fn a_judge_games_page_draws_its_frames_or_its_own_viewer() {
    let dir = tempfile::tempdir().unwrap();
    let judges = root().join("tests/judges");
    let picker = |picks: &str| format!("python3 {}/bots/picker.py {picks}", judges.display());
    let transcript = dir.path().join("game.jsonl");
    let run = referee(
        &[
            "match",
            &judges.join("higher/judge.py").to_string_lossy(),
            &picker("5 4"),
            &picker("3 6"),
            "--seed",
            "2",
            "--transcript",
            &transcript.to_string_lossy(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let html = dir.path().join("game.html");
    let run = referee(
        &[
            "replay",
            &transcript.to_string_lossy(),
            "--html",
            &html.to_string_lossy(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    // Move 2 (both picked in round 1): the frame of round 1, A's 5 in red.
    let page = browse(&url(&html, "#move-2"), None);
    assert!(page.console.is_empty(), "{:?}", page.console);
    let board = element(&page.dom, "board", "id=\"move-info\"");
    assert!(board.contains("frame-grid"), "{board}");
    let cells: Vec<&str> = board
        .split("class=\"frame-cell\"")
        .skip(1)
        .map(|c| {
            let text = &c[c.find('>').unwrap() + 1..];
            &text[..text.find('<').unwrap()]
        })
        .collect();
    assert_eq!(cells, ["5", "3"], "{board}");
    assert!(board.contains("background: rgb(238, 51, 51)"), "{board}");
    assert!(board.contains("round 1: A wins"), "{board}");
    // Move 1 (only A picked): still the set-up's frame.
    let page = browse(&url(&html, "#move-1"), None);
    let board = element(&page.dom, "board", "id=\"move-info\"");
    assert!(board.contains(">round 1<"), "{board}");
    // The same game from a folder that ships a viewer.js of its own.
    let own = dir.path().join("own");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::copy(judges.join("higher/judge.py"), own.join("judge.py")).unwrap();
    std::fs::write(
        own.join("viewer.js"),
        "window.refereeDrawFrame = function (board, frame, k, frames) {\n\
         var p = document.createElement('p'); p.id = 'own-view';\n\
         p.textContent = 'own ' + k + ' of ' + frames.length + ': ' + (frame ? frame.text : '-') + ' </b>';\n\
         board.appendChild(p); };\n",
    )
    .unwrap();
    let transcript = dir.path().join("own.jsonl");
    let run = referee(
        &[
            "match",
            &own.join("judge.py").to_string_lossy(),
            &picker("5 4"),
            &picker("3 6"),
            "--transcript",
            &transcript.to_string_lossy(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let html = dir.path().join("own.html");
    let run = referee(
        &[
            "replay",
            &transcript.to_string_lossy(),
            "--html",
            &html.to_string_lossy(),
        ],
        BUDGET,
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let page = browse(&url(&html, "#move-4"), None);
    assert!(page.console.is_empty(), "{:?}", page.console);
    let view = element(&page.dom, "own-view", "</p>");
    assert!(
        view.contains("own 4 of 4: round 2: B wins &lt;/b&gt;"),
        "{view}"
    );
}
