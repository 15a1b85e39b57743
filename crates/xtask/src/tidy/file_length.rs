//! No Rust file holds more than [`LIMIT`] lines of code before its tests (issue 35): a longer one
//! does several jobs, and each job gets its file.
//!
//! A line of code is any line that is not blank and not a `//` comment (`///` and `//!` included).
//! Tests are not code here: an item under `#[cfg(test)]` (the `mod tests { … }` at a file's end,
//! and a test-only helper or `use` higher up), a file declared by a test-only `mod name;`
//! (`tests.rs`, `style_tests.rs`), a file under `#![cfg(test)]`, the modules such files declare,
//! and the crates' `tests/` folders. The interface's string tables are excepted ([`STRING_TABLES`]).

use super::{files, relative};
use crate::shell::root;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The most lines of code a file may have before its tests.
const LIMIT: usize = 700;

/// Files that are tables of strings rather than code, and why.
const STRING_TABLES: &[(&str, &str)] = &[
    ("crates/ui-text/src/en.rs", "the English interface strings, each declared with its doc and type"),
    ("crates/ui-text/src/ru.rs", "the Russian interface strings"),
    ("crates/ui-text/src/zh.rs", "the Chinese interface strings"),
    ("crates/ui-text/src/ja.rs", "the Japanese interface strings"),
    ("crates/ui-text/src/hi.rs", "the Hindi interface strings"),
];

/// `source` with the insides of comments, string literals and char literals blanked to spaces
/// (line ends kept, quotes kept), so that braces and `;` in the result are Rust's own.
fn blanked(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        let next = chars.get(at + 1).copied();
        let after_ident = at > 0 && (chars[at - 1].is_alphanumeric() || chars[at - 1] == '_');
        if c == '/' && next == Some('/') {
            while at < chars.len() && chars[at] != '\n' {
                out.push(' ');
                at += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while at < chars.len() {
                if chars[at] == '/' && chars.get(at + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    at += 2;
                } else if chars[at] == '*' && chars.get(at + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    at += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[at]));
                    at += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && next == Some('r'))) && !after_ident && raw_string_at(&chars, at).is_some() {
            let (open, hashes) = raw_string_at(&chars, at).expect("checked");
            out.extend(chars[at..open].iter());
            out.push('"');
            at = open + 1;
            while at < chars.len() {
                if chars[at] == '"' && (1..=hashes).all(|k| chars.get(at + k) == Some(&'#')) {
                    out.push('"');
                    out.extend(std::iter::repeat_n('#', hashes));
                    at += 1 + hashes;
                    break;
                }
                out.push(blank(chars[at]));
                at += 1;
            }
        } else if c == '"' {
            out.push('"');
            at += 1;
            while at < chars.len() && chars[at] != '"' {
                let skip = if chars[at] == '\\' { 2 } else { 1 };
                for k in 0..skip {
                    if let Some(&ch) = chars.get(at + k) {
                        out.push(blank(ch));
                    }
                }
                at += skip;
            }
            out.push('"');
            at += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(at + 2) == Some(&'\'')) {
            // A char literal (`'{'`, `'\n'`, `'\u{7b}'`); a lifetime (`'a`) has no closing quote.
            let end = (at + 2..chars.len()).find(|&k| chars[k] == '\'').unwrap_or(chars.len() - 1);
            out.push('\'');
            out.extend((at + 1..end).map(|k| blank(chars[k])));
            out.push('\'');
            at = end + 1;
        } else {
            out.push(c);
            at += 1;
        }
    }
    out
}

/// If a raw string literal (`r"…"`, `r#"…"#`, `br"…"`) starts at `at`: where its opening quote is,
/// and how many `#` close it.
fn raw_string_at(chars: &[char], at: usize) -> Option<(usize, usize)> {
    let mut k = at + if chars[at] == 'b' { 2 } else { 1 };
    let mut hashes = 0;
    while chars.get(k) == Some(&'#') {
        hashes += 1;
        k += 1;
    }
    (chars.get(k) == Some(&'"')).then_some((k, hashes))
}

/// What one Rust file holds, as far as its length goes.
#[derive(Debug, Default, PartialEq)]
struct Counted {
    /// Lines of code outside its tests.
    code: usize,
    /// The whole file is tests (`#![cfg(test)]`).
    all_tests: bool,
    /// Modules it declares with `mod name;` under `#[cfg(test)]`: test files.
    test_modules: Vec<String>,
    /// Modules it declares with `mod name;` otherwise.
    modules: Vec<String>,
}

