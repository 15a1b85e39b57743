//! The site's texts (`content/<lang>/*.md`) read, checked and rendered to HTML, with no DOM and no
//! wasm: the app's build script compiles each text's title, summary, order and experiment markers
//! into the app (and refuses bad Markdown at compile time), and `cargo xtask build-prose` writes each
//! text's prose into the site as one small file per language and slug ([`Text::site_path`]), which
//! the app fetches when a page needs it.
//!
//! A file has a front matter (`title`, `summary`, `order`) and may contain `<!-- experiment: NAME -->`
//! markers where a live experiment panel goes, `<!-- picture: NAME -->` markers where the app draws
//! one of its small pictures ([`PICTURES`]), `<!-- fold: SUMMARY -->` … `<!-- /fold -->` around
//! detail shown on demand (a `<details>`), and formulas in LaTeX (`$…$`, `$$…$$`) that become MathML
//! here. What the prose may not contain is in [`check`].

pub mod check;
#[cfg(test)]
mod facts;
pub mod quiz;
#[cfg(test)]
mod style;

use check::Part;
use pulldown_cmark::{html, CowStr, Event, Parser, Tag, TagEnd};
use std::path::{Path, PathBuf};

/// One text of the site in one language: a chapter, the landing text (`index`) or a page of its own
/// ([`PAGES`]: the glossary, "How the lab works").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    pub lang: String,
    pub slug: String,
    pub title: String,
    pub summary: String,
    pub order: i64,
    pub sections: Vec<Section>,
    /// The pictures it places (`<!-- picture: NAME -->`), in its order. Each stands in its prose
    /// as a [`picture_slot`], which the app replaces by the picture.
    pub pictures: Vec<String>,
}

/// The pictures a text may place with `<!-- picture: NAME -->`, each with the one chapter it belongs
/// in: `(name, chapter slug)`. The app draws them (`app::pictures`, whose test holds it to this list);
/// a marker naming another, or placed in another chapter, is refused.
pub const PICTURES: [(&str, &str); 18] = [
    ("bubble-pass", "bubble-sort"),
    ("gmp", "go-scheduler"),
    ("littles-law", "high-concurrency"),
    ("interleave", "concurrency-vs-parallelism"),
    ("time-slices", "os-scheduler"),
    ("sum-split", "sum"),
    ("amdahl", "bubble-sort"),
    ("hash-rounds", "hashing"),
    ("compute-wait", "cpu-vs-io"),
    ("reads", "document-search"),
    ("task-overhead", "task-costs"),
    ("pool-or-park", "high-concurrency"),
    ("work-stealing", "go-scheduler"),
    ("thread-states", "os-scheduler"),
    ("hash-chain", "hashing"),
    ("cache-line", "sum"),
    ("more-workers", "concurrency-vs-parallelism"),
    ("cpu-or-io", "cpu-vs-io"),
];

/// What a `<!-- picture: NAME -->` marker becomes in the rendered prose: an empty block the app
/// replaces by the picture. Written here only, after the check, so no Markdown can forge one.
pub fn picture_slot(name: &str) -> String {
    format!("{PICTURE_SLOT_START}{name}{PICTURE_SLOT_END}")
}

/// How a [`picture_slot`] starts and ends around the picture's name.
pub const PICTURE_SLOT_START: &str = "<div class=\"picture-slot\" data-picture=\"";
pub const PICTURE_SLOT_END: &str = "\"></div>\n";

/// A piece of a text: prose (HTML made from our own checked Markdown) or a live experiment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Section {
    Prose(String),
    Experiment(String),
}

impl Text {
    /// The experiments the text places, in its order.
    pub fn experiments(&self) -> impl Iterator<Item = &str> {
        self.sections.iter().filter_map(|s| match s {
            Section::Experiment(name) => Some(name.as_str()),
            Section::Prose(_) => None,
        })
    }

