//! The live experiment panels that chapters embed, by the name used in `<!-- experiment: NAME -->`.

mod bubble_sort;
mod cpu_vs_io;
mod demo;
mod document_search;
mod go_scheduler;
mod hashing;
mod os_scheduler;
mod os_scheduler_quiz;
mod panel;
mod qps;
mod sum;
mod task_costs;
mod task_granularity;
mod task_memory;
mod task_switch;

use crate::i18n::{fill, ui};
use leptos::prelude::*;

/// Builds one experiment's panel.
type PanelView = fn() -> AnyView;

/// The panel of every experiment of `experiments::catalog`, by its name.
fn panels() -> [(&'static str, PanelView); 12] {
    [
        ("demo", || view! { <demo::DemoExperiment /> }.into_any()),
        ("sum", || view! { <sum::SumExperiment /> }.into_any()),
        ("bubble-sort", || view! { <bubble_sort::BubbleSortExperiment /> }.into_any()),
        ("task-granularity", || view! { <task_granularity::GranularityExperiment /> }.into_any()),
        ("task-memory", || view! { <task_memory::TaskMemoryExperiment /> }.into_any()),
        ("task-switch", || view! { <task_switch::SwitchCostExperiment /> }.into_any()),
        ("hashing", || view! { <hashing::HashingExperiment /> }.into_any()),
        ("qps", || view! { <qps::QpsExperiment /> }.into_any()),
        ("os-scheduler", || view! { <os_scheduler::OsSchedulerExperiment /> }.into_any()),
        ("go-scheduler", || view! { <go_scheduler::GoSchedulerExperiment /> }.into_any()),
        ("cpu-vs-io", || view! { <cpu_vs_io::CpuVsIoExperiment /> }.into_any()),
        ("document-search", || view! { <document_search::DocumentSearchExperiment /> }.into_any()),
    ]
}

/// The panel of the experiment called `name`, or a visible placeholder if there is none (the
/// content check at build time keeps chapters from naming one; a hand-typed embed address can).
pub fn panel(name: &str) -> AnyView {
    match panels().into_iter().find(|(known, _)| *known == name) {
        Some((_, view)) => view(),
        None => view! { <p class="notice">{fill(ui().unknown_experiment, &[("name", name)])}</p> }.into_any(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use experiments::catalog;

    #[test]
    fn every_catalog_experiment_has_one_panel_and_no_other() {
        let panels: Vec<&str> = panels().iter().map(|(name, _)| *name).collect();
        let mut catalog: Vec<&str> = catalog::CATALOG.iter().map(|e| e.name).collect();
        let mut sorted = panels.clone();
        sorted.sort();
        catalog.sort();
        assert_eq!(sorted, catalog);
        sorted.dedup();
        assert_eq!(sorted.len(), panels.len(), "a name has two panels");
    }
}
