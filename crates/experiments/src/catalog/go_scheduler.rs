//! Go's G/M/P scheduler shown on the engine's own M:N runtime: a scenario recorded step by step
//! and replayed.

use super::{workers_for, Experiment, ExperimentId, KnobReader, Machine, Query, Runs, EVERY_MODE};
use crate::job::{Job, ScenarioKind, Variant, Workload};
use crate::params::{max_workers, ParamRange};

// The knobs: each one's URL key, limits and default (what the panel, presets, the engine's
// limits and `lab` all read).
pub const TASKS: ParamRange = ParamRange::new("tasks", 1, 64, 16);

/// The replay step to open at.
pub const STEP: ParamRange = ParamRange::new("step", 0, 100_000, 0);

/// The most workers a replay shows, on any machine.
pub const MAX_WORKERS: u64 = 16;

pub fn workers(hardware_concurrency: u32) -> ParamRange {
    ParamRange::new("workers", 1, max_workers(hardware_concurrency).min(MAX_WORKERS), 4)
}

pub const EXPERIMENT: Experiment = Experiment {
    id: ExperimentId::GoScheduler,
    chapter: "go-scheduler",
    quick: "scenario=io-mix&workers=2&tasks=6",
    runs: Runs::Engine(EVERY_MODE),
    message_workers: false,
    measures_page_memory: false,
    variants: &[Variant::Goroutines],
    every_run,
    #[cfg(feature = "lab")]
    lab: None,
};

/// The ids of [`ScenarioKind::ALL`], for `scenario=…`.
pub const SCENARIO_IDS: [&str; 4] = ["spawn-on-one", "io-mix", "many-tasks", "long-task"];

/// What the panel's knobs are set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub scenario: ScenarioKind,
    pub workers: u32,
    pub tasks: u32,
    /// The replay step to open at.
    pub step: u64,
}

impl Settings {
    /// The settings as URL query pairs, under the keys [`read`] reads them from.
    pub fn query(&self) -> Query {
        // The replay step is where a reader looked, not part of the run: a new recording starts at 0.
        vec![
            ("scenario", self.scenario.id().to_string()),
            (workers(1).key, self.workers.to_string()),
            (TASKS.key, self.tasks.to_string()),
        ]
    }
}

/// The worker and task ranges with `scenario`'s defaults, on `machine`.
pub fn ranges(scenario: ScenarioKind, machine: Machine) -> (ParamRange, ParamRange) {
    let (default_workers, default_tasks) = scenario.default_workers_and_tasks();
    (
        workers_for(ParamRange { default: default_workers as u64, ..workers(machine.cores) }, machine.mode),
        ParamRange { default: default_tasks as u64, ..TASKS },
    )
}

/// The workers and tasks `scenario` starts with on `machine` (what choosing it resets them to).
pub fn defaults(scenario: ScenarioKind, machine: Machine) -> (u32, u32) {
    let (workers, tasks) = ranges(scenario, machine);
    let (k, n) = scenario.default_workers_and_tasks();
    (workers.clamp(k as u64) as u32, tasks.clamp(n as u64) as u32)
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

/// The knobs, in the panel's order: the scenario first, since its defaults are the others'.
pub fn read(r: &mut dyn KnobReader, machine: Machine) -> Settings {
    let chosen = r.choice("scenario", &SCENARIO_IDS, ScenarioKind::SpawnOnOne.id());
    let scenario = ScenarioKind::ALL.into_iter().find(|k| k.id() == chosen).unwrap_or(ScenarioKind::SpawnOnOne);
    let (workers, tasks) = ranges(scenario, machine);
    Settings { scenario, workers: r.value(&workers) as u32, tasks: r.value(&tasks) as u32, step: r.value(&STEP) }
}

/// Record: `scenario` with `tasks` goroutines on `workers` workers, once.
pub fn job(scenario: ScenarioKind, workers: u32, tasks: u32) -> Job {
    Job { workload: Workload::Scenario { scenario }, variant: Variant::Goroutines, workers, tasks, repetitions: 1 }
}

/// Every scenario with the settings read, and with its own defaults (choosing another scenario
/// resets workers and tasks to its defaults).
fn every_run(r: &mut dyn KnobReader, machine: Machine, _file_bytes: u64) -> Vec<Vec<Job>> {
    let s = read(r, machine);
    let mut runs = Vec::new();
    for scenario in ScenarioKind::ALL {
        let (workers, tasks) = defaults(scenario, machine);
        runs.push(vec![job(scenario, s.workers, s.tasks)]);
        runs.push(vec![job(scenario, workers, tasks)]);
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_ids_are_the_scenarios() {
        assert_eq!(SCENARIO_IDS.to_vec(), ScenarioKind::ALL.iter().map(|k| k.id()).collect::<Vec<_>>());
    }
}
