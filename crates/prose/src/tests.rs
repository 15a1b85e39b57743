//! Rendering, the file the app fetches, and every real text of `content/`.

use super::*;

fn text(body: &str) -> Text {
    parse("en", "sum", &format!("---\ntitle: Sum\nsummary: Adding numbers\norder: 4\n---\n{body}")).unwrap()
}

#[test]
fn front_matter_is_read_and_its_faults_are_named() {
    let t = text("Hello.\n");
    assert_eq!((t.title.as_str(), t.summary.as_str(), t.order), ("Sum", "Adding numbers", 4));
    let fault = |file: &str| parse("en", "x", file).unwrap_err()[0].what.clone();
    assert!(fault("no front matter\n").contains("must start with"));
    assert!(fault("---\ntitle: T\n").contains("not closed"));
    assert!(fault("---\ntitle: T\nsummary: S\n---\nx\n").contains("`order`"));
    assert!(fault("---\ntitle: T\nsummary: S\norder: first\n---\nx\n").contains("integer"));
}

#[test]
fn problems_name_the_line_of_the_file() {
    let problems =
        parse("en", "x", "---\ntitle: T\nsummary: S\norder: 1\n---\nFine.\n\nNot <b>fine</b>.\n").unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].line, 8);
}

#[test]
fn prose_renders_with_site_links_relative_tables_boxed_and_formulas_as_mathml() {
    let t = text(
        "See [the glossary](/glossary#park), [home](/) and [elsewhere](https://example.com/x).\n\n\
         | a | b |\n|---|---|\n| 1 | 2 |\n\nSpeedup $S = T_1 / T_k$.\n",
    );
    let [Section::Prose(html)] = t.sections.as_slice() else { panic!("{:?}", t.sections) };
    assert!(html.contains("href=\"glossary#park\""), "{html}");
    assert!(html.contains("href=\"./\""), "{html}");
    assert!(html.contains("href=\"https://example.com/x\""), "{html}");
    assert!(html.contains("<div class=\"table-scroll\"><table>") && html.contains("</table></div>"), "{html}");
    assert!(html.contains("<math") && !html.contains('$'), "{html}");
}

#[test]
fn folds_become_details_and_join_the_prose_around_them() {
    let t =
        text("Open.\n<!-- fold: Why *it* works -->\nDetail.\n<!-- /fold -->\nAfter.\n<!-- experiment: sum -->\nEnd.\n");
    assert_eq!(t.sections.len(), 3, "{:?}", t.sections);
    let Section::Prose(first) = &t.sections[0] else { panic!() };
    assert!(
        first.starts_with("<p>Open.</p>\n<details class=\"fold\"><summary>Why <em>it</em> works</summary>"),
        "{first}"
    );
    assert!(first.ends_with("</details><p>After.</p>\n"), "{first}");
    assert_eq!(t.sections[1], Section::Experiment("sum".into()));
}

#[test]
fn the_prose_between_experiments_has_one_piece_more_than_the_experiments() {
    let t = text("<!-- experiment: a -->\n<!-- experiment: b -->\nMiddle.\n<!-- experiment: c -->\n");
    assert_eq!(t.experiments().collect::<Vec<_>>(), ["a", "b", "c"]);
    assert_eq!(t.prose_between(), ["", "", "<p>Middle.</p>\n", ""]);
    assert_eq!(text("Only prose.\n").prose_between(), ["<p>Only prose.</p>\n"]);
}

#[test]
fn a_picture_marker_becomes_a_slot_in_the_prose_of_its_own_chapter_only() {
    let parse_in =
        |slug: &str, body: &str| parse("en", slug, &format!("---\ntitle: T\nsummary: S\norder: 4\n---\n{body}"));
    let t = parse_in("go-scheduler", "Before.\n<!-- picture: gmp -->\nAfter.\n<!-- experiment: go-scheduler -->\n")
        .unwrap();
    assert_eq!(t.pictures, ["gmp"]);
    assert_eq!(t.experiments().collect::<Vec<_>>(), ["go-scheduler"]);
    assert_eq!(
        t.prose_between(),
        ["<p>Before.</p>\n<div class=\"picture-slot\" data-picture=\"gmp\"></div>\n<p>After.</p>\n", ""]
    );
    let elsewhere = parse_in("sum", "Text.\n<!-- picture: gmp -->\n").unwrap_err();
    assert_eq!(
        (elsewhere[0].line, elsewhere[0].what.as_str()),
        (7, "the picture `gmp` belongs in the chapter `go-scheduler`, not here")
    );
    let twice = parse_in("go-scheduler", "<!-- picture: gmp -->\nText.\n<!-- picture: gmp -->\n").unwrap_err();
    assert!(twice[0].what.contains("placed twice"), "{twice:?}");
    assert!(PICTURES.iter().all(|(name, _)| picture_slot(name).starts_with(PICTURE_SLOT_START)));
}

