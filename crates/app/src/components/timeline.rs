//! The per-worker timeline: one lane per worker, each task a bar, time running left to right,
//! with the same data as tables beside it (per worker, and every task in a disclosure).

use super::axis::Scale;
use super::canvas::{chart_with_axes, err, paint, text_on, watch_width, AxisSpec, TASK_COLOURS};
use crate::format;
use crate::i18n::{self, fill, ui};
use experiments::{Measurement, Span};
use leptos::html::Canvas;
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
    /// Distinct tasks that ran here.
    tasks: usize,
    /// Separate runs (a task that parks and resumes runs in several slices).
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
                tasks: 0,
                slices: 1,
                busy_ms: span.end_ms - span.start_ms,
                first_start_ms: span.start_ms,
                last_end_ms: span.end_ms,
                parked_ms: 0.0,
            }),
        }
    }
    for row in &mut rows {
        let mut seen: Vec<u32> = spans.iter().filter(|s| s.worker == row.worker).map(|s| s.task).collect();
        seen.sort_unstable();
        seen.dedup();
        row.tasks = seen.len();
    }
    for span in parked {
        if let Some(row) = rows.iter_mut().find(|r| r.worker == span.worker) {
            row.parked_ms += span.end_ms - span.start_ms;
        }
    }
    rows.sort_by_key(|r| r.worker);
    rows
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

fn draw(canvas: &web_sys::HtmlCanvasElement, measurement: &Measurement, workers: u32) {
    let trace = &measurement.trace;
    let workers = workers.max(trace.spans.iter().map(|s| s.worker + 1).max().unwrap_or(1));
    let has_parked = !trace.parked.is_empty();
    // The parked row, if any, is one more lane at the bottom.
    let lanes = workers + u32::from(has_parked);
    let height = AXIS_HEIGHT + HEIGHT_PER_LANE * lanes as f64;
    let end = trace.spans.iter().chain(&trace.parked).map(|s| s.end_ms).fold(trace.wall_ms, f64::max).max(0.001);
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
            lane_label(workers, fill(t.parked_most, &[("n", &(most as u32).to_string())]))?;
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

/// A timeline of `measurement`'s traced run on `lanes` workers (lanes with no task stay visible, empty).
#[component]
pub fn Timeline(
    #[prop(into)] measurement: Signal<Option<Measurement>>,
    #[prop(into)] what: Signal<String>,
    #[prop(into)] lanes: Signal<u32>,
    #[prop(optional)] test_id: &'static str,
) -> impl IntoView {
    let t = ui();
    let canvas = NodeRef::<Canvas>::new();
    let width = watch_width(canvas);
    Effect::new(move |_| {
        width.track();
        let (Some(element), Some(m)) = (canvas.get(), measurement.get()) else {
            return;
        };
        draw(&element, &m, lanes.get());
    });
    let summary = move || {
        measurement.with(|m| {
            m.as_ref().map(|m| {
                fill(
                    t.timeline_summary,
                    &[
                        ("tasks", &i18n::tasks(m.trace.tasks_seen() as u32)),
                        ("used", &format::int(m.trace.workers_used().len() as u64)),
                        ("workers", &i18n::workers(lanes.get())),
                        ("wall", &format::ms(m.trace.wall_ms)),
                    ],
                )
            })
        })
    };
    let rows = move || {
        measurement.with(|m| m.as_ref().map(|m| worker_rows(&m.trace.spans, &m.trace.parked)).unwrap_or_default())
    };
    let has_parked = move || measurement.with(|m| m.as_ref().is_some_and(|m| !m.trace.parked.is_empty()));
    let spans = move || {
        measurement.with(|m| m.as_ref().map(|m| m.trace.spans.iter().take(MAX_TASK_ROWS).cloned().collect::<Vec<_>>()))
    };
    view! {
        <Show when=move || measurement.with(Option::is_some)>
            <figure class="timeline" data-testid=test_id>
                <figcaption>{move || fill(t.timeline_caption, &[("what", &what.get())])}</figcaption>
                <canvas node_ref=canvas role="img" aria-label=summary></canvas>
                <p class="timeline-summary">{summary}</p>
                {move || measurement.with(|m| m.as_ref().and_then(|m| m.trace.shown_until_ms.map(|until| {
                    let note = fill(t.timeline_truncated, &[("until", &format::ms(until)), ("wall", &format::ms(m.trace.wall_ms))]);
                    view! { <p class="timeline-note" data-testid="timeline-truncated">{note}</p> }
                })))}
                <div class="table-scroll">
                    <table class="timeline-workers">
                        <thead>
                            <tr>
                                <th scope="col">{t.col_worker}</th>
                                <th scope="col">{t.col_task_count}</th>
                                <Show when=has_parked>
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
                                <tr data-worker=row.worker>
                                    <th scope="row">{fill(t.worker_lane, &[("n", &row.worker.to_string())])}</th>
                                    <td class="num">{row.tasks}</td>
                                    <Show when=has_parked>
                                        <td class="num">{row.slices}</td>
                                    </Show>
                                    <td class="num">{format::ms(row.busy_ms)}</td>
                                    <td class="num">{format::ms(row.first_start_ms)}</td>
                                    <td class="num">{format::ms(row.last_end_ms)}</td>
                                    <Show when=has_parked>
                                        <td class="num">{format::ms(row.parked_ms)}</td>
                                    </Show>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
                <details>
                    <summary>{t.timeline_tasks_detail}</summary>
                    <div class="table-scroll">
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
            </figure>
        </Show>
    }
}
