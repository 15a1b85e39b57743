//! One experiment's state, made from the catalog: its knobs (read once from the address, one signal
//! each), the settings the catalog makes of them, and a run started through the runner and the
//! result log.
//!
//! A panel asks for `ExperimentState::<catalog::sum::Settings>::new(machine)` and gets the preset
//! read (clamp notes and autorun included) and a signal per knob the catalog's `read` asked for;
//! its controls bind to [`ExperimentState::knob`]s, and its buttons call [`ExperimentState::run`]
//! or [`ExperimentState::sweep`] with the jobs the catalog builds from [`ExperimentState::get`]:
//! the address takes the settings, the results log a new run with them, the progress line the
//! jobs, the runner sends them. What is left in a panel's file is what the reader sees.
//!
//! Nothing here holds a `Settings` in a signal: the knobs are plain `RwSignal<u64>` and
//! `RwSignal<&'static str>`, which every panel shares, and `get` runs the catalog's own `read` over
//! them. A signal, derived signal or setter per settings type would be code of its own in each
//! panel's chunk (measured: 4.7 KB gzip more before the task-cost chapter's Run). The work is done
//! by the runner, the log and `write_to_url`, which know nothing of any one experiment.

use super::panel::{ResultLog, RunLog};
use crate::presets::{write_to_url, Preset};
use crate::runner::{run_on_mount, Runner};
use experiments::catalog::{ExperimentSettings, KnobReader, Machine, Query, ENGINE_WITH_PAGE};
use experiments::params::{ClampNote, ParamRange};
use experiments::{Job, Measurement};
use leptos::prelude::*;
use std::marker::PhantomData;

/// One knob as the catalog read it: its key and the signal its control binds to.
#[derive(Clone)]
enum KnobSignal {
    Value(&'static str, RwSignal<u64>),
    Choice(String, RwSignal<&'static str>),
}

/// The knobs of one experiment, in the order the catalog's `read` asks for them.
type Knobs = StoredValue<Vec<KnobSignal>>;

/// The preset read once: each knob the catalog asks for becomes a signal holding what was read.
struct Recording<'a> {
    preset: &'a mut Preset,
    knobs: Vec<KnobSignal>,
}

impl KnobReader for Recording<'_> {
    fn value(&mut self, range: &ParamRange) -> u64 {
        let value = self.preset.value(range);
        self.knobs.push(KnobSignal::Value(range.key, RwSignal::new(value)));
        value
    }

    fn choice(&mut self, key: &str, options: &'static [&'static str], default: &'static str) -> &'static str {
        let chosen = self.preset.choice(key, options, default);
        self.knobs.push(KnobSignal::Choice(key.to_string(), RwSignal::new(chosen)));
        chosen
    }
}

/// The knobs as they are now, for the catalog's `read` to make settings of (tracked or not). The
/// controls keep each value in its range, so nothing is clamped again: the settings are the knobs.
struct Current<'a> {
    knobs: &'a [KnobSignal],
    tracked: bool,
}

impl KnobReader for Current<'_> {
    fn value(&mut self, range: &ParamRange) -> u64 {
        let signal = self.knobs.iter().find_map(|k| match k {
            KnobSignal::Value(key, signal) if *key == range.key => Some(*signal),
            _ => None,
        });
        signal.map_or(range.default, |s| if self.tracked { s.get() } else { s.get_untracked() })
    }

    fn choice(&mut self, key: &str, _options: &'static [&'static str], default: &'static str) -> &'static str {
        let signal = self.knobs.iter().find_map(|k| match k {
            KnobSignal::Choice(k, signal) if k == key => Some(*signal),
            _ => None,
        });
        signal.map_or(default, |s| if self.tracked { s.get() } else { s.get_untracked() })
    }
}

/// The settings `read` makes of the knobs now (generic only in what `read` returns).
fn settings_now<S>(knobs: Knobs, machine: Machine, tracked: bool, read: fn(&mut dyn KnobReader, Machine) -> S) -> S {
    knobs.with_value(|knobs| read(&mut Current { knobs, tracked }, machine))
}

