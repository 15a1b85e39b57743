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
mod shared_total;
mod state;
mod sum;
mod task_costs;
mod task_granularity;
mod task_memory;
mod task_switch;

use crate::components::split_view::{split_now, SplitBuilt, SplitFuture};
use crate::i18n::ui;
use experiments::catalog::ExperimentId;
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

/// Declares, for every experiment, a function that builds its panel and is a split point: the site
/// build (`cargo xtask build-app`) moves each one's code, and whatever only it uses, into a module of
/// its own that the page fetches the first time it shows that panel. Natively the functions are
/// plain calls. `panel_code` then picks one by the experiment; its `match` is exhaustive, so an
/// experiment of the catalog without a panel does not compile.
macro_rules! panels {
    ($( $id:ident => $split:ident, $build:ident, $component:path; )*) => {
        $(
            #[wasm_split($split, fallible, wasm_split_path = ::leptos::wasm_split)]
            fn $build() -> SplitBuilt {
                Ok(view! { <$component /> }.into_any())
            }
        )*

        /// Fetch the code of `experiment`'s panel (at once if it is in the page already) and build it.
        async fn panel_code(experiment: ExperimentId) -> SplitBuilt {
            match experiment {
                $( ExperimentId::$id => $build().await, )*
            }
        }
    };
}

panels! {
    Demo => panel_demo, build_demo, demo::DemoExperiment;
    Sum => panel_sum, build_sum, sum::SumExperiment;
    SharedTotal => panel_shared_total, build_shared_total, shared_total::SharedTotalExperiment;
    BubbleSort => panel_bubble_sort, build_bubble_sort, bubble_sort::BubbleSortExperiment;
    TaskGranularity => panel_task_granularity, build_task_granularity, task_granularity::GranularityExperiment;
    TaskMemory => panel_task_memory, build_task_memory, task_memory::TaskMemoryExperiment;
    TaskSwitch => panel_task_switch, build_task_switch, task_switch::SwitchCostExperiment;
    Hashing => panel_hashing, build_hashing, hashing::HashingExperiment;
    Qps => panel_qps, build_qps, qps::QpsExperiment;
    OsScheduler => panel_os_scheduler, build_os_scheduler, os_scheduler::OsSchedulerExperiment;
    GoScheduler => panel_go_scheduler, build_go_scheduler, go_scheduler::GoSchedulerExperiment;
    CpuVsIo => panel_cpu_vs_io, build_cpu_vs_io, cpu_vs_io::CpuVsIoExperiment;
    DocumentSearch => panel_document_search, build_document_search, document_search::DocumentSearchExperiment;
}

/// `experiment`'s panel: its code is fetched first if the page does not have it yet (a line says so
/// meanwhile; if it cannot be fetched, a notice with Retry, and the rest of the page works on).
#[component]
pub fn Panel(experiment: ExperimentId) -> impl IntoView {
    let key = ExperimentId::ALL.iter().position(|e| *e == experiment).unwrap_or_default();
    let load = |key: usize| -> SplitFuture { Box::pin(panel_code(ExperimentId::ALL[key])) };
    let loading = |key: usize| {
        let name = ExperimentId::ALL[key].slug();
        view! {
            <p class="panel-loading" role="status" data-testid="panel-loading" data-experiment-loading=name>{ui().panel_loading}</p>
        }
        .into_any()
    };
    split_now(key, load, loading, ui().panel_failed, "panel-failed")
}
