//! Links inside the site, under whatever path it is served from (its `<base href>`).
//!
//! The router's `<A>` leaves paths that start with `/` as they are, so on a project site served
//! under `/repo/` every internal link must carry that prefix itself: build them with [`site_path`].

/// The path the site is served under, e.g. "/lab" on a project page; "" at the root.
pub fn base_path() -> String {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .and_then(|uri| web_sys::Url::new(&uri).ok())
        .map(|url| url.pathname())
        .unwrap_or_default();
    base.trim_end_matches('/').to_string()
}

/// `path` (starting with `/`, as the routes are written) under the site's base path.
pub fn site_path(path: &str) -> String {
    format!("{}{path}", base_path())
}

/// A chapter's page.
pub fn chapter(slug: &str) -> String {
    site_path(&format!("/chapters/{slug}"))
}
