//! The site's two reference pages, rendered from `content/<lang>/<slug>.md`: the glossary
//! (`/glossary`), the words the chapters use, and "How the lab works" (`/how-the-lab-works`), the
//! browser plumbing behind every experiment. Every term or section is a heading with an id, so a
//! chapter can link `/glossary#park` or `/how-the-lab-works#isolation`.

use crate::content::{self, GLOSSARY, HOW_THE_LAB_WORKS};
use crate::i18n::ui;
use crate::prose::{Prose, ProseState};
use leptos::prelude::*;

#[component]
pub fn GlossaryPage() -> impl IntoView {
    view! { <ReferencePage slug=GLOSSARY class="chapter glossary" label=ui().glossary /> }
}

#[component]
pub fn HowTheLabWorksPage() -> impl IntoView {
    let label = content::chapter(HOW_THE_LAB_WORKS).map_or("", |t| t.title);
    view! { <ReferencePage slug=HOW_THE_LAB_WORKS class="chapter reference" label /> }
}

/// A text of its own page, with no experiments: its title, then its prose once fetched.
#[component]
fn ReferencePage(slug: &'static str, class: &'static str, label: &'static str) -> impl IntoView {
    let Some(text) = content::chapter(slug) else {
        return view! { <super::not_found::NotFound /> }.into_any();
    };
    super::set_title_and_description(text.title, text.summary);
    let state = ProseState::load(text);
    // A deep link (`/glossary#park`) loads before the headings exist: show the one it names once
    // they do.
    Effect::new(move || {
        if matches!(state.prose.get(), Prose::Ready(_)) {
            request_animation_frame(scroll_to_hash);
        }
    });
    view! {
        <article class=class data-testid=slug aria-label=label>
            <header>
                <h1>{text.title}</h1>
            </header>
            <super::text::TextBody text state />
        </article>
    }
    .into_any()
}

/// Bring the element the address's `#fragment` names into view, if there is one.
fn scroll_to_hash() {
    let Some(window) = web_sys::window() else { return };
    let hash = window.location().hash().unwrap_or_default();
    let Some(id) = hash.strip_prefix('#').filter(|id| !id.is_empty()) else { return };
    let id = js_sys::decode_uri_component(id).ok().and_then(|s| s.as_string()).unwrap_or_else(|| id.to_string());
    if let Some(term) = window.document().and_then(|d| d.get_element_by_id(&id)) {
        term.scroll_into_view();
    }
}
