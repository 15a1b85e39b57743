//! The catalog and the chapters agree: every `<!-- experiment: NAME -->` marker in `content/<lang>/`
//! names an experiment of `experiments::catalog`, in the chapter the catalog says, and every
//! experiment of the catalog is shown by its chapter in every language.

use experiments::catalog::CATALOG;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn content() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content")
}

/// The experiment names marked in one chapter's Markdown.
fn markers(markdown: &str) -> Vec<String> {
    markdown
        .lines()
        .filter_map(|line| line.trim().strip_prefix("<!--")?.strip_suffix("-->"))
        .filter_map(|comment| comment.trim().strip_prefix("experiment:"))
        .map(|name| name.trim().to_string())
        .collect()
}

/// (language, chapter slug, markers) of every chapter file.
fn chapters() -> Vec<(String, String, Vec<String>)> {
    let mut found = Vec::new();
    for lang in std::fs::read_dir(content()).expect("content/ exists") {
        let lang = lang.unwrap().path();
        if !lang.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&lang).unwrap() {
            let file = file.unwrap().path();
            // A language's style sheet (`STYLE.md`) is for authors, not a text of the site.
            if file.extension().is_none_or(|e| e != "md") || file.ends_with("STYLE.md") {
                continue;
            }
            let slug = file.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&file).unwrap();
            found.push((lang.file_name().unwrap().to_string_lossy().into_owned(), slug, markers(&text)));
        }
    }
    found
}

#[test]
fn markers_name_catalog_experiments_in_their_chapters() {
    let chapters = chapters();
    assert!(chapters.iter().any(|(lang, ..)| lang == "en"), "content/en/ has chapters");
    for (lang, slug, names) in &chapters {
        for name in names {
            let experiment = CATALOG
                .iter()
                .find(|e| e.name() == name)
                .unwrap_or_else(|| panic!("content/{lang}/{slug}.md marks `{name}`, which the catalog does not have"));
            assert_eq!(
                experiment.chapter, slug,
                "content/{lang}/{slug}.md marks `{name}`, which the catalog puts in chapter `{}`",
                experiment.chapter
            );
        }
    }
}

#[test]
fn every_experiment_is_marked_once_in_every_language() {
    let chapters = chapters();
    let languages: BTreeSet<&str> = chapters.iter().map(|(lang, ..)| lang.as_str()).collect();
    for lang in languages {
        for experiment in &CATALOG {
            let count = chapters
                .iter()
                .filter(|(l, ..)| l == lang)
                .flat_map(|(_, _, names)| names)
                .filter(|n| *n == experiment.name())
                .count();
            assert_eq!(count, 1, "content/{lang}/ marks `{}` {count} times, not once", experiment.name());
        }
    }
}

/// The `order:` of a chapter's front matter.
fn order(markdown: &str) -> Option<i64> {
    markdown.lines().take_while(|l| !l.is_empty()).find_map(|l| l.strip_prefix("order:")?.trim().parse().ok())
}

#[test]
fn the_catalog_lists_experiments_in_reading_order() {
    // Every experiment marked in content/en/, by chapter order, then by place in its chapter.
    let mut marked = Vec::new();
    for file in std::fs::read_dir(content().join("en")).unwrap() {
        let file = file.unwrap().path();
        if file.extension().is_none_or(|e| e != "md") || file.ends_with("STYLE.md") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let order = order(&text).unwrap_or_else(|| panic!("{} has no `order:`", file.display()));
        for (place, name) in markers(&text).into_iter().enumerate() {
            marked.push((order, place, name));
        }
    }
    marked.sort();
    let reading: Vec<&str> = marked.iter().map(|(_, _, name)| name.as_str()).collect();
    let catalog: Vec<&str> = CATALOG.iter().map(|e| e.name()).collect();
    assert_eq!(catalog, reading, "CATALOG must follow the chapters' `order:` and their markers");
}

#[test]
fn the_marker_reader_reads_markers_only() {
    let text =
        "Intro\n<!-- experiment: sum -->\n  <!--experiment:qps-->\n<!-- a comment -->\n`<!-- experiment: x` text\n";
    assert_eq!(markers(text), ["sum", "qps"]);
}
