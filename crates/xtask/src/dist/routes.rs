//! The site's languages and routes: the pages `cargo xtask dist` writes, in every language, and what
//! each one carries (its language and alternates, its title, preloads of its prose and panel code).

use super::files::read;
use std::path::Path;

/// The interface texts of `lang` (the site's name, link words), from the tables the app shows.
pub fn interface_texts(lang: &str) -> Result<&'static ui_text::Ui, String> {
    ui_text::table(lang).ok_or_else(|| {
        let tags: Vec<&str> = ui_text::tables().iter().map(|(tag, _)| *tag).collect();
        format!("the interface has no texts in `{lang}` (it has {})", tags.join(", "))
    })
}

/// The languages the site is written in: every folder of `content` with a `index.md`, English first.
pub fn languages(content: &Path) -> Result<Vec<String>, String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(content).map_err(|e| format!("{}: {e}", content.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.join("index.md").is_file() {
            found.push(path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
        }
    }
    found.sort_by_key(|tag| (tag != "en", tag.clone()));
    Ok(found)
}

/// A route (`chapters/sum`, or "" for the landing page) in a language: English at the root, the
/// others under their tag (`ru/chapters/sum`).
pub fn language_route(lang: &str, route: &str) -> String {
    match (lang, route) {
        ("en", _) => route.to_string(),
        (_, "") => lang.to_string(),
        _ => format!("{lang}/{route}"),
    }
}

/// The `<link rel="alternate" hreflang>` lines for a route: its page in every language, absolute
/// when the site's address is known, else under the `<base href>`.
pub fn alternates(base: &str, site: Option<&str>, languages: &[String], route: &str) -> String {
    let start = site.unwrap_or(base);
    let mut links: Vec<String> = languages
        .iter()
        .map(|lang| {
            let path = language_route(lang, route);
            let href = if path.is_empty() { start.to_string() } else { format!("{start}{path}/") };
            format!("<link rel=\"alternate\" hreflang=\"{lang}\" href=\"{href}\">")
        })
        .collect();
    links.push(format!(
        "<link rel=\"alternate\" hreflang=\"x-default\" href=\"{start}{}\">",
        if route.is_empty() { String::new() } else { format!("{route}/") }
    ));
    links.join("\n")
}

/// `page` with the title and description of the text it shows first (the landing text's name after
/// a chapter's title), so a link's preview and a search result read in the page's language before the
/// app starts. Pages without a text of their own keep the landing text's.
pub fn titled(page: &str, text: Option<&prose::Text>, landing: Option<&prose::Text>) -> String {
    let Some(landing) = landing else { return page.to_string() };
    let escape = |s: &str| s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;");
    let (title, description) = match text {
        Some(t) if t.slug != "index" => (format!("{} · {}", t.title, landing.title), t.summary.as_str()),
        _ => (landing.title.clone(), landing.summary.as_str()),
    };
    let mut html = page.to_string();
    if let (Some(start), Some(end)) = (html.find("<title>"), html.find("</title>")) {
        html.replace_range(start + "<title>".len()..end, &escape(&title));
    }
    let marker = "<meta name=\"description\" content=\"";
    if let Some(start) = html.find(marker).map(|i| i + marker.len()) {
        if let Some(length) = html[start..].find('"') {
            html.replace_range(start..start + length, &escape(description));
        }
    }
    html
}

/// The app's page for a language: `<html lang>` set, the alternates before `</head>`.
pub fn page_in_language(page: &str, lang: &str, alternates: &str) -> String {
    let page = page.replacen("<html lang=\"en\">", &format!("<html lang=\"{lang}\">"), 1);
    match page.find("</head>") {
        Some(end) => format!("{}{alternates}\n{}", &page[..end], &page[end..]),
        None => page,
    }
}

/// The routes that get their own copy of `index.html`: `chapters/<slug>` and `embed/chapters/<slug>`
/// for every chapter in `content` (but `index.md`, and the pages of their own, [`prose::PAGES`], which
/// are `glossary` and `how-the-lab-works`), and `embed/experiments/<name>` for every
/// `<!-- experiment: NAME -->` in them.
pub fn routes(content: &Path) -> Result<Vec<String>, String> {
    let mut chapters = Vec::new();
    let mut experiments = Vec::new();
    // Pages of their own at the top level: the glossary (`/glossary`), `/how-the-lab-works`.
    let mut pages = Vec::new();
    for entry in std::fs::read_dir(content).map_err(|e| format!("{}: {e}", content.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if !prose::is_text(&path) {
            continue;
        }
        let text = read(&path)?;
        for line in text.lines() {
            if let Some(name) = line.trim().strip_prefix("<!-- experiment:").and_then(|l| l.strip_suffix("-->")) {
                experiments.push(url_segment(name.trim())?);
            }
        }
        let slug = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        match slug.as_str() {
            "index" => {}
            page if prose::PAGES.contains(&page) => pages.push(slug),
            _ => chapters.push(url_segment(&slug)?),
        }
    }
    chapters.sort();
    pages.sort();
    experiments.sort();
    experiments.dedup();
    let mut routes: Vec<String> = chapters.iter().map(|s| format!("chapters/{s}")).collect();
    routes.extend(pages);
    routes.extend(chapters.iter().map(|s| format!("embed/chapters/{s}")));
    routes.extend(experiments.iter().map(|e| format!("embed/experiments/{e}")));
    Ok(routes)
}

/// The text whose prose the page at `route` shows first: `chapters/<slug>` and
/// `embed/chapters/<slug>` their chapter's, `glossary` and `how-the-lab-works` their own, `` (the top) the landing
/// text's; under a language's folder (`ru/chapters/sum`) that language's, else English.
pub fn prose_of_route<'a>(texts: &'a [prose::Text], route: &str) -> Option<&'a prose::Text> {
    let (lang, rest) = match route.split_once('/') {
        Some((lang, rest)) if texts.iter().any(|t| t.lang == lang) => (lang, rest),
        _ if texts.iter().any(|t| t.lang == route) => (route, ""),
        _ => ("en", route),
    };
    let slug = match rest.strip_prefix("embed/").unwrap_or(rest) {
        "" => "index",
        page if prose::PAGES.contains(&page) => page,
        other => other.strip_prefix("chapters/")?,
    };
    texts.iter().find(|t| t.lang == lang && t.slug == slug)
}

