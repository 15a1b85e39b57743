//! The document search chapter: sequential reads, threads that block on each read, and
//! goroutines that park; plus a sweep over the task count for both kinds of concurrency.

use super::panel::{variant_id, ExperimentFrame, LongRunNote, RunButtons, RunLog, RunStatus};
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
use crate::components::timeline::{shared_axis_ms, Timeline};
use crate::components::trace_picker::{TraceLog, TracePicker};
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use experiments::catalog::document_search::{self, Settings};
use experiments::catalog::document_search::{DOCUMENTS, LATENCY_MS, REPETITIONS, TASKS};
use experiments::catalog::ExperimentId;
use experiments::catalog::Machine;
use experiments::published::{FIND_1000, FIND_DOCUMENTS};
use experiments::stats::speedup;
use experiments::{Job, Measurement, Variant, WaitReport, Workload};
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

pub fn describe(job: &Job) -> String {
    let t = ui();
    let counts = [("tasks", Arg::Count(job.tasks as u64)), ("workers", Arg::Count(job.workers as u64))];
    // Documents already in memory (no read latency) give the tasks nothing to wait for.
    let waits = matches!(job.workload, Workload::DocSearch { latency_us, .. } if latency_us > 0);
    match (job.variant, waits) {
        (Variant::Sequential, true) => t.docs_sequential.to_string(),
        (Variant::Sequential, false) => t.docs_sequential_no_wait.to_string(),
        (Variant::ThreadPool, true) => message(t.docs_threads, &counts),
        (Variant::ThreadPool, false) => message(t.docs_threads_no_wait, &counts),
        (Variant::Goroutines, true) => message(t.docs_goroutines, &counts),
        (Variant::Goroutines, false) => message(t.docs_goroutines_no_wait, &counts),
    }
}

#[component]
pub fn DocumentSearchExperiment() -> impl IntoView {
    let t = ui();
    view! {
        <ExperimentFrame experiment=ExperimentId::DocumentSearch title=t.docs_title controls=|machine| view! { <DocumentSearchControls machine /> }.into_any()>
            <PublishedTable title=t.published_title caption=t.published_find_caption rows=&FIND_1000 />
        </ExperimentFrame>
    }
}

/// The reader's own sleep overshoot in one sentence: `{asked, mean, longest}` of a loop's reads and
/// what the articles' 1,000 reads would take at that pace.
fn overshoot_sentence(report: &WaitReport) -> String {
    let loop_s = report.in_a_loop_ms(u64::from(FIND_DOCUMENTS)) / 1_000.0;
    message(
        ui().docs_overshoot,
        &[
            ("reads", Arg::Count(report.waits)),
            ("asked", Arg::Text(&format::ms(report.asked_ms))),
            ("mean", Arg::Text(&format::ms(report.mean_waited_ms))),
            ("longest", Arg::Text(&format::ms(report.longest_ms))),
            ("articles_reads", Arg::Count(u64::from(FIND_DOCUMENTS))),
            ("loop", Arg::Text(&format::fixed(loop_s, 2))),
        ],
    )
}

/// [`overshoot_sentence`] under the results once a run's loop has waited; its numbers, unrounded,
/// in data attributes.
#[component]
fn OvershootLine(report: Signal<Option<WaitReport>>) -> impl IntoView {
    move || {
        report.get().map(|r| {
            view! {
                <p class="overshoot" data-testid="docs-overshoot" data-reads=r.waits data-asked-ms=r.asked_ms data-mean-ms=r.mean_waited_ms data-longest-ms=r.longest_ms>
                    {overshoot_sentence(&r)}
                </p>
            }
        })
    }
}

