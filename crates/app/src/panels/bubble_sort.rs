//! The bubble sort chapter: sequential bubble sort against three parallel sorts (the articles'
//! chunked version, odd-even transposition, merge sort), a sweep over workers, and Amdahl's law
//! fitted to each parallel sort's own speedups.

use super::panel::{ExperimentFrame, RunButtons, RunLog, RunStatus};
use super::state::ExperimentState;
use crate::components::compare::{CompareResults, Compared, SweptCount};
use crate::components::controls::{unique_id, NumberField, Slider};
use crate::components::later::Later;
use crate::components::notes::ClampNotes;
use crate::components::results::{ResultRow, ResultsTable};
use crate::components::share::ShareBar;
use crate::components::speedup_chart::{ChartSpec, Series, SpeedupChart, SweepPoint, YAxis};
use crate::components::split_view::{LaterCode, SplitBuilt};
use crate::components::timeline::Timeline;
use crate::components::trace_picker::{TraceLog, TracePicker};
use crate::engine_client::Mode;
use crate::format;
use crate::i18n::{self, fill, message, ui, Arg};
use experiments::catalog::bubble_sort::{self, Settings, PARALLEL};
use experiments::catalog::bubble_sort::{NUMBERS, REPETITIONS, SLOW_ABOVE, TASKS};
use experiments::catalog::ExperimentId;
use experiments::catalog::Machine;
use experiments::stats::speedup;
use experiments::{Job, Measurement, SortAlgorithm, Summary, Workload};
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

fn algorithm_of(job: &Job) -> SortAlgorithm {
    match job.workload {
        Workload::Sort { algorithm, .. } => algorithm,
        _ => SortAlgorithm::Bubble,
    }
}

/// A stable id per algorithm, for `data-variant` and the URL.
fn algorithm_id(algorithm: SortAlgorithm) -> &'static str {
    match algorithm {
        SortAlgorithm::Bubble => "bubble",
        SortAlgorithm::ChunkedBubble => "chunked",
        SortAlgorithm::OddEven => "odd-even",
        SortAlgorithm::Merge => "merge",
    }
}

fn short_name(algorithm: SortAlgorithm) -> &'static str {
    let t = ui();
    match algorithm {
        SortAlgorithm::Bubble => t.sort_bubble,
        SortAlgorithm::ChunkedBubble => t.sort_chunked_short,
        SortAlgorithm::OddEven => t.sort_odd_even_short,
        SortAlgorithm::Merge => t.sort_merge_short,
    }
}

fn describe(job: &Job) -> String {
    let t = ui();
    let template = match algorithm_of(job) {
        SortAlgorithm::Bubble => return t.sort_bubble.to_string(),
        SortAlgorithm::ChunkedBubble => t.sort_chunked,
        SortAlgorithm::OddEven => t.sort_odd_even,
        SortAlgorithm::Merge => t.sort_merge,
    };
    message(template, &[("tasks", Arg::Count(job.tasks as u64)), ("workers", Arg::Count(job.workers as u64))])
}

/// The time chart's caption; it names the sequential sort's time once a run measured it.
fn time_caption(sequential_ms: f64) -> String {
    let t = ui();
    if sequential_ms.is_finite() {
        format!("{} {}", t.sort_time_caption, fill(t.sort_time_sequential, &[("ms", &format::ms(sequential_ms))]))
    } else {
        t.sort_time_caption.to_string()
    }
}

#[component]
pub fn BubbleSortExperiment() -> impl IntoView {
    let t = ui();
    view! {
        <ExperimentFrame experiment=ExperimentId::BubbleSort title=t.sort_title controls=|machine| view! { <BubbleSortControls machine /> }.into_any()></ExperimentFrame>
    }
}

