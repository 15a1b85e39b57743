//! A chapter: its prose (fetched on demand) with the live experiment panels in place, and links to its
//! neighbours.

use crate::content::{self, ChapterText};
use crate::i18n::{fill, ui};
use crate::prose::ProseState;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;
use wasm_bindgen::JsCast;

#[component]
pub fn ChapterPage() -> impl IntoView {
    let params = use_params_map();
    move || {
        let slug = params.read().get("slug").unwrap_or_default();
        match content::chapter(&slug).filter(|c| content::is_chapter(c.slug)) {
            Some(chapter) => view! { <Chapter chapter /> }.into_any(),
            None => view! { <super::not_found::NotFound /> }.into_any(),
        }
    }
}

#[component]
fn Chapter(chapter: &'static ChapterText) -> impl IntoView {
    let t = ui();
    super::set_title_and_description(chapter.title, chapter.summary);
    let all: Vec<_> = content::chapters().collect();
    let position = all.iter().position(|c| c.slug == chapter.slug).unwrap_or(0);
    let link = |c: Option<&'static ChapterText>, label: &'static str, rel: &'static str| {
        c.map(|c| {
            view! {
                <A href=crate::links::chapter(c.slug) attr:rel=rel>
                    <span class="nav-label">{label}</span>
                    <span class="nav-title">{c.title}</span>
                </A>
            }
        })
    };
    let previous = link(position.checked_sub(1).and_then(|i| all.get(i)).copied(), t.previous, "prev");
    let next = link(all.get(position + 1).copied(), t.next, "next");
    // A link straight to the chapter's first experiment, so it can be run from the first screen.
    let first_experiment = chapter.experiments.first().copied();
    let try_it = first_experiment.map(|name| {
        let target = format!("{name}-title");
        let href = format!("{}#{target}", crate::links::chapter(chapter.slug));
        let jump = move |ev: leptos::ev::MouseEvent| {
            let heading = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(&target));
            if let Some(heading) = heading {
                ev.prevent_default();
                heading.scroll_into_view();
                // The heading takes the focus, so keyboard and screen-reader users land there too.
                let _ = heading.set_attribute("tabindex", "-1");
                if let Ok(heading) = heading.dyn_into::<web_sys::HtmlElement>() {
                    let _ = heading.focus();
                }
            }
        };
        view! { <p class="try-it"><a href=href on:click=jump data-testid="try-it">{t.try_it}</a></p> }
    });
    // The prose is fetched; the panels are built once it has arrived (or failed to).
    let state = ProseState::load(chapter);
    view! {
        <article class="chapter" data-chapter=chapter.slug>
            <header>
                <p class="chapter-number">{fill(t.chapter_number, &[("n", &(position + 1).to_string())])}</p>
                <h1>{chapter.title}</h1>
                {try_it}
            </header>
            <super::text::TextBody text=chapter state with_panels=true />
            {if super::is_embed() {
                view! { <super::embed::FromLesson title=chapter.title /> }.into_any()
            } else {
                view! {
                    <nav class="chapter-nav" aria-label=t.chapter_nav_label>
                        <div>{previous}</div>
                        <div>{next}</div>
                    </nav>
                }
                .into_any()
            }}
        </article>
    }
}
