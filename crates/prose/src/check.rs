//! What the chapter Markdown in `content/` may contain, checked before a text is rendered (by the
//! app's build script, which refuses to compile bad prose, and by `cargo xtask build-prose`): no raw
//! HTML (the only HTML is a `<!-- experiment: NAME -->` or `<!-- picture: NAME -->` marker, or a
//! `<!-- fold: SUMMARY -->` … `<!-- /fold -->` pair around detail the reader opens on demand, each on a
//! line of its own), no link
//! or image to a URL that runs code or is not a web address (`javascript:`, `vbscript:`, `data:`…), no
//! heading attributes beyond an id (no classes), and no formula (`$…$`, `$$…$$`, LaTeX) that does not
//! turn into MathML.
//!
//! The rendered prose goes into the page as HTML, so anything that passes here reaches the reader;
//! translations are written by people other than the authors of the code. A formula's source is not
//! HTML to this check (`$a<b>$` is LaTeX), so [`mathml`] escapes whatever of it the renderer would
//! write as it is.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// The Markdown extensions the chapters use; the check and the renderer must parse alike.
pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_SMART_PUNCTUATION
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_MATH
        | Options::ENABLE_TASKLISTS
}

/// A formula in LaTeX as MathML (`display`: a block of its own, else inline with the text), or why it
/// cannot be rendered. The browser draws MathML itself, so the app ships no maths code.
///
/// The output goes into the page as HTML, and the check on raw HTML does not look inside formulas, so
/// nothing of the source may reach it unescaped. pulldown-latex (0.8) escapes `\text{…}` but writes
/// three things as they are, and has no option to escape them: the source in `<annotation>`, a
/// function's name (`\operatorname{…}`, `\mathop{…}`), and a symbol that is `<`, `>` or `&`. So the
/// annotation is given escaped, function names are escaped before rendering, and a lone symbol is
/// escaped after (`escape_lone_symbols`).
pub fn mathml(latex: &str, display: bool) -> Result<String, String> {
    use pulldown_latex::config::{DisplayMode, RenderConfig};
    use pulldown_latex::event::{Content, Event};
    let storage = pulldown_latex::Storage::new();
    let events: Vec<_> = pulldown_latex::Parser::new(latex, &storage).collect();
    if let Some(Err(error)) = events.iter().find(|e| e.is_err()) {
        return Err(format!("the formula `{}` is not LaTeX this renderer reads: {error}", snippet(latex)));
    }
    let names: Vec<String> = events
        .iter()
        .filter_map(|event| match event {
            Ok(Event::Content(Content::Function(name))) => Some(escape_text(name)),
            _ => None,
        })
        .collect();
    let mut escaped_names = names.iter();
    let events = events.into_iter().map(|event| match event {
        Ok(Event::Content(Content::Function(_))) => {
            Ok(Event::Content(Content::Function(escaped_names.next().expect("one name per function"))))
        }
        other => other,
    });
    // The source is kept for screen readers and copying.
    let annotation = escape_text(latex);
    let config = RenderConfig {
        display_mode: if display { DisplayMode::Block } else { DisplayMode::Inline },
        annotation: Some(&annotation),
        ..RenderConfig::default()
    };
    let mut out = String::new();
    pulldown_latex::push_mathml(&mut out, events, config).map_err(|e| format!("{e}"))?;
    Ok(escape_lone_symbols(&out))
}

