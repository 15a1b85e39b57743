//! "Concurrency is not parallelism": t tasks of pure CPU work on one worker, then on k.

#[cfg(feature = "lab")]
use super::lab::{LabOption, LabValue};
use super::{Experiment, ExperimentId, KnobReader, Machine, Query, Runs, EVERY_MODE};
use crate::job::{Job, Variant, Workload};
use crate::params::{at_most_cores, max_workers, ParamRange};

// The knobs: each one's URL key, limits and default (what the panel, presets, the engine's
// limits and `lab` all read).
pub const TASKS: ParamRange = ParamRange::new("tasks", 1, 16, 4);

/// Size of each task in spin units (see `workloads::spin`).
pub const UNITS: ParamRange = ParamRange::new("units", 1_000, 200_000, 20_000);

/// Four workers where the machine has four cores; never more than it has, so the chapter that
/// tells concurrency from parallelism does not start with more parallelism than there is.
pub fn workers(hardware_concurrency: u32) -> ParamRange {
    ParamRange::new("workers", 1, max_workers(hardware_concurrency), at_most_cores(4, hardware_concurrency))
}

pub const EXPERIMENT: Experiment = Experiment {
    id: ExperimentId::Demo,
    chapter: "concurrency-vs-parallelism",
    quick: "workers=4&tasks=8",
    runs: Runs::Engine(EVERY_MODE),
    message_workers: true,
    measures_page_memory: false,
    variants: &[Variant::ThreadPool],
    every_run,
    #[cfg(feature = "lab")]
    lab: Some(LAB),
};

/// Repetitions of each demo job: the demo shows timelines, not statistics.
pub const REPETITIONS: u32 = 3;

/// What the demo's knobs are set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub workers: u32,
    pub tasks: u32,
    pub units: u32,
}

impl Settings {
    /// The settings as URL query pairs, under the keys [`read`] reads them from.
    pub fn query(&self) -> Query {
        vec![
            (workers(1).key, self.workers.to_string()),
            (TASKS.key, self.tasks.to_string()),
            (UNITS.key, self.units.to_string()),
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

/// The knobs, in the panel's order. Message-passing workers make every worker count real, so the
/// worker range does not shrink without shared memory.
pub fn read(r: &mut dyn KnobReader, machine: Machine) -> Settings {
    Settings {
        workers: r.value(&workers(machine.cores)) as u32,
        tasks: r.value(&TASKS) as u32,
        units: r.value(&UNITS) as u32,
    }
}

/// The tasks on `workers` workers, `repetitions` times.
pub fn job(s: &Settings, workers: u32, repetitions: u32) -> Job {
    Job {
        workload: Workload::Spin { units: s.units },
        variant: Variant::ThreadPool,
        workers,
        tasks: s.tasks,
        repetitions,
    }
}

/// Run: the tasks on one worker, then on k.
pub fn run_jobs(s: &Settings) -> Vec<Job> {
    vec![job(s, 1, REPETITIONS), job(s, s.workers, REPETITIONS)]
}

fn every_run(r: &mut dyn KnobReader, machine: Machine, _file_bytes: u64) -> Vec<Vec<Job>> {
    vec![run_jobs(&read(r, machine))]
}

/// Repetitions of `lab demo`: the chapter's demo always times three runs.
#[cfg(feature = "lab")]
pub const LAB_REPETITIONS: u64 = 3;

/// `lab demo`: the tasks on one worker, then on each other worker count.
#[cfg(feature = "lab")]
const LAB: super::lab::LabCommand = super::lab::LabCommand {
    name: "demo",
    about: "Spin t tasks of pure CPU work on each worker count k (\"concurrency is not parallelism\").",
    options: &[
        LabOption {
            flag: "workers",
            help: "Worker counts k to measure, comma-separated; 1 worker is always measured as the baseline.",
            value: LabValue::Counts("1,4"),
        },
        LabOption {
            flag: "tasks",
            help: "Tasks t, each doing `units` units of work.",
            value: LabValue::Count(TASKS.default),
        },
        LabOption { flag: "units", help: "Size of each task in spin units.", value: LabValue::Count(UNITS.default) },
        LabOption {
            flag: "reps",
            help: "Timed repetitions of each job (after one untimed warm-up).",
            value: LabValue::Count(LAB_REPETITIONS),
        },
    ],
    plan: lab_plan,
};

#[cfg(feature = "lab")]
fn lab_plan(args: &super::lab::LabArgs) -> Result<Vec<super::lab::Benchmark>, String> {
    use super::lab::Benchmark;
    let (tasks, units, repetitions) = (args.count32("tasks")?, args.count32("units")?, args.count32("reps")?);
    let settings = Settings { workers: 1, tasks, units };
    let mut counts = vec![1];
    counts.extend(args.distinct32("workers")?.into_iter().filter(|&k| k != 1));
    Ok(counts
        .into_iter()
        .map(|workers| {
            Benchmark::new(
                format!("BenchmarkDemo/tasks={tasks}/workers={workers}/units={units}"),
                job(&settings, workers, repetitions),
            )
        })
        .collect())
}
