//! The page for addresses that name no chapter.

use crate::i18n::ui;
use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn NotFound() -> impl IntoView {
    let t = ui();
    super::set_title_and_description(t.not_found_title, t.not_found_body);
    view! {
        <article class="chapter" data-testid="not-found">
            <h1>{t.not_found_title}</h1>
            <p>{t.not_found_body}</p>
            <p><A href=crate::links::site_path("/")>{t.back_home}</A></p>
        </article>
    }
}
