//! The layering of the workspace, checked from its sources: each of the
//! engine's top-level modules has a layer ([`LAYERS`]) and uses (by
//! `crate::` paths) only modules of its own layer or below, with no cycle
//! inside a layer; the rules crate touches no process, file, thread,
//! clock or network, and depends on no other crate of the workspace.
//! See `docs/design.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The engine's layers, lowest first, each with its top-level modules. A
/// module may use the modules of its own layer and of the layers before
/// it.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "rules and sandbox crates",
        &["games", "protocol", "text", "units", "verdict", "bot"],
    ),
    (
        "pieces",
        &[
            "atomic_file",
            "frame",
            "input_file",
            "judge",
            "key",
            "match_plan",
            "replay",
            "sprt",
            "time_bank",
            "calibrate",
            "record",
            "report",
            "transcript",
        ],
    ),
    ("model", &["model"]),
    ("reporter", &["reporter"]),
    (
        "play",
        &[
            "runner",
            "pool",
            "plan_file",
            "human",
            "reproduce",
            "judge_check",
        ],
    ),
    ("collect", &["collect"]),
    ("grading", &["grading"]),
    ("tournament and bench", &["tournament", "bench"]),
    ("check", &["check"]),
    // Readers of a results folder while it is written (its store too).
    ("live", &["live"]),
    ("serve", &["serve"]),
];

/// Modules of one layer allowed to use each other: none (`runner` and
/// `replay` did, until the match plan moved below both). A pair named here
/// must say why.
const KNOWN_CYCLES: &[(&str, &str)] = &[];

/// What the rules crate may not use: the parts of `std` that reach the
/// world outside a game's state.
const IMPURE_STD: &[&str] = &["process", "fs", "thread", "time", "net"];

fn engine_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
}

/// Every `.rs` file under `dir`, sorted.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = vec![];
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|x| x == "rs") {
            files.push(path);
        }
    }
    files
}

/// The engine module a source file belongs to: `reporter` for
/// `reporter/html/mod.rs`, `bench` for `bench.rs`; `None` for the crate
/// root and this file.
fn module_of(relative: &Path) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && name != "layers").then(|| name.to_string())
}

/// `text` without its `//` comments (doc comments too: a link is no
/// dependency), its lines kept in place.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segment of every path that starts with `prefix` (`crate::`,
/// `std::`) in `text`, with its line (from 1): `tournament` for
/// `crate::tournament::GameRow`, both `fs` and `io` for `std::{fs, io}`.
fn paths_after(text: &str, prefix: &str) -> Vec<(usize, String)> {
    let text = without_comments(text);
    let line_at = |offset: usize| text[..offset].matches('\n').count() + 1;
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut found = vec![];
    for (at, _) in text.match_indices(prefix) {
        // `crate::` inside `referee_crate::` or `$crate::` is another path.
        if text[..at].chars().next_back().is_some_and(ident) {
            continue;
        }
        let rest = &text[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // A group: the first segment of each member at depth 1.
            let mut depth = 1;
            let mut start_of_member = true;
            let mut chars = group.char_indices().peekable();
            while let Some((i, c)) = chars.next() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => start_of_member = true,
                    c if ident(c) && start_of_member && depth == 1 => {
                        let name: String = group[i..].chars().take_while(|&c| ident(c)).collect();
                        found.push((line_at(at + prefix.len() + 1 + i), name.clone()));
                        start_of_member = false;
                        for _ in 1..name.chars().count() {
                            chars.next();
                        }
                    }
                    _ => {}
                }
            }
        } else {
            let name: String = rest.chars().take_while(|&c| ident(c)).collect();
            if !name.is_empty() {
                found.push((line_at(at), name));
            }
        }
    }
    found
}

/// One use of a module: `file:line`, the module using and the one used.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Use {
    place: String,
    from: String,
    to: String,
}

