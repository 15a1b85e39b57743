//! Fetching the engine's files while the reader reads, so the first Run finds them cached, and
//! saying when they have arrived.

use super::lifecycle::availability;
use super::site_build::{engine_files, page_build, site_base};
use experiments::catalog::ExperimentId;
use futures_channel::oneshot;
use std::cell::RefCell;
use wasm_bindgen::JsCast;

thread_local! {
    /// Whether this page fetched the engine's files ahead of a run ([`prefetch_for_page`]).
    static PREFETCHED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The engine files [`prefetch_for_page`] is still fetching, and who waits for the last one
    /// ([`prefetch_settled`]).
    static PREFETCHING: RefCell<(usize, Vec<oneshot::Sender<()>>)> = const { RefCell::new((0, Vec::new())) };
}

/// Fetch the engine's files for a page that shows the experiments `shown`, as soon as the page is
/// there, so that they download while the reader reads instead of after the first Run: the
/// engine's folder is named after its build and kept for good, so the worker that a Run starts
/// finds every file in the browser's cache. Only the files are fetched, no worker is started: this
/// costs the core module a few hundred bytes, where starting the engine would pull the whole
/// protocol into it. Nothing is fetched when none of `shown` runs on the engine, when their chapter
/// weighs the page's own memory (`experiments::catalog::ENGINE_WITH_PAGE`, worked out at compile
/// time), in a development build (its engine folder is not content-addressed), or a second time.
pub fn prefetch_for_page(shown: &[ExperimentId]) {
    let wanted = shown.iter().any(|experiment| experiments::catalog::ENGINE_WITH_PAGE[*experiment as usize]);
    if !wanted || page_build().is_none() || PREFETCHED.with(|p| p.replace(true)) {
        return;
    }
    let Ok(mode) = availability() else { return };
    let base = site_base();
    let files = engine_files(mode);
    PREFETCHING.with(|p| p.borrow_mut().0 += files.len());
    for path in files {
        let url = format!("{base}{path}");
        wasm_bindgen_futures::spawn_local(async move {
            if let Some(window) = web_sys::window() {
                // Read to the end, so the whole body lands in the cache; a failure is the Run's to report.
                if let Ok(response) = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(&url)).await {
                    if let Ok(body) = response.unchecked_into::<web_sys::Response>().array_buffer() {
                        let _ = wasm_bindgen_futures::JsFuture::from(body).await;
                    }
                }
            }
            let waiting = PREFETCHING.with(|p| {
                let mut p = p.borrow_mut();
                p.0 -= 1;
                if p.0 == 0 {
                    std::mem::take(&mut p.1)
                } else {
                    Vec::new()
                }
            });
            for waiter in waiting {
                let _ = waiter.send(());
            }
        });
    }
}

/// Resolves once every engine file [`prefetch_for_page`] asked for has arrived (or failed), at once
/// if none is on its way: what a page fetches after it does not share the link with the engine.
pub async fn prefetch_settled() {
    let waiting = PREFETCHING.with(|p| {
        let mut p = p.borrow_mut();
        (p.0 > 0).then(|| {
            let (sender, receiver) = oneshot::channel();
            p.1.push(sender);
            receiver
        })
    });
    if let Some(receiver) = waiting {
        let _ = receiver.await;
    }
}
