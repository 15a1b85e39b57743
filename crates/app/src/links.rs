//! Links inside the site, under whatever path it is served from (its `<base href>`) and in the
//! page's language (English at the root, the others under `/ru/`, `/zh/`, `/ja/`, `/hi/`).
//!
//! The router's `<A>` leaves paths that start with `/` as they are, so on a project site served
//! under `/repo/` every internal link must carry that prefix itself: build them with [`site_path`].

use crate::i18n::{lang, Lang};

/// The path the site itself is served under, e.g. "/lab" on a project page; "" at the root.
fn site_root_path() -> String {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .and_then(|uri| web_sys::Url::new(&uri).ok())
        .map(|url| url.pathname())
        .unwrap_or_default();
    base.trim_end_matches('/').to_string()
}

/// The language this address is in: the first path segment under the site's root, if it names
/// one (`/lab/ru/chapters/sum` → Russian), else English.
pub fn language_in_address() -> Lang {
    let path = web_sys::window().and_then(|w| w.location().pathname().ok()).unwrap_or_default();
    let root = site_root_path();
    let rest = path.strip_prefix(&root).unwrap_or(&path);
    language_of_path(rest)
}

/// The language named by the first segment of `path` (a path under the site's root).
fn language_of_path(path: &str) -> Lang {
    let first = path.trim_start_matches('/').split('/').next().unwrap_or_default();
    Lang::ALL.into_iter().find(|l| *l != Lang::En && l.tag() == first).unwrap_or(Lang::En)
}

/// `path` (under the site's root) with its language segment, if any, replaced for `to`. Always a
/// path on this site: slashes at its start become one, so an address like `/ru//evil.example/`
/// cannot turn into the other site's address `//evil.example/`.
fn path_in(path: &str, to: Lang) -> String {
    let from = language_of_path(path);
    let rest = if from == Lang::En { path } else { &path[from.tag().len() + 1..] };
    let rest = &format!("/{}", rest.trim_start_matches(['/', '\\']));
    match to {
        Lang::En => rest.to_string(),
        _ => format!("/{}{rest}", to.tag()),
    }
}

/// The path the router works under: the site's root and the page's language, e.g. "/lab/ru".
pub fn base_path() -> String {
    let prefix = match lang() {
        Lang::En => String::new(),
        other => format!("/{}", other.tag()),
    };
    format!("{}{prefix}", site_root_path())
}

/// `path` (starting with `/`, as the routes are written) under the site's base path, in the page's language.
pub fn site_path(path: &str) -> String {
    format!("{}{path}", base_path())
}

/// A chapter's page.
pub fn chapter(slug: &str) -> String {
    site_path(&format!("/chapters/{slug}"))
}

/// This page's address (path, query and fragment) in language `to`: what the language switcher
/// links to, so the reader keeps the chapter and the settings.
pub fn this_page_in(to: Lang) -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return site_path("/") };
    let path = location.pathname().unwrap_or_default();
    let root = site_root_path();
    let under_root = path.strip_prefix(&root).unwrap_or(&path);
    format!(
        "{root}{}{}{}",
        path_in(under_root, to),
        location.search().unwrap_or_default(),
        location.hash().unwrap_or_default()
    )
}

/// The absolute URL of the site's root in the page's language, with a trailing slash (what
/// shared links and embed snippets start with).
pub fn language_root_url() -> String {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_else(|| "/".into());
    match lang() {
        Lang::En => root,
        other => format!("{root}{}/", other.tag()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_segment_names_the_language() {
        assert_eq!(language_of_path("/ru/chapters/sum"), Lang::Ru);
        assert_eq!(language_of_path("/hi"), Lang::Hi);
        assert_eq!(language_of_path("/chapters/sum"), Lang::En);
        assert_eq!(language_of_path("/en/chapters/sum"), Lang::En);
        assert_eq!(language_of_path("/russian/x"), Lang::En);
        assert_eq!(language_of_path("/"), Lang::En);
    }

    #[test]
    fn a_path_moves_between_languages() {
        assert_eq!(path_in("/chapters/sum", Lang::Ru), "/ru/chapters/sum");
        assert_eq!(path_in("/ru/chapters/sum", Lang::Ja), "/ja/chapters/sum");
        assert_eq!(path_in("/ru/chapters/sum", Lang::En), "/chapters/sum");
        assert_eq!(path_in("/ru", Lang::En), "/");
        assert_eq!(path_in("/ru/", Lang::En), "/");
        assert_eq!(path_in("/", Lang::Zh), "/zh/");
        assert_eq!(path_in("/embed/experiments/sum", Lang::Hi), "/hi/embed/experiments/sum");
    }

    #[test]
    fn a_path_never_becomes_another_sites_address() {
        assert_eq!(path_in("/ru//evil.example/", Lang::En), "/evil.example/");
        assert_eq!(path_in("//evil.example/x", Lang::Ru), "/ru/evil.example/x");
        assert_eq!(path_in("/ru/\\evil.example/", Lang::En), "/evil.example/");
        assert_eq!(path_in("/ru///", Lang::En), "/");
    }
}
