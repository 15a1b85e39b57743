//! The CPU-bound versus IO-bound chapter: the same document search with reads that wait (IO-bound)
//! or reads that do not (CPU-bound: parsing only), run as goroutines with the same knobs, and a
//! sweep over the task count that draws one line per kind.

use super::panel::{variant_id, ExperimentFrame, ResultLog, RunButtons, RunStatus};
use crate::components::compare::{CompareResults, Compared, SweptCount};
use crate::components::controls::{unique_id, Slider};
use crate::components::later::Later;
use crate::components::notes::ClampNotes;
use crate::components::predict;
use crate::components::results::{ResultRow, ResultsTable};
use crate::components::share::ShareBar;
use crate::components::speedup_chart::{ChartSpec, Series, SpeedupChart, SweepPoint};
use crate::components::split_view::{LaterCode, SplitBuilt};
use crate::components::timeline::Timeline;
use crate::components::trace_picker::{TraceLog, TracePicker};
use crate::i18n::{fill, message, ui, Arg};
use crate::presets::{write_to_url, Preset};
use crate::runner::Runner;
use experiments::catalog::cpu_vs_io::{self as catalog_cpu_io, kind_of, Settings};
use experiments::catalog::ExperimentId;
use experiments::catalog::Machine;
use experiments::params::cpu_vs_io::{KINDS, REPETITIONS, TASKS};
use experiments::stats::speedup;
use experiments::{Job, Measurement, Variant};
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

fn kind_name(kind: &str) -> &'static str {
    if kind == "io" {
        ui().kind_io
    } else {
        ui().kind_cpu
    }
}

fn describe(job: &Job) -> String {
    format!("{} · {}", kind_name(kind_of(job)), super::document_search::describe(job))
}

#[component]
pub fn CpuVsIoExperiment() -> impl IntoView {
    let t = ui();
    view! {
        <ExperimentFrame experiment=ExperimentId::CpuVsIo title=t.cpu_io_title controls=|machine| view! { <CpuVsIoControls machine /> }.into_any()></ExperimentFrame>
    }
}

