//! The Sum chapter's second experiment, one shared total: the loop against k tasks adding into
//! private sums, one shared counter, or counters side by side, and a sweep over k.

use super::panel::{ExperimentFrame, RunButtons, RunStatus};
use super::state::ExperimentState;
use crate::components::compare::{CompareResults, Compared, SweptCount};
use crate::components::controls::{NumberField, Slider};
use crate::components::later::Later;
use crate::components::notes::ClampNotes;
use crate::components::results::{ResultRow, ResultsTable};
use crate::components::share::ShareBar;
use crate::components::speedup_chart::{ChartSpec, Series, SpeedupChart, SweepPoint};
use crate::components::split_view::{LaterCode, SplitBuilt};
use crate::components::timeline::Timeline;
use crate::components::trace_picker::{TraceLog, TracePicker};
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use experiments::catalog::shared_total::{self as catalog_total, Settings};
use experiments::catalog::shared_total::{workers as workers_range, NUMBERS, REPETITIONS};
use experiments::catalog::{ExperimentId, Machine};
use experiments::stats::speedup;
use experiments::{Job, Measurement, Summary, TotalKind, Variant, Workload};
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

/// Where `job`'s tasks add (`None` for the loop).
fn total_of(job: &Job) -> Option<TotalKind> {
    match job.workload {
        Workload::SharedTotal { total, .. } if job.variant != Variant::Sequential => Some(total),
        _ => None,
    }
}

/// The row kind (`data-variant`) of `job`'s measurement.
fn kind_id(job: &Job) -> &'static str {
    total_of(job).map_or("sequential", TotalKind::name)
}

fn describe(job: &Job) -> String {
    let t = ui();
    let template = match total_of(job) {
        None => return t.shared_total_loop.to_string(),
        Some(TotalKind::Private) => t.shared_total_private,
        Some(TotalKind::OneShared) => t.shared_total_one_shared,
        Some(TotalKind::SideBySide) => t.shared_total_side_by_side,
    };
    message(template, &[("workers", Arg::Count(job.workers as u64))])
}

/// A sweep's line name for `total`.
fn series_name(total: TotalKind) -> &'static str {
    let t = ui();
    match total {
        TotalKind::Private => t.shared_total_series_private,
        TotalKind::OneShared => t.shared_total_series_one_shared,
        TotalKind::SideBySide => t.shared_total_series_side_by_side,
    }
}

#[component]
pub fn SharedTotalExperiment() -> impl IntoView {
    let t = ui();
    view! {
        <ExperimentFrame
            experiment=ExperimentId::SharedTotal
            title=t.shared_total_title
            controls=|machine| view! { <SharedTotalControls machine /> }.into_any()
            cannot_run_text=t.shared_total_single_worker
        ></ExperimentFrame>
    }
}

