//! The headers the site is served with, defined once. From these rules `cargo xtask build` and
//! `cargo xtask dist` write `_headers` (Netlify, Cloudflare Pages), `cargo xtask dist` writes them
//! into the service worker (which adds them on hosts that send none, GitHub Pages), and a test holds
//! the dev server's `[serve.headers]` (Trunk.toml) to them.
//!
//! A host that reads `_headers` gives a path every matching rule's headers, in the file's order, and
//! joins a header named by two rules with `, ` (Cloudflare Pages documents this; Netlify's own parser
//! joins a name given twice in one rule so). No rule here needs to take a header away, which
//! `_headers` can only do on Cloudflare: a Content-Security-Policy given twice is two policies, each
//! enforced, so embeds add a policy of their own (`frame-ancestors *`) instead of replacing the site's.
//!
//! Here too is the caching: browsers may keep the files named after their content for good
//! ([`CONTENT_ADDRESSED`], [`FOREVER`]), and `cargo xtask dist` fails if a file those patterns match
//! carries no content hash ([`check_content_addressed`]).

use super::files::{self, walk};
use super::routes::{language_route, languages};
use crate::shell::root;
#[cfg(test)]
use std::collections::BTreeMap;
use std::path::Path;

/// The policy every deployed page carries in a `<meta>`, and every response as a header.
/// `frame-ancestors` is not here: browsers ignore it in a `<meta>` (Chromium logs a console error),
/// and it differs between embeds and the rest ([`EMBED_FRAMING`], [`NOT_FRAMED`]).
pub const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
                       img-src 'self' data:; connect-src 'self'; worker-src 'self'; base-uri 'self'; \
                       form-action 'none'; object-src 'none'";

/// Sent with every response of the site: cross-origin isolation, which threads need, and no
/// guessing of a file's type from its bytes.
pub const EVERY_RESPONSE: [(&str, &str); 4] = [
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Embedder-Policy", "require-corp"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
    ("X-Content-Type-Options", "nosniff"),
];

/// No page may frame a page of the site, the site's own pages included (none frames another): sent
/// with every response. Embeds are framed all the same: a policy with `frame-ancestors` makes
/// browsers ignore `X-Frame-Options` (CSP Level 3, "Relation to X-Frame-Options"), and embeds carry
/// [`EMBED_FRAMING`]. A `frame-ancestors 'none'` here would do the same for the other pages, but
/// would reach the embeds too, as a second policy that [`EMBED_FRAMING`] cannot relax.
pub const NOT_FRAMED: (&str, &str) = ("X-Frame-Options", "DENY");

/// Embeds (`embed/…` in every language) may be framed by any page: course pages do.
pub const EMBED_FRAMING: &str = "frame-ancestors *";

/// Embeds run inside course pages that are not isolated: Chromium (137+) isolates such a document
/// on its own when it says so.
pub const EMBED_ISOLATION: (&str, &str) = ("Document-Isolation-Policy", "isolate-and-require-corp");

/// The site's files that are named after a hash of their content, as patterns under the base
/// (`*` matches anything, as in `_headers`): the split UI's folder, the prose and interface tables,
/// and what Trunk hashes. A new build names new files, so a browser may keep these for good.
/// The engines' folders are named after their build (`engine-<build>/`, `engine-single-<build>/`).
pub const CONTENT_ADDRESSED: [&str; 7] =
    ["app-*", "engine-*", "content/*", "ui/*", "init-*.js", "style-*.css", "favicon-*.svg"];

/// What a browser may do with a [`CONTENT_ADDRESSED`] file: keep it a year without asking again.
pub const FOREVER: &str = "public, max-age=31536000, immutable";

/// One rule of `_headers`: a path pattern (`*` matches anything, `/` included) and its headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub pattern: String,
    pub headers: Vec<(String, String)>,
}

impl Rule {
    fn new(pattern: String, headers: &[(&str, &str)]) -> Rule {
        Rule { pattern, headers: headers.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect() }
    }
}

/// Where each embed route lives: `embed/*` for English, `<tag>/embed/*` for the other languages.
pub fn embed_patterns(languages: &[String]) -> Vec<String> {
    languages.iter().map(|lang| format!("{}/*", language_route(lang, "embed"))).collect()
}

