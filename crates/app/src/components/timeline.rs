//! The per-worker timeline: one lane per worker, each task a bar, time running left to right,
//! with the same data as tables beside it (per worker, and every task in a disclosure).

use super::axis::Scale;
use super::canvas::{chart_with_axes, err, paint, text_on, watch_width, AxisSpec, TASK_COLOURS};
use super::controls::unique_id;
use super::share::download;
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use experiments::trace_export::chrome_trace_json;
use experiments::{Measurement, Span, Trace};
use leptos::html::{Canvas, Figure};
use leptos::prelude::*;
use plotters::prelude::*;

const HEIGHT_PER_LANE: f64 = 28.0;
const AXIS_HEIGHT: f64 = 56.0;
/// Beyond this many tasks the per-task table is cut (the per-worker table stays complete).
const MAX_TASK_ROWS: usize = 500;

/// Per-worker totals of one trace.
#[derive(Clone, Debug, PartialEq)]
struct WorkerRow {
    worker: u32,
    /// Tasks whose first bar is on this worker: each task is counted once, where it started, so
    /// the column adds up to the number of tasks.
    tasks_started: usize,
    /// Bars on this worker: a task that parks and resumes runs in several slices, perhaps on
    /// several workers, and each slice is a bar.
    slices: usize,
    busy_ms: f64,
    first_start_ms: f64,
    last_end_ms: f64,
    /// Total time tasks spent parked after leaving this worker.
    parked_ms: f64,
}

fn worker_rows(spans: &[Span], parked: &[Span]) -> Vec<WorkerRow> {
    let mut rows: Vec<WorkerRow> = Vec::new();
    for span in spans {
        match rows.iter_mut().find(|r| r.worker == span.worker) {
            Some(row) => {
                row.slices += 1;
                row.busy_ms += span.end_ms - span.start_ms;
                row.first_start_ms = row.first_start_ms.min(span.start_ms);
                row.last_end_ms = row.last_end_ms.max(span.end_ms);
            }
            None => rows.push(WorkerRow {
                worker: span.worker,
                tasks_started: 0,
                slices: 1,
                busy_ms: span.end_ms - span.start_ms,
                first_start_ms: span.start_ms,
                last_end_ms: span.end_ms,
                parked_ms: 0.0,
            }),
        }
    }
    // Each task's first slice (the earliest start; the first recorded on a tie) names where it started.
    let mut first_slices: Vec<&Span> = Vec::new();
    for span in spans {
        match first_slices.iter_mut().find(|first| first.task == span.task) {
            Some(first) if span.start_ms < first.start_ms => *first = span,
            Some(_) => {}
            None => first_slices.push(span),
        }
    }
    for first in first_slices {
        if let Some(row) = rows.iter_mut().find(|r| r.worker == first.worker) {
            row.tasks_started += 1;
        }
    }
    for span in parked {
        if let Some(row) = rows.iter_mut().find(|r| r.worker == span.worker) {
            row.parked_ms += span.end_ms - span.start_ms;
        }
    }
    rows.sort_by_key(|r| r.worker);
    rows
}

/// Where a trace's time axis ends: its last bar or parked interval, or its wall time if later.
pub fn trace_end_ms(trace: &Trace) -> f64 {
    trace.spans.iter().chain(&trace.parked).map(|s| s.end_ms).fold(trace.wall_ms, f64::max)
}

/// The axis maximum that timelines meant to be compared share: the latest end among them.
pub fn shared_axis_ms<'a>(traces: impl IntoIterator<Item = &'a Trace>) -> f64 {
    traces.into_iter().map(trace_end_ms).fold(0.0, f64::max)
}

/// How many tasks are parked over time: (time, count) at every change, in time order.
fn parked_steps(parked: &[Span]) -> Vec<(f64, i32)> {
    let mut changes: Vec<(f64, i32)> = parked.iter().flat_map(|s| [(s.start_ms, 1), (s.end_ms, -1)]).collect();
    changes.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut count = 0;
    changes
        .into_iter()
        .map(|(at, delta)| {
            count += delta;
            (at, count)
        })
        .collect()
}

