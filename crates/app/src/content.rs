//! What the app knows of the site's texts without fetching anything: each text's title, summary and
//! experiments in every language, compiled in by the build script from `content/<lang>/*.md`. The
//! prose itself is fetched when a page shows it ([`crate::prose`]).

/// A text (a chapter, the landing text or the glossary) in one language.
pub struct ChapterText {
    pub lang: &'static str,
    pub slug: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
    /// The experiments it places, in its order (the `<!-- experiment: NAME -->` markers).
    pub experiments: &'static [&'static str],
    /// Its prose file, relative to the site's base URL (`content/en/sum-<hash>.json`).
    pub prose: &'static str,
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
