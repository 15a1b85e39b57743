//! Renders the chapter prose in `content/<lang>/*.md` to HTML at build time, so the app ships no
//! Markdown parser. Each file has a small front matter (title, summary, order) and may contain
//! `<!-- experiment: NAME -->` markers where a live experiment panel is inserted, `<!-- fold: SUMMARY -->`
//! … `<!-- /fold -->` around detail shown on demand, and formulas in LaTeX (`$…$`, `$$…$$`) that become
//! MathML here. The build fails,
//! naming the file and line, on what the prose may not contain (raw HTML, `javascript:` links…):
//! see `content_check.rs`.

#[path = "content_check.rs"]
mod content_check;

// The table of which code each experiment shows; the app reads only part of it.
#[allow(dead_code)]
#[path = "src/code_listings.rs"]
mod code_listings;

use content_check::Part;
use pulldown_cmark::{html, CowStr, Event, Parser, Tag, TagEnd};
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

struct Chapter {
    lang: String,
    slug: String,
    title: String,
    summary: String,
    order: i64,
    sections: Vec<Section>,
}

enum Section {
    Prose(String),
    Experiment(String),
}

fn front_matter(text: &str, file: &Path) -> (Vec<(String, String)>, String) {
    let rest = text
        .strip_prefix("---\n")
        .unwrap_or_else(|| panic!("{}: must start with a `---` front matter", file.display()));
    let (head, body) =
        rest.split_once("\n---\n").unwrap_or_else(|| panic!("{}: front matter is not closed by `---`", file.display()));
    let fields = head
        .lines()
        .filter_map(|line| line.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    (fields, body.to_string())
}

/// A link to a path on this site (`/glossary#park`) made relative (`glossary#park`), so it resolves
/// against the page's `<base href>` and works when the site is served under a path (`/repo/`), as
/// the app's own links do (`links.rs`). Other links are left as they are.
fn site_relative(event: Event<'_>) -> Event<'_> {
    match event {
        Event::Start(Tag::Link { link_type, dest_url, title, id })
            if dest_url.starts_with('/') && !dest_url.starts_with("//") =>
        {
            let relative = match &dest_url[1..] {
                "" => "./".to_string(),
                rest => rest.to_string(),
            };
            Event::Start(Tag::Link { link_type, dest_url: CowStr::from(relative), title, id })
        }
        other => other,
    }
}

fn render(markdown: &str) -> String {
    let mut out = String::new();
    // Formulas become MathML (the content check has refused any that cannot).
    let events = Parser::new_ext(markdown, content_check::options()).map(site_relative).map(|event| match event {
        Event::InlineMath(latex) => Event::InlineHtml(CowStr::from(content_check::mathml(&latex, false).unwrap())),
        Event::DisplayMath(latex) => Event::InlineHtml(CowStr::from(content_check::mathml(&latex, true).unwrap())),
        other => other,
    });
    html::push_html(&mut out, events);
    // Wide tables scroll inside their own box on narrow screens.
    out.replace("<table>", "<div class=\"table-scroll\"><table>").replace("</table>", "</table></div>")
}

/// A fold's summary as inline HTML: the same Markdown rendering as the prose (smart punctuation,
/// escaping), without the paragraph around it.
fn render_inline(text: &str) -> String {
    let mut out = String::new();
    let events = Parser::new_ext(text, content_check::options())
        .map(site_relative)
        .filter(|event| !matches!(event, Event::Start(Tag::Paragraph) | Event::End(TagEnd::Paragraph)));
    html::push_html(&mut out, events);
    out
}

/// The parts of a chapter as sections: runs of prose become one section of HTML, a fold in it a
/// `<details>` the reader opens.
fn sections(parts: Vec<Part>) -> Vec<Section> {
    let mut sections = Vec::new();
    for part in parts {
        match part {
            Part::Prose { markdown, fold, .. } => {
                let html = match fold {
                    Some(summary) => format!(
                        "<details class=\"fold\"><summary>{}</summary>{}</details>",
                        render_inline(&summary),
                        render(&markdown)
                    ),
                    None => render(&markdown),
                };
                match sections.last_mut() {
                    Some(Section::Prose(previous)) => previous.push_str(&html),
                    _ => sections.push(Section::Prose(html)),
                }
            }
            Part::Experiment(name) => sections.push(Section::Experiment(name)),
        }
    }
    sections
}

fn main() {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content");
    println!("cargo:rerun-if-changed={}", content.display());
    println!("cargo:rerun-if-changed=content_check.rs");
    let mut refused = Vec::new();
    let mut chapters = Vec::new();
    let mut langs: Vec<_> = fs::read_dir(&content).expect("content/ exists").flatten().collect();
    langs.sort_by_key(|e| e.file_name());
    for lang in langs.into_iter().filter(|e| e.path().is_dir()) {
        println!("cargo:rerun-if-changed={}", lang.path().display());
        let mut files: Vec<_> = fs::read_dir(lang.path()).unwrap().flatten().collect();
        files.sort_by_key(|e| e.file_name());
        for file in files {
            let path = file.path();
            if path.extension().and_then(|e| e.to_str()) != Some("md") {
                continue;
            }
            println!("cargo:rerun-if-changed={}", path.display());
            let text = fs::read_to_string(&path).unwrap().replace("\r\n", "\n");
            let (fields, body) = front_matter(&text, &path);
            // `body` ends `text`: its first line is the one after the front matter.
            let first_line = text[..text.len() - body.len()].matches('\n').count() + 1;
            let sections = match content_check::chapter(&body, first_line) {
                Ok(parts) => sections(parts),
                Err(problems) => {
                    let file = path.strip_prefix(content.parent().unwrap_or(&content)).unwrap_or(&path);
                    refused.extend(problems.into_iter().map(|p| format!("{}:{}: {}", file.display(), p.line, p.what)));
                    Vec::new()
                }
            };
            let field = |name: &str| {
                fields
                    .iter()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_else(|| panic!("{}: front matter needs `{name}`", path.display()))
            };
            chapters.push(Chapter {
                lang: lang.file_name().to_string_lossy().into_owned(),
                slug: path.file_stem().unwrap().to_string_lossy().into_owned(),
                title: field("title"),
                summary: field("summary"),
                order: field("order")
                    .parse()
                    .unwrap_or_else(|_| panic!("{}: order must be an integer", path.display())),
                sections,
            });
        }
    }
    if !refused.is_empty() {
        eprintln!("The chapter prose may not contain raw HTML or links that are not web addresses:");
        for problem in &refused {
            eprintln!("  {problem}");
        }
        std::process::exit(1);
    }
    chapters.sort_by(|a, b| (&a.lang, a.order).cmp(&(&b.lang, b.order)));

    let mut out = String::from("pub static TEXTS: &[ChapterText] = &[\n");
    for c in &chapters {
        let _ = writeln!(
            out,
            "    ChapterText {{ lang: {:?}, slug: {:?}, title: {:?}, summary: {:?}, sections: &[",
            c.lang, c.slug, c.title, c.summary
        );
        for s in &c.sections {
            match s {
                Section::Prose(html) => writeln!(out, "        Section::Prose({html:?}),"),
                Section::Experiment(name) => {
                    writeln!(out, "        Section::Experiment({name:?}),")
                }
            }
            .unwrap();
        }
        out.push_str("    ] },\n");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("texts.rs");
    fs::write(dest, out).unwrap();
    code_beside_results();
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