/// The uses of other top-level modules in the source `text` of the file
/// `relative` (to the engine's `src`).
fn uses_in(relative: &Path, text: &str) -> Vec<Use> {
    let Some(from) = module_of(relative) else {
        return vec![];
    };
    paths_after(text, "crate::")
        .into_iter()
        .filter(|(_, to)| *to != from)
        .map(|(line, to)| Use {
            place: format!("src/{}:{line}", relative.display()),
            from: from.clone(),
            to,
        })
        .collect()
}

fn engine_uses() -> Vec<Use> {
    let src = engine_src();
    sources(&src)
        .iter()
        .flat_map(|path| {
            let text = fs::read_to_string(path).expect("an engine source reads");
            uses_in(path.strip_prefix(&src).expect("under src"), &text)
        })
        .collect()
}

/// Each use of a module of a higher layer, or of a module with no layer,
/// as a line naming the file and line.
fn upward(uses: &[Use]) -> Vec<String> {
    uses.iter()
        .filter_map(|u| match (layer_of(&u.from), layer_of(&u.to)) {
            (Some(from), Some(to)) if to <= from => None,
            (Some(from), Some(to)) => Some(format!(
                "{}: `{}` ({}) uses `crate::{}` of a layer above it ({})",
                u.place, u.from, LAYERS[from].0, u.to, LAYERS[to].0
            )),
            (None, _) => Some(format!("{}: `{}` has no layer in LAYERS", u.place, u.from)),
            (_, None) => Some(format!(
                "{}: `crate::{}` has no layer in LAYERS",
                u.place, u.to
            )),
        })
        .collect()
}

/// The cycles among modules (each as the modules it goes through), the
/// pairs of [`KNOWN_CYCLES`] left out.
fn cycles(uses: &[Use]) -> Vec<Vec<String>> {
    let known = |a: &str, b: &str| {
        KNOWN_CYCLES
            .iter()
            .any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
    };
    let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for u in uses.iter().filter(|u| !known(&u.from, &u.to)) {
        graph.entry(&u.from).or_default().insert(&u.to);
    }
    // Depth-first search from each module; a path back to a module on the
    // stack is a cycle.
    fn visit<'a>(
        node: &'a str,
        graph: &BTreeMap<&'a str, BTreeSet<&'a str>>,
        stack: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
        found: &mut Vec<Vec<String>>,
    ) {
        if let Some(at) = stack.iter().position(|&n| n == node) {
            let mut cycle: Vec<String> = stack[at..].iter().map(|s| s.to_string()).collect();
            cycle.push(node.to_string());
            found.push(cycle);
            return;
        }
        if !done.insert(node) {
            return;
        }
        stack.push(node);
        for next in graph.get(node).into_iter().flatten() {
            visit(next, graph, stack, done, found);
        }
        stack.pop();
    }
    let mut found = vec![];
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        visit(node, &graph, &mut vec![], &mut done, &mut found);
    }
    found
}

#[test]
fn every_module_of_the_engine_has_a_layer() {
    let lib = fs::read_to_string(engine_src().join("lib.rs")).expect("lib.rs reads");
    let modules: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';'))
        .collect();
    assert!(modules.contains(&"reporter"), "{modules:?}");
    let missing: Vec<&&str> = modules.iter().filter(|m| layer_of(m).is_none()).collect();
    assert!(
        missing.is_empty(),
        "modules without a layer in LAYERS: {missing:?}"
    );
}