    /// The prose between the experiments: one more piece of HTML than there are experiments (the
    /// prose before the first, between each two, after the last), each possibly empty.
    pub fn prose_between(&self) -> Vec<&str> {
        let mut pieces = vec![""];
        for section in &self.sections {
            match section {
                Section::Prose(html) => *pieces.last_mut().expect("never empty") = html,
                Section::Experiment(_) => pieces.push(""),
            }
        }
        pieces
    }

    /// The file the app fetches: `{"experiments":[…],"prose":[…]}`, with `prose` as
    /// [`Text::prose_between`] (the language and slug are in its path). The same text always gives
    /// the same bytes.
    pub fn json(&self) -> String {
        let strings = |items: Vec<&str>| items.iter().map(|s| json_string(s)).collect::<Vec<_>>().join(",");
        format!(
            "{{\"experiments\":[{}],\"prose\":[{}]}}\n",
            strings(self.experiments().collect()),
            strings(self.prose_between())
        )
    }

    /// Where the file lies in the built site, relative to its root (the page's base URL):
    /// `content/<lang>/<slug>-<hash>.json`. The hash of its bytes is in the name, so a file never
    /// changes under one name: caches may keep it for good, and a page always reads the prose of
    /// the build it belongs to.
    pub fn site_path(&self) -> String {
        format!("content/{}/{}-{:016x}.json", self.lang, self.slug, fnv1a(self.json().as_bytes()))
    }
}

/// Every text under `content` (a folder holding `<lang>/*.md`), sorted by language and order, and the
/// files read (for a build script's `rerun-if-changed`). `Err`: every problem found, each naming
/// its file (relative to `content`'s parent) and line.
pub fn read(content: &Path) -> Result<(Vec<Text>, Vec<PathBuf>), Vec<String>> {
    let mut refused = Vec::new();
    let mut texts = Vec::new();
    let mut read = vec![content.to_path_buf()];
    let entries = |dir: &Path| -> Result<Vec<PathBuf>, Vec<String>> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| vec![format!("{}: {e}", dir.display())])?
            .flatten()
            .map(|e| e.path())
            .collect();
        paths.sort();
        Ok(paths)
    };
    for lang_dir in entries(content)?.into_iter().filter(|p| p.is_dir()) {
        let lang = lang_dir.file_name().unwrap_or_default().to_string_lossy().into_owned();
        // `content/code` holds the Go listings shown beside results, not texts.
        if lang == "code" {
            continue;
        }
        read.push(lang_dir.clone());
        for path in entries(&lang_dir)? {
            if !is_text(&path) {
                continue;
            }
            read.push(path.clone());
            let name = path.strip_prefix(content.parent().unwrap_or(content)).unwrap_or(&path).display().to_string();
            let text = match std::fs::read_to_string(&path) {
                Ok(text) => text.replace("\r\n", "\n"),
                Err(e) => {
                    refused.push(format!("{name}: {e}"));
                    continue;
                }
            };
            let slug = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
            match parse(&lang, &slug, &text) {
                Ok(parsed) => texts.push(parsed),
                Err(problems) => refused.extend(problems.into_iter().map(|p| format!("{name}:{}: {}", p.line, p.what))),
            }
        }
    }
    if !refused.is_empty() {
        return Err(refused);
    }
    texts.sort_by(|a, b| (&a.lang, a.order, &a.slug).cmp(&(&b.lang, b.order, &b.slug)));
    Ok((texts, read))
}

