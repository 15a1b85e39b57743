//! A text's body as a page shows it: its prose, fetched on demand ([`crate::prose`]), with the
//! experiment panels it places in between. While the prose loads, the text's summary stands in; if it
//! cannot be loaded, a notice says so with a Retry button, and the panels are built all the same.

use crate::components::later::Later;
use crate::content::ChapterText;
use crate::i18n::{fill, ui};
use crate::panels;
use crate::prose::{Prose, ProseState};
use leptos::prelude::*;

/// The body of `text` from `state`; `with_panels`: build the experiment panels it places (a chapter
/// does; the landing text and the glossary place none).
#[component]
pub fn TextBody(text: &'static ChapterText, state: ProseState, #[prop(optional)] with_panels: bool) -> impl IntoView {
    let t = ui();
    let status = move || match state.prose.get() {
        Prose::Ready(_) => None,
        Prose::Loading => Some(
            view! {
                <div class="prose-state" data-testid="prose-loading" aria-busy="true">
                    <p class="text-summary">{text.summary}</p>
                    <p class="prose-status" role="status">{t.prose_loading}</p>
                </div>
            }
            .into_any(),
        ),
        Prose::Failed(why) => Some(
            view! {
                <div class="prose-state">
                    <p class="text-summary">{text.summary}</p>
                    <div class="notice notice-warning" role="alert" data-testid="prose-failed">
                        <p><strong>{t.prose_failed_title}</strong>" "{t.prose_failed_body}</p>
                        <p class="prose-failed-why">{fill(t.prose_failed_why, &[("why", &why)])}</p>
                        <p><button type="button" class="button" on:click=move |_| state.retry()>{t.retry}</button></p>
                    </div>
                </div>
            }
            .into_any(),
        ),
    };
    let piece = move |index: usize| {
        move || match state.prose.get() {
            Prose::Ready(pieces) => pieces
                .get(index)
                .filter(|html| !html.is_empty())
                .map(|html| view! { <div class="prose" inner_html=html.clone()></div> }),
            _ => None,
        }
    };
    let experiments = if with_panels { text.experiments } else { &[] };
    crate::engine_client::prefetch_for_page(experiments);
    let placed = experiments
        .iter()
        .enumerate()
        .map(|(index, name)| {
            let name: &'static str = name;
            view! {
                // Each panel in a task of its own, after the prose and heading are in the page:
                // building every panel in the prose's task made one task of 80 ms or more.
                {move || state.settled.get().then(|| view! { <Later><panels::Panel name /></Later> })}
                {piece(index + 1)}
            }
        })
        .collect_view();
    view! {
        {status}
        {piece(0)}
        {placed}
    }
}
