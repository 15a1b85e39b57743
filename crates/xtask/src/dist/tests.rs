//! The deployable site's tests: the start-up script moved into a file, the policy and strict pages,
//! the service-worker switch, routes, headers wherever they are written, and public URLs.

use super::engine_build::{engine_build, ENGINE_FOLDERS};
use super::headers::{carries_hash, matches_pattern, CONTENT_ADDRESSED, CSP, EVERY_RESPONSE, FOREVER};
use super::strict_page::{tags, Tag};
use super::*;
use std::path::PathBuf;

const TRUNK_PAGE: &str = r#"<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Concurrency Lab</title>
    <base href="/" />
    <!-- a comment with <script>not a script</script> -->
    <meta name="lab-service-worker" content="off" />
    <script src="register-sw.js" defer></script>
<script type="module">
import init, * as bindings from '/app-5980f038850f0ae8.js';
const wasm = await init({ module_or_path: '/app-a94b48db553abf81_bg.wasm' });
</script>
  <link rel="modulepreload" href="/app-5980f038850f0ae8.js" crossorigin="anonymous" integrity="sha384-Zc"></head>
  <body><div id="boot" class="boot">Loading…</div></body>
</html>"#;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-dist-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_inline_start_script_moves_to_a_file_and_the_page_gets_the_policy() {
    let dir = temp_dir("inline");
    std::fs::create_dir_all(dir.join("chapters/sum")).unwrap();
    for file in ["index.html", "chapters/sum/index.html"] {
        std::fs::write(dir.join(file), TRUNK_PAGE).unwrap();
    }
    externalise_inline_scripts(&dir).unwrap();
    add_csp(&dir).unwrap();
    // Twice changes nothing.
    let once = std::fs::read_to_string(dir.join("index.html")).unwrap();
    externalise_inline_scripts(&dir).unwrap();
    add_csp(&dir).unwrap();
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert_eq!(page, once);
    assert_eq!(page, std::fs::read_to_string(dir.join("chapters/sum/index.html")).unwrap());
    check_strict_page(&page).unwrap();
    assert!(check_strict_page(TRUNK_PAGE).is_err());
    let scripts: Vec<Tag> = tags(&page).into_iter().filter(|t| t.name == "script").collect();
    assert_eq!(scripts.len(), 2);
    let init = scripts[1].attr("src").unwrap();
    assert!(init.starts_with("/init-") && init.ends_with(".js"), "{init}");
    assert_eq!(scripts[1].attr("type"), Some("module"));
    let code = std::fs::read_to_string(dir.join(&init[1..])).unwrap();
    assert!(code.contains("import init, * as bindings from '/app-5980f038850f0ae8.js';"));
    // The policy comes first, before <base> and every script; the comment is untouched.
    let csp = page.find("Content-Security-Policy").unwrap();
    assert!(csp < page.find("<base").unwrap());
    assert!(page.contains("<script>not a script</script>"));
    assert!(page.contains(r#"integrity="sha384-Zc""#));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_service_worker_switch_flips() {
    let on = service_worker_meta(TRUNK_PAGE, true);
    assert!(on.contains(r#"<meta name="lab-service-worker" content="on" />"#));
    assert!(!on.contains(r#"content="off""#));
    let added = service_worker_meta("<html><head><title>x</title></head></html>", true);
    assert!(added.contains(r#"content="on""#));
}

#[test]
fn strict_pages_have_no_inline_code_or_styles() {
    assert!(check_strict_page(r#"<p style="color: red">x</p>"#).is_err());
    assert!(check_strict_page(r#"<button onclick="go()">x</button>"#).is_err());
    assert!(check_strict_page(r#"<a href="javascript:go()">x</a>"#).is_err());
    assert!(check_strict_page("<style>p{}</style>").is_err());
    assert!(check_strict_page(r#"<script type="application/json">{"a": 1}</script><p class="x">"#).is_ok());
}

#[test]
fn routes_cover_chapters_embeds_and_experiments() {
    let dir = temp_dir("routes");
    std::fs::write(dir.join("index.md"), "# Lab\n<!-- experiment: demo -->\n").unwrap();
    std::fs::write(dir.join("sum.md"), "# Sum\n\n<!-- experiment: sum -->\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not a chapter").unwrap();
    std::fs::write(dir.join("glossary.md"), "# Glossary\n").unwrap();
    std::fs::write(dir.join("how-the-lab-works.md"), "# How the lab works\n").unwrap();
    assert_eq!(
        routes(&dir).unwrap(),
        [
            "chapters/sum",
            "glossary",
            "how-the-lab-works",
            "embed/chapters/sum",
            "embed/experiments/demo",
            "embed/experiments/sum"
        ]
    );
    std::fs::write(dir.join("bad name.md"), "").unwrap();
    assert!(routes(&dir).is_err());
    std::fs::remove_dir_all(dir).unwrap();
}

fn langs(tags: &[&str]) -> Vec<String> {
    tags.iter().map(|t| t.to_string()).collect()
}

#[test]
fn the_headers_file_lets_only_embeds_be_framed_and_isolates_them() {
    let rules = headers::rules(&langs(&["en", "ru"]));
    let text = headers::write("/lab/", &rules);
    let written = headers::parse(&text);
    assert_eq!(written.len(), rules.len(), "{text}");
    assert!(written
        .iter()
        .zip(&rules)
        .all(|(w, r)| w.pattern == format!("/lab/{}", r.pattern) && w.headers == r.headers));
    let csp = |path: &str| headers::for_path(&written, path).get("Content-Security-Policy").cloned();
    let header = |path: &str, name: &str| headers::for_path(&written, path).get(name).cloned();
    // Everything but an embed: the policy without frame-ancestors, and no framing at all.
    for path in [
        "/lab/",
        "/lab/index.html",
        "/lab/chapters/sum/",
        "/lab/ru/chapters/sum",
        "/lab/glossary/",
        "/lab/no/such",
        "/lab/ru/",
    ] {
        assert_eq!(csp(path).as_deref(), Some(CSP), "{path}");
        assert_eq!(header(path, "X-Frame-Options").as_deref(), Some("DENY"), "{path}");
        assert_eq!(header(path, "Document-Isolation-Policy"), None, "{path}");
        for (name, value) in EVERY_RESPONSE {
            assert_eq!(header(path, name).as_deref(), Some(value), "{path}: {name}");
        }
    }
    // Embeds, in every language: a second policy that lets any page frame them (browsers then
    // ignore X-Frame-Options), and per-document isolation.
    for path in ["/lab/embed/chapters/sum/", "/lab/embed/experiments/sum", "/lab/ru/embed/chapters/sum/"] {
        assert_eq!(csp(path), Some(format!("{CSP}, frame-ancestors *")), "{path}");
        assert_eq!(header(path, "Document-Isolation-Policy").as_deref(), Some("isolate-and-require-corp"), "{path}");
    }
    assert!(!text.contains("Cross-Origin-Resource-Policy: cross-origin"), "{text}");
    // Files named after their content are kept for good; nothing else is.
    assert_eq!(header("/lab/app-5ce2ca8a65ba77c9/app.js", "Cache-Control").as_deref(), Some(FOREVER));
    assert_eq!(header("/lab/engine-5ce2ca8a65ba77c9/coordinator.js", "Cache-Control").as_deref(), Some(FOREVER));
    assert_eq!(header("/lab/register-sw.js", "Cache-Control"), None);
    assert_eq!(text.matches("Cache-Control:").count(), CONTENT_ADDRESSED.len(), "{text}");
    // Other paths of the origin are not the site's.
    assert!(headers::for_path(&written, "/other/page.html").is_empty());
}

/// The `[serve.headers]` table of Trunk.toml: `"Name" = "value"` lines up to the next table.
fn trunk_serve_headers() -> std::collections::BTreeMap<String, String> {
    let toml = std::fs::read_to_string(root().join("Trunk.toml")).unwrap();
    let table = toml.split("\n[serve.headers]\n").nth(1).expect("Trunk.toml has [serve.headers]");
    let table = table.split("\n[").next().unwrap();
    let unquote = |s: &str| s.trim().strip_prefix('"').and_then(|s| s.strip_suffix('"')).map(str::to_string);
    table
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|line| {
            let (name, value) = line.split_once(" = ").unwrap_or_else(|| panic!("Trunk.toml: `{line}`"));
            (unquote(name).expect("a quoted name"), unquote(value).expect("a quoted value"))
        })
        .collect()
}

#[test]
fn the_dev_server_sends_what_the_built_site_sends() {
    let languages = super::languages(&root().join("content")).unwrap();
    let dev = trunk_serve_headers();
    let built = headers::parse(&headers::write("/", &headers::rules(&languages)));
    let paths = [
        "/",
        "/index.html",
        "/chapters/sum/",
        "/glossary",
        "/ru/chapters/sum/",
        "/no/such/page",
        "/embed/chapters/sum/",
        "/ja/embed/experiments/sum",
        "/register-sw.js",
        "/app-5ce2ca8a65ba77c9/app_bg.wasm",
        "/engine-5ce2ca8a65ba77c9/coordinator.js",
        "/content/en/sum-7adb31fe434d7c52.json",
        "/style-6ed93615ec0ccb3e.css",
    ];
    for path in paths {
        let mut expected = headers::for_path(&built, path);
        // What differs by necessity, and nothing else:
        // 1. Caching: only the built site's files are named after their content (the dev server
        //    rebuilds files in place, its engine in `engine/`), so only they may be kept for good.
        let content_addressed = CONTENT_ADDRESSED.iter().any(|p| matches_pattern(&format!("/{p}"), path));
        assert_eq!(expected.remove("Cache-Control").is_some(), content_addressed, "{path}");
        // 2. Trunk sends one set of headers for every path: an embed's, so that embeds work in the
        //    dev server too. On other paths it adds the embeds' framing policy and isolation.
        let embed = headers::embed_patterns(&languages).iter().any(|p| matches_pattern(&format!("/{p}"), path));
        if !embed {
            let policy = expected.get_mut("Content-Security-Policy").expect("every path has the policy");
            assert_eq!(policy, CSP, "{path}");
            policy.push_str(", frame-ancestors *");
            assert_eq!(expected.insert("Document-Isolation-Policy".into(), "isolate-and-require-corp".into()), None);
        }
        assert_eq!(dev, expected, "{path}: Trunk.toml's [serve.headers] against the built site's _headers");
    }
}

#[test]
fn the_service_worker_gets_the_headers_routes_and_files_of_the_build() {
    let dir = temp_dir("service-worker");
    std::fs::copy(root().join("www/sw.js"), dir.join("sw.js")).unwrap();
    std::fs::create_dir_all(dir.join("app-5ce2ca8a65ba77c9")).unwrap();
    std::fs::write(dir.join("app-5ce2ca8a65ba77c9/app.js"), "// app").unwrap();
    std::fs::write(dir.join("index.html"), TRUNK_PAGE).unwrap();
    std::fs::write(dir.join("_headers"), "").unwrap();
    let rules = headers::rules(&langs(&["en", "ru"]));
    let routes = langs(&["", "chapters/sum", "ru", "embed/experiments/sum"]);
    write_service_worker(&dir, &routes, &rules).unwrap();
    let code = std::fs::read_to_string(dir.join("sw.js")).unwrap();
    // What the placeholder `self.NAME = …;` became: JavaScript, here also JSON once its strings
    // (file names, never quoted themselves) are in double quotes.
    let value = |name: &str| {
        let start = code.find(&format!("self.{name} = ")).unwrap_or_else(|| panic!("{name}")) + name.len() + 8;
        let end = start + code[start..].find(";\n").unwrap();
        code[start..end].to_string()
    };
    let parse = |name: &str| {
        let text = value(name);
        let json = if name == "__HEADERS" { text } else { text.replace('\'', "\"").replace(",\n]", "\n]") };
        serde_json::from_str::<serde_json::Value>(&json).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    assert_eq!(parse("__PRECACHE"), serde_json::json!(["app-5ce2ca8a65ba77c9/app.js", "index.html"]));
    assert_eq!(parse("__ROUTES"), serde_json::json!(["", "chapters/sum", "ru", "embed/experiments/sum"]));
    assert_eq!(parse("__CONTENT_ADDRESSED"), serde_json::json!(CONTENT_ADDRESSED));
    // The headers of `_headers`, but the caching, which is the HTTP cache's.
    let expected: Vec<serde_json::Value> = rules
        .iter()
        .filter(|r| r.headers.iter().any(|(n, _)| n != "Cache-Control"))
        .map(|r| {
            let headers: serde_json::Map<_, _> = r
                .headers
                .iter()
                .filter(|(n, _)| n != "Cache-Control")
                .map(|(n, v)| (n.clone(), v.clone().into()))
                .collect();
            serde_json::json!({ "pattern": r.pattern, "headers": headers })
        })
        .collect();
    assert_eq!(parse("__HEADERS"), serde_json::Value::Array(expected));
    let version = value("__VERSION");
    // Other headers are another version, though no file changed.
    std::fs::copy(root().join("www/sw.js"), dir.join("sw.js")).unwrap();
    write_service_worker(&dir, &routes, &headers::rules(&langs(&["en"]))).unwrap();
    let code = std::fs::read_to_string(dir.join("sw.js")).unwrap();
    assert!(!code.contains(&format!("self.__VERSION = {version};")), "{version}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Whether some line of `text`, not a comment, names `name` and `value` (in whatever syntax:
/// `_headers`, TOML, JavaScript, nginx, Apache, Caddy).
fn sets(text: &str, name: &str, value: &str) -> bool {
    let comment = |line: &str| line.trim_start().starts_with('#') || line.trim_start().starts_with("//");
    text.lines().any(|line| !comment(line) && line.contains(name) && line.contains(value))
}

#[test]
fn every_place_that_writes_headers_sends_nosniff_and_isolation() {
    // The dev server of `cargo xtask serve` (its whole table: the test above), and the rules that
    // `_headers` and the service worker get.
    let trunk = std::fs::read_to_string(root().join("Trunk.toml")).unwrap();
    let every = headers::for_path(&headers::rules(&langs(&["en"])), "anything");
    for (name, value) in EVERY_RESPONSE {
        assert!(sets(&trunk, name, value), "Trunk.toml does not send {name}: {value}");
        assert_eq!(every.get(name).map(String::as_str), Some(value), "the site's rules do not send {name}");
    }
    // The README's list for any server and its nginx, Apache and Caddy examples.
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let deploy = &readme[readme.find("**Any server**").expect("README has the server examples")..];
    let mut blocks = deploy.split("```").skip(1).step_by(2).take(4);
    for language in ["", "nginx", "apache", "caddy"] {
        let block = blocks.next().unwrap_or_default();
        let example = if language.is_empty() { "list of headers".to_string() } else { format!("{language} example") };
        assert!(block.starts_with(&format!("{language}\n")), "README: no {example} where expected: {block:?}");
        for (name, value) in EVERY_RESPONSE {
            assert!(sets(block, name, value), "README's {example} does not send {name}: {value}");
        }
        // Per path: the name and the value may be on lines of their own (nginx's maps).
        for (name, value) in [headers::NOT_FRAMED, headers::EMBED_ISOLATION] {
            assert!(block.contains(name) && block.contains(value), "README's {example} does not send {name}: {value}");
            let languages = if language.is_empty() { "/<lang>/embed/" } else { "([a-z][a-z]/)?embed/" };
            assert!(block.contains(languages), "README's {example}: embeds in every language");
        }
    }
}

#[test]
fn public_urls_are_paths_with_slashes() {
    assert_eq!(normalise_public_url("repo").unwrap(), "/repo/");
    assert_eq!(normalise_public_url("/repo").unwrap(), "/repo/");
    assert_eq!(normalise_public_url("/").unwrap(), "/");
    assert!(normalise_public_url("https://example.com/").is_err());
}

/// Control characters that could end a line of `_headers`, an HTML attribute's line or an XML
/// text, or drive a terminal: C0, DEL and C1.
const CONTROL: [char; 8] = ['\n', '\r', '\t', '\0', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}'];

#[test]
fn control_characters_are_refused_in_the_site_and_the_public_url() {
    for c in CONTROL {
        let code = format!("U+{:04X}", c as u32);
        for site in
            [format!("https://example.org/lab{c}/"), format!("https://example.org{c}/"), format!("https://ex{c}")]
        {
            let error = normalise_site(&site).unwrap_err();
            assert!(
                error.starts_with("--site ") && error.contains("control character") && error.contains(&code),
                "{error}"
            );
            assert!(!error.contains(c), "the message shows the character escaped: {error:?}");
        }
        for url in [format!("/lab{c}/"), format!("{c}"), format!("/a/{c}b/")] {
            let error = normalise_public_url(&url).unwrap_err();
            assert!(error.starts_with("--public-url ") && error.contains(&code), "{error}");
            assert!(!error.contains(c), "the message shows the character escaped: {error:?}");
        }
    }
    // Unicode beyond them is not a control character.
    assert_eq!(normalise_public_url("/l\u{e4}b/").unwrap(), "/l\u{e4}b/");
    assert_eq!(normalise_site("https://example.org/l\u{e4}b").unwrap(), "https://example.org/l\u{e4}b/");
}

#[test]
fn the_dist_command_refuses_a_control_character_before_it_builds() {
    // The argument after is unknown, so without the check the command stops there, never building.
    for name in ["--public-url", "--site"] {
        let value = if name == "--site" { "https://example.org/a\nb/" } else { "/a\nb/" };
        let args = [name.to_string(), value.to_string(), "--no-such-option".to_string(), "x".to_string()];
        let error = command(&args).unwrap_err();
        assert!(error.starts_with(&format!("{name} ")) && error.contains("U+000A"), "{error}");
    }
}

#[test]
fn the_site_address_gives_the_public_url_and_must_agree_with_it() {
    assert_eq!(site_public_url(None, None).unwrap(), "/");
    assert_eq!(site_public_url(None, Some("https://you.github.io/lab/")).unwrap(), "/lab/");
    assert_eq!(site_public_url(None, Some("https://lab.example/")).unwrap(), "/");
    assert_eq!(site_public_url(Some("/lab/".into()), Some("https://you.github.io/lab/")).unwrap(), "/lab/");
    assert!(site_public_url(Some("/other/".into()), Some("https://you.github.io/lab/")).is_err());
}

#[test]
fn every_route_page_links_its_oembed_answer_which_embeds_the_right_route() {
    let dir = temp_dir("oembed");
    let routes = routes(&root().join("content/en")).unwrap();
    for lang in ["en", "ru"] {
        for route in &routes {
            let folder = dir.join(language_route(lang, route));
            std::fs::create_dir_all(&folder).unwrap();
            std::fs::write(folder.join("index.html"), TRUNK_PAGE).unwrap();
        }
    }
    // As `package_for` does: the strict page first, then the links.
    externalise_inline_scripts(&dir).unwrap();
    add_csp(&dir).unwrap();
    let site = "https://lab.example/lab/";
    for lang in ["en", "ru"] {
        oembed::write(&dir, site, lang, &root().join("content").join(lang), &routes).unwrap();
    }
    for lang in ["en", "ru"] {
        let ui = interface_texts(lang).unwrap();
        for page in prose::PAGES {
            let html = std::fs::read_to_string(dir.join(language_route(lang, page)).join("index.html")).unwrap();
            assert!(!html.contains("json+oembed"), "{page} is not for embedding");
        }
        for route in routes.iter().filter(|r| !prose::PAGES.contains(&r.as_str())) {
            let page_route = language_route(lang, route);
            let page = std::fs::read_to_string(dir.join(&page_route).join("index.html")).unwrap();
            let links: Vec<Tag> = tags(&page)
                .into_iter()
                .filter(|t| t.name == "link" && t.attr("type") == Some("application/json+oembed"))
                .collect();
            assert_eq!(links.len(), 1, "{page_route}: one discovery link");
            let href = links[0].attr("href").unwrap();
            let file = href.strip_prefix(site).unwrap_or_else(|| panic!("{page_route}: {href} is not on the site"));
            let answer: oembed::Answer =
                serde_json::from_str(&std::fs::read_to_string(dir.join(file)).unwrap()).unwrap();
            assert_eq!((answer.version.as_str(), answer.kind.as_str()), ("1.0", "rich"));
            assert_eq!(answer.provider_url, site);
            assert_eq!(answer.provider_name, ui.site_name, "{page_route}: the provider in its language");
            assert!(answer.title.starts_with(&format!("{}: ", ui.site_name)), "{page_route}: {}", answer.title);
            let embedded = oembed::embedded_route(route);
            assert!(routes.contains(&embedded), "{route}: {embedded} is a route the site has");
            assert!(route.starts_with("embed/") == (embedded == *route), "{route} → {embedded}");
            let src = format!("{site}{}", language_route(lang, &embedded));
            assert!(
                answer.html.starts_with(&format!("<iframe src=\"{src}\" title=\"")),
                "{page_route}: {}",
                answer.html
            );
            assert!(!answer.title.is_empty() && answer.html.contains(&answer.title.replace('"', "&quot;")));
            check_strict_page(&page).unwrap_or_else(|e| panic!("{page_route}: {e}"));
        }
    }
    let ru = std::fs::read_to_string(dir.join("oembed/ru-chapters-sum.json")).unwrap();
    assert!(ru.contains(ui_text::ru::RU.site_name) && !ru.contains(ui_text::en::EN.site_name), "{ru}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_language_has_its_routes_and_names_the_others() {
    assert_eq!(super::language_route("en", ""), "");
    assert_eq!(super::language_route("en", "chapters/sum"), "chapters/sum");
    assert_eq!(super::language_route("ru", ""), "ru");
    assert_eq!(super::language_route("ru", "embed/experiments/sum"), "ru/embed/experiments/sum");
    let languages = vec!["en".to_string(), "ru".to_string()];
    let links = super::alternates("/lab/", Some("https://lab.example/lab/"), &languages, "chapters/sum");
    assert!(links.contains(r#"hreflang="en" href="https://lab.example/lab/chapters/sum/""#), "{links}");
    assert!(links.contains(r#"hreflang="ru" href="https://lab.example/lab/ru/chapters/sum/""#), "{links}");
    assert!(links.contains(r#"hreflang="x-default""#), "{links}");
    let page = super::page_in_language("<html lang=\"en\"><head><title>x</title></head></html>", "ru", &links);
    assert!(page.starts_with("<html lang=\"ru\">"), "{page}");
    assert!(page.find("hreflang").unwrap() < page.find("</head>").unwrap());
}

#[test]
fn the_languages_are_the_content_folders_with_a_landing_text() {
    let languages = super::languages(&super::root().join("content")).unwrap();
    assert_eq!(languages.first().map(String::as_str), Some("en"));
    assert!(!languages.iter().any(|l| l == "code"), "content/code holds listings, not a language");
}

#[test]
fn every_route_preloads_the_prose_it_shows_first() {
    let texts = crate::site::texts().unwrap();
    let slug = |route: &str| prose_of_route(&texts, route).map(|t| (t.lang.as_str(), t.slug.as_str()));
    assert_eq!(slug(""), Some(("en", "index")));
    assert_eq!(slug("chapters/sum"), Some(("en", "sum")));
    assert_eq!(slug("embed/chapters/sum"), Some(("en", "sum")));
    assert_eq!(slug("glossary"), Some(("en", "glossary")));
    assert_eq!(slug("ja/how-the-lab-works"), Some(("ja", "how-the-lab-works")));
    assert_eq!(slug("embed/experiments/sum"), None, "an embedded experiment shows no prose");
    assert_eq!(slug("chapters/no-such-chapter"), None);
    assert_eq!(slug("ru/chapters/sum"), Some(("ru", "sum")));
    assert_eq!(slug("ru"), Some(("ru", "index")));
    let landing = texts.iter().find(|t| t.lang == "ru" && t.slug == "index");
    let sum = prose_of_route(&texts, "ru/chapters/sum").unwrap();
    let page =
        super::titled("<title>Concurrency Lab</title><meta name=\"description\" content=\"x\" />", Some(sum), landing);
    assert!(page.contains(&format!("<title>{} · {}</title>", sum.title, landing.unwrap().title)), "{page}");
    assert!(page.contains(&format!("content=\"{}\"", sum.summary.replace('"', "&quot;"))), "{page}");
    let content = root().join("content/en");
    for route in routes(&content).unwrap().iter().filter(|r| !r.starts_with("embed/experiments/")) {
        assert!(slug(route).is_some(), "{route}: no prose to preload");
    }

    let dir = temp_dir("preload");
    let sum = prose_of_route(&texts, "chapters/sum");
    assert!(preload_prose(TRUNK_PAGE, "/lab/", sum, &dir).unwrap_err().contains("missing from the build"));
    prose::write_site(&texts, &dir).unwrap();
    let page = preload_prose(TRUNK_PAGE, "/lab/", sum, &dir).unwrap();
    let links: Vec<Tag> =
        tags(&page).into_iter().filter(|t| t.name == "link" && t.attr("rel") == Some("preload")).collect();
    assert_eq!(links.len(), 1, "{page}");
    let href = format!("/lab/{}", sum.unwrap().site_path());
    assert_eq!((links[0].attr("href"), links[0].attr("as")), (Some(href.as_str()), Some("fetch")));
    // The app's fetch is same-origin with credentials: the preload must say `crossorigin` to be used.
    assert_eq!(links[0].attr("crossorigin"), Some(""));
    assert!(page.find("rel=\"preload\"").unwrap() < page.find("</head>").unwrap());
    assert_eq!(preload_prose(TRUNK_PAGE, "/", None, &dir).unwrap(), TRUNK_PAGE);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn only_files_named_after_their_content_are_cached_for_good() {
    assert!(matches_pattern("app-*", "app-5ce2ca8a65ba77c9/chunk_13.wasm"));
    assert!(matches_pattern("style-*.css", "style-6ed93615ec0ccb3e.css"));
    assert!(!matches_pattern("style-*.css", "style-6ed93615ec0ccb3e.css.map"));
    assert!(!matches_pattern("app-*", "engine/app-x.js"));
    assert!(matches_pattern("content/*", "content/ru/sum-7adb31fe434d7c52.json"));
    assert!(matches_pattern("engine-*", "engine-5ce2ca8a65ba77c9/engine_bg.wasm"));
    assert!(matches_pattern("engine-*", "engine-single-5ce2ca8a65ba77c9/coordinator.js"));
    assert!(!matches_pattern("engine-*", "engine/coordinator.js"));
    let hashed = [
        "app-5ce2ca8a65ba77c9/app.js",
        "engine-5ce2ca8a65ba77c9/engine.js",
        "engine-single-5ce2ca8a65ba77c9/engine.js",
        "content/ru/sum-7adb31fe434d7c52.json",
        "init-786e8b627f1a41f2.js",
    ];
    for path in hashed {
        assert!(carries_hash(path), "{path}");
    }
    for path in ["app-latest/app.js", "content/ru/sum.json", "init-786e8b627f1a41f2x.js", "style-12345.css"] {
        assert!(!carries_hash(path), "{path}");
    }
    let dir = temp_dir("content-addressed");
    std::fs::create_dir_all(dir.join("content/en")).unwrap();
    std::fs::write(dir.join("content/en/sum-7adb31fe434d7c52.json"), "{}").unwrap();
    std::fs::create_dir_all(dir.join("engine")).unwrap();
    std::fs::write(dir.join("engine/engine.js"), "").unwrap();
    assert_eq!(check_content_addressed(&dir), Ok(()));
    std::fs::write(dir.join("content/en/sum.json"), "{}").unwrap();
    let error = check_content_addressed(&dir).unwrap_err();
    assert!(error.contains("content/en/sum.json"), "{error}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn stamping_names_each_engine_folder_after_the_build_the_pages_and_coordinators_carry() {
    let dir = temp_dir("stamp");
    for folder in ENGINE_FOLDERS {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
        std::fs::write(dir.join(folder).join("coordinator.js"), "const ENGINE_BUILD = 'dev';\n").unwrap();
        std::fs::write(dir.join(folder).join("engine_bg.wasm"), folder).unwrap();
    }
    std::fs::write(dir.join("index.html"), TRUNK_PAGE).unwrap();
    assert_eq!(engine_build(&dir), Ok(None));
    assert_eq!(engine_dir(&dir, "engine"), Ok(dir.join("engine")));
    let build = stamp_engine_build(&dir).unwrap();
    assert_eq!(build.len(), 16);
    assert_eq!(engine_build(&dir), Ok(Some(build.clone())));
    for folder in ENGINE_FOLDERS {
        assert!(!dir.join(folder).exists(), "{folder} is still there");
        let named = engine_dir(&dir, folder).unwrap();
        assert_eq!(named, dir.join(format!("{folder}-{build}")));
        let coordinator = std::fs::read_to_string(named.join("coordinator.js")).unwrap();
        assert!(coordinator.contains(&format!("const ENGINE_BUILD = '{build}';")), "{coordinator}");
        assert!(carries_hash(&format!("{folder}-{build}/coordinator.js")));
    }
    // Another engine is another build, in other folders.
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    for folder in ENGINE_FOLDERS {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
        std::fs::write(dir.join(folder).join("coordinator.js"), "const ENGINE_BUILD = 'dev';\n").unwrap();
        std::fs::write(dir.join(folder).join("engine_bg.wasm"), "changed").unwrap();
    }
    std::fs::write(dir.join("index.html"), TRUNK_PAGE).unwrap();
    assert_ne!(stamp_engine_build(&dir).unwrap(), build);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A page as `cargo xtask build` leaves it for `/`: Trunk's links under the base, the app's
/// preloads, its start-up moved into a file, the policy, and a relative script.
const BUILT_PAGE: &str = r#"<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Concurrency Lab</title>
    <base href="/" />
    <!-- not a tag: <link href="/in-a-comment.css"> -->
    <link rel="stylesheet" href="/style-0123456789abcdef.css" integrity="sha384-AB"/>
    <link rel="icon" href='/favicon-0123456789abcdef.svg'/>
    <script src="register-sw.js" defer></script>
<link rel="modulepreload" href="/app-0123456789abcdef/app.js" crossorigin="anonymous">
<link rel="preload" HREF=/app-0123456789abcdef/app_bg.wasm crossorigin="anonymous" as="fetch" type="application/wasm">
<script type="module">
import init, * as bindings from './app-0123456789abcdef/app.js';
const wasm = await init({ module_or_path: './app-0123456789abcdef/app_bg.wasm' });
</script>
</head>
  <body><div id="boot" class="boot">Loading…</div></body>
</html>"#;

#[test]
fn one_build_moves_to_another_public_url_by_its_pages_alone() {
    let dir = temp_dir("rebase");
    std::fs::create_dir_all(dir.join("chapters/sum")).unwrap();
    for file in ["index.html", "chapters/sum/index.html"] {
        std::fs::write(dir.join(file), BUILT_PAGE).unwrap();
    }
    std::fs::write(dir.join("style-0123456789abcdef.css"), "body { background: url(data:image/png;base64,AA); }")
        .unwrap();
    externalise_inline_scripts(&dir).unwrap();
    add_csp(&dir).unwrap();
    let built = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let scripts = || {
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("init-"))
            .collect();
        files.sort();
        files.into_iter().map(|n| (n.clone(), std::fs::read_to_string(dir.join(n)).unwrap())).collect::<Vec<_>>()
    };
    let start_up = scripts();
    assert_eq!(start_up.len(), 1);

    rebase(&dir, "/lab/").unwrap();
    let moved = std::fs::read_to_string(dir.join("index.html")).unwrap();
    // Exactly the addresses that started at `/` now start at `/lab/`: nothing else changed.
    let expected = built
        .replace("href=\"/", "href=\"/lab/")
        .replace("href='/", "href='/lab/")
        .replace("HREF=/", "HREF=/lab/")
        .replace("src=\"/", "src=\"/lab/")
        .replace("/lab/in-a-comment.css", "/in-a-comment.css");
    assert_eq!(moved, expected);
    assert!(moved.contains("<base href=\"/lab/\" />") && moved.contains("src=\"/lab/init-"), "{moved}");
    assert!(moved.contains("<link href=\"/in-a-comment.css\">"), "a comment is not moved");
    assert!(moved.contains("<script src=\"register-sw.js\" defer>"), "a relative address follows the base");
    for tag in tags(&moved) {
        for (name, value) in &tag.attrs {
            if ["href", "src"].contains(&name.as_str()) && value.as_deref().is_some_and(|v| v.starts_with('/')) {
                assert!(value.as_deref().unwrap().starts_with("/lab/"), "<{} {name}={value:?}>", tag.name);
            }
        }
    }
    assert_eq!(std::fs::read_to_string(dir.join("chapters/sum/index.html")).unwrap(), moved);
    assert_eq!(scripts(), start_up, "the start-up script does not depend on the public URL");
    check_strict_page(&moved).unwrap();
    // And back: the build as it was.
    rebase(&dir, "/").unwrap();
    assert_eq!(std::fs::read_to_string(dir.join("index.html")).unwrap(), built);

    // What would not follow the site is refused, not left behind.
    let outside = BUILT_PAGE.replace("<base href=\"/\" />", "<base href=\"/lab/\" />");
    let error = rebase::rebase_page(&outside, "/docs/").unwrap_err();
    assert!(error.contains("/style-0123456789abcdef.css") && error.contains("outside"), "{error}");
    assert!(rebase::rebase_page("<html><head></head></html>", "/lab/").unwrap_err().contains("<base"));
    std::fs::write(dir.join("style-0123456789abcdef.css"), "i { background: url( \"/icon.svg\" ); }").unwrap();
    let error = rebase(&dir, "/lab/").unwrap_err();
    assert!(error.contains("style-0123456789abcdef.css") && error.contains("url(/"), "{error}");
    std::fs::remove_dir_all(dir).unwrap();
}
