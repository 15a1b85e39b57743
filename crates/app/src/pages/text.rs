//! A text's body as a page shows it: its prose, fetched on demand ([`crate::prose`]), with the
//! experiment panels it places in between and the pictures its prose places ([`crate::pictures`]).
//! While the prose loads, the text's summary stands in; if it cannot be loaded, a notice says so with
//! a Retry button, and the panels are built all the same.

use crate::components::later::Later;
use crate::content::ChapterText;
use crate::i18n::{fill, ui};
use crate::panels;
use crate::pictures::{split_at_pictures, PictureView, Piece};
use crate::prose::{Prose, ProseState};
use leptos::prelude::*;

/// The body of `text` from `state`; `with_panels`: build the experiment panels it places (a chapter
/// does; the landing text and the glossary place none).
#[component]
pub fn TextBody(text: &'static ChapterText, state: ProseState, #[prop(optional)] with_panels: bool) -> impl IntoView {
    let t = ui();
    let status = move || {
        match state.prose.get() {
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
                        <p><strong>{t.prose_failed_title}</strong>" "<span class="if-not-new-version">{t.prose_failed_body}</span></p>
                        <p class="if-new-version" data-testid="new-version">{t.new_version_reload}</p>
                        <p class="prose-failed-why">{fill(t.prose_failed_why, &[("why", &why)])}</p>
                        <p class="if-not-new-version"><button type="button" class="button" on:click=move |_| state.retry()>{t.retry}</button></p>
                    </div>
                </div>
            }
            .into_any(),
        ),
    }
    };
    // In an embed a link of the prose opens a tab of its own: the course page stays where it is, and
    // pages other than embeds refuse to be framed (X-Frame-Options).
    let embedded = crate::pages::is_embed();
    let piece = move |index: usize| {
        move || match state.prose.get() {
            Prose::Ready(pieces) => pieces.get(index).filter(|html| !html.is_empty()).map(|html| {
                let html = if embedded { links_in_new_tabs(html) } else { html.clone() };
                // A picture's code is fetched when the page first shows it, in a task of its own.
                split_at_pictures(&html)
                    .into_iter()
                    .map(|piece| match piece {
                        Piece::Html(html) => view! { <div class="prose" inner_html=html.to_string()></div> }.into_any(),
                        Piece::Picture(picture) => view! { <Later><PictureView picture /></Later> }.into_any(),
                    })
                    .collect_view()
            }),
            _ => None,
        }
    };
    let experiments = if with_panels { text.experiments } else { &[] };
    crate::engine_client::prefetch_for_page(experiments);
    let placed = experiments
        .iter()
        .enumerate()
        .map(|(index, &experiment)| {
            view! {
                // Each panel in a task of its own, after the prose and heading are in the page:
                // building every panel in the prose's task made one task of 80 ms or more.
                {move || state.settled.get().then(|| view! { <Later><panels::Panel experiment /></Later> })}
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

/// `html` (the prose crate's, which writes every link as `<a href="…"`) with each link that leaves
/// the page opened in a new tab; links within the page (`#…`) stay.
fn links_in_new_tabs(html: &str) -> String {
    const LINK: &str = "<a href=\"";
    let mut out = String::with_capacity(html.len() + 64);
    let mut rest = html;
    while let Some(at) = rest.find(LINK) {
        out.push_str(&rest[..at]);
        let after = &rest[at + LINK.len()..];
        if after.starts_with('#') {
            out.push_str(LINK);
        } else {
            out.push_str("<a target=\"_blank\" rel=\"noopener\" href=\"");
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::links_in_new_tabs;

    #[test]
    fn an_embed_opens_links_that_leave_the_page_in_a_new_tab() {
        let html = r##"<p>See <a href="glossary#park">park</a> and <a href="#below">below</a>.</p>"##;
        assert_eq!(
            links_in_new_tabs(html),
            r##"<p>See <a target="_blank" rel="noopener" href="glossary#park">park</a> and <a href="#below">below</a>.</p>"##
        );
    }
}
