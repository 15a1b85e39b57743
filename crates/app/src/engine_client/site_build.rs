//! Which engine build this page was written for, which one the site serves now, and where the
//! engine's files are (their folder is named after the build).

use super::faulty_file::fetch_from_server;
use super::Mode;
use wasm_bindgen::JsCast;

/// The folder the site is served from (the document's base URL), ending in `/`.
pub(super) fn site_base() -> String {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_else(|| "/".into());
    if base.ends_with('/') {
        base
    } else {
        format!("{}/", base.rsplit_once('/').map_or("", |(b, _)| b))
    }
}

/// The engine's folder below the site's base: named after its build (`engine-<build>/`, so
/// browsers may keep its files for good and a warm page asks for none of them), or plain `engine/`
/// in a development build, whose page carries no build id.
fn engine_folder(mode: Mode) -> String {
    let name = match mode {
        Mode::Threads => "engine",
        Mode::SingleWorker => "engine-single",
    };
    match page_build() {
        Some(build) => format!("{name}-{build}"),
        None => name.to_string(),
    }
}

/// The engine build this page was written for (`<meta name="lab-engine-build">`, stamped by
/// `cargo xtask build`); `None` in a development build.
pub fn page_build() -> Option<String> {
    build_in(&web_sys::window()?.document()?)
}

/// The engine build a document names, if it names one.
fn build_in(document: &web_sys::Document) -> Option<String> {
    let meta = document.query_selector("meta[name=\"lab-engine-build\"]").ok().flatten()?;
    meta.get_attribute("content").filter(|build| !build.is_empty())
}

pub(super) fn coordinator_url(mode: Mode) -> String {
    format!("{}{}/coordinator.js", site_base(), engine_folder(mode))
}

/// The address of a script of the threaded engine (e.g. `idle-worker.js`).
pub fn engine_script_url(script: &str) -> String {
    coordinator_url(Mode::Threads).replace("coordinator.js", script)
}

/// Whether an engine of `build` belongs with this page: the same build as the page's
/// `<meta name="lab-engine-build">`, or either of them unstamped (a development build).
pub(super) fn same_build(build: &str) -> bool {
    match page_build() {
        Some(page) => build.is_empty() || build == "dev" || page == build,
        None => true,
    }
}

/// Whether the site now serves pages of another engine build than this page's: a new version was
/// deployed while the page was open, and this page's engine folder (named after its build) may be
/// gone. Reads the build id in the site's landing page, from the network (`no-store`, which the
/// service worker passes on), within [`DIAGNOSIS_LIMIT_MS`](super::faulty_file::DIAGNOSIS_LIMIT_MS);
/// `false` in a development build, offline, late, or when the answer names no build.
pub(super) async fn site_has_another_build() -> bool {
    let Some(page) = page_build() else { return false };
    let Some((fetched, _abort)) = fetch_from_server(&site_base()) else { return false };
    let Ok(response) = fetched.await else { return false };
    let response: web_sys::Response = response.unchecked_into();
    let Ok(text) = response.text() else { return false };
    // The abort also ends a body that stalls.
    let Ok(html) = wasm_bindgen_futures::JsFuture::from(text).await else { return false };
    html.as_string().as_deref().and_then(build_named_in).is_some_and(|live| live != page)
}

/// The engine build a page's HTML names in its `<meta name="lab-engine-build" content="…">`, as
/// `cargo xtask build` writes it.
fn build_named_in(html: &str) -> Option<&str> {
    const META: &str = "<meta name=\"lab-engine-build\" content=\"";
    let start = html.find(META)? + META.len();
    let build = &html[start..start + html[start..].find('"')?];
    (!build.is_empty()).then_some(build)
}

/// The files the engine of `mode` loads, as paths below the site's base.
pub(super) fn engine_files(mode: Mode) -> Vec<String> {
    let helper = match mode {
        Mode::Threads => "pool-worker.js",
        Mode::SingleWorker => "message-worker.js",
    };
    ["coordinator.js", "engine.js", "engine_bg.wasm", helper]
        .iter()
        .map(|file| format!("{}/{file}", engine_folder(mode)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::build_named_in;

    #[test]
    fn a_page_names_its_engine_build_as_the_build_stamps_it() {
        let page = "<head>\n    <meta name=\"lab-engine-build\" content=\"0123456789abcdef\" />\n<title>x</title>";
        assert_eq!(build_named_in(page), Some("0123456789abcdef"));
        assert_eq!(build_named_in("<head><title>a development build</title></head>"), None);
        assert_eq!(build_named_in("<meta name=\"lab-engine-build\" content=\"\" />"), None);
        assert_eq!(build_named_in("<meta name=\"lab-engine-build\" content=\"cut off"), None);
    }
}
