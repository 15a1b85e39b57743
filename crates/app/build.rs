//! Compiles into the app what every English page needs at once about the site's texts (`content/en/*.md`):
//! each text's title, summary, order, the experiments it places, and the site path of its prose file,
//! which the app fetches when a page shows the text (`cargo xtask build-prose` writes those files;
//! both use the `prose` crate, so the names agree). The prose itself is data, not code. The build
//! fails, naming the file and line, on what the prose may not contain (raw HTML, `javascript:`
//! links…): see `prose::check`.
//!
//! It also extracts the code shown beside each experiment's result (`code_beside_results`), and
//! names the files the app fetches for the other languages (`ui_tables`: their interface tables and
//! their texts' titles and summaries).

// The table of which code each experiment shows; the app reads only part of it.
#[allow(dead_code)]
#[path = "src/code_listings.rs"]
mod code_listings;

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

fn main() {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content");
    let texts = match prose::read(&content) {
        Ok((texts, read)) => {
            for path in read {
                println!("cargo:rerun-if-changed={}", path.display());
            }
            texts
        }
        Err(refused) => {
            println!("cargo:rerun-if-changed={}", content.display());
            eprintln!("The chapter prose may not contain raw HTML or links that are not web addresses:");
            for problem in &refused {
                eprintln!("  {problem}");
            }
            std::process::exit(1);
        }
    };
    // English only: another language's titles and summaries come with its fetched table.
    let mut out = String::from("pub static TEXTS: &[ChapterText] = &[\n");
    for t in texts.iter().filter(|t| t.lang == "en") {
        let experiments: Vec<String> = t
            .experiments()
            .map(|name| match experiments::catalog::ExperimentId::from_slug(name) {
                Some(id) => format!("ExperimentId::{id:?}"),
                None => {
                    eprintln!("content/{}/{}.md places `{name}`, which the catalog does not have", t.lang, t.slug);
                    std::process::exit(1);
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "    ChapterText {{ slug: {:?}, title: {:?}, summary: {:?}, experiments: &[{}], prose: {:?} }},",
            t.slug,
            t.title,
            t.summary,
            experiments.join(", "),
            t.site_path()
        );
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("texts.rs");
    fs::write(dest, out).unwrap();
    ui_tables(&texts);
    code_beside_results();
}

/// The site path of every non-English language file (`ui/<tag>-<hash>.json`: the interface table
/// and the texts' titles), which the app fetches for a page in that language and `cargo xtask
/// build-prose` writes: both name it with `prose::language_file`, so the names agree.
fn ui_tables(texts: &[prose::Text]) {
    let mut out = String::from("pub static UI_TABLES: &[(&str, &str)] = &[\n");
    for (tag, _) in ui_text::tables() {
        if let Some((path, _)) = prose::language_file(texts, tag) {
            let _ = writeln!(out, "    ({tag:?}, {path:?}),");
        }
    }
    out.push_str("];\n");
    fs::write(Path::new(&std::env::var("OUT_DIR").unwrap()).join("ui_tables.rs"), out).unwrap();
}

/// A region of source between `// lesson-code: NAME` and `// lesson-code-end`.
struct Region {
    /// The file, relative to the repository.
    file: String,
    text: String,
}

/// The marked regions of every file under `dir` whose name ends with `extension`, by name. Markers
/// that are unclosed, nested, closed twice or named twice are reported in `problems`.
fn marked_regions(
    root: &Path,
    dir: &str,
    extension: &str,
    regions: &mut std::collections::BTreeMap<String, Region>,
    problems: &mut Vec<String>,
) {
    println!("cargo:rerun-if-changed={}", root.join(dir).display());
    let mut pending = vec![root.join(dir)];
    let mut files = Vec::new();
    while let Some(path) = pending.pop() {
        if path.is_dir() {
            pending.extend(
                fs::read_dir(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).flatten().map(|e| e.path()),
            );
        } else if path.extension().is_some_and(|e| e == extension) {
            files.push(path);
        }
    }
    files.sort();
    for path in files {
        let file = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let text = fs::read_to_string(&path).unwrap().replace("\r\n", "\n");
        let mut open: Option<(String, usize, Vec<&str>)> = None;
        for (index, line) in text.lines().enumerate() {
            let number = index + 1;
            let trimmed = line.trim();
            if let Some(name) = trimmed.strip_prefix("// lesson-code:") {
                if let Some((previous, at, _)) = &open {
                    problems.push(format!(
                        "{file}:{number}: `{}` opens inside `{previous}` (line {at}); regions do not nest",
                        name.trim()
                    ));
                }
                open = Some((name.trim().to_string(), number, Vec::new()));
            } else if trimmed == "// lesson-code-end" {
                match open.take() {
                    Some((name, at, lines)) => {
                        if let Some(other) = regions.get(&name) {
                            problems.push(format!("{file}:{at}: `{name}` is marked twice (also in {})", other.file));
                        }
                        regions.insert(name, Region { file: file.clone(), text: dedent(&lines) });
                    }
                    None => problems.push(format!("{file}:{number}: `// lesson-code-end` closes no region")),
                }
            } else if let Some((_, _, lines)) = &mut open {
                lines.push(line);
            }
        }
        if let Some((name, at, _)) = open {
            problems.push(format!("{file}:{at}: `{name}` is not closed by `// lesson-code-end`"));
        }
    }
}

/// `lines` joined, without the indentation they all share.
fn dedent(lines: &[&str]) -> String {
    let indent =
        lines.iter().filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0);
    let kept: Vec<&str> = lines.iter().map(|l| l.get(indent..).unwrap_or("").trim_end()).collect();
    kept.join("\n")
}

/// The code beside each experiment's result: the regions `code_listings::LISTINGS` names, taken
/// from the crates' own source (Rust) and `content/code/go` (Go), as constants the app includes.
/// The build fails when a named region is missing, unclosed or marked twice.
fn code_beside_results() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    println!("cargo:rerun-if-changed=src/code_listings.rs");
    let mut problems = Vec::new();
    let (mut rust, mut go) = (Default::default(), Default::default());
    for dir in ["crates/workloads/src", "crates/engine/src"] {
        marked_regions(&root, dir, "rs", &mut rust, &mut problems);
    }
    marked_regions(&root, "content/code/go", "go", &mut go, &mut problems);
    let mut out = String::new();
    for (language, regions, parts) in [
        (
            "RUST_CODE",
            &rust,
            code_listings::LISTINGS.iter().flat_map(|l| l.rust.iter().map(move |p| (l, p))).collect::<Vec<_>>(),
        ),
        ("GO_CODE", &go, code_listings::LISTINGS.iter().flat_map(|l| l.go.iter().map(move |p| (l, p))).collect()),
    ] {
        let mut used = std::collections::BTreeSet::new();
        for (listing, part) in parts {
            if regions.contains_key(part.marker) {
                used.insert(part.marker);
            } else {
                let place = if language == "RUST_CODE" {
                    "crates/workloads/src or crates/engine/src"
                } else {
                    "content/code/go"
                };
                problems.push(format!(
                    "experiment `{}` shows `{}`, but no file in {place} marks it with `// lesson-code: {}` … `// lesson-code-end`",
                    listing.experiment, part.marker, part.marker
                ));
            }
        }
        let _ = writeln!(out, "pub static {language}: &[Region] = &[");
        for marker in used {
            let region = &regions[marker];
            let _ =
                writeln!(out, "    Region {{ marker: {marker:?}, file: {:?}, text: {:?} }},", region.file, region.text);
        }
        out.push_str("];\n");
    }
    if !problems.is_empty() {
        eprintln!("The code shown beside the experiments cannot be extracted:");
        for problem in &problems {
            eprintln!("  {problem}");
        }
        std::process::exit(1);
    }
    fs::write(Path::new(&std::env::var("OUT_DIR").unwrap()).join("code.rs"), out).unwrap();
}
