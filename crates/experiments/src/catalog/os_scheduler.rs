//! How an OS schedules threads: a simulation the page runs itself; it sends the engine nothing.

use super::{Experiment, ExperimentId, KnobReader, Machine, Query, Runs};
use crate::job::Job;
use crate::params::ParamRange;

// The knobs: each one's URL key, limits and default (what the panel, presets, the engine's
// limits and `lab` all read).
pub const THREADS: ParamRange = ParamRange::new("threads", 1, 24, 6);

pub const CORES: ParamRange = ParamRange::new("cores", 1, 8, 2);

/// Time slice in milliseconds.
pub const QUANTUM_MS: ParamRange = ParamRange::new("quantum", 1, 50, 4);

/// Context-switch cost in microseconds.
pub const SWITCH_US: ParamRange = ParamRange::new("switch", 0, 1_000, 0);

pub const SEED: ParamRange = ParamRange::new("seed", 1, 9_999, 1);

/// `mix=cpu`, `mix=io` or `mix=mixed`.
pub const MIXES: [&str; 3] = ["cpu", "io", "mixed"];

pub const EXPERIMENT: Experiment = Experiment {
    id: ExperimentId::OsScheduler,
    chapter: "os-scheduler",
    quick: "threads=4&cores=1&quantum=1&mix=cpu&seed=3",
    runs: Runs::Page,
    message_workers: false,
    measures_page_memory: false,
    variants: &[],
    every_run,
    #[cfg(feature = "lab")]
    lab: None,
};

/// What the simulation's knobs are set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub threads: u64,
    pub cores: u64,
    pub quantum_ms: u64,
    pub switch_us: u64,
    pub seed: u64,
    /// One of `MIXES`.
    pub mix: &'static str,
}

impl Settings {
    /// The settings as URL query pairs, under the keys [`read`] reads them from.
    pub fn query(&self) -> Query {
        vec![
            (THREADS.key, self.threads.to_string()),
            (CORES.key, self.cores.to_string()),
            (QUANTUM_MS.key, self.quantum_ms.to_string()),
            (SWITCH_US.key, self.switch_us.to_string()),
            (SEED.key, self.seed.to_string()),
            ("mix", self.mix.to_string()),
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
pub fn read(r: &mut dyn KnobReader, _machine: Machine) -> Settings {
    Settings {
        threads: r.value(&THREADS),
        cores: r.value(&CORES),
        quantum_ms: r.value(&QUANTUM_MS),
        switch_us: r.value(&SWITCH_US),
        seed: r.value(&SEED),
        mix: r.choice("mix", &MIXES, "mixed"),
    }
}

fn every_run(r: &mut dyn KnobReader, machine: Machine, _file_bytes: u64) -> Vec<Vec<Job>> {
    read(r, machine);
    Vec::new()
}