/// One file's text (`lang`, `slug`, the file's contents with `\n` line ends), or its problems.
pub fn parse(lang: &str, slug: &str, text: &str) -> Result<Text, Vec<check::Problem>> {
    let problem = |line: usize, what: &str| vec![check::Problem { line, what: what.to_string() }];
    let rest = text.strip_prefix("---\n").ok_or_else(|| problem(1, "must start with a `---` front matter"))?;
    let (head, body) = rest.split_once("\n---\n").ok_or_else(|| problem(1, "front matter is not closed by `---`"))?;
    let field = |name: &str| {
        head.lines()
            .filter_map(|line| line.split_once(':'))
            .find(|(k, _)| k.trim() == name)
            .map(|(_, v)| v.trim().to_string())
            .ok_or_else(|| problem(1, &format!("front matter needs `{name}`")))
    };
    let (title, summary) = (field("title")?, field("summary")?);
    let order = field("order")?.parse().map_err(|_| problem(1, "order must be an integer"))?;
    // `body` ends `text`: its first line is the one after the front matter.
    let first_line = text[..text.len() - body.len()].matches('\n').count() + 1;
    let parts = check::chapter(body, first_line)?;
    let mut pictures = Vec::new();
    let mut misplaced = Vec::new();
    for part in &parts {
        if let Part::Picture { name, line } = part {
            match PICTURES.iter().find(|(known, _)| known == name) {
                Some((_, chapter)) if *chapter != slug => misplaced.push(check::Problem {
                    line: *line,
                    what: format!("the picture `{name}` belongs in the chapter `{chapter}`, not here"),
                }),
                _ if pictures.contains(name) => misplaced
                    .push(check::Problem { line: *line, what: format!("the picture `{name}` is placed twice") }),
                _ => pictures.push(name.clone()),
            }
        }
    }
    if !misplaced.is_empty() {
        return Err(misplaced);
    }
    let sections = sections(lang, parts);
    Ok(Text { lang: lang.into(), slug: slug.into(), title, summary, order, sections, pictures })
}