/// Every language places the pictures English places, in the same chapters: a translation without
/// one would lose it silently.
#[test]
fn every_language_places_the_pictures_english_places() {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content");
    let (texts, _) = read(&content).unwrap_or_else(|problems| panic!("{}", problems.join("\n")));
    let placed = |lang: &str| -> Vec<(String, Vec<String>)> {
        texts.iter().filter(|t| t.lang == lang).map(|t| (t.slug.clone(), t.pictures.clone())).collect()
    };
    let english = placed("en");
    for (name, chapter) in PICTURES {
        assert!(
            english.iter().any(|(slug, pictures)| slug == chapter && pictures.iter().any(|p| p == name)),
            "content/en/{chapter}.md places the picture `{name}`"
        );
    }
    for (lang, ..) in OPENING_AND_CLOSING.iter().skip(1) {
        assert_eq!(placed(lang), english, "content/{lang}/ places the pictures of content/en/, chapter by chapter");
    }
}

#[test]
fn the_file_is_json_and_named_by_its_bytes() {
    let t = text("A \"quote\", a back\\slash and a\ttab.\n<!-- experiment: sum -->\n");
    let json = t.json();
    assert!(json.starts_with("{\"experiments\":[\"sum\"],\"prose\":[\"<p>A “quote”"), "{json}");
    assert!(json.contains("back\\\\slash") && json.contains("a\\u0009tab") && json.contains("\\n\",\"\"]}"), "{json}");
    let path = t.site_path();
    assert!(
        path.starts_with("content/en/sum-") && path.ends_with(".json") && path.len() == "content/en/sum-".len() + 21
    );
    assert_eq!(path, text("A \"quote\", a back\\slash and a\ttab.\n<!-- experiment: sum -->\n").site_path());
    assert_ne!(path, text("Other words.\n<!-- experiment: sum -->\n").site_path());
}

#[test]
fn json_strings_escape_what_json_requires() {
    assert_eq!(json_string("a\"b\\c\nd\u{1}é"), "\"a\\\"b\\\\c\\nd\\u0001é\"");
}

#[test]
fn every_text_in_content_reads_and_writes() {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content");
    let (texts, read) = read(&content).unwrap_or_else(|problems| panic!("{}", problems.join("\n")));
    assert!(texts.iter().filter(|t| t.lang == "en").count() >= 12, "{} texts", texts.len());
    assert!(read.len() > texts.len());
    let site = std::env::temp_dir().join(format!("prose-test-{}", std::process::id()));
    let written = write_site(&texts, &site).unwrap();
    assert_eq!(written.len(), texts.len());
    for (text, path) in texts.iter().zip(&written) {
        assert_eq!(std::fs::read_to_string(site.join(path)).unwrap(), text.json());
        assert_eq!(text.prose_between().len(), text.experiments().count() + 1, "{path}");
    }
    std::fs::remove_dir_all(&site).unwrap();
}

