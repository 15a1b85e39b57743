//! Embed views: a single experiment without the chapter around it, for course pages.

use crate::components::share::chapter_of;
use crate::components::unavailable::full_lesson_url;
use crate::i18n::{fill, ui};
use crate::panels;
use experiments::catalog::ExperimentId;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

#[component]
pub fn ExperimentEmbed() -> impl IntoView {
    let params = use_params_map();
    move || {
        let name = params.read().get("name").unwrap_or_default();
        match ExperimentId::from_slug(&name).and_then(|experiment| Some((experiment, chapter_of(experiment)?))) {
            Some((experiment, chapter)) => {
                super::set_title_and_description(chapter.title, chapter.summary);
                crate::engine_client::prefetch_for_page(&[experiment]);
                view! {
                    <article class="embed-experiment" data-embed=experiment.slug()>
                        <panels::Panel experiment />
                        <FromLesson title=chapter.title />
                    </article>
                }
                .into_any()
            }
            None => view! { <super::not_found::NotFound /> }.into_any(),
        }
    }
}

/// "From <chapter>, a chapter of Concurrency Lab · Open the full lesson" (opens a new tab).
#[component]
pub fn FromLesson(title: &'static str) -> impl IntoView {
    let t = ui();
    view! {
        <p class="embed-from">
            {fill(t.embed_from, &[("title", title)])}" "
            <a href=full_lesson_url() target="_blank" rel="noopener">{t.open_full_lesson}</a>
        </p>
    }
}