/// Write every text's file into `site` (at [`Text::site_path`]); the names of the files written.
pub fn write_site(texts: &[Text], site: &Path) -> Result<Vec<String>, String> {
    let mut written = Vec::new();
    for text in texts {
        let path = text.site_path();
        let file = site.join(&path);
        let folder = file.parent().expect("content/<lang>/…");
        std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        std::fs::write(&file, text.json()).map_err(|e| format!("{}: {e}", file.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// What a page in a language other than English fetches before it starts, as `(site path, JSON)`:
/// the language's interface table and, under [`ui_text::text_key`], each of its texts' title,
/// summary and prose file. `None` for English (compiled into the app) or a language the interface
/// does not speak. The app's build script names the file with this, and `cargo xtask build-prose`
/// writes it, so the two agree.
pub fn language_file(texts: &[Text], tag: &str) -> Option<(String, String)> {
    let table = ui_text::table(tag).filter(|_| tag != "en")?;
    let entries = texts
        .iter()
        .filter(|t| t.lang == tag)
        .map(|t| (ui_text::text_key(&t.slug), vec![t.title.clone(), t.summary.clone(), t.site_path()]))
        .collect();
    let json = ui_text::to_json_with(table, entries);
    Some((ui_text::site_path(tag, &json), json))
}

/// Write every non-English [`language_file`] into `site`; the names of the files written.
pub fn write_language_files(texts: &[Text], site: &Path) -> Result<Vec<String>, String> {
    let mut written = Vec::new();
    for (tag, _) in ui_text::tables() {
        let Some((path, json)) = language_file(texts, tag) else { continue };
        let file = site.join(&path);
        let folder = file.parent().expect("ui/…");
        std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        std::fs::write(&file, json).map_err(|e| format!("{}: {e}", file.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// A link to a path on this site (`/glossary#park`) made relative (`glossary#park`), so it resolves
/// against the page's `<base href>` and works when the site is served under a path (`/repo/`), as
/// the app's own links do (`links.rs`). Other links are left as they are.
/// The text is in `lang`: its site links stay in its language (`ru/chapters/sum`).
fn site_relative_in<'a>(lang: &str, event: Event<'a>) -> Event<'a> {
    match event {
        Event::Start(Tag::Link { link_type, dest_url, title, id })
            if dest_url.starts_with('/') && !dest_url.starts_with("//") =>
        {
            let prefix = if lang == "en" { String::new() } else { format!("{lang}/") };
            let relative = match &dest_url[1..] {
                "" if prefix.is_empty() => "./".to_string(),
                rest => format!("{prefix}{rest}"),
            };
            Event::Start(Tag::Link { link_type, dest_url: CowStr::from(relative), title, id })
        }
        other => other,
    }
}

/// Checked Markdown as HTML.
pub fn render(markdown: &str) -> String {
    render_in("en", markdown)
}

/// Checked Markdown of a text in `lang` as HTML (site links stay in `lang`).
pub fn render_in(lang: &str, markdown: &str) -> String {
    let mut out = String::new();
    // Formulas become MathML (the check has refused any that cannot).
    let links = |event| site_relative_in(lang, event);
    let mut units = UnitsStayWithNumbers::default();
    let events = Parser::new_ext(markdown, check::options()).map(links).map(|event| match event {
        Event::InlineMath(latex) => Event::InlineHtml(CowStr::from(math(&latex, false))),
        Event::DisplayMath(latex) => Event::InlineHtml(CowStr::from(math(&latex, true))),
        other => units.event(other),
    });
    html::push_html(&mut out, choice_lists(events.collect()).into_iter());
    // Wide tables scroll inside their own box on narrow screens.
    out.replace("<table>", "<div class=\"table-scroll\"><table>").replace("</table>", "</table></div>")
}

/// The space between a figure (`3.91`, `{{num 3.91}}`) and the unit after it becomes a no-break
/// space, in the prose's text but not in its code blocks: a narrow screen then never breaks a line
/// between the two, leaving "ms" alone at the start of the next.
#[derive(Default)]
struct UnitsStayWithNumbers {
    in_code_block: bool,
}

impl UnitsStayWithNumbers {
    fn event<'a>(&mut self, event: Event<'a>) -> Event<'a> {
        match event {
            Event::Start(Tag::CodeBlock(_)) => self.in_code_block = true,
            Event::End(TagEnd::CodeBlock) => self.in_code_block = false,
            Event::Text(text) if !self.in_code_block => {
                let joined = unit_after_number().replace_all(&text, "$1\u{a0}$2");
                if let std::borrow::Cow::Owned(joined) = joined {
                    return Event::Text(CowStr::from(joined));
                }
                return Event::Text(text);
            }
            _ => {}
        }
        event
    }
}

/// A figure, a plain space and a unit of time, size or rate, in any of the site's languages.
fn unit_after_number() -> &'static regex::Regex {
    static UNIT: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    UNIT.get_or_init(|| {
        regex::Regex::new(
            r"(\d|\}\}) ((?:ms|µs|ns|s|KB|MB|GB|KiB|MiB|GiB|GHz|MHz|мс|мкс|нс|с|КБ|МБ|ГБ|КиБ|МиБ|ГиБ|ГГц|МГц|毫秒|微秒|纳秒|秒|ミリ秒|マイクロ秒|ナノ秒|मिलीसेकंड|माइक्रोसेकंड|सेकंड)(?:/s|/с|/op|/оп)?)\b",
        )
        .expect("a valid pattern")
    })
}

/// A question's choices (a list whose items start `[x]` or `[ ]`, see [`quiz`]) as a plain list of
/// class `choices`: the page must not tell which are right before the reader opens the answer, so
/// the marks (which pulldown-cmark would write as ticked boxes) are dropped.
fn choice_lists(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut out = Vec::with_capacity(events.len());
    // For each open list: whether it is a list of choices.
    let mut lists: Vec<bool> = Vec::new();
    for (at, event) in events.iter().enumerate() {
        match event {
            Event::Start(Tag::List(None)) => {
                let choices = matches!(
                    (events.get(at + 1), events.get(at + 2)),
                    (Some(Event::Start(Tag::Item)), Some(Event::TaskListMarker(_)))
                );
                lists.push(choices);
                out.push(if choices { Event::Html(CowStr::from("<ul class=\"choices\">\n")) } else { event.clone() });
            }
            Event::Start(Tag::List(Some(_))) => {
                lists.push(false);
                out.push(event.clone());
            }
            Event::End(TagEnd::List(ordered)) => {
                let choices = lists.pop().unwrap_or(false);
                out.push(if choices && !ordered { Event::Html(CowStr::from("</ul>\n")) } else { event.clone() });
            }
            Event::TaskListMarker(_) => {}
            other => out.push(other.clone()),
        }
    }
    out
}

/// The right choices of a question, shown at the top of its folded answer.
fn choice_key(lang: &str, choices: &[quiz::Choice]) -> String {
    choices
        .iter()
        .filter(|c| c.right)
        .map(|c| {
            format!("<p class=\"choice-key\"><span aria-hidden=\"true\">✓ </span>{}</p>", render_inline(lang, &c.text))
        })
        .collect()
}

/// A checked formula as MathML; one the check would refuse shows as its source in `<code>`.
fn math(latex: &str, display: bool) -> String {
    check::mathml(latex, display).unwrap_or_else(|_| {
        format!("<code>{}</code>", latex.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;"))
    })
}

/// A fold's summary as inline HTML: the same Markdown rendering as the prose (smart punctuation,
/// escaping), without the paragraph around it.
pub fn render_inline(lang: &str, text: &str) -> String {
    let mut out = String::new();
    let mut units = UnitsStayWithNumbers::default();
    let events = Parser::new_ext(text, check::options())
        .map(|event| site_relative_in(lang, event))
        .map(|event| units.event(event))
        .filter(|event| !matches!(event, Event::Start(Tag::Paragraph) | Event::End(TagEnd::Paragraph)));
    html::push_html(&mut out, events);
    out
}

/// The parts of a text as sections: runs of prose become one section of HTML, a fold in it a
/// `<details>` the reader opens.
fn sections(lang: &str, parts: Vec<Part>) -> Vec<Section> {
    let mut sections = Vec::new();
    // The choices the prose before a fold ended with: the fold is their answer.
    let mut choices: Vec<quiz::Choice> = Vec::new();
    for part in parts {
        match part {
            Part::Prose { markdown, fold, .. } => {
                let html = match fold {
                    Some(summary) => format!(
                        "<details class=\"fold\"><summary>{}</summary>{}{}</details>",
                        render_inline(lang, &summary),
                        choice_key(lang, &std::mem::take(&mut choices)),
                        render_in(lang, &markdown)
                    ),
                    None => {
                        choices = quiz::trailing_choices(&markdown);
                        render_in(lang, &markdown)
                    }
                };
                match sections.last_mut() {
                    Some(Section::Prose(previous)) => previous.push_str(&html),
                    _ => sections.push(Section::Prose(html)),
                }
            }
            Part::Experiment(name) => {
                choices.clear();
                sections.push(Section::Experiment(name))
            }
            // The slot joins the prose around it: the app splits a piece of prose at its slots.
            Part::Picture { name, .. } => {
                choices.clear();
                match sections.last_mut() {
                    Some(Section::Prose(previous)) => previous.push_str(&picture_slot(&name)),
                    _ => sections.push(Section::Prose(picture_slot(&name))),
                }
            }
        }
    }
    sections
}

/// `text` as a JSON string.
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// 64-bit FNV-1a: a stable, dependency-free hash for file names (not for security).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// The language's style sheet in `content/<lang>/`: for authors and translators, not a text of the site.
pub const STYLE_SHEET: &str = "STYLE.md";

/// Whether `path` is a text of the site: a Markdown file of `content/<lang>/` other than its style
/// sheet ([`STYLE_SHEET`]).
pub fn is_text(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "md") && path.file_name().is_none_or(|n| n != STYLE_SHEET)
}

/// The texts that are pages of their own at the site's top level (`/glossary`,
/// `/how-the-lab-works`): neither chapters nor the landing text (`index`). Chapters link to them.
pub const PAGES: [&str; 2] = ["glossary", "how-the-lab-works"];

#[cfg(test)]
mod tests;