/// `text` as HTML text: `&`, `<` and `>` escaped.
fn escape_text(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// pulldown-latex's MathML with the symbols it writes as they are escaped: a `<`, `>` or `&` that
/// is the text of an element (`<mo><</mo>`, `<mi>&</mi>`, possibly followed by a combining mark).
/// Everything else it writes is a tag, escaped text or an entity (`&nbsp;`), and left alone: a `<`
/// followed by a letter or `/` opens a tag, a `&` followed by letters or `#` and `;` is an entity.
fn escape_lone_symbols(mathml: &str) -> String {
    let mut out = String::with_capacity(mathml.len());
    let mut rest = mathml;
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        match c {
            '<' if after.starts_with(|n: char| n.is_ascii_alphabetic() || n == '/') => {
                // A tag: copied up to its end (pulldown-latex's attribute values hold no `>`).
                let end = rest.find('>').map_or(rest.len(), |at| at + 1);
                out.push_str(&rest[..end]);
                rest = &rest[end..];
                continue;
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' if is_entity(after) => out.push('&'),
            '&' => out.push_str("&amp;"),
            c => out.push(c),
        }
        rest = after;
    }
    out
}

/// Whether `text` (what follows a `&`) completes an entity: `name;` or `#digits;`.
fn is_entity(text: &str) -> bool {
    let body = text.strip_prefix('#').unwrap_or(text);
    let length = body.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(body.len());
    length > 0 && body[length..].starts_with(';')
}

/// Something refused, on `line` of the file (counting from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub what: String,
}

/// A piece of a chapter body: Markdown starting at `line` of the file (inside a fold with that
/// summary, or not), an experiment marker, or a picture marker on `line` (one of [`crate::PICTURES`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Prose { markdown: String, line: usize, fold: Option<String> },
    Experiment(String),
    Picture { name: String, line: usize },
}