#[component]
fn BubbleSortControls(machine: Machine) -> impl IntoView {
    let t = ui();
    let Machine { cores, mode } = machine;
    let workers_limits = bubble_sort::workers_range(machine);
    let exp = ExperimentState::<Settings>::new(machine);
    let log = exp.log;
    let workers = exp.knob(&workers_limits);
    let tasks = exp.knob(&TASKS);
    let numbers = exp.knob(&NUMBERS);
    let repetitions = exp.knob(&REPETITIONS);
    // What this tab measured here before (another chapter, another language, a reload) comes back.
    log.restore(&|m, _| (algorithm_id(algorithm_of(&m.job)), describe(&m.job)));
    let views = BubbleSortViews {
        rows: log.rows.into(),
        compared: Compared::new(),
        traces: TraceLog::new(),
        shown: RwSignal::new(SortAlgorithm::ChunkedBubble),
        sweep: RwSignal::new(Vec::new()),
        sequential_ms: RwSignal::new(f64::NAN),
        cores,
    };
    let BubbleSortViews { traces, sweep, .. } = views;

    let run = move || {
        let s = exp.get();
        exp.run(&s, bubble_sort::run_jobs(&s), move |run_log, _, m| {
            let algorithm = algorithm_of(&m.job);
            let sequential = algorithm == SortAlgorithm::Bubble;
            run_log.add(&m, algorithm_id(algorithm), describe(&m.job), sequential);
            if !sequential {
                keep_trace(traces, run_log.label(), m);
            }
        });
    };

    let run_sweep = move || {
        let s = exp.get();
        sweep.set(PARALLEL.iter().map(|&a| (a, Vec::new())).collect());
        // The sweep's points are results too: one row each in the results table and the downloads.
        exp.sweep(&s, bubble_sort::sweep_jobs(&s, workers_limits.max as u32), record_sweep(views));
    };
    exp.autorun(run);

    let running = exp.running();
    let numbers_help = Signal::derive(move || fill(t.sort_numbers_help, &[("value", &format::compact(numbers.get()))]));
    let slow = move || numbers.get() > SLOW_ABOVE;
    view! {
        <ClampNotes notes=exp.notes() />
        <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.sort_title)]) on:submit=move |ev| { ev.prevent_default(); run(); }>
            <Slider label=t.workers help=t.workers_help.to_string() value=workers range=Signal::stored(workers_limits) disabled=running />
            <Slider label=t.tasks help=t.sort_chunks_help.to_string() value=tasks range=Signal::stored(TASKS) disabled=running />
            <NumberField label=t.numbers help=numbers_help value=numbers range=NUMBERS disabled=running />
            <Slider label=t.repetitions help=t.repetitions_help.to_string() value=repetitions range=Signal::stored(REPETITIONS) disabled=running />
            <Show when=slow>
                <p class="notice notice-warning warning-inline" role="note" data-testid="slow-warning">
                    {move || message(t.sort_slow_warning, &[("value", Arg::Count(numbers.get()))])}
                </p>
            </Show>
            <RunButtons runner=exp.runner run_label=t.run second=(t.sweep, Callback::new(move |_| run_sweep())) second_disabled=mode == Mode::SingleWorker log />
        </form>
        // The rest in a later task (issue 15: no main-thread task over 50 ms); the charts, timeline,
        // comparison and sharing come in code of their own, after the engine's files.
        <Later>
            {prediction(log.rows.into(), workers)}
            <RunStatus runner=exp.runner describe=exp.describe_job(describe) />
            <ResultsTable rows=log.rows.into() />
        </Later>
        <LaterCode load=move || bubble_sort_views(views) />
    }
}

/// The sorts measured with one worker count are one choice of the picker; "Sort in the timeline"
/// picks among them.
fn keep_trace(traces: TraceLog, run: String, m: Measurement) {
    traces.add(run, i18n::workers(m.job.workers), m);
}

/// Records the sweep over workers: each row, the bubble sort's time, each parallel sort's points
/// and their traces.
fn record_sweep(views: BubbleSortViews) -> impl Fn(RunLog, usize, Measurement) + 'static {
    let BubbleSortViews { traces, sweep, sequential_ms, .. } = views;
    move |run_log: RunLog, _: usize, m: Measurement| {
        let algorithm = algorithm_of(&m.job);
        run_log.add(&m, algorithm_id(algorithm), describe(&m.job), algorithm == SortAlgorithm::Bubble);
        if algorithm == SortAlgorithm::Bubble {
            sequential_ms.set(m.summary.median_ms);
            return;
        }
        sweep.update(|lines| {
            if let Some((_, points)) = lines.iter_mut().find(|(a, _)| *a == algorithm) {
                points.push((m.job.workers, m.summary));
            }
        });
        keep_trace(traces, run_log.label(), m);
    }
}

