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

use crate::components::split_view::{split_view, SplitBuilt};
use crate::i18n::{fill, ui};
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

/// Declares, for every experiment, a function that builds its panel and is a split point: the site
/// build (`cargo xtask build-app`) moves each one's code, and whatever only it uses, into a module of
/// its own that the page fetches the first time it shows that panel. Natively the functions are
/// plain calls. `panel_code` then picks one by the experiment's name.
macro_rules! panels {
    ($( $name:literal => $split:ident, $build:ident, $component:path; )*) => {
        $(
            #[wasm_split($split, fallible, wasm_split_path = ::leptos::wasm_split)]
            fn $build() -> SplitBuilt {
                Ok(view! { <$component /> }.into_any())
            }
        )*

        /// Every experiment that has a panel, by the name of `experiments::catalog`.
        #[cfg(test)]
        const PANEL_NAMES: &[&str] = &[$($name),*];

        /// Fetch the code of `name`'s panel (at once if it is in the page already) and build it;
        /// `None` if no experiment has that name.
        async fn panel_code(name: &str) -> Option<SplitBuilt> {
            match name {
                $( $name => Some($build().await), )*
                _ => None,
            }
        }
    };
}

panels! {
    "demo" => panel_demo, build_demo, demo::DemoExperiment;
    "sum" => panel_sum, build_sum, sum::SumExperiment;
    "bubble-sort" => panel_bubble_sort, build_bubble_sort, bubble_sort::BubbleSortExperiment;
    "task-granularity" => panel_task_granularity, build_task_granularity, task_granularity::GranularityExperiment;
    "task-memory" => panel_task_memory, build_task_memory, task_memory::TaskMemoryExperiment;
    "task-switch" => panel_task_switch, build_task_switch, task_switch::SwitchCostExperiment;
    "hashing" => panel_hashing, build_hashing, hashing::HashingExperiment;
    "qps" => panel_qps, build_qps, qps::QpsExperiment;
    "os-scheduler" => panel_os_scheduler, build_os_scheduler, os_scheduler::OsSchedulerExperiment;
    "go-scheduler" => panel_go_scheduler, build_go_scheduler, go_scheduler::GoSchedulerExperiment;
    "cpu-vs-io" => panel_cpu_vs_io, build_cpu_vs_io, cpu_vs_io::CpuVsIoExperiment;
    "document-search" => panel_document_search, build_document_search, document_search::DocumentSearchExperiment;
}

/// The panel of the experiment called `name`: its code is fetched first if the page does not have
/// it yet (a line says so meanwhile; if it cannot be fetched, a notice with Retry, and the rest of
/// the page works on). An unknown name (a hand-typed embed address) gets a visible notice.
#[component]
pub fn Panel(name: &'static str) -> impl IntoView {
    let t = ui();
    let load = move || async move {
        panel_code(name).await.unwrap_or_else(|| {
            Ok(view! { <p class="notice">{fill(t.unknown_experiment, &[("name", name)])}</p> }.into_any())
        })
    };
    let loading = move || {
        view! {
            <p class="panel-loading" role="status" data-testid="panel-loading" data-experiment-loading=name>{t.panel_loading}</p>
        }
        .into_any()
    };
    split_view(load, async {}, loading, t.panel_failed, "panel-failed")
}

#[cfg(test)]
mod tests {
    use super::*;
    use experiments::catalog;

    #[test]
    fn every_catalog_experiment_has_one_panel_and_no_other() {
        let panels: Vec<&str> = PANEL_NAMES.to_vec();
        let mut catalog: Vec<&str> = catalog::CATALOG.iter().map(|e| e.name).collect();
        let mut sorted = panels.clone();
        sorted.sort();
        catalog.sort();
        assert_eq!(sorted, catalog);
        sorted.dedup();
        assert_eq!(sorted.len(), panels.len(), "a name has two panels");
    }
}
