//! Pieces every experiment panel shares: the frame (heading, the engine check, the machine line),
//! the action buttons, the progress line, the results log.

use crate::components::code_view::CodeView;
use crate::components::later::Later;
use crate::components::machine::MachineLine;
use crate::components::results::ResultRow;
use crate::components::unavailable::{ModeBanner, UnavailableNotice};
use crate::engine_client::{self, RunFailure};
use crate::environment::machine;
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use crate::runner::{Outcome, Runner};
use experiments::catalog::{self, Machine, Mode, Runs};
use experiments::protocol::Stage;
use experiments::stats::speedup;
use experiments::{Measurement, Summary, Variant};
use leptos::prelude::*;

/// The frame of every experiment panel: a section named by `data-experiment`, its heading, then
/// what the engine allows here (a notice where it cannot run at all; where it runs without shared
/// memory, a banner saying how; where the catalog says this experiment cannot run in that mode,
/// `cannot_run_text`), the panel's `controls` given the machine, the articles' figures
/// (`children`) and the machine line. A model the page runs itself shows only its controls.
#[component]
pub fn ExperimentFrame(
    /// The catalog's name of the experiment.
    experiment: &'static str,
    title: &'static str,
    controls: fn(Machine) -> AnyView,
    /// Said instead of the controls where the catalog says the experiment cannot run.
    #[prop(optional)]
    cannot_run_text: &'static str,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let entry = catalog::find(experiment);
    let environment = machine();
    let on_page = entry.is_some_and(|e| e.runs == Runs::Page);
    let body = match engine_client::availability() {
        // A model the page runs itself needs no engine, and the reader's machine plays no part.
        _ if on_page => controls(Machine { cores: environment.logical_processors, mode: Mode::SingleWorker }),
        Err(reason) => view! { <UnavailableNotice reason /> }.into_any(),
        Ok(mode) if entry.is_some_and(|e| !e.runs_in(mode)) => view! {
            <ModeBanner mode />
            <p class="notice" data-testid=format!("{experiment}-needs-threads")>{cannot_run_text}</p>
        }
        .into_any(),
        Ok(mode) => {
            let by_messages = entry.is_some_and(|e| e.message_workers);
            let machine = Machine { cores: environment.logical_processors, mode };
            view! { <ModeBanner mode by_messages />{controls(machine)} }.into_any()
        }
    };
    let title_id = format!("{experiment}-title");
    let labelled_by = title_id.clone();
    view! {
        <section class="experiment" aria-labelledby=labelled_by data-experiment=experiment>
            <h2 id=title_id>{title}</h2>
            {body}
            // What follows the controls is built in a task of its own (issue 15: no task over 50 ms).
            <Later>
                {children.map(|children| children())}
                <CodeView experiment />
                {(!on_page).then(|| view! { <MachineLine machine=environment /> })}
            </Later>
        </section>
    }
}

/// The action buttons of a panel's form: its primary action (the form's submit button, `run_label`),
/// an optional `second` action (label and what it does; also off while `second_disabled`), Stop while
/// a run is under way (unless `stoppable` is false), and Clear results when the panel keeps a `log`.
#[component]
pub fn RunButtons(
    runner: Runner,
    run_label: &'static str,
    #[prop(optional)] second: Option<(&'static str, Callback<()>)>,
    #[prop(optional, into)] second_disabled: Signal<bool>,
    #[prop(default = true)] stoppable: bool,
    #[prop(optional)] log: Option<ResultLog>,
) -> impl IntoView {
    let t = ui();
    let running = move || runner.running.get();
    view! {
        <div class="actions">
            <button type="submit" class="primary" disabled=running>{run_label}</button>
            {second.map(|(label, action)| view! {
                <button type="button" disabled=move || running() || second_disabled.get() on:click=move |_| action.run(())>
                    {label}
                </button>
            })}
            {stoppable.then(|| view! {
                <button type="button" disabled=move || !running() on:click=move |_| runner.stop()>{t.stop}</button>
            })}
            {log.map(|log| view! {
                <button type="button" disabled=move || running() || log.rows.with(Vec::is_empty) on:click=move |_| log.rows.set(Vec::new())>
                    {t.clear}
                </button>
            })}
        </div>
    }
}

