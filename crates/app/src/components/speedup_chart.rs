//! Speedup versus worker count, with the ideal line and the reader's core count, and its data table.

use super::canvas::{err, paint, watch_width};
use crate::format;
use crate::i18n::{fill, ui};
use experiments::Summary;
use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::*;

const HEIGHT: f64 = 320.0;

/// One measured worker count of a sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint {
    pub workers: u32,
    pub summary: Summary,
    pub speedup: f64,
}

fn draw(canvas: &web_sys::HtmlCanvasElement, points: &[SweepPoint], cores: u32) {
    let max_workers = points.iter().map(|p| p.workers).max().unwrap_or(1).max(2) as f64;
    let max_measured = points.iter().map(|p| p.speedup).filter(|s| s.is_finite()).fold(1.0, f64::max);
    // Show the ideal line far enough to make the point, without flattening the measured curve.
    let y_max = (max_measured * 1.25).max((cores as f64 * 1.25).min(max_workers)).max(2.0);
    paint(canvas, HEIGHT, |root, ink| {
        let t = ui();
        let mut chart = ChartBuilder::on(&root)
            .margin(ink.px(12.0))
            .x_label_area_size(ink.px(44.0))
            .y_label_area_size(ink.px(52.0))
            .build_cartesian_2d((1f64..max_workers).log_scale(), 0f64..y_max)
            .map_err(err)?;
        let text = ink.font(12.0).into_font().color(&ink.text);
        let worker_ticks: Vec<f64> = points.iter().map(|p| p.workers as f64).collect();
        chart
            .configure_mesh()
            .x_desc(t.axis_workers)
            .y_desc(t.axis_speedup)
            .axis_desc_style(text.clone())
            .label_style(text.clone())
            .light_line_style(ink.grid)
            .bold_line_style(ink.grid)
            .axis_style(ink.muted)
            .x_labels(worker_ticks.len().max(2))
            .x_label_formatter(&|x| {
                // Only label the worker counts that were measured (1, 2, 4, …).
                let nearest = worker_ticks.iter().copied().min_by(|a, b| (a - x).abs().total_cmp(&(b - x).abs()));
                match nearest {
                    Some(n) if (n - x).abs() / n < 0.05 => format!("{n}"),
                    _ => String::new(),
                }
            })
            .y_label_formatter(&|y| format!("{}×", format::fixed(*y, 1)))
            .draw()
            .map_err(err)?;

        // Ideal: n workers, n times faster (clipped at the top of the chart).
        let ideal_end = max_workers.min(y_max);
        let dashes = (0..=40).map(|i| 1.0 + (ideal_end - 1.0) * i as f64 / 40.0);
        let ideal: Vec<(f64, f64)> = dashes.map(|x| (x, x)).collect();
        for pair in ideal.chunks(2) {
            chart
                .draw_series(LineSeries::new(pair.to_vec(), ink.muted.stroke_width(ink.px(2.0) as u32)))
                .map_err(err)?;
        }
        chart
            .draw_series(std::iter::once(Text::new(
                t.ideal.to_string(),
                (ideal_end * 0.92, ideal_end * 0.97),
                text.clone(),
            )))
            .map_err(err)?;

        // The reader's logical processor count, as a vertical marker.
        if (cores as f64) < max_workers {
            let c = cores as f64;
            chart
                .draw_series(LineSeries::new(vec![(c, 0.0), (c, y_max)], ink.grid.stroke_width(ink.px(2.0) as u32)))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    t.your_cores.to_string(),
                    (c * 1.04, y_max * 0.95),
                    text.clone(),
                )))
                .map_err(err)?;
        }

        let measured: Vec<(f64, f64)> = points.iter().map(|p| (p.workers as f64, p.speedup)).collect();
        chart
            .draw_series(LineSeries::new(measured.clone(), ink.accent.stroke_width(ink.px(3.0) as u32)))
            .map_err(err)?;
        chart
            .draw_series(measured.iter().map(|&(x, y)| Circle::new((x, y), ink.px(5.0), ink.accent.filled())))
            .map_err(err)?;
        root.present().map_err(err)
    });
}

#[component]
pub fn SpeedupChart(
    #[prop(into)] points: Signal<Vec<SweepPoint>>,
    #[prop(into)] tasks: Signal<u32>,
    cores: u32,
) -> impl IntoView {
    let t = ui();
    let canvas = NodeRef::<Canvas>::new();
    let width = watch_width(canvas);
    Effect::new(move |_| {
        width.track();
        let Some(element) = canvas.get() else { return };
        points.with(|p| {
            if !p.is_empty() {
                draw(&element, p, cores)
            }
        });
    });
    let label = move || {
        points.with(|p| {
            p.iter()
                .map(|p| format!("{} {}: {}", p.workers, t.axis_workers, format::times(p.speedup)))
                .collect::<Vec<_>>()
                .join("; ")
        })
    };
    view! {
        <figure class="chart" data-testid="sweep">
            <figcaption>
                <strong>{t.sweep_title}</strong>". "
                {move || fill(t.sweep_caption, &[("tasks", &tasks.get().to_string())])}
            </figcaption>
            <Show
                when=move || points.with(|p| !p.is_empty())
                fallback=move || view! { <p class="empty">{t.sweep_empty}</p> }
            >
                <div class="chart-with-table">
                    <canvas node_ref=canvas role="img" aria-label=label></canvas>
                    <div class="table-scroll">
                        <table class="chart-data">
                            <caption>{t.chart_data_caption}</caption>
                            <thead>
                                <tr>
                                    <th scope="col">{t.col_workers}</th>
                                    <th scope="col">{t.col_median}</th>
                                    <th scope="col">{t.col_min}</th>
                                    <th scope="col">{t.col_max}</th>
                                    <th scope="col">{t.col_speedup}</th>
                                    <th scope="col">{t.col_ideal}</th>
                                </tr>
                            </thead>
                            <tbody>
                                <For each=move || points.get() key=|p| p.workers let:p>
                                    <tr>
                                        <th scope="row">{p.workers}</th>
                                        <td class="num">{format::ms(p.summary.median_ms)}</td>
                                        <td class="num">{format::ms(p.summary.min_ms)}</td>
                                        <td class="num">{format::ms(p.summary.max_ms)}</td>
                                        <td class="num">{format::times(p.speedup)}</td>
                                        <td class="num">{format::times(p.workers as f64)}</td>
                                    </tr>
                                </For>
                            </tbody>
                        </table>
                    </div>
                </div>
            </Show>
        </figure>
    }
}
