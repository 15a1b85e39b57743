//! `cargo xtask dist`: the built site made deployable on any static host.
//!
//! It copies Trunk's `dist/` to an output folder (default `target/site`) and there adds what a plain
//! static host needs: a copy of `index.html` at every route so deep links load without server
//! rewrites (and `404.html` for the rest), a strict Content-Security-Policy with Trunk's inline
//! start-up script moved into a file, `_headers` for Netlify and Cloudflare Pages ([`headers`]), and
//! the service worker that isolates pages on hosts that cannot send headers (GitHub Pages) and keeps
//! the whole site working offline, with its precache list, the site's routes and headers, and its
//! version written in.

pub mod headers;
pub mod oembed;

pub use headers::CSP;

use crate::shell::{cargo, options, root, run, tool_path};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Written into the output folder; only a folder holding it is ever emptied by this command.
const MARKER: &str = ".xtask-dist";

const HELP: &str = "usage: cargo xtask dist [--out DIR] [--public-url /REPO/] [--site https://HOST/REPO/]";

/// `cargo xtask dist [--out DIR] [--public-url URL] [--site URL]`: set up, build, package.
pub fn command(args: &[String]) -> Result<(), String> {
    let mut out = root().join("target/site");
    let mut public_url = None;
    let mut site = None;
    for (name, value) in options(args, HELP)? {
        match name.as_str() {
            "--out" => out = std::env::current_dir().map_err(|e| e.to_string())?.join(value),
            "--public-url" => public_url = Some(normalise_public_url(&value)?),
            "--site" => site = Some(normalise_site(&value)?),
            _ => return Err(format!("unknown argument `{name}`\n{HELP}")),
        }
    }
    let public_url = site_public_url(public_url, site.as_deref())?;
    crate::tools::setup()?;
    build_site(&out, &public_url, site.as_deref())?;
    eprintln!("xtask: deployable site in {} (public URL {public_url})", out.display());
    Ok(())
}

/// The public URL: `--public-url`, else the path of `--site`, else `/`; the two must agree.
pub fn site_public_url(public_url: Option<String>, site: Option<&str>) -> Result<String, String> {
    let from_site = site
        .map(|s| {
            let path = s.split_once("://").map_or("/", |(_, rest)| rest.find('/').map_or("/", |i| &rest[i..]));
            normalise_public_url(path)
        })
        .transpose()?;
    match (public_url, from_site) {
        (Some(given), Some(path)) if given != path => {
            Err(format!("--public-url {given} and the path of --site ({path}) disagree"))
        }
        (Some(given), _) => Ok(given),
        (None, Some(path)) => Ok(path),
        (None, None) => Ok("/".into()),
    }
}

/// Refuse a control character (C0, DEL, C1: a line end, a tab, an escape…) in the argument `name`:
/// the value goes into `_headers` lines, HTML attributes, the cartridge's XML and the terminal, where
/// one could end a line, hide text or drive the terminal. The message shows the value escaped.
fn refuse_control_characters(name: &str, value: &str) -> Result<(), String> {
    match value.char_indices().find(|(_, c)| c.is_control()) {
        Some((at, c)) => Err(format!(
            "{name} must not contain control characters: U+{:04X} at byte {at} of \"{}\"",
            c as u32,
            value.escape_debug()
        )),
        None => Ok(()),
    }
}

/// The deployed site's address (`--site`): absolute http(s), ending in `/`, no control characters.
pub fn normalise_site(site: &str) -> Result<String, String> {
    refuse_control_characters("--site", site)?;
    let ok = (site.starts_with("https://") || site.starts_with("http://"))
        && site.len() > "https://".len()
        && !site.contains(['"', '<', '>', ' ', '?', '#']);
    if !ok {
        return Err(format!(
            "--site must be the deployed site's http(s) address, like https://example.org/lab/, not `{site}`"
        ));
    }
    Ok(if site.ends_with('/') { site.to_string() } else { format!("{site}/") })
}

/// `/repo`, `repo/` and `/repo/` all mean `/repo/`: Trunk's `<base href>` and the service worker's
/// scope must end in a slash. No control characters.
fn normalise_public_url(url: &str) -> Result<String, String> {
    refuse_control_characters("--public-url", url)?;
    let trimmed = url.trim_matches('/');
    if trimmed.contains(['"', '<', '>', ' ', '?', '#']) || trimmed.contains("://") {
        return Err(format!("--public-url takes a path such as /repo/, not `{url}`"));
    }
    Ok(if trimmed.is_empty() { "/".into() } else { format!("/{trimmed}/") })
}