/// Progress bar and status line of a runner. `describe(job_index)` names the job being measured.
#[component]
pub fn RunStatus(runner: Runner, describe: impl Fn(usize) -> String + Send + Sync + 'static) -> impl IntoView {
    let t = ui();
    let describe = StoredValue::new(describe);
    let what = move |index: usize| describe.with_value(|d| d(index));
    let progress_text = move || {
        let Some(step) = runner.current.get() else { return String::new() };
        let (done, total) = (format::int(step.done as u64), format::int(step.total as u64));
        let what = what(step.job_index);
        match step.stage {
            None => fill(t.status_preparing, &[("what", &what)]),
            Some(Stage::Starting) => fill(t.status_starting, &[("done", &done), ("total", &total)]),
            Some(Stage::Settling) => fill(t.status_settling, &[("what", &what)]),
            Some(Stage::Measuring) => fill(t.status_measuring, &[("what", &what), ("done", &done), ("total", &total)]),
        }
    };
    let outcome_text = move || match runner.outcome.get() {
        Some(Outcome::Finished) => t.status_finished.to_string(),
        Some(Outcome::Stopped { restarted: false }) => t.status_stopped.to_string(),
        Some(Outcome::Stopped { restarted: true }) => t.status_stopped_restarted.to_string(),
        Some(Outcome::Failed(failure)) => fill(t.status_failed, &[("message", &failure.message)]),
        None if runner.running.get() => String::new(),
        None => t.status_idle.to_string(),
    };
    let outcome_kind = move || match runner.outcome.get() {
        Some(Outcome::Finished) => "finished",
        Some(Outcome::Stopped { .. }) => "stopped",
        Some(Outcome::Failed(_)) => "failed",
        None if runner.running.get() => "running",
        None => "idle",
    };
    // The engine's or the browser's own words, for a bug report: technical, and usually English.
    let failure_detail = move || match runner.outcome.get() {
        Some(Outcome::Failed(RunFailure { detail: Some(detail), .. })) => Some(view! {
            <details class="failure-detail" data-testid="failure-detail">
                <summary>{t.failure_detail_summary}</summary>
                <code lang="en">{detail}</code>
            </details>
        }),
        _ => None,
    };
    // After each run, show how many engine workers are alive (pools end their workers).
    // The figures ride along as data attributes, for the soak test.
    let engine_status = RwSignal::new(None::<engine_client::EngineStatus>);
    let workers_line = move || {
        engine_status.get().map_or(String::new(), |s| {
            let template = if s.parked_workers > 0 { t.engine_workers_parked_line } else { t.engine_workers_line };
            message(
                template,
                &[
                    ("live", Arg::Count(s.live_workers as u64)),
                    ("pool", Arg::Count(s.pool_workers as u64)),
                    ("parked", Arg::Count(s.parked_workers as u64)),
                ],
            )
        })
    };
    Effect::new(move |_| {
        if !runner.running.get() && runner.outcome.with(Option::is_some) {
            leptos::task::spawn_local(async move {
                if let Some(status) = engine_client::status().await {
                    engine_status.try_set(Some(status));
                }
            });
        }
    });
    view! {
        <div class="run-status">
            <Show when=move || runner.running.get()>
                <progress
                    max="1"
                    value=move || runner.progress.get().to_string()
                    aria-label=t.progress_label
                    aria-valuetext=move || format::percent(runner.progress.get())
                ></progress>
                <span class="progress-text">{progress_text}</span>
            </Show>
            <p
                role="status"
                class="outcome"
                data-testid="outcome"
                data-outcome=outcome_kind
                data-runs-ended=move || runner.ended.get()
            >
                {outcome_text}
            </p>
            {failure_detail}
            <p
                class="engine-workers"
                data-testid="engine-workers"
                data-live=move || engine_status.get().map(|s| s.live_workers)
                data-pool=move || engine_status.get().map(|s| s.pool_workers)
                data-parked=move || engine_status.get().map(|s| s.parked_workers)
                data-heap-bytes=move || engine_status.get().map(|s| s.heap_bytes)
                data-memory-bytes=move || engine_status.get().map(|s| s.memory_bytes)
            >
                {workers_line}
            </p>
        </div>
    }
}

