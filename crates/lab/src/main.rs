//! `lab`: Concurrency Lab's browser experiments, same parameters, on OS threads, printed like `go test -bench`.
//!
//! `lab sum --workers 1,2 --tasks 8 --n 1e7 --reps 5` measures the Sum chapter, `lab demo …` the
//! "concurrency is not parallelism" demo, `lab docsearch …` threads versus goroutines on blocking
//! reads; `--json` prints the raw measurements for `cargo xtask bench`.
//! Exit codes: 0 all jobs measured and correct, 1 a job failed or computed a wrong result, 2 bad input.

mod cli;
mod plan;
mod report;

use clap::Parser;
use cli::{Cli, Experiment};
use engine::native::{NativeEngine, RunError};
use engine::Cancel;
use experiments::published::{PublishedComparison, FIND_1000, SUM_10M};
use experiments::Measurement;
use plan::Plan;
use report::{published_table, verdict, JsonReport, JsonResult, Layout, Line, Machine};
use std::io::Write;
use std::process::ExitCode;

/// What the articles published for an experiment: a description and their figures.
type Published = (&'static str, &'static [PublishedComparison]);

/// Exit code for input `lab` refuses to run (the same code clap uses for usage errors).
const EXIT_BAD_INPUT: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let (plan, published) = match &cli.command {
        Experiment::Sum(options) => (Plan::sum(options), Some(("summing 10,000,000 integers", &SUM_10M[..]))),
        Experiment::Demo(options) => (Plan::demo(options), None),
        Experiment::Docsearch(options) => {
            (Plan::docsearch(options), Some(("searching 1,000 RSS documents with 1 ms reads", &FIND_1000[..])))
        }
    };
    let plan = match plan {
        Ok(plan) => plan,
        Err(reason) => {
            eprintln!("lab: cannot run this: {reason}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let machine = Machine::current();
    let outcome = if cli.json { print_json(&plan, &machine) } else { print_table(&plan, &machine, published) };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("lab: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Measure one job, blocking; `Err` says in words why it produced no measurement.
fn measure(engine: &mut NativeEngine, name: &str, job: &experiments::Job) -> Result<Measurement, String> {
    engine.run(job, &Cancel::new()).map_err(|error| match error {
        RunError::Stopped => format!("{name} was stopped"),
        RunError::Failed(reason) => format!("{name} failed: {reason}"),
    })
}

/// Measure the plan, printing each line as soon as its job is done. `Ok(false)` if a result was wrong.
fn print_table(plan: &Plan, machine: &Machine, published: Option<Published>) -> Result<bool, String> {
    let layout = Layout::new(
        plan.jobs.iter().map(|p| p.name.as_str()),
        plan.jobs.iter().map(|p| p.job.repetitions).max().unwrap_or(1),
    );
    println!("{}", machine.header());
    let mut engine = NativeEngine::new();
    let mut baseline = None;
    let mut all_ok = true;
    for planned in &plan.jobs {
        print!("{}", layout.name_cell(&planned.name));
        // The name shows which benchmark is running while it runs; nothing to do if stdout is gone.
        let _ = std::io::stdout().flush();
        let measurement = measure(&mut engine, &planned.name, &planned.job).inspect_err(|_| println!())?;
        let baseline = *baseline.get_or_insert(measurement.summary);
        let line = Line::new(&measurement, &baseline);
        all_ok &= line.ok;
        println!("{}", layout.result_cells(&line));
    }
    println!("{}", verdict(all_ok));
    if let Some((what, figures)) = published {
        println!();
        print!("{}", published_table(what, figures));
    }
    Ok(all_ok)
}

/// Measure the plan and print every measurement as one JSON document. `Ok(false)` if a result was wrong.
fn print_json(plan: &Plan, machine: &Machine) -> Result<bool, String> {
    let mut engine = NativeEngine::new();
    let mut measurements = Vec::with_capacity(plan.jobs.len());
    for planned in &plan.jobs {
        let measurement = measure(&mut engine, &planned.name, &planned.job)?;
        eprintln!("lab: {}: median {:.3} ms", planned.name, measurement.summary.median_ms);
        measurements.push(measurement);
    }
    let Some(baseline) = measurements.first().map(|m| m.summary) else {
        return Err("nothing to measure".into());
    };
    let results = plan
        .jobs
        .iter()
        .zip(&measurements)
        .map(|(planned, measurement)| JsonResult {
            benchmark: &planned.name,
            speedup: Some(Line::new(measurement, &baseline).speedup).filter(|s| s.is_finite()),
            measurement,
        })
        .collect();
    println!("{}", JsonReport { machine, results }.to_json());
    Ok(measurements.iter().all(|m| m.check.ok))
}
