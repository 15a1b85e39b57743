//! Speedup against a swept knob (workers or tasks): one line per series, the ideal line, a marker
//! such as the reader's core count, and the same data as a table beside the chart.

use super::canvas::{err, paint, watch_width, TASK_COLOURS};
use crate::format;
use crate::i18n::ui;
use experiments::stats::{amdahl_serial_fraction, amdahl_speedup};
use experiments::Summary;
use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::*;

const HEIGHT: f64 = 320.0;

/// One measured value of the swept knob.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint {
    /// The knob's value: a worker count or a task count.
    pub x: u32,
    pub summary: Summary,
    pub speedup: f64,
}

/// A named line of the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<SweepPoint>,
}

/// What the y axis shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YAxis {
    /// Each point's speedup (linear axis).
    Speedup,
    /// Each point's median time in milliseconds (logarithmic axis: times differ by orders of magnitude).
    Milliseconds,
    /// How many times longer than the baseline (1 ÷ speedup), on a logarithmic axis: the cost of
    /// running the same work as tasks.
    Overhead,
}

/// How the chart is labelled and what it draws besides the measured lines.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartSpec {
    /// The swept knob, e.g. "workers".
    pub x_label: &'static str,
    pub y_axis: YAxis,
    /// Draw speedup = x (n workers, n times faster).
    pub ideal: bool,
    /// Fit Amdahl's law to each series' speedups and draw the fitted curve (speedup charts only).
    pub fit_amdahl: bool,
    /// Vertical markers, e.g. the reader's logical processors.
    pub markers: Vec<(f64, String)>,
}

impl ChartSpec {
    /// Speedup against `x_label`, with nothing else drawn.
    pub fn speedup(x_label: &'static str) -> Self {
        ChartSpec { x_label, y_axis: YAxis::Speedup, ideal: false, fit_amdahl: false, markers: Vec::new() }
    }
}

/// The serial fraction Amdahl's law fits to a series, if it has points beyond x = 1.
pub fn fitted_serial_fraction(series: &Series) -> Option<f64> {
    let points: Vec<(f64, f64)> = series.points.iter().map(|p| (p.x as f64, p.speedup)).collect();
    amdahl_serial_fraction(&points)
}