/// The rows of an experiment's results table, numbered by run, with each row's speedup over its
/// run's baseline (usually the sequential measurement).
#[derive(Clone, Copy)]
pub struct ResultLog {
    pub rows: RwSignal<Vec<ResultRow>>,
    runs: StoredValue<u32>,
    next_key: StoredValue<u64>,
}

impl Default for ResultLog {
    fn default() -> Self {
        Self::new()
    }
}

impl ResultLog {
    pub fn new() -> Self {
        ResultLog { rows: RwSignal::new(Vec::new()), runs: StoredValue::new(0), next_key: StoredValue::new(0) }
    }

    /// Begin a new run: its rows get the next run number and their own baseline.
    pub fn start_run(&self) -> RunLog {
        self.start(false)
    }

    /// Begin a sweep: a run whose rows are its points, marked as a sweep in the table and downloads.
    pub fn start_sweep(&self) -> RunLog {
        self.start(true)
    }

    fn start(&self, sweep: bool) -> RunLog {
        self.runs.update_value(|r| *r += 1);
        RunLog {
            log: *self,
            run: self.runs.get_value(),
            sweep,
            baseline: StoredValue::new(None),
            baseline_doubted: StoredValue::new(false),
        }
    }
}

/// One run's part of a [`ResultLog`].
#[derive(Clone, Copy)]
pub struct RunLog {
    log: ResultLog,
    run: u32,
    sweep: bool,
    baseline: StoredValue<Option<Summary>>,
    baseline_doubted: StoredValue<bool>,
}

impl RunLog {
    /// The run as the reader names it: "Run 2" or "Sweep 3".
    pub fn label(&self) -> String {
        let t = ui();
        fill(if self.sweep { t.sweep_label } else { t.run_label }, &[("n", &format::int(self.run as u64))])
    }

    /// Add a row for `m`; a `baseline` row becomes the reference for the speedups that follow.
    /// Returns the row's speedup.
    pub fn add(&self, m: &Measurement, kind: &'static str, variant: String, baseline: bool) -> Option<f64> {
        let doubts = experiments::trust::doubts(m, crate::environment::machine().logical_processors);
        if baseline {
            self.baseline.set_value(Some(m.summary));
            self.baseline_doubted.set_value(!doubts.is_empty());
        }
        let speedup = self.baseline.get_value().map(|b| speedup(&b, &m.summary));
        self.log.next_key.update_value(|k| *k += 1);
        let row = ResultRow {
            key: self.log.next_key.get_value(),
            run: self.run,
            sweep: self.sweep,
            kind,
            variant,
            workers: if m.job.variant == Variant::Sequential { 1 } else { m.job.workers },
            tasks: m.job.tasks,
            summary: m.summary,
            speedup,
            check: m.check.clone(),
            doubtful_baseline: !baseline && self.baseline_doubted.get_value(),
            doubts,
            startup: m.startup,
        };
        self.log.rows.update(|rows| rows.push(row));
        speedup
    }
}

/// The stable id of a variant, for `data-variant` attributes.
pub fn variant_id(variant: Variant) -> &'static str {
    match variant {
        Variant::Sequential => "sequential",
        Variant::ThreadPool => "tasks",
        Variant::Goroutines => "goroutines",
    }
}
