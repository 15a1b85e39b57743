//! The CPU-bound versus IO-bound chapter: the same document search with reads that wait (IO-bound)
//! or reads that do not (CPU-bound: parsing only), run as goroutines with the same knobs, and a
//! sweep over the task count that draws one line per kind.

use super::panel::{variant_id, ExperimentFrame, RunButtons, RunLog, RunStatus};
use super::state::ExperimentState;
use crate::components::compare::{CompareResults, Compared, SweptCount};
use crate::components::controls::{unique_id, Slider};
use crate::components::later::Later;
use crate::components::notes::ClampNotes;
use crate::components::results::{ResultRow, ResultsTable};
use crate::components::share::ShareBar;
use crate::components::speedup_chart::{ChartSpec, Series, SpeedupChart, SweepPoint};
use crate::components::split_view::{LaterCode, SplitBuilt};
use crate::components::timeline::Timeline;
use crate::components::trace_picker::{TraceLog, TracePicker};
use crate::i18n::{fill, message, ui, Arg};
use experiments::catalog::cpu_vs_io::{self, kind_of, Settings};
use experiments::catalog::cpu_vs_io::{KINDS, REPETITIONS, TASKS};
use experiments::catalog::ExperimentId;
use experiments::catalog::Machine;
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
    let workers_limits = cpu_vs_io::workers_range(machine);
    let exp = ExperimentState::<Settings>::new(machine);
    let log = exp.log;
    let kind = exp.choice("kind");
    let workers = exp.knob(&workers_limits);
    let tasks = exp.knob(&TASKS);
    let repetitions = exp.knob(&REPETITIONS);
    // What this tab measured here before (another chapter, another language, a reload) comes back.
    log.restore(&|m, _| (variant_id(m.job.variant), describe(&m.job)));
    let views = CpuVsIoViews {
        rows: log.rows.into(),
        compared: Compared::new(),
        traces: TraceLog::new(),
        io_points: RwSignal::new(Vec::new()),
        cpu_points: RwSignal::new(Vec::new()),
        sweep_workers: RwSignal::new(exp.get().workers),
        kind,
        tasks,
        cores: machine.cores,
    };
    let CpuVsIoViews { traces, io_points, cpu_points, sweep_workers, .. } = views;

    let run = move || {
        let s = exp.get();
        exp.run(&s, cpu_vs_io::run_jobs(&s), move |run_log, _, m| {
            let sequential = m.job.variant == Variant::Sequential;
            run_log.add(&m, variant_id(m.job.variant), describe(&m.job), sequential);
            if !sequential {
                traces.add(run_log.label(), describe(&m.job), m);
            }
        });
    };

    let sweep = move || {
        let s = exp.get();
        let (kind, k) = (s.kind, s.workers);
        // Lines measured with another worker count would not be comparable: start over.
        if sweep_workers.get_untracked() != k {
            io_points.set(Vec::new());
            cpu_points.set(Vec::new());
        }
        sweep_workers.set(k);
        let points = if kind == "io" { io_points } else { cpu_points };
        points.set(Vec::new());
        // The sweep's points are results too: one row each in the results table and the downloads.
        exp.sweep(&s, cpu_vs_io::sweep_jobs(&s), record_sweep(points, traces));
    };
    exp.autorun(run);

    let running = exp.running();
    let repetitions_help = Signal::derive(move || {
        if kind.get() == "io" { t.repetitions_help_no_warm_up } else { t.repetitions_help }.to_string()
    });

    view! {
        <ClampNotes notes=exp.notes() />
        <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.cpu_io_title)]) on:submit=move |ev| { ev.prevent_default(); run(); }>
            {kind_choice(kind, running)}
            <Slider label=t.workers help=t.workers_help.to_string() value=workers range=Signal::stored(workers_limits) disabled=running />
            <Slider label=t.tasks help=t.tasks_help.to_string() value=tasks range=Signal::stored(TASKS) disabled=running />
            <Slider label=t.repetitions help=repetitions_help value=repetitions range=Signal::stored(REPETITIONS) disabled=running />
            <RunButtons runner=exp.runner run_label=t.run second=(t.sweep_tasks, Callback::new(move |_| sweep())) log />
        </form>
        // The rest in a later task (issue 15: no main-thread task over 50 ms); the charts, timeline,
        // comparison and sharing come in code of their own, after the engine's files.
        <Later>
            {prediction(log.rows.into(), kind, workers, tasks)}
            <RunStatus runner=exp.runner describe=exp.describe_job(describe) />
            <ResultsTable rows=log.rows.into() />
        </Later>
        <LaterCode load=move || cpu_vs_io_views(views) />
    }
}

/// Records the task-count sweep of one kind: each row, its `points` (speedups over the loop) and
/// their traces.
fn record_sweep(points: RwSignal<Vec<SweepPoint>>, traces: TraceLog) -> impl Fn(RunLog, usize, Measurement) + 'static {
    let baseline = StoredValue::new(None);
    move |run_log: RunLog, _: usize, m: Measurement| {
        let sequential = m.job.variant == Variant::Sequential;
        run_log.add(&m, variant_id(m.job.variant), describe(&m.job), sequential);
        if sequential {
            baseline.set_value(Some(m.summary));
            return;
        }
        let Some(base) = baseline.get_value() else { return };
        points
            .update(|p| p.push(SweepPoint { x: m.job.tasks, summary: m.summary, speedup: speedup(&base, &m.summary) }));
        traces.add(run_log.label(), describe(&m.job), m);
    }
}

/// The kind of work: reads that wait (IO-bound) or parsing only (CPU-bound), with a line on each.
fn kind_choice(kind: RwSignal<&'static str>, running: Signal<bool>) -> impl IntoView {
    let t = ui();
    let group = unique_id("kind");
    view! {
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
    }
}

