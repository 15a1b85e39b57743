//! What a task costs, part one: tasks of each size as a loop, on a thread pool and as goroutines;
//! where the overhead of a task stops mattering; and, as the Hindi article charted it, the overhead
//! of goroutines on one worker against how many of them a run starts.

use super::panel::RunLog;
use super::panel::{variant_id, ExperimentFrame, RunButtons, RunStatus};
use super::state::{ExperimentState, Launch, RunKind};
use super::task_costs::CostClaims;
use crate::components::compare::{CompareResults, Compared};
use crate::components::controls::NumberField;
use crate::components::controls::Slider;
use crate::components::later::Later;
use crate::components::notes::ClampNotes;
use crate::components::published::article_label;
use crate::components::results::{ResultRow, ResultsTable, RowRatio};
use crate::components::share::ShareBar;
use crate::components::speedup_chart::{ChartSpec, Series, SpeedupChart, SweepPoint, YAxis};
use crate::components::split_view::{LaterCode, SplitBuilt};
use crate::engine_client::Mode;
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use experiments::catalog::task_granularity::{self, Settings};
use experiments::catalog::task_granularity::{
    workers as workers_range, COUNT_SWEEP_UP_TO, REPETITIONS, SQRT_COUNTS, TASKS,
};
use experiments::catalog::ExperimentId;
use experiments::catalog::Machine;
use experiments::published::{BATCHING_LOSS_HI, GOROUTINE_PERFORMANCE_HI};
use experiments::stats::speedup;
use experiments::{Job, Measurement, Summary, Variant, Workload};
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

fn sqrt_of(job: &Job) -> u32 {
    match job.workload {
        Workload::Granularity { sqrt } => sqrt,
        _ => 0,
    }
}

/// A measured row's description: the job's, and how many passes its time is the mean of when a
/// pass was too short to time alone (the loop of small tasks).
fn describe_measured(m: &Measurement) -> String {
    let row = describe_granularity(&m.job);
    match m.trace.passes {
        Some(passes) => {
            message(ui().granularity_passes, &[("row", Arg::Text(&row)), ("passes", Arg::Count(passes as u64))])
        }
        None => row,
    }
}

fn describe_granularity(job: &Job) -> String {
    let t = ui();
    let template = match job.variant {
        Variant::Sequential => t.granularity_loop,
        Variant::ThreadPool => t.granularity_rayon,
        Variant::Goroutines => t.granularity_goroutines,
    };
    message(
        template,
        &[
            ("tasks", Arg::Count(job.tasks as u64)),
            ("workers", Arg::Count(job.workers as u64)),
            ("sqrt", Arg::Count(sqrt_of(job) as u64)),
        ],
    )
}

/// "Your loss at 100,000 tasks: …": for the published advice's task sizes, how much longer than the
/// loop the goroutines took, at the largest task count measured for all of those sizes.
fn own_loss(lines: &[(u32, Vec<SweepPoint>)]) -> Option<String> {
    let t = ui();
    let claimed: Vec<&Vec<SweepPoint>> = BATCHING_LOSS_HI
        .iter()
        .map(|claim| lines.iter().find(|(sqrt, _)| *sqrt == claim.sqrt_per_task).map(|(_, points)| points))
        .collect::<Option<_>>()?;
    let common = claimed.iter().map(|points| points.iter().map(|p| p.x).max()).collect::<Option<Vec<u32>>>()?;
    let count = common.into_iter().min()?;
    let losses: Vec<String> = BATCHING_LOSS_HI
        .iter()
        .zip(&claimed)
        .filter_map(|(claim, points)| {
            let point = points.iter().find(|p| p.x == count)?;
            let size = message(t.count_series, &[("sqrt", Arg::Count(claim.sqrt_per_task as u64))]);
            Some(loss_text(&size, 1.0 / point.speedup))
        })
        .collect();
    Some(message(t.count_your_loss, &[("tasks", Arg::Count(count as u64)), ("losses", Arg::Text(&losses.join("; ")))]))
}

/// How a loss against the loop reads best: as a share of the loop's time while it is small, as a
/// ratio from twice the loop's time on ("2,930 % more" reads worse than "30.30×").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LossWording {
    Less,
    More,
    Times,
}

