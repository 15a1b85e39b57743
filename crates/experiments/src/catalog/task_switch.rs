//! What a task costs, part three: a turn handed back and forth between two threads and between
//! two goroutines.

use super::{Experiment, ExperimentId, KnobReader, Machine, Mode, Query, Runs, EVERY_MODE};
use crate::job::{Job, Variant, Workload};
use crate::params::ParamRange;

// The knobs: each one's URL key, limits and default (what the panel, presets, the engine's
// limits and `lab` all read).
pub const ROUND_TRIPS: ParamRange = ParamRange::new("trips", 1_000, 1_000_000, 100_000);

pub const REPETITIONS: ParamRange = ParamRange::new("reps", 1, 20, 5);

pub const EXPERIMENT: Experiment = Experiment {
    id: ExperimentId::TaskSwitch,
    chapter: "task-costs",
    quick: "trips=5000&reps=3",
    runs: Runs::Engine(EVERY_MODE),
    message_workers: false,
    measures_page_memory: false,
    variants: &[Variant::ThreadPool, Variant::Goroutines],
    every_run,
    #[cfg(feature = "lab")]
    lab: None,
};

/// What the panel's knobs are set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub round_trips: u32,
    pub repetitions: u32,
}

impl Settings {
    /// The settings as URL query pairs, under the keys [`read`] reads them from.
    pub fn query(&self) -> Query {
        vec![(ROUND_TRIPS.key, self.round_trips.to_string()), (REPETITIONS.key, self.repetitions.to_string())]
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
pub fn read(r: &mut dyn KnobReader, _machine: Machine) -> Settings {
    Settings { round_trips: r.value(&ROUND_TRIPS) as u32, repetitions: r.value(&REPETITIONS) as u32 }
}

/// Measure: two threads (only with shared memory: two threads need two workers), then two
/// goroutines on one worker.
pub fn run_jobs(s: &Settings, mode: Mode) -> Vec<Job> {
    let mut jobs = vec![job(s, Variant::Goroutines, 1)];
    if mode == Mode::Threads {
        jobs.insert(0, job(s, Variant::ThreadPool, 2));
    }
    jobs
}

/// Two threads (`Variant::ThreadPool`) or two goroutines handing a turn back and forth, on `workers` workers.
pub fn job(s: &Settings, variant: Variant, workers: u32) -> Job {
    Job {
        workload: Workload::PingPong { round_trips: s.round_trips },
        variant,
        workers,
        tasks: 2,
        repetitions: s.repetitions,
    }
}

fn every_run(r: &mut dyn KnobReader, machine: Machine, _file_bytes: u64) -> Vec<Vec<Job>> {
    vec![run_jobs(&read(r, machine), machine.mode)]
}
