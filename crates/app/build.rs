//! Renders the chapter prose in `content/<lang>/*.md` to HTML at build time, so the app ships no
//! Markdown parser. Each file has a small front matter (title, summary, order) and may contain
//! `<!-- experiment: NAME -->` markers where a live experiment panel is inserted, `<!-- fold: SUMMARY -->`
//! … `<!-- /fold -->` around detail shown on demand, and formulas in LaTeX (`$…$`, `$$…$$`) that become
//! MathML here. The build fails,
//! naming the file and line, on what the prose may not contain (raw HTML, `javascript:` links…):
//! see `content_check.rs`.

#[path = "content_check.rs"]
mod content_check;

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
}
