//! The landing page: what the reader will learn and the list of chapters.

use crate::components::language_suggestion::LanguageSuggestion;
use crate::components::machine::MachineLine;
use crate::content::{self, LANDING};
use crate::environment::machine;
use crate::i18n::{fill, ui};
use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn Landing() -> impl IntoView {
    let t = ui();
    super::set_title_and_description(t.site_name, t.tagline);
    let intro = content::chapter(LANDING).map(|text| {
        let state = crate::prose::ProseState::load(text);
        view! { <super::text::TextBody text state /> }
    });
    let chapters: Vec<_> = content::chapters().collect();
    let first = chapters.first().map(|c| crate::links::chapter(c.slug));
    let list = chapters
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            view! {
                <li>
                    <span class="chapter-number">{fill(t.chapter_number, &[("n", &crate::format::int(i as u64 + 1))])}</span>
                    <A href=crate::links::chapter(c.slug)>{c.title}</A>
                    <p>{c.summary}</p>
                </li>
            }
        })
        .collect_view();
    let coming = t.coming_next.iter().map(|title| view! { <li>{*title}</li> }).collect_view();
    view! {
        <article class="landing">
            <LanguageSuggestion />
            // The first view says what the lab is and offers chapter 1, at 1280 × 800 and on a phone.
            <header class="hero">
                <h1>{t.site_name}</h1>
                <p class="tagline">{t.tagline}</p>
                {first.map(|href| view! { <p><A href=href attr:class="button primary">{t.start_reading}</A></p> })}
            </header>
            {intro}
            <section aria-labelledby="chapters-heading">
                <h2 id="chapters-heading">{t.chapters_heading}</h2>
                <ol class="chapter-list">{list}</ol>
            </section>
            {(!t.coming_next.is_empty()).then(|| view! {
                <section aria-labelledby="coming-heading">
                    <h2 id="coming-heading">{t.coming_next_heading}</h2>
                    <ul class="coming-list">{coming}</ul>
                </section>
            })}
            <MachineLine machine=machine() />
        </article>
    }
}