/// The wording for goroutines that took `time_over_loop` times the loop's time.
fn loss_wording(time_over_loop: f64) -> LossWording {
    match time_over_loop {
        r if r >= 2.0 => LossWording::Times,
        r if r < 1.0 => LossWording::Less,
        _ => LossWording::More,
    }
}

/// "10 sqrt per task: 20 % more time than the loop", or "…: 30.30× the loop's time".
fn loss_text(size: &str, time_over_loop: f64) -> String {
    let t = ui();
    let share = |r: f64| format::percent((r - 1.0).abs());
    match loss_wording(time_over_loop) {
        LossWording::Times => fill(t.count_loss_times, &[("size", size), ("ratio", &format::times(time_over_loop))]),
        LossWording::More => fill(t.count_loss_more, &[("size", size), ("percent", &share(time_over_loop))]),
        LossWording::Less => fill(t.count_loss_less, &[("size", size), ("percent", &share(time_over_loop))]),
    }
}

#[component]
pub fn GranularityExperiment() -> impl IntoView {
    let t = ui();
    view! {
        <ExperimentFrame experiment=ExperimentId::TaskGranularity title=t.granularity_title controls=|machine| view! { <GranularityControls machine /> }.into_any()>
            <CostClaims claims=vec![(t.cost_claim_overhead, GOROUTINE_PERFORMANCE_HI)] />
        </ExperimentFrame>
    }
}

#[component]
fn GranularityControls(machine: Machine) -> impl IntoView {
    let t = ui();
    let Machine { cores, mode } = machine;
    let parallel = mode == Mode::Threads;
    let workers_limits = workers_range(cores);
    let (exp, up_to) =
        ExperimentState::<Settings>::with_more(machine, |preset| RwSignal::new(preset.value(&COUNT_SWEEP_UP_TO)));
    let log = exp.log;
    // Without threads the catalog reads no worker count: the runs have one.
    let workers = exp.knob_or(&workers_limits, exp.get().workers as u64);
    let tasks = exp.knob(&TASKS);
    let repetitions = exp.knob(&REPETITIONS);
    // What this tab measured here before (another chapter, another language, a reload) comes back.
    log.restore(&|m, _| (variant_id(m.job.variant), describe_measured(m)));
    let compared = Compared::new();
    // Per (variant, workers): the overhead points; and the loop's time per task size.
    let lines = RwSignal::new(Vec::<KindLine>::new());
    let loop_ms = RwSignal::new(Vec::<(u32, f64)>::new());
    let measured_tasks = RwSignal::new(exp.get().tasks);
    // The task-count sweep: per task size, goroutines ÷ loop at each task count.
    let count_lines = RwSignal::new(Vec::<(u32, Vec<SweepPoint>)>::new());
    // Both buttons measure a sweep (every task size, or every task count): its rows say so. The
    // address also keeps how far the count sweep goes.
    let sweep = move |s: &Settings, jobs: Vec<Job>, on_measured: Box<dyn Fn(RunLog, usize, Measurement)>| {
        let mut query = s.query();
        query.push((COUNT_SWEEP_UP_TO.key, up_to.get_untracked().to_string()));
        exp.start(Launch { kind: RunKind::Sweep, query, jobs, file: None }, on_measured);
    };

    let run = move || {
        let s = exp.get();
        let kinds = task_granularity::kinds(&s, mode);
        lines.set(kinds.iter().map(|&kind| (kind, Vec::new())).collect());
        loop_ms.set(Vec::new());
        measured_tasks.set(s.tasks);
        sweep(&s, task_granularity::run_jobs(&s, mode), size_points(lines, loop_ms));
    };
    let sweep_counts = move || {
        let s = exp.get();
        count_lines.set(SQRT_COUNTS.iter().map(|&sqrt| (sqrt, Vec::new())).collect());
        sweep(&s, task_granularity::count_sweep_jobs(&s, up_to.get_untracked() as u32), count_points(count_lines));
    };
    exp.autorun(run);
    let count_series = count_series_of(count_lines);
    let count_caption = count_caption_of(count_lines);
    let series = series_of(lines);
    let thresholds = thresholds_of(loop_ms, measured_tasks);
    let running = exp.running();
    view! {
        <ClampNotes notes=exp.notes() />
        <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.granularity_title)]) on:submit=move |ev| { ev.prevent_default(); run(); }>
            <NumberField label=t.tasks help=t.granularity_tasks_help.to_string() value=tasks range=TASKS disabled=running />
            <Slider label=t.workers help=t.granularity_workers_help.to_string() value=workers range=Signal::stored(workers_limits) disabled=Signal::derive(move || running.get() || !parallel) />
            <Slider label=t.repetitions help=t.repetitions_help.to_string() value=repetitions range=Signal::stored(REPETITIONS) disabled=running />
            <NumberField label=t.count_sweep_up_to help=t.count_sweep_up_to_help.to_string() value=up_to range=COUNT_SWEEP_UP_TO disabled=running />
            <RunButtons runner=exp.runner run_label=t.granularity_run second=(t.count_sweep, Callback::new(move |_| sweep_counts())) />
        </form>
        // The rest in a later task (issue 15: no main-thread task over 50 ms); the charts, timeline,
        // comparison and sharing come in code of their own, after the engine's files.
        <Later>
            {prediction(log.rows.into())}
            <RunStatus runner=exp.runner describe=exp.describe_job(describe_granularity) />
        </Later>
        <LaterCode load=move || task_granularity_views(log.rows.into(), compared, series, thresholds, CostQuestion { lines, measured_tasks, count_lines, up_to }, count_series, count_caption) />
    }
}

