//! One build, any public URL: the site Trunk built for `/` moved under another path (`/lab/`, as a
//! GitHub project page serves it) without building it again.
//!
//! Of a built site only its pages name the path it is served under: Trunk writes the public URL
//! into `<base href>` and in front of the files it links (the style sheet, the icon), the app's
//! build hook in front of the module it preloads, and the strict page in front of the start-up
//! script it moved into a file (`init-<hash>.js`). Everything else finds its files relative to
//! something: the start-up script imports the app relative to itself
//! ([`crate::app_build::with_start_up`]), the app, `register-sw.js` and `keep.js` read the page's
//! base, the app's and the engines' scripts load their modules relative to their own address, and
//! the service worker, `_headers` and the route pages are written by `cargo xtask dist` for the
//! base the page has by then. So moving a site is rewriting, in each page, the `href` and `src`
//! values that start at the old base; [`rebase`] refuses a site where anything else would still
//! point outside the new one (a root-absolute address outside the old base, a style sheet's
//! `url(/…)`), and `e2e/tests/deploy.test.mjs` serves the moved site under `/lab/` and fails on any
//! request outside it.

use super::files::{html_files, read, walk, write};
use super::strict_page::{base_href, tags};
use std::path::Path;

/// The attributes of a page that hold an address of the site.
const ADDRESS_ATTRIBUTES: [&str; 2] = ["href", "src"];

/// Move every page of the built site in `dir` from its `<base href>` to `to` (a path ending in `/`,
/// as `normalise_public_url` makes it): `<base href>` itself and every `href`/`src` that starts at
/// the old base. `Err` if a page has no `<base>` or names a root-absolute address outside its base,
/// or a style sheet refers to one (`url(/…)`): those would not follow the site.
pub fn rebase(dir: &Path, to: &str) -> Result<(), String> {
    for file in html_files(dir)? {
        let html = read(&file)?;
        let moved = rebase_page(&html, to).map_err(|e| format!("{}: {e}", file.display()))?;
        if moved != html {
            write(&file, &moved)?;
        }
    }
    let mut files = Vec::new();
    walk(dir, &mut files)?;
    for sheet in files.iter().filter(|f| f.extension().is_some_and(|e| e == "css")) {
        let css = read(sheet)?.replace(['"', '\'', ' '], "");
        if css.contains("url(/") {
            return Err(format!(
                "{}: a root-absolute url(/…), which would not follow the site to {to}",
                sheet.display()
            ));
        }
    }
    Ok(())
}

/// `html` with its `<base href>` and every address under it moved to `to`.
pub(super) fn rebase_page(html: &str, to: &str) -> Result<String, String> {
    let from = base_href(html).ok_or("no <base href> to move")?;
    if !from.starts_with('/') || !from.ends_with('/') {
        return Err(format!("<base href=\"{from}\"> is not a path ending in `/`"));
    }
    let mut out = String::with_capacity(html.len() + 64);
    let mut copied = 0;
    for tag in tags(html) {
        // The start tag only: a script's text is not an attribute.
        let open_end = tag.body.as_ref().map_or(tag.end, |body| body.start);
        let mut open = html[tag.start..open_end].to_string();
        for (name, value) in &tag.attrs {
            let Some(value) = value.as_deref() else { continue };
            if !ADDRESS_ATTRIBUTES.contains(&name.as_str()) || !value.starts_with('/') || value.starts_with("//") {
                continue;
            }
            let rest = value
                .strip_prefix(from.as_str())
                .or((value.to_string() + "/" == from).then_some(""))
                .ok_or_else(|| {
                    format!("<{} {name}=\"{value}\"> is outside the page's base {from}: it would not move", tag.name)
                })?;
            let moved = format!("{to}{rest}");
            // The attribute as written (`name="value"`, quoted either way or not at all; the name
            // in any case), replaced by the moved value in the same quotes.
            let lower = open.to_ascii_lowercase();
            let (at, quote) = ["\"", "'", ""]
                .iter()
                .find_map(|quote| {
                    let written = format!("{name}={quote}{value}{quote}").to_ascii_lowercase();
                    let mut found = lower.match_indices(&written).map(|(at, _)| at);
                    found.find(|&at| lower.as_bytes()[at - 1].is_ascii_whitespace()).map(|at| (at, *quote))
                })
                .ok_or_else(|| format!("<{} {name}=\"{value}\">: could not find the value to move", tag.name))?;
            let written = format!("{name}={quote}{value}{quote}").len();
            let name_as_written = open[at..at + name.len()].to_string();
            open.replace_range(at..at + written, &format!("{name_as_written}={quote}{moved}{quote}"));
        }
        out.push_str(&html[copied..tag.start]);
        out.push_str(&open);
        copied = open_end;
    }
    out.push_str(&html[copied..]);
    Ok(out)
}
