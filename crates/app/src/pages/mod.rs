//! Routed pages: the landing page, a chapter, and "not found".

pub mod chapter;
pub mod landing;
pub mod not_found;

/// Set the document title to "`title` · Concurrency Lab".
pub fn set_title(title: &str) {
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        let site = crate::i18n::ui().site_name;
        document.set_title(&if title == site { site.to_string() } else { format!("{title} · {site}") });
    }
}