/// Records the task-size sweep: each row, the loop's time per size, and each kind's point
/// (its time ÷ the loop's of the same size).
fn size_points(
    lines: RwSignal<Vec<KindLine>>,
    loop_ms: RwSignal<Vec<(u32, f64)>>,
) -> Box<dyn Fn(RunLog, usize, Measurement)> {
    let baseline = StoredValue::new(None::<Summary>);
    Box::new(move |run_log: RunLog, _, m: Measurement| {
        let sequential = m.job.variant == Variant::Sequential;
        run_log.add(&m, variant_id(m.job.variant), describe_measured(&m), sequential);
        if sequential {
            baseline.set_value(Some(m.summary));
            loop_ms.update(|l| l.push((sqrt_of(&m.job), m.summary.median_ms)));
            return;
        }
        let Some(base) = baseline.get_value() else { return };
        let point = SweepPoint { x: sqrt_of(&m.job), summary: m.summary, speedup: speedup(&base, &m.summary) };
        lines.update(|lines| {
            if let Some((_, points)) = lines.iter_mut().find(|(kind, _)| *kind == (m.job.variant, m.job.workers)) {
                points.push(point);
            }
        });
    })
}

/// Records the task-count sweep: each row, and per task size the goroutines' point at each count.
fn count_points(count_lines: RwSignal<Vec<(u32, Vec<SweepPoint>)>>) -> Box<dyn Fn(RunLog, usize, Measurement)> {
    let baseline = StoredValue::new(None::<Summary>);
    Box::new(move |run_log: RunLog, _, m: Measurement| {
        let sequential = m.job.variant == Variant::Sequential;
        run_log.add(&m, variant_id(m.job.variant), describe_measured(&m), sequential);
        if sequential {
            baseline.set_value(Some(m.summary));
            return;
        }
        let Some(base) = baseline.get_value() else { return };
        let point = SweepPoint { x: m.job.tasks, summary: m.summary, speedup: speedup(&base, &m.summary) };
        count_lines.update(|lines| {
            if let Some((_, points)) = lines.iter_mut().find(|(sqrt, _)| *sqrt == sqrt_of(&m.job)) {
                points.push(point);
            }
        });
    })
}

/// One line per task size of the task-count sweep: goroutines ÷ loop at each count.
fn count_series_of(count_lines: RwSignal<Vec<(u32, Vec<SweepPoint>)>>) -> Signal<Vec<Series>> {
    let t = ui();
    Signal::derive(move || {
        count_lines.with(|lines| {
            lines
                .iter()
                .map(|(sqrt, points)| Series {
                    name: message(t.count_series, &[("sqrt", Arg::Count(*sqrt as u64))]),
                    points: points.clone(),
                })
                .collect::<Vec<_>>()
        })
    })
}

