//! The line that says which machine produced the numbers beside it.

use crate::environment::Machine;
use crate::i18n::{message, ui, Arg};
use leptos::prelude::*;

#[component]
pub fn MachineLine(machine: Machine) -> impl IntoView {
    let t = ui();
    let text = message(
        t.machine_line,
        &[
            ("cores", Arg::Count(machine.logical_processors as u64)),
            ("browser", Arg::Text(machine.browser.as_deref().unwrap_or(t.unknown_browser))),
            ("isolated", Arg::Text(if machine.isolated { t.yes } else { t.no })),
        ],
    );
    view! { <p class="machine-line" data-testid="machine-line">{text}</p> }
}