#[test]
fn site_links_stay_in_the_texts_language() {
    let markdown = "See [the sum](/chapters/sum), [park](/glossary#park), [home](/) and [Go](https://go.dev/).\n";
    let russian = render_in("ru", markdown);
    assert!(russian.contains(r#"href="ru/chapters/sum""#), "{russian}");
    assert!(russian.contains(r#"href="ru/glossary#park""#), "{russian}");
    assert!(russian.contains(r#"href="ru/""#), "{russian}");
    assert!(russian.contains(r#"href="https://go.dev/""#), "{russian}");
    let english = render_in("en", markdown);
    assert!(english.contains(r#"href="chapters/sum""#) && english.contains(r#"href="./""#), "{english}");
    let folded = parse("hi", "sum", "---\ntitle: T\nsummary: S\norder: 1\n---\n<!-- fold: [x](/glossary) -->\nA [y](/chapters/sum).\n<!-- /fold -->\n").unwrap();
    let html = folded.prose_between().concat();
    assert!(html.contains(r#"href="hi/glossary""#) && html.contains(r#"href="hi/chapters/sum""#), "{html}");
}

#[test]
fn a_language_file_holds_its_table_and_its_texts_titles_and_is_named_by_its_bytes() {
    let russian = parse("ru", "sum", "---\ntitle: Сумма\nsummary: Складываем числа\norder: 4\n---\nТекст.\n").unwrap();
    let texts = [text("Hello.\n"), russian];
    assert_eq!(language_file(&texts, "en"), None, "English is compiled in");
    assert_eq!(language_file(&texts, "xx"), None);
    let (path, json) = language_file(&texts, "ru").unwrap();
    assert_eq!(path, ui_text::site_path("ru", &json));
    let file: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(file["site_name"][0], ui_text::ru::RU.site_name);
    assert_eq!(file[ui_text::text_key("sum")], serde_json::json!(["Сумма", "Складываем числа", texts[1].site_path()]));
    let changed = [
        texts[0].clone(),
        parse("ru", "sum", "---\ntitle: Суммы\nsummary: Складываем числа\norder: 4\n---\nТекст.\n").unwrap(),
    ];
    assert_ne!(language_file(&changed, "ru").unwrap().0, path, "a new title is a new file name");
}

#[test]
fn markup_in_a_formula_reaches_the_page_as_text() {
    // The check refuses raw HTML in prose, but a formula's source is not HTML to it: it must come out
    // of the renderer escaped (issue 34). Inline and display formulas, in a paragraph and in a fold.
    let payload = "a<img src=x onerror=alert(1)>";
    let t = text(&format!(
        "Less $a < b$.\n\n$$\\begin{{aligned}} a &= b \\end{{aligned}}$$\n\n$${payload}$$\n<!-- fold: F -->\nSee ${payload}$.\n<!-- /fold -->\n"
    ));
    let html = t.prose_between().concat();
    assert!(!html.contains("<img"), "{html}");
    assert_eq!(html.matches("a&lt;img src=x onerror=alert(1)&gt;</annotation>").count(), 2, "{html}");
    assert!(html.contains(">a &lt; b</annotation>"), "{html}");
    assert!(html.contains(">\\begin{aligned} a &amp;= b \\end{aligned}</annotation>"), "{html}");
}

#[test]
fn every_formula_in_content_is_mathml_and_nothing_else() {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content");
    let (texts, _) = read(&content).unwrap_or_else(|problems| panic!("{}", problems.join("\n")));
    let mut formulas = 0;
    for text in &texts {
        let html = text.prose_between().concat();
        for piece in html.split("<math ").skip(1) {
            let formula = format!("<math {}", &piece[..piece.find("</math>").expect("closed") + "</math>".len()]);
            let (names, clean) = check::tests::markup_of(&formula);
            assert!(clean, "{}/{}: {formula}", text.lang, text.slug);
            assert!(names.iter().all(|n| check::tests::MATHML.contains(&n.as_str())), "{names:?} in {formula}");
            formulas += 1;
        }
    }
    assert!(formulas > 10, "{formulas} formulas");
}

/// Each language's opening of a chapter's question, and its headings of what to remember and of the
/// questions at the end, as the chapters write them (`> **The question:** …?` first; `## What to
/// remember` before `## Check yourself`). A full-width colon stays outside the bold: CommonMark does
/// not close `**` between punctuation and a letter.
const OPENING_AND_CLOSING: &[(&str, &str, &str, &str)] = &[
    ("en", "> **The question:** ", "What to remember", "Check yourself"),
    ("ru", "> **Вопрос главы:** ", "Что запомнить", "Проверьте себя"),
    ("zh", "> **本章的问题**：", "要点回顾", "自我检测"),
    ("ja", "> **この章の問い**：", "覚えておきたいこと", "確認問題"),
    ("hi", "> **इस अध्याय का प्रश्न:** ", "याद रखने की बातें", "ख़ुद को जाँचें"),
];

#[test]
fn every_chapter_opens_with_its_question_and_closes_with_what_to_remember() {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content");
    let mut chapters = 0;
    for (lang, question, remember, check_yourself) in OPENING_AND_CLOSING {
        for entry in std::fs::read_dir(content.join(lang)).unwrap() {
            let path = entry.unwrap().path();
            let markdown = std::fs::read_to_string(&path).unwrap();
            // Chapters are the texts with experiments; the landing page and the glossary are not.
            if !is_text(&path) || !markdown.contains("<!-- experiment:") {
                continue;
            }
            chapters += 1;
            let name = path.display();
            let body = markdown.splitn(3, "---\n").nth(2).unwrap_or_default();
            let opening: Vec<&str> = body.lines().take_while(|l| l.starts_with('>')).collect();
            let first = opening.first().copied().unwrap_or_default();
            assert!(first.starts_with(question), "{name}: opens with `{question}…?`, not {first:?}");
            // Japanese asks with か。 as often as with a question mark.
            let asks = first.trim_end().ends_with(['?', '？']) || first.trim_end().ends_with("か。");
            assert!(asks, "{name}: the opening is a question: {first:?}");
            let headings: Vec<&str> = body.lines().filter(|l| l.starts_with("## ")).collect();
            let at = |heading: &str| headings.iter().position(|h| h.trim_end() == format!("## {heading}"));
            let (Some(remember_at), Some(check_at)) = (at(remember), at(check_yourself)) else {
                panic!("{name}: has `## {remember}` and `## {check_yourself}`: {headings:?}")
            };
            assert!(remember_at < check_at, "{name}: what to remember comes before the questions");
            let section = body.split(&format!("## {remember}\n")).nth(1).unwrap_or_default();
            let section = section.split("\n## ").next().unwrap_or_default();
            let points = section.lines().filter(|l| l.starts_with("- ")).count();
            assert!((1..=3).contains(&points), "{name}: {points} points to remember, not 1 to 3");
        }
    }
    assert!(chapters >= 50, "{chapters} chapters in five languages");
}

#[test]
fn choices_show_as_a_plain_list_and_the_right_ones_open_with_the_answer() {
    let t = text(
        "**1.** Faster?\n\n- [ ] Yes, *much*\n- [x] About the same\n\n<!-- fold: Answer -->\nBecause.\n<!-- /fold -->\n\n\
         - [x] A list of choices with no fold after it\n",
    );
    let html = t.prose_between().concat();
    assert!(
        html.contains("<ul class=\"choices\">\n<li>Yes, <em>much</em></li>\n<li>About the same</li>\n</ul>"),
        "{html}"
    );
    assert!(!html.contains("checkbox") && !html.contains("[x]") && !html.contains("[ ]"), "{html}");
    assert!(
        html.contains(
            "<summary>Answer</summary><p class=\"choice-key\"><span aria-hidden=\"true\">✓ </span>About the same</p><p>Because.</p>"
        ),
        "{html}"
    );
    assert_eq!(html.matches("choice-key").count(), 1, "only a fold right after choices gets a key: {html}");
    let plain = text("- one\n- two\n");
    assert_eq!(plain.prose_between().concat(), "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n");
}

/// Every chapter's questions, in every language, have choices a course site can grade: at least one
/// right and one wrong, a folded answer, and the same questions and choices (count and which are
/// right) as English, so a translation is the same quiz.
#[test]
fn every_question_in_every_language_has_choices_to_grade_and_they_match_english() {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content");
    // (lang, slug) → for each question, which of its choices are right.
    let mut keys: std::collections::BTreeMap<(String, String), Vec<Vec<bool>>> = Default::default();
    for (lang, ..) in OPENING_AND_CLOSING {
        for entry in std::fs::read_dir(content.join(lang)).unwrap() {
            let path = entry.unwrap().path();
            let markdown = std::fs::read_to_string(&path).unwrap();
            if !is_text(&path) || !markdown.contains("<!-- experiment:") {
                continue;
            }
            let name = path.display().to_string();
            let questions = quiz::questions(&markdown);
            assert!(questions.len() >= 2, "{name}: {} questions", questions.len());
            for (index, q) in questions.iter().enumerate() {
                let at = format!("{name}:{} (question {})", q.line, q.number);
                assert_eq!(q.number as usize, index + 1, "{at}: numbered in order");
                assert!(q.choices.iter().any(|c| c.right), "{at}: no choice marked right `- [x]`");
                assert!(q.choices.iter().any(|c| !c.right), "{at}: no wrong choice `- [ ]`");
                assert!(q.choices.iter().all(|c| !c.text.is_empty()), "{at}: an empty choice");
                assert!(!q.answer.is_empty(), "{at}: no folded answer after the choices");
            }
            let slug = path.file_stem().unwrap().to_string_lossy().into_owned();
            let key = questions.iter().map(|q| q.choices.iter().map(|c| c.right).collect()).collect();
            keys.insert((lang.to_string(), slug), key);
        }
    }
    let english: Vec<_> = keys.iter().filter(|((lang, _), _)| lang == "en").collect();
    assert!(english.len() >= 10, "{} English chapters", english.len());
    for ((_, slug), key) in english {
        for (lang, ..) in OPENING_AND_CLOSING.iter().skip(1) {
            let other = keys.get(&(lang.to_string(), slug.clone()));
            assert_eq!(
                other,
                Some(key),
                "content/{lang}/{slug}.md: its choices (count, right ones) differ from English"
            );
        }
    }
}

/// The `{#id}` anchors of the `## ` sections of `markdown`, in order.
fn section_anchors(markdown: &str) -> Vec<String> {
    markdown
        .lines()
        .filter(|l| l.starts_with("## "))
        .map(|l| l.rsplit_once("{#").and_then(|(_, id)| id.strip_suffix('}')).unwrap_or_default().to_string())
        .collect()
}

#[test]
fn how_the_lab_works_is_in_every_language_and_every_chapter_links_to_it() {
    let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content");
    let read = |lang: &str, slug: &str| std::fs::read_to_string(content.join(lang).join(format!("{slug}.md"))).ok();
    let page = "how-the-lab-works";
    assert!(PAGES.contains(&page), "a page of its own, not a chapter");
    let english = read("en", page).expect("content/en/how-the-lab-works.md");
    let anchors = section_anchors(&english);
    assert!(anchors.len() >= 6 && anchors.iter().all(|a| !a.is_empty()), "every section has an anchor: {anchors:?}");
    let mut linked = 0;
    for (lang, ..) in OPENING_AND_CLOSING {
        let text = read(lang, page).unwrap_or_else(|| panic!("content/{lang}/{page}.md"));
        assert_eq!(section_anchors(&text), anchors, "content/{lang}/{page}.md: the sections of English, in order");
        assert!(!text.contains("<!-- experiment:"), "content/{lang}/{page}.md places no experiment");
        for entry in std::fs::read_dir(content.join(lang)).unwrap() {
            let path = entry.unwrap().path();
            let markdown = std::fs::read_to_string(&path).unwrap();
            if !is_text(&path) || !markdown.contains("<!-- experiment:") {
                continue;
            }
            let name = path.display();
            let links: Vec<&str> = markdown.split("](/how-the-lab-works").skip(1).collect();
            assert!(!links.is_empty(), "{name}: links to /how-the-lab-works at least once");
            for link in links {
                let target = link.split(')').next().unwrap_or_default();
                let anchor = target.strip_prefix('#').unwrap_or_default();
                assert!(
                    target.is_empty() || anchors.iter().any(|a| a == anchor),
                    "{name}: /how-the-lab-works{target} names no section of the page"
                );
            }
            linked += 1;
        }
    }
    assert!(linked >= 50, "{linked} chapters in five languages link to the page");
}

#[test]
fn a_figure_and_its_unit_are_joined_by_a_no_break_space_outside_code() {
    let html = render(
        "It took {{num 3.91}} ms, then 10 s, at 14 GB/s; Заняло 2 с.\n\nIn code, `5 ms` and\n\n```\nsleep 5 ms\n```\n",
    );
    for joined in ["{{num 3.91}}\u{a0}ms", "10\u{a0}s", "14\u{a0}GB/s", "2\u{a0}с"] {
        assert!(html.contains(joined), "{joined} in {html}");
    }
    assert!(html.contains("<code>5 ms</code>") && html.contains("sleep 5 ms"), "code stays as written: {html}");
    // Words that start like a unit stay apart from the figure before them.
    let words = render("Give 2 seconds or 3 stars.");
    assert!(words.contains("2 seconds") && words.contains("3 stars"), "{words}");
}
