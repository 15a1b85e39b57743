//! The live experiment panels that chapters embed, by the name used in `<!-- experiment: NAME -->`.

mod bubble_sort;
mod cpu_vs_io;
mod demo;
mod document_search;
mod go_scheduler;
mod hashing;
mod os_scheduler;
mod panel;
mod qps;
mod sum;
mod task_costs;

use leptos::prelude::*;

/// The panel called `name` in the chapter text, or a visible placeholder if there is none.
pub fn panel(name: &str) -> AnyView {
    match name {
        "demo" => view! { <demo::DemoExperiment /> }.into_any(),
        "sum" => view! { <sum::SumExperiment /> }.into_any(),
        "bubble-sort" => view! { <bubble_sort::BubbleSortExperiment /> }.into_any(),
        "task-granularity" => view! { <task_costs::GranularityExperiment /> }.into_any(),
        "task-memory" => view! { <task_costs::TaskMemoryExperiment /> }.into_any(),
        "task-switch" => view! { <task_costs::SwitchCostExperiment /> }.into_any(),
        "hashing" => view! { <hashing::HashingExperiment /> }.into_any(),
        "qps" => view! { <qps::QpsExperiment /> }.into_any(),
        "os-scheduler" => view! { <os_scheduler::OsSchedulerExperiment /> }.into_any(),
        "go-scheduler" => view! { <go_scheduler::GoSchedulerExperiment /> }.into_any(),
        "cpu-vs-io" => view! { <cpu_vs_io::CpuVsIoExperiment /> }.into_any(),
        "document-search" => view! { <document_search::DocumentSearchExperiment /> }.into_any(),
        other => view! { <p class="notice">{format!("Unknown experiment “{other}”.")}</p> }.into_any(),
    }
}
