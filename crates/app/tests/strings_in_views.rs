//! Tidy check: no reader-visible text is written into a `view!` as a literal. Every word a reader
//! sees comes from `i18n.rs`, so a translation cannot miss one. Attribute values (`class="…"`,
//! `data-testid="…"`) are not text and are allowed; so are literals without a letter (`" "`, `"·"`).

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable source folder") {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The end (exclusive) of the string literal that starts at `start` (its opening quote).
fn literal_end(text: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < text.len() && text[i] != b'"' {
        i += if text[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

/// Text nodes written as literals in the `view!` blocks of `source`: (line, literal).
fn literal_text_nodes(source: &str) -> Vec<(usize, String)> {
    let bytes = source.as_bytes();
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = source[from..].find("view! {") {
        let open = from + at + "view! {".len();
        let (mut depth, mut i) = (1, open);
        while depth > 0 && i < bytes.len() {
            match bytes[i] {
                b'"' => {
                    let end = literal_end(bytes, i);
                    let literal = &source[i + 1..end - 1];
                    // What comes before, ignoring spaces: after a tag (`>`) or a block (`}`) a
                    // literal is a text node; after `=` it is an attribute value.
                    let before = source[open..i].trim_end().chars().last();
                    if matches!(before, Some('>' | '}')) && literal.chars().any(char::is_alphabetic) {
                        found.push((source[..i].matches('\n').count() + 1, literal.to_string()));
                    }
                    i = end;
                    continue;
                }
                b'{' => depth += 1,
                b'}' => depth -= 1,
                _ => {}
            }
            i += 1;
        }
        from = i;
    }
    found
}

#[test]
fn views_take_their_words_from_i18n() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    assert!(files.len() > 20, "the app's sources were found");
    let mut problems = Vec::new();
    for file in files.iter().filter(|f| !f.ends_with("i18n.rs")) {
        let source = std::fs::read_to_string(file).unwrap();
        for (line, literal) in literal_text_nodes(&source) {
            problems.push(format!("{}:{line}: \"{literal}\"", file.display()));
        }
    }
    assert!(problems.is_empty(), "text written into views instead of i18n.rs:\n{}", problems.join("\n"));
}

#[test]
fn the_check_sees_text_nodes_and_lets_attributes_and_punctuation_pass() {
    let source = r#"
fn a() -> impl IntoView {
    view! {
        <p class="notice" data-testid="x">"Hello there"</p>
        <span>{t.name}" · "</span>
        <b>{count}" tasks"</b>
    }
}
"#;
    let found: Vec<String> = literal_text_nodes(source).into_iter().map(|(_, l)| l).collect();
    assert_eq!(found, ["Hello there", " tasks"]);
}