/// Build the site for `public_url` and package it into `out`.
pub fn build_site(out: &Path, public_url: &str, site: Option<&str>) -> Result<(), String> {
    let built = if public_url == "/" {
        crate::site::build()?;
        root().join("dist")
    } else {
        // Its own Trunk output, so `dist/` (which `cargo xtask serve` and the tests use) keeps `/`.
        let staging = root().join("target/dist-public-url");
        run(cargo().arg("fetch"))?;
        run(Command::new("trunk")
            .current_dir(root())
            .env("PATH", tool_path())
            .args(["build", "--release", "--offline", "--public-url", public_url, "--dist"])
            .arg(&staging))?;
        stamp_engine_build(&staging)?;
        staging
    };
    package_for(&built, out, site)
}

/// Make the Trunk output in `built` deployable in `out` (replaced if it holds an earlier output).
/// Needs no tools: `cargo xtask test` can call it right after its own build.
pub fn package(built: &Path, out: &Path) -> Result<(), String> {
    package_for(built, out, None)
}

/// [`package`], and with the site's public address (`site`, ending in `/`) also the oEmbed answers
/// and their discovery links ([`oembed`]).
pub fn package_for(built: &Path, out: &Path, site: Option<&str>) -> Result<(), String> {
    let template = read(&built.join("index.html"))?;
    let base = base_href(&template).ok_or("dist/index.html has no <base href>; is it Trunk's output?")?;
    prepare_output(built, out)?;
    copy_tree(built, out)?;
    write(&out.join(MARKER), "Written by `cargo xtask dist`; the next run replaces this whole folder.\n")?;
    // GitHub Pages: serve the files as they are, without Jekyll.
    write(&out.join(".nojekyll"), "")?;

    let index = out.join("index.html");
    write(&index, &service_worker_meta(&read(&index)?, true))?;
    externalise_inline_scripts(out)?;
    add_csp(out)?;
    let page = read(&index)?;
    check_strict_page(&page).map_err(|e| format!("{}: {e}", index.display()))?;
    let content = root().join("content/en");
    let routes = routes(&content)?;
    let languages = languages(&root().join("content"))?;
    let texts = crate::site::texts()?;
    // Every route in every language: English at the root, the others under their tag. Each page
    // names its language and its alternates in the others (hreflang), and preloads its prose.
    let code = crate::app_build::PanelCode::read(out)?;
    let mut all_routes = vec![String::new()];
    // Every route page written, in every language: the service worker answers these and no others.
    let mut route_pages = Vec::new();
    all_routes.extend(routes.iter().cloned());
    for lang in &languages {
        for route in &all_routes {
            let path = language_route(lang, route);
            let text = prose_of_route(&texts, &path);
            let landing = texts.iter().find(|t| t.lang == *lang && t.slug == "index");
            let preloaded = preload_prose(&page, &base, text, out)?;
            let preloaded = match prose::language_file(&texts, lang) {
                Some((path, _)) => preload(&preloaded, &base, &path, out)?,
                None => preloaded,
            };
            let preloaded = preload_panel_code(&preloaded, &base, &experiments_of_route(text, route), &code, out)?;
            let html = page_in_language(&preloaded, lang, &alternates(&base, site, &languages, route));
            let html = titled(&html, text, landing);
            let file = if path.is_empty() { out.join("index.html") } else { out.join(&path).join("index.html") };
            route_pages.push(path);
            std::fs::create_dir_all(file.parent().expect("a route has a folder")).map_err(|e| e.to_string())?;
            write(&file, &html)?;
        }
    }
    if let Some(site) = site {
        for lang in &languages {
            oembed::write(out, site, lang, &root().join("content").join(lang), &routes)?;
        }
    }
    // Static hosts answer unknown paths with 404.html: the app then shows its own not-found page.
    write(&out.join("404.html"), &page)?;
    // The landing page's own text, for a reader who arrives at the top.
    write(&index, &preload_prose(&page, &base, prose_of_route(&texts, ""), out)?)?;
    check_content_addressed(out)?;
    let rules = headers::rules(&languages);
    write(&out.join("_headers"), &headers::write(&base, &rules))?;
    write_service_worker(out, &route_pages, &rules)
}