/// One sort's sweep: its (workers, summary) points.
type SortLine = (SortAlgorithm, Vec<(u32, Summary)>);

/// What the sort panel's later views are given: its rows, comparison and traces, the sort shown in
/// the timeline, the sweep's points per sort and the bubble sort's time, the logical processors.
#[derive(Clone, Copy)]
struct BubbleSortViews {
    rows: Signal<Vec<ResultRow>>,
    compared: Compared,
    traces: TraceLog,
    shown: RwSignal<SortAlgorithm>,
    sweep: RwSignal<Vec<SortLine>>,
    sequential_ms: RwSignal<f64>,
    cores: u32,
}

/// The sort panel's sharing, comparison, timeline and sweep charts: a split point of its own
/// (`views_bubble_sort`), fetched after the engine's files (components::split_view::LaterCode).
#[wasm_split(views_bubble_sort, fallible, wasm_split_path = ::leptos::wasm_split)]
fn bubble_sort_views(views: BubbleSortViews) -> SplitBuilt {
    let BubbleSortViews { rows, compared, traces, shown, sweep, sequential_ms, cores } = views;
    let (shown_trace, shown_label) =
        traces.shown_where(move |m| algorithm_of(&m.job) == shown.get(), |m| describe(&m.job));
    let lanes = Signal::derive(move || shown_trace.with(|m| m.as_ref().map_or(1, |m| m.job.workers)));

    let t = ui();
    let select_id = unique_id("timeline-of");
    // Built in later tasks, not in the one that instantiated this code (issue 15: no task over 50 ms).
    Ok(view! {
        <Later>
            {work_it_out(sweep)}
            <ShareBar experiment=ExperimentId::BubbleSort rows />
            <CompareResults experiment=ExperimentId::BubbleSort own=rows compared />
        </Later>
        <Later>
            <TracePicker log=traces />
            {timeline_choice(traces, shown, select_id)}
            <Timeline measurement=shown_trace what=shown_label lanes test_id="sort-timeline" />
            <SpeedupChart
                compared=compared.sweep_series(SweptCount::Workers)
                series=time_series(sweep, sequential_ms)
                spec=ChartSpec { y_axis: YAxis::Milliseconds, ..ChartSpec::speedup(t.axis_workers) }
                caption=Signal::derive(move || time_caption(sequential_ms.get()))
                empty_text=t.sort_sweep_empty
                test_id="sort-time"
            />
            <SpeedupChart
                compared=compared.sweep_series(SweptCount::Workers)
                series=self_series(sweep)
                spec=ChartSpec { ideal: true, fit_amdahl: true, markers: vec![(cores as f64, t.your_cores.to_string())], ..ChartSpec::speedup(t.axis_workers) }
                caption=Signal::derive(move || t.sort_speedup_caption.to_string())
                empty_text=t.sort_sweep_empty
                test_id="sort-amdahl"
            />
        </Later>
    }
    .into_any())
}

/// Time against workers: each point's speedup over the sequential bubble sort.
fn time_series(sweep: RwSignal<Vec<SortLine>>, sequential_ms: RwSignal<f64>) -> Signal<Vec<Series>> {
    Signal::derive(move || {
        let base = sequential_ms.get();
        sweep.with(|lines| {
            lines
                .iter()
                .map(|(algorithm, points)| Series {
                    name: short_name(*algorithm).to_string(),
                    points: points
                        .iter()
                        .map(|&(x, summary)| SweepPoint { x, summary, speedup: base / summary.median_ms })
                        .collect(),
                })
                .collect::<Vec<_>>()
        })
    })
}

/// Each sort's speedup over itself on one worker (what Amdahl's law describes).
fn self_series(sweep: RwSignal<Vec<SortLine>>) -> Signal<Vec<Series>> {
    Signal::derive(move || {
        sweep.with(|lines| {
            lines
                .iter()
                .map(|(algorithm, points)| {
                    let one = points.iter().find(|(x, _)| *x == 1).map(|(_, s)| *s);
                    Series {
                        name: short_name(*algorithm).to_string(),
                        points: points
                            .iter()
                            .filter_map(|&(x, summary)| {
                                one.map(|one| SweepPoint { x, summary, speedup: speedup(&one, &summary) })
                            })
                            .collect(),
                    }
                })
                .collect::<Vec<_>>()
        })
    })
}