#[component]
fn CpuVsIoControls(machine: Machine) -> impl IntoView {
    let t = ui();
    let workers_limits = catalog_cpu_io::workers_range(machine);
    let mut preset = Preset::from_url();
    let read = catalog_cpu_io::read(&mut preset, machine);
    let kind = RwSignal::new(read.kind);
    let workers = RwSignal::new(read.workers as u64);
    let tasks = RwSignal::new(read.tasks as u64);
    let repetitions = RwSignal::new(read.repetitions as u64);
    let autorun = preset.autorun(ExperimentId::CpuVsIo);
    let notes = preset.notes;

    let runner = Runner::new();
    let log = ResultLog::new(ExperimentId::CpuVsIo);
    // What this tab measured here before (another chapter, another language, a reload) comes back.
    log.restore(&|m, _| (variant_id(m.job.variant), describe(&m.job)));
    let compared = Compared::new();
    let traces = TraceLog::new();
    let io_points = RwSignal::new(Vec::<SweepPoint>::new());
    let cpu_points = RwSignal::new(Vec::<SweepPoint>::new());
    let sweep_workers = RwSignal::new(workers.get_untracked() as u32);
    let jobs_of_run = RwSignal::new(Vec::<Job>::new());

    let settings = move || Settings {
        kind: kind.get_untracked(),
        workers: workers.get_untracked() as u32,
        tasks: tasks.get_untracked() as u32,
        repetitions: repetitions.get_untracked() as u32,
    };
    let remember_settings = move || write_to_url(&settings().query());

    let run = move || {
        let query = remember_settings();
        let jobs = catalog_cpu_io::run_jobs(&settings());
        jobs_of_run.set(jobs.clone());
        let run_log = log.start_run(query);
        runner.run(jobs, move |_, m| {
            let sequential = m.job.variant == Variant::Sequential;
            run_log.add(&m, variant_id(m.job.variant), describe(&m.job), sequential);
            if !sequential {
                traces.add(run_log.label(), describe(&m.job), m);
            }
        });
    };

    let sweep = move || {
        let query = remember_settings();
        let s = settings();
        let (kind, k) = (s.kind, s.workers);
        let jobs = catalog_cpu_io::sweep_jobs(&s);
        jobs_of_run.set(jobs.clone());
        // Lines measured with another worker count would not be comparable: start over.
        if sweep_workers.get_untracked() != k {
            io_points.set(Vec::new());
            cpu_points.set(Vec::new());
        }
        sweep_workers.set(k);
        let points = if kind == "io" { io_points } else { cpu_points };
        points.set(Vec::new());
        let baseline = StoredValue::new(None);
        // The sweep's points are results too: one row each in the results table and the downloads.
        let run_log = log.start_sweep(query);
        runner.run(jobs, move |_, m| {
            let sequential = m.job.variant == Variant::Sequential;
            run_log.add(&m, variant_id(m.job.variant), describe(&m.job), sequential);
            if sequential {
                baseline.set_value(Some(m.summary));
                return;
            }
            let Some(base) = baseline.get_value() else { return };
            points.update(|p| {
                p.push(SweepPoint { x: m.job.tasks, summary: m.summary, speedup: speedup(&base, &m.summary) })
            });
            traces.add(run_log.label(), describe(&m.job), m);
        });
    };

    if autorun {
        crate::runner::run_on_mount(run, true);
    }

    let running = Signal::derive(move || runner.running.get());
    let describe_job =
        move |index: usize| jobs_of_run.with_untracked(|jobs| jobs.get(index).map(describe).unwrap_or_default());
    let series = Signal::derive(move || {
        [("io", io_points), ("cpu", cpu_points)]
            .into_iter()
            .filter(|(_, p)| p.with(|p| !p.is_empty()))
            .map(|(kind, p)| Series { name: kind_name(kind).to_string(), points: p.get() })
            .collect::<Vec<_>>()
    });
    let (traced, traced_label) = traces.shown_where(|m| m.job.variant != Variant::Sequential, |m| describe(&m.job));
    let lanes = Signal::derive(move || traced.with(|m| m.as_ref().map_or(1, |m| m.job.workers)));
    let group = unique_id("kind");
    let repetitions_help = Signal::derive(move || {
        if kind.get() == "io" { t.repetitions_help_no_warm_up } else { t.repetitions_help }.to_string()
    });

    view! {
        <ClampNotes notes />
        <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.cpu_io_title)]) on:submit=move |ev| { ev.prevent_default(); run(); }>
            <fieldset class="control choice">
                <legend>{t.workload}</legend>
                {KINDS.iter().map(|&option| {
                    view! {
                        <label>
                            <input
                                type="radio"
                                name=group.clone()
                                value=option
                                prop:checked=move || kind.get() == option
                                disabled=move || running.get()
                                on:change=move |_| kind.set(option)
                            />
                            {kind_name(option)}
                        </label>
                    }
                }).collect_view()}
                <p class="help">{move || if kind.get() == "io" { t.kind_io_help } else { t.kind_cpu_help }}</p>
            </fieldset>
            <Slider label=t.workers help=t.workers_help.to_string() value=workers range=Signal::stored(workers_limits) disabled=running />
            <Slider label=t.tasks help=t.tasks_help.to_string() value=tasks range=Signal::stored(TASKS) disabled=running />
            <Slider label=t.repetitions help=repetitions_help value=repetitions range=Signal::stored(REPETITIONS) disabled=running />
            <RunButtons runner run_label=t.run second=(t.sweep_tasks, Callback::new(move |_| sweep())) log />
        </form>
        // The rest in a later task (issue 15: no main-thread task over 50 ms); the charts, timeline,
        // comparison and sharing come in code of their own, after the engine's files.
        <Later>
            {predict::cpu_vs_io(log.rows.into(), kind, workers, tasks)}
            <RunStatus runner describe=describe_job />
            <ResultsTable rows=log.rows.into() />
        </Later>
        <LaterCode load=move || cpu_vs_io_views(log.rows.into(), compared, traces, traced, traced_label, lanes, series, sweep_workers) />
    }
}

/// The CPU- versus IO-bound panel's sharing, comparison, timeline and sweep chart: a split point of its own
/// (`views_cpu_vs_io`), fetched after the engine's files (components::split_view::LaterCode).
#[wasm_split(views_cpu_vs_io, fallible, wasm_split_path = ::leptos::wasm_split)]
#[allow(clippy::too_many_arguments)]
fn cpu_vs_io_views(
    rows: Signal<Vec<ResultRow>>,
    compared: Compared,
    traces: TraceLog,
    traced: Signal<Option<Measurement>>,
    traced_label: Signal<String>,
    lanes: Signal<u32>,
    series: Signal<Vec<Series>>,
    sweep_workers: RwSignal<u32>,
) -> SplitBuilt {
    let t = ui();
    // Built in later tasks, not in the one that instantiated this code (issue 15: no task over 50 ms).
    Ok(view! {
        <Later>
            <ShareBar experiment=ExperimentId::CpuVsIo rows />
            <CompareResults experiment=ExperimentId::CpuVsIo own=rows compared />
        </Later>
        <Later>
            <TracePicker log=traces />
            <Timeline measurement=traced what=traced_label lanes test_id="cpu-io-timeline" note=t.docs_timeline_note />
            {move || {
                let k = sweep_workers.get();
                view! {
                    <SpeedupChart
                        compared=compared.sweep_series(SweptCount::Tasks)
                        series
                        spec=ChartSpec { ideal: false, markers: vec![(k as f64, message(t.workers_marker, &[("workers", Arg::Count(k as u64))]))], ..ChartSpec::speedup(t.axis_tasks) }
                        caption=Signal::derive(move || message(t.cpu_io_sweep_caption, &[("workers", Arg::Count(sweep_workers.get() as u64))]))
                        empty_text=t.cpu_io_sweep_empty
                        test_id="cpu-io-sweep"
                    />
                }
            }}
        </Later>
    }
    .into_any())
}
