//! The bubble sort chapter: bubble sort as one loop against three parallel sorts on k workers, and
//! a sweep of the three over k.

#[cfg(feature = "lab")]
use super::lab::{LabOption, LabValue};
use super::{sweep_counts, workers_for, Experiment, ExperimentId, KnobReader, Machine, Query, Runs, EVERY_MODE};
use crate::job::{Job, SortAlgorithm, Variant, Workload, DEFAULT_SEED};
use crate::params::{max_workers, ParamRange};

// The knobs: each one's URL key, limits and default (what the panel, presets, the engine's
// limits and `lab` all read).
pub const TASKS: ParamRange = ParamRange::new("tasks", 1, 64, 8);

pub const NUMBERS: ParamRange = ParamRange::new("n", 1_000, 50_000, 10_000);

pub const REPETITIONS: ParamRange = ParamRange::new("reps", 1, 20, 3);

/// Above this many numbers the page warns that bubble sort will be slow.
pub const SLOW_ABOVE: u64 = 20_000;

pub fn workers(hardware_concurrency: u32) -> ParamRange {
    ParamRange::new("workers", 1, max_workers(hardware_concurrency), 2)
}

pub const EXPERIMENT: Experiment = Experiment {
    id: ExperimentId::BubbleSort,
    chapter: "bubble-sort",
    quick: "workers=2&tasks=4&n=3000&reps=1",
    runs: Runs::Engine(EVERY_MODE),
    message_workers: false,
    measures_page_memory: false,
    variants: &[Variant::Sequential, Variant::ThreadPool],
    every_run,
    #[cfg(feature = "lab")]
    lab: Some(LAB),
};

/// The parallel sorts measured against the bubble sort.
pub const PARALLEL: [SortAlgorithm; 3] = [SortAlgorithm::ChunkedBubble, SortAlgorithm::OddEven, SortAlgorithm::Merge];

/// What the panel's knobs are set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub workers: u32,
    pub tasks: u32,
    pub numbers: u32,
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

/// The worker range on `machine` (one worker without shared memory).
pub fn workers_range(machine: Machine) -> crate::params::ParamRange {
    workers_for(workers(machine.cores), machine.mode)
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

/// The knobs, in the panel's order.
pub fn read(r: &mut dyn KnobReader, machine: Machine) -> Settings {
    Settings {
        workers: r.value(&workers_range(machine)) as u32,
        tasks: r.value(&TASKS) as u32,
        numbers: r.value(&NUMBERS) as u32,
        repetitions: r.value(&REPETITIONS) as u32,
    }
}

/// `algorithm` on `workers` workers in `tasks` tasks (the bubble sort: one loop).
pub fn job(s: &Settings, algorithm: SortAlgorithm, workers: u32, tasks: u32) -> Job {
    let variant = if algorithm == SortAlgorithm::Bubble { Variant::Sequential } else { Variant::ThreadPool };
    Job {
        workload: Workload::Sort { numbers: s.numbers, seed: DEFAULT_SEED, algorithm },
        variant,
        workers,
        tasks,
        repetitions: s.repetitions,
    }
}

/// Run: the bubble sort, then each parallel sort on k workers.
pub fn run_jobs(s: &Settings) -> Vec<Job> {
    let mut jobs = vec![job(s, SortAlgorithm::Bubble, 1, 1)];
    jobs.extend(PARALLEL.iter().map(|&a| job(s, a, s.workers, s.tasks)));
    jobs
}

/// Sweep: the bubble sort, then each parallel sort on every worker count up to `max_workers`.
pub fn sweep_jobs(s: &Settings, max_workers: u32) -> Vec<Job> {
    let mut jobs = vec![job(s, SortAlgorithm::Bubble, 1, 1)];
    for &algorithm in &PARALLEL {
        jobs.extend(sweep_counts(max_workers).into_iter().map(|k| job(s, algorithm, k, s.tasks)));
    }
    jobs
}

fn every_run(r: &mut dyn KnobReader, machine: Machine, _file_bytes: u64) -> Vec<Vec<Job>> {
    let s = read(r, machine);
    vec![run_jobs(&s), sweep_jobs(&s, workers_range(machine).max as u32)]
}

/// `lab sort`: bubble sort as one loop, then its parallel rivals on each worker count.
#[cfg(feature = "lab")]
const LAB: super::lab::LabCommand = super::lab::LabCommand {
    name: "sort",
    about: "Sort random integers: bubble sort as one loop, then its parallel rivals on each worker count k.",
    options: &[
        LabOption {
            flag: "workers",
            help: "Worker counts k to measure, comma-separated.",
            value: LabValue::Counts("1,2"),
        },
        LabOption {
            flag: "tasks",
            help: "Tasks t (chunks or runs) the list is split into.",
            value: LabValue::Count(TASKS.default),
        },
        LabOption { flag: "n", help: "How many integers to sort.", value: LabValue::Count(NUMBERS.default) },
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
    let (tasks, n) = (args.count32("tasks")?, args.count32("n")?);
    let settings = Settings { workers: 1, tasks, numbers: n, repetitions: args.count32("reps")? };
    let mut jobs =
        vec![Benchmark::new(format!("BenchmarkSort/bubble/n={n}"), job(&settings, SortAlgorithm::Bubble, 1, tasks))];
    for workers in args.distinct32("workers")? {
        for (label, algorithm) in [
            ("chunked", SortAlgorithm::ChunkedBubble),
            ("odd-even", SortAlgorithm::OddEven),
            ("merge", SortAlgorithm::Merge),
        ] {
            jobs.push(Benchmark::new(
                format!("BenchmarkSort/{label}/tasks={tasks}/workers={workers}/n={n}"),
                job(&settings, algorithm, workers, tasks),
            ));
        }
    }
    Ok(jobs)
}