#[component]
fn DocumentSearchControls(machine: Machine) -> impl IntoView {
    let t = ui();
    let workers_limits = document_search::workers_range(machine);
    let exp = ExperimentState::<Settings>::new(machine);
    let log = exp.log;
    let workers = exp.knob(&workers_limits);
    let tasks = exp.knob(&TASKS);
    let documents = exp.knob(&DOCUMENTS);
    let latency = exp.knob(&LATENCY_MS);
    let repetitions = exp.knob(&REPETITIONS);
    // What this tab measured here before (another chapter, another language, a reload) comes back.
    log.restore(&|m, _| (variant_id(m.job.variant), describe(&m.job)));
    let views = DocumentSearchViews {
        rows: log.rows.into(),
        compared: Compared::new(),
        // How long the latest run's loop really waited per read (none when its reads do not wait).
        overshoot: RwSignal::new(None),
        traces: TraceLog::new(),
        threads_points: RwSignal::new(Vec::new()),
        goroutines_points: RwSignal::new(Vec::new()),
        sweep_workers: RwSignal::new(exp.get().workers),
        documents,
        latency,
    };
    let DocumentSearchViews { overshoot, threads_points, goroutines_points, sweep_workers, .. } = views;

    let run = move || {
        let s = exp.get();
        overshoot.set(None);
        exp.run(&s, document_search::run_jobs(&s), record_run(views));
    };

    // One timed run per point (after the sequential baseline) keeps a sweep of slow reads short.
    let sweep = move || {
        let s = exp.get();
        sweep_workers.set(s.workers);
        threads_points.set(Vec::new());
        goroutines_points.set(Vec::new());
        overshoot.set(None);
        // The sweep's points are results too: one row each in the results table and the downloads.
        exp.sweep(&s, document_search::sweep_jobs(&s), record_sweep(views));
    };
    exp.autorun(run);

    let running = exp.running();
    let documents_help = Signal::derive(move || t.docs_documents_help.to_string());
    let latency_help = Signal::derive(move || fill(t.docs_latency_help, &[("ms", &format::int(latency.get()))]));
    // Reads that wait skip the warm-up (see the engine's `measure`); say so.
    let repetitions_help = Signal::derive(move || {
        if latency.get() > 0 { t.repetitions_help_no_warm_up } else { t.repetitions_help }.to_string()
    });

    view! {
        <ClampNotes notes=exp.notes() />
        <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.docs_title)]) on:submit=move |ev| { ev.prevent_default(); run(); }>
            <Slider label=t.workers help=t.workers_help.to_string() value=workers range=Signal::stored(workers_limits) disabled=running />
            <Slider label=t.tasks help=t.tasks_help.to_string() value=tasks range=Signal::stored(TASKS) disabled=running />
            <NumberField label=t.documents help=documents_help value=documents range=DOCUMENTS disabled=running />
            <Slider label=t.read_latency help=latency_help value=latency range=Signal::stored(LATENCY_MS) disabled=running />
            <Slider label=t.repetitions help=repetitions_help value=repetitions range=Signal::stored(REPETITIONS) disabled=running />
            <RunButtons runner=exp.runner run_label=t.run second=(t.sweep_tasks, Callback::new(move |_| sweep())) log />
            {long_run_note(exp)}
        </form>
        // The rest in a later task (issue 15: no main-thread task over 50 ms); the charts, timeline,
        // comparison and sharing come in code of their own, after the engine's files.
        <Later>
            {prediction(log.rows.into(), workers, tasks)}
            <RunStatus runner=exp.runner describe=exp.describe_job(describe) />
            <ResultsTable rows=log.rows.into() />
        </Later>
        <LaterCode load=move || document_search_views(views) />
    }
}

/// A Run or a Sweep of slow reads can take minutes: say so before it starts.
fn long_run_note(exp: ExperimentState<Settings>) -> impl IntoView {
    let at_least_ms =
        Signal::derive(move || experiments::duration::run_takes_at_least_ms(&document_search::run_jobs(&exp.track())));
    let sweep_at_least_ms = Signal::derive(move || {
        experiments::duration::run_takes_at_least_ms(&document_search::sweep_jobs(&exp.track()))
    });
    view! { <LongRunNote at_least_ms sweep_at_least_ms /> }
}

/// Records a run: each row, the loop's waits and the traces.
fn record_run(views: DocumentSearchViews) -> impl Fn(RunLog, usize, Measurement) + 'static {
    let DocumentSearchViews { overshoot, traces, .. } = views;
    move |run_log: RunLog, _: usize, m: Measurement| {
        note_waits(overshoot, &m);
        let sequential = m.job.variant == Variant::Sequential;
        run_log.add(&m, variant_id(m.job.variant), describe(&m.job), sequential);
        show_trace(traces, run_log.label(), m);
    }
}

