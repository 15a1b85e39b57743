//! `cargo xtask bench`: the same kernels natively and in headless Chromium, side by side, in one run.
//!
//! Builds the site and the native `lab` CLI, runs `lab sum|hash|cost|docsearch|qps … --json` (OS
//! threads) and `node e2e/bench.mjs` (the same jobs sent to the engine in Chromium, plus page timings),
//! weighs the two wasm modules, then prints the figures and their ratios, native against wasm and each
//! lesson's own (threads against goroutines, …), and writes them to `bench-report.md` and
//! `bench-report.json`.
//! These are measurements, not tests: a slow number never fails the command; only a figure that
//! cannot be measured at all does. Std only, like the rest of xtask: JSON is read and written by the
//! small [`json`] module below.

use crate::shell::{cargo, output, root, run as run_echoed, tool_path};
use json::Json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use table::Table;

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
  task cost  10,000 tasks of 1 square root (a loop, thread-pool tasks, goroutines) in ns/task, and
             a turn handed back and forth 100,000 times (2 threads, 2 goroutines) in ns/switch:
             lab cost --sqrt 1 --tasks 10000 --trips 100000 --workers 2 --reps 3
  blocking   200 documents, each read blocking 1 ms: a loop, then 8 threads and 8 goroutines on
             1 worker, as speedups:
             lab docsearch --docs 200 --latency-ms 1 --workers 1 --tasks 8 --reps 1
  server     200 requests, 20 in flight, each 50 µs of CPU then a 10 ms wait: a pool of 2
             threads and goroutines on 2 workers, in req/s:
             lab qps --workers 2 --requests 200 --concurrency 20 --wait-ms 10 --work-us 50 --reps 1

  Where the CPU has SHA instructions (which WebAssembly cannot use), hashing natively again with
  SHA-256 in plain Rust (lab built with --features soft-sha), beside the browser.

  Then, in Chromium only, the Sum (8 tasks) and hashing jobs again in the engine built without
  shared memory, on 2 message-passing workers that get their input copied in (what a course page
  that is not cross-origin isolated runs), beside the same jobs with shared memory.

  First runs: on 5 fresh pages each, the first autorun or sweep a reader sees (the sum with 2 and
  8 tasks, the sorts, hashing on 1, 2 and 4 workers) against the same run repeated warm on that
  page; speedups at 1, 2 and 4 workers, medians, cold / warm against the target 0.9.

  Also weighs the site's wasm (raw and gzip -9) and times first paint and the longest main-thread
  task during a UI run. Prints a table per kernel and writes bench-report.md and bench-report.json
  at the workspace root. Figures are measurements: a slow one never fails the command; one that
  cannot be measured at all does, and so do jobs that differ between the two sides. Measuring
  takes about 15 minutes on two cores.

  Steps: install missing tools and build dist/ (as `cargo xtask build`), `cargo build --release
  -p lab`, run lab sum for --tasks 2 and 8, then lab hash, cost, docsearch and qps, run
  e2e/bench.mjs against dist/, weigh dist/*.wasm.

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

/// The kernels after Sum, each measured by one `lab` subcommand natively and by the same jobs in the
/// browser (e2e/bench.mjs has the same parameters). Every measured job is reported under a figure
/// name ([`figure_name`]); each side also reports `<kernel>_check_ok` and `<kernel>_jobs`, the jobs
/// it measured, which must be equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kernel {
    Hash,
    Cost,
    Docsearch,
    Qps,
}

/// `lab hash`: SHA-256 of `--mb` MiB of generated data, as `--hashes` independent hashes.
const HASH_MB: u64 = 32;
const HASH_HASHES: u32 = 4;
const HASH_WORKERS: u32 = 2;
const HASH_REPETITIONS: u32 = 3;
/// `lab cost`: tasks of `--sqrt` square roots each, and the round trips of the ping-pong.
const COST_TASKS: u32 = 10_000;
const COST_SQRT: u32 = 1;
const COST_WORKERS: u32 = 2;
const SWITCH_TRIPS: u32 = 100_000;
const COST_REPETITIONS: u32 = 3;
/// `lab docsearch`: documents, each read blocking `--latency-ms`.
const DOCUMENTS: u32 = 200;
const READ_LATENCY_MS: u32 = 1;
const DOCSEARCH_WORKERS: u32 = 1;
const DOCSEARCH_TASKS: u32 = 8;
const DOCSEARCH_REPETITIONS: u32 = 1;
/// `lab qps`: the load test of a thread-pool server and a goroutine server.
const QPS_WORKERS: u32 = 2;
const QPS_REQUESTS: u32 = 200;
const QPS_CONCURRENCY: u32 = 20;
const QPS_WAIT_MS: u32 = 10;
const QPS_WORK_US: u32 = 50;
const QPS_REPETITIONS: u32 = 1;

impl Kernel {
    const ALL: [Kernel; 4] = [Kernel::Hash, Kernel::Cost, Kernel::Docsearch, Kernel::Qps];

    /// Its `lab` subcommand, also the prefix of its `_check_ok` and `_jobs` figures.
    fn name(self) -> &'static str {
        match self {
            Kernel::Hash => "hash",
            Kernel::Cost => "cost",
            Kernel::Docsearch => "docsearch",
            Kernel::Qps => "qps",
        }
    }

    /// The `lab` command line that measures it, without `--json`.
    fn lab_args(self) -> Vec<String> {
        let args = match self {
            Kernel::Hash => {
                format!("hash --mb {HASH_MB} --hashes {HASH_HASHES} --workers {HASH_WORKERS} --reps {HASH_REPETITIONS}")
            }
            Kernel::Cost => format!(
                "cost --sqrt {COST_SQRT} --tasks {COST_TASKS} --trips {SWITCH_TRIPS} --workers {COST_WORKERS} \
                 --reps {COST_REPETITIONS}"
            ),
            Kernel::Docsearch => format!(
                "docsearch --docs {DOCUMENTS} --latency-ms {READ_LATENCY_MS} --workers {DOCSEARCH_WORKERS} \
                 --tasks {DOCSEARCH_TASKS} --reps {DOCSEARCH_REPETITIONS}"
            ),
            Kernel::Qps => format!(
                "qps --workers {QPS_WORKERS} --requests {QPS_REQUESTS} --concurrency {QPS_CONCURRENCY} \
                 --wait-ms {QPS_WAIT_MS} --work-us {QPS_WORK_US} --reps {QPS_REPETITIONS}"
            ),
        };
        args.split_whitespace().map(String::from).collect()
    }

    /// The numbers both sides must report for it.
    fn figures(self) -> &'static [&'static str] {
        match self {
            Kernel::Hash => &["hash_loop_ms", "hash_tasks_ms"],
            Kernel::Cost => {
                &["spawn_loop_ms", "spawn_tasks_ms", "spawn_goroutines_ms", "switch_threads_ms", "switch_goroutines_ms"]
            }
            Kernel::Docsearch => &["docsearch_sequential_ms", "docsearch_threads_ms", "docsearch_goroutines_ms"],
            Kernel::Qps => {
                &["qps_thread_pool_ms", "qps_thread_pool_req_s", "qps_goroutines_ms", "qps_goroutines_req_s"]
            }
        }
    }
}

/// The name a measured job's figures are reported under (`<name>_ms`, and `<name>_req_s` for a
/// server), from its workload kind and variant; e2e/bench.mjs names its measurements the same way.
fn figure_name(job: &Json) -> Result<&'static str, String> {
    let kind = job.path(&["workload", "kind"]).and_then(Json::as_str).unwrap_or_default();
    let variant = job.get("variant").and_then(Json::as_str).unwrap_or_default();
    Ok(match (kind, variant) {
        ("hash", "sequential") => "hash_loop",
        ("hash", "tasks") => "hash_tasks",
        ("granularity", "sequential") => "spawn_loop",
        ("granularity", "tasks") => "spawn_tasks",
        ("granularity", "goroutines") => "spawn_goroutines",
        ("ping_pong", "tasks") => "switch_threads",
        ("ping_pong", "goroutines") => "switch_goroutines",
        ("doc_search", "sequential") => "docsearch_sequential",
        ("doc_search", "tasks") => "docsearch_threads",
        ("doc_search", "goroutines") => "docsearch_goroutines",
        ("qps", "tasks") => "qps_thread_pool",
        ("qps", "goroutines") => "qps_goroutines",
        _ => return Err(format!("no figure for a {variant:?} {kind:?} job")),
    })
}

/// Page figures only the browser reports.
const PAGE_KEYS: [&str; 9] = [
    "first_paint_ms",
    "first_contentful_paint_ms",
    "sum_panel_ms",
    "engine_ready_ms",
    "longest_task_run_ms",
    "long_tasks_run",
    "longest_task_load_ms",
    "ui_sequential_ms",
    "ui_tasks2_workers2_ms",
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
    let dist = root().join("dist");
    let native = measure_native()?;
    let browser = measure_browser(&dist)?;
    let results = BenchResults {
        generated_at: output(Command::new("date").args(["-u", "+%Y-%m-%dT%H:%M:%SZ"]))
            .map_or_else(|| "unknown".into(), |d| d.trim().to_string()),
        commit: output(Command::new("git").current_dir(root()).args(["rev-parse", "--short", "HEAD"]))
            .map_or_else(|| "unknown".into(), |c| c.trim().to_string()),
        native,
        browser,
        app_wasm: weigh(&app_wasm(&dist)?)?,
        engine_wasm: weigh(&dist.join("engine/engine_bg.wasm"))?,
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
    write(&json_path, &(results.to_json().to_string_pretty() + "\n"))?;
    println!("\nwritten: {} and {}", markdown_path.display(), json_path.display());
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Figures by key, as reported by one side (`lab --json` or `bench.mjs`).
type Figures = BTreeMap<String, Json>;

/// Build `lab` in release and run the Sum kernel for each task count, then every other kernel; the
/// figures under the same keys as the browser's.
fn measure_native() -> Result<Figures, String> {
    run_echoed(cargo().args(["build", "--release", "--package", "lab"]))?;
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), |dir| root().join(dir));
    let lab = target.join("release/lab");
    let mut figures = Figures::new();
    for (run, tasks) in TASK_COUNTS.into_iter().enumerate() {
        let args = format!("sum --workers 1,2 --tasks {tasks} --n {NUMBERS} --reps {REPETITIONS}");
        let report = run_lab(&lab, &args.split_whitespace().map(String::from).collect::<Vec<_>>())?;
        add_lab_figures(&report, tasks, run == 0, &mut figures)?;
    }
    for kernel in Kernel::ALL {
        add_kernel_figures(&run_lab(&lab, &kernel.lab_args())?, kernel, &mut figures)?;
    }
    // WebAssembly cannot use a CPU's SHA instructions; where native code does, time SHA-256 in plain
    // Rust too, so the browser's figure has a fair native counterpart.
    let sha_instructions = cpu_has_sha_instructions();
    figures.insert("cpu_sha_instructions".into(), Json::Bool(sha_instructions));
    if sha_instructions {
        let soft_target = target.join("soft-sha");
        run_echoed(
            cargo()
                .args(["build", "--release", "--package", "lab", "--features", "soft-sha", "--target-dir"])
                .arg(&soft_target),
        )?;
        let mut soft = Figures::new();
        add_kernel_figures(
            &run_lab(&soft_target.join("release/lab"), &Kernel::Hash.lab_args())?,
            Kernel::Hash,
            &mut soft,
        )?;
        for key in ["hash_loop_ms", "hash_tasks_ms"] {
            let value = soft.get(key).cloned().ok_or_else(|| format!("lab with soft-sha did not report {key}"))?;
            figures.insert(key.replace("hash_", "hash_soft_"), value);
        }
    }
    Ok(figures)
}

/// Whether this machine's CPU has SHA-256 instructions that native code (the sha2 crate) uses.
fn cpu_has_sha_instructions() -> bool {
    let flags = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    flags
        .lines()
        .filter(|l| l.starts_with("flags") || l.starts_with("Features"))
        .any(|l| l.split_whitespace().any(|flag| flag == "sha_ni" || flag == "sha2"))
}

/// Run `lab <args> --json` and read what it printed.
fn run_lab(lab: &Path, args: &[String]) -> Result<Json, String> {
    let mut command = Command::new(lab);
    command.args(args).arg("--json").stderr(Stdio::inherit());
    eprintln!("xtask: $ {}", crate::shell::describe(&command));
    let out = command.output().map_err(|e| format!("could not start {}: {e}", lab.display()))?;
    // lab exits with 1 when a result is wrong but still prints it: the report shows the check. A job
    // that could not be measured at all prints nothing.
    json::parse(&String::from_utf8_lossy(&out.stdout))
        .map_err(|e| format!("`lab {} --json` ({}) printed no readable JSON: {e}", args.join(" "), out.status))
}

/// Read one `lab sum --json` report into `figures`. The first run also gives the baseline and the pool
/// start-up times (its first job starts a pool of 1 worker, its 2-worker job one of 2).
fn add_lab_figures(report: &Json, tasks: u32, first_run: bool, figures: &mut Figures) -> Result<(), String> {
    let machine = report.get("machine");
    for key in ["os", "arch", "logical_cpus"] {
        if let Some(value) = machine.and_then(|m| m.get(key)) {
            figures.insert(key.into(), value.clone());
        }
    }
    let results = report.get("results").and_then(Json::as_array).ok_or("lab's JSON has no results")?;
    let mut all_ok = figures.get("check_ok").and_then(Json::as_bool).unwrap_or(true);
    for result in results {
        let field = |path: &[&str]| result.path(&["measurement"]).and_then(|m| m.path(path));
        let number = |path: &[&str]| {
            field(path)
                .and_then(Json::as_f64)
                .ok_or_else(|| format!("lab's JSON has no number at measurement.{}", path.join(".")))
        };
        let variant = field(&["job", "variant"]).and_then(Json::as_str).unwrap_or_default();
        let workers = number(&["job", "workers"])?;
        let median = number(&["summary", "median_ms"])?;
        let pool_start = field(&["pool_start_ms"]).and_then(Json::as_f64);
        all_ok &= field(&["check", "ok"]).and_then(Json::as_bool).unwrap_or(false);
        match variant {
            "sequential" if first_run => {
                figures.insert("sequential_ms".into(), Json::Number(median));
                figures.insert("sequential_min_ms".into(), Json::Number(number(&["summary", "min_ms"])?));
            }
            "sequential" => {
                figures.insert("sequential_run2_ms".into(), Json::Number(median));
            }
            _ => {
                figures.insert(format!("tasks{tasks}_workers{workers}_ms"), Json::Number(median));
                // The first job on each new pool reports its start-up (the loop runs on a worker of
                // the smallest pool, so the 1-worker pool is the 1-worker tasks job's).
                if first_run && (workers == 1.0 || workers == 2.0) {
                    if let Some(ms) = pool_start {
                        figures.insert(format!("pool_start_{workers}_ms"), Json::Number(ms));
                    }
                }
            }
        }
    }
    figures.insert("check_ok".into(), Json::Bool(all_ok));
    Ok(())
}

/// Read the `lab --json` report of `kernel` into `figures`: each job's median under its
/// [`figure_name`] (and a server's requests per second), whether every result was right, and the
/// jobs themselves.
fn add_kernel_figures(report: &Json, kernel: Kernel, figures: &mut Figures) -> Result<(), String> {
    let lab = format!("`lab {}`", kernel.name());
    let results =
        report.get("results").and_then(Json::as_array).ok_or_else(|| format!("{lab}'s JSON has no results"))?;
    let mut all_ok = true;
    let mut jobs = Vec::new();
    for result in results {
        let measurement =
            result.get("measurement").ok_or_else(|| format!("{lab}'s JSON has a result without a measurement"))?;
        let number = |path: &[&str]| {
            measurement
                .path(path)
                .and_then(Json::as_f64)
                .ok_or_else(|| format!("{lab}'s JSON has no number at measurement.{}", path.join(".")))
        };
        let job = measurement.get("job").ok_or_else(|| format!("{lab}'s JSON has a measurement without its job"))?;
        let name = figure_name(job)?;
        if figures.insert(format!("{name}_ms"), Json::Number(number(&["summary", "median_ms"])?)).is_some() {
            return Err(format!("two jobs of {lab} are both reported as {name}"));
        }
        if job.path(&["workload", "kind"]).and_then(Json::as_str) == Some("qps") {
            figures.insert(format!("{name}_req_s"), Json::Number(number(&["qps", "qps"])?));
        }
        all_ok &= measurement.path(&["check", "ok"]).and_then(Json::as_bool).unwrap_or(false);
        jobs.push(job.clone());
    }
    figures.insert(format!("{}_check_ok", kernel.name()), Json::Bool(all_ok));
    figures.insert(format!("{}_jobs", kernel.name()), Json::Array(jobs));
    Ok(())
}

/// Run `node e2e/bench.mjs` against `dist` and read its `browser.<key>=<value>` lines.
fn measure_browser(dist: &Path) -> Result<Figures, String> {
    let mut command = Command::new("node");
    command
        .arg("bench.mjs")
        .current_dir(root().join("e2e"))
        .env("SITE_DIR", dist)
        .env("PATH", tool_path())
        .stderr(Stdio::inherit());
    eprintln!("xtask: $ (cd e2e && SITE_DIR={} node bench.mjs)", dist.display());
    let out = command.output().map_err(|e| format!("could not start node: {e}"))?;
    if !out.status.success() {
        return Err(format!("`node e2e/bench.mjs` could not measure ({})", out.status));
    }
    Ok(parse_browser_lines(&String::from_utf8_lossy(&out.stdout)))
}

/// `browser.key=value` lines to figures: numbers, `true`/`false`, JSON arrays and objects (the jobs a
/// kernel measured), or text. Other lines are ignored.
fn parse_browser_lines(text: &str) -> Figures {
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("browser.")?.split_once('='))
        .map(|(key, value)| {
            let value = match value.trim() {
                "true" => Json::Bool(true),
                "false" => Json::Bool(false),
                raw if raw.starts_with(['[', '{']) => {
                    json::parse(raw).unwrap_or_else(|_| Json::String(raw.to_string()))
                }
                raw => raw
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .map_or_else(|| Json::String(raw.to_string()), Json::Number),
            };
            (key.trim().to_string(), value)
        })
        .collect()
}

/// The UI module Trunk wrote (its name carries a content hash).
fn app_wasm(dist: &Path) -> Result<PathBuf, String> {
    let entries = std::fs::read_dir(dist).map_err(|e| format!("{}: {e}", dist.display()))?;
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("app-") && n.ends_with("_bg.wasm"))
        })
        .collect();
    found.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    found.pop().ok_or_else(|| format!("no app-*_bg.wasm in {}: is the site built?", dist.display()))
}

/// A file's size, raw and compressed with `gzip -9`.
#[derive(Clone, Debug, PartialEq)]
struct Weight {
    file: String,
    raw_bytes: u64,
    gzip_bytes: u64,
}

fn weigh(path: &Path) -> Result<Weight, String> {
    let raw_bytes = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?.len();
    let gzip = Command::new("gzip")
        .args(["-9", "-c"])
        .arg(path)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not run gzip: {e}"))?;
    if !gzip.status.success() {
        return Err(format!("gzip -9 -c {} failed ({})", path.display(), gzip.status));
    }
    let file = path.strip_prefix(root()).unwrap_or(path).display().to_string();
    Ok(Weight { file, raw_bytes, gzip_bytes: gzip.stdout.len() as u64 })
}

/// Everything one bench run measured.
#[derive(Clone, Debug, PartialEq)]
struct BenchResults {
    generated_at: String,
    commit: String,
    native: Figures,
    browser: Figures,
    app_wasm: Weight,
    engine_wasm: Weight,
}

impl BenchResults {
    /// `Err` naming the first figure a side did not report (that one could not be measured at all), or
    /// the first kernel whose jobs differ between the two sides (their figures would not compare).
    fn check_complete(&self) -> Result<(), String> {
        for key in KERNEL_KEYS {
            number(&self.native, key).ok_or_else(|| format!("lab did not report {key}"))?;
        }
        for key in KERNEL_KEYS.iter().chain(&PAGE_KEYS).chain(&NO_SHARED_MEMORY_KEYS) {
            number(&self.browser, key).ok_or_else(|| format!("e2e/bench.mjs did not report {key}"))?;
        }
        for kernel in Kernel::ALL {
            let (check, jobs) = (format!("{}_check_ok", kernel.name()), format!("{}_jobs", kernel.name()));
            for (side, figures) in [("lab", &self.native), ("e2e/bench.mjs", &self.browser)] {
                for key in kernel.figures() {
                    number(figures, key).ok_or_else(|| format!("{side} did not report {key}"))?;
                }
                figures.get(&check).and_then(Json::as_bool).ok_or_else(|| format!("{side} did not report {check}"))?;
                figures.get(&jobs).and_then(Json::as_array).ok_or_else(|| format!("{side} did not report {jobs}"))?;
            }
            if self.native.get(&jobs) != self.browser.get(&jobs) {
                let jobs_of = |figures: &Figures| figures.get(&jobs).map(one_line).unwrap_or_default();
                return Err(format!(
                    "lab and e2e/bench.mjs measured different {} jobs, so their figures do not compare:\n  lab:           \
                     {}\n  e2e/bench.mjs: {}",
                    kernel.name(),
                    jobs_of(&self.native),
                    jobs_of(&self.browser)
                ));
            }
        }
        Ok(())
    }

    fn native_ms(&self, key: &str) -> f64 {
        number(&self.native, key).unwrap_or(f64::NAN)
    }

    fn browser_ms(&self, key: &str) -> f64 {
        number(&self.browser, key).unwrap_or(f64::NAN)
    }

    /// Sequential median over the median of `key` on each side: (native, browser).
    fn speedups(&self, key: &str) -> (f64, f64) {
        (self.native_ms("sequential_ms") / self.native_ms(key), self.browser_ms("sequential_ms") / self.browser_ms(key))
    }

    fn title(&self) -> String {
        let text = |figures: &Figures, key: &str| figures.get(key).map_or_else(|| "?".into(), Json::to_plain_text);
        format!(
            "Concurrency Lab bench, {} (commit {}): {} {}, {} logical CPUs; {} (navigator.hardwareConcurrency {})",
            self.generated_at,
            self.commit,
            text(&self.native, "os"),
            text(&self.native, "arch"),
            text(&self.native, "logical_cpus"),
            text(&self.browser, "version"),
            text(&self.browser, "hardware_concurrency"),
        )
    }

    fn tables(&self) -> Vec<Table> {
        let mut kernel = Table::new(
            &format!(
                "Sum of {} integers, median of {REPETITIONS} timed runs (ms); native = lab on OS threads, wasm = the engine in Chromium",
                group_digits(NUMBERS)
            ),
            &["measure", "native", "wasm", "wasm / native"],
            &[false, true, true, true],
        );
        let checks = |figures: &Figures| checks(figures, "check_ok");
        let rows = [
            ("sequential (one loop), ms", "sequential_ms"),
            ("2 tasks on 1 worker, ms", "tasks2_workers1_ms"),
            ("2 tasks on 2 workers, ms", "tasks2_workers2_ms"),
            ("8 tasks on 1 worker, ms", "tasks8_workers1_ms"),
            ("8 tasks on 2 workers, ms", "tasks8_workers2_ms"),
        ];
        for (label, key) in rows {
            let (native, wasm) = (self.native_ms(key), self.browser_ms(key));
            kernel.row(&[label, &ms(native), &ms(wasm), &times(wasm / native)]);
        }
        for (label, key) in [
            ("speedup, 2 tasks on 2 workers", "tasks2_workers2_ms"),
            ("speedup, 8 tasks on 2 workers", "tasks8_workers2_ms"),
        ] {
            let (native, wasm) = self.speedups(key);
            kernel.row(&[label, &times(native), &times(wasm), &ratio(wasm / native)]);
        }
        for (label, key) in
            [("pool start, 1 worker, ms", "pool_start_1_ms"), ("pool start, 2 workers, ms", "pool_start_2_ms")]
        {
            let (native, wasm) = (self.native_ms(key), self.browser_ms(key));
            kernel.row(&[label, &ms(native), &ms(wasm), &times(wasm / native)]);
        }
        kernel.row(&["results", checks(&self.native), checks(&self.browser), ""]);

        let mut sizes = Table::new("Site downloads", &["file", "raw", "gzip -9"], &[false, true, true]);
        for weight in [&self.app_wasm, &self.engine_wasm] {
            sizes.row(&[&weight.file, &bytes(weight.raw_bytes), &bytes(weight.gzip_bytes)]);
        }

        let mut page = Table::new(
            "The Sum chapter in Chromium (ms from navigation start unless noted)",
            &["measure", "ms"],
            &[false, true],
        );
        let browser = |key: &str| ms(self.browser_ms(key));
        page.row(&["first paint", &browser("first_paint_ms")]);
        page.row(&["first contentful paint", &browser("first_contentful_paint_ms")]);
        page.row(&["Sum panel in the page", &browser("sum_panel_ms")]);
        page.row(&["engine worker ready (own clock, from new Worker)", &browser("engine_ready_ms")]);
        page.row(&["longest main-thread task while loading (0: none)", &browser("longest_task_load_ms")]);
        page.row(&[
            &format!(
                "longest main-thread task during a UI run ({} long tasks; 0: none)",
                self.browser_ms("long_tasks_run")
            ),
            &browser("longest_task_run_ms"),
        ]);
        // The UI run's engine is cold (no untimed pass first): what a reader sees on a first click.
        page.row(&["that UI run's results table: sequential median (cold engine)", &browser("ui_sequential_ms")]);
        page.row(&[
            "that UI run's results table: 2 tasks on 2 workers median (cold engine)",
            &browser("ui_tasks2_workers2_ms"),
        ]);
        let mut tables = vec![kernel];
        tables.extend(Kernel::ALL.map(|k| self.kernel_table(k)));
        tables.extend(self.software_sha_table());
        tables.extend([sizes, page, self.no_shared_memory_table(), self.first_runs_table()]);
        tables
    }

    /// Where native SHA-256 uses the CPU's SHA instructions (which WebAssembly cannot), the browser's
    /// hashing against native SHA-256 in plain Rust.
    fn software_sha_table(&self) -> Option<Table> {
        if self.native.get("cpu_sha_instructions").and_then(Json::as_bool) != Some(true) {
            return None;
        }
        let native = derived(&self.native);
        let browser = derived(&self.browser);
        let get =
            |figures: &[(&str, f64)], key: &str| figures.iter().find(|(k, _)| *k == key).map_or(f64::NAN, |(_, v)| *v);
        let mut table = Table::new(
            "SHA-256 without SHA instructions: this CPU has them and native SHA-256 uses them, WebAssembly cannot; \
             here native runs SHA-256 in plain Rust (sha2's force-soft) beside the browser (MB/s)",
            &["measure", "native, plain Rust", "wasm", "wasm / native"],
            &[false, true, true, true],
        );
        for (label, soft, wasm) in [
            ("loop, MB/s", "hash_soft_loop_mb_s", "hash_loop_mb_s"),
            (&*format!("{}, MB/s", counted(HASH_WORKERS, "worker")), "hash_soft_tasks_mb_s", "hash_tasks_mb_s"),
        ] {
            let (native, wasm) = (get(&native, soft), get(&browser, wasm));
            table.row(&[label, &format!("{native:.0}"), &format!("{wasm:.0}"), &ratio(wasm / native)]);
        }
        Some(table)
    }

    /// What a reader sees first: each case's first run on a fresh page against the same run repeated
    /// warm on that page (speedups over the run's own baseline, median over the fresh pages).
    fn first_runs_table(&self) -> Table {
        let runs = self.browser.get("first_runs").and_then(Json::as_array).unwrap_or_default();
        let pages = runs.first().and_then(|r| r.get("cold")).and_then(Json::as_array).map_or(0, <[Json]>::len);
        let mut table = Table::new(
            &format!(
                "First runs in Chromium: a fresh page's first autorun or sweep against the same run repeated warm \
                 (speedup over the run's baseline, median of {pages} fresh pages; target cold / warm >= {FIRST_RUN_TARGET})"
            ),
            &["case", "measure", "cold", "warm", "cold / warm", "target met"],
            &[false, false, true, true, true, false],
        );
        for run in runs {
            let text = |key: &str| run.get(key).and_then(Json::as_str).unwrap_or("?").to_string();
            let median_of = |key: &str| {
                let values: Vec<f64> = run
                    .get(key)
                    .and_then(Json::as_array)
                    .map(|a| a.iter().filter_map(Json::as_f64).collect())
                    .unwrap_or_default();
                median(&values)
            };
            let (cold, warm) = (median_of("cold"), median_of("warm"));
            let key = text("key");
            let (what, workers) = key.split_once('@').unwrap_or((&key, "?"));
            let measure = format!(
                "{} on {}",
                what.replace('_', " "),
                if workers == "1" { "1 worker".into() } else { format!("{workers} workers") }
            );
            let met = if cold / warm >= FIRST_RUN_TARGET { "yes" } else { "NO" };
            table.row(&[&text("case"), &measure, &times(cold), &times(warm), &ratio(cold / warm), met]);
        }
        table
    }

    /// The sum and the hashes in Chromium on a page without shared memory (message-passing
    /// workers, every input copied to them) beside the same jobs with shared memory.
    fn no_shared_memory_table(&self) -> Table {
        let mut table = Table::new(
            &format!(
                "Without shared memory (a page that is not isolated): the same jobs in Chromium on {} that \
                 get their input copied in messages (ms)",
                counted(2, "message-passing worker")
            ),
            &["measure", "shared memory", "messages", "messages / shared"],
            &[false, true, true, true],
        );
        let rows = [
            ("sum, sequential (one loop)", "sequential_ms", "nomem_sum_sequential_ms"),
            ("sum, 8 tasks on 2 workers", "tasks8_workers2_ms", "nomem_sum_tasks8_workers2_ms"),
            ("hashes, loop", "hash_loop_ms", "nomem_hash_loop_ms"),
            ("hashes, on 2 workers", "hash_tasks_ms", "nomem_hash_tasks_ms"),
        ];
        for (label, shared, messages) in rows {
            let (shared, messages) = (self.browser_ms(shared), self.browser_ms(messages));
            table.row(&[label, &ms(shared), &ms(messages), &times(messages / shared)]);
        }
        let speedup = |loop_key: &str, tasks_key: &str| self.browser_ms(loop_key) / self.browser_ms(tasks_key);
        let sum = (
            speedup("sequential_ms", "tasks8_workers2_ms"),
            speedup("nomem_sum_sequential_ms", "nomem_sum_tasks8_workers2_ms"),
        );
        let hash = (speedup("hash_loop_ms", "hash_tasks_ms"), speedup("nomem_hash_loop_ms", "nomem_hash_tasks_ms"));
        table.row(&["sum, speedup on 2 workers", &times(sum.0), &times(sum.1), &ratio(sum.1 / sum.0)]);
        table.row(&["hashes, speedup on 2 workers", &times(hash.0), &times(hash.1), &ratio(hash.1 / hash.0)]);
        table.row(&["results", "", checks(&self.browser, "nomem_check_ok"), ""]);
        table
    }

    /// One kernel's table: its figures on each side in the kernel's own units, and its lessons' ratios.
    fn kernel_table(&self, kernel: Kernel) -> Table {
        let workers = |n: u32| counted(n, "worker");
        let (title, rows): (String, Vec<(String, &str, Unit)>) = match kernel {
            Kernel::Hash => (
                format!(
                    "SHA-256 of {HASH_MB} MiB of generated data, {HASH_HASHES} independent hashes, as one loop and as tasks \
                     on {}; {} (MB/s: 10^6 bytes hashed per second)",
                    workers(HASH_WORKERS),
                    timed_runs(HASH_REPETITIONS)
                ),
                vec![
                    ("loop, ms".into(), "hash_loop_ms", Unit::Time),
                    (format!("{HASH_HASHES} hashes on {}, ms", workers(HASH_WORKERS)), "hash_tasks_ms", Unit::Time),
                    ("loop, MB/s".into(), "hash_loop_mb_s", Unit::Rate),
                    (format!("{}, MB/s", workers(HASH_WORKERS)), "hash_tasks_mb_s", Unit::Rate),
                    (format!("speedup, {}", workers(HASH_WORKERS)), "hash_speedup", Unit::Factor),
                ],
            ),
            Kernel::Cost => (
                format!(
                    "What a task costs: {} tasks of {} each; a turn handed back and forth {} times; {}",
                    group_digits(COST_TASKS.into()),
                    counted(COST_SQRT, "square root"),
                    group_digits(SWITCH_TRIPS.into()),
                    timed_runs(COST_REPETITIONS)
                ),
                vec![
                    ("spawn: loop iteration, ns/task".into(), "spawn_loop_ns_per_task", Unit::Time),
                    (
                        format!("spawn: thread-pool task (rayon, {}), ns/task", workers(COST_WORKERS)),
                        "spawn_tasks_ns_per_task",
                        Unit::Time,
                    ),
                    (
                        format!("spawn: goroutine ({}), ns/task", workers(COST_WORKERS)),
                        "spawn_goroutines_ns_per_task",
                        Unit::Time,
                    ),
                    (
                        "switch: 2 threads on 2 workers (block, wake), ns/switch".into(),
                        "switch_threads_ns_per_switch",
                        Unit::Time,
                    ),
                    (
                        "switch: 2 goroutines on 1 worker (yield), ns/switch".into(),
                        "switch_goroutines_ns_per_switch",
                        Unit::Time,
                    ),
                    ("switch cost, threads / goroutines".into(), "switch_threads_over_goroutines", Unit::Factor),
                ],
            ),
            Kernel::Docsearch => {
                let on = format!("{} on {}", counted(DOCSEARCH_TASKS, "task"), workers(DOCSEARCH_WORKERS));
                (
                    format!(
                        "Blocking reads: searching {} RSS documents, each read blocking {READ_LATENCY_MS} ms; {}",
                        group_digits(DOCUMENTS.into()),
                        timed_runs(DOCSEARCH_REPETITIONS)
                    ),
                    vec![
                        ("sequential (one loop), ms".into(), "docsearch_sequential_ms", Unit::Time),
                        (format!("threads: {on}, reads block, ms"), "docsearch_threads_ms", Unit::Time),
                        (format!("goroutines: {on}, reads park, ms"), "docsearch_goroutines_ms", Unit::Time),
                        ("speedup, threads".into(), "docsearch_threads_speedup", Unit::Factor),
                        ("speedup, goroutines".into(), "docsearch_goroutines_speedup", Unit::Factor),
                        ("goroutines over threads".into(), "docsearch_goroutines_over_threads", Unit::Factor),
                    ],
                )
            }
            Kernel::Qps => (
                format!(
                    "A server under load: {QPS_REQUESTS} requests, {QPS_CONCURRENCY} in flight, each {QPS_WORK_US} µs of \
                     CPU then a {QPS_WAIT_MS} ms blocking wait; {}",
                    timed_runs(QPS_REPETITIONS)
                ),
                vec![
                    (format!("thread pool of {}, req/s", counted(QPS_WORKERS, "thread")), "qps_thread_pool_req_s", Unit::Rate),
                    (format!("goroutines on {}, req/s", workers(QPS_WORKERS)), "qps_goroutines_req_s", Unit::Rate),
                    ("goroutines / thread pool".into(), "qps_goroutines_over_thread_pool", Unit::Factor),
                ],
            ),
        };
        let mut table = Table::new(&title, &["measure", "native", "wasm", "wasm / native"], &[false, true, true, true]);
        for (label, key, unit) in rows {
            let (native, wasm) = (value(&self.native, key), value(&self.browser, key));
            let cells = match unit {
                Unit::Time => [ms(native), ms(wasm), times(wasm / native)],
                Unit::Rate => [ms(native), ms(wasm), ratio(wasm / native)],
                Unit::Factor => [times(native), times(wasm), ratio(wasm / native)],
            };
            table.row(&[&label, &cells[0], &cells[1], &cells[2]]);
        }
        let check = format!("{}_check_ok", kernel.name());
        table.row(&["results", checks(&self.native, &check), checks(&self.browser, &check), ""]);
        table
    }

    fn to_markdown(&self, tables: &[Table]) -> String {
        let mut text = format!("# {}\n", self.title());
        for table in tables {
            text.push('\n');
            text.push_str(&table.to_markdown());
        }
        text.push_str(
            "\nMeasured by `cargo xtask bench` in one run on one machine; the numbers are as noisy as the \
             machine was. The browser timings are the engine's own samples (e2e/bench.mjs), taken after \
             one untimed pass of the same jobs that lets V8 finish optimising the module; pool start-up is \
             read from that first pass. Both sides measured the same jobs (checked: they are in \
             bench-report.json as `<kernel>_jobs`).\n",
        );
        text
    }

    fn to_json(&self) -> Json {
        let weight = |w: &Weight| {
            Json::object([
                ("file", Json::String(w.file.clone())),
                ("raw_bytes", Json::Number(w.raw_bytes as f64)),
                ("gzip_bytes", Json::Number(w.gzip_bytes as f64)),
            ])
        };
        let (native_speedup_2, wasm_speedup_2) = self.speedups("tasks2_workers2_ms");
        let (native_speedup_8, wasm_speedup_8) = self.speedups("tasks8_workers2_ms");
        let figures = |f: &Figures| Json::Object(f.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
        let (native_derived, browser_derived) = (derived(&self.native), derived(&self.browser));
        let numbers = |values: &[(&str, f64)]| Json::object(values.iter().map(|&(k, v)| (k, Json::Number(v))));
        let mut ratios = vec![
            (
                "wasm_over_native_sequential".to_string(),
                Json::Number(self.browser_ms("sequential_ms") / self.native_ms("sequential_ms")),
            ),
            ("native_speedup_2_workers_2_tasks".into(), Json::Number(native_speedup_2)),
            ("wasm_speedup_2_workers_2_tasks".into(), Json::Number(wasm_speedup_2)),
            ("native_speedup_2_workers_8_tasks".into(), Json::Number(native_speedup_8)),
            ("wasm_speedup_2_workers_8_tasks".into(), Json::Number(wasm_speedup_8)),
            (
                "wasm_over_native_pool_start_2_workers".into(),
                Json::Number(self.browser_ms("pool_start_2_ms") / self.native_ms("pool_start_2_ms")),
            ),
        ];
        ratios.extend(
            native_derived
                .iter()
                .zip(&browser_derived)
                .map(|(&(key, native), &(_, wasm))| (format!("wasm_over_native_{key}"), Json::Number(wasm / native))),
        );
        Json::object([
            ("generated_at", Json::String(self.generated_at.clone())),
            ("commit", Json::String(self.commit.clone())),
            (
                "parameters",
                Json::object([
                    ("numbers", Json::Number(NUMBERS as f64)),
                    ("repetitions", Json::Number(REPETITIONS.into())),
                    ("workers", Json::Array(vec![Json::Number(1.0), Json::Number(2.0)])),
                    ("tasks", Json::Array(TASK_COUNTS.iter().map(|&t| Json::Number(t.into())).collect())),
                    (
                        "kernels",
                        Json::object(
                            Kernel::ALL.map(|k| (k.name(), Json::String(format!("lab {}", k.lab_args().join(" "))))),
                        ),
                    ),
                ]),
            ),
            ("native", figures(&self.native)),
            ("browser", figures(&self.browser)),
            ("derived", Json::object([("native", numbers(&native_derived)), ("browser", numbers(&browser_derived))])),
            ("ratios", Json::Object(ratios)),
            ("site", Json::object([("app_wasm", weight(&self.app_wasm)), ("engine_wasm", weight(&self.engine_wasm))])),
        ])
    }
}

/// The figure under `key` if it is a number.
/// The bench's target for a first run's speedup against a warm one.
const FIRST_RUN_TARGET: f64 = 0.9;

/// The median of `values` (the lower middle one for an even count), NaN for none.
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len().saturating_sub(1) / 2).copied().unwrap_or(f64::NAN)
}

fn number(figures: &Figures, key: &str) -> Option<f64> {
    figures.get(key).and_then(Json::as_f64)
}

/// How a row of a kernel's table shows and compares its figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    /// A duration or a cost (ms, ns per task): smaller is faster; wasm / native as `1.25x`.
    Time,
    /// A throughput (MB/s, req/s): larger is faster; wasm / native as `0.80`.
    Rate,
    /// A speedup or a lesson's ratio, `1.80x` on each side; wasm / native as `0.90`.
    Factor,
}

/// The kernels' figures in their own units and their lessons' ratios, computed the same way for each
/// side from its medians (NaN where a median is missing).
fn derived(figures: &Figures) -> Vec<(&'static str, f64)> {
    let ms = |key: &str| number(figures, key).unwrap_or(f64::NAN);
    // lab's --mb counts MiB; its MB/s, like ours, counts 10^6 bytes.
    let hashed_mb = (HASH_MB << 20) as f64 * f64::from(HASH_HASHES) / 1e6;
    let mb_s = |key: &str| hashed_mb / (ms(key) / 1e3);
    let per_task = |key: &str| ms(key) * 1e6 / f64::from(COST_TASKS);
    // Two switches per round trip.
    let per_switch = |key: &str| ms(key) * 1e6 / (2.0 * f64::from(SWITCH_TRIPS));
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
        ("docsearch_threads_speedup", over_sequential("docsearch_threads_ms")),
        ("docsearch_goroutines_speedup", over_sequential("docsearch_goroutines_ms")),
        ("docsearch_goroutines_over_threads", ms("docsearch_threads_ms") / ms("docsearch_goroutines_ms")),
        ("qps_goroutines_over_thread_pool", ms("qps_goroutines_req_s") / ms("qps_thread_pool_req_s")),
    ]
}

/// A reported figure or a [`derived`] one under `key`; NaN if there is none.
fn value(figures: &Figures, key: &str) -> f64 {
    number(figures, key)
        .or_else(|| derived(figures).into_iter().find(|(k, _)| *k == key).map(|(_, v)| v))
        .unwrap_or(f64::NAN)
}

/// Whether every job behind the boolean figure `key` computed the right answer.
fn checks(figures: &Figures, key: &str) -> &'static str {
    match figures.get(key).and_then(Json::as_bool) {
        Some(true) => "all correct",
        Some(false) => "WRONG",
        None => "?",
    }
}

/// A JSON value on one line, for messages (whitespace inside strings is squeezed too).
fn one_line(value: &Json) -> String {
    value.to_string_pretty().split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `1 worker`, `2 workers`.
fn counted(n: u32, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{} {what}s", group_digits(n.into()))
    }
}

/// `median of 3 timed runs`, or `1 timed run`.
fn timed_runs(repetitions: u32) -> String {
    if repetitions == 1 {
        "1 timed run".into()
    } else {
        format!("median of {repetitions} timed runs")
    }
}

/// Milliseconds with three significant digits, at most three decimals.
fn ms(value: f64) -> String {
    if !value.is_finite() {
        return "n/a".into();
    }
    if value == 0.0 {
        return "0".into();
    }
    let decimals = match value.abs() {
        v if v >= 100.0 => 0,
        v if v >= 10.0 => 1,
        v if v >= 1.0 => 2,
        _ => 3,
    };
    format!("{value:.decimals$}")
}

/// A ratio of times or a speedup: `1.80x`.
fn times(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.2}x")
    } else {
        "n/a".into()
    }
}

/// A plain ratio of two ratios: `0.85`.
fn ratio(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.2}")
    } else {
        "n/a".into()
    }
}

/// `10,000,000`.
fn group_digits(value: u64) -> String {
    let digits = value.to_string();
    let mut grouped = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

/// `1,234,567 B (1205.6 KiB)`.
fn bytes(value: u64) -> String {
    format!("{} B ({:.1} KiB)", group_digits(value), value as f64 / 1024.0)
}

mod table {
    //! A small table rendered two ways: aligned plain text for the terminal and Markdown for the report.

    #[derive(Clone, Debug, PartialEq)]
    pub struct Table {
        title: String,
        header: Vec<String>,
        right_aligned: Vec<bool>,
        rows: Vec<Vec<String>>,
    }

    impl Table {
        pub fn new(title: &str, header: &[&str], right_aligned: &[bool]) -> Table {
            Table {
                title: title.into(),
                header: header.iter().map(|h| h.to_string()).collect(),
                right_aligned: right_aligned.to_vec(),
                rows: Vec::new(),
            }
        }

        pub fn row(&mut self, cells: &[&str]) {
            self.rows.push(cells.iter().map(|c| c.to_string()).collect());
        }

        fn widths(&self) -> Vec<usize> {
            (0..self.header.len())
                .map(|c| {
                    std::iter::once(&self.header)
                        .chain(&self.rows)
                        .filter_map(|row| row.get(c))
                        .map(|cell| cell.chars().count())
                        .max()
                        .unwrap_or(0)
                })
                .collect()
        }

        fn padded(&self, row: &[String], widths: &[usize]) -> Vec<String> {
            widths
                .iter()
                .enumerate()
                .map(|(c, &width)| {
                    let cell = row.get(c).map_or("", String::as_str);
                    let pad = " ".repeat(width - cell.chars().count());
                    if self.right_aligned.get(c).copied().unwrap_or(false) {
                        pad + cell
                    } else {
                        cell.to_string() + &pad
                    }
                })
                .collect()
        }

        /// The title, then columns separated by two spaces, numbers right-aligned.
        pub fn to_text(&self) -> String {
            let widths = self.widths();
            let mut text = format!("{}\n", self.title);
            for row in std::iter::once(&self.header).chain(&self.rows) {
                text.push_str("  ");
                text.push_str(self.padded(row, &widths).join("  ").trim_end());
                text.push('\n');
            }
            text
        }

        /// A `###` heading and a Markdown table with the same alignment.
        pub fn to_markdown(&self) -> String {
            let widths: Vec<usize> = self.widths().into_iter().map(|w| w.max(3)).collect();
            let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
            let rule = widths
                .iter()
                .enumerate()
                .map(|(c, &w)| {
                    if self.right_aligned.get(c).copied().unwrap_or(false) {
                        "-".repeat(w - 1) + ":"
                    } else {
                        "-".repeat(w)
                    }
                })
                .collect();
            let mut text = format!("### {}\n\n", self.title);
            text.push_str(&line(self.padded(&self.header, &widths)));
            text.push_str(&line(rule));
            for row in &self.rows {
                let escaped: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
                text.push_str(&line(self.padded(&escaped, &widths)));
            }
            text
        }
    }
}

mod json {
    //! Just enough JSON for the bench: read `lab --json`, write `bench-report.json`. Std only.

    use std::fmt::Write;

    #[derive(Clone, Debug, PartialEq)]
    pub enum Json {
        Null,
        Bool(bool),
        Number(f64),
        String(String),
        Array(Vec<Json>),
        /// Members in their written order.
        Object(Vec<(String, Json)>),
    }

    impl Json {
        pub fn object<'a>(members: impl IntoIterator<Item = (&'a str, Json)>) -> Json {
            Json::Object(members.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
        }

        pub fn get(&self, key: &str) -> Option<&Json> {
            match self {
                Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
                _ => None,
            }
        }

        /// The value at a path of object keys.
        pub fn path(&self, keys: &[&str]) -> Option<&Json> {
            keys.iter().try_fold(self, |value, key| value.get(key))
        }

        pub fn as_f64(&self) -> Option<f64> {
            match self {
                Json::Number(n) => Some(*n),
                _ => None,
            }
        }

        pub fn as_bool(&self) -> Option<bool> {
            match self {
                Json::Bool(b) => Some(*b),
                _ => None,
            }
        }

        pub fn as_str(&self) -> Option<&str> {
            match self {
                Json::String(s) => Some(s),
                _ => None,
            }
        }

        pub fn as_array(&self) -> Option<&[Json]> {
            match self {
                Json::Array(items) => Some(items),
                _ => None,
            }
        }

        /// Strings without quotes, everything else as JSON.
        pub fn to_plain_text(&self) -> String {
            match self {
                Json::String(s) => s.clone(),
                other => other.to_string_pretty(),
            }
        }

        /// Two-space indented JSON; numbers that are whole print without a fraction, NaN as null.
        pub fn to_string_pretty(&self) -> String {
            let mut out = String::new();
            self.write(&mut out, 0);
            out
        }

        fn write(&self, out: &mut String, depth: usize) {
            let indent = |out: &mut String, depth: usize| out.push_str(&"  ".repeat(depth));
            match self {
                Json::Null => out.push_str("null"),
                Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                Json::Number(n) if !n.is_finite() => out.push_str("null"),
                Json::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => {
                    let _ = write!(out, "{}", *n as i64);
                }
                Json::Number(n) => {
                    let _ = write!(out, "{n}");
                }
                Json::String(s) => write_string(out, s),
                Json::Array(items) if items.is_empty() => out.push_str("[]"),
                Json::Array(items) => {
                    out.push('[');
                    for (i, item) in items.iter().enumerate() {
                        out.push_str(if i == 0 { "\n" } else { ",\n" });
                        indent(out, depth + 1);
                        item.write(out, depth + 1);
                    }
                    out.push('\n');
                    indent(out, depth);
                    out.push(']');
                }
                Json::Object(members) if members.is_empty() => out.push_str("{}"),
                Json::Object(members) => {
                    out.push('{');
                    for (i, (key, value)) in members.iter().enumerate() {
                        out.push_str(if i == 0 { "\n" } else { ",\n" });
                        indent(out, depth + 1);
                        write_string(out, key);
                        out.push_str(": ");
                        value.write(out, depth + 1);
                    }
                    out.push('\n');
                    indent(out, depth);
                    out.push('}');
                }
            }
        }
    }

    fn write_string(out: &mut String, text: &str) {
        out.push('"');
        for c in text.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                }
                c => out.push(c),
            }
        }
        out.push('"');
    }

    /// Parse one JSON document (surrounding whitespace allowed).
    pub fn parse(text: &str) -> Result<Json, String> {
        let mut parser = Parser { bytes: text.as_bytes(), at: 0 };
        let value = parser.value(0)?;
        parser.skip_whitespace();
        if parser.at != parser.bytes.len() {
            return Err(parser.error("text after the JSON value"));
        }
        Ok(value)
    }

    /// Nesting deeper than this is refused rather than risking the stack.
    const MAX_DEPTH: usize = 128;

    struct Parser<'a> {
        bytes: &'a [u8],
        at: usize,
    }

    impl Parser<'_> {
        fn error(&self, what: &str) -> String {
            format!("{what} at byte {}", self.at)
        }

        fn skip_whitespace(&mut self) {
            while matches!(self.bytes.get(self.at), Some(b' ' | b'\n' | b'\r' | b'\t')) {
                self.at += 1;
            }
        }

        fn eat(&mut self, byte: u8) -> bool {
            self.skip_whitespace();
            let found = self.bytes.get(self.at) == Some(&byte);
            if found {
                self.at += 1;
            }
            found
        }

        fn expect(&mut self, byte: u8) -> Result<(), String> {
            if self.eat(byte) {
                Ok(())
            } else {
                Err(self.error(&format!("expected `{}`", byte as char)))
            }
        }

        fn literal(&mut self, word: &str, value: Json) -> Result<Json, String> {
            if self.bytes[self.at..].starts_with(word.as_bytes()) {
                self.at += word.len();
                Ok(value)
            } else {
                Err(self.error("unknown literal"))
            }
        }

        fn value(&mut self, depth: usize) -> Result<Json, String> {
            if depth > MAX_DEPTH {
                return Err(self.error("nesting too deep"));
            }
            self.skip_whitespace();
            match self.bytes.get(self.at) {
                None => Err(self.error("unexpected end")),
                Some(b'{') => {
                    self.at += 1;
                    let mut members = Vec::new();
                    if self.eat(b'}') {
                        return Ok(Json::Object(members));
                    }
                    loop {
                        self.skip_whitespace();
                        let key = self.string()?;
                        self.expect(b':')?;
                        members.push((key, self.value(depth + 1)?));
                        if self.eat(b'}') {
                            return Ok(Json::Object(members));
                        }
                        self.expect(b',')?;
                    }
                }
                Some(b'[') => {
                    self.at += 1;
                    let mut items = Vec::new();
                    if self.eat(b']') {
                        return Ok(Json::Array(items));
                    }
                    loop {
                        items.push(self.value(depth + 1)?);
                        if self.eat(b']') {
                            return Ok(Json::Array(items));
                        }
                        self.expect(b',')?;
                    }
                }
                Some(b'"') => self.string().map(Json::String),
                Some(b't') => self.literal("true", Json::Bool(true)),
                Some(b'f') => self.literal("false", Json::Bool(false)),
                Some(b'n') => self.literal("null", Json::Null),
                Some(_) => self.number(),
            }
        }

        fn number(&mut self) -> Result<Json, String> {
            let start = self.at;
            while matches!(self.bytes.get(self.at), Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')) {
                self.at += 1;
            }
            std::str::from_utf8(&self.bytes[start..self.at])
                .ok()
                .and_then(|s| s.parse::<f64>().ok())
                .map(Json::Number)
                .ok_or_else(|| self.error("not a JSON value"))
        }

        fn hex4(&mut self) -> Result<u32, String> {
            let digits = self
                .bytes
                .get(self.at..self.at + 4)
                .and_then(|d| std::str::from_utf8(d).ok())
                .and_then(|d| u32::from_str_radix(d, 16).ok())
                .ok_or_else(|| self.error("bad \\u escape"))?;
            self.at += 4;
            Ok(digits)
        }

        fn string(&mut self) -> Result<String, String> {
            if self.bytes.get(self.at) != Some(&b'"') {
                return Err(self.error("expected a string"));
            }
            self.at += 1;
            let mut text = String::new();
            loop {
                let start = self.at;
                while !matches!(self.bytes.get(self.at), None | Some(b'"' | b'\\')) {
                    self.at += 1;
                }
                text.push_str(
                    std::str::from_utf8(&self.bytes[start..self.at]).map_err(|_| self.error("invalid UTF-8"))?,
                );
                match self.bytes.get(self.at) {
                    None => return Err(self.error("unterminated string")),
                    Some(b'"') => {
                        self.at += 1;
                        return Ok(text);
                    }
                    _ => {}
                }
                self.at += 1;
                let escape = *self.bytes.get(self.at).ok_or_else(|| self.error("unterminated escape"))?;
                self.at += 1;
                match escape {
                    b'"' => text.push('"'),
                    b'\\' => text.push('\\'),
                    b'/' => text.push('/'),
                    b'b' => text.push('\u{8}'),
                    b'f' => text.push('\u{c}'),
                    b'n' => text.push('\n'),
                    b'r' => text.push('\r'),
                    b't' => text.push('\t'),
                    b'u' => {
                        let first = self.hex4()?;
                        let code = if (0xD800..0xDC00).contains(&first) && self.bytes[self.at..].starts_with(b"\\u") {
                            self.at += 2;
                            let second = self.hex4()?;
                            0x10000 + ((first - 0xD800) << 10) + (second.wrapping_sub(0xDC00) & 0x3FF)
                        } else {
                            first
                        };
                        text.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                    }
                    _ => return Err(self.error("unknown escape")),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAB_OUTPUT: &str = r#"{
      "machine": {"os": "linux", "arch": "x86_64", "logical_cpus": 2, "engine": "rayon on OS threads"},
      "results": [
        {"benchmark": "BenchmarkSum/sequential/n=10000000", "speedup": 1.0, "measurement": {
          "job": {"workload": {"kind": "sum", "numbers": 10000000, "seed": 12648430}, "variant": "sequential", "workers": 1, "tasks": 1, "repetitions": 10},
          "samples_ms": [2.5, 2.4], "summary": {"median_ms": 2.4, "min_ms": 2.3, "max_ms": 2.5},
          "trace": {"spans": [{"worker": 0, "task": 0, "start_ms": 0.0, "end_ms": 2.4}], "wall_ms": 2.4},
          "check": {"ok": true, "value": "1", "expected": "1"}, "pool_start_ms": null}},
        {"benchmark": "BenchmarkSum/tasks=2/workers=1/n=10000000", "speedup": 0.96, "measurement": {
          "job": {"workload": {"kind": "sum", "numbers": 10000000, "seed": 12648430}, "variant": "tasks", "workers": 1, "tasks": 2, "repetitions": 10},
          "samples_ms": [2.5], "summary": {"median_ms": 2.5, "min_ms": 2.5, "max_ms": 2.5},
          "trace": {"spans": [], "wall_ms": 2.5}, "check": {"ok": true, "value": "1", "expected": "1"}, "pool_start_ms": 0.08}},
        {"benchmark": "BenchmarkSum/tasks=2/workers=2/n=10000000", "speedup": 2.0, "measurement": {
          "job": {"workload": {"kind": "sum", "numbers": 10000000, "seed": 12648430}, "variant": "tasks", "workers": 2, "tasks": 2, "repetitions": 10},
          "samples_ms": [1.2], "summary": {"median_ms": 1.2, "min_ms": 1.2, "max_ms": 1.2},
          "trace": {"spans": [], "wall_ms": 1.2}, "check": {"ok": true, "value": "1", "expected": "1"}, "pool_start_ms": 0.1}}
      ]
    }"#;

    fn browser_output() -> String {
        "browser.version=Chromium 156.0\nnoise\nbrowser.hardware_concurrency=2\n\
         browser.sequential_ms=3.0\nbrowser.tasks2_workers1_ms=3.1\nbrowser.tasks2_workers2_ms=2\n\
         browser.tasks8_workers1_ms=3.2\nbrowser.tasks8_workers2_ms=1.6\nbrowser.pool_start_1_ms=30\n\
         browser.pool_start_2_ms=40\nbrowser.check_ok=true\nbrowser.first_paint_ms=120.7\n\
         browser.first_contentful_paint_ms=120.5\nbrowser.sum_panel_ms=200\nbrowser.engine_ready_ms=45\n\
         browser.longest_task_run_ms=0\nbrowser.long_tasks_run=0\nbrowser.longest_task_load_ms=70\n\
         browser.ui_sequential_ms=3.5\nbrowser.ui_tasks2_workers2_ms=2.5\n\
         browser.nomem_sum_sequential_ms=3.4\nbrowser.nomem_sum_tasks8_workers2_ms=9\n\
         browser.nomem_hash_loop_ms=300\nbrowser.nomem_hash_tasks_ms=200\nbrowser.nomem_check_ok=true\n\
         browser.first_runs=[{\"case\": \"sum, 8 tasks, first sweep\", \"key\": \"tasks@2\", \
         \"cold\": [1.9, 0.8, 1.7], \"warm\": [1.8, 1.9, 1.9]}]\n"
            .to_string()
            + &browser_kernel_lines()
    }

    /// Each kernel's jobs as both sides report them (serde's field order), from the constants.
    fn kernel_jobs(kernel: Kernel) -> Vec<String> {
        let job = |workload: &str, variant: &str, workers: u32, tasks: u32, repetitions: u32| {
            format!(
                r#"{{"workload":{workload},"variant":"{variant}","workers":{workers},"tasks":{tasks},"repetitions":{repetitions}}}"#
            )
        };
        match kernel {
            Kernel::Hash => {
                let hash = format!(
                    r#"{{"kind":"hash","source":{{"from":"generated","bytes":{},"seed":12648430}},"slice_bytes":4194304}}"#,
                    HASH_MB << 20
                );
                vec![
                    job(&hash, "sequential", 1, HASH_HASHES, HASH_REPETITIONS),
                    job(&hash, "tasks", HASH_WORKERS, HASH_HASHES, HASH_REPETITIONS),
                ]
            }
            Kernel::Cost => {
                let tiny = format!(r#"{{"kind":"granularity","sqrt":{COST_SQRT}}}"#);
                let ping_pong = format!(r#"{{"kind":"ping_pong","round_trips":{SWITCH_TRIPS}}}"#);
                vec![
                    job(&tiny, "sequential", 1, COST_TASKS, COST_REPETITIONS),
                    job(&tiny, "tasks", COST_WORKERS, COST_TASKS, COST_REPETITIONS),
                    job(&tiny, "goroutines", COST_WORKERS, COST_TASKS, COST_REPETITIONS),
                    job(&ping_pong, "tasks", 2, 2, COST_REPETITIONS),
                    job(&ping_pong, "goroutines", 1, 2, COST_REPETITIONS),
                ]
            }
            Kernel::Docsearch => {
                let search = format!(
                    r#"{{"kind":"doc_search","documents":{DOCUMENTS},"latency_us":{},"seed":12648430}}"#,
                    READ_LATENCY_MS * 1000
                );
                vec![
                    job(&search, "sequential", 1, 1, DOCSEARCH_REPETITIONS),
                    job(&search, "tasks", DOCSEARCH_WORKERS, DOCSEARCH_TASKS, DOCSEARCH_REPETITIONS),
                    job(&search, "goroutines", DOCSEARCH_WORKERS, DOCSEARCH_TASKS, DOCSEARCH_REPETITIONS),
                ]
            }
            Kernel::Qps => {
                let load = format!(
                    r#"{{"kind":"qps","requests":{QPS_REQUESTS},"concurrency":{QPS_CONCURRENCY},"work_us":{QPS_WORK_US},"wait_us":{}}}"#,
                    QPS_WAIT_MS * 1000
                );
                vec![
                    job(&load, "tasks", QPS_WORKERS, 1, QPS_REPETITIONS),
                    job(&load, "goroutines", QPS_WORKERS, 1, QPS_REPETITIONS),
                ]
            }
        }
    }

    /// Medians (ms) of each kernel's jobs, in [`Kernel::ALL`] and [`kernel_jobs`] order, natively and
    /// in the browser, and the servers' requests per second.
    const NATIVE_MS: [&[f64]; 4] =
        [&[100.0, 50.0], &[0.1, 5.0, 10.0, 1000.0, 40.0], &[216.0, 216.0, 27.0], &[1000.0, 100.0]];
    const BROWSER_MS: [&[f64]; 4] =
        [&[400.0, 250.0], &[0.2, 2.0, 6.0, 1200.0, 50.0], &[220.0, 220.0, 27.5], &[1020.4, 102.04]];
    const NATIVE_REQ_S: [f64; 2] = [200.0, 2000.0];
    const BROWSER_REQ_S: [f64; 2] = [196.0, 1960.0];

    fn kernel_index(kernel: Kernel) -> usize {
        Kernel::ALL.iter().position(|&k| k == kernel).expect("listed")
    }

    /// What `lab <kernel> --json` prints for [`kernel_jobs`] with [`NATIVE_MS`].
    fn lab_kernel_output(kernel: Kernel) -> String {
        let results: Vec<String> = kernel_jobs(kernel)
            .iter()
            .zip(NATIVE_MS[kernel_index(kernel)])
            .enumerate()
            .map(|(i, (job, median))| {
                let qps = match kernel {
                    Kernel::Qps => format!(r#", "qps": {{"qps": {}, "p50_ms": 10.0}}"#, NATIVE_REQ_S[i]),
                    _ => String::new(),
                };
                format!(
                    r#"{{"benchmark": "Benchmark{i}", "speedup": 1.0, "measurement": {{"job": {job},
                      "samples_ms": [{median}], "summary": {{"median_ms": {median}, "min_ms": {median}, "max_ms": {median}}},
                      "trace": {{"spans": [], "wall_ms": {median}}}, "check": {{"ok": true, "value": "1", "expected": "1"}},
                      "pool_start_ms": null{qps}}}}}"#
                )
            })
            .collect();
        format!(r#"{{"machine": {{"os": "linux"}}, "results": [{}]}}"#, results.join(",\n"))
    }

    /// What e2e/bench.mjs prints for the kernels, with [`BROWSER_MS`].
    fn browser_kernel_lines() -> String {
        let mut lines = String::new();
        for kernel in Kernel::ALL {
            let jobs = kernel_jobs(kernel);
            for (i, (job, median)) in jobs.iter().zip(BROWSER_MS[kernel_index(kernel)]).enumerate() {
                let name = figure_name(&json::parse(job).expect("job parses")).expect("named");
                lines += &format!("browser.{name}_ms={median}\n");
                if kernel == Kernel::Qps {
                    lines += &format!("browser.{name}_req_s={}\n", BROWSER_REQ_S[i]);
                }
            }
            lines += &format!("browser.{0}_check_ok=true\nbrowser.{0}_jobs=[{1}]\n", kernel.name(), jobs.join(","));
        }
        lines
    }

    fn native_figures() -> Figures {
        let report = json::parse(LAB_OUTPUT).expect("lab output parses");
        let mut figures = Figures::new();
        add_lab_figures(&report, 2, true, &mut figures).expect("figures");
        let eight = LAB_OUTPUT.replace("tasks\": 2", "tasks\": 8").replace("1.2", "0.6");
        add_lab_figures(&json::parse(&eight).expect("parses"), 8, false, &mut figures).expect("figures");
        for kernel in Kernel::ALL {
            let report = json::parse(&lab_kernel_output(kernel)).expect("lab output parses");
            add_kernel_figures(&report, kernel, &mut figures).expect("figures");
        }
        figures
    }

    fn results() -> BenchResults {
        BenchResults {
            generated_at: "2026-01-01T00:00:00Z".into(),
            commit: "abc1234".into(),
            native: native_figures(),
            browser: parse_browser_lines(&browser_output()),
            app_wasm: Weight { file: "dist/app-1_bg.wasm".into(), raw_bytes: 1_048_576, gzip_bytes: 300_000 },
            engine_wasm: Weight { file: "dist/engine/engine_bg.wasm".into(), raw_bytes: 100_000, gzip_bytes: 40_000 },
        }
    }

    #[test]
    fn lab_json_becomes_the_browser_keys() {
        let figures = native_figures();
        assert_eq!(number(&figures, "sequential_ms"), Some(2.4));
        assert_eq!(number(&figures, "sequential_min_ms"), Some(2.3));
        assert_eq!(number(&figures, "tasks2_workers1_ms"), Some(2.5));
        assert_eq!(number(&figures, "tasks2_workers2_ms"), Some(1.2));
        assert_eq!(number(&figures, "tasks8_workers2_ms"), Some(0.6));
        assert_eq!(number(&figures, "sequential_run2_ms"), Some(2.4));
        assert_eq!(number(&figures, "pool_start_1_ms"), Some(0.08));
        assert_eq!(number(&figures, "pool_start_2_ms"), Some(0.1));
        assert_eq!(number(&figures, "logical_cpus"), Some(2.0));
        assert_eq!(figures.get("check_ok"), Some(&Json::Bool(true)));
    }

    #[test]
    fn a_wrong_native_result_is_reported_not_hidden() {
        let wrong = LAB_OUTPUT.replacen("\"ok\": true", "\"ok\": false", 1);
        let mut figures = Figures::new();
        add_lab_figures(&json::parse(&wrong).expect("parses"), 2, true, &mut figures).expect("figures");
        assert_eq!(figures.get("check_ok"), Some(&Json::Bool(false)));
    }

    #[test]
    fn browser_lines_are_typed_and_noise_is_ignored() {
        let figures = parse_browser_lines(&browser_output());
        assert_eq!(figures.get("version"), Some(&Json::String("Chromium 156.0".into())));
        assert_eq!(number(&figures, "tasks2_workers2_ms"), Some(2.0));
        assert_eq!(figures.get("check_ok"), Some(&Json::Bool(true)));
        assert!(!figures.contains_key("noise"));
        assert_eq!(figures.get("hash_jobs").and_then(Json::as_array).map(<[Json]>::len), Some(2));
        let odd = parse_browser_lines("browser.a=[1, 2]\nbrowser.b=[unclosed\nbrowser.c={\"k\": true}");
        assert_eq!(odd.get("a"), Some(&Json::Array(vec![Json::Number(1.0), Json::Number(2.0)])));
        assert_eq!(odd.get("b"), Some(&Json::String("[unclosed".into())));
        assert_eq!(odd.get("c").and_then(|c| c.get("k")), Some(&Json::Bool(true)));
    }

    #[test]
    fn a_missing_figure_fails_with_its_name() {
        let mut incomplete = results();
        incomplete.browser.remove("first_paint_ms");
        assert_eq!(incomplete.check_complete(), Err("e2e/bench.mjs did not report first_paint_ms".into()));
        assert_eq!(results().check_complete(), Ok(()));
    }

    #[test]
    fn the_report_puts_ratios_side_by_side() {
        let tables = results().tables();
        let kernel = tables[0].to_text();
        // sequential: native 2.4, wasm 3.0 -> 1.25x
        let row = |label: &str| -> Vec<String> {
            let line = kernel.lines().find(|l| l.contains(label)).expect(label);
            line[line.find(label).expect(label) + label.len()..].split_whitespace().map(String::from).collect()
        };
        assert_eq!(row("sequential (one loop), ms"), ["2.40", "3.00", "1.25x"]);
        // 2-worker speedup: native 2.4/1.2 = 2.00x, wasm 3.0/2.0 = 1.50x, wasm/native 0.75
        assert_eq!(row("speedup, 2 tasks on 2 workers"), ["2.00x", "1.50x", "0.75"]);
        assert_eq!(row("pool start, 2 workers, ms"), ["0.100", "40.0", "400.00x"]);
        assert_eq!(row("results"), ["all", "correct", "all", "correct"]);
        let sizes = table(&tables, "Site downloads");
        assert!(sizes.contains("1,048,576 B (1024.0 KiB)") && sizes.contains("300,000 B"), "{sizes}");
        let page = table(&tables, "The Sum chapter in Chromium");
        assert!(page.contains("first paint") && page.contains("121"), "{page}");
        assert!(page.contains("(0 long tasks; 0: none)"), "{page}");
    }

    /// The text of the table whose title starts with `title`.
    fn table(tables: &[Table], title: &str) -> String {
        tables.iter().map(Table::to_text).find(|t| t.starts_with(title)).unwrap_or_else(|| panic!("no table {title}"))
    }

    /// The cells after `label` in the row of `table` that contains it, split at spaces.
    fn cells(table: &str, label: &str) -> Vec<String> {
        let line = table.lines().find(|l| l.contains(label)).unwrap_or_else(|| panic!("no row {label} in\n{table}"));
        line[line.find(label).expect(label) + label.len()..].split_whitespace().map(String::from).collect()
    }

    #[test]
    fn lab_kernel_json_becomes_the_browser_keys() {
        let figures = native_figures();
        assert_eq!(number(&figures, "hash_loop_ms"), Some(100.0));
        assert_eq!(number(&figures, "hash_tasks_ms"), Some(50.0));
        assert_eq!(number(&figures, "spawn_goroutines_ms"), Some(10.0));
        assert_eq!(number(&figures, "switch_threads_ms"), Some(1000.0));
        assert_eq!(number(&figures, "switch_goroutines_ms"), Some(40.0));
        assert_eq!(number(&figures, "docsearch_threads_ms"), Some(216.0));
        assert_eq!(number(&figures, "qps_thread_pool_req_s"), Some(200.0));
        assert_eq!(number(&figures, "qps_goroutines_req_s"), Some(2000.0));
        assert_eq!(figures.get("cost_check_ok"), Some(&Json::Bool(true)));
        assert_eq!(figures.get("cost_jobs").and_then(Json::as_array).map(<[Json]>::len), Some(5));
        // Both sides report the same jobs in the same shape.
        let browser = parse_browser_lines(&browser_output());
        for kernel in Kernel::ALL {
            let jobs = format!("{}_jobs", kernel.name());
            assert_eq!(figures.get(&jobs), browser.get(&jobs), "{jobs}");
        }
    }

    #[test]
    fn kernel_figures_that_cannot_be_read_are_errors() {
        let mut figures = Figures::new();
        let no_qps = lab_kernel_output(Kernel::Qps).replace(r#""qps": {"qps": 200, "#, r#""qps": {"#);
        let error = add_kernel_figures(&json::parse(&no_qps).expect("parses"), Kernel::Qps, &mut figures);
        assert_eq!(error, Err("`lab qps`'s JSON has no number at measurement.qps.qps".into()));
        let twice = lab_kernel_output(Kernel::Hash).replace(r#""variant":"sequential""#, r#""variant":"tasks""#);
        let error = add_kernel_figures(&json::parse(&twice).expect("parses"), Kernel::Hash, &mut Figures::new());
        assert_eq!(error, Err("two jobs of `lab hash` are both reported as hash_tasks".into()));
        let sort = r#"{"workload": {"kind": "sort"}, "variant": "tasks"}"#;
        assert!(figure_name(&json::parse(sort).expect("parses")).unwrap_err().contains("sort"));
        let wrong = lab_kernel_output(Kernel::Docsearch).replacen(r#""ok": true"#, r#""ok": false"#, 1);
        let mut figures = Figures::new();
        add_kernel_figures(&json::parse(&wrong).expect("parses"), Kernel::Docsearch, &mut figures).expect("read");
        assert_eq!(figures.get("docsearch_check_ok"), Some(&Json::Bool(false)));
    }

    #[test]
    fn different_jobs_on_the_two_sides_are_refused() {
        let mut different = results();
        let jobs = kernel_jobs(Kernel::Hash).join(",").replace(r#""repetitions":3"#, r#""repetitions":5"#);
        different.browser.insert("hash_jobs".into(), json::parse(&format!("[{jobs}]")).expect("parses"));
        let error = different.check_complete().unwrap_err();
        assert!(error.starts_with("lab and e2e/bench.mjs measured different hash jobs"), "{error}");
        assert!(error.contains(r#""repetitions": 5"#), "{error}");
        let mut missing = results();
        missing.native.remove("qps_goroutines_req_s");
        assert_eq!(missing.check_complete(), Err("lab did not report qps_goroutines_req_s".into()));
        let mut missing = results();
        missing.browser.remove("cost_check_ok");
        assert_eq!(missing.check_complete(), Err("e2e/bench.mjs did not report cost_check_ok".into()));
    }

    #[test]
    fn where_the_cpu_has_sha_instructions_the_browser_is_also_set_against_plain_rust_sha() {
        assert!(!results().tables().iter().any(|t| t.to_text().starts_with("SHA-256 without")));
        let mut with_sha = results();
        with_sha.native.insert("cpu_sha_instructions".into(), Json::Bool(true));
        // Plain Rust: 4 × 32 MiB = 134.2 MB in 268.4 ms natively (500 MB/s); 400 ms in the browser.
        with_sha.native.insert("hash_soft_loop_ms".into(), Json::Number(268.435456));
        with_sha.native.insert("hash_soft_tasks_ms".into(), Json::Number(134.217728));
        let tables = with_sha.tables();
        let soft = table(&tables, "SHA-256 without SHA instructions");
        assert_eq!(cells(&soft, "loop, MB/s"), ["500", "336", "0.67"]);
        assert_eq!(cells(&soft, "2 workers, MB/s"), ["1000", "537", "0.54"]);
    }

    #[test]
    fn kernel_tables_show_units_and_the_lessons_ratios() {
        let tables = results().tables();
        let hash = table(&tables, "SHA-256 of 32 MiB");
        // 4 × 32 MiB = 134.2 MB: in 100 ms natively, 400 ms in the browser.
        assert_eq!(cells(&hash, "loop, ms"), ["100", "400", "4.00x"]);
        assert_eq!(cells(&hash, "loop, MB/s"), ["1342", "336", "0.25"]);
        assert_eq!(cells(&hash, "speedup, 2 workers"), ["2.00x", "1.60x", "0.80"]);
        assert_eq!(cells(&hash, "results"), ["all", "correct", "all", "correct"]);
        let cost = table(&tables, "What a task costs: 10,000 tasks of 1 square root each");
        assert_eq!(cells(&cost, "spawn: loop iteration, ns/task"), ["10.0", "20.0", "2.00x"]);
        assert_eq!(cells(&cost, "spawn: thread-pool task (rayon, 2 workers), ns/task"), ["500", "200", "0.40x"]);
        // 1000 ms for 100,000 round trips, two switches each: 5000 ns per switch.
        assert_eq!(cells(&cost, "(block, wake), ns/switch"), ["5000", "6000", "1.20x"]);
        assert_eq!(cells(&cost, "switch cost, threads / goroutines"), ["25.00x", "24.00x", "0.96"]);
        let reads = table(&tables, "Blocking reads: searching 200 RSS documents");
        assert!(
            reads.contains(
                "; 1 timed run
"
            ),
            "{reads}"
        );
        assert_eq!(cells(&reads, "goroutines: 8 tasks on 1 worker, reads park, ms"), ["27.0", "27.5", "1.02x"]);
        assert_eq!(cells(&reads, "speedup, goroutines"), ["8.00x", "8.00x", "1.00"]);
        assert_eq!(cells(&reads, "goroutines over threads"), ["8.00x", "8.00x", "1.00"]);
        let server = table(&tables, "A server under load: 200 requests, 20 in flight");
        assert_eq!(cells(&server, "thread pool of 2 threads, req/s"), ["200", "196", "0.98"]);
        assert_eq!(cells(&server, "goroutines / thread pool"), ["10.00x", "10.00x", "1.00"]);
        let messages = table(&tables, "Without shared memory (a page that is not isolated)");
        assert_eq!(cells(&messages, "sum, sequential (one loop)"), ["3.00", "3.40", "1.13x"]);
        assert_eq!(cells(&messages, "sum, speedup on 2 workers"), ["1.88x", "0.38x", "0.20"]);
        assert_eq!(cells(&messages, "hashes, speedup on 2 workers"), ["1.60x", "1.50x", "0.94"]);
        assert_eq!(cells(&messages, "results"), ["all", "correct"]);
        let first = table(&tables, "First runs in Chromium");
        assert!(first.contains("median of 3 fresh pages"), "{first}");
        // Medians 1.7 (cold) and 1.9 (warm): 0.89, just under the target.
        let row = cells(&first, "sum, 8 tasks, first sweep");
        assert_eq!(row, ["tasks", "on", "2", "workers", "1.70x", "1.90x", "0.89", "NO"]);
        assert_eq!(tables.len(), 9);
    }

    #[test]
    fn the_help_names_every_lab_command_it_runs() {
        for kernel in Kernel::ALL {
            let command = format!("lab {}", kernel.lab_args().join(" "));
            assert!(HELP.contains(&command), "HELP does not say {command}");
        }
        assert!(HELP.contains(&format!("lab sum --workers 1,2 --tasks 2|8 --n {NUMBERS} --reps {REPETITIONS}")));
        assert!(HELP.lines().all(|l| l.chars().count() <= 100), "{HELP}");
    }

    #[test]
    fn text_tables_align_and_markdown_tables_are_well_formed() {
        let mut table = Table::new("T", &["what", "ms"], &[false, true]);
        table.row(&["a", "1.5"]);
        table.row(&["longer name", "100"]);
        assert_eq!(table.to_text(), "T\n  what          ms\n  a            1.5\n  longer name  100\n");
        let markdown = table.to_markdown();
        let lines: Vec<&str> = markdown.lines().collect();
        assert_eq!(lines[0], "### T");
        assert_eq!(lines[3], "| ----------- | --: |");
        assert_eq!(lines[4], "| a           | 1.5 |");
        assert!(lines[2..].iter().all(|l| l.len() == lines[2].len()));
    }

    #[test]
    fn the_json_report_round_trips_and_carries_the_ratios() {
        let text = results().to_json().to_string_pretty();
        let report = json::parse(&text).expect("our own JSON parses");
        let ratio = |key: &str| report.path(&["ratios", key]).and_then(Json::as_f64);
        assert_eq!(ratio("wasm_over_native_sequential"), Some(1.25));
        assert_eq!(ratio("native_speedup_2_workers_2_tasks"), Some(2.0));
        assert_eq!(ratio("wasm_speedup_2_workers_2_tasks"), Some(1.5));
        assert_eq!(report.path(&["site", "app_wasm", "gzip_bytes"]).and_then(Json::as_f64), Some(300_000.0));
        assert_eq!(report.path(&["browser", "version"]).and_then(Json::as_str), Some("Chromium 156.0"));
        assert_eq!(ratio("wasm_over_native_hash_loop_mb_s"), Some(0.25));
        assert_eq!(ratio("wasm_over_native_switch_threads_over_goroutines"), Some(0.96));
        let derived = |side: &str, key: &str| report.path(&["derived", side, key]).and_then(Json::as_f64);
        assert_eq!(derived("native", "switch_threads_over_goroutines"), Some(25.0));
        assert_eq!(derived("browser", "qps_goroutines_over_thread_pool"), Some(10.0));
        assert_eq!(derived("native", "spawn_tasks_ns_per_task"), Some(500.0));
        assert_eq!(
            report.path(&["parameters", "kernels", "hash"]).and_then(Json::as_str),
            Some("lab hash --mb 32 --hashes 4 --workers 2 --reps 3")
        );
        assert_eq!(report.path(&["native", "qps_jobs"]), report.path(&["browser", "qps_jobs"]));
    }

    #[test]
    fn json_reads_escapes_numbers_and_refuses_garbage() {
        let value =
            json::parse(r#" {"a": [1, -2.5e3, true, null], "s": "q\"\\\n\u00e9\ud83d\ude00"} "#).expect("valid");
        assert_eq!(
            value.get("a").and_then(Json::as_array).map(|a| a.to_vec()),
            Some(vec![Json::Number(1.0), Json::Number(-2500.0), Json::Bool(true), Json::Null])
        );
        assert_eq!(value.get("s").and_then(Json::as_str), Some("q\"\\\né😀"));
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "tru", "\"open", "1 2", "{\"a\":1,}"] {
            assert!(json::parse(bad).is_err(), "{bad:?}");
        }
        let deep = "[".repeat(1000) + &"]".repeat(1000);
        assert!(json::parse(&deep).is_err());
        let written = Json::object([("s", Json::String("a\"b\n".into())), ("n", Json::Number(f64::NAN))]);
        assert_eq!(json::parse(&written.to_string_pretty()).expect("valid").get("s"), written.get("s"));
    }

    #[test]
    fn numbers_are_shown_with_sensible_precision() {
        assert_eq!(ms(2.41567), "2.42");
        assert_eq!(ms(0.0421), "0.042");
        assert_eq!(ms(128.9), "129");
        assert_eq!(ms(f64::NAN), "n/a");
        assert_eq!(ms(0.0), "0");
        assert_eq!(times(1.8), "1.80x");
        assert_eq!(group_digits(10_000_000), "10,000,000");
        assert_eq!(group_digits(999), "999");
    }
}
