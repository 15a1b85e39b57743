//! The service worker: the page's switch for it, and what `cargo xtask dist` writes into `sw.js` for
//! the build (its precache list, route pages, header rules and version).

use super::files::{read, walk, write, Fnv};
use super::headers::{self, CONTENT_ADDRESSED};
use super::strict_page::tags;
use std::path::Path;

/// `index.html` with `<meta name="lab-service-worker">` set to on or off (added if missing).
pub(super) fn service_worker_meta(html: &str, on: bool) -> String {
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
pub(super) fn write_service_worker(out: &Path, route_pages: &[String], rules: &[headers::Rule]) -> Result<(), String> {
    let sw = out.join("sw.js");
    let mut code = read(&sw)?;
    let files = precache_list(out)?;
    let strings = |items: &[String]| items.iter().map(|f| format!("  {}", js_string(f))).collect::<Vec<_>>();
    let content_addressed: Vec<String> = CONTENT_ADDRESSED.iter().map(|p| js_string(p)).collect();
    let fills = [
        ("self.__PRECACHE = [];", format!("self.__PRECACHE = [\n{},\n];", strings(&files).join(",\n"))),
        ("self.__ROUTES = [];", format!("self.__ROUTES = [\n{},\n];", strings(route_pages).join(",\n"))),
        ("self.__CONTENT_ADDRESSED = [];", format!("self.__CONTENT_ADDRESSED = [{}];", content_addressed.join(", "))),
        ("self.__HASHED = '';", format!("self.__HASHED = {};", js_string(headers::HASHED))),
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
