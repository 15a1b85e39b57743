//! The page frame: skip link, header with the chapter menu, main area, footer.

use crate::content;
use crate::i18n::{lang, ui};
use leptos::prelude::*;
use leptos_router::components::A;

#[component]
pub fn Layout(children: Children) -> impl IntoView {
    let t = ui();
    let chapters = content::chapters(lang().tag())
        .map(|c| {
            let href = format!("/chapters/{}", c.slug);
            view! { <li><A href=href>{c.title}</A></li> }
        })
        .collect_view();
    view! {
        <a class="skip-link" href="#main">{t.skip_to_content}</a>
        <header class="site-header">
            <A href="/" attr:class="site-name">{t.site_name}</A>
            <nav aria-label=t.nav_label>
                <details class="chapter-menu">
                    <summary>{t.nav_chapters}</summary>
                    <ol>{chapters}</ol>
                </details>
            </nav>
        </header>
        <main id="main" tabindex="-1">{children()}</main>
        <footer class="site-footer">
            <p>{t.footer}</p>
        </footer>
    }
}
