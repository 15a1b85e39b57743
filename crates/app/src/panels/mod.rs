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
use leptos::wasm_split::{wasm_split, SplitLoaderError};

/// A panel's code could not be fetched (the site is split: see [`panel_code`]).
#[derive(Debug)]
pub struct PanelCodeUnavailable;

impl From<SplitLoaderError> for PanelCodeUnavailable {
    fn from(_: SplitLoaderError) -> Self {
        PanelCodeUnavailable
    }
}

type Built = Result<AnyView, PanelCodeUnavailable>;

/// Declares, for every experiment, a function that builds its panel and is a split point: the site
/// build (`cargo xtask build-app`) moves each one's code, and whatever only it uses, into a module of
/// its own that the page fetches the first time it shows that panel. Natively the functions are
/// plain calls. `panel_code` then picks one by the experiment's name.
macro_rules! panels {
    ($( $name:literal => $split:ident, $build:ident, $component:path; )*) => {
        $(
            #[wasm_split($split, fallible, wasm_split_path = ::leptos::wasm_split)]
            fn $build() -> Built {
                Ok(view! { <$component /> }.into_any())
            }
        )*

        /// Every experiment that has a panel, by the name of `experiments::catalog`.
        #[cfg(test)]
        const PANEL_NAMES: &[&str] = &[$($name),*];

        /// Fetch the code of `name`'s panel (at once if it is in the page already) and build it;
        /// `None` if no experiment has that name.
        async fn panel_code(name: &str) -> Option<Built> {
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

/// Where a panel is while its code loads.
#[derive(Clone, Copy, PartialEq)]
enum PanelState {
    Loading,
    Ready,
    Failed,
    Unknown,
}

/// The panel of the experiment called `name`: its code is fetched first if the page does not have
/// it yet (a line says so meanwhile; if it cannot be fetched, a notice with Retry, and the rest of
/// the page works on). An unknown name (a hand-typed embed address) gets a visible notice.
#[component]
pub fn Panel(name: &'static str) -> impl IntoView {
    let t = ui();
    let state = RwSignal::new(PanelState::Loading);
    // The built view waits here until the closure below takes it into the page.
    let built: StoredValue<Option<AnyView>, LocalStorage> = StoredValue::new_local(None);
    // The panel is built inside the task that fetched its code: under this component's owner, so
    // that it finds the router and the page's context, and is cleaned up (or never built) with the
    // page, and under no observer.
    let owner = Owner::current();
    let load = move || {
        let owner = owner.clone();
        let task = async move {
            let next = match panel_code(name).await {
                Some(Ok(view)) => {
                    built.set_value(Some(view));
                    PanelState::Ready
                }
                Some(Err(PanelCodeUnavailable)) => PanelState::Failed,
                None => PanelState::Unknown,
            };
            // `try_set`: the reader may have left the page meanwhile.
            _ = state.try_set(next);
        };
        match &owner {
            // Untracked: built under whatever closure placed this panel, its reads would subscribe
            // that closure, and the next change of what it read would build the panel anew.
            Some(owner) => owner.with(|| untrack(|| leptos::task::spawn_local_scoped_with_cancellation(task))),
            None => leptos::task::spawn_local(task),
        }
    };
    load();
    move || {
        match state.get() {
        PanelState::Loading => view! {
            <p class="panel-loading" role="status" data-testid="panel-loading" data-experiment-loading=name>{t.panel_loading}</p>
        }
        .into_any(),
        PanelState::Ready => built.try_update_value(Option::take).flatten().into_any(),
        PanelState::Failed => {
            let load = load.clone();
            view! {
            <div class="notice notice-warning" role="alert" data-testid="panel-failed">
                <p>{t.panel_failed}</p>
                <p>
                    <button type="button" class="button" on:click=move |_| { state.set(PanelState::Loading); load(); }>
                        {t.retry}
                    </button>
                </p>
            </div>
            }
            .into_any()
        }
        PanelState::Unknown => {
            view! { <p class="notice">{fill(t.unknown_experiment, &[("name", name)])}</p> }.into_any()
        }
    }
    }
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
