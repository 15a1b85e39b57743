//! The native side: `lab … --json` built in release and run on OS threads, its reports read into
//! figures under the browser's keys.

use super::kernels::{figure_name, Kernel};
use super::{Figures, NUMBERS, REPETITIONS, SUM_WORKERS, TASK_COUNTS};
use crate::shell::{cargo, root, run as run_echoed};
use experiments::{Check, Job, Summary, Variant, Workload};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::path::Path;
use std::process::{Command, Stdio};

/// What `lab … --json` prints, as far as the bench reads it: the machine, and each result's
/// measurement (an `experiments::Measurement`; fields the bench does not use are ignored).
#[derive(Clone, Debug, Deserialize)]
pub(super) struct LabReport {
    #[serde(default)]
    machine: Map<String, Value>,
    results: Vec<LabResult>,
}

#[derive(Clone, Debug, Deserialize)]
struct LabResult {
    measurement: LabMeasurement,
}

/// The parts of an `experiments::Measurement` the bench reads.
#[derive(Clone, Debug, Deserialize)]
struct LabMeasurement {
    job: Job,
    summary: Summary,
    check: Check,
    pool_start_ms: Option<f64>,
    /// Only for a server's load test.
    qps: Option<ServerRate>,
}

/// The throughput of an `experiments::QpsReport`.
#[derive(Clone, Copy, Debug, Deserialize)]
struct ServerRate {
    qps: f64,
}

/// The workspace's target directory.
fn target_dir() -> std::path::PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root().join("target"), |dir| root().join(dir))
}

/// Where `cargo build --release --package lab` puts `lab` (bench.mjs runs it too, as `BENCH_LAB`,
/// to tell whether the machine itself was steady around each first-run case).
pub(super) fn lab_binary() -> std::path::PathBuf {
    target_dir().join("release/lab")
}

/// Build `lab` in release and run the Sum kernel for each task count, then every other kernel; the
/// figures under the same keys as the browser's.
pub(super) fn measure_native() -> Result<Figures, String> {
    run_echoed(cargo().args(["build", "--release", "--package", "lab"]))?;
    let lab = lab_binary();
    let mut figures = Figures::new();
    for (run, tasks) in TASK_COUNTS.into_iter().enumerate() {
        let workers = SUM_WORKERS.map(|k| k.to_string()).join(",");
        let args = format!("sum --workers {workers} --tasks {tasks} --n {NUMBERS} --reps {REPETITIONS}");
        let report = run_lab(&lab, &args.split_whitespace().map(String::from).collect::<Vec<_>>())?;
        add_lab_figures(&report, tasks, run == 0, &mut figures);
    }
    for kernel in Kernel::ALL {
        add_kernel_figures(&run_lab(&lab, &kernel.lab_args())?, kernel, &mut figures)?;
    }
    // WebAssembly cannot use a CPU's SHA instructions; where native code does, time SHA-256 in plain
    // Rust too, so the browser's figure has a fair native counterpart.
    let sha_instructions = cpu_has_sha_instructions();
    figures.insert("cpu_sha_instructions".into(), Value::Bool(sha_instructions));
    if sha_instructions {
        let soft_target = target_dir().join("soft-sha");
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
pub(super) fn cpu_has_sha_instructions() -> bool {
    let flags = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    flags
        .lines()
        .filter(|l| l.starts_with("flags") || l.starts_with("Features"))
        .any(|l| l.split_whitespace().any(|flag| flag == "sha_ni" || flag == "sha2"))
}

/// Run `lab <args> --json` and read what it printed.
pub(super) fn run_lab(lab: &Path, args: &[String]) -> Result<LabReport, String> {
    let mut command = Command::new(lab);
    command.args(args).arg("--json").stderr(Stdio::inherit());
    eprintln!("xtask: $ {}", crate::shell::describe(&command));
    let out = command.output().map_err(|e| format!("could not start {}: {e}", lab.display()))?;
    // lab exits with 1 when a result is wrong but still prints it: the report shows the check. A job
    // that could not be measured at all prints nothing.
    serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("`lab {} --json` ({}) printed no readable JSON: {e}", args.join(" "), out.status))
}

/// Read one `lab sum --json` report into `figures`. The first run also gives the baseline and the pool
/// start-up times (its first job starts a pool of 1 worker, its 2-worker job one of 2).
pub(super) fn add_lab_figures(report: &LabReport, tasks: u32, first_run: bool, figures: &mut Figures) {
    for key in ["os", "arch", "logical_cpus"] {
        if let Some(value) = report.machine.get(key) {
            figures.insert(key.into(), value.clone());
        }
    }
    let mut all_ok = figures.get("check_ok").and_then(Value::as_bool).unwrap_or(true);
    for LabResult { measurement } in &report.results {
        let (workers, median) = (measurement.job.workers, measurement.summary.median_ms);
        all_ok &= measurement.check.ok;
        match measurement.job.variant {
            Variant::Sequential if first_run => {
                figures.insert("sequential_ms".into(), Value::from(median));
                figures.insert("sequential_min_ms".into(), Value::from(measurement.summary.min_ms));
            }
            Variant::Sequential => {
                figures.insert("sequential_run2_ms".into(), Value::from(median));
            }
            Variant::ThreadPool | Variant::Goroutines => {
                figures.insert(format!("tasks{tasks}_workers{workers}_ms"), Value::from(median));
                // The first job on each new pool reports its start-up (the loop runs on a worker of
                // the smallest pool, so the 1-worker pool is the 1-worker tasks job's).
                if first_run && (workers == 1 || workers == 2) {
                    if let Some(ms) = measurement.pool_start_ms {
                        figures.insert(format!("pool_start_{workers}_ms"), Value::from(ms));
                    }
                }
            }
        }
    }
    figures.insert("check_ok".into(), Value::Bool(all_ok));
}

/// Read the `lab --json` report of `kernel` into `figures`: each job's median under its
/// [`figure_name`] (and a server's requests per second), whether every result was right, and the
/// jobs themselves.
pub(super) fn add_kernel_figures(report: &LabReport, kernel: Kernel, figures: &mut Figures) -> Result<(), String> {
    let lab = format!("`lab {}`", kernel.name());
    let mut all_ok = true;
    let mut jobs = Vec::new();
    for LabResult { measurement } in &report.results {
        let job = &measurement.job;
        let name = figure_name(job)?;
        if figures.insert(format!("{name}_ms"), Value::from(measurement.summary.median_ms)).is_some() {
            return Err(format!("two jobs of {lab} are both reported as {name}"));
        }
        if matches!(job.workload, Workload::Qps { .. }) {
            let rate = measurement.qps.ok_or_else(|| format!("{lab}'s JSON has a server job without its qps"))?;
            figures.insert(format!("{name}_req_s"), Value::from(rate.qps));
        }
        all_ok &= measurement.check.ok;
        jobs.push(serde_json::to_value(job).map_err(|e| format!("{lab}'s job as JSON: {e}"))?);
    }
    figures.insert(format!("{}_check_ok", kernel.name()), Value::Bool(all_ok));
    figures.insert(format!("{}_jobs", kernel.name()), Value::Array(jobs));
    Ok(())
}