/// What a panel's run is: a Run (a row per job) or a Sweep (its rows are the points of one line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunKind {
    Run,
    Sweep,
}

/// One run as a panel starts it: what kind, the address's query pairs (the settings', and any the
/// panel adds), the jobs, and a file for jobs that hash one.
pub struct Launch {
    pub kind: RunKind,
    pub query: Query,
    pub jobs: Vec<Job>,
    pub file: Option<web_sys::File>,
}

/// An experiment's knobs and what runs them; see the module's documentation.
pub struct ExperimentState<S: 'static> {
    /// The run under way, how the last one ended.
    pub runner: Runner,
    /// The results table's rows (kept in the tab; those kept before are not restored here: the
    /// panel names its rows, [`ResultLog::restore`]).
    pub log: ResultLog,
    /// The jobs of the latest run, for the progress line ([`ExperimentState::describe_job`]).
    pub jobs: RwSignal<Vec<Job>>,
    knobs: Knobs,
    machine: Machine,
    notes: StoredValue<Vec<ClampNote>>,
    autorun: bool,
    settings: PhantomData<fn() -> S>,
}

impl<S> Clone for ExperimentState<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for ExperimentState<S> {}

impl<S: ExperimentSettings> ExperimentState<S> {
    /// The knobs the address asks for on `machine` (clamped, with notes), and a fresh runner and log.
    pub fn new(machine: Machine) -> Self {
        Self::with_more(machine, |_| ()).0
    }

    /// [`ExperimentState::new`], reading `more` knobs after the catalog's (their notes go with the
    /// others); what `more` read comes back beside the state.
    pub fn with_more<T>(machine: Machine, more: impl FnOnce(&mut Preset) -> T) -> (Self, T) {
        let mut preset = Preset::from_url();
        let knobs = read_knobs(&mut preset, machine, S::read);
        let more = more(&mut preset);
        let autorun = preset.autorun(S::ID);
        let runner = Runner::new();
        if let Some(workers) = find_knob(knobs, "workers").filter(|_| ENGINE_WITH_PAGE[S::ID as usize]) {
            runner.warm_ahead(workers);
        }
        let state = ExperimentState {
            runner,
            log: ResultLog::new(S::ID),
            jobs: RwSignal::new(Vec::new()),
            knobs,
            machine,
            notes: StoredValue::new(preset.notes),
            autorun,
            settings: PhantomData,
        };
        (state, more)
    }

    /// The settings now, untracked (what a button sends).
    pub fn get(&self) -> S {
        settings_now(self.knobs, self.machine, false, S::read)
    }

    /// The settings, tracked (what a derived signal reads, e.g. a long-run note).
    pub fn track(&self) -> S {
        settings_now(self.knobs, self.machine, true, S::read)
    }

    /// Measure `jobs` as a Run with `settings` (read by the caller, who built the jobs from them).
    pub fn run(&self, settings: &S, jobs: Vec<Job>, on_measured: impl Fn(RunLog, usize, Measurement) + 'static) {
        let launch = Launch { kind: RunKind::Run, query: settings.query(), jobs, file: None };
        self.start(launch, Box::new(on_measured))
    }

    /// Measure `jobs` as a Sweep with `settings`.
    pub fn sweep(&self, settings: &S, jobs: Vec<Job>, on_measured: impl Fn(RunLog, usize, Measurement) + 'static) {
        let launch = Launch { kind: RunKind::Sweep, query: settings.query(), jobs, file: None };
        self.start(launch, Box::new(on_measured))
    }
}

/// Read the catalog's knobs from `preset` into signals (generic only in what `read` returns).
fn read_knobs<S>(preset: &mut Preset, machine: Machine, read: fn(&mut dyn KnobReader, Machine) -> S) -> Knobs {
    let mut recording = Recording { preset, knobs: Vec::new() };
    read(&mut recording, machine);
    StoredValue::new(recording.knobs)
}

