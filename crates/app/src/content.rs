//! Chapter prose, rendered from `content/<lang>/*.md` to HTML by the build script.

/// A chapter's text in one language.
pub struct ChapterText {
    pub lang: &'static str,
    pub slug: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
    pub sections: &'static [Section],
}

/// A piece of a chapter: prose (trusted HTML made from our own Markdown) or a live experiment.
pub enum Section {
    Prose(&'static str),
    Experiment(&'static str),
}

include!(concat!(env!("OUT_DIR"), "/texts.rs"));

/// The slug of the landing page's text, which is not a chapter.
pub const LANDING: &str = "index";

/// The slug of the glossary's text (its own page, `/glossary`), which is not a chapter either.
pub const GLOSSARY: &str = "glossary";

/// Whether `slug` names a chapter (not the landing text or the glossary).
pub fn is_chapter(slug: &str) -> bool {
    slug != LANDING && slug != GLOSSARY
}

/// One chapter's text in `lang`.
pub fn chapter(lang: &str, slug: &str) -> Option<&'static ChapterText> {
    TEXTS.iter().find(|c| c.lang == lang && c.slug == slug)
}

/// All chapters in `lang`, in reading order (the landing text and the glossary excluded).
pub fn chapters(lang: &str) -> impl Iterator<Item = &'static ChapterText> + '_ {
    TEXTS.iter().filter(move |c| c.lang == lang && is_chapter(c.slug))
}