/// `page` with a preload of `text`'s prose file before `</head>`, so a cold load fetches it beside
/// the wasm instead of a round trip after it. The link matches the app's `fetch` (same-origin
/// credentials: `crossorigin`), or the browser would fetch the file twice. The file must be in `out`.
pub fn preload_prose(page: &str, base: &str, text: Option<&prose::Text>, out: &Path) -> Result<String, String> {
    match text {
        Some(text) => preload(page, base, &text.site_path(), out),
        None => Ok(page.to_string()),
    }
}

/// `page` with a preload of the site file `path` (a page's prose, or its language's interface
/// table, which the app fetches before it starts) before `</head>`. The file must be in `out`.
pub fn preload(page: &str, base: &str, path: &str, out: &Path) -> Result<String, String> {
    if !out.join(path).is_file() {
        return Err(format!(
            "{}: missing from the build (it changed after the build? run the build again)",
            out.join(path).display()
        ));
    }
    let end = page.find("</head>").ok_or("a page without </head>")?;
    let link = format!("  <link rel=\"preload\" href=\"{base}{path}\" as=\"fetch\" crossorigin />\n  ");
    Ok(format!("{}{link}{}", &page[..end], &page[end..]))
}

/// The experiments a route's page shows: its text's (a chapter, or a chapter's embed), or the one
/// an experiment's embed names.
pub fn experiments_of_route(text: Option<&prose::Text>, route: &str) -> Vec<String> {
    match route.strip_prefix("embed/experiments/") {
        Some(name) => vec![name.to_string()],
        None => text.map(|t| t.experiments().map(String::from).collect()).unwrap_or_default(),
    }
}

/// `page` with a preload of every chunk file the panels of `experiments` need, so that they arrive
/// while the core starts instead of after it (the app fetches them as `fetch()` does: `crossorigin`).
pub(super) fn preload_panel_code(
    page: &str,
    base: &str,
    experiments: &[String],
    code: &crate::app_build::PanelCode,
    out: &Path,
) -> Result<String, String> {
    let folder = code.folder_name();
    code.files(experiments)
        .iter()
        .try_fold(page.to_string(), |page, file| preload(&page, base, &format!("{folder}/{file}"), out))
}

fn url_segment(name: &str) -> Result<String, String> {
    let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    ok.then(|| name.to_string()).ok_or_else(|| format!("`{name}` cannot be a URL path segment"))
}