/// Once a run is traced: which parallel sort the timeline shows (a select of id `select_id`).
fn timeline_choice(traces: TraceLog, shown: RwSignal<SortAlgorithm>, select_id: String) -> impl IntoView {
    let t = ui();
    let traced_job = traces.shown();
    view! {
        <Show when=move || traced_job.with(Option::is_some)>
            <div class="control timeline-choice">
                <label for=select_id.clone()>{t.timeline_of}</label>
                <select
                    id=select_id.clone()
                    on:change=move |ev| {
                        let chosen = event_target_value(&ev);
                        if let Some(&a) = PARALLEL.iter().find(|a| algorithm_id(**a) == chosen) {
                            shown.set(a);
                        }
                    }
                >
                    {PARALLEL.iter().map(|&a| view! {
                        <option value=algorithm_id(a) selected=move || shown.get() == a>{short_name(a)}</option>
                    }).collect_view()}
                </select>
            </div>
        </Show>
    }
}

/// Bubble sort: the chunked sort's speedup over one bubble sort.
fn prediction(rows: Signal<Vec<ResultRow>>, workers: RwSignal<u64>) -> AnyView {
    use crate::components::predict::speedup_question;
    let question =
        Signal::derive(move || message(ui().predict_sort_question, &[("workers", Arg::Count(workers.get()))]));
    speedup_question(ExperimentId::BubbleSort, question, rows, "chunked", workers)
}

/// The chunked sort's sweep as (workers, speedup over itself on one worker), if it has a point on
/// one worker.
fn chunked_speedups(lines: &[SortLine]) -> Vec<(f64, f64)> {
    let Some((_, points)) = lines.iter().find(|(a, _)| *a == SortAlgorithm::ChunkedBubble) else { return Vec::new() };
    let Some(one) = points.iter().find(|(k, _)| *k == 1).map(|(_, s)| *s) else { return Vec::new() };
    points.iter().map(|&(k, summary)| (k as f64, speedup(&one, &summary))).collect()
}

/// Work it out: Amdahl's ceiling for the chunked sort, from the serial share fitted to its sweep
/// (the fit the speedup chart draws), beside the best speedup the sweep measured.
fn work_it_out(sweep: RwSignal<Vec<SortLine>>) -> AnyView {
    use crate::components::work_it_out::{
        self as question, amdahl_ceiling, first, inputs, press, shown, Ask, Exercise,
    };
    use experiments::stats::{amdahl_fit, AmdahlFit};
    let t = ui();
    let ask = Signal::derive(move || {
        let serial = match sweep.with(|lines| amdahl_fit(&chunked_speedups(lines))) {
            None => return first(t.sweep),
            Some(AmdahlFit::NoFaster) => return Ask::First(t.work_amdahl_no_faster.to_string()),
            Some(AmdahlFit::Serial(serial)) => serial,
        };
        // The share as shown, to a tenth of a percent: the reader computes from that.
        let serial = shown(serial, 3);
        let Some(answer) = amdahl_ceiling(serial) else { return Ask::First(t.work_amdahl_none.to_string()) };
        let x = format::decimal(answer, 2);
        Ask::Exercise(Exercise {
            formula: "amdahl",
            question: fill(t.work_amdahl_question, &[("serial", &format::decimal(serial * 100.0, 1))]),
            unit: t.unit_times,
            answer,
            worked: fill(t.work_amdahl_worked, &[("s", &format::decimal(serial, 3)), ("answer", &x)]),
            computed: fill(t.work_at_most_times, &[("x", &x)]),
            inputs: inputs(&[("serial", serial)]),
        })
    });
    let measured = Signal::derive(move || {
        let (k, best) = sweep.with(|lines| {
            chunked_speedups(lines).into_iter().filter(|(_, s)| s.is_finite()).max_by(|a, b| a.1.total_cmp(&b.1))
        })?;
        Some((
            message(t.work_measured_best, &[("workers", Arg::Count(k as u64))]),
            fill(t.work_value_times, &[("x", &format::decimal(best, 2))]),
        ))
    });
    question::work_it_out(ask, measured, press(t.sweep))
}
