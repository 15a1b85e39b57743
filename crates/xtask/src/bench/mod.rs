//! `cargo xtask bench`: the same kernels natively and in headless Chromium, side by side, in one run.
//!
//! Builds the site and the native `lab` CLI, runs `lab sum|hash|cost|docsearch|qps … --json` (OS
//! threads) and `node e2e/bench.mjs` (the same jobs sent to the engine in Chromium, plus page timings),
//! weighs the two wasm modules, then prints the figures and their ratios, native against wasm and each
//! lesson's own (threads against goroutines, …), and writes them to `bench-report.md` and
//! `bench-report.json`.
//! These are measurements, not tests: a slow number never fails the command; only a figure that
//! cannot be measured at all does. `lab`'s JSON is read into `experiments`' types with serde.
//!
//! Its parts: [`kernels`] names what is measured, [`native`] runs `lab`, [`browser`] runs
//! `e2e/bench.mjs`, [`site_size`] weighs the wasm, [`results`] holds what a run measured and checks
//! that it is complete, [`wasm_profile`] lists each module's largest items,
//! [`chapter_parts`](mod@chapter_parts) splits the heaviest chapters' code by component,
//! [`figures`] derives each kernel's units and ratios, [`tables`] lays them out ([`table`] renders
//! one, [`formatting`] prints the numbers), and [`report`] writes the files.

mod browser;
mod chapter_parts;
mod figures;
mod formatting;
mod kernels;
mod native;
mod report;
mod results;
pub(crate) mod site_size;
mod table;
mod tables;
#[cfg(test)]
mod tests;
mod wasm_profile;

use crate::shell::{output, root};
use browser::{browser_plan, measure_browser};
use chapter_parts::chapter_parts;
use native::measure_native;
use results::BenchResults;
use serde_json::Value;
use site_size::{app_chunks, app_wasm, chapter_code, weigh, Weight};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use wasm_profile::{linked_app_wasm, linked_engine_wasm, profile};