/// Write the site's `_headers` (Netlify, Cloudflare Pages) into the built site `dir`, for the base `/`.
pub fn write_headers_file(dir: &Path) -> Result<(), String> {
    let languages = languages(&root().join("content"))?;
    write(&dir.join("_headers"), &headers::write("/", &headers::rules(&languages)))
}

/// The site's files that are named after a hash of their content, as patterns under the base
/// (`*` matches anything, as in `_headers`): the split UI's folder, the prose and interface tables,
/// and what Trunk hashes. A new build names new files, so a browser may keep these for good.
/// The engines' folders are named after their build (`engine-<build>/`, `engine-single-<build>/`).
pub const CONTENT_ADDRESSED: [&str; 7] =
    ["app-*", "engine-*", "content/*", "ui/*", "init-*.js", "style-*.css", "favicon-*.svg"];

/// What a browser may do with a [`CONTENT_ADDRESSED`] file: keep it a year without asking again.
pub const FOREVER: &str = "public, max-age=31536000, immutable";

/// Whether `path` (relative to the site, `/`-separated) matches `pattern`, `*` matching any run of
/// characters.
pub fn matches_pattern(pattern: &str, path: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = path.strip_prefix(first) else { return false };
    let parts: Vec<&str> = parts.collect();
    for (index, part) in parts.iter().enumerate() {
        if index == parts.len() - 1 {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether some part of `path` carries a content hash: `-` and 16 hex digits, then its end or `.`.
fn carries_hash(path: &str) -> bool {
    path.split('/').any(|part| {
        part.match_indices('-').any(|(at, _)| {
            let hash = &part[at + 1..];
            hash.len() >= 16
                && hash.as_bytes()[..16].iter().all(u8::is_ascii_hexdigit)
                && (hash.len() == 16 || hash.as_bytes()[16] == b'.')
        })
    })
}

/// Fail if a file the headers will let browsers keep for good is not named after its content:
/// a later build could change it under the same name, and readers would keep the old one.
fn check_content_addressed(out: &Path) -> Result<(), String> {
    let mut files = Vec::new();
    walk(out, &mut files)?;
    for file in &files {
        let path = file.strip_prefix(out).unwrap_or(file).to_string_lossy().replace('\\', "/");
        if CONTENT_ADDRESSED.iter().any(|p| matches_pattern(p, &path)) && !carries_hash(&path) {
            return Err(format!("{path} would be cached for good, but its name carries no content hash"));
        }
    }
    Ok(())
}

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
/// for every chapter in `content` (but `index.md` and `glossary.md`, which is `glossary`), and `embed/experiments/<name>` for every
/// `<!-- experiment: NAME -->` in them.
pub fn routes(content: &Path) -> Result<Vec<String>, String> {
    let mut chapters = Vec::new();
    let mut experiments = Vec::new();
    // Pages of their own at the top level: the glossary (`/glossary`).
    let mut pages = Vec::new();
    for entry in std::fs::read_dir(content).map_err(|e| format!("{}: {e}", content.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().is_none_or(|e| e != "md") {
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
            "glossary" => pages.push(slug),
            _ => chapters.push(url_segment(&slug)?),
        }
    }
    chapters.sort();
    experiments.sort();
    experiments.dedup();
    let mut routes: Vec<String> = chapters.iter().map(|s| format!("chapters/{s}")).collect();
    routes.extend(pages);
    routes.extend(chapters.iter().map(|s| format!("embed/chapters/{s}")));
    routes.extend(experiments.iter().map(|e| format!("embed/experiments/{e}")));
    Ok(routes)
}

/// The text whose prose the page at `route` shows first: `chapters/<slug>` and
/// `embed/chapters/<slug>` their chapter's, `glossary` the glossary's, `` (the top) the landing
/// text's; under a language's folder (`ru/chapters/sum`) that language's, else English.
pub fn prose_of_route<'a>(texts: &'a [prose::Text], route: &str) -> Option<&'a prose::Text> {
    let (lang, rest) = match route.split_once('/') {
        Some((lang, rest)) if texts.iter().any(|t| t.lang == lang) => (lang, rest),
        _ if texts.iter().any(|t| t.lang == route) => (route, ""),
        _ => ("en", route),
    };
    let slug = match rest.strip_prefix("embed/").unwrap_or(rest) {
        "" => "index",
        "glossary" => "glossary",
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
fn preload_panel_code(
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

/// Move every inline script of every HTML file under `dir` into a file `init-<hash>.js` at the
/// top of `dir`, referenced by `src`, so `script-src 'self'` allows it. Trunk writes one: the module
/// script that imports the app and starts it. Attributes (`type="module"`) are kept; running it
/// again changes nothing.
pub fn externalise_inline_scripts(dir: &Path) -> Result<(), String> {
    for file in html_files(dir)? {
        let html = read(&file)?;
        let mut result = String::with_capacity(html.len());
        let mut copied = 0;
        for tag in tags(&html) {
            let Some(body) = tag.body.clone() else { continue };
            if tag.name != "script" || tag.attr("src").is_some() || !is_javascript(tag.attr("type")) {
                continue;
            }
            let code = &html[body.clone()];
            let name = format!("init-{:016x}.js", fnv1a(code.as_bytes()));
            write(&dir.join(&name), code)?;
            let src = match base_href(&html) {
                Some(base) => format!("{base}{name}"),
                None => relative_to_top(dir, &file)? + &name,
            };
            let open = &html[tag.start..body.start];
            let open = open.strip_suffix('>').unwrap_or(open).trim_end().trim_end_matches('/');
            result.push_str(&html[copied..tag.start]);
            result.push_str(&format!("{open} src=\"{src}\"></script>"));
            copied = tag.end;
        }
        if copied > 0 {
            result.push_str(&html[copied..]);
            write(&file, &result)?;
        }
    }
    Ok(())
}

/// Add [`CSP`] as a `<meta http-equiv>` to every HTML file under `dir`, right after
/// `<meta charset>` so it covers `<base>` and every script. Files that have one keep theirs.
pub fn add_csp(dir: &Path) -> Result<(), String> {
    for file in html_files(dir)? {
        let html = read(&file)?;
        let all = tags(&html);
        let has_csp = all.iter().any(|t| {
            t.name == "meta" && t.attr("http-equiv").is_some_and(|v| v.eq_ignore_ascii_case("content-security-policy"))
        });
        if has_csp {
            continue;
        }
        let after = all
            .iter()
            .find(|t| t.name == "meta" && t.attr("charset").is_some())
            .or_else(|| all.iter().find(|t| t.name == "head"))
            .ok_or_else(|| format!("{}: no <head> to put the Content-Security-Policy in", file.display()))?;
        let meta = format!("\n    <meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\" />");
        write(&file, &format!("{}{meta}{}", &html[..after.end], &html[after.end..]))?;
    }
    Ok(())
}

/// The placeholder in `coordinator.js` that [`stamp_engine_build`] replaces.
const ENGINE_BUILD_PLACEHOLDER: &str = "const ENGINE_BUILD = 'dev';";

/// The engines' folders as the engine build writes them (and a development server serves them);
/// [`stamp_engine_build`] names each after the build: `engine-<build>/`, `engine-single-<build>/`.
pub const ENGINE_FOLDERS: [&str; 2] = ["engine", "engine-single"];

/// The folder of the engine `name` (one of [`ENGINE_FOLDERS`]) of a site stamped with `build`.
pub fn engine_folder(name: &str, build: &str) -> String {
    format!("{name}-{build}")
}

/// The build id a stamped site in `dir` carries (what [`stamp_engine_build`] returned), if any.
pub fn engine_build(dir: &Path) -> Result<Option<String>, String> {
    let index = read(&dir.join("index.html"))?;
    let meta = "<meta name=\"lab-engine-build\" content=\"";
    Ok(index.find(meta).map(|at| index[at + meta.len()..].chars().take_while(char::is_ascii_hexdigit).collect()))
}

/// Where the engine `name` (one of [`ENGINE_FOLDERS`]) is in the built site `dir`: its folder named
/// after the build, or the plain one in a site that is not stamped.
pub fn engine_dir(dir: &Path, name: &str) -> Result<PathBuf, String> {
    Ok(match engine_build(dir)? {
        Some(build) => dir.join(engine_folder(name, &build)),
        None => dir.join(name),
    })
}

/// Stamp the built site in `dir` with one build id of its engine (a hash of both engines' files):
/// written into each `coordinator.js`, which reports it when ready, and into every page as
/// `<meta name="lab-engine-build">`; then each engine's folder is named after it
/// ([`engine_folder`]), so its files are content-addressed like the app's: browsers keep them for
/// good and a warm visit asks for none of them, and a page only ever loads the engine of its own
/// build (one left open across a deployment finds its folder gone and says to reload). Returns the id.
pub fn stamp_engine_build(dir: &Path) -> Result<String, String> {
    let mut files = Vec::new();
    for folder in ENGINE_FOLDERS {
        files.extend(files_in(&dir.join(folder))?);
    }
    let build = format!("{:016x}", hash_files(dir, &files)?);
    for file in files.iter().filter(|f| f.file_name().is_some_and(|n| n == "coordinator.js")) {
        let code = read(file)?;
        if !code.contains(ENGINE_BUILD_PLACEHOLDER) {
            return Err(format!("{}: no `{ENGINE_BUILD_PLACEHOLDER}` to fill in", file.display()));
        }
        write(file, &code.replacen(ENGINE_BUILD_PLACEHOLDER, &format!("const ENGINE_BUILD = '{build}';"), 1))?;
    }
    for file in html_files(dir)? {
        let html = read(&file)?;
        if html.contains("name=\"lab-engine-build\"") {
            continue;
        }
        let head = tags(&html)
            .into_iter()
            .find(|t| t.name == "head")
            .ok_or_else(|| format!("{}: no <head> for the engine's build id", file.display()))?;
        let meta = format!("\n    <meta name=\"lab-engine-build\" content=\"{build}\" />");
        write(&file, &format!("{}{meta}{}", &html[..head.end], &html[head.end..]))?;
    }
    for folder in ENGINE_FOLDERS {
        let named = dir.join(engine_folder(folder, &build));
        let _ = std::fs::remove_dir_all(&named);
        std::fs::rename(dir.join(folder), &named).map_err(|e| format!("{}: {e}", named.display()))?;
    }
    Ok(build)
}

/// What the strict policy would block in a page: inline scripts, `<style>` elements, `style` and
/// `on…` attributes, `javascript:` URLs.
pub fn check_strict_page(html: &str) -> Result<(), String> {
    for tag in tags(html) {
        if tag.name == "script" && tag.attr("src").is_none() && is_javascript(tag.attr("type")) {
            return Err("an inline <script> is left".into());
        }
        if tag.name == "style" {
            return Err("an inline <style> element".into());
        }
        for (name, value) in &tag.attrs {
            if name == "style" || name.starts_with("on") {
                return Err(format!("a `{name}` attribute on <{}>", tag.name));
            }
            if value.as_deref().is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("javascript:")) {
                return Err(format!("a javascript: URL on <{}>", tag.name));
            }
        }
    }
    Ok(())
}

/// `index.html` with `<meta name="lab-service-worker">` set to on or off (added if missing).
fn service_worker_meta(html: &str, on: bool) -> String {
    let value = if on { "on" } else { "off" };
    let all = tags(html);
    match all.iter().find(|t| t.name == "meta" && t.attr("name") == Some("lab-service-worker")) {
        Some(tag) => {
            format!(
                "{}<meta name=\"lab-service-worker\" content=\"{value}\" />{}",
                &html[..tag.start],
                &html[tag.end..]
            )
        }
        None => match all.iter().find(|t| t.name == "head") {
            Some(head) => format!(
                "{}\n    <meta name=\"lab-service-worker\" content=\"{value}\" />{}",
                &html[..head.end],
                &html[head.end..]
            ),
            None => html.to_string(),
        },
    }
}

/// Write into the `sw.js` Trunk copied from `www/sw.js` what it needs to know of this build: the
/// precache list (every file of the output but `sw.js`, `_headers`, `404.html` and dotfiles), the
/// route pages (`route_pages`, relative to the base, "" for the landing page) and the patterns of the
/// content-addressed files, which are all it answers, the headers it adds ([`headers`]), and its
/// version: a hash of all that and of every listed file's name and contents, so any change to the
/// site installs a new version.
fn write_service_worker(out: &Path, route_pages: &[String], rules: &[headers::Rule]) -> Result<(), String> {
    let sw = out.join("sw.js");
    let mut code = read(&sw)?;
    let files = precache_list(out)?;
    let strings = |items: &[String]| items.iter().map(|f| format!("  {}", js_string(f))).collect::<Vec<_>>();
    let content_addressed: Vec<String> = CONTENT_ADDRESSED.iter().map(|p| js_string(p)).collect();
    let fills = [
        ("self.__PRECACHE = [];", format!("self.__PRECACHE = [\n{},\n];", strings(&files).join(",\n"))),
        ("self.__ROUTES = [];", format!("self.__ROUTES = [\n{},\n];", strings(route_pages).join(",\n"))),
        ("self.__CONTENT_ADDRESSED = [];", format!("self.__CONTENT_ADDRESSED = [{}];", content_addressed.join(", "))),
        ("self.__HEADERS = [];", format!("self.__HEADERS = {};", headers::service_worker_rules(rules))),
    ];
    for (placeholder, filled) in fills {
        if !code.contains(placeholder) {
            return Err(format!("{}: no `{placeholder}` to fill in", sw.display()));
        }
        code = code.replacen(placeholder, &filled, 1);
    }
    let mut hash = Fnv::new();
    hash.add(code.as_bytes());
    for file in &files {
        let bytes = std::fs::read(out.join(file)).map_err(|e| format!("{file}: {e}"))?;
        hash.add(file.as_bytes());
        hash.add(&(bytes.len() as u64).to_le_bytes());
        hash.add(&bytes);
    }
    let version_placeholder = "self.__VERSION = 'dev';";
    if !code.contains(version_placeholder) {
        return Err(format!("{}: no `{version_placeholder}` to fill in", sw.display()));
    }
    write(&sw, &code.replacen(version_placeholder, &format!("self.__VERSION = '{:016x}';", hash.0), 1))
}

/// Paths relative to `out` with `/`, sorted.
pub fn precache_list(out: &Path) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    walk(out, &mut files)?;
    let mut list: Vec<String> = files
        .iter()
        .filter_map(|f| f.strip_prefix(out).ok())
        .map(|f| f.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"))
        .filter(|f| !f.split('/').any(|part| part.starts_with('.')))
        .filter(|f| !["sw.js", "_headers", "404.html"].contains(&f.as_str()))
        // Route pages are copies of index.html (the service worker answers a route with it offline).
        .filter(|f| f == "index.html" || !f.ends_with("/index.html"))
        .collect();
    list.sort();
    Ok(list)
}

fn js_string(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// Empty `out` if an earlier run wrote it; refuse folders this command did not make.
fn prepare_output(built: &Path, out: &Path) -> Result<(), String> {
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let (built_c, out_c) = (canonical(built), canonical(out));
    if out_c.starts_with(&built_c) || built_c.starts_with(&out_c) {
        return Err(format!("--out {} overlaps the build in {}", out.display(), built.display()));
    }
    if out.exists() {
        let empty = std::fs::read_dir(out).map_err(|e| format!("{}: {e}", out.display()))?.next().is_none();
        if !empty && !out.join(MARKER).exists() {
            return Err(format!(
                "{} is not empty and was not written by `cargo xtask dist`; not touching it",
                out.display()
            ));
        }
        std::fs::remove_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))
}

/// Copy `from` into `to`, leaving out dotfiles (Trunk's `.trunk-lock`).
pub(crate) fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type().map_err(|e| e.to_string())?.is_dir() {
            copy_tree(&source, &target)?;
        } else {
            std::fs::copy(&source, &target).map_err(|e| format!("{}: {e}", source.display()))?;
        }
    }
    Ok(())
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        if entry.file_type().map_err(|e| e.to_string())?.is_dir() {
            walk(&entry.path(), files)?;
        } else {
            files.push(entry.path());
        }
    }
    Ok(())
}

fn html_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    walk(dir, &mut files)?;
    files.retain(|f| f.extension().is_some_and(|e| e == "html"));
    files.sort();
    Ok(files)
}

