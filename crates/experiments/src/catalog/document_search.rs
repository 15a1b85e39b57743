//! IO-bound document search: threads whose reads block against goroutines whose reads park, on k
//! workers, and a sweep over the task count.

#[cfg(feature = "lab")]
use super::lab::{LabOption, LabValue};
use super::{
    sweep_counts, workers_for, Experiment, ExperimentId, KnobReader, Machine, Query, Runs, EVERY_MODE, SWEEP_MAX_TASKS,
};
use crate::job::{Job, Variant, Workload, DEFAULT_SEED};
use crate::params::{max_workers, ParamRange};

// The knobs: each one's URL key, limits and default (what the panel, presets, the engine's
// limits and `lab` all read).
pub const TASKS: ParamRange = ParamRange::new("tasks", 1, 64, 8);

pub const DOCUMENTS: ParamRange = ParamRange::new("docs", 100, 10_000, 1_000);

/// Read latency in milliseconds (the engine takes microseconds).
pub const LATENCY_MS: ParamRange = ParamRange::new("latency", 0, 10, 1);

pub const REPETITIONS: ParamRange = ParamRange::new("reps", 1, 20, 3);

pub fn workers(hardware_concurrency: u32) -> ParamRange {
    ParamRange::new("workers", 1, max_workers(hardware_concurrency), 1)
}

pub const EXPERIMENT: Experiment = Experiment {
    id: ExperimentId::DocumentSearch,
    chapter: "document-search",
    quick: "workers=1&tasks=8&docs=100&latency=1&reps=1",
    runs: Runs::Engine(EVERY_MODE),
    message_workers: false,
    measures_page_memory: false,
    variants: &[Variant::Sequential, Variant::ThreadPool, Variant::Goroutines],
    every_run,
    #[cfg(feature = "lab")]
    lab: Some(LAB),
};

/// What the panel's knobs are set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub workers: u32,
    pub tasks: u32,
    pub documents: u32,
    pub latency_ms: u32,
    pub repetitions: u32,
}

impl Settings {
    /// The settings as URL query pairs, under the keys [`read`] reads them from.
    pub fn query(&self) -> Query {
        vec![
            (workers(1).key, self.workers.to_string()),
            (TASKS.key, self.tasks.to_string()),
            (DOCUMENTS.key, self.documents.to_string()),
            (LATENCY_MS.key, self.latency_ms.to_string()),
            (REPETITIONS.key, self.repetitions.to_string()),
        ]
    }
}

/// The worker range on `machine` (one worker without shared memory).
pub fn workers_range(machine: Machine) -> ParamRange {
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
        documents: r.value(&DOCUMENTS) as u32,
        latency_ms: r.value(&LATENCY_MS) as u32,
        repetitions: r.value(&REPETITIONS) as u32,
    }
}

/// One search job with the settings' documents and read latency.
pub fn job(s: &Settings, variant: Variant, workers: u32, tasks: u32, repetitions: u32) -> Job {
    Job {
        workload: Workload::DocSearch {
            documents: s.documents,
            latency_us: s.latency_ms.saturating_mul(1000),
            seed: DEFAULT_SEED,
        },
        variant,
        workers,
        tasks,
        repetitions,
    }
}

/// Run: the loop, then t threads and t goroutines on k workers.
pub fn run_jobs(s: &Settings) -> Vec<Job> {
    let r = s.repetitions;
    vec![
        job(s, Variant::Sequential, 1, 1, r),
        job(s, Variant::ThreadPool, s.workers, s.tasks, r),
        job(s, Variant::Goroutines, s.workers, s.tasks, r),
    ]
}

/// Sweep: the loop, then threads and goroutines for every task count up to [`SWEEP_MAX_TASKS`],
/// one timed repetition each, which keeps a sweep of slow reads short.
pub fn sweep_jobs(s: &Settings) -> Vec<Job> {
    let mut jobs = vec![job(s, Variant::Sequential, 1, 1, 1)];
    for n in sweep_counts(SWEEP_MAX_TASKS) {
        jobs.push(job(s, Variant::ThreadPool, s.workers, n, 1));
        jobs.push(job(s, Variant::Goroutines, s.workers, n, 1));
    }
    jobs
}

fn every_run(r: &mut dyn KnobReader, machine: Machine, _file_bytes: u64) -> Vec<Vec<Job>> {
    let s = read(r, machine);
    vec![run_jobs(&s), sweep_jobs(&s)]
}

/// `lab docsearch`: the loop, then threads and goroutines for every worker and task count.
#[cfg(feature = "lab")]
const LAB: super::lab::LabCommand = super::lab::LabCommand {
    name: "docsearch",
    about: "Search RSS documents with a blocking read each: threads (reads block) versus goroutines \
            (reads park) for every worker count k and task count t.",
    options: &[
        LabOption {
            flag: "workers",
            help: "Worker counts k to measure, comma-separated.",
            value: LabValue::Counts("1,2,8"),
        },
        LabOption {
            flag: "tasks",
            help: "Task counts t to measure, comma-separated.",
            value: LabValue::Counts("8,64"),
        },
        LabOption {
            flag: "docs",
            help: "How many RSS documents to search.",
            value: LabValue::Count(DOCUMENTS.default),
        },
        LabOption {
            flag: "latency-ms",
            help: "How long each read waits, in milliseconds.",
            value: LabValue::Count(LATENCY_MS.default),
        },
        LabOption { flag: "reps", help: "Timed repetitions of each job.", value: LabValue::Count(REPETITIONS.default) },
    ],
    plan: lab_plan,
};

#[cfg(feature = "lab")]
fn lab_plan(args: &super::lab::LabArgs) -> Result<Vec<super::lab::Benchmark>, String> {
    use super::lab::Benchmark;
    let (docs, latency, repetitions) = (args.count32("docs")?, args.count32("latency-ms")?, args.count32("reps")?);
    // The engine takes microseconds in a u32: refuse what would not fit rather than wrap.
    if latency.checked_mul(1000).is_none() {
        return Err(format!("--latency-ms {latency} is too large: at most {} ms", u32::MAX / 1000));
    }
    let settings = Settings { workers: 1, tasks: 1, documents: docs, latency_ms: latency, repetitions };
    let job = |variant, workers, tasks| job(&settings, variant, workers, tasks, repetitions);
    let suffix = format!("docs={docs}/latency={latency}ms");
    let mut jobs =
        vec![Benchmark::new(format!("BenchmarkDocsearch/sequential/{suffix}"), job(Variant::Sequential, 1, 1))];
    let task_counts = args.distinct32("tasks")?;
    for workers in args.distinct32("workers")? {
        for &tasks in &task_counts {
            for (label, variant) in [("threads", Variant::ThreadPool), ("goroutines", Variant::Goroutines)] {
                jobs.push(Benchmark::new(
                    format!("BenchmarkDocsearch/{label}/tasks={tasks}/workers={workers}/{suffix}"),
                    job(variant, workers, tasks),
                ));
            }
        }
    }
    Ok(jobs)
}
