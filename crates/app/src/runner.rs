//! The state of an experiment's run as the page shows it: running or not, progress, status, error.
//!
//! Every experiment panel owns one [`Runner`]. It sends jobs to the engine, turns the engine's events
//! into signal updates, ignores events of runs the reader has replaced, and stops its run when the
//! panel leaves the page.

use crate::components::kept;
use crate::engine_client::{self, EngineEvent, RunFailure};
use experiments::protocol::{RunId, Stage};
use experiments::{Job, Measurement};
use futures_util::StreamExt;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// How a run ended, for the status line.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Finished,
    /// `restarted`: the engine did not stop in time, so it was restarted to end the run.
    Stopped {
        restarted: bool,
    },
    Failed(RunFailure),
}

/// The engine's latest progress report of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The job concerned.
    pub job_index: usize,
    /// `None` before the engine has reported anything.
    pub stage: Option<Stage>,
    pub done: u32,
    pub total: u32,
    /// Jobs from `job_index` on that `done` and `total` count together (taking turns).
    pub jobs: u32,
}

impl Step {
    /// The step before the engine's first report.
    pub fn preparing() -> Self {
        Step { job_index: 0, stage: None, done: 0, total: 0, jobs: 1 }
    }

    /// How far a run of `job_count` jobs has come, 0.0..=1.0.
    pub fn fraction(&self, job_count: usize) -> f64 {
        let job_count = job_count.max(1) as f64;
        let within = match self.stage {
            Some(Stage::Measuring) if self.total > 0 => self.done.min(self.total) as f64 / self.total as f64,
            // Jobs timed in turns advance together: their share of the run, filled as samples are taken.
            Some(Stage::Turns) if self.total > 0 => {
                self.jobs as f64 * self.done.min(self.total) as f64 / self.total as f64
            }
            _ => 0.0,
        };
        ((self.job_index as f64 + within) / job_count).clamp(0.0, 1.0)
    }
}