/// `../../` from the folder of `file` up to `top`.
fn relative_to_top(top: &Path, file: &Path) -> Result<String, String> {
    let folder = file.parent().and_then(|p| p.strip_prefix(top).ok()).ok_or("an HTML file outside the site")?;
    Ok("../".repeat(folder.components().count()))
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The `href` of the first `<base>`, e.g. `/` or `/repo/`.
fn base_href(html: &str) -> Option<String> {
    tags(html).into_iter().find(|t| t.name == "base").and_then(|t| t.attr("href").map(str::to_string))
}

/// Whether a `<script type=…>` runs as JavaScript (data blocks such as JSON do not).
fn is_javascript(kind: Option<&str>) -> bool {
    match kind.map(|k| k.trim().to_ascii_lowercase()) {
        None => true,
        Some(k) => ["", "module", "text/javascript", "application/javascript"].contains(&k.as_str()),
    }
}

/// One start tag: lowercase name, attributes (names lowercase), its byte range, and for `<script>`
/// and `<style>` the range of their text up to the end tag (then `end` is after `</script>`).
#[derive(Debug)]
struct Tag {
    name: String,
    attrs: Vec<(String, Option<String>)>,
    start: usize,
    end: usize,
    body: Option<std::ops::Range<usize>>,
}

impl Tag {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_deref().unwrap_or(""))
    }
}

