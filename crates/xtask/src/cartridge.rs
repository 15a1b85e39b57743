//! `cargo xtask cartridge`: the lab as an IMS Common Cartridge 1.1 a course site imports as a module.
//!
//! `cargo xtask cartridge --site https://example.org/lab/ [--lang en] [--chapters sum,hashing]
//! [--out FILE]` writes a `.imscc` (a zip): `imsmanifest.xml` with one organization whose module
//! holds one item per chapter, in chapter order, and one web-content page per chapter under
//! `wiki_content/` (the folder Canvas turns into Pages; Moodle and others import the same files as
//! pages or files). Each page has the chapter's title and summary, the chapter's embed (an iframe with
//! a title, full width and a starting height, like the Embed dialog's snippet) and a link that opens
//! the chapter in its own tab. After each page comes the chapter's "Check yourself" as a quiz: a QTI
//! 1.2 assessment in the cartridge's profile (`qti.rs`), under `self_checks/`. The manifest, pages and
//! assessments are written with quick-xml, so every text is escaped by the writer.
//!
//! Version 1.1, not 1.3: Moodle converts only Common Cartridge 1.0 and 1.1 (`backup/converter/imscc1`
//! and `imscc11`, told apart by the manifest's namespace, which `imscc11` looks for in the manifest's
//! first 500 bytes, and validated against the 1.1 schemas before anything is converted); Canvas reads
//! every 1.x version (it drops the namespaces) and exports 1.1 itself. The tests validate the manifest
//! and every assessment against the official 1.1 schemas (`crates/xtask/schemas/`) with xmllint. Chapters come from `content/<lang>/` (front matter: title, summary,
//! order); the embed routes are the ones `cargo xtask dist` writes (`dist::routes`).

use crate::content::{chapters, Chapter};
use crate::dist;
use crate::dist::oembed::{iframe_attributes, CHAPTER_HEIGHT};
use crate::shell::{options, root};

mod qti;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::Writer;
use std::io::{Cursor, Write};
use std::path::Path;
use ui_text::Ui;

const HELP: &str =
    "usage: cargo xtask cartridge --site https://HOST/PATH/ [--lang en] [--chapters sum,hashing] [--out FILE]";

/// What to put in a cartridge.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The deployed site's address, ending in `/`.
    pub site: String,
    pub lang: String,
    /// Chapter slugs to include (all when empty), kept in chapter order.
    pub chapters: Vec<String>,
}

/// `cargo xtask cartridge …`.
pub fn command(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{HELP}");
        return Ok(());
    }
    let mut site = None;
    let mut lang = "en".to_string();
    let mut chapters = Vec::new();
    let mut out = None;
    for (name, value) in options(args, HELP)? {
        match name.as_str() {
            "--site" => site = Some(value),
            "--lang" => lang = value,
            "--chapters" => {
                chapters = value.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
            }
            "--out" => out = Some(std::env::current_dir().map_err(|e| e.to_string())?.join(value)),
            _ => return Err(format!("unknown argument `{name}`\n{HELP}")),
        }
    }
    let site = dist::normalise_site(&site.ok_or(format!("--site is required\n{HELP}"))?)?;
    let options = Options { site, lang, chapters };
    let out = out.unwrap_or_else(|| root().join(format!("target/concurrency-lab-{}.imscc", options.lang)));
    let bytes = build(&root().join("content"), &options)?;
    if let Some(folder) = out.parent() {
        std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    }
    std::fs::write(&out, bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("xtask: cartridge written to {}", out.display());
    Ok(())
}