fn draw(canvas: &web_sys::HtmlCanvasElement, measurement: &Measurement, workers: u32, end: f64) {
    let trace = &measurement.trace;
    let workers = workers.max(trace.spans.iter().map(|s| s.worker + 1).max().unwrap_or(1));
    let has_parked = !trace.parked.is_empty();
    // The parked row, if any, is one more lane at the bottom.
    let lanes = workers + u32::from(has_parked);
    let height = AXIS_HEIGHT + HEIGHT_PER_LANE * lanes as f64;
    paint(canvas, height, |root, ink| {
        let t = ui();
        // Ticks from the axis's width: one format, no overlapping labels (see `axis`).
        let x = AxisSpec { scale: Scale::Linear, low: 0.0, high: end, suffix: "", title: t.axis_time_ms };
        let (mut chart, _) = chart_with_axes(&root, &ink, x, Err((lanes, if has_parked { 56.0 } else { 40.0 })))?;
        // Worker 0 on top: lane i spans [lanes-1-i, lanes-i] on the y axis.
        let lane_bottom = |lane: u32| (lanes - 1 - lane) as f64;
        let label_style = ink.font(12.0).into_font().color(&ink.text);
        let lane_label = |lane: u32, name: String| {
            let (_, py) = chart.backend_coord(&(0.0, lane_bottom(lane) + 0.5));
            root.draw(&Text::new(name, (ink.px(6.0), py - ink.px(6.0)), label_style.clone())).map_err(err)
        };
        for worker in 0..workers {
            lane_label(worker, fill(t.worker_lane, &[("n", &worker.to_string())]))?;
        }
        let steps = parked_steps(&trace.parked);
        let most = steps.iter().map(|&(_, c)| c).max().unwrap_or(1).max(1) as f64;
        if has_parked {
            lane_label(workers, fill(t.parked_most, &[("n", &format::int(most as u32 as u64))]))?;
        }
        let plot_width = chart.plotting_area().dim_in_pixel().0 as f64;
        for span in &trace.spans {
            let colour = TASK_COLOURS[span.task as usize % TASK_COLOURS.len()];
            let bottom = lane_bottom(span.worker) + 0.15;
            let top = lane_bottom(span.worker) + 0.85;
            // Very short runs still get a visible sliver.
            let right = span.end_ms.max(span.start_ms + end * 0.002);
            chart
                .draw_series(std::iter::once(Rectangle::new([(span.start_ms, bottom), (right, top)], colour.filled())))
                .map_err(err)?;
            let width_px = (span.end_ms - span.start_ms) / end * plot_width;
            if width_px > 28.0 * ink.dpr {
                let (px, py) = chart.backend_coord(&(span.start_ms, top));
                let bar_label = ink.font(11.0).into_font().color(&text_on(colour));
                root.draw(&Text::new(format!("T{}", span.task), (px + ink.px(4.0), py + ink.px(3.0)), bar_label))
                    .map_err(err)?;
            }
        }
        if has_parked {
            // Height of the grey area = how many tasks are waiting at that moment.
            let base = lane_bottom(workers) + 0.1;
            let areas = steps.windows(2).filter(|w| w[0].1 > 0 && w[1].0 > w[0].0).map(|w| {
                let top = base + 0.8 * w[0].1 as f64 / most;
                Rectangle::new([(w[0].0, base), (w[1].0, top)], ink.muted.mix(0.6).filled())
            });
            chart.draw_series(areas).map_err(err)?;
        }
        root.present().map_err(err)
    });
}

/// What a timeline of `lanes` workers says when they outnumber the machine's logical processors:
/// they shared the cores (lanes are workers, not cores).
fn shared_cores_note(lanes: u32) -> Option<String> {
    let cores = crate::environment::machine().logical_processors.max(1);
    (lanes > cores).then(|| {
        message(
            ui().timeline_shared_cores,
            &[("workers", Arg::Count(lanes as u64)), ("cores", Arg::Count(cores as u64))],
        )
    })
}

