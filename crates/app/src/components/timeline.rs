//! The per-worker timeline: one lane per worker, each task a bar, time running left to right,
//! with the same data as tables beside it (per worker, and every task in a disclosure).

use super::canvas::{err, paint, text_on, watch_width, TASK_COLOURS};
use crate::format;
use crate::i18n::{fill, ui};
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
    tasks: usize,
    busy_ms: f64,
    first_start_ms: f64,
    last_end_ms: f64,
}

fn worker_rows(spans: &[Span]) -> Vec<WorkerRow> {
    let mut rows: Vec<WorkerRow> = Vec::new();
    for span in spans {
        match rows.iter_mut().find(|r| r.worker == span.worker) {
            Some(row) => {
                row.tasks += 1;
                row.busy_ms += span.end_ms - span.start_ms;
                row.first_start_ms = row.first_start_ms.min(span.start_ms);
                row.last_end_ms = row.last_end_ms.max(span.end_ms);
            }
            None => rows.push(WorkerRow {
                worker: span.worker,
                tasks: 1,
                busy_ms: span.end_ms - span.start_ms,
                first_start_ms: span.start_ms,
                last_end_ms: span.end_ms,
            }),
        }
    }
    rows.sort_by_key(|r| r.worker);
    rows
}

fn draw(canvas: &web_sys::HtmlCanvasElement, measurement: &Measurement, lanes: u32) {
    let trace = &measurement.trace;
    let lanes = lanes.max(trace.spans.iter().map(|s| s.worker + 1).max().unwrap_or(1));
    let height = AXIS_HEIGHT + HEIGHT_PER_LANE * lanes as f64;
    let end = trace.spans.iter().map(|s| s.end_ms).fold(trace.wall_ms, f64::max).max(0.001);
    paint(canvas, height, |root, ink| {
        let t = ui();
        let mut chart = ChartBuilder::on(&root)
            .margin_left(ink.px(4.0))
            .margin_right(ink.px(16.0))
            .margin_top(ink.px(8.0))
            .x_label_area_size(ink.px(40.0))
            .y_label_area_size(ink.px(40.0))
            .build_cartesian_2d(0f64..end, 0f64..lanes as f64)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_labels(8)
            .x_desc(t.axis_time_ms)
            .axis_desc_style(ink.font(12.0).into_font().color(&ink.text))
            .label_style(ink.font(12.0).into_font().color(&ink.text))
            .light_line_style(ink.grid)
            .bold_line_style(ink.grid)
            .axis_style(ink.muted)
            .x_label_formatter(&|x| format::ms(*x))
            .draw()
            .map_err(err)?;
        // Worker 0 on top: lane i spans [lanes-1-i, lanes-i] on the y axis.
        let lane_bottom = |worker: u32| (lanes - 1 - worker) as f64;
        let label_style = ink.font(12.0).into_font().color(&ink.text);
        for worker in 0..lanes {
            let y = lane_bottom(worker) + 0.5;
            let (_, py) = chart.backend_coord(&(0.0, y));
            let name = fill(t.worker_lane, &[("n", &worker.to_string())]);
            root.draw(&Text::new(name, (ink.px(6.0), py - ink.px(6.0)), label_style.clone())).map_err(err)?;
        }
        let plot_width = chart.plotting_area().dim_in_pixel().0 as f64;
        for span in &trace.spans {
            let colour = TASK_COLOURS[span.task as usize % TASK_COLOURS.len()];
            let bottom = lane_bottom(span.worker) + 0.15;
            let top = lane_bottom(span.worker) + 0.85;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(span.start_ms, bottom), (span.end_ms.max(span.start_ms + end * 0.002), top)],
                    colour.filled(),
                )))
                .map_err(err)?;
            let width_px = (span.end_ms - span.start_ms) / end * plot_width;
            if width_px > 28.0 * ink.dpr {
                let (px, py) = chart.backend_coord(&(span.start_ms, top));
                let bar_label = ink.font(11.0).into_font().color(&text_on(colour));
                root.draw(&Text::new(format!("T{}", span.task), (px + ink.px(4.0), py + ink.px(3.0)), bar_label))
                    .map_err(err)?;
            }
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
                        ("tasks", &m.trace.spans.len().to_string()),
                        ("used", &m.trace.workers_used().len().to_string()),
                        ("workers", &lanes.get().to_string()),
                        ("wall", &format::ms(m.trace.wall_ms)),
                    ],
                )
            })
        })
    };
    let rows = move || measurement.with(|m| m.as_ref().map(|m| worker_rows(&m.trace.spans)).unwrap_or_default());
    let spans = move || {
        measurement.with(|m| m.as_ref().map(|m| m.trace.spans.iter().take(MAX_TASK_ROWS).cloned().collect::<Vec<_>>()))
    };
    view! {
        <Show when=move || measurement.with(Option::is_some)>
            <figure class="timeline" data-testid=test_id>
                <figcaption>{move || fill(t.timeline_caption, &[("what", &what.get())])}</figcaption>
                <canvas node_ref=canvas role="img" aria-label=summary></canvas>
                <p class="timeline-summary">{summary}</p>
                <div class="table-scroll">
                    <table class="timeline-workers">
                        <thead>
                            <tr>
                                <th scope="col">{t.col_worker}</th>
                                <th scope="col">{t.col_task_count}</th>
                                <th scope="col">{t.col_busy}</th>
                                <th scope="col">{t.col_first_start}</th>
                                <th scope="col">{t.col_last_end}</th>
                            </tr>
                        </thead>
                        <tbody>
                            <For each=rows key=|r| r.worker let:row>
                                <tr data-worker=row.worker>
                                    <th scope="row">{fill(t.worker_lane, &[("n", &row.worker.to_string())])}</th>
                                    <td class="num">{row.tasks}</td>
                                    <td class="num">{format::ms(row.busy_ms)}</td>
                                    <td class="num">{format::ms(row.first_start_ms)}</td>
                                    <td class="num">{format::ms(row.last_end_ms)}</td>
                                </tr>
                            </For>
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