/// The cartridge's bytes for the chapters in `content` (a folder holding `<lang>/`).
pub fn build(content: &Path, options: &Options) -> Result<Vec<u8>, String> {
    let folder = content.join(&options.lang);
    if !folder.is_dir() {
        return Err(format!(
            "no chapters in the language `{}`: {} does not exist (languages here: {})",
            options.lang,
            folder.display(),
            languages(content).join(", ")
        ));
    }
    let all = chapters(&folder)?;
    let unknown: Vec<&String> = options.chapters.iter().filter(|s| !all.iter().any(|c| &c.slug == *s)).collect();
    if !unknown.is_empty() {
        let known: Vec<&str> = all.iter().map(|c| c.slug.as_str()).collect();
        return Err(format!("no chapter {unknown:?} in {}; the chapters are {}", folder.display(), known.join(", ")));
    }
    let chosen: Vec<&Chapter> =
        all.iter().filter(|c| options.chapters.is_empty() || options.chapters.contains(&c.slug)).collect();
    let routes = dist::routes(&folder)?;
    let ui = dist::interface_texts(&options.lang)?;

    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let file_options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let mut pages = Vec::new();
    for (index, &chapter) in chosen.iter().enumerate() {
        let embed_route = format!("embed/chapters/{}", chapter.slug);
        if !routes.contains(&embed_route) {
            return Err(format!("`cargo xtask dist` writes no {embed_route}"));
        }
        let href = format!("wiki_content/{:02}-{}.html", index + 1, chapter.slug);
        let embed = format!("{}{}", options.site, dist::language_route(&options.lang, &embed_route));
        let page =
            format!("{}{}", options.site, dist::language_route(&options.lang, &format!("chapters/{}", chapter.slug)));
        let html = chapter_page(chapter, &options.lang, ui, &embed, &page)?;
        zip.start_file(&href, file_options).map_err(|e| e.to_string())?;
        zip.write_all(&html).map_err(|e| e.to_string())?;
        let quiz = self_check(&folder, chapter, &options.lang, index)?;
        if let Some((quiz_href, _, bytes)) = &quiz {
            zip.start_file(quiz_href, file_options).map_err(|e| e.to_string())?;
            zip.write_all(bytes).map_err(|e| e.to_string())?;
        }
        pages.push(Page { chapter, href, quiz: quiz.map(|(href, title, _)| (href, title)) });
    }
    zip.start_file("imsmanifest.xml", file_options).map_err(|e| e.to_string())?;
    zip.write_all(&manifest(&options.lang, ui.site_name, &pages)?).map_err(|e| e.to_string())?;
    Ok(zip.finish().map_err(|e| e.to_string())?.into_inner())
}

/// A chapter's page in the cartridge and, if it has questions, its quiz (file and title).
struct Page<'a> {
    chapter: &'a Chapter,
    href: String,
    quiz: Option<(String, String)>,
}

/// The chapter's "Check yourself" as an assessment: its file in the cartridge, its title (the
/// chapter's title and the section's own heading, "Sum: Check yourself") and its bytes; `None` for a
/// chapter without questions.
fn self_check(
    folder: &Path,
    chapter: &Chapter,
    lang: &str,
    index: usize,
) -> Result<Option<(String, String, Vec<u8>)>, String> {
    let path = folder.join(format!("{}.md", chapter.slug));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?.replace("\r\n", "\n");
    let questions = prose::quiz::questions(&text);
    if questions.is_empty() {
        return Ok(None);
    }
    let heading = text.lines().rev().find_map(|l| l.strip_prefix("## ")).unwrap_or_default().trim();
    let title = format!("{}: {heading}", chapter.title);
    let id = format!("assessment-{}", chapter.slug);
    let bytes = qti::assessment(&id, &title, &chapter.title, lang, &questions)?;
    Ok(Some((format!("self_checks/{:02}-{}.xml", index + 1, chapter.slug), title, bytes)))
}

fn languages(content: &Path) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(content)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    found
}

type Xml = Writer<Cursor<Vec<u8>>>;

fn xml_error(error: impl std::fmt::Display) -> String {
    format!("writing XML: {error}")
}

/// `<name attributes…>` … `</name>` around what `inside` writes.
fn element(
    xml: &mut Xml,
    name: &str,
    attributes: &[(&str, &str)],
    inside: impl FnOnce(&mut Xml) -> Result<(), String>,
) -> Result<(), String> {
    let mut start = BytesStart::new(name);
    for &(key, value) in attributes {
        start.push_attribute((key, value));
    }
    xml.write_event(Event::Start(start)).map_err(xml_error)?;
    inside(xml)?;
    xml.write_event(Event::End(BytesEnd::new(name))).map_err(xml_error)
}

fn text_element(xml: &mut Xml, name: &str, attributes: &[(&str, &str)], text: &str) -> Result<(), String> {
    element(xml, name, attributes, |xml| xml.write_event(Event::Text(BytesText::new(text))).map_err(xml_error))
}

fn empty_element(xml: &mut Xml, name: &str, attributes: &[(&str, &str)]) -> Result<(), String> {
    let mut tag = BytesStart::new(name);
    for &(key, value) in attributes {
        tag.push_attribute((key, value));
    }
    xml.write_event(Event::Empty(tag)).map_err(xml_error)
}

const CC_NAMESPACE: &str = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1";
const LOM_MANIFEST: &str = "http://ltsc.ieee.org/xsd/imsccv1p1/LOM/manifest";
const SCHEMA_LOCATION: &str = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1 \
     http://www.imsglobal.org/profile/cc/ccv1p1/ccv1p1_imscp_v1p2_v1p0.xsd \
     http://ltsc.ieee.org/xsd/imsccv1p1/LOM/manifest \
     http://www.imsglobal.org/profile/cc/ccv1p1/LOM/ccv1p1_lommanifest_v1p0.xsd";