/// What a line of a chapter body is to the splitter.
#[derive(Debug, PartialEq, Eq)]
enum Marker<'a> {
    Experiment(&'a str),
    Picture(&'a str),
    FoldStart(&'a str),
    FoldEnd,
}

fn marker(line: &str) -> Option<Result<Marker<'_>, String>> {
    if let Some(result) = experiment_marker(line) {
        return Some(result.map(Marker::Experiment));
    }
    if let Some(result) = picture_marker(line) {
        return Some(result.map(Marker::Picture));
    }
    let inner = line.trim().strip_prefix("<!--")?.strip_suffix("-->")?.trim();
    if inner == "/fold" {
        return Some(Ok(Marker::FoldEnd));
    }
    let summary = inner.strip_prefix("fold:")?.trim();
    Some(if summary.is_empty() || summary.contains(['<', '>', '&']) {
        Err(format!("the fold marker's summary `{}` must be plain text, and not empty", snippet(summary)))
    } else {
        Ok(Marker::FoldStart(summary))
    })
}

/// The only schemes a link or image may name. Everything else (`javascript:`, `vbscript:`, `data:`,
/// `file:`…) is refused; addresses without a scheme (`/chapters/sum`, `#top`, `other.html`) are fine.
pub const ALLOWED_SCHEMES: [&str; 3] = ["http", "https", "mailto"];

/// Split a chapter body (whose first line is `first_line` of the file) at its experiment markers and
/// check every piece of prose. Either the parts to render, or every problem found.
pub fn chapter(body: &str, first_line: usize) -> Result<Vec<Part>, Vec<Problem>> {
    let mut parts = Vec::new();
    let mut problems = Vec::new();
    let mut prose = String::new();
    let mut prose_line = first_line;
    // The open fold: its summary and the line it opened on.
    let mut fold: Option<(String, usize)> = None;
    let flush = |prose: &mut String,
                 prose_line: usize,
                 fold: &Option<(String, usize)>,
                 parts: &mut Vec<Part>,
                 problems: &mut Vec<Problem>| {
        if !prose.trim().is_empty() {
            problems.extend(check_markdown(prose, prose_line));
            let fold = fold.as_ref().map(|(summary, _)| summary.clone());
            parts.push(Part::Prose { markdown: std::mem::take(prose), line: prose_line, fold });
        }
        prose.clear();
    };
    for (index, line) in body.lines().enumerate() {
        let number = first_line + index;
        let Some(found) = marker(line) else {
            prose.push_str(line);
            prose.push('\n');
            continue;
        };
        flush(&mut prose, prose_line, &fold, &mut parts, &mut problems);
        prose_line = number + 1;
        match found {
            Ok(Marker::Experiment(name)) => {
                if let Some((_, opened)) = &fold {
                    problems.push(Problem {
                        line: number,
                        what: format!(
                            "the experiment `{name}` is inside the fold opened on line {opened}: close it first"
                        ),
                    });
                }
                parts.push(Part::Experiment(name.to_string()));
            }
            Ok(Marker::Picture(name)) => {
                if let Some((_, opened)) = &fold {
                    problems.push(Problem {
                        line: number,
                        what: format!(
                            "the picture `{name}` is inside the fold opened on line {opened}: close it first"
                        ),
                    });
                }
                parts.push(Part::Picture { name: name.to_string(), line: number });
            }
            Ok(Marker::FoldStart(summary)) => match &fold {
                Some((_, opened)) => problems.push(Problem {
                    line: number,
                    what: format!("a fold opens inside the fold opened on line {opened}: folds do not nest"),
                }),
                None => {
                    // The summary is rendered as inline Markdown too: its links and images pass the
                    // same checks as the prose's.
                    problems.extend(check_markdown(summary, number));
                    fold = Some((summary.to_string(), number));
                }
            },
            Ok(Marker::FoldEnd) => {
                if fold.take().is_none() {
                    problems.push(Problem { line: number, what: "`<!-- /fold -->` closes no fold".into() });
                }
            }
            Err(what) => problems.push(Problem { line: number, what }),
        }
    }
    flush(&mut prose, prose_line, &fold, &mut parts, &mut problems);
    if let Some((_, opened)) = fold {
        problems.push(Problem { line: opened, what: "this fold is never closed by `<!-- /fold -->`".into() });
    }
    if problems.is_empty() {
        Ok(parts)
    } else {
        problems.sort_by_key(|p| p.line);
        Err(problems)
    }
}

/// `Some(Ok(name))` for a `<!-- experiment: NAME -->` line, `Some(Err(..))` for such a line whose name
/// cannot be an experiment's (it becomes a URL path segment), `None` for any other line.
pub fn experiment_marker(line: &str) -> Option<Result<&str, String>> {
    let name = line.trim().strip_prefix("<!-- experiment:")?.strip_suffix("-->")?.trim();
    let plain = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    Some(if plain {
        Ok(name)
    } else {
        Err(format!(
            "the experiment marker names `{}`, which is not a name of letters, digits, `-` and `_`",
            snippet(name)
        ))
    })
}

/// `Some(Ok(name))` for a `<!-- picture: NAME -->` line naming one of [`crate::PICTURES`],
/// `Some(Err(..))` for a picture marker naming none (a misspelt name would leave a hole in the page),
/// `None` for any other line.
pub fn picture_marker(line: &str) -> Option<Result<&str, String>> {
    let name = line.trim().strip_prefix("<!-- picture:")?.strip_suffix("-->")?.trim();
    Some(match crate::PICTURES.iter().find(|(known, _)| *known == name) {
        Some((known, _)) => Ok(known),
        None => Err(format!(
            "the picture marker names `{}`, which is none of the pictures the app draws: {}",
            snippet(name),
            crate::PICTURES.map(|(known, _)| format!("`{known}`")).join(", ")
        )),
    })
}

/// Everything refused in one piece of Markdown whose first line is `first_line` of the file.
pub fn check_markdown(markdown: &str, first_line: usize) -> Vec<Problem> {
    let line_of = |offset: usize| first_line + markdown[..offset.min(markdown.len())].matches('\n').count();
    let mut problems = Vec::new();
    let mut events = Parser::new_ext(markdown, options()).into_offset_iter();
    let mut in_html_block = false;
    for (event, range) in events.by_ref() {
        let what = match event {
            // A block of raw HTML is reported once, at its first line.
            Event::Start(Tag::HtmlBlock) => {
                in_html_block = true;
                Some(html_problem(&markdown[range.clone()]))
            }
            Event::End(TagEnd::HtmlBlock) => {
                in_html_block = false;
                None
            }
            Event::Html(_) if in_html_block => None,
            Event::Html(html) | Event::InlineHtml(html) => {
                let line = line_of(range.start);
                let reported =
                    problems.last().is_some_and(|p: &Problem| p.line == line && p.what.starts_with("raw HTML"));
                (!reported).then(|| html_problem(&html))
            }
            Event::Start(Tag::Link { dest_url, .. }) if dest_url.starts_with('#') => Some(format!(
                "a link to `{}` alone: a page's `<base href>` is the site's root, so it would open the landing page; \
                 name the page too (`/how-the-lab-works{}`)",
                snippet(&dest_url),
                snippet(&dest_url)
            )),
            Event::Start(Tag::Link { dest_url, .. }) => url_problem(&dest_url).map(|p| format!("a link to {p}")),
            Event::Start(Tag::Image { dest_url, .. }) => url_problem(&dest_url).map(|p| format!("an image from {p}")),
            Event::InlineMath(latex) => mathml(&latex, false).err(),
            Event::DisplayMath(latex) => mathml(&latex, true).err(),
            Event::Start(Tag::Heading { attrs, .. }) if !attrs.is_empty() => {
                let names: Vec<&str> = attrs.iter().map(|(name, _)| name.as_ref()).collect();
                Some(format!(
                    "a heading with the attribute(s) `{}`: only `{{#id .class}}` is allowed",
                    snippet(&names.join(" "))
                ))
            }
            // A class would let the prose take the site's own styles and hooks (`.drop-zone`
            // makes a heading accept dropped files); the prose has no need of any.
            Event::Start(Tag::Heading { classes, .. }) if !classes.is_empty() => {
                let names: Vec<&str> = classes.iter().map(|name| name.as_ref()).collect();
                Some(format!("a heading with the class(es) `{}`: only `{{#id}}` is allowed", snippet(&names.join(" "))))
            }
            _ => None,
        };
        if let Some(what) = what {
            problems.push(Problem { line: line_of(range.start), what });
        }
    }
    // Definitions (`[label]: url`) are checked even when no link uses them.
    for (label, definition) in events.reference_definitions().iter() {
        if let Some(p) = url_problem(&definition.dest) {
            problems.push(Problem {
                line: line_of(definition.span.start),
                what: format!("the link definition `[{}]` points to {p}", snippet(label)),
            });
        }
    }
    problems.sort_by_key(|p| p.line);
    problems
}

fn html_problem(html: &str) -> String {
    let first = html.trim_start().lines().next().unwrap_or("").trim();
    if first.starts_with("<!--") {
        format!(
            "raw HTML `{}`: HTML comments are not allowed; the only ones are `<!-- experiment: NAME -->`, \
             `<!-- picture: NAME -->`, `<!-- fold: SUMMARY -->` and `<!-- /fold -->`, each on a line of its own",
            snippet(first)
        )
    } else {
        format!(
            "raw HTML `{}` is not allowed: write Markdown (a literal `<` goes in `backticks` or as `&lt;`)",
            snippet(first)
        )
    }
}

/// Why a link or image may not point to `url` (as the parser decoded it: entities and escapes
/// resolved), or `None` if it may.
pub fn url_problem(url: &str) -> Option<String> {
    // As browsers read an address: C0 controls and spaces around it are dropped, and tabs and
    // newlines anywhere in it, so `java\tscript:` is `javascript:`.
    let cleaned: String =
        url.trim_matches(|c: char| c <= ' ').chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')).collect();
    if cleaned.chars().any(char::is_control) {
        return Some(format!("`{}`, which has a control character in it", snippet(url)));
    }
    let scheme = scheme(&cleaned)?;
    (!ALLOWED_SCHEMES.contains(&scheme.as_str())).then(|| {
        format!(
            "a `{scheme}:` URL (`{}`): links and images may only use {} or an address on this site",
            snippet(url),
            ALLOWED_SCHEMES.map(|s| format!("{s}:")).join(", ")
        )
    })
}

/// The scheme of an address, lowercase, as a URL parser finds it: letters, digits, `+`, `-` and `.`
/// up to the first `:`, starting with a letter. `None` for a relative address.
fn scheme(url: &str) -> Option<String> {
    let (head, _) = url.split_once(':')?;
    let mut chars = head.chars();
    let valid = chars.next()?.is_ascii_alphabetic() && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    valid.then(|| head.to_ascii_lowercase())
}

/// `text` on one line, shortened for an error message.
fn snippet(text: &str) -> String {
    let one_line = text.trim();
    let one_line: String =
        one_line.chars().map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.to_string() }).collect();
    match one_line.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &one_line[..cut]),
        None => one_line.to_string(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A whole chapter file: its front matter (`---` … `---`) skipped, the body checked as
    /// [`crate::read`] does.
    fn check_file(text: &str) -> Vec<Problem> {
        let text = text.replace("\r\n", "\n");
        let (body, first_line) = match text.strip_prefix("---\n").and_then(|rest| rest.split_once("\n---\n")) {
            Some((head, body)) => (body, head.lines().count() + 3),
            None => (text.as_str(), 1),
        };
        chapter(body, first_line).err().unwrap_or_default()
    }

    /// The problems of a body starting on line 1, as (line, message).
    fn problems(body: &str) -> Vec<(usize, String)> {
        chapter(body, 1).err().unwrap_or_default().into_iter().map(|p| (p.line, p.what)).collect()
    }

    fn refused(body: &str, line: usize, words: &str) {
        let found = problems(body);
        assert!(
            found.iter().any(|(l, what)| *l == line && what.contains(words)),
            "{body:?}: expected a problem on line {line} mentioning {words:?}, found {found:?}"
        );
    }

    #[test]
    fn plain_markdown_passes_and_splits_at_markers() {
        let body = "# Title {#top}\n\nSome *prose* with `<code>` and a [link](/chapters/sum), \
                    [another](https://example.com/a?b=c:d), <https://example.com> and <me@example.com>.\n\n\
                    ```html\n<script>alert(1)</script>\n```\n\n    <div>indented code</div>\n\n\
                    ![figure](images/chart.png \"A chart\")\n\n[ref]: https://example.com/ref\n[mail]: mailto:a@b.c\n\
                    <!-- experiment: sum -->\nMore prose, a < b and x<3.\n";
        let parts = chapter(body, 5).unwrap();
        assert_eq!(parts.len(), 3, "{parts:?}");
        assert!(matches!(&parts[0], Part::Prose { line: 5, fold: None, .. }));
        assert_eq!(parts[1], Part::Experiment("sum".into()));
        assert!(matches!(&parts[2], Part::Prose { line: 20, markdown, .. } if markdown.starts_with("More prose")));
    }

    #[test]
    fn folds_hold_prose_and_must_close() {
        let body = "Open.\n<!-- fold: Why it works -->\nDetail *here*.\n<!-- /fold -->\nAfter.\n";
        let parts = chapter(body, 1).unwrap();
        assert_eq!(parts.len(), 3, "{parts:?}");
        assert!(matches!(&parts[0], Part::Prose { fold: None, .. }));
        assert!(
            matches!(&parts[1], Part::Prose { fold: Some(s), line: 3, markdown } if s == "Why it works" && markdown.starts_with("Detail"))
        );
        assert!(matches!(&parts[2], Part::Prose { fold: None, line: 5, .. }));
        refused("<!-- fold: A -->\nText\n", 1, "never closed");
        refused("Text\n<!-- /fold -->\n", 2, "closes no fold");
        refused("<!-- fold: A -->\n<!-- fold: B -->\n<!-- /fold -->\n", 2, "do not nest");
        refused("<!-- fold: A -->\n<!-- experiment: sum -->\n<!-- /fold -->\n", 2, "inside the fold");
        refused("<!-- fold: <b>x</b> -->\n<!-- /fold -->\n", 1, "plain text");
        refused("<!-- fold: -->\n<!-- /fold -->\n", 1, "plain text");
    }

    #[test]
    fn picture_markers_name_a_known_picture_outside_folds() {
        let parts = chapter("Before.\n<!-- picture: gmp -->\nAfter.\n", 3).unwrap();
        assert_eq!(parts.len(), 3, "{parts:?}");
        assert_eq!(parts[1], Part::Picture { name: "gmp".into(), line: 4 });
        assert!(matches!(&parts[2], Part::Prose { line: 5, .. }));
        // A misspelt name is refused, naming the pictures there are.
        refused("<!-- picture: bubble-pas -->\n", 1, "none of the pictures the app draws: `bubble-pass`");
        refused("<!-- picture: -->\n", 1, "none of the pictures");
        refused("<!-- fold: A -->\n<!-- picture: gmp -->\n<!-- /fold -->\n", 2, "inside the fold");
        refused("<!--picture: gmp-->\n", 1, "HTML comments are not allowed");
        assert_eq!(picture_marker("  <!-- picture: littles-law -->  "), Some(Ok("littles-law")));
        assert_eq!(picture_marker("text"), None);
    }

    #[test]
    fn formulas_become_mathml_or_are_refused() {
        assert!(problems("Speedup $S(k) = \\frac{T_1}{T_k}$ and\n\n$$L = \\lambda W$$\n").is_empty());
        let inline = mathml("\\frac{1}{s}", false).unwrap();
        assert!(inline.starts_with("<math") && inline.contains("<mfrac"), "{inline}");
        assert!(mathml("x", true).unwrap().contains("display=\"block\""));
        refused("Broken $\\frac{1}$ here.\n", 1, "is not LaTeX");
        refused("Unknown $\\nosuchcommand x$ here.\n", 1, "is not LaTeX");
    }

    /// The names of the elements in `html`, and whether every `&` in it starts an entity and every
    /// `<` a tag (nothing else of HTML's syntax left as text).
    pub(crate) fn markup_of(html: &str) -> (Vec<String>, bool) {
        let mut names = Vec::new();
        let mut clean = true;
        for (at, c) in html.char_indices() {
            let after = &html[at + c.len_utf8()..];
            match c {
                '<' => {
                    let name: String = after
                        .trim_start_matches('/')
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                        .collect();
                    clean &= !name.is_empty();
                    names.push(name);
                }
                '&' => clean &= is_entity(after),
                _ => {}
            }
        }
        // A `>` outside a tag: every one must close the tag last opened.
        let (opened, closed) = (html.matches('<').count(), html.matches('>').count());
        (names, clean && opened == closed)
    }

    /// The elements pulldown-latex writes.
    pub(crate) const MATHML: [&str; 22] = [
        "math",
        "semantics",
        "annotation",
        "mrow",
        "mi",
        "mo",
        "mn",
        "mtext",
        "mspace",
        "mfrac",
        "msqrt",
        "mroot",
        "msub",
        "msup",
        "msubsup",
        "munder",
        "mover",
        "munderover",
        "mtable",
        "mtr",
        "mtd",
        "mpadded",
    ];

    #[test]
    fn a_formula_source_is_escaped_in_its_annotation() {
        // The source goes into `<annotation>`, which is HTML text: `<` and `&` must come out escaped,
        // or a formula could carry markup past the check on raw HTML (issue 34).
        let less = mathml("a < b", false).unwrap();
        assert!(less.contains("<annotation encoding=\"application/x-tex\">a &lt; b</annotation>"), "{less}");
        let and = mathml("\\begin{aligned} a &= b \\end{aligned}", true).unwrap();
        assert!(and.contains(">\\begin{aligned} a &amp;= b \\end{aligned}</annotation>"), "{and}");
        let payload = mathml("a<img src=x onerror=alert(1)>", false).unwrap();
        assert!(!payload.contains("<img"), "{payload}");
        assert!(payload.contains(">a&lt;img src=x onerror=alert(1)&gt;</annotation>"), "{payload}");
    }

    #[test]
    fn nothing_of_a_formula_reaches_the_page_as_markup() {
        // Function names are written as they are by pulldown-latex, and so are symbols.
        let named = mathml("\\operatorname{<img src=x onerror=alert(1)>} x", false).unwrap();
        assert!(named.contains("<mi>&lt;img src=x onerror=alert(1)&gt;</mi>"), "{named}");
        let op = mathml("\\mathop{<b>&amp;</b>}", false).unwrap();
        assert!(op.contains("<mi>&lt;b&gt;&amp;amp;&lt;/b&gt;</mi>"), "{op}");
        let symbols = mathml("a < b > c \\& d \\not< e", false).unwrap();
        assert!(symbols.contains("<mo>&lt;</mo>") && symbols.contains("<mo>&gt;</mo>"), "{symbols}");
        assert!(symbols.contains("<mi>&amp;</mi>"), "{symbols}");
        let text = mathml("\\text{a < b &amp; <i>}", false).unwrap();
        assert!(text.contains("<mtext>a &lt; b &amp;amp; &lt;i&gt;</mtext>"), "{text}");
        for formula in [named, op, symbols, text, mathml("x<y>z\\&w", true).unwrap()] {
            let (names, clean) = markup_of(&formula);
            assert!(clean, "{formula}");
            assert!(names.iter().all(|n| MATHML.contains(&n.as_str())), "{names:?} in {formula}");
        }
    }

    #[test]
    fn raw_html_blocks_are_refused() {
        refused("Intro.\n\n<div class=\"box\">\n  <b>bold</b>\n</div>\n", 3, "raw HTML `<div class=\"box\">`");
        refused("<script>alert(1)</script>\n", 1, "raw HTML `<script>");
        refused("Text\n\n<iframe src=\"https://evil.example\"></iframe>\n", 3, "raw HTML");
        // One report for a block of several lines.
        assert_eq!(problems("<div>\n<p>a</p>\n</div>\n").len(), 1, "{:?}", problems("<div>\n<p>a</p>\n</div>\n"));
    }

    #[test]
    fn inline_html_is_refused() {
        refused("Some <span onclick=\"go()\">text</span> here.\n", 1, "raw HTML `<span onclick");
        refused("Line one\nline <img src=x onerror=alert(1)> two\n", 2, "raw HTML `<img");
        refused("Generic `Vec` needs Vec<T> in backticks.\n", 1, "raw HTML `<T>`");
    }

    #[test]
    fn html_comments_other_than_markers_are_refused() {
        refused("Text\n\n<!-- a note for translators -->\n", 3, "HTML comments are not allowed");
        // A marker with a typo would silently hide the panel: refused rather than passed through.
        refused("<!--experiment: sum-->\n", 1, "HTML comments are not allowed");
        // A comment that closes and opens HTML on the same line is HTML, too.
        refused("<!-- x --><script>alert(1)</script>\n", 1, "raw HTML");
    }

    #[test]
    fn marker_names_must_be_plain() {
        refused("<!-- experiment: --><script>alert(1)</script><!-- -->\n", 1, "experiment marker");
        refused("<!-- experiment: -->\n", 1, "experiment marker");
        // Lines after a refused marker still count right.
        refused("<b>\n\n<!-- experiment: a b -->\n\nText <i>x</i>\n", 5, "raw HTML `<i>`");
        refused("<b>\n\n<!-- experiment: a b -->\n\nText <i>x</i>\n", 1, "raw HTML `<b>`");
        assert_eq!(experiment_marker("  <!-- experiment: task-costs_2 -->  "), Some(Ok("task-costs_2")));
        assert_eq!(experiment_marker("<!-- experiment: a b -->").map(|r| r.is_err()), Some(true));
        assert_eq!(experiment_marker("text"), None);
    }

    #[test]
    fn javascript_links_are_refused() {
        refused("Click [here](javascript:alert(1)).\n", 1, "a link to a `javascript:` URL");
        refused("Auto <javascript:alert(1)>\n", 1, "a `javascript:` URL");
        refused("[x](vbscript:msgbox)\n", 1, "a `vbscript:` URL");
        refused("[x](data:text/html;base64,PHNjcmlwdD4=)\n", 1, "a `data:` URL");
        refused("[x](file:///etc/passwd)\n", 1, "a `file:` URL");
    }

    #[test]
    fn a_link_to_a_fragment_alone_is_refused() {
        // It would resolve against `<base href>` (the site's root), not the page it is on.
        refused("See [above](#isolation).\n", 1, "a link to `#isolation` alone");
        assert!(problems("See [above](/how-the-lab-works#isolation).\n").is_empty());
    }

    #[test]
    fn javascript_images_are_refused() {
        refused("![chart](javascript:alert(1))\n", 1, "an image from a `javascript:` URL");
        refused("![pixel](data:image/png;base64,iVBORw0KGgo=)\n", 1, "an image from a `data:` URL");
        refused("![chart][c]\n\n[c]: javascript:alert(1)\n", 1, "an image from a `javascript:` URL");
    }

    #[test]
    fn reference_definitions_are_checked_used_or_not() {
        refused("See [the docs][d].\n\n[d]: javascript:alert(1)\n", 1, "a link to a `javascript:` URL");
        refused("See [the docs][d].\n\n[d]: javascript:alert(1)\n", 3, "the link definition `[d]`");
        refused("Nothing uses it.\n\n[unused]: <JavaScript:alert(1)> \"title\"\n", 3, "the link definition `[unused]`");
    }

    #[test]
    fn case_whitespace_and_encoding_tricks_are_refused() {
        for url in [
            "JaVaScRiPt:alert(1)",
            "JAVASCRIPT:alert(1)",
            "<java\tscript:alert(1)>",
            " \tjavascript:alert(1)",
            "&#x6A;avascript:alert(1)",
            "&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)",
            "java&#x09;script:alert(1)",
            "java&#x0A;script:alert(1)",
            "&#x20;javascript:alert(1)",
            "javascript&colon;alert(1)",
            "javascript\\:alert(1)",
            "VbScRiPt:msgbox",
            "DATA:text/html,x",
        ] {
            let body = format!("[x]({url})\n");
            assert!(!problems(&body).is_empty(), "{body:?} passed");
            let body = format!("![x]({url})\n");
            assert!(!problems(&body).is_empty(), "{body:?} passed");
            let body = format!("[x][r]\n\n[r]: {url}\n");
            assert!(!problems(&body).is_empty(), "{body:?} passed");
        }
        // What the parser decodes is what is checked.
        assert!(url_problem("java\tscript:x").is_some());
        assert!(url_problem(" \u{0}javascript:x").is_some());
        assert!(url_problem("java\u{0}script:x").is_some());
    }

    #[test]
    fn web_addresses_and_relative_ones_pass() {
        for url in [
            "https://example.com",
            "HTTP://example.com",
            "mailto:someone@example.com",
            "/chapters/sum?workers=2",
            "#why",
            "chapters/sum",
            "./a:b",
            "//example.com/x",
            "?q=javascript:x",
        ] {
            assert_eq!(url_problem(url), None, "{url}");
        }
    }

    #[test]
    fn a_fold_summary_passes_the_prose_checks() {
        let folded = |summary: &str| format!("Intro.\n\n<!-- fold: {summary} -->\nInside.\n<!-- /fold -->\n");
        refused(&folded("[Open](javascript:alert(1))"), 3, "a link to");
        refused(&folded("![x](data:image/png;base64,AAAA)"), 3, "an image from");
        assert!(problems(&folded("Why [the cache](/glossary#cache-line) matters")).is_empty());
    }

    #[test]
    fn heading_attributes_other_than_id_and_class_are_refused() {
        refused("# Title {onclick=alert(1)}\n", 1, "a heading with the attribute(s) `onclick`");
        refused("Intro\n\n## Part {#part style=color:red}\n", 3, "`style`");
        assert!(problems("# Title {#id}\n").is_empty());
        // A class of the site's own (a heading that would accept dropped files) is refused too.
        refused("# Title {#id .drop-zone}\n", 1, "a heading with the class(es) `drop-zone`");
    }

    #[test]
    fn lines_count_from_the_file() {
        let text = "---\ntitle: T\nsummary: S\norder: 1\n---\nLine six.\n\n<!-- experiment: sum -->\n\
                    Line nine <b>x</b>.\n";
        let found = check_file(text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].line, 9);
        assert_eq!(check_file(&text.replace('\n', "\r\n")), found);
    }

    #[test]
    fn every_file_in_content_passes() {
        let content = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content");
        let mut checked = 0;
        for lang in std::fs::read_dir(&content).unwrap().flatten().filter(|e| e.path().is_dir()) {
            for file in std::fs::read_dir(lang.path()).unwrap().flatten() {
                let path = file.path();
                if crate::is_text(&path) {
                    let problems = check_file(&std::fs::read_to_string(&path).unwrap());
                    assert_eq!(problems, [], "{}", path.display());
                    checked += 1;
                }
            }
        }
        assert!(checked >= 10, "only {checked} chapter files found in {}", content.display());
    }
}