impl<S: 'static> ExperimentState<S> {
    /// The numeric knob the catalog read under `range`'s key, as a control binds to it.
    pub fn knob(&self, range: &ParamRange) -> RwSignal<u64> {
        find_knob(self.knobs, range.key).expect("a knob the catalog reads")
    }

    /// [`ExperimentState::knob`], or a signal holding `value` where the catalog reads no such knob
    /// on this machine (a worker count without threads).
    pub fn knob_or(&self, range: &ParamRange, value: u64) -> RwSignal<u64> {
        find_knob(self.knobs, range.key).unwrap_or_else(|| RwSignal::new(value))
    }

    /// The choice the catalog read under `key` (a word, a scenario), as a choice binds to it.
    pub fn choice(&self, key: &str) -> RwSignal<&'static str> {
        let found = self.knobs.with_value(|knobs| {
            knobs.iter().find_map(|k| match k {
                KnobSignal::Choice(k, signal) if k == key => Some(*signal),
                _ => None,
            })
        });
        found.expect("a choice the catalog reads")
    }

    /// The clamp notes of the preset, for `ClampNotes`.
    pub fn notes(&self) -> Vec<ClampNote> {
        self.notes.get_value()
    }

    /// Begin a run: the address takes the launch's query, the log a new run or sweep with it, the
    /// progress line its jobs; the runner sends them (with the file, if any) and hands each
    /// measurement to `on_measured` with the run's log. The same code for every experiment.
    pub fn start(&self, launch: Launch, on_measured: Box<dyn Fn(RunLog, usize, Measurement)>) {
        start(self.runner, self.log, self.jobs, launch, on_measured)
    }

    /// Whether the address asks this panel to run once on load (`autorun`).
    pub fn asks_to_autorun(&self) -> bool {
        self.autorun
    }

    /// Call `start` once after mount when the address asks for it (`autorun`), starting the engine
    /// early, with the workers of the panel's Workers knob warmed ahead of the run, unless the
    /// chapter weighs the page's own memory (`catalog::ENGINE_WITH_PAGE`).
    pub fn autorun(&self, start: impl Fn() + 'static) {
        if self.autorun {
            self.runner.autorun.set_value(true);
            let early = ENGINE_WITH_PAGE[self.log.experiment as usize];
            let workers = find_knob(self.knobs, "workers").map_or(0, |k| k.get_untracked() as u32);
            run_on_mount(start, early.then_some(workers));
        }
    }

    /// Whether a run is under way (the controls are off meanwhile).
    pub fn running(&self) -> Signal<bool> {
        let runner = self.runner;
        Signal::derive(move || runner.running.get())
    }

    /// The progress line's name of the latest run's job `index`, by `describe`.
    pub fn describe_job(&self, describe: fn(&Job) -> String) -> impl Fn(usize) -> String + Send + Sync + 'static {
        let jobs = self.jobs;
        move |index| jobs.with_untracked(|jobs| jobs.get(index).map(describe).unwrap_or_default())
    }
}

/// The numeric knob read under `key`, if the catalog read one.
fn find_knob(knobs: Knobs, key: &str) -> Option<RwSignal<u64>> {
    knobs.with_value(|knobs| {
        knobs.iter().find_map(|k| match k {
            KnobSignal::Value(k, signal) if *k == key => Some(*signal),
            _ => None,
        })
    })
}

/// [`ExperimentState::start`], not generic: one copy of it serves every experiment.
fn start(
    runner: Runner,
    log: ResultLog,
    jobs_of_run: RwSignal<Vec<Job>>,
    launch: Launch,
    on_measured: Box<dyn Fn(RunLog, usize, Measurement)>,
) {
    let Launch { kind, query, jobs, file } = launch;
    let mut query = write_to_url(&query);
    // A picked file's size is no knob (not in the address) but part of the problem: its rows say it.
    if let Some(file) = &file {
        query.push((experiments::catalog::hashing::FILE_BYTES_KEY, (file.size() as u64).to_string()));
    }
    jobs_of_run.set(jobs.clone());
    let run_log = match kind {
        RunKind::Run => log.start_run(query),
        RunKind::Sweep => log.start_sweep(query),
    };
    runner.run_with(jobs, file, move |index, m| on_measured(run_log, index, m));
}