thread_local! {
    /// The next runner's id.
    static NEXT_RUNNER: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

#[derive(Clone, Copy)]
pub struct Runner {
    pub running: RwSignal<bool>,
    /// 0.0..=1.0 over all jobs of the run.
    pub progress: RwSignal<f64>,
    /// What the engine is doing now, `None` between runs.
    pub current: RwSignal<Option<Step>>,
    pub outcome: RwSignal<Option<Outcome>>,
    /// How many runs have ended (finished, stopped or failed): tests wait for it to grow.
    pub ended: RwSignal<u32>,
    run_id: RwSignal<Option<RunId>>,
    /// The Workers knob whose pool the engine may start when the reader is about to run, until it
    /// has been asked once ([`Runner::about_to_run`]).
    warm: StoredValue<Option<RwSignal<u64>>>,
    /// Whether the page asked this panel to run once on load (`autorun`): its first verdict is
    /// then brought into view.
    pub autorun: StoredValue<bool>,
}

impl Runner {
    pub fn new() -> Self {
        let runner = Runner {
            running: RwSignal::new(false),
            progress: RwSignal::new(0.0),
            current: RwSignal::new(None),
            outcome: RwSignal::new(None),
            ended: RwSignal::new(0),
            run_id: RwSignal::new(None),
            warm: StoredValue::new(None),
            autorun: StoredValue::new(false),
        };
        // The page says when a run is going (the service worker's first-visit reload waits).
        let id = NEXT_RUNNER.with(|n| n.replace(n.get() + 1));
        Effect::new(move |_| kept::running(id, runner.running.get()));
        on_cleanup(move || {
            kept::running(id, false);
            if let Some(Some(run_id)) = runner.run_id.try_get_untracked() {
                engine_client::stop(run_id);
            }
        });
        runner
    }

    /// Let [`Runner::about_to_run`] start the engine and the pool of `workers` (a panel's Workers
    /// knob) ahead of the first run: only where the chapter lets the engine start before a run
    /// (`catalog::ENGINE_WITH_PAGE`).
    pub fn warm_ahead(&self, workers: RwSignal<u64>) {
        self.warm.set_value(Some(workers));
    }

    /// The reader points at or focuses the Run button: a click is likely. Start the engine and its
    /// pool workers now (`engine_client::start_early`), so that the browser starting Web Workers
    /// (tens of milliseconds each, and the engine's download and compile on a first visit) overlaps
    /// the reader's own reaction instead of the run. Once per panel; the engine ignores it after any
    /// run, when the pools it kept are warm already.
    pub fn about_to_run(&self) {
        if self.running.get_untracked() {
            return;
        }
        if let Some(workers) = self.warm.try_update_value(Option::take).flatten() {
            engine_client::start_early(workers.get_untracked() as u32);
        }
    }

    /// Measure `jobs`; `on_measured(job_index, measurement)` is called as each one completes.
    pub fn run(&self, jobs: Vec<Job>, on_measured: impl Fn(usize, Measurement) + 'static) {
        self.run_with(jobs, None, on_measured)
    }

    /// [`Runner::run`], sending `file` along for jobs that hash it.
    pub fn run_with(
        &self,
        jobs: Vec<Job>,
        file: Option<web_sys::File>,
        on_measured: impl Fn(usize, Measurement) + 'static,
    ) {
        let job_count = jobs.len();
        let started = match file {
            Some(file) => engine_client::run_with_file(jobs, file),
            None => engine_client::run(jobs),
        };
        let (run_id, mut events) = match started {
            Ok(started) => started,
            Err(failure) => {
                self.outcome.set(Some(Outcome::Failed(failure)));
                self.ended.update(|n| *n += 1);
                return;
            }
        };
        self.run_id.set(Some(run_id));
        self.running.set(true);
        self.progress.set(0.0);
        self.current.set(Some(Step::preparing()));
        self.outcome.set(None);
        let runner = *self;
        spawn_local(async move {
            while let Some(event) = events.next().await {
                // The panel may be gone, or a newer run may have replaced this one.
                if runner.run_id.try_get_untracked() != Some(Some(run_id)) {
                    return;
                }
                let finish = |outcome: Outcome| {
                    // Ended: leaving the page or pressing Stop now must not touch the engine.
                    runner.run_id.try_set(None);
                    runner.running.try_set(false);
                    runner.current.try_set(None);
                    runner.outcome.try_set(Some(outcome));
                    runner.ended.try_update(|n| *n += 1);
                };
                match event {
                    EngineEvent::Progress { job_index, stage, done, total, jobs } => {
                        let step = Step { job_index, stage: Some(stage), done, total, jobs };
                        runner.progress.try_set(step.fraction(job_count));
                        runner.current.try_set(Some(step));
                    }
                    EngineEvent::Measured { job_index, measurement } => {
                        runner.progress.try_set(((job_index + 1) as f64 / job_count.max(1) as f64).min(1.0));
                        on_measured(job_index, *measurement);
                    }
                    EngineEvent::Finished => finish(Outcome::Finished),
                    EngineEvent::Stopped { restarted } => finish(Outcome::Stopped { restarted }),
                    EngineEvent::Failed(failure) => finish(Outcome::Failed(failure)),
                }
            }
        });
    }

    pub fn stop(&self) {
        if let Some(run_id) = self.run_id.get_untracked() {
            engine_client::stop(run_id);
        }
    }
}

/// How long an autorun waits at most for the page to become idle.
const IDLE_WAIT_LIMIT_MS: u32 = 3_000;

/// Call `start` once, after the panel is on the page, the page has finished loading and the
/// browser has found the main thread idle (or after [`IDLE_WAIT_LIMIT_MS`]): a run started while
/// the page is still loading would be measured against the page's own work. With
/// `start_engine_early` (`Some(workers)`) the engine starts loading at once and then starts that
/// many pool workers, so both are ready by then.
pub fn run_on_mount(start: impl Fn() + 'static, start_engine_early: Option<u32>) {
    let start = std::rc::Rc::new(start);
    Effect::new(move |already: Option<()>| {
        if already.is_none() {
            if let Some(workers) = start_engine_early {
                engine_client::start_early(workers);
            }
            let start = start.clone();
            when_page_is_idle(move || start());
        }
    });
}

/// Call `then` after the window's `load` event and the next idle period of the main thread.
fn when_page_is_idle(then: impl FnOnce() + 'static) {
    let Some(window) = web_sys::window() else {
        then();
        return;
    };
    let idle = move || {
        let Some(window) = web_sys::window() else { return then() };
        let callback = Closure::once_into_js(move |_: JsValue| then());
        let options = web_sys::IdleRequestOptions::new();
        options.set_timeout(IDLE_WAIT_LIMIT_MS);
        if window.request_idle_callback_with_options(callback.unchecked_ref(), &options).is_err() {
            // No idle callbacks in this browser: a plain timeout instead.
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), 500);
        }
    };
    let loaded = window.document().is_some_and(|d| d.ready_state() == "complete");
    if loaded {
        idle();
    } else {
        let on_load = Closure::once_into_js(move |_: JsValue| idle());
        let options = web_sys::AddEventListenerOptions::new();
        options.set_once(true);
        let _ = window.add_event_listener_with_callback_and_add_event_listener_options(
            "load",
            on_load.unchecked_ref(),
            &options,
        );
    }
}