/// Records the task-count sweep: each row, the loop's waits, each kind's point (its speedup over
/// the loop) and the traces.
fn record_sweep(views: DocumentSearchViews) -> impl Fn(RunLog, usize, Measurement) + 'static {
    let DocumentSearchViews { overshoot, traces, threads_points, goroutines_points, .. } = views;
    let baseline = StoredValue::new(None);
    move |run_log: RunLog, _: usize, m: Measurement| {
        note_waits(overshoot, &m);
        let sequential = m.job.variant == Variant::Sequential;
        run_log.add(&m, variant_id(m.job.variant), describe(&m.job), sequential);
        if sequential {
            baseline.set_value(Some(m.summary));
            return;
        }
        let Some(base) = baseline.get_value() else { return };
        let point = SweepPoint { x: m.job.tasks, summary: m.summary, speedup: speedup(&base, &m.summary) };
        match m.job.variant {
            Variant::ThreadPool => threads_points.update(|p| p.push(point)),
            _ => goroutines_points.update(|p| p.push(point)),
        }
        show_trace(traces, run_log.label(), m);
    }
}

/// Keeps how long the loop's reads really waited.
fn note_waits(overshoot: RwSignal<Option<WaitReport>>, m: &Measurement) {
    if m.job.variant == Variant::Sequential {
        overshoot.set(m.waits);
    }
}

/// Threads and goroutines measured with the same knobs are one choice of the picker, side by side.
fn show_trace(traces: TraceLog, run: String, m: Measurement) {
    if m.job.variant != Variant::Sequential {
        let point = message(
            ui().trace_point,
            &[("tasks", Arg::Count(m.job.tasks as u64)), ("workers", Arg::Count(m.job.workers as u64))],
        );
        traces.add(run, point, m);
    }
}

/// What the document search panel's later views are given: its rows, comparison and traces, the
/// latest loop's waits, each kind's sweep line and the worker count they were measured with.
#[derive(Clone, Copy)]
struct DocumentSearchViews {
    rows: Signal<Vec<ResultRow>>,
    compared: Compared,
    overshoot: RwSignal<Option<WaitReport>>,
    traces: TraceLog,
    threads_points: RwSignal<Vec<SweepPoint>>,
    goroutines_points: RwSignal<Vec<SweepPoint>>,
    sweep_workers: RwSignal<u32>,
    /// The knobs the question to work out names.
    documents: RwSignal<u64>,
    latency: RwSignal<u64>,
}

/// The document search panel's question to work out, sharing, comparison, read overshoot, timelines and sweep chart: a split point of its own
/// (`views_document_search`), fetched after the engine's files (components::split_view::LaterCode).
#[wasm_split(views_document_search, fallible, wasm_split_path = ::leptos::wasm_split)]
fn document_search_views(views: DocumentSearchViews) -> SplitBuilt {
    let t = ui();
    let DocumentSearchViews {
        rows,
        compared,
        overshoot,
        traces,
        threads_points,
        goroutines_points,
        sweep_workers,
        documents,
        latency,
    } = views;
    let overshoot = Signal::from(overshoot);
    let series = Signal::derive(move || {
        let k = [("workers", Arg::Count(sweep_workers.get() as u64))];
        vec![
            Series { name: message(t.docs_threads_series, &k), points: threads_points.get() },
            Series { name: message(t.docs_goroutines_series, &k), points: goroutines_points.get() },
        ]
    });
    let (threads_trace, threads_label) =
        traces.shown_where(|m| m.job.variant == Variant::ThreadPool, |m| describe(&m.job));
    let (goroutines_trace, goroutines_label) =
        traces.shown_where(|m| m.job.variant == Variant::Goroutines, |m| describe(&m.job));
    // The two timelines are meant to be compared: one time axis for both.
    let axis_max_ms = Signal::derive(move || {
        threads_trace.with(|a| goroutines_trace.with(|b| shared_axis_ms(a.iter().chain(b).map(|m| &m.trace))))
    });
    let marker = Signal::derive(move || sweep_workers.get());
    let lanes_of = move |m: Signal<Option<Measurement>>| {
        Signal::derive(move || m.with(|m| m.as_ref().map_or(1, |m| m.job.workers)))
    };
    // Built in later tasks, not in the one that instantiated this code (issue 15: no task over 50 ms).
    Ok(view! {
        <Later>
            {work_it_out(rows, documents, latency)}
            <ShareBar experiment=ExperimentId::DocumentSearch rows />
            <CompareResults experiment=ExperimentId::DocumentSearch own=rows compared />
            <OvershootLine report=overshoot />
        </Later>
        <Later>
            <TracePicker log=traces />
            <div class="timeline-pair">
                <Timeline measurement=threads_trace what=threads_label lanes=lanes_of(threads_trace) test_id="docs-timeline-threads" axis_max_ms note=t.docs_timeline_note />
                <Timeline measurement=goroutines_trace what=goroutines_label lanes=lanes_of(goroutines_trace) test_id="docs-timeline-goroutines" axis_max_ms note=t.docs_timeline_note />
            </div>
            {move || {
                let k = marker.get();
                view! {
                    <SpeedupChart
                        compared=compared.sweep_series(SweptCount::Tasks)
                        series
                        spec=ChartSpec { ideal: true, markers: vec![(k as f64, message(t.workers_marker, &[("workers", Arg::Count(k as u64))]))], published: published_points(&FIND_1000, |r| r.goroutines), ..ChartSpec::speedup(t.axis_tasks) }
                        caption=Signal::derive(move || t.docs_sweep_caption.to_string())
                        empty_text=t.docs_sweep_empty
                        test_id="docs-sweep"
                    />
                }
            }}
        </Later>
    }
    .into_any())
}

