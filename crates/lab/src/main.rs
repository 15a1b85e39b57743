//! `lab`: Concurrency Lab's browser experiments, same parameters, on OS threads, printed like `go test -bench`.
//!
//! `lab sum --workers 1,2 --tasks 8 --n 1e7 --reps 5` measures the Sum chapter; every experiment
//! whose catalog module declares a `LabCommand` has its subcommand (`lab --help` lists them);
//! `--json` prints the raw measurements for `cargo xtask bench`.
//! Exit codes: 0 all jobs measured and correct, 1 a job failed or computed a wrong result, 2 bad input.

mod cli;
mod plan;
mod report;

use cli::Cli;
use engine::native::{NativeEngine, RunError};
use engine::Cancel;
use experiments::catalog::ExperimentId;
use experiments::published::{FIND_1000, SUM_10M};
use experiments::{Measurement, Workload};
use plan::Plan;
use report::{published_servers, published_table, verdict, warnings, JsonReport, JsonResult, Layout, Line, Machine};
use std::io::Write;
use std::process::ExitCode;

/// Exit code for input `lab` refuses to run (the same code clap uses for usage errors).
const EXIT_BAD_INPUT: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let plan = match cli.resolved_args().and_then(|args| Plan::new(cli.command, &args)) {
        Ok(plan) => plan,
        Err(reason) => {
            eprintln!("lab: cannot run this: {reason}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let machine = Machine::current();
    let outcome =
        if cli.json { print_json(&plan, &machine) } else { print_table(&plan, &machine, published(cli.experiment)) };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("lab: {message}");
            ExitCode::FAILURE
        }
    }
}

/// What the articles published for an experiment, to print under its table.
fn published(experiment: ExperimentId) -> Option<String> {
    match experiment {
        ExperimentId::Sum => Some(published_table("summing 10,000,000 integers", &SUM_10M)),
        ExperimentId::DocumentSearch => {
            Some(published_table("searching 1,000 RSS documents with 1 ms reads", &FIND_1000))
        }
        ExperimentId::Hashing => Some(HASH_CLAIM.to_string()),
        ExperimentId::Qps => Some(published_servers()),
        _ => None,
    }
}

/// What the hashing article reported, in words (it published no table).
const HASH_CLAIM: &str = "published, not measured here: on an 8-core, 16-thread machine with Go 1.15, hashing a \
~300 MB file 30 times with goroutines and GOMAXPROCS=16 took about a fifth of the time of the for-loop and of \
GOMAXPROCS=1 (\"Goroutine の並行処理によって並列処理を実現する\", Japanese)\n";

/// Measure every job of the plan as the browser does (workers kept for the whole plan, each job
/// warmed up until the machine is quiet), blocking; `Err` says in words why the plan produced no
/// measurements.
fn measure(plan: &Plan) -> Result<Vec<Measurement>, String> {
    let jobs: Vec<experiments::Job> = plan.jobs.iter().map(|p| p.job.clone()).collect();
    NativeEngine::new().run_all(&jobs, &Cancel::new()).map_err(|error| match error {
        RunError::Stopped => "the run was stopped".to_string(),
        RunError::Failed(reason) => format!("the run failed: {reason}"),
    })
}

/// For each measurement of the plan, the one its speedup is taken over: the latest baseline job's
/// before it (itself, for a baseline job), or the first measurement when no baseline came yet.
fn baselines<'a>(plan: &Plan, measurements: &'a [Measurement]) -> Vec<&'a Measurement> {
    let mut latest = None;
    plan.jobs
        .iter()
        .zip(measurements)
        .map(|(planned, measurement)| {
            if planned.baseline {
                latest = Some(measurement);
            }
            *latest.get_or_insert(measurement)
        })
        .collect()
}

/// Measure the plan, printing each line as soon as its job is done. `Ok(false)` if a result was wrong.
fn print_table(plan: &Plan, machine: &Machine, published: Option<String>) -> Result<bool, String> {
    let layout = Layout::new(
        plan.jobs.iter().map(|p| p.name.as_str()),
        plan.jobs.iter().map(|p| p.job.repetitions).max().unwrap_or(1),
    );
    println!("{}", machine.header());
    // Nothing to do if stdout is gone.
    let _ = std::io::stdout().flush();
    let measurements = measure(plan)?;
    let mut all_ok = true;
    let mut digest = None;
    for ((planned, measurement), baseline) in plan.jobs.iter().zip(&measurements).zip(baselines(plan, &measurements)) {
        print!("{}", layout.name_cell(&planned.name));
        let line = Line::new(measurement, &baseline.summary).with_doubts(&warnings(
            Some(baseline).filter(|_| !planned.baseline),
            measurement,
            machine.logical_cpus,
        ));
        all_ok &= line.ok;
        println!("{}", layout.result_cells(&line));
        if let Some(doubts) = Layout::doubts_line(&line) {
            println!("{doubts}");
        }
        if matches!(planned.job.workload, Workload::Hash { .. }) {
            digest = Some(measurement.check.value.clone());
        }
    }
    println!("{}", verdict(all_ok));
    if let Some(digest) = digest {
        // The same form as `sha256sum`, to compare with it.
        println!("sha256 of the data: {digest}");
    }
    if let Some(published) = published {
        println!();
        print!("{published}");
    }
    Ok(all_ok)
}

/// Measure the plan and print every measurement as one JSON document. `Ok(false)` if a result was wrong.
fn print_json(plan: &Plan, machine: &Machine) -> Result<bool, String> {
    let measurements = measure(plan)?;
    for (planned, measurement) in plan.jobs.iter().zip(&measurements) {
        eprintln!("lab: {}: median {:.3} ms", planned.name, measurement.summary.median_ms);
    }
    let results = plan
        .jobs
        .iter()
        .zip(&measurements)
        .zip(baselines(plan, &measurements))
        .map(|((planned, measurement), baseline)| JsonResult {
            benchmark: &planned.name,
            speedup: Some(Line::new(measurement, &baseline.summary).speedup).filter(|s| s.is_finite()),
            measurement,
            warnings: warnings(Some(baseline).filter(|_| !planned.baseline), measurement, machine.logical_cpus),
        })
        .collect();
    println!("{}", JsonReport { machine, results }.to_json());
    Ok(measurements.iter().all(|m| m.check.ok))
}
