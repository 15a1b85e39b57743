//! The Sum chapter's experiment: one loop versus t tasks on k workers, and a sweep over k.

use super::panel::{variant_id, ExperimentFrame, RunButtons, RunStatus};
use super::state::ExperimentState;
use crate::components::compare::{CompareResults, Compared, SweptCount};
use crate::components::controls::{NumberField, Slider};
use crate::components::later::Later;
use crate::components::notes::ClampNotes;
use crate::components::published::{published_points, PublishedTable};
use crate::components::results::{ResultRow, ResultsTable};
use crate::components::share::ShareBar;
use crate::components::speedup_chart::{ChartSpec, Series, SpeedupChart, SweepPoint};
use crate::components::split_view::{LaterCode, SplitBuilt};
use crate::components::timeline::Timeline;
use crate::components::trace_picker::{TraceLog, TracePicker};
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use experiments::catalog::sum::{workers as workers_range, NUMBERS, REPETITIONS, TASKS};

use experiments::catalog::sum::{self, Settings};
use experiments::catalog::ExperimentId;
use experiments::catalog::Machine;
use experiments::published::SUM_10M;
use experiments::stats::speedup;
use experiments::{Job, Measurement, Variant};
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

fn describe(job: &Job) -> String {
    let t = ui();
    match job.variant {
        Variant::Sequential => t.sum_sequential_long.to_string(),
        Variant::ThreadPool | Variant::Goroutines => message(
            t.sum_tasks_long,
            &[("tasks", Arg::Count(job.tasks as u64)), ("workers", Arg::Count(job.workers as u64))],
        ),
    }
}

#[component]
pub fn SumExperiment() -> impl IntoView {
    let t = ui();
    view! {
        <ExperimentFrame experiment=ExperimentId::Sum title=t.sum_title controls=|machine| view! { <SumControls machine /> }.into_any()>
            <PublishedTable title=t.published_title caption=t.published_sum_caption rows=&SUM_10M />
        </ExperimentFrame>
    }
}

#[component]
fn SumControls(machine: Machine) -> impl IntoView {
    let t = ui();
    let cores = machine.cores;
    // Without shared memory these tasks run on message-passing workers: every worker count is real.
    let workers_limits = workers_range(cores);
    let exp = ExperimentState::<Settings>::new(machine);
    let log = exp.log;
    let workers = exp.knob(&workers_limits);
    let tasks = exp.knob(&TASKS);
    let numbers = exp.knob(&NUMBERS);
    let repetitions = exp.knob(&REPETITIONS);
    // What this tab measured here before (another chapter, another language, a reload) comes back.
    log.restore(&|m, _| (variant_id(m.job.variant), describe(&m.job)));
    let views = SumViews {
        rows: log.rows.into(),
        compared: Compared::new(),
        traces: TraceLog::new(),
        points: RwSignal::new(Vec::new()),
        sweep_tasks: RwSignal::new(exp.get().tasks),
        cores,
    };
    let SumViews { traces, points, sweep_tasks, .. } = views;
    let show_trace = move |run: String, m: Measurement| traces.add(run, describe(&m.job), m);

    let run = move || {
        let s = exp.get();
        exp.run(&s, sum::run_jobs(&s), move |run_log, _, m| {
            let sequential = m.job.variant == Variant::Sequential;
            run_log.add(&m, variant_id(m.job.variant), describe(&m.job), sequential);
            if !sequential {
                show_trace(run_log.label(), m);
            }
        });
    };

    let sweep = move || {
        let s = exp.get();
        points.set(Vec::new());
        sweep_tasks.set(s.tasks);
        let baseline = StoredValue::new(None);
        // The sweep's points are results too: one row each in the results table and the downloads.
        exp.sweep(&s, sum::sweep_jobs(&s, workers_limits.max as u32), move |run_log, _, m| match m.job.variant {
            Variant::Sequential => {
                run_log.add(&m, variant_id(m.job.variant), describe(&m.job), true);
                baseline.set_value(Some(m.summary))
            }
            Variant::ThreadPool | Variant::Goroutines => {
                run_log.add(&m, variant_id(m.job.variant), describe(&m.job), false);
                let Some(base) = baseline.get_value() else { return };
                let point = SweepPoint { x: m.job.workers, summary: m.summary, speedup: speedup(&base, &m.summary) };
                points.update(|p| p.push(point));
                show_trace(run_log.label(), m);
            }
        });
    };
    exp.autorun(run);

    let running = exp.running();
    let numbers_help = Signal::derive(move || fill(t.numbers_help, &[("value", &format::compact(numbers.get()))]));

    view! {
        <ClampNotes notes=exp.notes() />
        <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.sum_title)]) on:submit=move |ev| { ev.prevent_default(); run(); }>
            <Slider label=t.workers help=t.workers_help.to_string() value=workers range=Signal::stored(workers_limits) disabled=running />
            <Slider label=t.tasks help=t.tasks_help.to_string() value=tasks range=Signal::stored(TASKS) disabled=running />
            <NumberField label=t.numbers help=numbers_help value=numbers range=NUMBERS disabled=running />
            <Slider label=t.repetitions help=t.repetitions_help.to_string() value=repetitions range=Signal::stored(REPETITIONS) disabled=running />
            <RunButtons runner=exp.runner run_label=t.run second=(t.sweep, Callback::new(move |_| sweep())) log />
        </form>
        // The rest in a later task (issue 15: no main-thread task over 50 ms); the charts, timeline,
        // comparison and sharing come in code of their own, after the engine's files.
        <Later>
            {prediction(log.rows.into(), workers)}
            <RunStatus runner=exp.runner describe=exp.describe_job(describe) />
            <ResultsTable rows=log.rows.into() />
        </Later>
        <LaterCode load=move || sum_views(views) />
    }
}