#[component]
fn SharedTotalControls(machine: Machine) -> impl IntoView {
    let t = ui();
    let workers_limits = workers_range(machine.cores);
    let exp = ExperimentState::<Settings>::new(machine);
    let log = exp.log;
    let workers = exp.knob(&workers_limits);
    let numbers = exp.knob(&NUMBERS);
    let repetitions = exp.knob(&REPETITIONS);
    // What this tab measured here before (another chapter, another language, a reload) comes back.
    log.restore(&|m, _| (kind_id(&m.job), describe(&m.job)));
    let views = SharedTotalViews {
        rows: log.rows.into(),
        compared: Compared::new(),
        traces: TraceLog::new(),
        sweep: RwSignal::new(Vec::new()),
    };
    let SharedTotalViews { traces, sweep, .. } = views;
    let keep_trace = move |run: String, m: Measurement| traces.add(run, describe(&m.job), m);

    let run = move || {
        let s = exp.get();
        exp.run(&s, catalog_total::run_jobs(&s), move |run_log, _, m| {
            let sequential = m.job.variant == Variant::Sequential;
            run_log.add(&m, kind_id(&m.job), describe(&m.job), sequential);
            if !sequential {
                keep_trace(run_log.label(), m);
            }
        });
    };

    let run_sweep = move || {
        let s = exp.get();
        sweep.set(TotalKind::ALL.iter().map(|&total| (total, Vec::new())).collect());
        let baseline = StoredValue::new(None::<Summary>);
        // The sweep's points are results too: one row each in the results table and the downloads.
        exp.sweep(&s, catalog_total::sweep_jobs(&s, workers_limits.max as u32), move |run_log, _, m| {
            let Some(total) = total_of(&m.job) else {
                run_log.add(&m, kind_id(&m.job), describe(&m.job), true);
                baseline.set_value(Some(m.summary));
                return;
            };
            run_log.add(&m, kind_id(&m.job), describe(&m.job), false);
            let Some(base) = baseline.get_value() else { return };
            let point = SweepPoint { x: m.job.workers, summary: m.summary, speedup: speedup(&base, &m.summary) };
            sweep.update(|lines| {
                if let Some((_, points)) = lines.iter_mut().find(|(t, _)| *t == total) {
                    points.push(point);
                }
            });
            keep_trace(run_log.label(), m);
        });
    };
    exp.autorun(run);

    let running = exp.running();
    let numbers_help = Signal::derive(move || fill(t.numbers_help, &[("value", &format::compact(numbers.get()))]));

    view! {
        <ClampNotes notes=exp.notes() />
        <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.shared_total_title)]) on:submit=move |ev| { ev.prevent_default(); run(); }>
            <Slider label=t.workers help=t.workers_help.to_string() value=workers range=Signal::stored(workers_limits) disabled=running />
            <NumberField label=t.numbers help=numbers_help value=numbers range=NUMBERS disabled=running />
            <Slider label=t.repetitions help=t.repetitions_help.to_string() value=repetitions range=Signal::stored(REPETITIONS) disabled=running />
            <RunButtons runner=exp.runner run_label=t.shared_total_measure second=(t.sweep, Callback::new(move |_| run_sweep())) log />
        </form>
        // The rest in a later task (issue 15: no main-thread task over 50 ms); sharing, comparison,
        // timeline and chart come in code of their own, after the engine's files.
        <Later>
            {prediction(log.rows.into(), workers)}
            <RunStatus runner=exp.runner describe=exp.describe_job(describe) />
            <ResultsTable rows=log.rows.into() />
        </Later>
        <LaterCode load=move || shared_total_views(views) />
    }
}

/// What the panel's later views are given: its rows, comparison and traces, and the sweep's lines
/// (each way of adding, its points in worker order). Handles, so they cross the split as they are.
#[derive(Clone, Copy)]
struct SharedTotalViews {
    rows: Signal<Vec<ResultRow>>,
    compared: Compared,
    traces: TraceLog,
    sweep: RwSignal<Vec<(TotalKind, Vec<SweepPoint>)>>,
}

/// The panel's sharing, comparison, timeline and sweep chart: a split point of its own
/// (`views_shared_total`), fetched after the engine's files (components::split_view::LaterCode).
#[wasm_split(views_shared_total, fallible, wasm_split_path = ::leptos::wasm_split)]
fn shared_total_views(views: SharedTotalViews) -> SplitBuilt {
    let SharedTotalViews { rows, compared, traces, sweep } = views;
    let series = Signal::derive(move || {
        sweep.get().into_iter().map(|(total, points)| Series { name: series_name(total).to_string(), points }).collect()
    });
    let (traced, traced_label) = traces.shown_where(|m| m.job.variant != Variant::Sequential, |m| describe(&m.job));
    let lanes = Signal::derive(move || traced.with(|m| m.as_ref().map_or(1, |m| m.job.workers)));
    let t = ui();
    Ok(view! {
        <Later>
            <ShareBar experiment=ExperimentId::SharedTotal rows />
            <CompareResults experiment=ExperimentId::SharedTotal own=rows compared />
        </Later>
        <Later>
            <TracePicker log=traces />
            <Timeline measurement=traced what=traced_label lanes test_id="shared-total-timeline" />
            <SpeedupChart
                compared=compared.sweep_series(SweptCount::Workers)
                series
                spec=ChartSpec { ideal: true, ..ChartSpec::speedup(t.axis_workers) }
                caption=Signal::derive(move || fill(t.title_then_caption, &[("title", t.shared_total_sweep_title), ("caption", t.shared_total_sweep_caption)]))
                empty_text=t.shared_total_sweep_empty
                test_id="shared-total-sweep"
            />
        </Later>
    }
    .into_any())
}

/// One shared total: the speedup over the loop of k tasks adding every number into one counter.
fn prediction(rows: Signal<Vec<ResultRow>>, workers: RwSignal<u64>) -> AnyView {
    use crate::components::predict::speedup_question;
    let question =
        Signal::derive(move || message(ui().predict_shared_total_question, &[("workers", Arg::Count(workers.get()))]));
    speedup_question(ExperimentId::SharedTotal, question, rows, "one-shared", workers)
}
