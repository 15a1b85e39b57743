//! The Sum chapter: one loop over n numbers against t tasks on k workers, and a sweep over k.

#[cfg(feature = "lab")]
use super::lab::{LabOption, LabValue};
use super::{sweep_counts, Experiment, ExperimentId, KnobReader, Machine, Query, Runs, EVERY_MODE};
use crate::job::{Job, Variant, Workload, DEFAULT_SEED};
use crate::params::{max_workers, ParamRange};

// The knobs: each one's URL key, limits and default (what the panel, presets, the engine's
// limits and `lab` all read).
pub const TASKS: ParamRange = ParamRange::new("tasks", 1, 64, 8);

pub const NUMBERS: ParamRange = ParamRange::new("n", 100_000, 50_000_000, 10_000_000);

pub const REPETITIONS: ParamRange = ParamRange::new("reps", 1, 50, 5);

pub fn workers(hardware_concurrency: u32) -> ParamRange {
    ParamRange::new("workers", 1, max_workers(hardware_concurrency), 2)
}

pub const EXPERIMENT: Experiment = Experiment {
    id: ExperimentId::Sum,
    chapter: "sum",
    quick: "workers=2&tasks=4&n=100000&reps=1",
    runs: Runs::Engine(EVERY_MODE),
    message_workers: true,
    measures_page_memory: false,
    variants: &[Variant::Sequential, Variant::ThreadPool],
    every_run,
    #[cfg(feature = "lab")]
    lab: Some(LAB),
};

/// What the Sum panel's knobs are set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub workers: u32,
    pub tasks: u32,
    pub numbers: u64,
    pub repetitions: u32,
}

impl Settings {
    /// The settings as URL query pairs, under the keys [`read`] reads them from.
    pub fn query(&self) -> Query {
        vec![
            (workers(1).key, self.workers.to_string()),
            (TASKS.key, self.tasks.to_string()),
            (NUMBERS.key, self.numbers.to_string()),
            (REPETITIONS.key, self.repetitions.to_string()),
        ]
    }
}

impl super::ExperimentSettings for Settings {
    const ID: ExperimentId = EXPERIMENT.id;

    fn read(r: &mut dyn KnobReader, machine: Machine) -> Self {
        read(r, machine)
    }

    fn query(&self) -> Query {
        Settings::query(self)
    }
}

/// The knobs, in the panel's order. Message-passing workers make every worker count real.
pub fn read(r: &mut dyn KnobReader, machine: Machine) -> Settings {
    Settings {
        workers: r.value(&workers(machine.cores)) as u32,
        tasks: r.value(&TASKS) as u32,
        numbers: r.value(&NUMBERS),
        repetitions: r.value(&REPETITIONS) as u32,
    }
}

/// One job of the panel.
pub fn job(s: &Settings, variant: Variant, workers: u32, tasks: u32) -> Job {
    Job {
        workload: Workload::Sum { numbers: s.numbers, seed: DEFAULT_SEED },
        variant,
        workers,
        tasks,
        repetitions: s.repetitions,
    }
}

/// Run: the loop, then t tasks on k workers.
pub fn run_jobs(s: &Settings) -> Vec<Job> {
    vec![job(s, Variant::Sequential, 1, 1), job(s, Variant::ThreadPool, s.workers, s.tasks)]
}

/// Sweep: the loop, then t tasks on every worker count up to `max_workers`.
pub fn sweep_jobs(s: &Settings, max_workers: u32) -> Vec<Job> {
    let mut jobs = vec![job(s, Variant::Sequential, 1, 1)];
    jobs.extend(sweep_counts(max_workers).into_iter().map(|k| job(s, Variant::ThreadPool, k, s.tasks)));
    jobs
}

fn every_run(r: &mut dyn KnobReader, machine: Machine, _file_bytes: u64) -> Vec<Vec<Job>> {
    let s = read(r, machine);
    vec![run_jobs(&s), sweep_jobs(&s, workers(machine.cores).max as u32)]
}

/// `lab sum`: the loop, then t tasks on each worker count.
#[cfg(feature = "lab")]
const LAB: super::lab::LabCommand = super::lab::LabCommand {
    name: "sum",
    about: "Sum n random integers: one plain loop, then t tasks on each worker count k.",
    options: &[
        LabOption {
            flag: "workers",
            help: "Worker counts k to measure, comma-separated (e.g. 1,2,4).",
            value: LabValue::Counts("1,2"),
        },
        LabOption { flag: "tasks", help: "Tasks t the numbers are split into.", value: LabValue::Count(TASKS.default) },
        LabOption {
            flag: "n",
            help: "How many numbers to add (10000000, 10_000_000 and 1e7 all work).",
            value: LabValue::Count(NUMBERS.default),
        },
        LabOption {
            flag: "reps",
            help: "Timed repetitions of each job (after one untimed warm-up).",
            value: LabValue::Count(REPETITIONS.default),
        },
    ],
    plan: lab_plan,
};

#[cfg(feature = "lab")]
fn lab_plan(args: &super::lab::LabArgs) -> Result<Vec<super::lab::Benchmark>, String> {
    use super::lab::Benchmark;
    let (tasks, n) = (args.count32("tasks")?, args.count("n"));
    let settings = Settings { workers: 1, tasks, numbers: n, repetitions: args.count32("reps")? };
    let mut jobs =
        vec![Benchmark::new(format!("BenchmarkSum/sequential/n={n}"), job(&settings, Variant::Sequential, 1, 1))];
    for workers in args.distinct32("workers")? {
        jobs.push(Benchmark::new(
            format!("BenchmarkSum/tasks={tasks}/workers={workers}/n={n}"),
            job(&settings, Variant::ThreadPool, workers, tasks),
        ));
    }
    Ok(jobs)
}
