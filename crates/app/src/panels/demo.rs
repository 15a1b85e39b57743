//! Chapter 1's demo: the same t tasks on one worker (concurrency) and on k workers (parallelism),
//! drawn as two timelines.

use super::panel::{ExperimentFrame, RunButtons, RunStatus};
use super::state::ExperimentState;
use crate::components::compare::{CompareResults, Compared};
use crate::components::controls::Slider;
use crate::components::later::Later;
use crate::components::notes::ClampNotes;
use crate::components::results::{ResultRow, ResultsTable};
use crate::components::share::ShareBar;
use crate::components::split_view::{LaterCode, SplitBuilt};
use crate::components::timeline::{shared_axis_ms, Timeline};
use crate::i18n::{fill, message, ui, Arg};
use experiments::catalog::demo::{self, Settings};
use experiments::catalog::demo::{workers as workers_range, TASKS};
use experiments::catalog::ExperimentId;
use experiments::catalog::Machine;
use experiments::{Job, Measurement};
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

fn describe(job: &Job) -> String {
    message(
        ui().demo_lane_caption,
        &[("tasks", Arg::Count(job.tasks as u64)), ("workers", Arg::Count(job.workers as u64))],
    )
}

#[component]
pub fn DemoExperiment() -> impl IntoView {
    let t = ui();
    view! {
        <ExperimentFrame experiment=ExperimentId::Demo title=t.demo_title controls=|machine| view! { <DemoControls machine /> }.into_any()></ExperimentFrame>
    }
}

#[component]
fn DemoControls(machine: Machine) -> impl IntoView {
    let t = ui();
    let cores = machine.cores;
    // Without shared memory these tasks run on message-passing workers: every worker count is real.
    let workers_limits = workers_range(cores);
    let exp = ExperimentState::<Settings>::new(machine);
    let log = exp.log;
    let workers = exp.knob(&workers_limits);
    let tasks = exp.knob(&TASKS);
    // What this tab measured here before (another chapter, another language, a reload) comes back.
    log.restore(&|m, baseline| (if baseline { "one-worker" } else { "many-workers" }, describe(&m.job)));
    let compared = Compared::new();
    let one_worker = RwSignal::new(None::<Measurement>);
    let many_workers = RwSignal::new(None::<Measurement>);

    let run = move || {
        let s = exp.get();
        exp.run(&s, demo::run_jobs(&s), move |run_log, index, m| {
            let kind = if index == 0 { "one-worker" } else { "many-workers" };
            run_log.add(&m, kind, describe(&m.job), index == 0);
            if index == 0 {
                one_worker.set(Some(m))
            } else {
                many_workers.set(Some(m))
            }
        });
    };
    exp.autorun(run);
    let running = exp.running();
    // The two timelines are meant to be compared: one time axis for both, so the parallel run's
    // shorter time shows as a shorter extent.
    let axis_max_ms = Signal::derive(move || {
        one_worker.with(|a| many_workers.with(|b| shared_axis_ms(a.iter().chain(b).map(|m| &m.trace))))
    });

    view! {
        <ClampNotes notes=exp.notes() />
        <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.demo_title)]) on:submit=move |ev| { ev.prevent_default(); run(); }>
            <Slider label=t.tasks help=t.tasks_help.to_string() value=tasks range=Signal::stored(TASKS) disabled=running />
            <Slider label=t.workers help=t.workers_help.to_string() value=workers range=Signal::stored(workers_limits) disabled=running />
            <RunButtons runner=exp.runner run_label=t.demo_run />
        </form>
        // The rest in a later task (issue 15: no main-thread task over 50 ms); the timelines,
        // comparison and sharing come in code of their own, after the engine's files.
        <Later>
            {prediction(log.rows.into(), workers)}
            <RunStatus runner=exp.runner describe=exp.describe_job(describe) />
            <ResultsTable rows=log.rows.into() />
        </Later>
        <LaterCode load=move || demo_views(log.rows.into(), compared, one_worker, many_workers, axis_max_ms, cores) />
    }
}

/// The demo panel's question to work out, sharing, comparison and its two timelines: a split point of its own
/// (`views_demo`), fetched after the engine's files (components::split_view::LaterCode).
#[wasm_split(views_demo, fallible, wasm_split_path = ::leptos::wasm_split)]
fn demo_views(
    rows: Signal<Vec<ResultRow>>,
    compared: Compared,
    one_worker: RwSignal<Option<Measurement>>,
    many_workers: RwSignal<Option<Measurement>>,
    axis_max_ms: Signal<f64>,
    cores: u32,
) -> SplitBuilt {
    let label_of = move |m: RwSignal<Option<Measurement>>| {
        Signal::derive(move || m.with(|m| m.as_ref().map(|m| describe(&m.job)).unwrap_or_default()))
    };
    let lanes_of = move |m: RwSignal<Option<Measurement>>| {
        Signal::derive(move || m.with(|m| m.as_ref().map_or(1, |m| m.job.workers)))
    };

    // Built in later tasks, not in the one that instantiated this code (issue 15: no task over 50 ms).
    Ok(view! {
        <Later>
            {work_it_out(rows, cores)}
            <ShareBar experiment=ExperimentId::Demo rows />
            <CompareResults experiment=ExperimentId::Demo own=rows compared />
            <div class="timeline-pair">
                <Timeline measurement=one_worker what=label_of(one_worker) lanes=lanes_of(one_worker) test_id="demo-timeline-one" axis_max_ms />
                <Timeline measurement=many_workers what=label_of(many_workers) lanes=lanes_of(many_workers) test_id="demo-timeline-many" axis_max_ms />
            </div>
        </Later>
    }
    .into_any())
}

/// Chapter 1: which of the two runs finishes first.
fn prediction(rows: Signal<Vec<ResultRow>>, workers: RwSignal<u64>) -> AnyView {
    use crate::components::predict::{
        first_to_finish, latest_plain_run, speedup_of, speedup_value, with_workers, Measured, Prediction,
    };
    let t = ui();
    let question = Signal::derive(move || message(t.predict_demo_question, &[("workers", Arg::Count(workers.get()))]));
    let options = Signal::derive(move || with_workers(&t.predict_demo_options, workers.get() as u32));
    let measured = Signal::derive(move || {
        rows.with(|rows| speedup_of(latest_plain_run(rows), "many-workers"))
            .and_then(|(s, _)| first_to_finish(s).map(|option| Measured { option, value: speedup_value(s) }))
    });
    view! { <Prediction experiment=ExperimentId::Demo question options measured quotes="row:many-workers" /> }
        .into_any()
}

/// Work it out: the shortest time the tasks could take on k workers, from their time on one.
fn work_it_out(rows: Signal<Vec<ResultRow>>, cores: u32) -> AnyView {
    use crate::components::predict::latest_plain_run;
    use crate::components::work_it_out::{self as question, first, ideal_time, measured_ms, press, Ask};
    let t = ui();
    let of = move |kind: &'static str| {
        rows.with(|rows| {
            latest_plain_run(rows).iter().find(|r| r.kind == kind).map(|r| (r.summary.median_ms, r.workers, r.tasks))
        })
    };
    let ask = Signal::derive(move || match (of("one-worker"), of("many-workers")) {
        (Some((one, _, _)), Some((_, workers, tasks))) => {
            Ask::Exercise(ideal_time(t.work_demo_question, one, workers, tasks, cores))
        }
        _ => first(t.demo_run),
    });
    let measured = Signal::derive(move || of("many-workers").map(|(ms, workers, _)| measured_ms(workers, ms)));
    question::work_it_out(ask, measured, press(t.demo_run))
}
