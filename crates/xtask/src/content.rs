//! The chapters of `content/<lang>/` as xtask needs them: slug, title, summary and order, read from
//! each file's front matter (the app's `build.rs` renders the prose itself).

use std::path::Path;

/// One chapter: its file's slug and its front matter.
#[derive(Clone, Debug, PartialEq)]
pub struct Chapter {
    pub slug: String,
    pub title: String,
    pub summary: String,
    pub order: i64,
}

/// The chapters of `content/<lang>` in chapter order (every `.md` file but `index.md` and the pages
/// of their own, [`prose::PAGES`]).
pub fn chapters(content_lang: &Path) -> Result<Vec<Chapter>, String> {
    let mut chapters = Vec::new();
    let entries = std::fs::read_dir(content_lang).map_err(|e| format!("{}: {e}", content_lang.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        let slug = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        // The landing page, the glossary and "How the lab works" are pages of the site, not chapters.
        if !prose::is_text(&path) || slug == "index" || prose::PAGES.contains(&slug.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let field =
            |key: &str| front_matter(&text, key).ok_or(format!("{}: no `{key}:` in its front matter", path.display()));
        let Ok(order) = field("order")?.parse() else {
            return Err(format!("{}: its `order:` is not a number", path.display()));
        };
        chapters.push(Chapter { slug, title: field("title")?, summary: field("summary")?, order });
    }
    chapters.sort_by_key(|c| c.order);
    Ok(chapters)
}

/// `key: value` from the front matter between the first two `---` lines.
fn front_matter(text: &str, key: &str) -> Option<String> {
    let mut lines = text.lines();
    if lines.next()?.trim() != "---" {
        return None;
    }
    lines
        .take_while(|l| l.trim() != "---")
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':').map(|v| v.trim().to_string()))
}
