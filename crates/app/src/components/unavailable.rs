//! What an experiment area shows when threads cannot run on this page, instead of the experiment.

use crate::engine_client::Unavailable;
use crate::i18n::ui;
use leptos::prelude::*;

#[component]
pub fn UnavailableNotice(reason: Unavailable) -> impl IntoView {
    let t = ui();
    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    view! {
        <div class="notice notice-warning" role="note" data-testid="unavailable">
            <h3>{t.unavailable_title}</h3>
            {match reason {
                Unavailable::NotIsolated => view! {
                    <p>{t.not_isolated_body}</p>
                    <p><a href=href target="_blank" rel="noopener">{t.open_isolated}</a></p>
                }.into_any(),
                Unavailable::NoWorkers => view! { <p>{t.no_workers_body}</p> }.into_any(),
            }}
        </div>
    }
}
