//! The visible note listing preset values from the URL that were replaced.

use crate::format;
use crate::i18n::{fill, ui};
use experiments::params::{ClampNote, ClampReason};
use leptos::prelude::*;

fn describe(note: &ClampNote) -> String {
    let t = ui();
    let template = match note.reason {
        ClampReason::NotANumber => t.note_not_a_number,
        ClampReason::NotAnOption => t.note_not_an_option,
        ClampReason::BelowMin { .. } => t.note_below_min,
        ClampReason::AboveMax { .. } => t.note_above_max,
    };
    fill(template, &[("key", &note.key), ("raw", &note.raw), ("used", &format::int(note.used))])
}

#[component]
pub fn ClampNotes(notes: Vec<ClampNote>) -> impl IntoView {
    (!notes.is_empty()).then(|| {
        let items = notes.iter().map(|n| view! { <li>{describe(n)}</li> }).collect_view();
        view! {
            <div class="notice" role="status" aria-label=ui().notes_label data-testid="preset-notes">
                <ul>{items}</ul>
            </div>
        }
    })
}