/// What the Sum panel's later views are given: its rows, comparison and traces, the sweep's points
/// and the task count they were measured with, and the machine's logical processors. Handles, so
/// they cross the split as they are.
#[derive(Clone, Copy)]
struct SumViews {
    rows: Signal<Vec<ResultRow>>,
    compared: Compared,
    traces: TraceLog,
    points: RwSignal<Vec<SweepPoint>>,
    sweep_tasks: RwSignal<u32>,
    cores: u32,
}

/// The Sum panel's sharing, comparison, timeline and sweep chart: a split point of its own
/// (`views_sum`), fetched after the engine's files (components::split_view::LaterCode).
#[wasm_split(views_sum, fallible, wasm_split_path = ::leptos::wasm_split)]
fn sum_views(views: SumViews) -> SplitBuilt {
    let t = ui();
    let SumViews { rows, compared, traces, points, sweep_tasks, cores } = views;
    let series = Signal::derive(move || {
        vec![Series {
            name: message(t.sum_series, &[("tasks", Arg::Count(sweep_tasks.get() as u64))]),
            points: points.get(),
        }]
    });
    let (traced, traced_label) = traces.shown_where(|m| m.job.variant != Variant::Sequential, |m| describe(&m.job));
    let lanes = Signal::derive(move || traced.with(|m| m.as_ref().map_or(1, |m| m.job.workers)));
    // Built in later tasks, not in the one that instantiated this code (issue 15: no task over 50 ms).
    Ok(view! {
        <Later>
            {work_it_out(rows, cores)}
            <ShareBar experiment=ExperimentId::Sum rows />
            <CompareResults experiment=ExperimentId::Sum own=rows compared />
        </Later>
        <Later>
            <TracePicker log=traces />
            <Timeline measurement=traced what=traced_label lanes test_id="sum-timeline" />
            <SpeedupChart
                compared=compared.sweep_series(SweptCount::Workers)
                series
                spec=ChartSpec { ideal: true, markers: vec![(cores as f64, t.your_cores.to_string())], published: published_points(&SUM_10M, |r| r.gomaxprocs), ..ChartSpec::speedup(t.axis_workers) }
                caption=Signal::derive(move || fill(t.title_then_caption, &[("title", t.sweep_title), ("caption", &message(t.sweep_caption, &[("tasks", Arg::Count(sweep_tasks.get() as u64))]))]))
                empty_text=t.sweep_empty
                test_id="sweep"
            />
        </Later>
    }
    .into_any())
}

/// The sum: the speedup of the tasks over the loop.
fn prediction(rows: Signal<Vec<ResultRow>>, workers: RwSignal<u64>) -> AnyView {
    use crate::components::predict::speedup_question;
    let question =
        Signal::derive(move || message(ui().predict_sum_question, &[("workers", Arg::Count(workers.get()))]));
    speedup_question(ExperimentId::Sum, question, rows, "tasks", workers)
}

/// Work it out: the shortest time the tasks could take, from the time the loop measured.
fn work_it_out(rows: Signal<Vec<ResultRow>>, cores: u32) -> AnyView {
    use crate::components::predict::latest_plain_run;
    use crate::components::work_it_out::{self as question, first, ideal_time, measured_ms, press, Ask};
    let t = ui();
    let of = move |kind: &'static str| {
        rows.with(|rows| {
            latest_plain_run(rows).iter().find(|r| r.kind == kind).map(|r| (r.summary.median_ms, r.workers, r.tasks))
        })
    };
    let ask = Signal::derive(move || match (of("sequential"), of("tasks")) {
        (Some((one, _, _)), Some((_, workers, tasks))) => {
            Ask::Exercise(ideal_time(t.work_sum_question, one, workers, tasks, cores))
        }
        _ => first(t.run),
    });
    let measured = Signal::derive(move || of("tasks").map(|(ms, workers, _)| measured_ms(workers, ms)));
    question::work_it_out(ask, measured, press(t.run))
}
