//! Tidy checks on the sources: the experiment catalog is the one list of experiments, and no file
//! is too long ([`file_length`]).
//!
//! An experiment's slug is written out once, in `experiments::catalog::ExperimentId::slug` (and in
//! the chapters' `<!-- experiment: NAME -->` markers, which the catalog tests check). Code names an
//! experiment by its `ExperimentId`; the JavaScript tests read `e2e/catalog.json`. So:
//! - the crates' code (not their tests) holds no string literal that is a slug;
//! - no source, test or script holds a list of slugs: three or more in one run of literals
//!   separated only by commas and brackets (`['sum', 'hashing', 'qps']`, `[['sum', 'sum'], …]`).
//!   A list of chapters only is not one (a test may hold the reading order it expects).

#![cfg(test)]

mod file_length;

use crate::shell::root;
use experiments::catalog::{ExperimentId, CATALOG};
use std::path::{Path, PathBuf};

/// Code that names something other than an experiment by a word that is also a slug, and why.
/// (Empty: the bench takes `lab`'s subcommand names from the catalog too.)
const OTHER_MEANINGS: &[(&str, &str)] = &[];

/// Every file under `dir` whose name ends with one of `extensions`, skipping `node_modules`.
fn files(dir: &Path, extensions: &[&str], found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "node_modules" && name != "target" {
                files(&path, extensions, found);
            }
        } else if extensions.iter().any(|e| name.ends_with(e)) {
            found.push(path);
        }
    }
}

/// A source's tokens as far as lists go: string literals, and the punctuation of a list.
#[derive(Debug, PartialEq)]
enum Token {
    Text(String),
    Joint,
    Other,
}

/// `source`'s string literals (`"…"`, `'…'`, `` `…` ``), list punctuation (`,` `[` `]` and
/// whitespace between them) and anything else, in order. Comments are skipped.
fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        if c == '/' && chars.get(at + 1) == Some(&'/') {
            while at < chars.len() && chars[at] != '\n' {
                at += 1;
            }
        } else if c == '"' || c == '\'' || c == '`' {
            // A Rust lifetime or char (`'a`, `'x'`) is never a slug: read it as a short literal.
            let mut end = at + 1;
            let mut text = String::new();
            while end < chars.len() && chars[end] != c && chars[end] != '\n' {
                if chars[end] == '\\' {
                    end += 1;
                }
                if let Some(ch) = chars.get(end) {
                    text.push(*ch);
                }
                end += 1;
            }
            if chars.get(end) == Some(&c) {
                out.push(Token::Text(text));
                at = end + 1;
            } else {
                out.push(Token::Other);
                at += 1;
            }
            continue;
        } else if c == ',' || c == '[' || c == ']' || c.is_whitespace() {
            if out.last() != Some(&Token::Joint) {
                out.push(Token::Joint);
            }
        } else if out.last() != Some(&Token::Other) {
            out.push(Token::Other);
        }
        at += 1;
    }
    out
}

fn is_slug(text: &str) -> bool {
    ExperimentId::from_slug(text).is_some()
}

fn is_chapter(text: &str) -> bool {
    CATALOG.iter().any(|e| e.chapter == text)
}

/// The lists of slugs in `source`: each run of three or more distinct slug literals joined only by
/// list punctuation (other literals may sit between them, as in `[['sum', 'sum'], …]`). A run of
/// chapter slugs only (`['concurrency-vs-parallelism', 'sum', …]`, where a chapter shares its
/// experiment's name) lists chapters, and a chapter's place in the reading order is the test's to
/// say.
fn slug_lists(source: &str) -> Vec<Vec<String>> {
    let mut lists = Vec::new();
    let mut run: Vec<String> = Vec::new();
    let mut chapters_only = true;
    let mut close = |run: &mut Vec<String>, chapters_only: &mut bool| {
        if run.len() >= 3 && !*chapters_only {
            lists.push(std::mem::take(run));
        }
        run.clear();
        *chapters_only = true;
    };
    for token in tokens(source) {
        match token {
            Token::Text(text) => {
                if is_slug(&text) && !run.contains(&text) {
                    run.push(text.clone());
                }
                if is_slug(&text) || is_chapter(&text) {
                    chapters_only &= is_chapter(&text);
                }
            }
            Token::Joint => {}
            Token::Other => close(&mut run, &mut chapters_only),
        }
    }
    close(&mut run, &mut chapters_only);
    lists
}

