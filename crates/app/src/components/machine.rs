//! The line that says which machine produced the numbers beside it.

use crate::environment::Machine;
use crate::i18n::{fill, ui};
use leptos::prelude::*;

#[component]
pub fn MachineLine(machine: Machine) -> impl IntoView {
    let t = ui();
    let text = fill(
        t.machine_line,
        &[
            ("cores", &machine.logical_processors.to_string()),
            ("browser", &machine.browser),
            ("isolated", if machine.isolated { t.yes } else { t.no }),
        ],
    );
    view! { <p class="machine-line" data-testid="machine-line">{text}</p> }
}