/// A timeline of `measurement`'s traced run on `lanes` workers (lanes with no task stay visible, empty).
/// `what` names the job shown (the heading says it). Timelines meant to be compared pass the same
/// `axis_max_ms` (see [`shared_axis_ms`]); the axis then ends there, or at this trace's own end if
/// later. `note` says more about what the bars are, where the workload makes them surprising.
#[component]
pub fn Timeline(
    #[prop(into)] measurement: Signal<Option<Measurement>>,
    #[prop(into)] what: Signal<String>,
    #[prop(into)] lanes: Signal<u32>,
    #[prop(optional)] test_id: &'static str,
    #[prop(optional, into)] axis_max_ms: Option<Signal<f64>>,
    #[prop(optional)] note: &'static str,
) -> impl IntoView {
    let t = ui();
    let canvas = NodeRef::<Canvas>::new();
    let width = watch_width(canvas);
    let axis_end = Signal::derive(move || {
        let own = measurement.with(|m| m.as_ref().map_or(0.0, |m| trace_end_ms(&m.trace)));
        own.max(axis_max_ms.map_or(0.0, |shared| shared.get())).max(0.001)
    });
    Effect::new(move |_| {
        width.track();
        let (Some(element), Some(m)) = (canvas.get(), measurement.get()) else {
            return;
        };
        draw(&element, &m, lanes.get(), axis_end.get());
    });
    let summary = move || measurement.with(|m| m.as_ref().map(|m| summary_text(m, lanes.get())));
    let caption = move || {
        let bars = if sliced(measurement) { t.timeline_bars_slices } else { t.timeline_bars_tasks };
        let mut text = fill(t.timeline_caption, &[("what", &what.get()), ("bars", bars)]);
        if !note.is_empty() {
            text.push(' ');
            text.push_str(note);
        }
        text
    };
    let figure = NodeRef::<Figure>::new();
    view! {
        <Show when=move || measurement.with(Option::is_some)>
            <figure
                node_ref=figure
                class="timeline"
                data-testid=test_id
                data-axis-max-ms=move || axis_end.get().to_string()
                data-what=move || what.get()
            >
                <figcaption data-testid="timeline-heading">{caption}</figcaption>
                <canvas node_ref=canvas role="img" aria-label=summary></canvas>
                <p class="timeline-summary">{summary}</p>
                {trace_download(figure, measurement, what, lanes)}
                {move || shared_cores_note(lanes.get()).map(|note| view! {
                    <p class="timeline-note" data-testid="timeline-shared-cores">{note}</p>
                })}
                {move || measurement.with(|m| m.as_ref().and_then(|m| m.trace.shown_until_ms.map(|until| {
                    let note = fill(t.timeline_truncated, &[("until", &format::ms(until)), ("wall", &format::ms(m.trace.wall_ms))]);
                    view! { <p class="timeline-note" data-testid="timeline-truncated">{note}</p> }
                })))}
                {worker_table(measurement)}
                {task_table(measurement)}
            </figure>
        </Show>
    }
}

/// Whether the bars are slices: a task that parked and resumed ran in several.
fn is_sliced(m: &Measurement) -> bool {
    m.trace.spans.len() > m.trace.tasks_seen()
}

/// [`is_sliced`] of the measurement shown, if any.
fn sliced(measurement: Signal<Option<Measurement>>) -> bool {
    measurement.with(|m| m.as_ref().is_some_and(is_sliced))
}

/// The drawing in one sentence, for the canvas's accessible name and the line under it.
fn summary_text(m: &Measurement, lanes: u32) -> String {
    let t = ui();
    message(
        if is_sliced(m) { t.timeline_summary_slices } else { t.timeline_summary },
        &[
            ("tasks", Arg::Count(m.trace.tasks_seen() as u64)),
            ("slices", Arg::Count(m.trace.spans.len() as u64)),
            ("used", Arg::Count(m.trace.workers_used().len() as u64)),
            ("workers", Arg::Count(lanes as u64)),
            // The drawing's own end: each Web Worker reads its own clock, and a span may
            // end a little after the pass's wall time by another worker's clock.
            ("wall", Arg::Text(&format::ms(trace_end_ms(&m.trace)))),
        ],
    )
}

