//! What the three "what a task costs" panels share: the articles' claims about task costs.

use crate::components::published::SourceCitation;
use crate::i18n::ui;
use experiments::published::Source;
use leptos::prelude::*;

/// The claims of the articles about task costs, with their sources (quoted, not measured here).
#[component]
pub fn CostClaims(claims: Vec<(&'static str, Source)>) -> impl IntoView {
    let t = ui();
    view! {
        <section class="published" data-testid="published">
            <h3>{t.cost_claims_title}</h3>
            <ul>
                {claims.into_iter().map(|(claim, source)| view! { <li>{claim}" "<SourceCitation source /></li> }).collect_view()}
            </ul>
        </section>
    }
}
