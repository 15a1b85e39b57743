//! The Go scheduler chapter: run a scheduling scenario on the engine's M:N task runtime, record
//! every step, and replay it: local queues, the global queue, parked tasks, steals.

use super::panel::{ExperimentFrame, RunButtons, RunStatus};
use super::state::ExperimentState;
use crate::components::compare::{CompareResults, Compared};
use crate::components::controls::Slider;
use crate::components::later::Later;
use crate::components::notes::ClampNotes;
use crate::components::predict;
use crate::components::replay::Replay;
use crate::components::results::ResultRow;
use crate::components::share::ShareBar;
use crate::components::split_view::{LaterCode, SplitBuilt};
use crate::components::timeline::Timeline;
use crate::environment::prefers_reduced_motion;
use crate::i18n::{fill, message, ui, Arg};
use experiments::catalog::go_scheduler as limits;
use experiments::catalog::go_scheduler::{self, Settings};
use experiments::catalog::ExperimentId;
use experiments::catalog::Machine;
use experiments::replay::replay;
use experiments::{Measurement, ScenarioKind, SchedulerEvent, Workload};
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

fn name(kind: ScenarioKind) -> &'static str {
    let t = ui();
    match kind {
        ScenarioKind::SpawnOnOne => t.scenario_spawn_on_one,
        ScenarioKind::IoMix => t.scenario_io_mix,
        ScenarioKind::ManyTasks => t.scenario_many_tasks,
        ScenarioKind::LongTask => t.scenario_long_task,
    }
}

fn help(kind: ScenarioKind) -> &'static str {
    let t = ui();
    match kind {
        ScenarioKind::SpawnOnOne => t.scenario_spawn_on_one_help,
        ScenarioKind::IoMix => t.scenario_io_mix_help,
        ScenarioKind::ManyTasks => t.scenario_many_tasks_help,
        ScenarioKind::LongTask => t.scenario_long_task_help,
    }
}

#[component]
pub fn GoSchedulerExperiment() -> impl IntoView {
    let t = ui();
    view! {
        <ExperimentFrame experiment=ExperimentId::GoScheduler title=t.go_title controls=|machine| view! { <GoSchedulerControls machine /> }.into_any()></ExperimentFrame>
    }
}

#[component]
fn GoSchedulerControls(machine: Machine) -> impl IntoView {
    let t = ui();
    let exp = ExperimentState::<Settings>::new(machine);
    let log = exp.log;
    let (workers_limits, _) = go_scheduler::ranges(exp.get().scenario, machine);
    let scenario = exp.choice("scenario");
    let workers = exp.knob(&workers_limits);
    let tasks = exp.knob(&limits::TASKS);
    // What this tab measured here before (another chapter, another language, a reload) comes back.
    log.restore(&|m, _| match m.job.workload {
        experiments::Workload::Scenario { scenario } => ("goroutines", name(scenario).to_string()),
        _ => ("goroutines", String::new()),
    });
    let compared = Compared::new();
    let recorded = RwSignal::new(None::<Measurement>);
    let step = RwSignal::new(exp.get().step as usize);

    let record = move || {
        let s = exp.get();
        // The replay step is where a reader looked, not part of the run: a new recording starts at 0.
        let job = go_scheduler::job(s.scenario, s.workers, s.tasks);
        exp.run(&s, vec![job], move |run_log, _, m| {
            run_log.add(&m, "goroutines", name(s.scenario).to_string(), false);
            recorded.set(Some(m));
        });
    };
    exp.autorun(record);

    let running = exp.running();
    let traced_label = Signal::derive(move || {
        recorded.with(|m| {
            m.as_ref()
                .map(|m| {
                    name(match m.job.workload {
                        Workload::Scenario { scenario } => scenario,
                        _ => ScenarioKind::SpawnOnOne,
                    })
                    .to_string()
                })
                .unwrap_or_default()
        })
    });
    let lanes = Signal::derive(move || recorded.with(|m| m.as_ref().map_or(1, |m| m.job.workers)));
    let reduced_motion = prefers_reduced_motion();

    view! {
        <ClampNotes notes=exp.notes() />
        <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.go_title)]) on:submit=move |ev| { ev.prevent_default(); record(); }>
            {scenario_choice(exp, machine, ScenarioKnobs { scenario, workers, tasks }, running)}
            <Slider label=t.workers help=t.workers_help.to_string() value=workers range=Signal::stored(workers_limits) disabled=running />
            <Slider label=t.tasks help=t.tasks_help.to_string() value=tasks range=Signal::stored(limits::TASKS) disabled=running />
            <RunButtons runner=exp.runner run_label=t.record_run />
        </form>
        // The rest in a later task (issue 15: no main-thread task over 50 ms); the replay, timeline,
        // comparison and sharing come in code of their own, after the engine's files.
        <Later>
            {prediction(Signal::derive(move || recorded.with(|m| m.as_ref().map(|m| predict::stolen_tasks(&m.trace.events, m.job.tasks)))))}
            <RunStatus runner=exp.runner describe=move |_| name(exp.get().scenario).to_string() />
        </Later>
        <LaterCode load=move || go_scheduler_views(log.rows.into(), compared, recorded, step, traced_label, lanes, reduced_motion) />
    }
}

