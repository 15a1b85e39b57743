//! The bench's tests: both sides' output read into figures, the completeness checks, the tables and
//! the JSON report.

use super::browser::parse_browser_lines;
use super::chapter_parts::{ChapterParts, Code, Part};
use super::figures::number;
use super::formatting::{group_digits, ms, times};
use super::kernels::*;
use super::native::{add_kernel_figures, add_lab_figures, LabReport};
use super::results::BenchResults;
use super::site_size::{ChapterCode, Weight};
use super::table::Table;
use super::wasm_profile::{parse_twiggy_top, Contributor, ModuleProfile};
use super::*;
use experiments::{Job, Variant, Workload};
use serde_json::json;

const LAB_OUTPUT: &str = r#"{
  "machine": {"os": "linux", "arch": "x86_64", "logical_cpus": 2, "engine": "rayon on OS threads"},
  "results": [
    {"benchmark": "BenchmarkSum/sequential/n=10000000", "speedup": 1.0, "measurement": {
      "job": {"workload": {"sum": {"numbers": 10000000, "seed": 12648430}}, "variant": "sequential", "workers": 1, "tasks": 1, "repetitions": 10},
      "samples_ms": [2.5, 2.4], "summary": {"median_ms": 2.4, "min_ms": 2.3, "max_ms": 2.5},
      "trace": {"spans": [{"worker": 0, "task": 0, "start_ms": 0.0, "end_ms": 2.4}], "wall_ms": 2.4},
      "check": {"ok": true, "value": "1", "expected": "1"}, "pool_start_ms": null}},
    {"benchmark": "BenchmarkSum/tasks=2/workers=1/n=10000000", "speedup": 0.96, "measurement": {
      "job": {"workload": {"sum": {"numbers": 10000000, "seed": 12648430}}, "variant": "tasks", "workers": 1, "tasks": 2, "repetitions": 10},
      "samples_ms": [2.5], "summary": {"median_ms": 2.5, "min_ms": 2.5, "max_ms": 2.5},
      "trace": {"spans": [], "wall_ms": 2.5}, "check": {"ok": true, "value": "1", "expected": "1"}, "pool_start_ms": 0.08}},
    {"benchmark": "BenchmarkSum/tasks=2/workers=2/n=10000000", "speedup": 2.0, "measurement": {
      "job": {"workload": {"sum": {"numbers": 10000000, "seed": 12648430}}, "variant": "tasks", "workers": 2, "tasks": 2, "repetitions": 10},
      "samples_ms": [1.2], "summary": {"median_ms": 1.2, "min_ms": 1.2, "max_ms": 1.2},
      "trace": {"spans": [], "wall_ms": 1.2}, "check": {"ok": true, "value": "1", "expected": "1"}, "pool_start_ms": 0.1}}
  ]
}"#;