/// `imsmanifest.xml`: the metadata, one organization (a module with an item per page, each followed
/// by its chapter's quiz, in order), and a web-content resource per page and an assessment per quiz.
fn manifest(lang: &str, module_title: &str, pages: &[Page]) -> Result<Vec<u8>, String> {
    let mut xml = Writer::new_with_indent(Cursor::new(Vec::new()), b' ', 2);
    xml.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None))).map_err(xml_error)?;
    let identifier = format!("concurrency-lab-{lang}");
    let attributes = [
        ("identifier", identifier.as_str()),
        ("xmlns", CC_NAMESPACE),
        ("xmlns:lomimscc", LOM_MANIFEST),
        ("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance"),
        ("xsi:schemaLocation", SCHEMA_LOCATION),
    ];
    element(&mut xml, "manifest", &attributes, |xml| {
        element(xml, "metadata", &[], |xml| {
            text_element(xml, "schema", &[], "IMS Common Cartridge")?;
            text_element(xml, "schemaversion", &[], "1.1.0")?;
            element(xml, "lomimscc:lom", &[], |xml| {
                element(xml, "lomimscc:general", &[], |xml| {
                    element(xml, "lomimscc:title", &[], |xml| {
                        text_element(xml, "lomimscc:string", &[("language", lang)], module_title)
                    })?;
                    text_element(xml, "lomimscc:language", &[], lang)
                })
            })
        })?;
        element(xml, "organizations", &[], |xml| {
            element(xml, "organization", &[("identifier", "organization"), ("structure", "rooted-hierarchy")], |xml| {
                element(xml, "item", &[("identifier", "root")], |xml| {
                    element(xml, "item", &[("identifier", "module")], |xml| {
                        text_element(xml, "title", &[], module_title)?;
                        for page in pages {
                            let slug = &page.chapter.slug;
                            let item = format!("item-{slug}");
                            let resource = format!("resource-{slug}");
                            element(xml, "item", &[("identifier", &item), ("identifierref", &resource)], |xml| {
                                text_element(xml, "title", &[], &page.chapter.title)
                            })?;
                            if let Some((_, title)) = &page.quiz {
                                let item = format!("item-assessment-{slug}");
                                let resource = format!("assessment-{slug}");
                                element(xml, "item", &[("identifier", &item), ("identifierref", &resource)], |xml| {
                                    text_element(xml, "title", &[], title)
                                })?;
                            }
                        }
                        Ok(())
                    })
                })
            })
        })?;
        element(xml, "resources", &[], |xml| {
            for page in pages {
                let resource = format!("resource-{}", page.chapter.slug);
                let href = page.href.as_str();
                let attributes = [("identifier", resource.as_str()), ("type", "webcontent"), ("href", href)];
                element(xml, "resource", &attributes, |xml| empty_element(xml, "file", &[("href", href)]))?;
                if let Some((quiz, _)) = &page.quiz {
                    // As Canvas writes it and Moodle reads it: the file, no `href` on the resource.
                    let resource = format!("assessment-{}", page.chapter.slug);
                    let attributes = [("identifier", resource.as_str()), ("type", qti::RESOURCE_TYPE)];
                    element(xml, "resource", &attributes, |xml| empty_element(xml, "file", &[("href", quiz)]))?;
                }
            }
            Ok(())
        })
    })?;
    Ok(xml.into_inner().into_inner())
}

/// One chapter's page: title, summary, the embed and a link to the chapter in its own tab.
fn chapter_page(chapter: &Chapter, lang: &str, ui: &Ui, embed: &str, page: &str) -> Result<Vec<u8>, String> {
    let mut xml = Writer::new_with_indent(Cursor::new(Vec::new()), b' ', 2);
    xml.write_event(Event::DocType(BytesText::from_escaped("html"))).map_err(xml_error)?;
    let frame = iframe_attributes(embed, &format!("{}: {}", ui.site_name, chapter.title), CHAPTER_HEIGHT);
    element(&mut xml, "html", &[("lang", lang)], |xml| {
        element(xml, "head", &[], |xml| {
            empty_element(xml, "meta", &[("charset", "utf-8")])?;
            text_element(xml, "title", &[], &chapter.title)
        })?;
        element(xml, "body", &[], |xml| {
            text_element(xml, "h1", &[], &chapter.title)?;
            text_element(xml, "p", &[], &chapter.summary)?;
            let attributes: Vec<(&str, &str)> = frame.iter().map(|(k, v)| (*k, v.as_str())).collect();
            text_element(xml, "iframe", &attributes, "")?;
            element(xml, "p", &[], |xml| {
                let attributes = [("href", page), ("target", "_blank"), ("rel", "noopener")];
                text_element(xml, "a", &attributes, ui.open_isolated)
            })
        })
    })?;
    Ok(xml.into_inner().into_inner())
}

#[cfg(test)]
mod tests;
