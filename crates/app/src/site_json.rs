//! The site's JSON files that the app fetches when a page needs them (a text's prose, a language's
//! interface table): fetched under the page's base URL, parsed by the browser (the module carries no
//! JSON parser for them), read as lists of strings.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The address of the site file `path`: under the page's base URL, so a site served under a path
/// (`/repo/`) finds it too.
pub fn url(path: &str) -> String {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .unwrap_or_else(|| "/".into());
    format!("{}{path}", if base.ends_with('/') { base } else { format!("{base}/") })
}

/// The site file `path`, parsed; `Err` in the browser's words ("Failed to fetch", "404 Not Found").
pub async fn fetch(path: &str) -> Result<JsValue, String> {
    // What the browser said, without the stack.
    let describe = |e: JsValue| match e.dyn_ref::<js_sys::Error>() {
        Some(error) => String::from(error.message()),
        None => e.as_string().unwrap_or_default(),
    };
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response =
        JsFuture::from(window.fetch_with_str(&url(path))).await.map_err(describe)?.dyn_into().map_err(describe)?;
    if !response.ok() {
        return Err(format!("{} {}", response.status(), response.status_text()));
    }
    JsFuture::from(response.json().map_err(describe)?).await.map_err(describe)
}

/// `file[key]` as a list of strings; `None` if it is missing or not one.
pub fn strings(file: &JsValue, key: &str) -> Option<Vec<String>> {
    let value = js_sys::Reflect::get(file, &key.into()).ok().filter(js_sys::Array::is_array)?;
    js_sys::Array::from(&value).iter().map(|item| item.as_string()).collect()
}