/// The published advice, then the reader's own loss at those sizes for the largest count measured.
fn count_caption_of(count_lines: RwSignal<Vec<(u32, Vec<SweepPoint>)>>) -> Signal<String> {
    let t = ui();
    Signal::derive(move || {
        let [small, large] = BATCHING_LOSS_HI;
        let mut caption = format!(
            "{} {}",
            t.count_caption,
            message(
                t.count_batching_claim,
                &[
                    ("source", Arg::Text(article_label(GOROUTINE_PERFORMANCE_HI.article))),
                    ("small", Arg::Count(small.sqrt_per_task as u64)),
                    ("large", Arg::Count(large.sqrt_per_task as u64)),
                    ("small_loss", Arg::Count(small.loss_percent as u64)),
                    ("large_loss", Arg::Count(large.loss_percent as u64)),
                ],
            )
        );
        if let Some(loss) = own_loss(&count_lines.get()) {
            caption.push(' ');
            caption.push_str(&loss);
        }
        caption
    })
}

/// One line per (variant, workers) of the task-size sweep.
fn series_of(lines: RwSignal<Vec<KindLine>>) -> Signal<Vec<Series>> {
    let t = ui();
    Signal::derive(move || {
        lines.with(|lines| {
            lines
                .iter()
                .map(|((variant, workers), points)| {
                    let template = if *variant == Variant::ThreadPool { t.series_rayon } else { t.series_goroutines };
                    Series {
                        name: message(template, &[("workers", Arg::Count(*workers as u64))]),
                        points: points.clone(),
                    }
                })
                .collect::<Vec<_>>()
        })
    })
}

/// Where a task does ~1 µs and ~1 ms of work: from the loop, time per square root on this machine.
fn thresholds_of(loop_ms: RwSignal<Vec<(u32, f64)>>, measured_tasks: RwSignal<u32>) -> Signal<Vec<(f64, String)>> {
    let t = ui();
    Signal::derive(move || {
        let x = measured_tasks.get() as f64;
        loop_ms
            .with(|l| {
                l.iter().max_by_key(|(sqrt, _)| *sqrt).map(|&(sqrt, ms)| {
                    let us_per_sqrt = ms * 1000.0 / (x * sqrt as f64);
                    vec![
                        (1.0 / us_per_sqrt, t.threshold_us.to_string()),
                        (1000.0 / us_per_sqrt, t.threshold_ms.to_string()),
                    ]
                })
            })
            .unwrap_or_default()
    })
}

/// What a task costs: the smallest tasks as goroutines on one worker, against the loop.
fn prediction(rows: Signal<Vec<ResultRow>>) -> AnyView {
    use crate::components::predict::{latest_run, overhead_band, strings, Measured, Prediction};
    let t = ui();
    let measured = Signal::derive(move || {
        rows.with(|rows| {
            let row = latest_run(rows).iter().find(|r| r.kind == "goroutines" && r.workers == 1)?;
            let time_over_loop = 1.0 / row.speedup?;
            overhead_band(time_over_loop).map(|option| Measured {
                option,
                value: fill(t.predict_value_overhead, &[("x", &format::times(time_over_loop))]),
            })
        })
    });
    let question = Signal::stored(t.predict_granularity_question.to_string());
    let options = Signal::stored(strings(&t.predict_granularity_options));
    view! { <Prediction experiment=ExperimentId::TaskGranularity question options measured quotes="row:goroutines@1" /> }.into_any()
}

/// One line of the run: its (variant, workers) and its points over the task sizes.
type KindLine = ((Variant, u32), Vec<SweepPoint>);

/// What the question to work out reads: the run's lines per (variant, workers) over the task sizes,
/// the task count they were measured with, the count sweep's lines per task size, and how far it goes.
#[derive(Clone, Copy)]
struct CostQuestion {
    lines: RwSignal<Vec<KindLine>>,
    measured_tasks: RwSignal<u32>,
    count_lines: RwSignal<Vec<(u32, Vec<SweepPoint>)>>,
    up_to: RwSignal<u64>,
}