#[test]
fn no_module_of_the_engine_uses_a_layer_above_it() {
    let uses = engine_uses();
    // The scan sees the uses it is meant to see.
    assert!(uses.iter().any(|u| u.from == "reporter" && u.to == "model"));
    assert!(uses
        .iter()
        .any(|u| u.from == "tournament" && u.to == "reporter"));
    let wrong = upward(&uses);
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn no_modules_of_the_engine_use_each_other() {
    let uses = engine_uses();
    let found = cycles(&uses);
    assert!(
        found.is_empty(),
        "cycles: {}",
        found
            .iter()
            .map(|c| c.join(" -> "))
            .collect::<Vec<_>>()
            .join("; ")
    );
}

#[test]
fn a_planted_use_of_a_layer_above_is_named_with_its_file_and_line() {
    let text = "//! `crate::check` in a comment is no use.\n\
                use crate::model::check::CheckReport;\n\
                use crate::{model, tournament::GameRow};\n";
    let uses = uses_in(Path::new("reporter/planted.rs"), text);
    assert_eq!(
        uses.iter().map(|u| u.to.as_str()).collect::<Vec<_>>(),
        ["model", "model", "tournament"]
    );
    assert_eq!(
        upward(&uses),
        ["src/reporter/planted.rs:3: `reporter` (reporter) uses `crate::tournament` of a layer above it (tournament and bench)"]
    );
    let both = [
        uses_in(Path::new("model/planted.rs"), "use crate::reporter::Run;\n"),
        uses_in(Path::new("reporter/planted.rs"), "use crate::model::x;\n"),
    ]
    .concat();
    assert_eq!(cycles(&both), [vec!["model", "reporter", "model"]]);
}

/// Each use of an impure part of `std` in the rules crate's sources.
fn impure_uses(relative: &Path, text: &str) -> Vec<String> {
    paths_after(text, "std::")
        .into_iter()
        .filter(|(_, name)| IMPURE_STD.contains(&name.as_str()))
        .map(|(line, name)| format!("rules/src/{}:{line}: uses std::{name}", relative.display()))
        .collect()
}

fn rules_crate() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules")
}

#[test]
fn the_rules_crate_uses_no_process_file_thread_clock_or_network() {
    let src = rules_crate().join("src");
    let files = sources(&src);
    assert!(files.len() > 5, "{}: {files:?}", src.display());
    let found: Vec<String> = files
        .iter()
        .flat_map(|path| {
            let text = fs::read_to_string(path).expect("a rules source reads");
            impure_uses(path.strip_prefix(&src).expect("under src"), &text)
        })
        .collect();
    assert!(found.is_empty(), "\n{}", found.join("\n"));
    // The scan finds what it looks for.
    assert_eq!(
        impure_uses(
            Path::new("x.rs"),
            "use std::{fmt, fs::File};\nlet t = ::std::time::Instant::now();\n"
        ),
        [
            "rules/src/x.rs:1: uses std::fs",
            "rules/src/x.rs:2: uses std::time"
        ]
    );
}

