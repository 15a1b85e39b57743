//! The state of an experiment's run as the page shows it: running or not, progress, status, error.
//!
//! Every experiment panel owns one [`Runner`]. It sends jobs to the engine, turns the engine's events
//! into signal updates, ignores events of runs the reader has replaced, and stops its run when the
//! panel leaves the page.

use crate::engine_client::{self, EngineEvent};
use experiments::protocol::RunId;
use experiments::{Job, Measurement};
use futures_util::StreamExt;
use leptos::prelude::*;
use leptos::task::spawn_local;

/// How a run ended, for the status line.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Finished,
    Stopped,
    Failed(String),
}

#[derive(Clone, Copy)]
pub struct Runner {
    pub running: RwSignal<bool>,
    /// 0.0..=1.0 over all jobs of the run.
    pub progress: RwSignal<f64>,
    /// Index of the job being measured and its repetitions done / total.
    pub current: RwSignal<Option<(usize, u32, u32)>>,
    pub outcome: RwSignal<Option<Outcome>>,
    /// How many runs have ended (finished, stopped or failed): tests wait for it to grow.
    pub ended: RwSignal<u32>,
    run_id: RwSignal<Option<RunId>>,
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
        };
        on_cleanup(move || {
            if let Some(Some(run_id)) = runner.run_id.try_get_untracked() {
                engine_client::stop(run_id);
            }
        });
        runner
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
        let job_count = jobs.len().max(1) as f64;
        let started = match file {
            Some(file) => engine_client::run_with_file(jobs, file),
            None => engine_client::run(jobs),
        };
        let (run_id, mut events) = match started {
            Ok(started) => started,
            Err(message) => {
                self.outcome.set(Some(Outcome::Failed(message)));
                self.ended.update(|n| *n += 1);
                return;
            }
        };
        self.run_id.set(Some(run_id));
        self.running.set(true);
        self.progress.set(0.0);
        self.current.set(Some((0, 0, 0)));
        self.outcome.set(None);
        let runner = *self;
        spawn_local(async move {
            while let Some(event) = events.next().await {
                // The panel may be gone, or a newer run may have replaced this one.
                if runner.run_id.try_get_untracked() != Some(Some(run_id)) {
                    return;
                }
                let finish = |outcome: Outcome| {
                    runner.running.try_set(false);
                    runner.current.try_set(None);
                    runner.outcome.try_set(Some(outcome));
                    runner.ended.try_update(|n| *n += 1);
                };
                match event {
                    EngineEvent::Progress { job_index, done, total } => {
                        let within = if total > 0 { done as f64 / total as f64 } else { 0.0 };
                        runner.progress.try_set((job_index as f64 + within) / job_count);
                        runner.current.try_set(Some((job_index, done, total)));
                    }
                    EngineEvent::Measured { job_index, measurement } => {
                        runner.progress.try_set((job_index + 1) as f64 / job_count);
                        on_measured(job_index, *measurement);
                    }
                    EngineEvent::Finished => finish(Outcome::Finished),
                    EngineEvent::Stopped => finish(Outcome::Stopped),
                    EngineEvent::Failed(message) => finish(Outcome::Failed(message)),
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
