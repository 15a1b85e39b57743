//! One experiment's state, made from the catalog: its settings (read once from the address), the
//! controls' knobs as slices of them, and a run started through the runner and the result log.
//!
//! A panel asks for `ExperimentState::<catalog::sum::Settings>::new(machine)` and gets the preset
//! read (clamp notes and autorun included) and one signal holding the settings; its controls bind to
//! [`ExperimentState::knob`]s, and its buttons call [`ExperimentState::run`] or
//! [`ExperimentState::sweep`] with the jobs the catalog builds from the settings: the address takes
//! the settings, the results log a new run with them, the progress line the jobs, the runner sends
//! them. What is left in a panel's file is what the reader sees.
//!
//! Only the thin layer here is generic over the settings; the work is done by the runner, the log
//! and `write_to_url`, which know nothing of any one experiment, so twelve settings types add
//! little code to the chapters.

use super::panel::{ResultLog, RunLog};
use crate::components::controls::Knob;
use crate::presets::{write_to_url, Preset};
use crate::runner::{run_on_mount, Runner};
use experiments::catalog::{ExperimentSettings, Machine, Query, ENGINE_WITH_PAGE};
use experiments::params::ClampNote;
use experiments::{Job, Measurement};
use leptos::prelude::*;

/// A value a numeric control can show: the controls work in `u64`, the settings in their own width.
pub trait KnobValue: Copy + Send + Sync + 'static {
    fn to_knob(self) -> u64;
    fn from_knob(value: u64) -> Self;
}

impl KnobValue for u32 {
    fn to_knob(self) -> u64 {
        self as u64
    }

    fn from_knob(value: u64) -> Self {
        value as u32
    }
}

impl KnobValue for u64 {
    fn to_knob(self) -> u64 {
        self
    }

    fn from_knob(value: u64) -> Self {
        value
    }
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

/// An experiment's settings and what runs them; see the module's documentation.
pub struct ExperimentState<S: 'static> {
    /// What the controls show and the next run takes.
    pub settings: RwSignal<S>,
    /// The run under way, how the last one ended.
    pub runner: Runner,
    /// The results table's rows (kept in the tab; those kept before are not restored here: the
    /// panel names its rows, [`ResultLog::restore`]).
    pub log: ResultLog,
    /// The jobs of the latest run, for the progress line ([`ExperimentState::describe_job`]).
    pub jobs: RwSignal<Vec<Job>>,
    notes: StoredValue<Vec<ClampNote>>,
    autorun: bool,
}

impl<S> Clone for ExperimentState<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for ExperimentState<S> {}

impl<S: ExperimentSettings> ExperimentState<S> {
    /// The settings the address asks for on `machine` (clamped, with notes), and a fresh runner and log.
    pub fn new(machine: Machine) -> Self {
        Self::with_more(machine, |_| ()).0
    }

    /// [`ExperimentState::new`], reading `more` knobs after the catalog's (their notes go with the
    /// others); what `more` read comes back beside the state.
    pub fn with_more<T>(machine: Machine, more: impl FnOnce(&mut Preset) -> T) -> (Self, T) {
        let mut preset = Preset::from_url();
        let settings = S::read(&mut preset, machine);
        let more = more(&mut preset);
        let autorun = preset.autorun(S::ID);
        let state = ExperimentState {
            settings: RwSignal::new(settings),
            runner: Runner::new(),
            log: ResultLog::new(S::ID),
            jobs: RwSignal::new(Vec::new()),
            notes: StoredValue::new(preset.notes),
            autorun,
        };
        (state, more)
    }

    /// The settings now, untracked (what a button sends).
    pub fn get(&self) -> S {
        self.settings.get_untracked()
    }

    /// The settings, tracked (what a derived signal reads, e.g. a long-run note).
    pub fn track(&self) -> S {
        self.settings.get()
    }

    /// One numeric knob of the settings, as a control binds to it: `field` names it (`|s| &mut s.workers`).
    pub fn knob<V: KnobValue>(&self, field: fn(&mut S) -> &mut V) -> Knob {
        let settings = self.settings;
        Knob::new(
            Signal::derive(move || settings.with(|s| field(&mut { *s }).to_knob())),
            SignalSetter::map(move |value| settings.update(|s| *field(s) = V::from_knob(value))),
        )
    }

    /// One knob of any other kind (a word, a scenario), as a choice binds to it.
    pub fn choice<V: Clone + Send + Sync + 'static>(&self, field: fn(&mut S) -> &mut V) -> Knob<V> {
        let settings = self.settings;
        Knob::new(
            Signal::derive(move || settings.with(|s| field(&mut { *s }).clone())),
            SignalSetter::map(move |value| settings.update(|s| *field(s) = value)),
        )
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

    /// The clamp notes of the preset, for `ClampNotes`.
    pub fn notes(&self) -> Vec<ClampNote> {
        self.notes.get_value()
    }
}

impl<S: 'static> ExperimentState<S> {
    /// Begin a run: the address takes the launch's query, the log a new run or sweep with it, the
    /// progress line its jobs; the runner sends them (with the file, if any) and hands each
    /// measurement to `on_measured` with the run's log. The same code for every experiment.
    pub fn start(&self, launch: Launch, on_measured: Box<dyn Fn(RunLog, usize, Measurement)>) {
        start(self.runner, self.log, self.jobs, launch, on_measured)
    }

    /// Call `start` once after mount when the address asks for it (`autorun`), starting the engine
    /// early unless the chapter weighs the page's own memory (`catalog::ENGINE_WITH_PAGE`).
    pub fn autorun(&self, start: impl Fn() + 'static) {
        if self.autorun {
            run_on_mount(start, ENGINE_WITH_PAGE[self.log.experiment as usize]);
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

/// [`ExperimentState::start`], not generic: one copy of it serves every experiment.
fn start(
    runner: Runner,
    log: ResultLog,
    jobs_of_run: RwSignal<Vec<Job>>,
    launch: Launch,
    on_measured: Box<dyn Fn(RunLog, usize, Measurement)>,
) {
    let Launch { kind, query, jobs, file } = launch;
    let query = write_to_url(&query);
    jobs_of_run.set(jobs.clone());
    let run_log = match kind {
        RunKind::Run => log.start_run(query),
        RunKind::Sweep => log.start_sweep(query),
    };
    runner.run_with(jobs, file, move |index, m| on_measured(run_log, index, m));
}
