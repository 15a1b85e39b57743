//! Routed pages: the landing page, a chapter, the glossary and "How the lab works", and "not found"; `text` the body they
//! share (prose fetched on demand, panels in place).

pub mod chapter;
pub mod embed;
pub mod glossary;
pub mod landing;
pub mod not_found;
pub mod text;

/// Whether this page is an embed view (no site chrome, reports its height to the parent frame).
pub fn is_embed() -> bool {
    web_sys::window().and_then(|w| w.location().pathname().ok()).is_some_and(|p| p.contains("/embed/"))
}

/// Set the document title to "`title` · Concurrency Lab" and its description to `description`
/// (what a search result or a shared link's preview shows), both in the page's language.
pub fn set_title_and_description(title: &str, description: &str) {
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        let site = crate::i18n::ui().site_name;
        document.set_title(&if title == site { site.to_string() } else { format!("{title} · {site}") });
        if let Ok(Some(meta)) = document.query_selector("meta[name=description]") {
            let _ = meta.set_attribute("content", description);
        }
    }
}
