//! What the app knows of the site's texts before any prose is fetched: each text's title, summary,
//! experiments and prose file. English is compiled in by the build script from `content/en/*.md`;
//! another language's come in the file its page fetches before it starts ([`load`], from
//! `i18n::load_table`). The prose itself is fetched when a page shows it ([`crate::prose`]).

use experiments::catalog::ExperimentId;
/// A text (a chapter, the landing text, the glossary or "How the lab works") in the page's language.
pub struct ChapterText {
    pub slug: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
    /// The experiments it places, in its order (the `<!-- experiment: NAME -->` markers; every
    /// language places the same ones, which the build checks).
    pub experiments: &'static [ExperimentId],
    /// Its prose file, relative to the site's base URL (`content/en/sum-<hash>.json`).
    pub prose: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/texts.rs"));

/// The page's texts when its language is not English, once [`load`] has read them.
static LOADED: std::sync::OnceLock<Vec<ChapterText>> = std::sync::OnceLock::new();

/// Read the page's texts from its language's fetched file: each English text's entry under
/// [`ui_text::text_key`], `[title, summary, prose file]`. `Err` names the first missing one.
pub fn load(entry: &mut dyn FnMut(&str) -> Option<Vec<String>>) -> Result<(), String> {
    let leak = |text: String| -> &'static str { Box::leak(text.into_boxed_str()) };
    let mut texts = Vec::with_capacity(TEXTS.len());
    for english in TEXTS {
        let key = ui_text::text_key(english.slug);
        let [title, summary, prose]: [String; 3] =
            entry(&key).and_then(|e| e.try_into().ok()).ok_or_else(|| format!("no `{key}`"))?;
        texts.push(ChapterText {
            slug: english.slug,
            title: leak(title),
            summary: leak(summary),
            experiments: english.experiments,
            prose: leak(prose),
        });
    }
    let _ = LOADED.set(texts);
    Ok(())
}

/// The page's texts: its language's once loaded, else English (as the interface falls back).
fn texts() -> &'static [ChapterText] {
    LOADED.get().map_or(TEXTS, Vec::as_slice)
}

/// The slug of the landing page's text, which is not a chapter.
pub const LANDING: &str = "index";

/// The slug of the glossary's text (its own page, `/glossary`), which is not a chapter either.
pub const GLOSSARY: &str = "glossary";

/// The slug of "How the lab works" (its own page, `/how-the-lab-works`): the browser plumbing the
/// chapters link to instead of explaining it again. Not a chapter either.
pub const HOW_THE_LAB_WORKS: &str = "how-the-lab-works";

/// Whether `slug` names a chapter (not the landing text, the glossary or "How the lab works").
pub fn is_chapter(slug: &str) -> bool {
    slug != LANDING && slug != GLOSSARY && slug != HOW_THE_LAB_WORKS
}

/// One text of the page's language.
pub fn chapter(slug: &str) -> Option<&'static ChapterText> {
    texts().iter().find(|c| c.slug == slug)
}

/// All chapters of the page's language, in reading order (the landing text, the glossary and "How
/// the lab works" excluded).
pub fn chapters() -> impl Iterator<Item = &'static ChapterText> {
    texts().iter().filter(|c| is_chapter(c.slug))
}