#[test]
fn the_rules_crate_depends_on_no_other_crate_of_the_workspace() {
    let workspace = workspace_root();
    let read = |path: PathBuf| -> toml::Table {
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        text.parse()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let root = read(workspace.join("Cargo.toml"));
    let members = root["workspace"]["members"].as_array().expect("members");
    let names: BTreeSet<String> = members
        .iter()
        .map(|m| {
            let manifest = read(
                workspace
                    .join(m.as_str().expect("a path"))
                    .join("Cargo.toml"),
            );
            manifest["package"]["name"]
                .as_str()
                .expect("a name")
                .to_string()
        })
        .collect();
    assert!(
        names.contains("referee-rules") && names.contains("referee-engine"),
        "{names:?}"
    );
    let rules = read(rules_crate().join("Cargo.toml"));
    let mut wrong = vec![];
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        for (name, spec) in rules
            .get(section)
            .and_then(|s| s.as_table())
            .into_iter()
            .flatten()
        {
            let package = spec.get("package").and_then(|p| p.as_str()).unwrap_or(name);
            if names.contains(package) || spec.get("path").is_some() {
                wrong.push(format!("referee/rules/Cargo.toml [{section}]: {name}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:?}");
}

/// The workspace's own folder (two above this crate's).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file of the workspace's crates and tests, with its path
/// from the workspace's folder.
fn workspace_sources() -> Vec<(String, String)> {
    let root = workspace_root();
    ["referee", "tests"]
        .iter()
        .flat_map(|dir| sources(&root.join(dir)))
        .map(|path| {
            let relative = path
                .strip_prefix(&root)
                .expect("under the workspace")
                .display()
                .to_string();
            let text =
                fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (relative, text)
        })
        .collect()
}

/// Every `unsafe` block of the workspace by file and line, and those of
/// them without a `SAFETY:` comment in the lines just above.
fn unsafe_blocks(files: &[(String, String)]) -> (Vec<String>, Vec<String>) {
    let (mut blocks, mut unexplained) = (vec![], vec![]);
    for (path, text) in files {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            // The line's code: no comment, and no string literal (this
            // file's own texts name the keyword).
            let code = line.split("//").next().unwrap_or("");
            let code: String = code.split('"').step_by(2).collect();
            if !code.contains("unsafe {") {
                continue;
            }
            let place = format!("{path}:{}", i + 1);
            let above = &lines[i.saturating_sub(8)..=i];
            if !above.iter().any(|l| l.contains("SAFETY:")) {
                unexplained.push(place.clone());
            }
            blocks.push(place);
        }
    }
    (blocks, unexplained)
}

/// `unsafe` stays rare and explained: the sandbox's system calls that no
/// safe wrapper offers, each with the reason it is sound.
#[test]
fn the_workspace_has_at_most_35_unsafe_blocks_each_with_its_safety_comment() {
    let (blocks, unexplained) = unsafe_blocks(&workspace_sources());
    assert!(
        blocks.len() <= 35,
        "{} unsafe blocks: {blocks:#?}",
        blocks.len()
    );
    assert!(unexplained.is_empty(), "no SAFETY comment: {unexplained:?}");
    let planted = [(
        "x.rs".to_string(),
        "fn f() {\n    unsafe { g() }\n}\n".to_string(),
    )];
    assert_eq!(unsafe_blocks(&planted).1, ["x.rs:2"]);
}

/// No source of the workspace names clone(2)'s flag for a child that
/// shares the referee's memory: bots start from a fork (or a launcher's),
/// never from a child running the referee's code in its memory. (The
/// name is put together here, so that this file does not name it.)
#[test]
fn no_source_names_the_flag_of_a_child_sharing_the_referees_memory() {
    let flag = ["CLONE", "_VM"].concat();
    let named: Vec<String> = workspace_sources()
        .into_iter()
        .filter(|(_, text)| text.contains(&flag))
        .map(|(path, _)| path)
        .collect();
    assert!(named.is_empty(), "{named:?}");
}

/// The lines of a Rust source outside its `#[cfg(test)]` items: a
/// top-level item under that attribute is left out whole (to its closing
/// brace at the start of a line, or its own line when it ends there), and
/// every other line counts, those after a test helper included.
fn lines_outside_tests(text: &str) -> usize {
    let mut count = 0;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line != "#[cfg(test)]" {
            count += 1;
            continue;
        }
        // Further attributes, then the item itself.
        for item in lines.by_ref() {
            if item.starts_with("#[") || item.trim().is_empty() {
                continue;
            }
            if item.trim_end().ends_with('{') {
                for inner in lines.by_ref() {
                    if inner.starts_with('}') {
                        break;
                    }
                }
            }
            break;
        }
    }
    count
}

/// Files a person can hold in their head: no source file of the crates is
/// over 1,000 lines outside its tests.
#[test]
fn no_source_file_is_over_1000_lines_outside_its_tests() {
    let long: Vec<String> = workspace_sources()
        .into_iter()
        .filter(|(path, _)| path.starts_with("referee/"))
        .filter_map(|(path, text)| {
            let lines = lines_outside_tests(&text);
            (lines > 1000).then(|| format!("{path}: {lines} lines"))
        })
        .collect();
    assert!(long.is_empty(), "{long:?}");
    // A test helper in the middle of a file leaves out itself, not the
    // rest of the file.
    let planted = "fn a() {}\n#[cfg(test)]\nfn helper() {\n    x();\n}\nfn b() {}\n\
                   #[cfg(test)]\nuse std::fs;\n#[cfg(test)]\n#[allow(unused)]\nmod tests {\n    fn t() {}\n}\n";
    assert_eq!(lines_outside_tests(planted), 2);
}
