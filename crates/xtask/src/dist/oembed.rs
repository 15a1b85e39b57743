//! oEmbed for the deployed site (`cargo xtask dist --site URL`): a static oEmbed JSON for every
//! chapter and every embed route, and in each route's page the discovery link to it, so WordPress,
//! Moodle's oEmbed filter and similar tools turn a pasted link into the lab's iframe.
//!
//! oEmbed answers carry absolute addresses (the HTML is pasted into another site), so they need the
//! site's public address; without `--site` none are written. The files sit at
//! `oembed/<route with / as ->.json`; a chapter page's answer embeds `embed/chapters/<slug>`, an
//! embed page's answer embeds itself. Every language's pages have their own answers
//! (`oembed/ru-chapters-sum.json` embeds `ru/embed/chapters/sum`), titled in that language.

use super::language_route;
use crate::content::{chapters, Chapter};
use serde::Serialize;
use std::path::Path;
use ui_text::Ui;
/// Starting heights of an embedded chapter and experiment (the iframe then posts its real height).
pub const CHAPTER_HEIGHT: u32 = 1600;
const EXPERIMENT_HEIGHT: u32 = 900;
/// The width an oEmbed consumer is told (the iframe itself is 100% wide).
const WIDTH: u32 = 960;

/// One oEmbed answer, type `rich` (oEmbed 1.0, section 2.3.4.4).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Answer {
    pub version: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub provider_name: String,
    pub provider_url: String,
    pub html: String,
    pub width: u32,
    pub height: u32,
}

/// Where a route's answer is written, relative to the site's top.
pub fn answer_path(route: &str) -> String {
    format!("oembed/{}.json", route.replace('/', "-"))
}

/// The embed route a page's answer shows: a chapter's embed for a chapter page, else the route itself.
pub fn embedded_route(route: &str) -> String {
    match route.strip_prefix("chapters/") {
        Some(slug) => format!("embed/chapters/{slug}"),
        None => route.to_string(),
    }
}

/// The attributes of the iframe the Embed dialog writes (`crates/app/src/components/share.rs`), in
/// its order: the oEmbed answers and the cartridge's pages embed with the same.
pub fn iframe_attributes(src: &str, title: &str, height: u32) -> [(&'static str, String); 7] {
    [
        ("src", src.to_string()),
        ("title", title.to_string()),
        ("loading", "lazy".into()),
        ("width", "100%".into()),
        ("height", height.to_string()),
        ("style", "border:0;max-width:100%".into()),
        ("allow", "cross-origin-isolated".into()),
    ]
}

/// The iframe as HTML.
fn iframe(src: &str, title: &str, height: u32) -> String {
    let attributes: Vec<String> =
        iframe_attributes(src, title, height).iter().map(|(k, v)| format!("{k}=\"{}\"", escape(v))).collect();
    format!("<iframe {}></iframe>", attributes.join(" "))
}

/// Text for an HTML attribute.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The answer for `route` (a route of the English site, e.g. `chapters/sum`) in the language `lang`,
/// whose `chapters` and interface texts `ui` name it, of a site at `site` (ending in `/`).
pub fn answer(site: &str, lang: &str, route: &str, chapters: &[Chapter], ui: &Ui) -> Result<Answer, String> {
    let embedded = embedded_route(route);
    let chapter_of = |slug: &str| chapters.iter().find(|c| c.slug == slug);
    let provider = ui.site_name;
    let (title, height) = if let Some(slug) = embedded.strip_prefix("embed/chapters/") {
        let chapter = chapter_of(slug).ok_or(format!("no chapter `{slug}` in `{lang}` for {route}"))?;
        (format!("{provider}: {}", chapter.title), CHAPTER_HEIGHT)
    } else if let Some(name) = embedded.strip_prefix("embed/experiments/") {
        let entry = experiments::catalog::find(name).ok_or(format!("no experiment `{name}` in the catalog"))?;
        let chapter =
            chapter_of(entry.chapter).ok_or(format!("no chapter `{}` in `{lang}` for {name}", entry.chapter))?;
        (format!("{provider}: {} ({name})", chapter.title), EXPERIMENT_HEIGHT)
    } else {
        return Err(format!("{route} has no oEmbed answer"));
    };
    Ok(Answer {
        version: "1.0".into(),
        kind: "rich".into(),
        html: iframe(&format!("{site}{}", language_route(lang, &embedded)), &title, height),
        title,
        provider_name: provider.into(),
        provider_url: site.into(),
        width: WIDTH,
        height,
    })
}

/// The discovery link a route's page carries.
pub fn discovery_link(site: &str, route: &str, title: &str) -> String {
    format!(
        "<link rel=\"alternate\" type=\"application/json+oembed\" href=\"{}\" title=\"{}\" />",
        escape(&format!("{site}{}", answer_path(route))),
        escape(title)
    )
}

/// Write every route's answer in the language `lang` (its chapters in `content_lang`) under `out`
/// and put its discovery link in the route's page (`out/<lang route>/index.html`, which must exist).
pub fn write(out: &Path, site: &str, lang: &str, content_lang: &Path, routes: &[String]) -> Result<(), String> {
    let chapters = chapters(content_lang)?;
    let ui = super::interface_texts(lang)?;
    std::fs::create_dir_all(out.join("oembed")).map_err(|e| e.to_string())?;
    // Chapters and embeds only: the glossary and "How the lab works" are pages to read, not to embed.
    for route in routes.iter().filter(|r| r.starts_with("chapters/") || r.starts_with("embed/")) {
        let answer = answer(site, lang, route, &chapters, ui)?;
        let route = language_route(lang, route);
        let json = serde_json::to_string_pretty(&answer).map_err(|e| e.to_string())?;
        std::fs::write(out.join(answer_path(&route)), json + "\n").map_err(|e| e.to_string())?;
        let page = out.join(&route).join("index.html");
        let html = std::fs::read_to_string(&page).map_err(|e| format!("{}: {e}", page.display()))?;
        let link = discovery_link(site, &route, &answer.title);
        let Some(head_end) = html.find("</head>") else {
            return Err(format!("{}: no </head>", page.display()));
        };
        let with_link = format!("{}  {link}\n  {}", &html[..head_end], &html[head_end..]);
        std::fs::write(&page, with_link).map_err(|e| format!("{}: {e}", page.display()))?;
    }
    Ok(())
}