/// The knobs a scenario sets: the scenario itself, and its workers and tasks.
#[derive(Clone, Copy)]
struct ScenarioKnobs {
    scenario: RwSignal<&'static str>,
    workers: RwSignal<u64>,
    tasks: RwSignal<u64>,
}

/// The scenario to record, with a line on the one chosen; choosing one sets its workers and tasks
/// (and says so when the sliders move by themselves).
fn scenario_choice(
    exp: ExperimentState<Settings>,
    machine: Machine,
    knobs: ScenarioKnobs,
    running: Signal<bool>,
) -> impl IntoView {
    let t = ui();
    let ScenarioKnobs { scenario, workers, tasks } = knobs;
    let reset_note = RwSignal::new(None::<String>);
    view! {
        <fieldset class="control choice scenario-choice">
            <legend>{t.scenario}</legend>
            {ScenarioKind::ALL.into_iter().map(|kind| view! {
                <label>
                    <input
                        type="radio"
                        name="go-scenario"
                        value=kind.id()
                        prop:checked=move || scenario.get() == kind.id()
                        disabled=move || running.get()
                        on:change=move |_| {
                            scenario.set(kind.id());
                            let (k, n) = go_scheduler::defaults(kind, machine);
                            let changed = workers.get_untracked() != k as u64 || tasks.get_untracked() != n as u64;
                            workers.set(k as u64);
                            tasks.set(n as u64);
                            // Say so when the sliders move by themselves.
                            reset_note.set(changed.then(|| {
                                message(t.scenario_reset, &[("workers", Arg::Count(k as u64)), ("tasks", Arg::Count(n as u64))])
                            }));
                        }
                    />
                    {name(kind)}
                </label>
            }).collect_view()}
            <p class="help">{move || help(exp.track().scenario)}</p>
            <p class="help" role="status" data-testid="scenario-reset">{move || reset_note.get()}</p>
        </fieldset>
    }
}

/// The Go scheduler panel's sharing, comparison, step-by-step replay and timeline: a split point of
/// its own (`views_go_scheduler`), fetched after the engine's files (components::split_view::LaterCode).
#[wasm_split(views_go_scheduler, fallible, wasm_split_path = ::leptos::wasm_split)]
fn go_scheduler_views(
    rows: Signal<Vec<ResultRow>>,
    compared: Compared,
    recorded: RwSignal<Option<Measurement>>,
    step: RwSignal<usize>,
    traced_label: Signal<String>,
    lanes: Signal<u32>,
    reduced_motion: bool,
) -> SplitBuilt {
    let t = ui();
    let events =
        Signal::derive(move || recorded.with(|m| m.as_ref().map(|m| m.trace.events.clone()).unwrap_or_default()));
    let replayed = Memo::new(move |_| {
        recorded.with(|m| m.as_ref().map(|m| replay(&m.trace.events, m.job.workers)).unwrap_or_else(|| Ok(Vec::new())))
    });
    let snapshots = Memo::new(move |_| replayed.with(|r| r.as_ref().cloned().unwrap_or_default()));
    let replay_error = Signal::derive(move || replayed.with(|r| r.as_ref().err().cloned()));
    let total_tasks = Signal::derive(move || recorded.with(|m| m.as_ref().map_or(0, |m| m.job.tasks)));
    let has_events = move || events.with(|e: &Vec<SchedulerEvent>| !e.is_empty());
    // Built in later tasks, not in the one that instantiated this code (issue 15: no task over 50 ms).
    Ok(view! {
        <Later>
            <ShareBar experiment=ExperimentId::GoScheduler rows />
            <CompareResults experiment=ExperimentId::GoScheduler own=rows compared />
            {move || replay_error.get().map(|message| view! {
                <p class="notice notice-warning" role="alert">{fill(t.replay_invalid, &[("message", &message)])}</p>
            })}
            <Show when=has_events fallback=move || view! { <p class="empty">{t.replay_empty}</p> }>
                <Replay events snapshots=Signal::from(snapshots) tasks=total_tasks step reduced_motion />
            </Show>
            <Timeline measurement=recorded what=traced_label lanes test_id="go-timeline" />
        </Later>
    }
    .into_any())
}

/// The Go scheduler's replay: how many tasks other workers steal. `stolen` gives (stolen, total).
fn prediction(stolen: Signal<Option<(u32, u32)>>) -> AnyView {
    use crate::components::predict::{steal_band, strings, Measured, Prediction};
    let t = ui();
    let measured = Signal::derive(move || {
        let (stolen, total) = stolen.get()?;
        steal_band(stolen, total).map(|option| Measured {
            option,
            value: message(
                t.predict_value_steals,
                &[("stolen", Arg::Count(stolen as u64)), ("total", Arg::Count(total as u64))],
            ),
        })
    });
    let question = Signal::stored(t.predict_go_question.to_string());
    let options = Signal::stored(strings(&t.predict_go_options));
    view! { <Prediction experiment=ExperimentId::GoScheduler question options measured quotes="steals" /> }.into_any()
}
