//! What the reader's browser and machine offer: logical processors, browser name, isolation.
//! Shown beside every result so numbers always come with the machine that produced them.

use js_sys::Reflect;
use wasm_bindgen::JsValue;

/// The reader's machine as the browser reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// `navigator.hardwareConcurrency`: logical processors the browser may use.
    pub logical_processors: u32,
    /// e.g. "Chromium 156", "Firefox 133", "Safari 18"; `None` when the browser does not say.
    pub browser: Option<String>,
    /// `crossOriginIsolated`: whether the page may share memory between threads.
    pub isolated: bool,
    /// Whether `SharedArrayBuffer` exists at all.
    pub shared_memory: bool,
}

fn global_get(name: &str) -> JsValue {
    Reflect::get(&js_sys::global(), &name.into()).unwrap_or(JsValue::UNDEFINED)
}

fn browser_name(navigator: &web_sys::Navigator) -> Option<String> {
    // Chromium-based browsers expose brands; pick the most specific real one.
    let brands = Reflect::get(navigator, &"userAgentData".into())
        .ok()
        .filter(|d| !d.is_undefined())
        .and_then(|d| Reflect::get(&d, &"brands".into()).ok())
        .map(|b| js_sys::Array::from(&b));
    if let Some(brands) = brands {
        let named: Vec<(String, String)> = brands
            .iter()
            .filter_map(|b| {
                let brand = Reflect::get(&b, &"brand".into()).ok()?.as_string()?;
                let version = Reflect::get(&b, &"version".into()).ok()?.as_string()?;
                (!brand.contains("Brand")).then_some((brand, version))
            })
            .collect();
        if let Some((brand, version)) = named.iter().find(|(b, _)| b != "Chromium").or_else(|| named.first()) {
            return Some(format!("{brand} {version}"));
        }
    }
    let agent = navigator.user_agent().unwrap_or_default();
    let version_after =
        |marker: &str| agent.split(marker).nth(1).map(|rest| rest.split(['.', ' ']).next().unwrap_or("").to_string());
    if let Some(v) = version_after("Firefox/") {
        Some(format!("Firefox {v}"))
    } else if let Some(v) = version_after("Chrome/") {
        Some(format!("Chrome {v}"))
    } else if let (true, Some(v)) = (agent.contains("Safari/"), version_after("Version/")) {
        Some(format!("Safari {v}"))
    } else {
        None
    }
}

/// Read the machine description once; it does not change while the page is open.
pub fn machine() -> Machine {
    let window = web_sys::window().expect("the UI runs in a window");
    let navigator = window.navigator();
    let logical_processors = (navigator.hardware_concurrency() as u32).max(1);
    Machine {
        logical_processors,
        browser: browser_name(&navigator),
        isolated: global_get("crossOriginIsolated").as_bool().unwrap_or(false),
        shared_memory: !global_get("SharedArrayBuffer").is_undefined(),
    }
}

/// Whether the reader asked the operating system for less motion (replays then only step).
pub fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Whether the reader uses a dark colour scheme (charts pick their ink from it).
pub fn prefers_dark() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}
