//! Labelled, keyboard-operable controls for experiment knobs: a slider and a number field.

use crate::format;
use experiments::params::{parse_count, ParamRange};
use leptos::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh, page-unique element id (for `label for`, `aria-describedby`).
pub fn unique_id(prefix: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("{prefix}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// A range slider with a visible label, the current value, and a help line.
#[component]
pub fn Slider(
    label: &'static str,
    #[prop(into)] help: Signal<String>,
    value: RwSignal<u64>,
    range: Signal<ParamRange>,
    #[prop(into)] disabled: Signal<bool>,
) -> impl IntoView {
    let id = unique_id("slider");
    let help_id = format!("{id}-help");
    view! {
        <div class="control">
            <label for=id.clone()>{label}</label>
            <div class="control-row">
                <input
                    type="range"
                    id=id.clone()
                    min=move || range.get().min.to_string()
                    max=move || range.get().max.to_string()
                    step="1"
                    prop:value=move || value.get().to_string()
                    aria-describedby=help_id.clone()
                    disabled=move || disabled.get()
                    on:input=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<u64>() {
                            value.set(range.get_untracked().clamp(v));
                        }
                    }
                />
                <output for=id>{move || format::int(value.get())}</output>
            </div>
            <p class="help" id=help_id>{move || help.get()}</p>
        </div>
    }
}

/// A number field for values too wide for a slider; typed values are clamped into range on change.
#[component]
pub fn NumberField(
    label: &'static str,
    #[prop(into)] help: Signal<String>,
    value: RwSignal<u64>,
    range: ParamRange,
    #[prop(into)] disabled: Signal<bool>,
) -> impl IntoView {
    let id = unique_id("number");
    let help_id = format!("{id}-help");
    view! {
        <div class="control">
            <label for=id.clone()>{label}</label>
            <div class="control-row">
                <input
                    type="number"
                    inputmode="numeric"
                    id=id
                    min=range.min.to_string()
                    max=range.max.to_string()
                    step="any"
                    prop:value=move || value.get().to_string()
                    aria-describedby=help_id.clone()
                    disabled=move || disabled.get()
                    on:change=move |ev| {
                        let typed = parse_count(&event_target_value(&ev));
                        let next = typed.map_or(range.default, |v| range.clamp(v.max(0.0).round() as u64));
                        // Setting the same value again still rewrites the field, undoing bad input.
                        value.set(next);
                        value.notify();
                    }
                />
            </div>
            <p class="help" id=help_id>
                {move || help.get()}
                " "
                {format!("({} – {})", format::int(range.min), format::int(range.max))}
            </p>
        </div>
    }
}
