//! Naming the engine file at fault when the engine does not load: each file fetched once more from
//! the server, and the first that is missing, late or of the wrong kind said in the reader's words.

use super::failure_words::describe;
use super::lifecycle::after_ms;
use super::site_build::{engine_files, site_base};
use super::Mode;
use crate::i18n::{message, ui, Arg};
use wasm_bindgen::JsCast;

/// How long each engine file may take to arrive when the page looks for the one at fault.
pub(super) const DIAGNOSIS_LIMIT_MS: i32 = 4_000;

/// Fetch every file of the engine once more and say what is wrong with the first one that is
/// missing, late, or not what it should be; `None` if they all look right.
pub(super) async fn diagnose(mode: Mode) -> Option<String> {
    let base = site_base();
    let checks = engine_files(mode).into_iter().map(|path| {
        let url = format!("{base}{path}");
        async move { check_file(&url, &path).await }
    });
    futures_util::future::join_all(checks).await.into_iter().flatten().next()
}

/// Ask the server itself for `url` (`no-store`: no cache answers, and the service worker passes it
/// on), given up after [`DIAGNOSIS_LIMIT_MS`]: the answer on its way, and the controller that
/// aborts it (its signal tells whether it was given up).
pub(super) fn fetch_from_server(url: &str) -> Option<(wasm_bindgen_futures::JsFuture, web_sys::AbortController)> {
    let window = web_sys::window()?;
    let abort = web_sys::AbortController::new().ok()?;
    let init = web_sys::RequestInit::new();
    init.set_cache(web_sys::RequestCache::NoStore);
    init.set_signal(Some(&abort.signal()));
    let give_up = abort.clone();
    after_ms(DIAGNOSIS_LIMIT_MS, move || give_up.abort());
    Some((wasm_bindgen_futures::JsFuture::from(window.fetch_with_str_and_init(url, &init)), abort))
}

/// What is wrong with the engine file at `url` (shown as `path`), if anything.
async fn check_file(url: &str, path: &str) -> Option<String> {
    let (fetched, abort) = fetch_from_server(url)?;
    let fetched = fetched.await;
    let t = ui();
    let response: web_sys::Response = match fetched {
        Ok(response) => response.unchecked_into(),
        Err(_) if abort.signal().aborted() => {
            let seconds = (DIAGNOSIS_LIMIT_MS / 1000) as u64;
            return Some(message(t.engine_file_late, &[("path", Arg::Text(path)), ("s", Arg::Count(seconds))]));
        }
        Err(error) => {
            let reason = describe(&error);
            return Some(message(
                t.engine_file_unfetched,
                &[("path", Arg::Text(path)), ("reason", Arg::Text(&reason))],
            ));
        }
    };
    // Only the headers were needed: do not download the rest.
    abort.abort();
    if !response.ok() {
        // The status code is a protocol token, shown as it is (like "404 Not Found").
        let status = format!("{} {}", response.status(), response.status_text()).trim_end().to_string();
        return Some(message(t.engine_file_status, &[("path", Arg::Text(path)), ("status", Arg::Text(&status))]));
    }
    let kind = response.headers().get("content-type").ok().flatten().unwrap_or_default();
    if path.ends_with(".js") && !kind.contains("javascript") {
        let kind = if kind.is_empty() { t.engine_file_no_content_type } else { &kind };
        return Some(message(t.engine_file_not_javascript, &[("path", Arg::Text(path)), ("kind", Arg::Text(kind))]));
    }
    None
}
