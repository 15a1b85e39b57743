//! The cartridge unpacked and read back: its manifest parsed, every file it names present, every
//! iframe pointing at an embed route `cargo xtask dist` writes, language and chapter choice honoured.

use super::*;
use quick_xml::events::Event;
use quick_xml::{Reader, XmlVersion};
use std::collections::BTreeMap;
use std::io::Read;

const SITE: &str = "https://example.org/lab/";

fn options(lang: &str, chapters: &[&str]) -> Options {
    Options { site: SITE.into(), lang: lang.into(), chapters: chapters.iter().map(|s| s.to_string()).collect() }
}

/// Every file of the zip by name.
fn unpack(bytes: Vec<u8>) -> BTreeMap<String, String> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).expect("a zip");
    let mut files = BTreeMap::new();
    for index in 0..archive.len() {
        let mut file = archive.by_index(index).expect("a file");
        let mut text = String::new();
        file.read_to_string(&mut text).expect("UTF-8");
        files.insert(file.name().expect("a name").into_owned(), text);
    }
    files
}

/// What the manifest says: the module's items (identifierref, title) in order, the resources
/// (identifier → (type, href, file hrefs)), and the language.
#[derive(Debug, Default)]
struct Manifest {
    schema_version: String,
    language: String,
    items: Vec<(String, String)>,
    resources: BTreeMap<String, (String, String, Vec<String>)>,
}

fn attribute(start: &quick_xml::events::BytesStart, key: &str) -> Option<String> {
    start
        .try_get_attribute(key)
        .ok()
        .flatten()
        .map(|a| a.normalized_value(XmlVersion::Implicit1_0).expect("an attribute").into_owned())
}

