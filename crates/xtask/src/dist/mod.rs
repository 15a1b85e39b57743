//! `cargo xtask dist`: the built site made deployable on any static host.
//!
//! It copies Trunk's `dist/` to an output folder (default `target/site`) and there adds what a plain
//! static host needs: a copy of `index.html` at every route so deep links load without server
//! rewrites (and `404.html` for the rest), a strict Content-Security-Policy with Trunk's inline
//! start-up script moved into a file, `_headers` for Netlify and Cloudflare Pages ([`headers`]), and
//! the service worker that isolates pages on hosts that cannot send headers (GitHub Pages) and keeps
//! the whole site working offline, with its precache list, the site's routes and headers, and its
//! version written in.
//!
//! The site is built once, for `/` (`dist/`, which `cargo xtask serve` and the tests use); a site
//! for another public URL is that build with its pages moved under the path ([`rebase`](mod@rebase)).
//!
//! Each job has its module: the strict page ([`strict_page`]), the move to a public URL
//! ([`rebase`](mod@rebase)), the routes and what each route's page carries ([`routes`](mod@routes)),
//! the engines' build ([`engine_build`]), the service worker ([`service_worker`]), the headers and
//! which files browsers may keep for good ([`headers`]), oEmbed ([`oembed`]), and file helpers
//! ([`files`]).

mod engine_build;
mod files;
pub mod headers;
pub mod oembed;
mod rebase;
mod routes;
mod service_worker;
mod strict_page;

pub use engine_build::{engine_dir, stamp_engine_build};
pub(crate) use files::{copy_tree, files_in, hash_files, Fnv};
pub use headers::write_headers_file;
pub use routes::{interface_texts, language_route, routes};
pub use strict_page::{add_csp, externalise_inline_scripts};

use crate::shell::{options, root};
use files::{read, write};
use headers::check_content_addressed;
use rebase::rebase;
use routes::{
    alternates, experiments_of_route, languages, page_in_language, preload, preload_panel_code, preload_prose,
    prose_of_route, titled,
};
use service_worker::{service_worker_meta, write_service_worker};
use std::path::Path;
use strict_page::{base_href, check_strict_page};

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

/// Build the site (into `dist/`, for `/`) and package it for `public_url` into `out`.
pub fn build_site(out: &Path, public_url: &str, site: Option<&str>) -> Result<(), String> {
    crate::site::build()?;
    package_for(&root().join("dist"), out, public_url, site)
}

/// Make the Trunk output in `built` deployable in `out` (replaced if it holds an earlier output),
/// under the public URL it was built for. Needs no tools: `cargo xtask test` can call it right
/// after its own build.
pub fn package(built: &Path, out: &Path) -> Result<(), String> {
    let template = read(&built.join("index.html"))?;
    let base = base_href(&template).ok_or("dist/index.html has no <base href>; is it Trunk's output?")?;
    package_for(built, out, &base, None)
}

/// [`package`] under the public URL `public_url` (a path ending in `/`: the build's pages are moved
/// there, [`rebase`]), and with the site's public address (`site`, ending in `/`) also the oEmbed
/// answers and their discovery links ([`oembed`]).
pub fn package_for(built: &Path, out: &Path, public_url: &str, site: Option<&str>) -> Result<(), String> {
    prepare_output(built, out)?;
    copy_tree(built, out)?;
    rebase(out, public_url)?;
    let template = read(&out.join("index.html"))?;
    let base = base_href(&template).ok_or("dist/index.html has no <base href>; is it Trunk's output?")?;
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

#[cfg(test)]
mod tests;