/// Document search: goroutines waiting on reads, against the loop.
fn prediction(rows: Signal<Vec<ResultRow>>, workers: RwSignal<u64>, tasks: RwSignal<u64>) -> AnyView {
    use crate::components::predict::workers_question;
    let question = Signal::derive(move || {
        message(
            ui().predict_docs_question,
            &[("workers", Arg::Count(workers.get())), ("tasks", Arg::Count(tasks.get()))],
        )
    });
    workers_question(ExperimentId::DocumentSearch, question, rows, workers)
}

/// Work it out: the least time the loop takes, one read after another (documents × latency),
/// beside the loop's measured time with the same documents and latency.
fn work_it_out(rows: Signal<Vec<ResultRow>>, documents: RwSignal<u64>, latency: RwSignal<u64>) -> AnyView {
    use crate::components::predict::latest_run;
    use crate::components::work_it_out::{self as question, inputs, press, Ask, Exercise};
    let t = ui();
    let ask = Signal::derive(move || {
        let (docs, latency_ms) = (documents.get(), latency.get());
        if latency_ms == 0 {
            return Ask::First(t.work_docs_zero.to_string());
        }
        let answer = (docs * latency_ms) as f64;
        let shown = |n: u64| format::int(n);
        Ask::Exercise(Exercise {
            formula: "loop",
            question: message(
                t.work_docs_question,
                &[("docs", Arg::Count(docs)), ("latency", Arg::Text(&shown(latency_ms)))],
            ),
            unit: t.unit_ms,
            answer,
            worked: fill(
                t.work_docs_worked,
                &[("docs", &shown(docs)), ("latency", &shown(latency_ms)), ("answer", &format::ms(answer))],
            ),
            computed: fill(t.work_at_least_ms, &[("ms", &format::ms(answer))]),
            inputs: inputs(&[("docs", docs as f64), ("latency", latency_ms as f64)]),
        })
    });
    let measured = Signal::derive(move || {
        let wanted = [(DOCUMENTS.key, documents.get()), (LATENCY_MS.key, latency.get())];
        let ms = rows.with(|rows| {
            latest_run(rows)
                .iter()
                .find(|r| {
                    r.kind == "sequential"
                        && wanted.iter().all(|(key, value)| {
                            r.context.settings.iter().any(|(k, v)| k == key && *v == value.to_string())
                        })
                })
                .map(|r| r.summary.median_ms)
        })?;
        Some((t.work_measured_loop.to_string(), fill(t.work_value_ms, &[("ms", &format::ms(ms))])))
    });
    question::work_it_out(ask, measured, press(t.run))
}