fn draw(canvas: &web_sys::HtmlCanvasElement, series: &[Series], spec: &ChartSpec) {
    let all = || series.iter().flat_map(|s| s.points.iter());
    // The x axis is log2(x): 1, 2, 4, 8, … are evenly spaced and every measured value gets a label.
    let to_axis = |x: f64| x.max(1.0).log2();
    let max_x = all().map(|p| p.x).max().unwrap_or(1).max(2) as f64;
    // Times and overheads span orders of magnitude: they are drawn as log10 on a linear axis and
    // labelled back in their own units.
    let time_axis = spec.y_axis != YAxis::Speedup;
    let y_of = |p: &SweepPoint| match spec.y_axis {
        YAxis::Speedup => p.speedup,
        YAxis::Milliseconds => p.summary.median_ms.max(1e-4).log10(),
        YAxis::Overhead => (1.0 / p.speedup).max(1e-3).log10(),
    };
    let max_measured = all().map(|p| p.speedup).filter(|s| s.is_finite()).fold(1.0, f64::max);
    let (time_low, time_high) = all()
        .map(y_of)
        .filter(|y| y.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| (lo.min(y), hi.max(y)));
    // An overhead chart always shows the "as fast as the loop" line (ratio 1).
    let (time_low, time_high) =
        if spec.y_axis == YAxis::Overhead { (time_low.min(0.0), time_high.max(0.0)) } else { (time_low, time_high) };
    let marker_x = spec.markers.first().map_or(1.0, |(x, _)| *x);
    // Show the ideal line far enough to make the point without flattening the measured curves.
    let ideal_reach = if spec.ideal { (marker_x * 1.25).min(max_x) } else { 0.0 };
    let (y_min, y_max) = if time_axis {
        ((time_low - 0.3).floor(), (time_high + 0.3).ceil())
    } else {
        (0.0, (max_measured * 1.25).max(ideal_reach).max(2.0))
    };
    let measured_xs: Vec<u32> = {
        let mut xs: Vec<u32> = all().map(|p| p.x).collect();
        xs.sort_unstable();
        xs.dedup();
        xs
    };
    paint(canvas, HEIGHT, |root, ink| {
        let text = ink.font(12.0).into_font().color(&ink.text);
        let x_end = to_axis(max_x);
        let mut chart = ChartBuilder::on(&root)
            .margin(ink.px(12.0))
            .margin_right(ink.px(24.0))
            .x_label_area_size(ink.px(44.0))
            .y_label_area_size(ink.px(52.0))
            .build_cartesian_2d(-0.05 * x_end..x_end * 1.03, y_min..y_max)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(spec.x_label)
            .y_desc(match spec.y_axis {
                YAxis::Speedup => ui().axis_speedup,
                YAxis::Milliseconds => ui().axis_time_ms,
                YAxis::Overhead => ui().axis_overhead,
            })
            .axis_desc_style(text.clone())
            .label_style(text.clone())
            .light_line_style(TRANSPARENT)
            .bold_line_style(ink.grid)
            .axis_style(ink.muted)
            .x_labels(x_end.round() as usize * 4 + 1)
            .y_labels(if time_axis { (y_max - y_min) as usize + 1 } else { 6 })
            .x_label_formatter(&|v| {
                // Label only the measured values (1, 2, 4, …, and a last one that is not a power of 2).
                measured_xs
                    .iter()
                    .find(|&&x| (to_axis(x as f64) - v).abs() < 0.13)
                    .map_or(String::new(), |x| format::int(*x as u64))
            })
            .y_label_formatter(&|y| {
                if time_axis {
                    // Only whole powers of ten: 0.1, 1, 10, 100 (ms, or times the baseline).
                    if (y - y.round()).abs() >= 1e-6 {
                        String::new()
                    } else if spec.y_axis == YAxis::Overhead {
                        format!("{}×", format::ms(10f64.powf(y.round())))
                    } else {
                        format::ms(10f64.powf(y.round()))
                    }
                } else {
                    format!("{}×", format::fixed(*y, 1))
                }
            })
            .draw()
            .map_err(err)?;

        if spec.ideal && !time_axis {
            // Speedup = x, clipped at the top of the chart.
            let end = max_x.min(y_max);
            let points: Vec<(f64, f64)> =
                (0..=60).map(|i| 1.0 + (end - 1.0) * i as f64 / 60.0).map(|x| (to_axis(x), x)).collect();
            for pair in points.chunks(2) {
                chart
                    .draw_series(LineSeries::new(pair.to_vec(), ink.muted.stroke_width(ink.px(2.0) as u32)))
                    .map_err(err)?;
            }
            let (px, py) = chart.backend_coord(&(to_axis(end), end));
            root.draw(&Text::new(ui().ideal.to_string(), (px - ink.px(34.0), py + ink.px(2.0)), text.clone()))
                .map_err(err)?;
        }
        for (index, (x, label)) in spec.markers.iter().enumerate() {
            if (1.0..=max_x).contains(x) {
                let at = to_axis(*x);
                chart
                    .draw_series(LineSeries::new(
                        vec![(at, y_min), (at, y_max)],
                        ink.grid.stroke_width(ink.px(3.0) as u32),
                    ))
                    .map_err(err)?;
                // Labels stack upwards from the x axis so neighbouring markers do not collide.
                let (px, py) = chart.backend_coord(&(at, y_min));
                let lift = ink.px(18.0 + 16.0 * index as f64);
                root.draw(&Text::new(label.clone(), (px + ink.px(6.0), py - lift), text.clone())).map_err(err)?;
            }
        }
        for (index, line) in series.iter().enumerate() {
            let colour = TASK_COLOURS[index % TASK_COLOURS.len()];
            let points: Vec<(f64, f64)> = line.points.iter().map(|p| (to_axis(p.x as f64), y_of(p))).collect();
            chart.draw_series(LineSeries::new(points.clone(), colour.stroke_width(ink.px(3.0) as u32))).map_err(err)?;
            chart
                .draw_series(points.iter().map(|&(x, y)| Circle::new((x, y), ink.px(5.0), colour.filled())))
                .map_err(err)?;
            if let (true, false, Some(serial)) = (spec.fit_amdahl, time_axis, fitted_serial_fraction(line)) {
                // The fitted curve, dashed, in the series' colour.
                let curve: Vec<(f64, f64)> = (0..=60)
                    .map(|i| 2f64.powf(x_end * i as f64 / 60.0))
                    .map(|k| (to_axis(k), amdahl_speedup(serial, k).min(y_max)))
                    .collect();
                for pair in curve.chunks(2) {
                    chart
                        .draw_series(LineSeries::new(pair.to_vec(), colour.stroke_width(ink.px(2.0) as u32)))
                        .map_err(err)?;
                }
            }
        }
        root.present().map_err(err)
    });
}

