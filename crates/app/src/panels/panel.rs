//! Pieces every experiment panel shares: the frame (heading, the engine check, the machine line),
//! the action buttons, the progress line, the results log.

use crate::components::code_view::CodeView;
use crate::components::kept;
use crate::components::later::Later;
use crate::components::machine::MachineLine;
use crate::components::results::{ResultRow, RunContext, Timing};
use crate::components::unavailable::{browser_lacks_shared_memory, ModeBanner, UnavailableNotice};
use crate::engine_client::{self, RunFailure};
use crate::environment::machine;
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use crate::runner::{Outcome, Runner, Step};
use experiments::catalog::ExperimentId;
use experiments::catalog::{Machine, Mode, Query, Runs};
use experiments::duration::LONG_RUN_MS;
use experiments::protocol::Stage;
use experiments::stats::speedup;
use experiments::{Measurement, Variant};
use leptos::prelude::*;
use std::sync::Arc;

/// The frame of every experiment panel: a section named by `data-experiment`, its heading, then
/// what the engine allows here (a notice where it cannot run at all; where it runs without shared
/// memory, a banner saying how; where the catalog says this experiment cannot run in that mode,
/// `cannot_run_text`), the panel's `controls` given the machine, the articles' figures
/// (`children`) and the machine line. A model the page runs itself shows only its controls.
#[component]
pub fn ExperimentFrame(
    experiment: ExperimentId,
    title: &'static str,
    controls: fn(Machine) -> AnyView,
    /// Said instead of the controls where the catalog says the experiment cannot run.
    #[prop(optional)]
    cannot_run_text: &'static str,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let entry = experiment.experiment();
    let environment = machine();
    let on_page = entry.runs == Runs::Page;
    let body = match engine_client::availability() {
        // A model the page runs itself needs no engine, and the reader's machine plays no part.
        _ if on_page => controls(Machine { cores: environment.logical_processors, mode: Mode::SingleWorker }),
        Err(reason) => view! { <UnavailableNotice reason /> }.into_any(),
        Ok(mode) if !entry.runs_in(mode) => view! {
            <ModeBanner mode />
            <p class="notice" data-testid=format!("{experiment}-needs-threads")>
                {if browser_lacks_shared_memory() { ui().needs_threads_no_shared_memory } else { cannot_run_text }}
            </p>
        }
        .into_any(),
        Ok(mode) => {
            let by_messages = entry.message_workers;
            let machine = Machine { cores: environment.logical_processors, mode };
            view! { <ModeBanner mode by_messages />{controls(machine)} }.into_any()
        }
    };
    let title_id = format!("{experiment}-title");
    let labelled_by = title_id.clone();
    view! {
        <section class="experiment" aria-labelledby=labelled_by data-experiment=experiment.slug()>
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

/// Before Run, when the settings ask for a run longer than [`LONG_RUN_MS`] at the least
/// (`at_least_ms`, from [`experiments::duration::run_takes_at_least_ms`] of the jobs Run would
/// send): how long at the least, and that Stop ends it; the same for the panel's sweep
/// (`sweep_at_least_ms`, of the jobs Sweep would send), if it has one. Nothing while shorter.
#[component]
pub fn LongRunNote(
    #[prop(into)] at_least_ms: Signal<f64>,
    #[prop(optional, into)] sweep_at_least_ms: Option<Signal<f64>>,
) -> impl IntoView {
    let t = ui();
    move || {
        let lines = [(Some(at_least_ms), t.long_run, "long-run"), (sweep_at_least_ms, t.long_sweep, "long-sweep")];
        let long = lines.into_iter().filter_map(|(ms, template, testid)| {
            let ms = ms?.get();
            (ms > LONG_RUN_MS).then_some((ms, template, testid))
        });
        long.map(|(ms, template, testid)| {
            let seconds = (ms / 1_000.0).ceil() as u64;
            let duration = if seconds < 120 {
                message(t.seconds_forms, &[("n", Arg::Count(seconds))])
            } else {
                message(t.minutes_forms, &[("n", Arg::Count(seconds.div_ceil(60)))])
            };
            view! {
                <p class="long-run" data-testid=testid data-at-least-ms=ms.round()>
                    {fill(template, &[("duration", &duration)])}
                </p>
            }
        })
        .collect_view()
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
    // Buttons that cannot act now say so with `aria-disabled` rather than `disabled`: a disabled
    // button drops the keyboard focus (to the page's body) the moment the run starts or ends, and a
    // keyboard user would have to find their place again. A click on one does nothing.
    let unavailable = |off: bool| if off { "true" } else { "false" };
    let refuse_while = move |off: bool, ev: leptos::ev::MouseEvent| {
        if off {
            ev.prevent_default();
        }
    };
    let clear_off = move || running() || log.is_some_and(|log| log.rows.with(Vec::is_empty));
    view! {
        <div class="actions">
            <button
                type="submit"
                class="primary"
                aria-disabled=move || unavailable(running())
                on:pointerenter=move |_| runner.about_to_run()
                on:focus=move |_| runner.about_to_run()
                on:click=move |ev| refuse_while(running(), ev)
            >
                {run_label}
            </button>
            {second.map(|(label, action)| {
                let off = move || running() || second_disabled.get();
                view! {
                    <button
                        type="button"
                        aria-disabled=move || unavailable(off())
                        on:click=move |_| {
                            if !off() {
                                action.run(());
                            }
                        }
                    >
                        {label}
                    </button>
                }
            })}
            {stoppable.then(|| view! {
                <button
                    type="button"
                    aria-disabled=move || unavailable(!running())
                    on:click=move |_| {
                        if running() {
                            runner.stop();
                        }
                    }
                >
                    {t.stop}
                </button>
            })}
            {log.map(|log| view! {
                <button
                    type="button"
                    aria-disabled=move || unavailable(clear_off())
                    on:click=move |_| {
                        if !clear_off() {
                            log.clear();
                        }
                    }
                >
                    {t.clear}
                </button>
            })}
        </div>
    }
}

/// How far each job's timed stages got in the current run, and which jobs the engine started over:
/// it measures a disturbed job again from its first repetition, and the count must not silently go
/// back, so the status line says it is measuring again.
#[derive(Clone, Debug, Default, PartialEq)]
struct RunProgress {
    /// (job index, stage, the furthest `done` seen).
    reached: Vec<(usize, Stage, u32)>,
    /// Jobs whose count went back.
    again: Vec<usize>,
}

impl RunProgress {
    /// Take in `step`; returns whether its job is being measured again. A step without a stage
    /// (a run getting ready) starts a new run's record.
    fn see(&mut self, step: &Step) -> bool {
        let Some(stage) = step.stage else {
            *self = RunProgress::default();
            return false;
        };
        match self.reached.iter_mut().find(|(job, seen, _)| *job == step.job_index && *seen == stage) {
            Some((_, _, furthest)) => {
                if step.done < *furthest && !self.again.contains(&step.job_index) {
                    self.again.push(step.job_index);
                }
                *furthest = (*furthest).max(step.done);
            }
            None => self.reached.push((step.job_index, stage, step.done)),
        }
        self.again.contains(&step.job_index)
    }
}

/// Progress bar and status line of a runner. `describe(job_index)` names the job being measured.
#[component]
pub fn RunStatus(runner: Runner, describe: impl Fn(usize) -> String + Send + Sync + 'static) -> impl IntoView {
    let t = ui();
    let describe = StoredValue::new(describe);
    let what = move |index: usize| describe.with_value(|d| d(index));
    let seen = StoredValue::new(RunProgress::default());
    let progress_text = move || {
        let Some(step) = runner.current.get() else { return String::new() };
        let mut again = false;
        seen.update_value(|seen| again = seen.see(&step));
        let (done, total) = (format::int(step.done as u64), format::int(step.total as u64));
        let what = what(step.job_index);
        let status = match step.stage {
            None => fill(t.status_preparing, &[("what", &what)]),
            Some(Stage::Starting) => fill(t.status_starting, &[("done", &done), ("total", &total)]),
            Some(Stage::Settling) => fill(t.status_settling, &[("what", &what)]),
            Some(Stage::Measuring) => fill(t.status_measuring, &[("what", &what), ("done", &done), ("total", &total)]),
            Some(Stage::Turns) => message(
                t.status_turns,
                &[("jobs", Arg::Count(step.jobs as u64)), ("done", Arg::Text(&done)), ("total", Arg::Text(&total))],
            ),
        };
        if again {
            format!("{} {status}", t.status_again)
        } else {
            status
        }
    };
    let announce = move || {
        runner
            .current
            .with(|step| step.as_ref().filter(|step| step.stage.is_some()).map(|step| step.job_index))
            .map(|job| fill(t.status_announce, &[("what", &what(job))]))
            .unwrap_or_default()
    };
    let status_box = NodeRef::<leptos::html::Div>::new();
    // A page opened with `autorun=1` shows its verdict when the first run ends, unless the reader has
    // scrolled away meanwhile (then they are reading something else, and the page stays put).
    Effect::new(move |ended_before: Option<u32>| {
        let ended = runner.ended.get();
        if ended_before == Some(0) && ended == 1 && runner.autorun.get_value() {
            if let Some(status) = status_box.get_untracked() {
                show_results_of_autorun(&status);
            }
        }
        ended
    });
    let outcome_text = move || outcome_words(runner.outcome.get(), runner.running.get());
    let kind = move || outcome_kind(runner.outcome.get(), runner.running.get());
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
    view! {
        <div class="run-status" node_ref=status_box>
            <Show when=move || runner.running.get()>
                <progress
                    max="1"
                    value=move || runner.progress.get().to_string()
                    aria-label=t.progress_label
                    aria-valuetext=move || format::percent(runner.progress.get())
                ></progress>
                <span class="progress-text">{progress_text}</span>
                // Screen readers hear which job is being measured as each one starts (not every
                // repetition's count, which would chatter).
                <span class="visually-hidden" aria-live="polite" data-testid="progress-announce">{announce}</span>
            </Show>
            <p
                role="status"
                class="outcome"
                data-testid="outcome"
                data-outcome=kind
                data-runs-ended=move || runner.ended.get()
            >
                {outcome_text}
            </p>
            {failure_detail}
            {engine_workers(runner)}
        </div>
    }
}

/// The outcome of the last run in words.
fn outcome_words(outcome: Option<Outcome>, running: bool) -> String {
    let t = ui();
    match outcome {
        Some(Outcome::Finished) => t.status_finished.to_string(),
        Some(Outcome::Stopped { restarted: false }) => t.status_stopped.to_string(),
        Some(Outcome::Stopped { restarted: true }) => t.status_stopped_restarted.to_string(),
        Some(Outcome::Failed(failure)) => fill(t.status_failed, &[("message", &failure.message)]),
        None if running => String::new(),
        None => t.status_idle.to_string(),
    }
}

/// The outcome's kind, as `data-outcome` names it for the tests.
fn outcome_kind(outcome: Option<Outcome>, running: bool) -> &'static str {
    match outcome {
        Some(Outcome::Finished) => "finished",
        Some(Outcome::Stopped { .. }) => "stopped",
        Some(Outcome::Failed(_)) => "failed",
        None if running => "running",
        None => "idle",
    }
}

/// Bring the results of the panel holding `status` into view after its autorun, if the reader has not
/// scrolled since the page opened and the page is not embedded. An instant jump, never an animation.
fn show_results_of_autorun(status: &web_sys::Element) {
    let Some(window) = web_sys::window() else { return };
    // Inside a course page's frame, never: the jump would scroll the course page too.
    let framed = window
        .top()
        .ok()
        .flatten()
        .is_some_and(|top| wasm_bindgen::JsValue::from(top) != wasm_bindgen::JsValue::from(window.clone()));
    let unscrolled = !framed && window.scroll_y().is_ok_and(|y| y < 1.0);
    let found = status.closest("section").ok().flatten().and_then(|panel| {
        panel.query_selector("[data-testid=\"results-found\"]:not(:empty), table.results").ok().flatten()
    });
    if let (true, Some(found)) = (unscrolled, found) {
        found.scroll_into_view_with_bool(true);
    }
}

/// After each run, how many engine workers are alive (pools end their workers). The figures ride
/// along as data attributes, for the soak test.
fn engine_workers(runner: Runner) -> impl IntoView {
    let t = ui();
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
    // What the engine holds is for a bug report or the soak test, not the lesson: folded away.
    view! {
    <details class="diagnostics" data-testid="diagnostics" hidden=move || engine_status.with(Option::is_none)>
    <summary>{t.diagnostics_summary}</summary>
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
    </details>
    }
}

/// The rows of an experiment's results table, numbered by run, with each row's speedup over its
/// run's baseline (usually the sequential measurement), and each run's settings and circumstances.
#[derive(Clone, Copy)]
pub struct ResultLog {
    pub rows: RwSignal<Vec<ResultRow>>,
    /// The catalog's name of the experiment.
    pub experiment: ExperimentId,
    runs: StoredValue<u32>,
    next_key: StoredValue<u64>,
}

impl ResultLog {
    /// An empty log of `experiment`'s results. Its rows say what the page would lose by leaving
    /// (`components::kept`); call [`ResultLog::restore`] to bring back the rows this tab kept.
    pub fn new(experiment: ExperimentId) -> Self {
        let rows = RwSignal::new(Vec::<ResultRow>::new());
        Effect::new(move |_| kept::rows(experiment, rows.with(Vec::len)));
        on_cleanup(move || kept::left(experiment));
        ResultLog { rows, experiment, runs: StoredValue::new(0), next_key: StoredValue::new(0) }
    }

    /// Add again the rows this tab kept of the experiment (before the reader moved to another
    /// chapter, switched the language or reloaded), each variant described by `describe` (given
    /// the measurement and whether it was its run's baseline) as the panel names it now: its kind
    /// and its words.
    pub fn restore(&self, describe: &dyn Fn(&Measurement, bool) -> (&'static str, String)) {
        let mut current: Option<RunLog> = None;
        for row in kept::kept(self.experiment) {
            let Some(context) = row.context.context(self.experiment) else { continue };
            if current.is_none_or(|run| run.run != row.run) {
                self.runs.update_value(|r| *r = (*r).max(row.run));
                current = Some(RunLog {
                    log: *self,
                    run: row.run,
                    sweep: row.sweep,
                    baseline: StoredValue::new(None),
                    baseline_doubted: StoredValue::new(false),
                    context: StoredValue::new(Arc::new(context)),
                    restoring: true,
                });
            }
            if let Some(run) = current {
                let (kind, variant) = describe(&row.measurement, row.baseline);
                run.add(&row.measurement, kind, variant, row.baseline);
            }
        }
    }

    /// Remove every row, here and in the tab's copy.
    pub fn clear(&self) {
        self.rows.set(Vec::new());
        kept::forget(self.experiment);
    }

    /// Begin a new run with `settings` (the panel's query pairs): its rows get the next run number,
    /// their own baseline, and those settings.
    pub fn start_run(&self, settings: Query) -> RunLog {
        self.start(false, settings)
    }

    /// Begin a sweep: a run whose rows are its points, marked as a sweep in the table and downloads.
    pub fn start_sweep(&self, settings: Query) -> RunLog {
        self.start(true, settings)
    }

    fn start(&self, sweep: bool, settings: Query) -> RunLog {
        self.runs.update_value(|r| *r += 1);
        let context = Arc::new(RunContext::now(self.experiment, settings));
        RunLog {
            log: *self,
            run: self.runs.get_value(),
            sweep,
            baseline: StoredValue::new(None),
            baseline_doubted: StoredValue::new(false),
            context: StoredValue::new(context),
            restoring: false,
        }
    }
}

/// One run's part of a [`ResultLog`].
#[derive(Clone, Copy)]
pub struct RunLog {
    log: ResultLog,
    run: u32,
    sweep: bool,
    baseline: StoredValue<Option<Measurement>>,
    baseline_doubted: StoredValue<bool>,
    context: StoredValue<Arc<RunContext>>,
    /// Rows added back from the tab's copy are not copied again.
    restoring: bool,
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
        let cores = crate::environment::machine().logical_processors;
        let mut doubts = experiments::trust::doubts(m, cores);
        doubts.extend(experiments::trust::barrier_note(m));
        if baseline {
            self.baseline.set_value(Some(m.clone()));
            self.baseline_doubted.set_value(doubts.iter().any(|d| d.warns()));
        }
        let (speedup, speedup_range) = self.baseline.with_value(|base| match base {
            Some(base) => {
                if !baseline {
                    doubts.extend(experiments::trust::speedup_doubt(base, m, cores));
                }
                let paired = (base.interleaved && m.interleaved && !baseline)
                    .then(|| experiments::stats::paired_ratios(&base.samples_ms, &m.samples_ms))
                    .flatten()
                    .map(|ratios| experiments::stats::low_high(&ratios));
                (Some(speedup(&base.summary, &m.summary)), paired)
            }
            None => (None, None),
        });
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
            context: self.context.get_value(),
            timing: Timing {
                baseline,
                samples_ms: m.samples_ms.clone(),
                passes: m.passes_range(),
                interleaved: m.interleaved,
                speedup_range,
                first_attempt: m.first_attempt.clone(),
            },
        };
        if !self.restoring {
            kept::keep(self.log.experiment, self.run, self.sweep, baseline, m, &row.context);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn step(job_index: usize, stage: Option<Stage>, done: u32) -> Step {
        Step { job_index, stage, done, total: 10, jobs: 2 }
    }

    #[test]
    fn a_count_that_goes_back_is_said_as_measuring_again_until_the_next_run() {
        let mut progress = RunProgress::default();
        assert!(!progress.see(&step(0, None, 0)));
        assert!(!progress.see(&step(0, Some(Stage::Settling), 0)));
        for done in [1, 5, 10] {
            assert!(!progress.see(&step(0, Some(Stage::Turns), done)), "counting up at {done}");
        }
        // The engine sets the first attempt aside and starts over: the count goes back.
        assert!(progress.see(&step(0, Some(Stage::Turns), 2)));
        // Still the second attempt, counting up again.
        assert!(progress.see(&step(0, Some(Stage::Turns), 6)));
        // The next group of jobs is measured once.
        assert!(!progress.see(&step(2, Some(Stage::Settling), 0)));
        assert!(!progress.see(&step(2, Some(Stage::Turns), 3)));
        // A new run starts its record afresh.
        assert!(!progress.see(&step(0, None, 0)));
        assert!(!progress.see(&step(0, Some(Stage::Turns), 1)));
    }
}