/// The code of a Rust file without its tests: nothing of a `tests.rs` or a `tests/` folder, and
/// nothing from the first `#[cfg(test)]` on (the crates keep their tests at the end).
fn code_of(path: &str, text: &str) -> String {
    if path.ends_with("/tests.rs") || path.contains("/tests/") {
        return String::new();
    }
    text.split("#[cfg(test)]").next().unwrap_or_default().to_string()
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).to_string_lossy().replace('\\', "/")
}

#[test]
fn the_crates_code_names_experiments_by_their_id_not_their_slug() {
    let mut rust = Vec::new();
    files(&root().join("crates"), &[".rs"], &mut rust);
    assert!(rust.len() > 100, "found the crates' sources ({})", rust.len());
    let mut found = Vec::new();
    for path in &rust {
        let name = relative(path);
        if name.starts_with("crates/experiments/src/catalog/")
            || OTHER_MEANINGS.iter().any(|(p, _)| name.starts_with(p))
        {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        for token in tokens(&code_of(&name, &text)) {
            if let Token::Text(text) = token {
                if is_slug(&text) {
                    found.push(format!("{name}: \"{text}\""));
                }
            }
        }
    }
    assert!(found.is_empty(), "write `ExperimentId::…` (its `.slug()` where text is needed):\n{}", found.join("\n"));
}

#[test]
fn no_source_test_or_script_keeps_its_own_list_of_experiments() {
    let mut sources = Vec::new();
    files(&root().join("crates"), &[".rs"], &mut sources);
    files(&root().join("e2e"), &[".mjs", ".js"], &mut sources);
    files(&root().join("www"), &[".js"], &mut sources);
    let mut found = Vec::new();
    for path in &sources {
        let name = relative(path);
        if name.starts_with("crates/experiments/src/catalog/") || name == "crates/xtask/src/tidy.rs" {
            continue;
        }
        for list in slug_lists(&std::fs::read_to_string(path).unwrap()) {
            found.push(format!("{name}: {}", list.join(", ")));
        }
    }
    assert!(
        found.is_empty(),
        "derive these from the catalog (`ExperimentId::ALL`, `CATALOG`; e2e/lib.mjs's CATALOG):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_checks_find_what_they_look_for() {
    // A list, a list of pairs, and not a list: one slug per object.
    assert_eq!(slug_lists("const A = ['sum', 'hashing', 'qps'];").len(), 1);
    assert_eq!(slug_lists("[\n  ['sum', 'sum'],\n  ['task-costs', 'task-switch'],\n  [\"demo\", 'demo'],\n]").len(), 1);
    assert!(slug_lists("{ slug: 'sum', x: 1 }, { slug: 'qps', x: 2 }, { slug: 'demo' }").is_empty());
    assert!(slug_lists("['sum', 'hashing']").is_empty(), "two are not a list");
    assert!(slug_lists("['concurrency-vs-parallelism', 'sum', 'bubble-sort', 'hashing']").is_empty(), "chapters");
    assert_eq!(slug_lists("[['concurrency-vs-parallelism', 'demo'], ['sum', 'sum'], ['hashing', 'hashing']]").len(), 1);
    assert!(slug_lists("// ['sum', 'hashing', 'qps']").is_empty(), "a comment");
    assert_eq!(code_of("crates/a/src/x.rs", "a\n#[cfg(test)]\nmod tests { \"sum\" }"), "a\n");
    assert_eq!(
        tokens("x = \"sum\";"),
        [Token::Other, Token::Joint, Token::Other, Token::Joint, Token::Text("sum".into()), Token::Other]
    );
}