#[component]
pub fn SpeedupChart(
    #[prop(into)] series: Signal<Vec<Series>>,
    spec: ChartSpec,
    #[prop(into)] caption: Signal<String>,
    empty_text: &'static str,
    #[prop(optional)] test_id: &'static str,
) -> impl IntoView {
    let t = ui();
    let canvas = NodeRef::<Canvas>::new();
    let width = watch_width(canvas);
    let x_label = spec.x_label;
    let fit_amdahl = spec.fit_amdahl;
    let has_data = move || series.with(|s| s.iter().any(|s| !s.points.is_empty()));
    Effect::new(move |_| {
        width.track();
        let Some(element) = canvas.get() else { return };
        series.with(|s| {
            if s.iter().any(|s| !s.points.is_empty()) {
                draw(&element, s, &spec)
            }
        });
    });
    let label = move || {
        series.with(|all| {
            all.iter()
                .map(|s| {
                    let points: Vec<String> =
                        s.points.iter().map(|p| format!("{} {x_label}: {}", p.x, format::times(p.speedup))).collect();
                    format!("{}: {}", s.name, points.join(", "))
                })
                .collect::<Vec<_>>()
                .join("; ")
        })
    };
    let rows = move || {
        series.with(|all| {
            all.iter()
                .flat_map(|s| s.points.iter().map(move |p| (s.name.clone(), p.clone())))
                .collect::<Vec<(String, SweepPoint)>>()
        })
    };
    view! {
        <figure class="chart" data-testid=test_id>
            <figcaption>{move || caption.get()}</figcaption>
            <Show when=has_data fallback=move || view! { <p class="empty">{empty_text}</p> }>
                <div class="chart-with-table">
                    <div class="chart-canvas">
                        <canvas node_ref=canvas role="img" aria-label=label></canvas>
                        // The legend is HTML, beside the canvas, so it never hides a line.
                        <Show when=move || series.with(|s| s.len() > 1)>
                            <ul class="legend">
                                {move || series.get().into_iter().enumerate().map(|(index, line)| {
                                    // Classes, not inline styles: the page's CSP allows no inline styles.
                                    let swatch = format!("swatch swatch-{}", index % TASK_COLOURS.len());
                                    view! { <li><span class=swatch aria-hidden="true"></span>{line.name}</li> }
                                }).collect_view()}

                            </ul>
                        </Show>
                    </div>

                    // Below the chart at full width, opened on demand; never clipped in height.
                    <details class="chart-data-details">
                    <summary>{t.chart_data_caption}</summary>
                    <div class="table-scroll">
                        <table class="chart-data" aria-label=t.chart_data_caption>
                            <thead>
                                <tr>
                                    <th scope="col">{t.col_series}</th>
                                    <th scope="col">{x_label}</th>
                                    <th scope="col">{t.col_median}</th>
                                    <th scope="col">{t.col_min}</th>
                                    <th scope="col">{t.col_max}</th>
                                    <th scope="col">{t.col_speedup}</th>
                                </tr>
                            </thead>
                            <tbody>
                                // Re-rendered whole on every change: a keyed list would keep stale cells
                                // when a new sweep measures the same series and x again.
                                {move || rows().into_iter().map(|row| view! {
                                    <tr data-series=row.0.clone() data-x=row.1.x>
                                        <td>{row.0.clone()}</td>
                                        <th scope="row">{row.1.x}</th>
                                        <td class="num">{format::ms(row.1.summary.median_ms)}</td>
                                        <td class="num">{format::ms(row.1.summary.min_ms)}</td>
                                        <td class="num">{format::ms(row.1.summary.max_ms)}</td>
                                        <td class="num">{format::times(row.1.speedup)}</td>
                                    </tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                    </details>
                </div>
                <Show when=move || fit_amdahl>
                    <div class="table-scroll">
                        <table class="amdahl-fit" data-testid="amdahl-fit">
                            <caption>{t.amdahl_caption}</caption>
                            <thead>
                                <tr>
                                    <th scope="col">{t.col_series}</th>
                                    <th scope="col">{t.col_serial_fraction}</th>
                                    <th scope="col">{t.col_speedup_limit}</th>
                                </tr>
                            </thead>
                            <tbody>
                                {move || series.get().into_iter().map(|line| {
                                    let serial = fitted_serial_fraction(&line);
                                    view! {
                                        <tr data-series=line.name.clone() data-serial=serial.map(|s| format!("{s:.4}"))>
                                            <th scope="row">{line.name.clone()}</th>
                                            <td class="num">{serial.map_or("—".into(), format::percent)}</td>
                                            <td class="num">{serial.map_or("—".into(), |s| if s > 0.0 { format::times(1.0 / s) } else { "∞".into() })}</td>
                                        </tr>
                                    }
                                }).collect_view()}
                            </tbody>
                        </table>
                    </div>
                </Show>
            </Show>
        </figure>
    }
}
