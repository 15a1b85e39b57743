//! The page frame: skip link, header with the chapter menu, main area, footer. Embed views get only
//! the main area, and report their height to the page that frames them.

use crate::components::later::Later;
use crate::content;
use crate::i18n::{lang, ui, Lang};
use leptos::prelude::*;
use leptos_router::components::A;
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn Layout(children: Children) -> impl IntoView {
    // The page's language could not be fetched: say so, in English (what the page shows).
    let table_failure = crate::i18n::load_failure().map(|(language, reason)| {
        view! {
            <p class="notice notice-warning" role="alert" data-testid="table-failure">
                {crate::i18n::fill(ui().table_failed, &[("language", language), ("reason", reason)])}
            </p>
        }
    });
    if crate::pages::is_embed() {
        report_height_to_parent();
        return view! { <main id="main" class="embed" tabindex="-1">{table_failure}{children()}</main> }.into_any();
    }
    let t = ui();
    // After the chapters, the page they all link to for the browser plumbing (its title is the
    // text's own, in the page's language).
    let how_the_lab_works = content::chapter(content::HOW_THE_LAB_WORKS).map(|text| {
        let href = crate::links::site_path("/how-the-lab-works");
        view! { <p class="menu-more"><A href=href>{text.title}</A></p> }
    });
    let chapters = content::chapters()
        .map(|c| {
            let href = crate::links::chapter(c.slug);
            view! { <li><A href=href>{c.title}</A></li> }
        })
        .collect_view();
    view! {
        <a class="skip-link" href="#main">{t.skip_to_content}</a>
        <header class="site-header">
            <A href=crate::links::site_path("/") attr:class="site-name">{t.site_name}</A>
            <nav aria-label=t.nav_label>
                // The menus in a task of their own: building them with the router and the frame made
                // the app's first task 50 to 85 ms on a 2-core machine (issue 15: none over 50 ms).
                <Later>
                    <details class="chapter-menu">
                        <summary>{t.nav_chapters}</summary>
                        <div class="menu-panel">
                            <ol>{chapters}</ol>
                            {how_the_lab_works}
                        </div>
                    </details>
                    <A href=crate::links::site_path("/glossary") attr:class="glossary-link">{t.glossary}</A>
                    <LanguageMenu />
                </Later>
            </nav>
        </header>
        <main id="main" tabindex="-1">{table_failure}{children()}</main>
        <footer class="site-footer">
            <p>{t.footer}</p>
        </footer>
    }
    .into_any()
}

/// The language switcher: this page (its chapter, settings and place) in each other language.
/// Each link loads the page anew (the router never handles it), since the language is read once
/// from the address.
#[component]
fn LanguageMenu() -> impl IntoView {
    let t = ui();
    // Bumped when the menu opens, so the links follow the settings a panel wrote into the address.
    let opened = RwSignal::new(0u32);
    let links = Lang::ALL
        .into_iter()
        .map(|l| {
            let href = move || {
                opened.get();
                crate::links::this_page_in(l)
            };
            let current = (l == lang()).then_some("true");
            view! {
                <li>
                    <a
                        href=href
                        rel="external"
                        hreflang=l.tag()
                        lang=l.tag()
                        aria-current=current
                        on:click=move |event| {
                            // A new page, not the router's navigation: the language is read at start-up.
                            event.prevent_default();
                            if let Some(window) = web_sys::window() {
                                // The results come back on the new page (components::kept): only
                                // what is not kept makes www/keep.js ask before leaving.
                                if let Some(root) = window.document().and_then(|d| d.document_element()) {
                                    let _ = root.set_attribute("data-lab-leaving", "lab");
                                }
                                let _ = window.location().assign(&crate::links::this_page_in(l));
                            }
                        }
                    >
                        {l.native_name()}
                    </a>
                </li>
            }
        })
        .collect_view();
    view! {
        <details class="language-menu" on:toggle=move |_| opened.update(|n| *n += 1)>
            <summary>
                <span class="visually-hidden">{t.language}": "</span>
                <abbr title=lang().native_name()>{lang().tag().to_uppercase()}</abbr>
            </summary>
            <ul>{links}</ul>
        </details>
    }
}

/// Tell the framing page our height whenever it changes, in two forms: `{type: "resize", height}`
/// for any page, and `{subject: "lti.frameResize", height}` for Canvas. Only the height is sent,
/// and nothing is ever received.
fn report_height_to_parent() {
    let Some(window) = web_sys::window() else { return };
    let Ok(Some(parent)) = window.parent() else { return };
    if parent == window {
        return;
    }
    let Some(root) = window.document().and_then(|d| d.document_element()) else { return };
    let measured = root.clone();
    let send = Closure::<dyn FnMut()>::new(move || {
        // The content's own height, not `scrollHeight`, which never reports less than the frame's
        // current height: the frame could grow but never shrink again.
        let height = measured.get_bounding_client_rect().height().ceil() as i32;
        for message in [
            js_sys::JSON::parse(&format!("{{\"type\":\"resize\",\"height\":{height}}}")),
            js_sys::JSON::parse(&format!("{{\"subject\":\"lti.frameResize\",\"height\":{height}}}")),
        ]
        .into_iter()
        .flatten()
        {
            let _ = parent.post_message(&message, "*");
        }
    });
    let Ok(observer) = web_sys::ResizeObserver::new(send.as_ref().unchecked_ref()) else { return };
    observer.observe(&root);
    // Lives as long as the page.
    let held = SendWrapper::new((observer, send));
    on_cleanup(move || held.0.disconnect());
}