fn parse_manifest(text: &str) -> Manifest {
    let mut reader = Reader::from_str(text);
    let mut manifest = Manifest::default();
    let mut path: Vec<String> = Vec::new();
    let mut current_item: Option<String> = None;
    let mut current_resource: Option<String> = None;
    // The title of a module item being read: its text and escaped characters, joined at its end.
    let mut title: Option<String> = None;
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(start) => {
                let name = start.name().as_ref().to_string();
                if name == "item" {
                    current_item = attribute(&start, "identifierref");
                }
                if name == "title" && path.last().map(String::as_str) == Some("item") && current_item.is_some() {
                    title = Some(String::new());
                }
                if name == "resource" {
                    let id = attribute(&start, "identifier").expect("a resource has an identifier");
                    let kind = attribute(&start, "type").unwrap_or_default();
                    let href = attribute(&start, "href").unwrap_or_default();
                    manifest.resources.insert(id.clone(), (kind, href, Vec::new()));
                    current_resource = Some(id);
                }
                path.push(name);
            }
            Event::Empty(start) if start.name().as_ref() == "file" => {
                let id = current_resource.clone().expect("a file inside a resource");
                manifest.resources.get_mut(&id).unwrap().2.push(attribute(&start, "href").expect("a file href"));
            }
            Event::Text(text) => {
                let text = text.xml_content(XmlVersion::Implicit1_0).into_owned();
                match path.last().map(String::as_str) {
                    Some("schemaversion") => manifest.schema_version = text.clone(),
                    Some("lomimscc:language") => manifest.language = text.clone(),
                    _ => {}
                }
                if let Some(title) = title.as_mut() {
                    title.push_str(&text);
                }
            }
            Event::GeneralRef(reference) => {
                let resolved = match reference.as_ref() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "apos" => "'",
                    other => panic!("unexpected reference {other:?}"),
                };
                if let Some(title) = title.as_mut() {
                    title.push_str(resolved);
                }
            }
            Event::End(_) => {
                let closed = path.pop();
                if closed.as_deref() == Some("title") {
                    if let Some(text) = title.take() {
                        let reference = current_item.take().expect("an item's title follows its start");
                        manifest.items.push((reference, text));
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    manifest
}

/// The `src` of the page's iframe and the `href` of its link.
fn page_targets(html: &str) -> (String, String) {
    let mut reader = Reader::from_str(html);
    let (mut src, mut href) = (String::new(), String::new());
    loop {
        match reader.read_event().expect("a well-formed page") {
            Event::Start(start) | Event::Empty(start) => match start.name().as_ref() {
                "iframe" => {
                    src = attribute(&start, "src").expect("an iframe src");
                    assert!(attribute(&start, "title").is_some_and(|t| !t.is_empty()), "the iframe has a title");
                    assert_eq!(attribute(&start, "width").as_deref(), Some("100%"));
                    assert!(attribute(&start, "height").is_some_and(|h| h.parse::<u32>().is_ok_and(|h| h >= 600)));
                }
                "a" => href = attribute(&start, "href").expect("a link href"),
                _ => {}
            },
            Event::Eof => break,
            _ => {}
        }
    }
    (src, href)
}

fn content() -> std::path::PathBuf {
    root().join("content")
}

#[test]
fn the_whole_lab_is_one_module_with_a_page_per_chapter_in_chapter_order() {
    let files = unpack(build(&content(), &options("en", &[])).expect("a cartridge"));
    let manifest = parse_manifest(&files["imsmanifest.xml"]);
    assert_eq!(manifest.schema_version, "1.3.0");
    assert_eq!(manifest.language, "en");
    let chapters = chapters(&content().join("en")).unwrap();
    assert!(chapters.len() >= 10, "{chapters:?}");
    let titles: Vec<&str> = manifest.items.iter().map(|(_, t)| t.as_str()).collect();
    let expected: Vec<&str> = chapters.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(titles, expected, "one item per chapter, in chapter order");
    let routes = dist::routes(&content().join("en")).unwrap();
    for (reference, title) in &manifest.items {
        let (kind, href, file_hrefs) =
            manifest.resources.get(reference).unwrap_or_else(|| panic!("{title}: no resource {reference}"));
        assert_eq!(kind, "webcontent");
        assert!(file_hrefs.contains(href), "{reference}: its href is one of its files");
        for file in file_hrefs {
            assert!(files.contains_key(file), "{file} is named by the manifest but not in the cartridge");
        }
        let (src, link) = page_targets(&files[href]);
        let route = src.strip_prefix(SITE).unwrap_or_else(|| panic!("{src} is not on the site"));
        assert!(route.starts_with("embed/"), "{src} is an embed");
        assert!(routes.iter().any(|r| r == route), "{route} is not a route `cargo xtask dist` writes");
        assert!(link.starts_with(SITE) && link.contains("/chapters/"), "{link}");
    }
}

#[test]
fn a_chapter_selection_keeps_chapter_order_and_nothing_else() {
    let chapters = chapters(&content().join("en")).unwrap();
    let position = |slug: &str| chapters.iter().position(|c| c.slug == slug).unwrap();
    let files = unpack(build(&content(), &options("en", &["sum", "hashing", "concurrency-vs-parallelism"])).unwrap());
    let manifest = parse_manifest(&files["imsmanifest.xml"]);
    let mut slugs = ["sum", "hashing", "concurrency-vs-parallelism"];
    slugs.sort_by_key(|s| position(s));
    let referenced: Vec<String> = manifest.items.iter().map(|(r, _)| r.clone()).collect();
    let expected: Vec<String> = slugs.iter().map(|s| format!("resource-{s}")).collect();
    assert_eq!(referenced, expected);
    assert_eq!(files.len(), 4, "the manifest and three pages: {:?}", files.keys());
    let error = build(&content(), &options("en", &["sum", "no-such-chapter"])).unwrap_err();
    assert!(error.contains("no-such-chapter") && error.contains("hashing"), "{error}");
}

#[test]
fn another_language_puts_its_prefix_in_every_address_and_its_tag_in_the_manifest() {
    let folder = std::env::temp_dir().join(format!("lab-cartridge-test-{}", std::process::id()));
    let ru = folder.join("ru");
    std::fs::create_dir_all(&ru).unwrap();
    let chapter = |title: &str, order: u32, marker: &str| {
        format!("---\ntitle: {title}\nsummary: Кратко <и> \"точно\" & ясно.\norder: {order}\n---\nТекст.\n\n<!-- experiment: {marker} -->\n")
    };
    std::fs::write(ru.join("sum.md"), chapter("Сумма <10M> & \"чисел\"", 2, "sum")).unwrap();
    std::fs::write(ru.join("hashing.md"), chapter("Хеширование", 1, "hashing")).unwrap();
    std::fs::write(ru.join("index.md"), "---\ntitle: Лаборатория\nsummary: x\norder: 0\n---\n").unwrap();
    let files = unpack(build(&folder, &options("ru", &[])).expect("a Russian cartridge"));
    let manifest = parse_manifest(&files["imsmanifest.xml"]);
    assert_eq!(manifest.language, "ru");
    let titles: Vec<&str> = manifest.items.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(
        titles,
        ["Хеширование", "Сумма <10M> & \"чисел\""],
        "order from the front matter; titles escaped and read back"
    );
    for (reference, _) in &manifest.items {
        let (_, href, _) = &manifest.resources[reference];
        let (src, link) = page_targets(&files[href]);
        assert!(src.starts_with(&format!("{SITE}ru/embed/chapters/")), "{src}");
        assert!(link.starts_with(&format!("{SITE}ru/chapters/")), "{link}");
        assert!(files[href].contains("lang=\"ru\""));
        // The page's own words are the interface's Russian, not English.
        assert!(files[href].contains(ui_text::ru::RU.open_isolated), "{}", files[href]);
        assert!(files[href].contains(&format!("title=\"{}: ", ui_text::ru::RU.site_name)), "{}", files[href]);
        assert!(!files[href].contains(ui_text::en::EN.open_isolated));
    }
    assert!(files["imsmanifest.xml"].contains(ui_text::ru::RU.site_name), "the module's title in Russian");
    let error = build(&folder, &options("ja", &[])).unwrap_err();
    assert!(error.contains("`ja`") && error.contains("ru"), "{error}");
    std::fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn the_site_must_be_an_absolute_http_address() {
    assert_eq!(dist::normalise_site("https://example.org/lab").unwrap(), "https://example.org/lab/");
    assert_eq!(dist::normalise_site("http://127.0.0.1:8080/").unwrap(), "http://127.0.0.1:8080/");
    for bad in ["/lab/", "example.org", "https://", "javascript:alert(1)", "https://a/\"onload=x"] {
        assert!(dist::normalise_site(bad).is_err(), "{bad}");
    }
}

#[test]
fn the_cartridge_command_refuses_control_characters_in_the_site() {
    for c in ['\n', '\r', '\t', '\u{1b}', '\u{7f}', '\u{85}'] {
        // `--lang xx` has no chapters: without the check the command fails there, writing nothing.
        let args = ["--site", &format!("https://example.org/l{c}ab/"), "--lang", "xx"].map(String::from);
        let error = super::command(&args).unwrap_err();
        assert!(error.starts_with("--site ") && error.contains("control character"), "{error}");
    }
}
