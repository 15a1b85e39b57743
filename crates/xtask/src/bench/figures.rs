//! Reading one side's figures, and deriving from them the kernels' own units and the lessons' ratios,
//! the same way for each side.

use super::kernels::{COST_TASKS, HASH_HASHES, HASH_MB, SWITCH_TRIPS};
use super::Figures;
use experiments::per_unit;
use serde_json::Value;

/// The median of `values` (the lower middle one for an even count), NaN for none.
pub(super) fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len().saturating_sub(1) / 2).copied().unwrap_or(f64::NAN)
}

/// The figure under `key` if it is a number.
pub(super) fn number(figures: &Figures, key: &str) -> Option<f64> {
    figures.get(key).and_then(Value::as_f64)
}

/// The kernels' figures in their own units and their lessons' ratios, computed the same way for each
/// side from its medians (NaN where a median is missing).
pub(super) fn derived(figures: &Figures) -> Vec<(&'static str, f64)> {
    let ms = |key: &str| number(figures, key).unwrap_or(f64::NAN);
    // lab's --mb counts MiB; its MB/s, like ours, counts 10^6 bytes.
    let hashed_bytes = (HASH_MB << 20) as f64 * f64::from(HASH_HASHES);
    let mb_s = |key: &str| per_unit::mb_per_s(hashed_bytes, ms(key));
    let per_task = |key: &str| per_unit::ns_per_task(ms(key), COST_TASKS);
    let per_switch = |key: &str| per_unit::ns_per_switch(ms(key), SWITCH_TRIPS);
    let over_sequential = |key: &str| ms("docsearch_sequential_ms") / ms(key);
    vec![
        ("hash_loop_mb_s", mb_s("hash_loop_ms")),
        ("hash_tasks_mb_s", mb_s("hash_tasks_ms")),
        ("hash_speedup", ms("hash_loop_ms") / ms("hash_tasks_ms")),
        ("hash_soft_loop_mb_s", mb_s("hash_soft_loop_ms")),
        ("hash_soft_tasks_mb_s", mb_s("hash_soft_tasks_ms")),
        ("spawn_loop_ns_per_task", per_task("spawn_loop_ms")),
        ("spawn_tasks_ns_per_task", per_task("spawn_tasks_ms")),
        ("spawn_goroutines_ns_per_task", per_task("spawn_goroutines_ms")),
        ("switch_threads_ns_per_switch", per_switch("switch_threads_ms")),
        ("switch_goroutines_ns_per_switch", per_switch("switch_goroutines_ms")),
        ("switch_threads_over_goroutines", ms("switch_threads_ms") / ms("switch_goroutines_ms")),
        ("sort_chunked_over_bubble", ms("sort_chunked_ms") / ms("sort_bubble_ms")),
        ("sort_odd_even_over_bubble", ms("sort_odd_even_ms") / ms("sort_bubble_ms")),
        ("cpusearch_threads_speedup", ms("cpusearch_sequential_ms") / ms("cpusearch_threads_ms")),
        ("cpusearch_goroutines_speedup", ms("cpusearch_sequential_ms") / ms("cpusearch_goroutines_ms")),
        ("docsearch_threads_speedup", over_sequential("docsearch_threads_ms")),
        ("docsearch_goroutines_speedup", over_sequential("docsearch_goroutines_ms")),
        ("docsearch_goroutines_over_threads", ms("docsearch_threads_ms") / ms("docsearch_goroutines_ms")),
        ("qps_goroutines_over_thread_pool", ms("qps_goroutines_req_s") / ms("qps_thread_pool_req_s")),
    ]
}

/// A reported figure or a [`derived`] one under `key`; NaN if there is none.
pub(super) fn value(figures: &Figures, key: &str) -> f64 {
    number(figures, key)
        .or_else(|| derived(figures).into_iter().find(|(k, _)| *k == key).map(|(_, v)| v))
        .unwrap_or(f64::NAN)
}

/// Whether every job behind the boolean figure `key` computed the right answer.
pub(super) fn checks(figures: &Figures, key: &str) -> &'static str {
    match figures.get(key).and_then(Value::as_bool) {
        Some(true) => "all correct",
        Some(false) => "WRONG",
        None => "?",
    }
}