/// The site's rules, their patterns relative to its base: every response's headers and policy, the
/// embeds' framing and isolation, and a year's caching of the files named after their content.
pub fn rules(languages: &[String]) -> Vec<Rule> {
    let mut every: Vec<(&str, &str)> = EVERY_RESPONSE.to_vec();
    every.extend([("Content-Security-Policy", CSP), NOT_FRAMED]);
    let mut rules = vec![Rule::new("*".into(), &every)];
    for pattern in embed_patterns(languages) {
        rules.push(Rule::new(pattern, &[("Content-Security-Policy", EMBED_FRAMING), EMBED_ISOLATION]));
    }
    for pattern in CONTENT_ADDRESSED {
        rules.push(Rule::new(pattern.into(), &[("Cache-Control", FOREVER)]));
    }
    rules
}

/// The headers a host following `rules` sends for `path` (under the same base as the patterns):
/// every matching rule's, in order, a name given twice joined by `, `. (What the tests hold the
/// dev server and the rules themselves to; the service worker does the same in JavaScript.)
#[cfg(test)]
pub fn for_path(rules: &[Rule], path: &str) -> BTreeMap<String, String> {
    let mut headers = BTreeMap::new();
    for rule in rules.iter().filter(|rule| matches_pattern(&rule.pattern, path)) {
        for (name, value) in &rule.headers {
            headers
                .entry(name.clone())
                .and_modify(|joined: &mut String| {
                    joined.push_str(", ");
                    joined.push_str(value);
                })
                .or_insert_with(|| value.clone());
        }
    }
    headers
}

/// `rules` as a `_headers` file for a site under `base` (`/` or `/repo/`).
pub fn write(base: &str, rules: &[Rule]) -> String {
    let mut text = String::from(
        "# Written by `cargo xtask build` and `cargo xtask dist` from crates/xtask/src/dist/headers.rs, which\n\
         # the service worker and the dev server (Trunk.toml) follow too: edit that, not this file.\n\
         # A path gets every matching rule's headers; a name given twice is joined by \", \" (for the\n\
         # Content-Security-Policy: two policies, both enforced).\n",
    );
    for rule in rules {
        text.push_str(&format!("{base}{}\n", rule.pattern));
        for (name, value) in &rule.headers {
            text.push_str(&format!("  {name}: {value}\n"));
        }
    }
    text
}

/// Write the site's `_headers` (Netlify, Cloudflare Pages) into the built site `dir`, for the base `/`.
pub fn write_headers_file(dir: &Path) -> Result<(), String> {
    let languages = languages(&root().join("content"))?;
    files::write(&dir.join("_headers"), &write("/", &rules(&languages)))
}

/// The rules of a `_headers` file (its patterns as written, with the base), comments and blank
/// lines skipped: what the tests read back.
#[cfg(test)]
pub fn parse(text: &str) -> Vec<Rule> {
    let mut rules: Vec<Rule> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#')) {
        if !line.starts_with(char::is_whitespace) {
            rules.push(Rule { pattern: line.trim().to_string(), headers: Vec::new() });
        } else if let (Some(rule), Some((name, value))) = (rules.last_mut(), line.split_once(':')) {
            rule.headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    rules
}

/// What the service worker adds to a response it hands out, as JavaScript (an array of
/// `{pattern, headers}`, patterns relative to its scope): the rules but their caching, which is about
/// the browser's HTTP cache, where the worker's answers never go (it keeps its own copy).
pub fn service_worker_rules(rules: &[Rule]) -> String {
    let rules: Vec<serde_json::Value> = rules
        .iter()
        .filter_map(|rule| {
            let headers: serde_json::Map<String, serde_json::Value> = rule
                .headers
                .iter()
                .filter(|(name, _)| name != "Cache-Control")
                .map(|(name, value)| (name.clone(), value.clone().into()))
                .collect();
            (!headers.is_empty()).then(|| serde_json::json!({ "pattern": rule.pattern, "headers": headers }))
        })
        .collect();
    serde_json::to_string_pretty(&rules).expect("JSON of strings")
}

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

/// A path that carries a content hash, as a regular expression over `/` and the path: `-` and 16 hex
/// digits ending a folder's name, or a file's name before its extension (`app_bg.wasm`'s `_bg`
/// allowed). The service worker is given this very text (`self.__HASHED`), so both agree.
pub const HASHED: &str = r"-[0-9a-f]{16}(/|(_bg)?\.[a-z0-9]+$)";

/// Whether `path` (relative to the site) carries a content hash ([`HASHED`]).
pub(super) fn carries_hash(path: &str) -> bool {
    thread_local! {
        static PATTERN: regex::Regex = regex::Regex::new(HASHED).expect("HASHED is a regular expression");
    }
    PATTERN.with(|pattern| pattern.is_match(&format!("/{path}")))
}

/// Fail if a file the headers will let browsers keep for good is not named after its content:
/// a later build could change it under the same name, and readers would keep the old one.
pub(super) fn check_content_addressed(out: &Path) -> Result<(), String> {
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