/// The name in `mod name;` (with any visibility before it), if `item` is such a declaration.
fn declared_module(item: &str) -> Option<String> {
    let item = item.trim();
    let rest = item.strip_prefix("pub").map_or(item, |r| {
        let r = r.trim_start();
        r.strip_prefix('(').and_then(|r| r.split_once(')')).map_or(r, |(_, after)| after)
    });
    let name = rest.trim_start().strip_prefix("mod ")?.trim().strip_suffix(';')?.trim();
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')).then(|| name.to_string())
}

/// Count `source`'s lines of code, leaving out the items under `#[cfg(test)]`: from the attribute
/// to the end of the item it gates (its `;`, or the `}` that closes its first `{`).
fn count(source: &str) -> Counted {
    let code = blanked(source);
    let original: Vec<&str> = source.lines().collect();
    let lines: Vec<&str> = code.lines().collect();
    let mut counted = Counted { all_tests: code.contains("#![cfg(test)]"), ..Counted::default() };
    let mut test_lines = vec![false; lines.len()];
    let mut line = 0;
    while line < lines.len() {
        let Some(after) = lines[line].trim_start().strip_prefix("#[cfg(test)]") else {
            if let Some(name) = declared_module(lines[line]) {
                counted.modules.push(name);
            }
            line += 1;
            continue;
        };
        // The gated item: from the attribute on, to its `;` or its closing brace.
        let mut item = String::new();
        let mut depth = 0usize;
        let mut opened = false;
        let mut end = line;
        let mut text = after.to_string();
        'item: loop {
            for c in text.chars() {
                item.push(c);
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => {
                        depth = depth.saturating_sub(1);
                        if opened && depth == 0 {
                            break 'item;
                        }
                    }
                    ';' if !opened => break 'item,
                    _ => {}
                }
            }
            item.push('\n');
            end += 1;
            match lines.get(end) {
                Some(next) => text = next.to_string(),
                None => break,
            }
        }
        if let Some(name) = declared_module(&item.replace('\n', " ")) {
            counted.test_modules.push(name);
        }
        for gated in test_lines.iter_mut().take(end + 1).skip(line) {
            *gated = true;
        }
        line = end + 1;
    }
    counted.code = original
        .iter()
        .zip(&test_lines)
        .filter(|(text, gated)| {
            let text = text.trim();
            !**gated && !text.is_empty() && !text.starts_with("//")
        })
        .count();
    counted
}

/// The file a `mod name;` in `file` declares: `name.rs` or `name/mod.rs` beside a `lib.rs`,
/// `main.rs` or `mod.rs`, else in the folder named after `file`.
fn module_files(file: &Path, name: &str) -> [PathBuf; 2] {
    let folder = file.parent().expect("a file in a folder");
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let folder = if matches!(stem, "lib" | "main" | "mod") { folder.to_path_buf() } else { folder.join(stem) };
    [folder.join(format!("{name}.rs")), folder.join(name).join("mod.rs")]
}

/// Every Rust file under `crates` and its lines of code before its tests (test files: 0).
fn lines_of_code(crates: &Path) -> Vec<(PathBuf, usize)> {
    let mut paths = Vec::new();
    files(crates, &[".rs"], &mut paths);
    let counted: Vec<(PathBuf, Counted)> = paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path, count(&text))
        })
        .collect();
    // Test files: the crates' `tests/` folders, files under `#![cfg(test)]`, files that a test-only
    // `mod name;` declares, and (until nothing changes) every module a test file declares.
    let mut tests: BTreeSet<PathBuf> = counted
        .iter()
        .filter(|(path, c)| {
            c.all_tests || path.strip_prefix(crates).is_ok_and(|p| p.components().any(|c| c.as_os_str() == "tests"))
        })
        .map(|(path, _)| path.clone())
        .collect();
    for (path, c) in &counted {
        tests.extend(c.test_modules.iter().flat_map(|name| module_files(path, name)));
    }
    loop {
        let before = tests.len();
        let declared: Vec<PathBuf> = counted
            .iter()
            .filter(|(path, _)| tests.contains(path))
            .flat_map(|(path, c)| c.modules.iter().flat_map(|name| module_files(path, name)))
            .collect();
        tests.extend(declared);
        if tests.len() == before {
            break;
        }
    }
    counted.into_iter().map(|(path, c)| if tests.contains(&path) { (path, 0) } else { (path, c.code) }).collect()
}

/// The files over [`LIMIT`] (not string tables), longest first, each with its count.
fn too_long(counts: &[(String, usize)]) -> Vec<String> {
    let mut over: Vec<&(String, usize)> = counts
        .iter()
        .filter(|(name, code)| *code > LIMIT && !STRING_TABLES.iter().any(|(table, _)| table == name))
        .collect();
    over.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    over.iter().map(|(name, code)| format!("{name}: {code} lines of code ({} over)", code - LIMIT)).collect()
}