fn browser_output() -> String {
    "browser.version=Chromium 156.0\nnoise\nbrowser.hardware_concurrency=2\n\
     browser.sequential_ms=3.0\nbrowser.tasks2_workers1_ms=3.1\nbrowser.tasks2_workers2_ms=2\n\
     browser.tasks8_workers1_ms=3.2\nbrowser.tasks8_workers2_ms=1.6\nbrowser.pool_start_1_ms=30\n\
     browser.pool_start_2_ms=40\nbrowser.pool_start_2_first_run_ms=3.5\nbrowser.check_ok=true\nbrowser.first_paint_ms=120.7\n\
     browser.first_contentful_paint_ms=120.5\nbrowser.sum_panel_ms=200\nbrowser.engine_ready_ms=45\n\
     browser.longest_task_run_ms=0\nbrowser.long_tasks_run=0\nbrowser.longest_task_load_ms=70\n\
     browser.longest_task_load_chapters_ms=48\nbrowser.longest_task_load_chapter=os-scheduler\n\
     browser.chapter_loads=50\nbrowser.chapter_loads_with_long_task=9\n\
     browser.ui_sequential_ms=3.5\nbrowser.ui_tasks2_workers2_ms=2.5\n\
     browser.slow_link_run_cold_ms=5970\nbrowser.slow_link_cold_bytes=861107\n\
     browser.slow_link_run_warm_ms=1108\nbrowser.slow_link_warm_bytes=0\n\
     browser.longest_task_navigate_ms=74\nbrowser.long_tasks_navigate=1\n\
     browser.nomem_sum_sequential_ms=3.4\nbrowser.nomem_sum_tasks8_workers2_ms=9\n\
     browser.nomem_hash_loop_ms=300\nbrowser.nomem_hash_tasks_ms=200\nbrowser.nomem_check_ok=true\n\
     browser.first_runs=[{\"case\": \"sum, 8 tasks, first sweep\", \"key\": \"tasks@2\", \
     \"cold\": [1.9, 0.8, 1.7], \"warm\": [1.8, 1.9, 1.9], \"again\": [1.9, 2.0, 1.95], \
     \"cold_flagged\": [false, true, false], \"above_cores_unnoted\": 0, \
     \"pages_warned\": [false, true, false], \"cpu_outside\": 0.02, \"cpu_stolen\": 0.004, \"native_spread\": 1.08, \"native_warned\": [false, false, false]}, \
     {\"case\": \"sorts, first sweep\", \"key\": \"merge@2\", \"cold\": [], \"warm\": [], \"again\": [], \
     \"too_short\": true}]\n"
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
                r#"{{"hash":{{"source":{{"generated":{{"bytes":{},"seed":12648430}}}},"slice_bytes":4194304}}}}"#,
                HASH_MB << 20
            );
            vec![
                job(&hash, "sequential", 1, HASH_HASHES, HASH_REPETITIONS),
                job(&hash, "tasks", HASH_WORKERS, HASH_HASHES, HASH_REPETITIONS),
            ]
        }
        Kernel::Sort => {
            let sort = |algorithm: &str| {
                format!(r#"{{"sort":{{"numbers":{SORT_NUMBERS},"seed":12648430,"algorithm":"{algorithm}"}}}}"#)
            };
            vec![
                job(&sort("bubble"), "sequential", 1, SORT_TASKS, SORT_REPETITIONS),
                job(&sort("chunked_bubble"), "tasks", SORT_WORKERS, SORT_TASKS, SORT_REPETITIONS),
                job(&sort("odd_even"), "tasks", SORT_WORKERS, SORT_TASKS, SORT_REPETITIONS),
                job(&sort("merge"), "tasks", SORT_WORKERS, SORT_TASKS, SORT_REPETITIONS),
            ]
        }
        Kernel::CpuSearch => {
            let search =
                format!(r#"{{"doc_search":{{"documents":{CPU_SEARCH_DOCUMENTS},"latency_us":0,"seed":12648430}}}}"#);
            vec![
                job(&search, "sequential", 1, 1, CPU_SEARCH_REPETITIONS),
                job(&search, "tasks", CPU_SEARCH_WORKERS, CPU_SEARCH_TASKS, CPU_SEARCH_REPETITIONS),
                job(&search, "goroutines", CPU_SEARCH_WORKERS, CPU_SEARCH_TASKS, CPU_SEARCH_REPETITIONS),
            ]
        }
        Kernel::Cost => {
            let tiny = format!(r#"{{"granularity":{{"sqrt":{COST_SQRT}}}}}"#);
            let ping_pong = format!(r#"{{"ping_pong":{{"round_trips":{SWITCH_TRIPS}}}}}"#);
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
                r#"{{"doc_search":{{"documents":{DOCUMENTS},"latency_us":{},"seed":12648430}}}}"#,
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
                r#"{{"qps":{{"requests":{QPS_REQUESTS},"concurrency":{QPS_CONCURRENCY},"work_us":{QPS_WORK_US},"wait_us":{}}}}}"#,
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
const NATIVE_MS: [&[f64]; 6] = [
    &[100.0, 50.0],
    &[40.0, 44.0, 42.0, 1.0],
    &[0.1, 5.0, 10.0, 1000.0, 40.0],
    &[216.0, 216.0, 27.0],
    &[5.0, 2.6, 2.7],
    &[1000.0, 100.0],
];
const BROWSER_MS: [&[f64]; 6] = [
    &[400.0, 250.0],
    &[44.0, 50.0, 46.0, 1.2],
    &[0.2, 2.0, 6.0, 1200.0, 50.0],
    &[220.0, 220.0, 27.5],
    &[6.0, 3.2, 3.3],
    &[1020.4, 102.04],
];
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
            let name = figure_name(&serde_json::from_str::<Job>(job).expect("job parses")).expect("named");
            lines += &format!("browser.{name}_ms={median}\n");
            if kernel == Kernel::Qps {
                lines += &format!("browser.{name}_req_s={}\n", BROWSER_REQ_S[i]);
            }
        }
        lines += &format!("browser.{0}_check_ok=true\nbrowser.{0}_jobs=[{1}]\n", kernel.name(), jobs.join(","));
    }
    lines
}

fn lab_report(text: &str) -> LabReport {
    serde_json::from_str(text).expect("lab output parses")
}

fn native_figures() -> Figures {
    let mut figures = Figures::new();
    add_lab_figures(&lab_report(LAB_OUTPUT), 2, true, &mut figures);
    let eight = LAB_OUTPUT.replace("tasks\": 2", "tasks\": 8").replace("1.2", "0.6");
    add_lab_figures(&lab_report(&eight), 8, false, &mut figures);
    for kernel in Kernel::ALL {
        let report = lab_report(&lab_kernel_output(kernel));
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
        largest_chunk: Weight { file: "dist/app-1/chunk_20.wasm".into(), raw_bytes: 200_000, gzip_bytes: 90_000 },
        chapter_code: vec![ChapterCode {
            chapter: "sum".into(),
            files: 58,
            raw_bytes: 900_000,
            gzip_bytes: 340_000,
            run_raw_bytes: 600_000,
            run_gzip_bytes: 220_000,
        }],
        chapter_parts: vec![ChapterParts {
            chapter: "sum".into(),
            code: Code::BeforeRun,
            modules: 40,
            raw_bytes: 1_000_000,
            parts: vec![
                Part { component: "Leptos".into(), raw_bytes: 600_000, percent: 60.0 },
                Part { component: "app::components::timeline".into(), raw_bytes: 400_000, percent: 40.0 },
            ],
        }],
        wasm_profiles: vec![ModuleProfile {
            module: "app".into(),
            file: "target/wasm32-unknown-unknown/release/app.wasm".into(),
            raw_bytes: 4_000_000,
            top: vec![Contributor { name: "main".into(), retained_bytes: 3_000_000, retained_percent: 75.0 }],
        }],
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
    assert_eq!(figures.get("check_ok"), Some(&Value::Bool(true)));
}

#[test]
fn a_wrong_native_result_is_reported_not_hidden() {
    let wrong = LAB_OUTPUT.replacen("\"ok\": true", "\"ok\": false", 1);
    let mut figures = Figures::new();
    add_lab_figures(&lab_report(&wrong), 2, true, &mut figures);
    assert_eq!(figures.get("check_ok"), Some(&Value::Bool(false)));
}

#[test]
fn browser_lines_are_typed_and_noise_is_ignored() {
    let figures = parse_browser_lines(&browser_output());
    assert_eq!(figures.get("version"), Some(&json!("Chromium 156.0")));
    assert_eq!(number(&figures, "tasks2_workers2_ms"), Some(2.0));
    assert_eq!(figures.get("check_ok"), Some(&Value::Bool(true)));
    assert!(!figures.contains_key("noise"));
    assert_eq!(figures.get("hash_jobs").and_then(Value::as_array).map(Vec::len), Some(2));
    let odd = parse_browser_lines("browser.a=[1, 2]\nbrowser.b=[unclosed\nbrowser.c={\"k\": true}");
    assert_eq!(odd.get("a"), Some(&json!([1, 2])));
    assert_eq!(odd.get("b"), Some(&json!("[unclosed")));
    assert_eq!(odd.get("c").and_then(|c| c.get("k")), Some(&Value::Bool(true)));
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
    let page = table(&tables, "The Sum chapter in Chromium");
    assert!(page.contains("of the worst chapter (os-scheduler); 9 of 50 loads had a task over 50 ms"), "{page}");
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
    assert_eq!(figures.get("cost_check_ok"), Some(&Value::Bool(true)));
    assert_eq!(figures.get("cost_jobs").and_then(Value::as_array).map(Vec::len), Some(5));
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
    let error = serde_json::from_str::<LabReport>(&no_qps).unwrap_err().to_string();
    assert!(error.contains("missing field `qps`"), "{error}");
    let without_report = lab_kernel_output(Kernel::Qps).replace(r#", "qps": {"qps": 200, "p50_ms": 10.0}"#, "");
    let error = add_kernel_figures(&lab_report(&without_report), Kernel::Qps, &mut figures);
    assert_eq!(error, Err("`lab qps`'s JSON has a server job without its qps".into()));
    let twice = lab_kernel_output(Kernel::Hash).replace(r#""variant":"sequential""#, r#""variant":"tasks""#);
    let error = add_kernel_figures(&lab_report(&twice), Kernel::Hash, &mut Figures::new());
    assert_eq!(error, Err("two jobs of `lab hash` are both reported as hash_tasks".into()));
    let spin = Job {
        workload: Workload::Spin { units: 100 },
        variant: Variant::ThreadPool,
        workers: 2,
        tasks: 2,
        repetitions: 1,
    };
    assert!(figure_name(&spin).unwrap_err().contains(r#""workload":{"spin":{"#));
    let wrong = lab_kernel_output(Kernel::Docsearch).replacen(r#""ok": true"#, r#""ok": false"#, 1);
    let mut figures = Figures::new();
    add_kernel_figures(&lab_report(&wrong), Kernel::Docsearch, &mut figures).expect("read");
    assert_eq!(figures.get("docsearch_check_ok"), Some(&Value::Bool(false)));
}

#[test]
fn different_jobs_on_the_two_sides_are_refused() {
    let mut different = results();
    let jobs = kernel_jobs(Kernel::Hash).join(",").replace(r#""repetitions":3"#, r#""repetitions":5"#);
    different.browser.insert("hash_jobs".into(), serde_json::from_str(&format!("[{jobs}]")).expect("parses"));
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
    with_sha.native.insert("cpu_sha_instructions".into(), Value::Bool(true));
    // Plain Rust: 4 × 32 MiB = 134.2 MB in 268.4 ms natively (500 MB/s); 400 ms in the browser.
    with_sha.native.insert("hash_soft_loop_ms".into(), json!(268.435456));
    with_sha.native.insert("hash_soft_tasks_ms".into(), json!(134.217728));
    let tables = with_sha.tables();
    let soft = table(&tables, "SHA-256 without SHA instructions");
    assert_eq!(cells(&soft, "loop, MB/s"), ["500", "336", "0.67"]);
    assert_eq!(cells(&soft, "2 workers, MB/s"), ["1000", "537", "0.54"]);
    // The target row holds the browser's 400 ms against plain Rust's 268.4 ms (1.49x), not against
    // the SHA instructions' 100 ms (4.00x).
    let targets = table(&tables, "Targets (issues 15 and 36");
    let row = cells(&targets, "kernel SHA-256, one loop (native in plain Rust where the CPU has SHA instructions)");
    assert_eq!(row[..4], [":", "time", "in", "wasm"]);
    assert!(row.contains(&"1.49x".to_string()) && !row.contains(&"4.00x".to_string()), "{row:?}");
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
    // Medians 1.7 (cold) and 1.9 (warm): 0.89, just under the target, and further under the warm
    // run than two warm runs of a page differ (1.9/1.8, 2.0/1.9, 1.95/1.9: median 5%).
    let row = cells(&first, "sum, 8 tasks, first sweep");
    // The 0.8 the second page showed is off by more than 25 %, but the page flagged it.
    // One page in three warned (more than 1 in 10) with 2 % of a core used outside and the native
    // twin quiet on all three: idle, too many.
    assert_eq!(
        row,
        [
            "tasks", "on", "2", "workers", "1.70x", "1.90x", "0.89", "5%", "1", "of", "3", "0", "0", "1", "of", "3",
            "0", "of", "3", "2%", "(steal", "0%)", "1.08", "NO:", "warned", "on", "1", "of", "3", "idle", "pages"
        ]
    );
    let short = cells(&first, "sorts, first sweep");
    assert_eq!(short[..5], ["merge", "on", "2", "workers", "-"], "{short:?}");
    assert!(first.contains("not compared: its 1-worker job is under 1 ms"), "{first}");
    // Ten tables of figures, the downloads, the targets, one per profiled module and one per
    // chapter split by component (one each here).
    assert_eq!(tables.len(), 14);
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
    let text = results().to_json();
    let report: Value = serde_json::from_str(&text).expect("our own JSON parses");
    // Members in the order written, not sorted; a figure one side lacks is null.
    let at = |member: &str| text.find(member).unwrap_or_else(|| panic!("no {member}"));
    assert!(at(r#""generated_at""#) < at(r#""parameters""#) && at(r#""ratios""#) < at(r#""site""#), "{text}");
    assert!(at(r#""hash": "lab hash"#) < at(r#""cost": "lab cost"#), "{text}");
    assert_eq!(report["derived"]["native"]["hash_soft_loop_mb_s"], Value::Null);
    let ratio = |key: &str| report["ratios"][key].as_f64();
    assert_eq!(ratio("wasm_over_native_sequential"), Some(1.25));
    assert_eq!(ratio("native_speedup_2_workers_2_tasks"), Some(2.0));
    assert_eq!(ratio("wasm_speedup_2_workers_2_tasks"), Some(1.5));
    assert_eq!(report["site"]["app_wasm"]["gzip_bytes"].as_f64(), Some(300_000.0));
    assert_eq!(report["browser"]["version"].as_str(), Some("Chromium 156.0"));
    assert_eq!(ratio("wasm_over_native_hash_loop_mb_s"), Some(0.25));
    assert_eq!(ratio("wasm_over_native_switch_threads_over_goroutines"), Some(0.96));
    let derived = |side: &str, key: &str| report["derived"][side][key].as_f64();
    assert_eq!(derived("native", "switch_threads_over_goroutines"), Some(25.0));
    assert_eq!(derived("browser", "qps_goroutines_over_thread_pool"), Some(10.0));
    assert_eq!(derived("native", "spawn_tasks_ns_per_task"), Some(500.0));
    assert_eq!(
        report["parameters"]["kernels"]["hash"].as_str(),
        Some("lab hash --mb 32 --hashes 4 --workers 2 --reps 3")
    );
    assert_eq!(report["native"]["qps_jobs"], report["browser"]["qps_jobs"]);
    assert!(report["native"]["qps_jobs"].is_array());
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

#[test]
fn a_first_run_off_its_warm_figure_counts_only_when_the_page_did_not_flag_it() {
    use super::tables::unflagged_off;
    // 0.8 against 1.9 is off by more than 25 %: flagged, it is not counted; unflagged, it is.
    assert_eq!(unflagged_off(&[1.9, 0.8, 1.7], &[false, true, false], 1.9), 0);
    assert_eq!(unflagged_off(&[1.9, 0.8, 1.7], &[false, false, false], 1.9), 1);
    // 2.5 is off upwards too; 1.5 is within 25 % of 1.9.
    assert_eq!(unflagged_off(&[2.5, 1.5], &[false, false], 1.9), 1);
    // A page that reported no flags for a run counts as unflagged.
    assert_eq!(unflagged_off(&[0.7], &[], 1.9), 1);
}

#[test]
fn warned_pages_are_judged_only_on_an_idle_machine() {
    use super::tables::{warned_pages_verdict, WarnedPages};
    let steady = Some(1.05);
    let quiet_twin = Some((0, 10));
    assert_eq!(warned_pages_verdict(1, 10, Some(0.0), steady, quiet_twin), WarnedPages::Met);
    assert_eq!(warned_pages_verdict(0, 10, None, None, None), WarnedPages::Met);
    assert_eq!(warned_pages_verdict(2, 10, Some(0.05), steady, quiet_twin), WarnedPages::TooMany);
    assert_eq!(warned_pages_verdict(2, 10, Some(0.05), steady, None), WarnedPages::TooMany);
    assert_eq!(warned_pages_verdict(2, 10, Some(0.5), steady, quiet_twin), WarnedPages::NotIdle);
    assert_eq!(warned_pages_verdict(2, 10, None, steady, quiet_twin), WarnedPages::NotIdle);
    // Nothing ran beside the browser, but the machine's own native loop spread 1.5x.
    assert_eq!(warned_pages_verdict(2, 10, Some(0.0), Some(1.5), quiet_twin), WarnedPages::NotIdle);
    assert_eq!(warned_pages_verdict(2, 10, Some(0.0), None, quiet_twin), WarnedPages::NotIdle);
    // Fewer pages, the same share: 1 of 3 is more than 1 in 10.
    assert_eq!(warned_pages_verdict(1, 3, Some(0.0), steady, quiet_twin), WarnedPages::TooMany);
    // The same jobs natively warned on 3 of 10 runs: the machine's noise, said as such; 1 of 10
    // natively is within the target, so the page's 4 are the lab's.
    assert_eq!(warned_pages_verdict(4, 10, Some(0.0), steady, Some((3, 10))), WarnedPages::MachineWarns);
    assert_eq!(warned_pages_verdict(4, 10, Some(0.0), steady, Some((1, 10))), WarnedPages::TooMany);
}

#[test]
fn a_first_run_short_of_the_target_by_no_more_than_warm_runs_differ_is_within_noise() {
    use super::tables::{first_run_verdict, warm_runs_differ};
    assert_eq!(first_run_verdict(0.95, 0.0), "yes");
    assert_eq!(first_run_verdict(0.9, 0.3), "yes");
    assert_eq!(first_run_verdict(0.85, 0.2), "within noise");
    assert_eq!(first_run_verdict(0.85, 0.05), "NO");
    assert_eq!(first_run_verdict(0.85, f64::NAN), "NO");
    // Page by page: +50%, -20%, +10% -> median 20%; unpaired values are left out.
    let noise = warm_runs_differ(&[1.0, 2.0, 1.0, 3.0], &[1.5, 1.6, 1.1]);
    assert!((noise - 0.2).abs() < 1e-9, "{noise}");
    assert!(warm_runs_differ(&[], &[]).is_nan());
}

#[test]
fn the_browser_measures_the_jobs_lab_measured() {
    let mut native = Figures::new();
    for kernel in Kernel::ALL {
        let jobs = format!("[{}]", kernel_jobs(kernel).join(","));
        native.insert(format!("{}_jobs", kernel.name()), serde_json::from_str(&jobs).expect("jobs parse"));
    }
    let plan = super::browser::browser_plan(&native).expect("a plan");
    // Each planned job is lab's, with the bytes the script builds its request from.
    let without_wire = |jobs: &serde_json::Value| -> (serde_json::Value, Vec<Vec<u8>>) {
        let mut jobs = jobs.clone();
        let wires = jobs
            .as_array_mut()
            .expect("a list of jobs")
            .iter_mut()
            .map(|job| {
                let wire = job.as_object_mut().expect("a job").remove("wire").expect("its bytes");
                serde_json::from_value(wire).expect("bytes")
            })
            .collect();
        (jobs, wires)
    };
    for kernel in Kernel::ALL {
        let native_jobs = &native[&format!("{}_jobs", kernel.name())];
        let (jobs, wires) = without_wire(&plan[kernel.name()]);
        assert_eq!(&jobs, native_jobs, "{}", kernel.name());
        let parsed: Vec<experiments::Job> = serde_json::from_value(jobs).expect("jobs");
        let expected: Vec<Vec<u8>> = parsed.iter().map(experiments::protocol::job_bytes_before_repetitions).collect();
        assert_eq!(wires, expected, "{}", kernel.name());
    }
    // Sum: the loop, then t tasks on 1 and on 2 workers, for each task count, with lab's settings.
    for tasks in TASK_COUNTS {
        let run = plan["sum"][tasks.to_string()].as_array().expect("a Sum run").clone();
        let shape: Vec<(String, u64, u64)> = run
            .iter()
            .map(|j| {
                (
                    j["variant"].as_str().unwrap().to_string(),
                    j["workers"].as_u64().unwrap(),
                    j["tasks"].as_u64().unwrap(),
                )
            })
            .collect();
        let t = tasks as u64;
        assert_eq!(shape, [("sequential".into(), 1, 1), ("tasks".into(), 1, t), ("tasks".into(), 2, t)]);
        assert!(run.iter().all(|j| j["workload"]["sum"]["numbers"] == NUMBERS && j["repetitions"] == REPETITIONS));
    }
    native.remove("qps_jobs");
    assert!(super::browser::browser_plan(&native).unwrap_err().contains("lab qps"));
}

#[test]
fn twiggy_items_are_read_and_its_summary_row_is_not_an_item() {
    let json = r#"[{"name":"data[0]","shallow_size":900,"shallow_size_percent":9.0,"retained_size":900,"retained_size_percent":9.0},
        {"name":"leptos::mount::mount_to_body","shallow_size":10,"shallow_size_percent":0.1,"retained_size":5000,"retained_size_percent":50.0},
        {"name":"... and 812 more.","shallow_size":4090,"shallow_size_percent":40.9,"retained_size":4090,"retained_size_percent":40.9}]"#;
    let items = parse_twiggy_top(json).expect("twiggy's JSON parses");
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[1],
        Contributor { name: "leptos::mount::mount_to_body".into(), retained_bytes: 5000, retained_percent: 50.0 }
    );
    assert!(parse_twiggy_top(r#"[{"name":"x"}]"#).is_err(), "a row without sizes is an error, not a zero");
}

#[test]
fn the_report_lists_where_each_modules_bytes_go() {
    let results = results();
    let tables = results.tables();
    let profile = table(&tables, "Where the app wasm's bytes go");
    assert_eq!(cells(&profile, "  main"), ["3,000,000", "B", "(2929.7", "KiB)", "75.0"]);
    let report: Value = serde_json::from_str(&results.to_json()).expect("our own JSON parses");
    assert_eq!(report["site"]["wasm_profiles"][0]["top"][0]["retained_bytes"].as_u64(), Some(3_000_000));
}

#[test]
fn the_report_lists_what_the_heaviest_chapters_code_is_made_of() {
    let results = results();
    let tables = results.tables();
    let parts = table(&tables, "The heaviest chapter's code before its Run works, by component: sum, 1,000,000 B");
    assert_eq!(cells(&parts, "  app::components::timeline"), ["400,000", "B", "(390.6", "KiB)", "40.0"]);
    let report: Value = serde_json::from_str(&results.to_json()).expect("our own JSON parses");
    let chapter = &report["site"]["chapter_parts"][0];
    assert_eq!((chapter["chapter"].as_str(), chapter["code"].as_str()), (Some("sum"), Some("before_run")));
    assert_eq!(chapter["parts"][0]["component"].as_str(), Some("Leptos"));
    assert_eq!(chapter["parts"][1]["raw_bytes"].as_u64(), Some(400_000));
}

#[test]
fn every_target_is_printed_against_its_figure_and_one_not_met_says_why() {
    let tables = results().tables();
    let targets = table(&tables, "Targets (issues 15 and 36");
    // A row's cells up to its verdict, and whether any words follow (the why).
    let verdict = |label: &str| {
        let all = cells(&targets, label);
        let end = all.iter().position(|c| c == "NO" || c == "yes").expect("a verdict") + 1;
        (all[..end].to_vec(), all.len() > end)
    };
    let expect = |label: &str, wanted: &[&str]| {
        let (shown, why) = verdict(label);
        assert_eq!(shown, wanted, "{label}");
        assert_eq!(why, wanted.last() == Some(&"NO"), "{label}: a why exactly when not met");
    };
    // 300,000 B gzip against 200 KB; the engine's 40,000 B against 150 KB; 70 ms against 50 ms.
    expect("initial app wasm, gzip -9", &["<=", "200.0", "KB", "(stretch", "150.0", "KB)", "300.0", "KB", "NO"]);
    expect("threaded engine wasm, gzip -9", &["<=", "150.0", "KB", "40.0", "KB", "yes"]);
    expect("longest main-thread task while loading, ms", &["<=", "50.0", "70.0", "NO"]);
    expect("loading any chapter (median of 5 loads, worst chapter), ms", &["<=", "50.0", "48.0", "yes"]);
    expect("navigating between chapters, ms", &["<=", "50.0", "74.0", "NO"]);
    expect("cold, ms", &["<=", "3000", "5970", "NO"]);
    expect("warm, ms", &["<=", "700", "1108", "NO"]);
    expect("heaviest chunk file, gzip -9", &["<=", "120.0", "KB", "90.0", "KB", "yes"]);
    expect("(sum, 58 files), gzip -9", &["<=", "200.0", "KB", "(issue", "36)", "340.0", "KB", "NO"]);
    // Issue 36's: the pool's start (40 ms against 30), and each kernel's wasm / native (the sum's
    // loop: 3.0 against 2.4 ms, 1.25x against 1.15x).
    expect(
        "a pool of 2 workers in the browser, ms (issue 36)",
        &["<=", "30.0", "40.0", "cold,", "3.50", "at", "a", "first", "autorun", "(native", "0.100)", "NO"],
    );
    expect("kernel sum, one loop: time in wasm / native (issue 36)", &["<=", "1.15x", "1.25x", "NO"]);
    let (shown, _) = verdict("yield switch (2 goroutines on 1 worker), wasm / native (issue 36)");
    assert_eq!(shown[..2], ["<=", "1.30x"], "{targets}");
    // The cold link's why reads the bytes this run carried.
    assert!(cells(&targets, "cold, ms").join(" ").contains("crossed the link"), "{targets}");
    let page = table(&tables, "The Sum chapter in Chromium");
    assert!(page.contains("of the worst chapter (os-scheduler); 9 of 50 loads had a task over 50 ms"), "{page}");
    let sizes = table(&tables, "Site downloads");
    assert!(sizes.contains("chapter sum: its experiments' 58 chunk files"), "{sizes}");
}