/// The start tags of `html`, enough of HTML's tokeniser for pages Trunk writes: comments, quoted
/// attribute values, and the raw text of scripts and styles are skipped correctly.
fn tags(html: &str) -> Vec<Tag> {
    let bytes = html.as_bytes();
    let lower = html.to_ascii_lowercase();
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(offset) = html[i..].find('<') {
        let start = i + offset;
        if html[start..].starts_with("<!--") {
            i = html[start..].find("-->").map_or(html.len(), |e| start + e + 3);
            continue;
        }
        if !bytes.get(start + 1).is_some_and(u8::is_ascii_alphabetic) {
            i = start + 1;
            continue;
        }
        let mut j = start + 1;
        while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'-') {
            j += 1;
        }
        let name = lower[start + 1..j].to_string();
        let mut attrs = Vec::new();
        loop {
            while j < bytes.len() && (bytes[j].is_ascii_whitespace() || bytes[j] == b'/') {
                j += 1;
            }
            if j >= bytes.len() || bytes[j] == b'>' {
                break;
            }
            let name_start = j;
            while j < bytes.len() && !bytes[j].is_ascii_whitespace() && !b"=>/".contains(&bytes[j]) {
                j += 1;
            }
            let attr = lower[name_start..j].to_string();
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            let mut value = None;
            if bytes.get(j) == Some(&b'=') {
                j += 1;
                while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                    j += 1;
                }
                let value_start;
                if let Some(&quote @ (b'"' | b'\'')) = bytes.get(j) {
                    value_start = j + 1;
                    j = html[value_start..].find(quote as char).map_or(html.len(), |e| value_start + e);
                    value = Some(html[value_start..j].to_string());
                    j = (j + 1).min(html.len());
                } else {
                    value_start = j;
                    while j < bytes.len() && !bytes[j].is_ascii_whitespace() && bytes[j] != b'>' {
                        j += 1;
                    }
                    value = Some(html[value_start..j].to_string());
                }
            }
            attrs.push((attr, value));
        }
        let open_end = (j + 1).min(html.len());
        let (end, body) = if name == "script" || name == "style" {
            let close = lower[open_end..].find(&format!("</{name}")).map_or(html.len(), |e| open_end + e);
            let end = html[close..].find('>').map_or(html.len(), |e| close + e + 1);
            (end, Some(open_end..close))
        } else {
            (open_end, None)
        };
        found.push(Tag { name, attrs, start, end, body });
        i = end;
    }
    found
}

/// 64-bit FNV-1a: a stable, dependency-free hash for file names and versions (not for security).
pub(crate) struct Fnv(pub(crate) u64);

impl Fnv {
    pub(crate) fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    pub(crate) fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// The files directly in `folder` (not in its subfolders), sorted.
pub(crate) fn files_in(folder: &Path) -> Result<Vec<PathBuf>, String> {
    let listed = std::fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let mut files: Vec<PathBuf> = listed.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
    files.sort();
    Ok(files)
}

/// A hash of `files`, in their order: each one's path below `base` and its bytes. A content hash
/// to name a build by (the engines' build id, the UI's folder).
pub(crate) fn hash_files(base: &Path, files: &[PathBuf]) -> Result<u64, String> {
    let mut hash = Fnv::new();
    for file in files {
        hash.add(file.strip_prefix(base).unwrap_or(file).to_string_lossy().as_bytes());
        hash.add(&std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?);
    }
    Ok(hash.0)
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = Fnv::new();
    hash.add(bytes);
    hash.0
}

#[cfg(test)]
mod tests;