/// The button that saves the trace as a file Perfetto opens; the experiment is the panel the
/// timeline sits in, and its name titles the file.
fn trace_download(
    figure: NodeRef<Figure>,
    measurement: Signal<Option<Measurement>>,
    what: Signal<String>,
    lanes: Signal<u32>,
) -> impl IntoView {
    let t = ui();
    let download_trace = move |_| {
        let experiment = figure
            .get_untracked()
            .and_then(|f| f.closest("[data-experiment]").ok().flatten())
            .and_then(|panel| panel.get_attribute("data-experiment"))
            .unwrap_or_else(|| "experiment".into());
        let title = fill(t.trace_process_name, &[("experiment", &experiment), ("run", &what.get_untracked())]);
        let json = measurement
            .with_untracked(|m| m.as_ref().map(|m| chrome_trace_json(&title, lanes.get_untracked(), &m.trace)));
        if let Some(json) = json {
            download(&format!("{experiment}-trace.json"), "application/json", &json);
        }
    };
    let help_id = unique_id("trace-download-help");
    view! {
        <p class="trace-download">
            <button type="button" data-testid="download-trace" aria-describedby=help_id.clone() on:click=download_trace>
                {t.download_trace}
            </button>
            " "
            <span id=help_id.clone() class="help">{t.download_trace_help}</span>
        </p>
    }
}

