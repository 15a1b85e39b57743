//! The Sum chapter's second experiment, one shared total: k tasks add their numbers into one shared
//! atomic counter, or into counters of their own side by side in one cache line, against private
//! sums added once at the end (what the sum's tasks do), beside the one loop.

#[cfg(feature = "lab")]
use super::lab::{LabOption, LabValue};
use super::{sweep_counts, Experiment, ExperimentId, KnobReader, Machine, Mode, Query, Runs};
use crate::job::{Job, TotalKind, Variant, Workload, DEFAULT_SEED};
use crate::params::{max_workers, ParamRange};

// The knobs: each one's URL key, limits and default (what the panel, presets, the engine's
// limits and `lab` all read).
pub const NUMBERS: ParamRange = ParamRange::new("n", 100_000, 10_000_000, 2_000_000);

pub const REPETITIONS: ParamRange = ParamRange::new("reps", 1, 20, 3);

/// The counters one 64-byte cache line holds (`workloads::shared_total::ADJACENT_COUNTERS`).
pub const COUNTERS: u64 = 8;

/// Workers, one task each: at most one per counter of the cache line.
pub fn workers(hardware_concurrency: u32) -> ParamRange {
    ParamRange::new("workers", 1, max_workers(hardware_concurrency).min(COUNTERS), 2)
}

pub const EXPERIMENT: Experiment = Experiment {
    id: ExperimentId::SharedTotal,
    chapter: "sum",
    quick: "workers=2&n=100000&reps=1",
    // Counters that several workers add into need memory they share.
    runs: Runs::Engine(&[Mode::Threads]),
    message_workers: false,
    measures_page_memory: false,
    variants: &[Variant::Sequential, Variant::ThreadPool],
    every_run,
    #[cfg(feature = "lab")]
    lab: Some(LAB),
};

/// What the panel's knobs are set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub workers: u32,
    pub numbers: u64,
    pub repetitions: u32,
}

impl Settings {
    /// The settings as URL query pairs, under the keys [`read`] reads them from.
    pub fn query(&self) -> Query {
        vec![
            (workers(1).key, self.workers.to_string()),
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

/// The knobs, in the panel's order.
pub fn read(r: &mut dyn KnobReader, machine: Machine) -> Settings {
    Settings {
        workers: r.value(&workers(machine.cores)) as u32,
        numbers: r.value(&NUMBERS),
        repetitions: r.value(&REPETITIONS) as u32,
    }
}

/// One job: the loop (`total` is then only where its one sum ends up), or one task per worker
/// adding where `total` says.
pub fn job(s: &Settings, variant: Variant, total: TotalKind) -> Job {
    let workers = if variant == Variant::Sequential { 1 } else { s.workers };
    Job {
        workload: Workload::SharedTotal { numbers: s.numbers, seed: DEFAULT_SEED, total },
        variant,
        workers,
        tasks: workers,
        repetitions: s.repetitions,
    }
}

/// Run: the loop, then k tasks with private sums, one shared counter, and counters side by side.
pub fn run_jobs(s: &Settings) -> Vec<Job> {
    let mut jobs = vec![job(s, Variant::Sequential, TotalKind::Private)];
    jobs.extend(TotalKind::ALL.map(|total| job(s, Variant::ThreadPool, total)));
    jobs
}

/// Sweep: the loop, then the three ways of adding on every worker count up to `max_workers`.
pub fn sweep_jobs(s: &Settings, max_workers: u32) -> Vec<Job> {
    let mut jobs = vec![job(s, Variant::Sequential, TotalKind::Private)];
    for workers in sweep_counts(max_workers) {
        let s = Settings { workers, ..*s };
        jobs.extend(TotalKind::ALL.map(|total| job(&s, Variant::ThreadPool, total)));
    }
    jobs
}

fn every_run(r: &mut dyn KnobReader, machine: Machine, _file_bytes: u64) -> Vec<Vec<Job>> {
    if !EXPERIMENT.runs_in(machine.mode) {
        return Vec::new();
    }
    let s = read(r, machine);
    vec![run_jobs(&s), sweep_jobs(&s, workers(machine.cores).max as u32)]
}

/// `lab shared-total`: the loop, then the three ways of adding on each worker count.
#[cfg(feature = "lab")]
const LAB: super::lab::LabCommand = super::lab::LabCommand {
    name: "shared-total",
    about: "Add n random integers into one total on each worker count k, one task per worker: private \
            sums added at the end, one shared atomic counter, and counters side by side in a cache line.",
    options: &[
        LabOption {
            flag: "workers",
            help:
                "Worker counts k to measure, comma-separated (one task each; at most 8, the counters of a cache line).",
            value: LabValue::Counts("1,2"),
        },
        LabOption { flag: "n", help: "How many numbers to add.", value: LabValue::Count(NUMBERS.default) },
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
    let (n, repetitions) = (args.count("n"), args.count32("reps")?);
    let settings = |workers| Settings { workers, numbers: n, repetitions };
    let mut jobs = vec![Benchmark::new(
        format!("BenchmarkSharedTotal/sequential/n={n}"),
        job(&settings(1), Variant::Sequential, TotalKind::Private),
    )];
    for workers in args.distinct32("workers")? {
        for total in TotalKind::ALL {
            jobs.push(Benchmark::new(
                format!("BenchmarkSharedTotal/{}/workers={workers}/n={n}", total.name()),
                job(&settings(workers), Variant::ThreadPool, total),
            ));
        }
    }
    Ok(jobs)
}
