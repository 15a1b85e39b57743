//! What an experiment area shows when threads cannot run on this page, instead of the experiment.

use crate::engine_client::Unavailable;
use crate::i18n::ui;
use experiments::catalog::ExperimentId;
use leptos::prelude::*;

#[component]
pub fn UnavailableNotice(reason: Unavailable) -> impl IntoView {
    let t = ui();
    view! {
        <div class="notice notice-warning" role="note" data-testid="unavailable">
            <h3>{t.unavailable_title}</h3>
            {match reason {
                Unavailable::NoWorkers => view! { <p>{t.no_workers_body}</p> }.into_any(),
            }}
        </div>
    }
}

/// The honest banner of the single-worker mode: what is different here, and where the full lab is.
/// `by_messages`: this experiment runs on message-passing workers there (see the engine's
/// `web::messages`), so its worker count is real and only the way data travels differs. On an
/// isolated page of a browser without SharedArrayBuffer the reason is the browser, not the page,
/// and the lesson in its own tab would be no different: it says so, with no such link.
#[component]
pub fn ModeBanner(mode: crate::engine_client::Mode, #[prop(optional)] by_messages: bool) -> impl IntoView {
    let t = ui();
    (mode == crate::engine_client::Mode::SingleWorker).then(|| {
        let browser_lacks_it = browser_lacks_shared_memory();
        let (title, body) = if browser_lacks_it {
            (t.no_shared_memory_title, t.no_shared_memory_body)
        } else if by_messages {
            (t.message_workers_title, t.message_workers_body)
        } else {
            (t.single_worker_title, t.single_worker_body)
        };
        view! {
            <div class="notice notice-warning" role="note" data-testid="single-worker-banner">
                <h3>{title}</h3>
                <p>{body}</p>
                {(!browser_lacks_it).then(|| view! {
                    <p><a href=full_lesson_url() target="_blank" rel="noopener">{t.open_isolated}</a></p>
                })}
            </div>
        }
    })
}

/// Whether the page is cross-origin isolated and still has no SharedArrayBuffer: the browser
/// leaves shared memory out (WebKitGTK as Debian builds it), and no other address would help.
pub fn browser_lacks_shared_memory() -> bool {
    let machine = crate::environment::machine();
    machine.isolated && !machine.shared_memory
}

/// This page's address as a full lesson in its own tab: embed views point to their chapter.
pub fn full_lesson_url() -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return String::new() };
    let origin = location.origin().unwrap_or_default();
    let path = location.pathname().unwrap_or_default();
    let search = location.search().unwrap_or_default();
    // An embedded chapter opens as that chapter; an embedded experiment opens as its chapter.
    let path = match path.split_once("/embed/") {
        Some((base, rest)) => match rest.strip_prefix("experiments/") {
            Some(name) => {
                let chapter = ExperimentId::from_slug(name).and_then(crate::components::share::chapter_of);
                let slug = chapter.map_or("", |c| c.slug);
                format!("{base}/chapters/{slug}")
            }
            None => format!("{base}/{rest}"),
        },
        None => path,
    };
    format!("{origin}{path}{search}")
}
