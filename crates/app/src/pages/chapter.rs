//! A chapter: its prose with the live experiment panels in place, and links to its neighbours.

use crate::content::{self, ChapterText, Section};
use crate::i18n::{fill, lang, ui};
use crate::panels;
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;
use wasm_bindgen::JsCast;

#[component]
pub fn ChapterPage() -> impl IntoView {
    let params = use_params_map();
    move || {
        let slug = params.read().get("slug").unwrap_or_default();
        match content::chapter(lang().tag(), &slug).filter(|c| content::is_chapter(c.slug)) {
            Some(chapter) => view! { <Chapter chapter /> }.into_any(),
            None => view! { <super::not_found::NotFound /> }.into_any(),
        }
    }
}

#[component]
fn Chapter(chapter: &'static ChapterText) -> impl IntoView {
    let t = ui();
    super::set_title(chapter.title);
    let all: Vec<_> = content::chapters(lang().tag()).collect();
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
    let first_experiment = chapter.sections.iter().find_map(|section| match section {
        Section::Experiment(name) => Some(*name),
        Section::Prose(_) => None,
    });
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
    let sections = chapter
        .sections
        .iter()
        .map(|section| match section {
            Section::Prose(html) => view! { <div class="prose" inner_html=*html></div> }.into_any(),
            Section::Experiment(name) => view! { <PanelAfterProse name=*name /> }.into_any(),
        })
        .collect_view();
    view! {
        <article class="chapter" data-chapter=chapter.slug>
            <header>
                <p class="chapter-number">{fill(t.chapter_number, &[("n", &(position + 1).to_string())])}</p>
                <h1>{chapter.title}</h1>
                {try_it}
            </header>
            {sections}
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

/// An experiment panel built in a main-thread task of its own, right after the chapter's prose and
/// heading are in the page: building every panel in the same task as the prose made one task of
/// 80 ms or more on a 2-core machine, and a page should keep each task under 50 ms (issue 15).
#[component]
fn PanelAfterProse(name: &'static str) -> impl IntoView {
    let ready = RwSignal::new(false);
    // `try_set`: the reader may have left the chapter before the timer fires.
    set_timeout(move || _ = ready.try_set(true), std::time::Duration::ZERO);
    move || ready.get().then(|| panels::panel(name))
}