/// The drawing as text: one row per worker.
fn worker_table(measurement: Signal<Option<Measurement>>) -> impl IntoView {
    let t = ui();
    let sliced = move || sliced(measurement);
    let rows = move || {
        measurement.with(|m| m.as_ref().map(|m| worker_rows(&m.trace.spans, &m.trace.parked)).unwrap_or_default())
    };
    let has_parked = move || measurement.with(|m| m.as_ref().is_some_and(|m| !m.trace.parked.is_empty()));
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="timeline-workers">
                <caption>{move || if sliced() { t.timeline_workers_caption_slices } else { t.timeline_workers_caption }}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t.col_worker}</th>
                        <th scope="col">{t.col_task_count}</th>
                        <Show when=sliced>
                            <th scope="col">{t.col_slices}</th>
                        </Show>
                        <th scope="col">{t.col_busy}</th>
                        <th scope="col">{t.col_first_start}</th>
                        <th scope="col">{t.col_last_end}</th>
                        <Show when=has_parked>
                            <th scope="col">{t.col_parked}</th>
                        </Show>
                    </tr>
                </thead>
                <tbody>
                    // Re-rendered whole for every new trace (a keyed list would keep stale cells).
                    {move || rows().into_iter().map(|row| view! {
                        <tr data-worker=row.worker data-tasks-started=row.tasks_started data-slices=row.slices>
                            <th scope="row">{fill(t.worker_lane, &[("n", &row.worker.to_string())])}</th>
                            <td class="num">{row.tasks_started}</td>
                            <Show when=sliced>
                                <td class="num">{row.slices}</td>
                            </Show>
                            <td class="num">{format::ms(row.busy_ms)}</td>
                            // A start a few microseconds "before" the pass is another worker's clock, not a
                            // task that began before it was spawned.
                            <td class="num">{format::ms(row.first_start_ms.max(0.0))}</td>
                            <td class="num">{format::ms(row.last_end_ms)}</td>
                            <Show when=has_parked>
                                <td class="num">{format::ms(row.parked_ms)}</td>
                            </Show>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// Every task's span, folded away (at most `MAX_TASK_ROWS`).
fn task_table(measurement: Signal<Option<Measurement>>) -> impl IntoView {
    let t = ui();
    let spans = move || {
        measurement.with(|m| m.as_ref().map(|m| m.trace.spans.iter().take(MAX_TASK_ROWS).cloned().collect::<Vec<_>>()))
    };
    view! {
        <details>
            <summary>{t.timeline_tasks_detail}</summary>
            <div class="table-scroll" tabindex="0">
                <table class="timeline-tasks">
                    <thead>
                        <tr>
                            <th scope="col">{t.col_task}</th>
                            <th scope="col">{t.col_worker}</th>
                            <th scope="col">{t.col_start}</th>
                            <th scope="col">{t.col_end}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || spans().unwrap_or_default().into_iter().map(|s| view! {
                            <tr>
                                <th scope="row">{format!("T{}", s.task)}</th>
                                <td>{fill(t.worker_lane, &[("n", &s.worker.to_string())])}</td>
                                <td class="num">{format::ms(s.start_ms)}</td>
                                <td class="num">{format::ms(s.end_ms)}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(task: u32, worker: u32, start_ms: f64, end_ms: f64) -> Span {
        Span { task, worker, start_ms, end_ms }
    }

    #[test]
    fn tasks_started_add_up_to_the_tasks_when_a_task_resumes_on_another_worker() {
        // Task 0 starts on W0, parks, resumes on W1; task 1 runs on W1 only; task 2 on W0 in two slices.
        let spans = [
            span(0, 0, 0.0, 1.0),
            span(1, 1, 0.0, 2.0),
            span(0, 1, 3.0, 4.0),
            span(2, 0, 1.0, 2.0),
            span(2, 0, 5.0, 6.0),
        ];
        let parked = [span(0, 0, 1.0, 3.0), span(2, 0, 2.0, 5.0)];
        let rows = worker_rows(&spans, &parked);
        let started: usize = rows.iter().map(|r| r.tasks_started).sum();
        assert_eq!(started, 3, "each task is counted once: {rows:?}");
        let slices: usize = rows.iter().map(|r| r.slices).sum();
        assert_eq!(slices, spans.len(), "every bar is counted once");
        assert_eq!((rows[0].worker, rows[0].tasks_started, rows[0].slices), (0, 2, 3));
        assert_eq!((rows[1].worker, rows[1].tasks_started, rows[1].slices), (1, 1, 2));
        assert_eq!(rows[0].parked_ms, 5.0);
    }

    #[test]
    fn a_task_is_counted_where_its_earliest_slice_ran_whatever_the_recording_order() {
        // Spans arrive per worker, not in time order: task 4's later slice on W0 is listed first.
        let spans = [span(4, 0, 7.0, 8.0), span(4, 1, 2.0, 3.0)];
        let rows = worker_rows(&spans, &[]);
        assert_eq!(rows.iter().map(|r| (r.worker, r.tasks_started)).collect::<Vec<_>>(), vec![(0, 0), (1, 1)]);
    }

    #[test]
    fn a_pool_trace_has_one_slice_per_task() {
        let spans: Vec<Span> = (0..8).map(|task| span(task, task % 2, task as f64, task as f64 + 1.0)).collect();
        let rows = worker_rows(&spans, &[]);
        assert_eq!(rows.iter().map(|r| r.tasks_started).sum::<usize>(), 8);
        assert!(rows.iter().all(|r| r.tasks_started == r.slices));
    }

    #[test]
    fn compared_timelines_share_the_later_end() {
        let with_end =
            |end_ms: f64| Trace { spans: vec![span(0, 0, 0.0, end_ms)], wall_ms: end_ms - 1.0, ..Trace::default() };
        let (slow, fast) = (with_end(114.0), with_end(62.0));
        assert_eq!(shared_axis_ms([&slow, &fast]), 114.0);
        assert_eq!(shared_axis_ms([&fast]), 62.0);
        let waited_longer = Trace { wall_ms: 80.0, ..with_end(62.0) };
        assert_eq!(trace_end_ms(&waited_longer), 80.0, "a wall time past the last bar ends the axis");
    }
}