const HELP: &str = "\
cargo xtask bench

  Measures these kernels natively with `target/release/lab ... --json` (OS threads) and in
  headless Chromium with `node e2e/bench.mjs` (the same jobs sent to the engine's worker), in one
  run on this machine, and reports them side by side: wasm / native, and each lesson's own ratios.

  Sum        10,000,000 integers, 10 timed repetitions after a warm-up, 1 and 2 workers, 2 and 8
             tasks, in ms and speedups:
             lab sum --workers 1,2 --tasks 2|8 --n 10000000 --reps 10
  hashing    SHA-256 of 32 MiB of generated data, 4 hashes, as a loop and on 2 workers, in MB/s:
             lab hash --mb 32 --hashes 4 --workers 2 --reps 3
  sorts      10,000 integers on 1 worker: the plain bubble sort, then chunked (8 chunks), odd-even
             and merge sort, in ms and as time over the bubble sort's:
             lab sort --n 10000 --tasks 8 --workers 1 --reps 3
  task cost  10,000 tasks of 1 square root (a loop, thread-pool tasks, goroutines) in ns/task, and
             a turn handed back and forth 100,000 times (2 threads, 2 goroutines) in ns/switch:
             lab cost --sqrt 1 --tasks 10000 --trips 100000 --workers 2 --reps 3
  blocking   200 documents, each read blocking 1 ms: a loop, then 8 threads and 8 goroutines on
             1 worker, as speedups:
             lab docsearch --docs 200 --latency-ms 1 --workers 1 --tasks 8 --reps 1
  CPU-bound  the same search of 1,000 documents with no reads: a loop, then 2 threads and 2
             goroutines on 2 workers, as speedups:
             lab docsearch --docs 1000 --latency-ms 0 --workers 2 --tasks 2 --reps 5
  server     200 requests, 20 in flight, each 50 µs of CPU then a 10 ms wait: a pool of 2
             threads and goroutines on 2 workers, in req/s:
             lab qps --workers 2 --requests 200 --concurrency 20 --wait-ms 10 --work-us 50 --reps 1

  Where the CPU has SHA instructions (which WebAssembly cannot use), hashing natively again with
  SHA-256 in plain Rust (lab built with --features soft-sha), beside the browser.

  Then, in Chromium only, the Sum (8 tasks) and hashing jobs again in the engine built without
  shared memory, on 2 message-passing workers that get their input copied in (what a course page
  that is not cross-origin isolated runs), beside the same jobs with shared memory.

  First runs: on 10 fresh pages each, the first autorun or sweep a reader sees (the sum with 2 and
  8 tasks, the sorts, hashing on 1, 2 and 4 workers, CPU vs IO's CPU-bound sweep) against the
  same run repeated warm on that page; speedups at 1, 2 and 4 workers, medians, cold / warm
  against the target 0.9; the pages whose first run showed a warning on a row whose workers fit
  the cores (target: at most 1 in 10 on an idle machine), and the CPU used outside the browser
  and the bench meanwhile (from /proc: what makes a machine not idle).

  Also weighs the site's wasm (raw and gzip -9) and times first paint and the longest main-thread
  task during a UI run, and lists each module's 15 largest items by retained size (`twiggy
  top`, installed from crates.io if missing, on the modules as cargo linked them), and what the
  heaviest chapter's code is made of, in all and before its Run: each component's bytes (Leptos,
  serde, each shared panel part, ...) in the splitter's modules before wasm-opt. Prints a table
  per kernel and writes bench-report.md and bench-report.json at the workspace root.
  Figures are measurements: a slow one never fails the command; one that cannot be measured at
  all does, and so do jobs that differ between the two sides. Measuring takes about 15 minutes
  on two cores.

  Targets: issue 15's (initial app wasm, heaviest chapter chunk and threaded engine, gzip -9;
  longest main-thread task while loading; time to a working Run on a slow link), each printed
  against this run's figure, or marked not measured. `cargo xtask test` enforces the download
  budgets (crates/xtask/src/budget.rs); the bench only reports.

  Steps: install missing tools and build dist/ (as `cargo xtask build`), `cargo build --release
  -p lab`, run lab sum for --tasks 2 and 8, then lab hash, sort, cost, docsearch (with and
  without reads) and qps, package dist/ as target/site (as `cargo xtask dist`), run
  e2e/bench.mjs against dist/ (the slow link against target/site), weigh dist/*.wasm, run twiggy
  (on target/app-wasm/split/ for the chapters).

Environment:
  XTASK_BENCH_SKIP_BUILD=1  skip the tool set-up and the site build and measure the dist/ that is
                            already there (lab is still built in release)
";

/// Skips `setup()` and `site::build()` when set to `1`, to measure an existing `dist/`.
const SKIP_BUILD_VAR: &str = "XTASK_BENCH_SKIP_BUILD";

/// The kernel parameters both sides measure (e2e/bench.mjs uses the same ones).
const NUMBERS: u64 = 10_000_000;
const REPETITIONS: u32 = 10;
const TASK_COUNTS: [u32; 2] = [2, 8];
/// Worker counts of the Sum runs (`lab sum --workers 1,2`).
const SUM_WORKERS: [u32; 2] = [1, 2];

/// Kernel figures both sides must report, under the same keys.
const KERNEL_KEYS: [&str; 7] = [
    "sequential_ms",
    "tasks2_workers1_ms",
    "tasks2_workers2_ms",
    "tasks8_workers1_ms",
    "tasks8_workers2_ms",
    "pool_start_1_ms",
    "pool_start_2_ms",
];

/// Page figures only the browser reports.
const PAGE_KEYS: [&str; 19] = [
    "pool_start_2_first_run_ms",
    "first_paint_ms",
    "first_contentful_paint_ms",
    "sum_panel_ms",
    "engine_ready_ms",
    "longest_task_run_ms",
    "long_tasks_run",
    "longest_task_load_ms",
    "longest_task_load_chapters_ms",
    "chapter_loads",
    "chapter_loads_with_long_task",
    "ui_sequential_ms",
    "ui_tasks2_workers2_ms",
    "slow_link_run_cold_ms",
    "slow_link_cold_bytes",
    "slow_link_run_warm_ms",
    "slow_link_warm_bytes",
    "longest_task_navigate_ms",
    "long_tasks_navigate",
];

/// Figures of the engine without shared memory (message-passing workers), browser only.
const NO_SHARED_MEMORY_KEYS: [&str; 4] =
    ["nomem_sum_sequential_ms", "nomem_sum_tasks8_workers2_ms", "nomem_hash_loop_ms", "nomem_hash_tasks_ms"];

pub fn run() -> Result<(), String> {
    if std::env::args().skip(2).any(|a| a == "--help" || a == "-h") {
        print!("{HELP}");
        return Ok(());
    }
    if std::env::var(SKIP_BUILD_VAR).as_deref() == Ok("1") {
        eprintln!("xtask: {SKIP_BUILD_VAR}=1: measuring the existing dist/ without set-up or build");
    } else {
        crate::tools::setup()?;
        crate::site::build()?;
    }
    crate::tools::twiggy()?;
    let dist = root().join("dist");
    // The slow link serves what a deploy serves: a page per route (with its preloads) and `_headers`.
    crate::dist::package(&dist, &root().join("target/site"))?;
    let native = measure_native()?;
    let browser = measure_browser(&dist, &browser_plan(&native)?)?;
    let chapter_code = chapter_code(&dist)?;
    let results = BenchResults {
        generated_at: output(Command::new("date").args(["-u", "+%Y-%m-%dT%H:%M:%SZ"]))
            .map_or_else(|| "unknown".into(), |d| d.trim().to_string()),
        commit: output(Command::new("git").current_dir(root()).args(["rev-parse", "--short", "HEAD"]))
            .map_or_else(|| "unknown".into(), |c| c.trim().to_string()),
        native,
        browser,
        app_wasm: weigh(&app_wasm(&dist)?)?,
        engine_wasm: weigh(&crate::dist::engine_dir(&dist, "engine")?.join("engine_bg.wasm"))?,
        largest_chunk: largest_chunk(&dist)?,
        chapter_parts: chapter_parts(&chapter_code)?,
        chapter_code,
        wasm_profiles: vec![profile("app", &linked_app_wasm()?)?, profile("engine", &linked_engine_wasm())?],
    };
    results.check_complete()?;

    let tables = results.tables();
    println!("{}", results.title());
    for table in &tables {
        println!("\n{}", table.to_text());
    }
    let markdown_path = root().join("bench-report.md");
    let json_path = root().join("bench-report.json");
    write(&markdown_path, &results.to_markdown(&tables))?;
    write(&json_path, &(results.to_json() + "\n"))?;
    println!("\nwritten: {} and {}", markdown_path.display(), json_path.display());
    Ok(())
}

/// The UI's heaviest chunk file, gzip -9.
fn largest_chunk(dist: &Path) -> Result<Weight, String> {
    let weights = app_chunks(dist)?.iter().map(|chunk| weigh(chunk)).collect::<Result<Vec<_>, _>>()?;
    weights.into_iter().max_by_key(|w| w.gzip_bytes).ok_or_else(|| "the UI has no chunks".into())
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Figures by key, as reported by one side (`lab --json` or `bench.mjs`).
type Figures = BTreeMap<String, Value>;
