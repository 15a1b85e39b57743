//! Experiment settings from the page URL (`?workers=2&tasks=8&n=10000000&reps=5&autorun=1`), and
//! writing the settings of the last run back into the URL so it can be shared as is.

use experiments::catalog::ExperimentId;
use experiments::catalog::{KnobReader, Query};
use experiments::params::{read_choice, read_flag, read_param, ClampNote, ParamRange};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use leptos_router::params::ParamsMap;

/// The URL's query, read once when an experiment panel is created.
pub struct Preset {
    query: ParamsMap,
    /// Values the page had to change, for the visible note.
    pub notes: Vec<ClampNote>,
}

impl Preset {
    pub fn from_url() -> Self {
        Preset { query: use_query_map().get_untracked(), notes: Vec::new() }
    }

    /// The value of one knob: its default if absent, the nearest allowed value (noted) if invalid.
    pub fn value(&mut self, range: &ParamRange) -> u64 {
        read_param(range, self.query.get(range.key).as_deref(), &mut self.notes)
    }

    /// A word-valued knob: one of `options`, else `default` (noted).
    pub fn choice(&mut self, key: &str, options: &[&'static str], default: &'static str) -> &'static str {
        read_choice(key, self.query.get(key).as_deref(), options, default, &mut self.notes)
    }

    /// Whether `experiment`'s panel should run once on load: `autorun=NAME` picks that panel;
    /// `autorun=1` the page's first experiment (a chapter may hold several), in the page's order,
    /// not the panel whose code happens to arrive first.
    pub fn autorun(&self, experiment: ExperimentId) -> bool {
        let name = experiment.slug();
        let Some(raw) = self.query.get("autorun") else { return false };
        if raw.trim() == name {
            return true;
        }
        let path = web_sys::window().and_then(|w| w.location().pathname().ok()).unwrap_or_default();
        let first_of_chapter =
            crate::components::share::chapter_of(experiment).and_then(|c| c.experiments.first().copied());
        read_flag(Some(&raw)) && first_of_page(experiment, &path, first_of_chapter)
    }
}

/// Whether `experiment` is the first the page at `path` shows: the only one of an experiment's
/// embed, else the first its chapter places (`first_of_chapter`), in the page's order.
fn first_of_page(experiment: ExperimentId, path: &str, first_of_chapter: Option<ExperimentId>) -> bool {
    path.contains("/embed/experiments/") || first_of_chapter == Some(experiment)
}

impl KnobReader for Preset {
    fn value(&mut self, range: &ParamRange) -> u64 {
        Preset::value(self, range)
    }

    fn choice(&mut self, key: &str, options: &'static [&'static str], default: &'static str) -> &'static str {
        Preset::choice(self, key, options, default)
    }
}

/// Replace the query string with `pairs` (an experiment's `Settings::query`) without navigating, so
/// reloading repeats this setup.
pub fn write_to_url(pairs: &[(&'static str, String)]) -> Query {
    let Some(window) = web_sys::window() else {
        return pairs.to_vec();
    };
    let path = window.location().pathname().unwrap_or_default();
    let mut query: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    // A course author's `predict=…` is the page's, not the experiment's: it stays.
    let search = window.location().search().unwrap_or_default();
    let kept = search.trim_start_matches('?').split('&').find(|p| p.starts_with("predict="));
    query.extend(kept.map(str::to_string));
    let url = format!("{path}?{}", query.join("&"));
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
    pairs.to_vec()
}

#[cfg(test)]
mod tests {
    use super::{first_of_page, ExperimentId};

    #[test]
    fn autorun_1_picks_the_first_experiment_in_the_page_not_the_first_whose_code_arrives() {
        // A chapter with three panels: only the first runs, whichever is built first.
        use ExperimentId::{TaskGranularity, TaskMemory, TaskSwitch};
        let first = Some(TaskGranularity);
        assert!(first_of_page(TaskGranularity, "/chapters/task-costs", first));
        assert!(!first_of_page(TaskSwitch, "/chapters/task-costs", first));
        assert!(!first_of_page(TaskMemory, "/ru/embed/chapters/task-costs", first));
        // An experiment's embed shows that experiment alone.
        assert!(first_of_page(TaskSwitch, "/embed/experiments/task-switch", first));
        assert!(first_of_page(TaskSwitch, "/lab/ja/embed/experiments/task-switch", first));
    }
}
