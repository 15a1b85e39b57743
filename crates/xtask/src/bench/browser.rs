//! The browser side: `node e2e/bench.mjs` run against the built site, its `browser.<key>=<value>` lines
//! read into figures.

use super::kernels::{figure_name, Kernel};
use super::{Figures, NUMBERS, REPETITIONS, SUM_WORKERS, TASK_COUNTS};
use crate::shell::{root, tool_path};
use experiments::{catalog, Job, Variant};
use serde_json::{Number, Value};
use std::path::Path;
use std::process::{Command, Stdio};

/// What `e2e/bench.mjs` measures (its BENCH_PLAN): the Sum runs by task count, built with the
/// catalog's builder as `lab sum` builds them, and each other kernel's jobs as `lab` measured them
/// natively (`native`'s `<kernel>_jobs`). So the browser measures what lab measured, defined once.
pub(super) fn browser_plan(native: &Figures) -> Result<Value, String> {
    let mut plan = serde_json::Map::new();
    let mut sum = serde_json::Map::new();
    for tasks in TASK_COUNTS {
        let settings = catalog::sum::Settings { workers: 1, tasks, numbers: NUMBERS, repetitions: REPETITIONS };
        let mut jobs = vec![catalog::sum::job(&settings, Variant::Sequential, 1, 1)];
        jobs.extend(SUM_WORKERS.map(|workers| catalog::sum::job(&settings, Variant::ThreadPool, workers, tasks)));
        sum.insert(tasks.to_string(), planned_jobs(&jobs)?);
    }
    plan.insert(catalog::ExperimentId::Sum.slug().into(), Value::Object(sum));
    // The kernels after Sum, and the figure each of their jobs is reported under: the page names
    // its measurements with these, never with a table of its own.
    let mut figures = serde_json::Map::new();
    for kernel in Kernel::ALL {
        let jobs = native
            .get(&format!("{}_jobs", kernel.name()))
            .ok_or_else(|| format!("`lab {}` reported no jobs to measure in the browser", kernel.name()))?;
        let parsed: Vec<Job> =
            serde_json::from_value(jobs.clone()).map_err(|e| format!("`lab {}` jobs: {e}", kernel.name()))?;
        let names = parsed.iter().map(|job| figure_name(job).map(Value::from)).collect::<Result<Vec<_>, _>>()?;
        figures.insert(kernel.name().into(), Value::Array(names));
        plan.insert(kernel.name().into(), planned_jobs(&parsed)?);
    }
    plan.insert("kernels".into(), Kernel::ALL.iter().map(|k| Value::from(k.name())).collect());
    plan.insert("figure_names".into(), Value::Object(figures));
    Ok(Value::Object(plan))
}

/// `jobs` as bench.mjs reads them: each job's JSON, with its request bytes before its repetitions
/// (`wire`, [`experiments::protocol::job_bytes_before_repetitions`]), from which the script builds
/// the run requests it posts to the engine.
fn planned_jobs(jobs: &[Job]) -> Result<Value, String> {
    jobs.iter()
        .map(|job| {
            let mut value = serde_json::to_value(job).map_err(|e| e.to_string())?;
            let wire = experiments::protocol::job_bytes_before_repetitions(job);
            value["wire"] = wire.into_iter().map(Value::from).collect();
            Ok(value)
        })
        .collect()
}

/// Run `node e2e/bench.mjs` against `dist` on `plan` ([`browser_plan`]) and read its
/// `browser.<key>=<value>` lines.
pub(super) fn measure_browser(dist: &Path, plan: &Value) -> Result<Figures, String> {
    let mut command = Command::new("node");
    command
        .arg("bench.mjs")
        .current_dir(root().join("e2e"))
        .env("SITE_DIR", dist)
        .env("DEPLOYED_SITE_DIR", root().join("target/site"))
        .env("BENCH_PLAN", plan.to_string())
        .env("BENCH_LAB", super::native::lab_binary())
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
pub(super) fn parse_browser_lines(text: &str) -> Figures {
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("browser.")?.split_once('='))
        .map(|(key, value)| {
            let value = match value.trim() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                raw if raw.starts_with(['[', '{']) => {
                    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()))
                }
                // JavaScript prints `NaN` and `Infinity`, which are not JSON numbers: kept as text.
                raw => {
                    serde_json::from_str::<Number>(raw).map_or_else(|_| Value::String(raw.to_string()), Value::Number)
                }
            };
            (key.trim().to_string(), value)
        })
        .collect()
}