/// What the CPU- versus IO-bound panel's later views are given: its rows, comparison and traces,
/// each kind's sweep line and the worker count they were measured with.
#[derive(Clone, Copy)]
struct CpuVsIoViews {
    rows: Signal<Vec<ResultRow>>,
    compared: Compared,
    traces: TraceLog,
    io_points: RwSignal<Vec<SweepPoint>>,
    cpu_points: RwSignal<Vec<SweepPoint>>,
    sweep_workers: RwSignal<u32>,
    /// The knobs and the logical processors the question to work out names.
    kind: RwSignal<&'static str>,
    tasks: RwSignal<u64>,
    cores: u32,
}

/// The CPU- versus IO-bound panel's sharing, comparison, timeline and sweep chart: a split point of its own
/// (`views_cpu_vs_io`), fetched after the engine's files (components::split_view::LaterCode).
#[wasm_split(views_cpu_vs_io, fallible, wasm_split_path = ::leptos::wasm_split)]
fn cpu_vs_io_views(views: CpuVsIoViews) -> SplitBuilt {
    let t = ui();
    let CpuVsIoViews { rows, compared, traces, io_points, cpu_points, sweep_workers, kind, tasks, cores } = views;
    let series = Signal::derive(move || {
        [("io", io_points), ("cpu", cpu_points)]
            .into_iter()
            .filter(|(_, p)| p.with(|p| !p.is_empty()))
            .map(|(kind, p)| Series { name: kind_name(kind).to_string(), points: p.get() })
            .collect::<Vec<_>>()
    });
    let (traced, traced_label) = traces.shown_where(|m| m.job.variant != Variant::Sequential, |m| describe(&m.job));
    let lanes = Signal::derive(move || traced.with(|m| m.as_ref().map_or(1, |m| m.job.workers)));
    // Built in later tasks, not in the one that instantiated this code (issue 15: no task over 50 ms).
    Ok(view! {
        <Later>
            {work_it_out(rows, kind, tasks, cores)}
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

/// CPU- vs IO-bound: the chosen kind as goroutines, against the loop.
fn prediction(
    rows: Signal<Vec<ResultRow>>,
    kind: RwSignal<&'static str>,
    workers: RwSignal<u64>,
    tasks: RwSignal<u64>,
) -> AnyView {
    use crate::components::predict::workers_question;
    let t = ui();
    let question = Signal::derive(move || {
        let template = if kind.get() == "io" { t.predict_cpu_io_question_io } else { t.predict_cpu_io_question_cpu };
        message(template, &[("workers", Arg::Count(workers.get())), ("tasks", Arg::Count(tasks.get()))])
    });
    workers_question(ExperimentId::CpuVsIo, question, rows, workers)
}

/// Work it out. Reads that wait: t goroutines share the reads and their waits overlap, so they take
/// at least ⌈reads ÷ t⌉ waits, whatever the workers. Parsing only: at best the loop's time over what
/// runs at once. Either beside the goroutines' measured time.
fn work_it_out(
    rows: Signal<Vec<ResultRow>>,
    kind: RwSignal<&'static str>,
    tasks: RwSignal<u64>,
    cores: u32,
) -> AnyView {
    use crate::components::predict::latest_plain_run;
    use crate::components::work_it_out::{
        self as question, first, ideal_time, inputs, measured_ms, press, rounds, Ask, Exercise,
    };
    use crate::format;
    use experiments::catalog::cpu_vs_io::{DOCUMENTS, IO_LATENCY_US};
    let t = ui();
    // The latest run's row of `variant` if that run measured the kind of work now chosen.
    let row = move |variant: &'static str| {
        let chosen = kind.get();
        rows.with(|rows| {
            latest_plain_run(rows)
                .iter()
                .find(|r| r.kind == variant && r.context.settings.iter().any(|(k, v)| k == "kind" && v == chosen))
                .map(|r| (r.summary.median_ms, r.workers, r.tasks))
        })
    };
    let ask = Signal::derive(move || {
        if kind.get() == "cpu" {
            return match (row("sequential"), row("goroutines")) {
                (Some((one, _, _)), Some((_, workers, tasks))) => {
                    Ask::Exercise(ideal_time(t.work_cpu_question, one, workers, tasks, cores))
                }
                _ => first(t.run),
            };
        }
        let (n, latency_ms) = (tasks.get() as u32, IO_LATENCY_US / 1_000);
        let answer = (rounds(DOCUMENTS, n) * latency_ms) as f64;
        Ask::Exercise(Exercise {
            formula: "overlap",
            question: message(
                t.work_io_question,
                &[
                    ("tasks", Arg::Count(n as u64)),
                    ("docs", Arg::Count(DOCUMENTS as u64)),
                    ("latency", Arg::Text(&format::int(latency_ms as u64))),
                ],
            ),
            unit: t.unit_ms,
            answer,
            worked: fill(
                t.work_io_worked,
                &[
                    ("docs", &format::int(DOCUMENTS as u64)),
                    ("tasks", &format::int(n as u64)),
                    ("latency", &format::int(latency_ms as u64)),
                    ("answer", &format::ms(answer)),
                ],
            ),
            computed: fill(t.work_at_least_ms, &[("ms", &format::ms(answer))]),
            inputs: inputs(&[("docs", DOCUMENTS as f64), ("tasks", n as f64), ("latency", latency_ms as f64)]),
        })
    });
    let measured = Signal::derive(move || {
        let (ms, workers, measured_tasks) = row("goroutines")?;
        // Reads that wait: only a run of the task count asked about answers the question.
        (kind.get() == "cpu" || measured_tasks == tasks.get() as u32).then(|| measured_ms(workers, ms))
    });
    question::work_it_out(ask, measured, press(t.run))
}