/// Work it out: from the time per task of the run's smallest goroutines on one worker, how long the
/// count sweep's largest count of them takes; beside what the count sweep measured for it.
fn work_it_out(q: CostQuestion) -> AnyView {
    let CostQuestion { lines, measured_tasks, count_lines, up_to } = q;
    use crate::components::work_it_out::{self as question, first, inputs, press, shown, Ask, Exercise};
    let t = ui();
    let smallest = SQRT_COUNTS[0];
    let ask = Signal::derive(move || {
        let Some(ms) = lines.with(|lines| {
            lines
                .iter()
                .find(|(kind, _)| *kind == (Variant::Goroutines, 1))
                .and_then(|(_, points)| points.iter().find(|p| p.x == smallest))
                .map(|p| p.summary.median_ms)
        }) else {
            return first(t.granularity_run);
        };
        let (tasks, count) = (measured_tasks.get(), up_to.get());
        let ms = shown(ms, format::ms_digits(ms));
        let ns = (ms * 1e6 / tasks.max(1) as f64).round();
        let answer = shown(count as f64 * ns / 1e6, 3);
        Ask::Exercise(Exercise {
            formula: "per-task",
            question: message(
                t.work_cost_question,
                &[
                    ("tasks", Arg::Count(tasks as u64)),
                    ("ms", Arg::Text(&format::ms(ms))),
                    ("ns", Arg::Text(&format::int(ns as u64))),
                    ("count", Arg::Count(count)),
                ],
            ),
            unit: t.unit_ms,
            answer,
            worked: fill(
                t.work_cost_worked,
                &[("count", &format::int(count)), ("ns", &format::int(ns as u64)), ("answer", &format::ms(answer))],
            ),
            computed: fill(t.work_about_ms, &[("ms", &format::ms(answer))]),
            inputs: inputs(&[("ns", ns), ("count", count as f64)]),
        })
    });
    let measured = Signal::derive(move || {
        let count = up_to.get() as u32;
        let ms = count_lines.with(|lines| {
            lines
                .iter()
                .find(|(sqrt, _)| *sqrt == smallest)
                .and_then(|(_, points)| points.iter().find(|p| p.x == count))
                .map(|p| p.summary.median_ms)
        })?;
        Some((
            message(t.work_measured_count, &[("count", Arg::Count(count as u64))]),
            fill(t.work_value_ms, &[("ms", &format::ms(ms))]),
        ))
    });
    question::work_it_out(ask, measured, press(t.count_sweep))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_loss_reads_as_a_ratio_and_a_small_one_as_a_share() {
        assert_eq!(loss_wording(30.3), LossWording::Times);
        assert_eq!(loss_wording(2.0), LossWording::Times);
        assert_eq!(loss_wording(1.99), LossWording::More);
        assert_eq!(loss_wording(1.2), LossWording::More);
        assert_eq!(loss_wording(1.0), LossWording::More);
        assert_eq!(loss_wording(0.95), LossWording::Less);
    }
}

/// The task granularity panel's question to work out, two charts, results table, comparison and sharing: a split point of its own
/// (`views_task_granularity`), fetched after the engine's files (components::split_view::LaterCode).
#[wasm_split(views_task_granularity, fallible, wasm_split_path = ::leptos::wasm_split)]
fn task_granularity_views(
    rows: Signal<Vec<ResultRow>>,
    compared: Compared,
    series: Signal<Vec<Series>>,
    thresholds: Signal<Vec<(f64, String)>>,
    question: CostQuestion,
    count_series: Signal<Vec<Series>>,
    count_caption: Signal<String>,
) -> SplitBuilt {
    let t = ui();
    let measured_tasks = question.measured_tasks;
    // Built in later tasks, not in the one that instantiated this code (issue 15: no task over 50 ms).
    Ok(view! {
        <Later>
            {work_it_out(question)}
            <ShareBar experiment=ExperimentId::TaskGranularity rows />
            {move || {
                let markers = thresholds.get();
                view! {
                    <SpeedupChart
                        series
                        spec=ChartSpec { y_axis: YAxis::Overhead, markers, ..ChartSpec::speedup(t.sqrt_per_task) }
                        caption=Signal::derive(move || message(t.granularity_caption, &[("tasks", Arg::Count(measured_tasks.get() as u64))]))
                        empty_text=t.granularity_empty
                        test_id="granularity-chart"
                    />
                }
            }}
            <SpeedupChart
                series=count_series
                spec=ChartSpec { y_axis: YAxis::Overhead, x_from_data: true, ..ChartSpec::speedup(t.count_axis) }
                caption=count_caption
                empty_text=t.count_empty
                test_id="count-chart"
            />
            <ResultsTable rows ratio=RowRatio::TimeOverBaseline />
            <CompareResults experiment=ExperimentId::TaskGranularity own=rows compared />
        </Later>
    }
    .into_any())
}