#[test]
fn no_file_holds_more_than_700_lines_of_code_before_its_tests() {
    let counts: Vec<(String, usize)> =
        lines_of_code(&root().join("crates")).into_iter().map(|(path, code)| (relative(&path), code)).collect();
    assert!(counts.len() > 100, "found the crates' sources ({})", counts.len());
    for (table, why) in STRING_TABLES {
        assert!(counts.iter().any(|(name, _)| name == table), "{table} ({why}) is excepted but gone");
    }
    let mut longest: Vec<&(String, usize)> = counts.iter().collect();
    longest.sort_by_key(|c| std::cmp::Reverse(c.1));
    for (name, code) in longest.iter().take(8) {
        eprintln!("{code:>5} {name}");
    }
    let over = too_long(&counts);
    assert!(
        over.is_empty(),
        "split these by job (at most {LIMIT} lines of code before the tests):\n{}",
        over.join("\n")
    );
}

#[test]
fn the_length_check_counts_code_and_fails_an_over_long_file() {
    // Blank and `//` lines are not code; neither is a test module, nor a test-only item higher up.
    let source = "//! A module.\n\nuse std::fmt;\n#[cfg(test)]\nuse std::collections::HashMap;\n\n/// Doc.\n\
                  fn a() {\n    let s = \"}\";\n    let c = '{';\n}\n#[cfg(test)]\nfn helper<'a>(x: &'a str) {\n    \
                  let _ = (x, r#\"}\"#);\n}\n#[cfg(test)]\nmod style;\nmod kept;\nfn b() {}\n#[cfg(test)]\n\
                  mod tests {\n    #[test]\n    fn t() { assert!(true); }\n}\n";
    let counted = count(source);
    assert_eq!(counted.code, 7, "use, fn a (4 lines), mod kept, fn b: {counted:?}");
    assert_eq!(counted.test_modules, ["style"]);
    assert_eq!(counted.modules, ["kept"]);
    assert!(count("#![cfg(test)]\nfn a() {}\n").all_tests);
    assert_eq!(declared_module("pub(crate) mod tidy;").as_deref(), Some("tidy"));
    assert_eq!(declared_module("mod tests {"), None);

    // A synthetic file one line over the limit fails, named with its count; one at the limit passes.
    let long = |n: usize| format!("fn f() {{\n{}}}\n#[cfg(test)]\nmod tests {{}}\n", "    g();\n".repeat(n - 2));
    assert_eq!(count(&long(LIMIT)).code, LIMIT);
    let counts = vec![
        ("crates/a/src/long.rs".to_string(), count(&long(LIMIT + 1)).code),
        ("crates/a/src/ok.rs".to_string(), LIMIT),
    ];
    assert_eq!(too_long(&counts), ["crates/a/src/long.rs: 701 lines of code (1 over)"]);
    // A string table may be longer.
    assert!(too_long(&[("crates/ui-text/src/ru.rs".to_string(), 2 * LIMIT)]).is_empty());

    // Test files found as the crate does: by a test-only `mod name;`, and what they declare.
    let dir = std::env::temp_dir().join(format!("xtask-file-length-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for folder in ["a/src/big", "a/src/style_tests", "a/tests"] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
    }
    std::fs::write(dir.join("a/src/lib.rs"), "mod big;\n#[cfg(test)]\nmod style_tests;\n").unwrap();
    std::fs::write(dir.join("a/src/big.rs"), "fn f() {}\n#[cfg(test)]\nmod tests;\n").unwrap();
    std::fs::write(dir.join("a/src/big/tests.rs"), "fn t() {}\n").unwrap();
    std::fs::write(dir.join("a/src/style_tests.rs"), "mod data;\nfn t() {}\n").unwrap();
    std::fs::write(dir.join("a/src/style_tests/data.rs"), "fn h() {}\n").unwrap();
    std::fs::write(dir.join("a/tests/cli.rs"), "fn t() {}\n").unwrap();
    let found: Vec<(String, usize)> = lines_of_code(&dir)
        .into_iter()
        .map(|(p, n)| (p.strip_prefix(&dir).unwrap().to_string_lossy().replace('\\', "/"), n))
        .collect();
    let code_of = |name: &str| found.iter().find(|(p, _)| p == name).map(|(_, n)| *n);
    assert_eq!(code_of("a/src/lib.rs"), Some(1));
    assert_eq!(code_of("a/src/big.rs"), Some(1));
    for test in ["a/src/big/tests.rs", "a/src/style_tests.rs", "a/src/style_tests/data.rs", "a/tests/cli.rs"] {
        assert_eq!(code_of(test), Some(0), "{test} is a test file: {found:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
