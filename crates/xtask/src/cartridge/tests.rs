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
    assert_eq!(manifest.schema_version, "1.1.0");
    assert_eq!(manifest.language, "en");
    let chapters = chapters(&content().join("en")).unwrap();
    assert!(chapters.len() >= 10, "{chapters:?}");
    let titles: Vec<&str> = manifest.items.iter().map(|(_, t)| t.as_str()).collect();
    let expected: Vec<String> =
        chapters.iter().flat_map(|c| [c.title.clone(), format!("{}: Check yourself", c.title)]).collect();
    assert_eq!(titles, expected, "a page per chapter, in chapter order, each followed by its quiz");
    let routes = dist::routes(&content().join("en")).unwrap();
    for (reference, title) in manifest.items.iter().step_by(2) {
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
    let expected: Vec<String> =
        slugs.iter().flat_map(|s| [format!("resource-{s}"), format!("assessment-{s}")]).collect();
    assert_eq!(referenced, expected);
    assert_eq!(files.len(), 7, "the manifest, three pages and their quizzes: {:?}", files.keys());
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

/// `xml` checked against one of the official Common Cartridge 1.1 schemas in `crates/xtask/schemas/`
/// by libxml2's xmllint (as Moodle checks a manifest before converting it); `Err` holds what it said.
fn validate(xml: &str, schema: &str) -> Result<(), String> {
    let xmllint = crate::tools::XMLLINT;
    assert!(
        std::path::Path::new(xmllint).exists(),
        "{xmllint} is missing: `cargo xtask setup` installs it (Debian's libxml2-utils)"
    );
    let folder = std::env::temp_dir().join(format!("lab-cartridge-schema-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let file = folder.join(format!("{}.xml", NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    std::fs::write(&file, xml).unwrap();
    let schema = root().join("crates/xtask/schemas/cc1p1").join(schema);
    let out = std::process::Command::new(xmllint)
        .args(["--noout", "--nonet", "--schema"])
        .arg(&schema)
        .arg(&file)
        .output()
        .expect("xmllint runs");
    std::fs::remove_file(&file).unwrap();
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    // A schema that did not load (a missing import) is a warning, not a failure, to xmllint.
    assert!(!said.contains("failed to load") && !said.contains("WXS schema"), "{said}");
    if out.status.success() {
        Ok(())
    } else {
        Err(said)
    }
}

const MANIFEST_SCHEMA: &str = "ccv1p1_imscp_v1p2_v1p0.xsd";
const QTI_SCHEMA: &str = "ccv1p1_qtiasiv1p2p1_v1p0.xsd";

#[test]
fn every_language_s_cartridge_is_valid_against_the_common_cartridge_1_1_schemas() {
    for lang in ["en", "ru", "zh", "ja", "hi"] {
        let files = unpack(build(&content(), &options(lang, &[])).expect("a cartridge"));
        let manifest = &files["imsmanifest.xml"];
        validate(manifest, MANIFEST_SCHEMA).unwrap_or_else(|e| panic!("{lang} manifest: {e}"));
        // Moodle's Common Cartridge 1.1 converter recognises a cartridge by this namespace in the
        // manifest's first 500 bytes (spaces and quotes removed).
        let head: String = manifest.chars().take(500).filter(|c| !c.is_whitespace() && *c != '"').collect();
        assert!(head.contains("xmlns=http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"), "{head}");
        let parsed = parse_manifest(manifest);
        let quizzes: Vec<&(String, String, Vec<String>)> =
            parsed.resources.values().filter(|(kind, ..)| kind == qti::RESOURCE_TYPE).collect();
        assert_eq!(quizzes.len(), 10, "{lang}: a quiz per chapter");
        for (_, _, hrefs) in quizzes {
            let assessment = &files[&hrefs[0]];
            validate(assessment, QTI_SCHEMA).unwrap_or_else(|e| panic!("{lang} {}: {e}", hrefs[0]));
        }
    }
}

#[test]
fn a_quiz_holds_the_chapter_s_questions_graded_with_the_folded_answer_as_feedback() {
    let files = unpack(build(&content(), &options("ru", &["sum"])).unwrap());
    let quiz = &files["self_checks/01-sum.xml"];
    let text = std::fs::read_to_string(content().join("ru/sum.md")).unwrap();
    let questions = prose::quiz::questions(&text);
    assert_eq!(quiz.matches("<item ").count(), questions.len());
    assert!(quiz.contains("title=\"") && quiz.contains(": Проверьте себя\""), "the title in Russian");
    for q in &questions {
        let item = format!("assessment-sum-q{}", q.number);
        let right = q.choices.iter().position(|c| c.right).unwrap();
        let right = format!(
            "<varequal respident=\"response1\" case=\"Yes\">{item}-{}</varequal>",
            (b'a' + right as u8) as char
        );
        assert_eq!(quiz.matches(&right).count(), 1, "{right}");
        assert_eq!(quiz.matches(&format!("<response_label ident=\"{item}-")).count(), q.choices.len());
    }
    assert_eq!(quiz.matches("<fieldentry>cc.multiple_choice.v0p1</fieldentry>").count(), questions.len());
    assert_eq!(quiz.matches("<setvar varname=\"SCORE\" action=\"Set\">100</setvar>").count(), questions.len());
    assert_eq!(quiz.matches("linkrefid=\"general_fb\"").count(), questions.len());
    // The feedback is the folded answer, its figures in the language's spelling (`{{num 1.5}}` → 1,5).
    assert!(!quiz.contains("{{num"), "{quiz}");
    assert!(quiz.contains("1,5×"), "{quiz}");
    let first_answer = prose::render_in("ru", &questions[0].answer);
    let escaped = first_answer.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    assert!(quiz.contains(escaped.trim_end()), "the first answer is the first item's feedback");
}

#[test]
fn a_question_without_choices_is_an_essay_and_several_right_choices_are_a_multiple_response() {
    let text = "## Check yourself\n\n**1.** Explain.\n\n<!-- fold: Answer -->\nLike this, about {{num 5,720,764}}.\n<!-- /fold -->\n\n\
                **2.** Which?\n\n- [x] One\n- [ ] Two\n- [x] Three\n\n<!-- fold: Answer -->\nOne and three.\n<!-- /fold -->\n";
    let questions = prose::quiz::questions(text);
    let xml = String::from_utf8(qti::assessment("assessment-x", "X: Check yourself", "X", "hi", &questions).unwrap())
        .unwrap();
    validate(&xml, QTI_SCHEMA).unwrap();
    assert!(xml.contains("cc.essay.v0p1") && xml.contains("<response_str ident=\"response1\""), "{xml}");
    assert!(xml.contains("cc.multiple_response.v0p1") && xml.contains("rcardinality=\"Multiple\""), "{xml}");
    assert!(xml.contains("<not>") && xml.contains("57,20,764"), "Hindi groups lakhs: {xml}");
}

#[test]
fn the_schemas_refuse_what_an_importer_would_not_take() {
    let files = unpack(build(&content(), &options("en", &["sum"])).unwrap());
    let manifest = &files["imsmanifest.xml"];
    let quiz = &files["self_checks/01-sum.xml"];
    validate(manifest, MANIFEST_SCHEMA).unwrap();
    validate(quiz, QTI_SCHEMA).unwrap();
    // A resource without its type; an assessment without the title the profile requires; a score
    // that adds (the profile only sets); an assessment of another QTI namespace. (The profile's rules
    // that the schema leaves to Schematron, such as required metadata fields, xmllint does not check:
    // the quiz test checks the fields the importers read.)
    let untyped = manifest.replacen(" type=\"webcontent\"", "", 1);
    assert!(validate(&untyped, MANIFEST_SCHEMA).unwrap_err().contains("'type' is required"));
    let untitled = quiz.replacen(" title=\"", " name=\"", 1);
    assert!(validate(&untitled, QTI_SCHEMA).unwrap_err().contains("'title' is required"));
    assert!(validate(&quiz.replacen("action=\"Set\"", "action=\"Add\"", 1), QTI_SCHEMA).is_err());
    assert!(validate(&quiz.replace("ims_qtiasiv1p2\"", "ims_qtiasiv2p1\""), QTI_SCHEMA).is_err());
}

#[test]
fn figures_are_written_as_each_language_writes_them() {
    let html = "{{num 5,720,764}} / {{num 1.5}} / {{num 1,000}} / {{num many}}";
    assert_eq!(qti::figures("en", html), "5,720,764 / 1.5 / 1,000 / many");
    assert_eq!(qti::figures("ru", html), "5\u{a0}720\u{a0}764 / 1,5 / 1\u{a0}000 / many");
    assert_eq!(qti::figures("hi", html), "57,20,764 / 1.5 / 1,000 / many");
    assert_eq!(qti::figures("ja", html), "5,720,764 / 1.5 / 1,000 / many");
}
