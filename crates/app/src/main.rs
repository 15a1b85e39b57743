//! Concurrency Lab's user interface: a Leptos single-page app of chapters with live experiments.
//!
//! The UI never runs a workload and never touches threads or shared memory: it sends jobs to the
//! engine's coordinator Web Worker ([`engine_client`]) and draws what comes back. That is what keeps
//! the page responsive while every worker of the machine is busy.

mod code_listings;
mod components;
mod content;
mod engine_client;
mod environment;
mod format;
mod i18n;
mod links;
mod pages;
mod panels;
mod pictures;
mod presets;
mod prose;
mod runner;
mod site_json;

use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

fn main() {
    console_error_panic_hook::set_once();
    // The page's language, from its address: screen readers, fonts and hyphenation follow it.
    if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = root.set_attribute("lang", i18n::lang().tag());
    }
    // A page in another language than English first fetches its interface strings (preloaded by
    // the page, so usually already here); an English page starts at once.
    wasm_bindgen_futures::spawn_local(async {
        i18n::load_table().await;
        // Instantiating the module was this task's work; the mount gets a task of its own
        // (issue 15: no main-thread task over 50 ms).
        let _ = components::later::after_ms(0).await;
        // The static "Loading…" line in index.html has done its job.
        if let Some(boot) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("boot")) {
            boot.remove();
        }
        leptos::mount::mount_to_body(App);
    });
}

#[component]
fn App() -> impl IntoView {
    view! {
        <Router base=links::base_path()>
            <components::layout::Layout>
                // The page's frame first, its page in the next task (issue 15: no task over 50 ms).
                <components::later::Later>
                    <Routes fallback=pages::not_found::NotFound>
                        <Route path=path!("/") view=pages::landing::Landing />
                        <Route path=path!("/chapters/:slug") view=pages::chapter::ChapterPage />
                        <Route path=path!("/glossary") view=pages::glossary::GlossaryPage />
                        <Route path=path!("/how-the-lab-works") view=pages::glossary::HowTheLabWorksPage />
                        <Route path=path!("/embed/chapters/:slug") view=pages::chapter::ChapterPage />
                        <Route path=path!("/embed/experiments/:name") view=pages::embed::ExperimentEmbed />
                    </Routes>
                </components::later::Later>
            </components::layout::Layout>
        </Router>
    }
}
