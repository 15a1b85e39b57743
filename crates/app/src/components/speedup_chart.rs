//! Speedup against a swept knob (workers or tasks): one line per series, the ideal line, a marker
//! such as the reader's core count, and the same data as a table beside the chart.

use super::axis::Scale;
use super::canvas::{chart_with_axes, err, paint, watch_width, Axes, AxisSpec, Chart, TASK_COLOURS};
use super::compare::SHAPES;
use crate::format;
use crate::i18n::{fill, ui};
use experiments::stats::{amdahl_fit, amdahl_speedup, AmdahlFit};
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

/// A published figure drawn on the reader's chart: at the article's x (cores or goroutines), its
/// speedup, with a symbol per source listed under the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedPoint {
    pub x: f64,
    pub speedup: f64,
    /// Which symbol: one per source.
    pub symbol: usize,
    /// Source, machine and setting, for the list under the chart.
    pub label: String,
}

/// The symbols published figures are drawn with, as text for the list under the chart.
pub const PUBLISHED_SYMBOLS: [&str; 2] = ["✕", "△"];

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
    /// The articles' figures, drawn as symbols on a speedup chart.
    pub published: Vec<PublishedPoint>,
    /// Start the x axis at the smallest x measured rather than at 1 (for counts in the thousands).
    pub x_from_data: bool,
}

impl ChartSpec {
    /// Speedup against `x_label`, with nothing else drawn.
    pub fn speedup(x_label: &'static str) -> Self {
        ChartSpec {
            x_label,
            y_axis: YAxis::Speedup,
            ideal: false,
            fit_amdahl: false,
            markers: Vec::new(),
            published: Vec::new(),
            x_from_data: false,
        }
    }
}

/// What Amdahl's law makes of a series, if it has points beyond x = 1.
pub fn fitted_amdahl(series: &Series) -> Option<AmdahlFit> {
    let points: Vec<(f64, f64)> = series.points.iter().map(|p| (p.x as f64, p.speedup)).collect();
    amdahl_fit(&points)
}

/// The serial fraction Amdahl's law fits to a series, if it has one (none for a series that more
/// workers made no faster: see [`AmdahlFit::NoFaster`]).
pub fn fitted_serial_fraction(series: &Series) -> Option<f64> {
    match fitted_amdahl(series)? {
        AmdahlFit::Serial(serial) => Some(serial),
        AmdahlFit::NoFaster => None,
    }
}

/// A point's value on the y axis and its whisker (fastest and slowest repetition), in the axis's
/// units: speedup = the baseline's median ÷ this point's time, so its slowest repetition gives
/// the low end; times in ms; time ÷ the loop's time.
pub fn value_and_range(y_axis: YAxis, p: &SweepPoint) -> (f64, f64, f64) {
    let Summary { median_ms, min_ms, max_ms, .. } = p.summary;
    let usable = median_ms > 0.0 && min_ms > 0.0 && max_ms > 0.0;
    match y_axis {
        YAxis::Milliseconds => (median_ms, min_ms, max_ms),
        YAxis::Speedup if usable => (p.speedup, p.speedup * median_ms / max_ms, p.speedup * median_ms / min_ms),
        YAxis::Overhead if usable => {
            let ratio = 1.0 / p.speedup;
            (ratio, ratio * min_ms / median_ms, ratio * max_ms / median_ms)
        }
        YAxis::Speedup => (p.speedup, p.speedup, p.speedup),
        YAxis::Overhead => (1.0 / p.speedup, 1.0 / p.speedup, 1.0 / p.speedup),
    }
}

/// Draw a polyline (backend pixels) with a dash pattern: on, off, on, off, … in pixels.
fn draw_dashed(
    root: &DrawingArea<plotters_canvas::CanvasBackend, plotters::coord::Shift>,
    points: &[(i32, i32)],
    pattern: &[f64],
    style: ShapeStyle,
) -> Result<(), String> {
    let (mut index, mut left, mut on) = (0, pattern[0], true);
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = ((pair[0].0 as f64, pair[0].1 as f64), (pair[1].0 as f64, pair[1].1 as f64));
        let length = ((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt();
        let mut done = 0.0;
        while done < length {
            let step = left.min(length - done);
            if on {
                let from = (x0 + (x1 - x0) * done / length, y0 + (y1 - y0) * done / length);
                let to = (x0 + (x1 - x0) * (done + step) / length, y0 + (y1 - y0) * (done + step) / length);
                root.draw(&PathElement::new(
                    vec![(from.0.round() as i32, from.1.round() as i32), (to.0.round() as i32, to.1.round() as i32)],
                    style,
                ))
                .map_err(err)?;
            }
            done += step;
            left -= step;
            if left <= 1e-9 {
                index = (index + 1) % pattern.len();
                left = pattern[index];
                on = !on;
            }
        }
    }
    Ok(())
}

/// Which of [`SHAPES`] a loaded line is drawn with: the one its name starts with.
fn shape_of(name: &str) -> usize {
    SHAPES.iter().position(|shape| name.starts_with(shape)).unwrap_or(0)
}

/// Draw `series`: the first `own` are the reader's (circles), the rest loaded from other machines'
/// files (each file's shape, [`SHAPES`], so colour is not the only difference).
fn draw(canvas: &web_sys::HtmlCanvasElement, series: &[Series], own: usize, spec: &ChartSpec) {
    let all = || series.iter().flat_map(|s| s.points.iter());
    let ranges: Vec<(f64, f64, f64)> = all()
        .map(|p| value_and_range(spec.y_axis, p))
        .filter(|(v, lo, hi)| v.is_finite() && lo.is_finite() && hi.is_finite() && *lo > 0.0 && *hi > 0.0)
        .collect();
    let speedups = spec.y_axis == YAxis::Speedup;
    let published: Vec<&PublishedPoint> = if speedups { spec.published.iter().collect() } else { Vec::new() };
    let xs = || all().map(|p| p.x as f64).chain(published.iter().map(|p| p.x)).filter(|x| *x > 0.0);
    let smallest_x = xs().fold(f64::INFINITY, f64::min);
    let min_x = if spec.x_from_data { smallest_x.max(1e-3) } else { smallest_x.clamp(1e-3, 1.0) };
    let max_x = xs().fold(0.0, f64::max).max(min_x * 2.0);
    // Powers of two (workers, tasks; a sweep may end on the machine's own count) on a log2 axis;
    // anything else (task sizes) on a log10 axis.
    let largest = all().map(|p| p.x).max().unwrap_or(1);
    let powers_of_two = all().all(|p| p.x.is_power_of_two() || p.x == largest);
    let x_scale = if powers_of_two { Scale::Log2 } else { Scale::Log10 };
    // A little air at both ends so the first and last points are not on the frame.
    let pad = (max_x / min_x).powf(0.04);
    let (x_low, x_high) = (min_x / pad, max_x * pad);
    let mut y_low = ranges.iter().map(|r| r.1).fold(f64::INFINITY, f64::min);
    let mut y_high = ranges.iter().map(|r| r.2).fold(0.0, f64::max);
    for p in &published {
        (y_low, y_high) = (y_low.min(p.speedup), y_high.max(p.speedup));
    }
    if spec.y_axis != YAxis::Milliseconds {
        // Ratios always show 1× (as fast as the baseline).
        (y_low, y_high) = (y_low.min(1.0), y_high.max(1.0));
    }
    if spec.ideal && speedups {
        // The ideal line runs across the whole x range.
        (y_low, y_high) = (y_low.min(x_low), y_high.max(x_high));
    }
    if !(y_low.is_finite() && y_high > 0.0) {
        return;
    }
    let (y_low, y_high) = (y_low / 1.3, y_high * 1.3);
    paint(canvas, HEIGHT, |root, ink| {
        let x = AxisSpec { scale: x_scale, low: x_low, high: x_high, suffix: "", title: spec.x_label };
        let (suffix, title) = match spec.y_axis {
            YAxis::Speedup => ("×", ui().axis_speedup),
            YAxis::Milliseconds => ("", ui().axis_time_ms),
            YAxis::Overhead => ("×", ui().axis_overhead),
        };
        let y = AxisSpec { scale: Scale::Log10, low: y_low, high: y_high, suffix, title };
        let (mut chart, axes) = chart_with_axes(&root, &ink, x, Ok(y))?;
        let Axes { x: x_axis, y: y_axis, mut placer } = axes;
        let at = |x: f64, y: f64| (x_axis.coord(x), y_axis.map_or(y, |axis| axis.coord(y)));
        let text = ink.font(12.0).into_font().color(&ink.text);
        let height = placer.size("x").1;
        let plot = chart.plotting_area().get_pixel_range();
        let (plot_left, plot_right) = (plot.0.start as f64, plot.0.end as f64);
        let (plot_top, plot_bottom) = (plot.1.start as f64, plot.1.end as f64);
        let to_pixels = |chart: &Chart, x: f64, y: f64| chart.backend_coord(&at(x, y));

        // Labels keep off the measured points.
        let radius = ink.px(7.0) as f64;
        for p in all() {
            let (v, _, _) = value_and_range(spec.y_axis, p);
            if v.is_finite() && v > 0.0 {
                let (px, py) = chart.backend_coord(&at(p.x as f64, v));
                let (px, py) = (px as f64, py as f64);
                placer.reserve((px - radius, py - radius, px + radius, py + radius));
            }
        }
        if spec.ideal && speedups {
            // Speedup = x: a straight line on log-log axes.
            let ends = [at(x_low, x_low), at(x_high, x_high)];
            let pixels: Vec<(i32, i32)> = ends.iter().map(|c| chart.backend_coord(c)).collect();
            draw_dashed(&root, &pixels, &[ink.dpr * 8.0, ink.dpr * 6.0], ink.muted.stroke_width(ink.px(2.0) as u32))?;
        }
        for (index, (x, label)) in spec.markers.iter().enumerate() {
            if (x_low..=x_high).contains(x) {
                let at = x_axis.coord(*x);
                let (y0, y1) = (y_axis.map_or(0.0, |a| a.coord(y_low)), y_axis.map_or(1.0, |a| a.coord(y_high)));
                chart
                    .draw_series(LineSeries::new(vec![(at, y0), (at, y1)], ink.grid.stroke_width(ink.px(3.0) as u32)))
                    .map_err(err)?;
                // Beside the line near the x axis: right of it, else left of it, stacked upwards.
                let (px, _) = chart.backend_coord(&(at, y0));
                let (width, _) = placer.size(label);
                let lift = plot_bottom - height * (1.2 + index as f64);
                let gap = ink.px(6.0) as f64;
                let (lx, ly) = placer.place(
                    label,
                    &[(px as f64 + gap, lift), (px as f64 - gap - width, lift), (px as f64 + gap, lift - height)],
                );
                root.draw(&Text::new(label.clone(), (lx as i32, ly as i32), text.clone())).map_err(err)?;
            }
        }
        if spec.ideal && speedups {
            // Its label under the line near its top end (the line rises to the right, so a box whose
            // top is below the line at the box's left edge stays clear of it), clear of the markers'.
            let label = ui().ideal;
            let (width, _) = placer.size(label);
            let (x0, y0) = chart.backend_coord(&at(x_low, x_low));
            let (x1, y1) = chart.backend_coord(&at(x_high, x_high));
            let (x0, y0, x1, y1) = (x0 as f64, y0 as f64, x1 as f64, y1 as f64);
            let line_y = |x: f64| if x1 > x0 { y0 + (y1 - y0) * (x - x0) / (x1 - x0) } else { y0 };
            let gap = ink.px(6.0) as f64;
            let candidates: Vec<(f64, f64)> = (0..8)
                .map(|step| {
                    let left = plot_right - width - gap - step as f64 * width * 0.75;
                    (left, line_y(left).max(plot_top) + gap)
                })
                .chain([(plot_left + gap, plot_top + gap)])
                .collect();
            let (lx, ly) = placer.place(label, &candidates);
            root.draw(&Text::new(label.to_string(), (lx as i32, ly as i32), text.clone())).map_err(err)?;
        }
        let mut fit_labels = Vec::new();
        for (index, line) in series.iter().enumerate() {
            let colour = TASK_COLOURS[index % TASK_COLOURS.len()];
            let values: Vec<(f64, (f64, f64, f64))> = line
                .points
                .iter()
                .map(|p| (p.x as f64, value_and_range(spec.y_axis, p)))
                .filter(|(_, (v, lo, hi))| v.is_finite() && *v > 0.0 && *lo > 0.0 && hi.is_finite())
                .collect();
            // Whiskers: fastest to slowest repetition, with short caps.
            let cap = ink.px(4.0);
            for &(x, (_, lo, hi)) in &values {
                let (px, top) = to_pixels(&chart, x, hi);
                let (_, bottom) = to_pixels(&chart, x, lo);
                let style = colour.stroke_width(ink.px(1.5).max(1) as u32);
                root.draw(&PathElement::new(vec![(px, top), (px, bottom)], style)).map_err(err)?;
                root.draw(&PathElement::new(vec![(px - cap, top), (px + cap, top)], style)).map_err(err)?;
                root.draw(&PathElement::new(vec![(px - cap, bottom), (px + cap, bottom)], style)).map_err(err)?;
            }
            let points: Vec<(f64, f64)> = values.iter().map(|&(x, (v, _, _))| at(x, v)).collect();
            chart.draw_series(LineSeries::new(points.clone(), colour.stroke_width(ink.px(3.0) as u32))).map_err(err)?;
            if index < own {
                chart
                    .draw_series(points.iter().map(|&(x, y)| Circle::new((x, y), ink.px(5.0), colour.filled())))
                    .map_err(err)?;
            } else {
                let shape = shape_of(&line.name);
                for &(x, y) in &points {
                    let (px, py) = chart.backend_coord(&(x, y));
                    let s = ink.px(6.0);
                    let corners = match shape {
                        0 => vec![(px - s, py - s), (px + s, py - s), (px + s, py + s), (px - s, py + s)],
                        1 => vec![(px, py - s), (px + s, py + s), (px - s, py + s)],
                        2 => vec![(px, py - s), (px + s, py), (px, py + s), (px - s, py)],
                        _ => vec![(px - s, py - s), (px + s, py - s), (px, py + s)],
                    };
                    root.draw(&Polygon::new(corners, colour.filled())).map_err(err)?;
                }
            }
            if let (true, true, Some(serial)) = (spec.fit_amdahl, speedups, fitted_serial_fraction(line)) {
                // The fitted curve: a dash pattern and a label of its own per series.
                let curve: Vec<(i32, i32)> = (0..=80)
                    .map(|i| x_low * (x_high / x_low).powf(i as f64 / 80.0))
                    .map(|k| to_pixels(&chart, k, amdahl_speedup(serial, k).clamp(y_low, y_high)))
                    .collect();
                let pattern: &[f64] = match index % 3 {
                    0 => &[10.0, 5.0],
                    1 => &[2.0, 4.0],
                    _ => &[10.0, 4.0, 2.0, 4.0],
                };
                let pattern: Vec<f64> = pattern.iter().map(|p| p * ink.dpr).collect();
                draw_dashed(&root, &curve, &pattern, colour.stroke_width(ink.px(2.0) as u32))?;
                let label = fill(ui().amdahl_fit_label, &[("serial", &format::percent(serial))]);
                fit_labels.push((label, pattern, colour));
            }
        }
        // The fits' key, top left (above the ideal line, where measured speedups rarely are): a
        // sample of each curve's dash pattern, then its label in the series' colour.
        let sample = ink.px(28.0) as f64;
        let gap = ink.px(6.0) as f64;
        for (row, (label, pattern, colour)) in fit_labels.into_iter().enumerate() {
            let key = format!("{}{label}", " ".repeat(6));
            let candidates: Vec<(f64, f64)> =
                (0..6).map(|i| (plot_left + gap, plot_top + gap + (row + i) as f64 * height)).collect();
            let (lx, ly) = placer.place(&key, &candidates);
            let mid = (ly + height / 2.0).round() as i32;
            let line = [(lx.round() as i32, mid), ((lx + sample).round() as i32, mid)];
            draw_dashed(&root, &line, &pattern, colour.stroke_width(ink.px(2.0) as u32))?;
            let style = ink.font(12.0).into_font().color(&colour);
            root.draw(&Text::new(label, ((lx + sample + gap) as i32, ly as i32), style)).map_err(err)?;
        }
        for p in &published {
            let (px, py) = to_pixels(&chart, p.x, p.speedup);
            let size = ink.px(6.0);
            let style = ink.text.stroke_width(ink.px(2.0) as u32);
            if p.symbol % 2 == 0 {
                root.draw(&PathElement::new(vec![(px - size, py - size), (px + size, py + size)], style))
                    .map_err(err)?;
                root.draw(&PathElement::new(vec![(px - size, py + size), (px + size, py - size)], style))
                    .map_err(err)?;
            } else {
                let corners = vec![(px, py - size), (px + size, py + size), (px - size, py + size), (px, py - size)];
                root.draw(&PathElement::new(corners, style)).map_err(err)?;
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
    /// Lines from other machines' results files (see `compare`), drawn after `series` with shapes.
    #[prop(optional, into)]
    compared: Option<Signal<Vec<Series>>>,
) -> impl IntoView {
    let t = ui();
    let own = series;
    let own_count = Signal::derive(move || own.with(Vec::len));
    let series = Signal::derive(move || {
        let mut all = own.get();
        if let Some(compared) = compared {
            all.extend(compared.get());
        }
        all
    });
    let canvas = NodeRef::<Canvas>::new();
    let width = watch_width(canvas);
    let x_label = spec.x_label;
    let fit_amdahl = spec.fit_amdahl;
    let y_axis = spec.y_axis;
    let published = if y_axis == YAxis::Speedup { spec.published.clone() } else { Vec::new() };
    let has_published = !published.is_empty();
    let published = StoredValue::new(published);
    // One metric, one name: the table's last column is what the y axis shows.
    let (metric_name, metric) = match y_axis {
        YAxis::Overhead => {
            (t.axis_overhead, (|p: &SweepPoint| format::times(1.0 / p.speedup)) as fn(&SweepPoint) -> String)
        }
        _ => (t.col_speedup, (|p: &SweepPoint| format::times(p.speedup)) as fn(&SweepPoint) -> String),
    };
    let note = match y_axis {
        YAxis::Speedup => t.whiskers_speedup,
        YAxis::Milliseconds => t.whiskers_ms,
        YAxis::Overhead => t.whiskers_overhead,
    };
    let has_data = move || series.with(|s| s.iter().any(|s| !s.points.is_empty()));
    Effect::new(move |_| {
        width.track();
        let Some(element) = canvas.get() else { return };
        let own = own_count.get();
        series.with(|s| {
            if s.iter().any(|s| !s.points.is_empty()) {
                draw(&element, s, own, &spec)
            }
        });
    });
    let label = move || series.with(|all| spoken(all, x_label, metric));
    view! {
        <figure class="chart" data-testid=test_id>
            <figcaption>{move || format!("{} {note}", caption.get())}</figcaption>
            <Show when=has_data fallback=move || view! { <p class="empty">{empty_text}</p> }>
                <div class="chart-with-table">
                    <div class="chart-canvas">
                        <canvas node_ref=canvas role="img" aria-label=label></canvas>
                        {legends(series, published, has_published)}
                    </div>

                    {data_table(series, x_label, metric_name, metric)}
                </div>
                {fit_amdahl.then(|| amdahl_table(series))}
            </Show>
        </figure>
    }
}

/// Every line's points in words: the canvas's accessible name.
fn spoken(all: &[Series], x_label: &'static str, metric: fn(&SweepPoint) -> String) -> String {
    all.iter()
        .map(|s| {
            let points: Vec<String> = s
                .points
                .iter()
                .map(|p| {
                    let x = format::int(p.x as u64);
                    fill(ui().chart_point, &[("axis", x_label), ("x", &x), ("value", &metric(p))])
                })
                .collect();
            format!("{}: {}", s.name, points.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The HTML legend beside the canvas (so it never hides a line), and the published points' symbols.
fn legends(
    series: Signal<Vec<Series>>,
    published: StoredValue<Vec<PublishedPoint>>,
    has_published: bool,
) -> impl IntoView {
    let t = ui();
    view! {
            <Show when=move || series.with(|s| s.len() > 1)>
                <ul class="legend">
                    {move || series.get().into_iter().enumerate().map(|(index, line)| {
                        // Classes, not inline styles: the page's CSP allows no inline styles.
                        let swatch = format!("swatch swatch-{}", index % TASK_COLOURS.len());
                        view! { <li><span class=swatch aria-hidden="true"></span>{line.name}</li> }
                    }).collect_view()}

                </ul>
            </Show>
            <Show when=move || has_published>
                <p class="legend-title">{t.published_points_title}</p>
                <ul class="legend published-points" data-testid="published-points">
                    {published.get_value().into_iter().map(|p| {
                        let symbol = PUBLISHED_SYMBOLS[p.symbol % PUBLISHED_SYMBOLS.len()];
                        view! { <li><span aria-hidden="true">{symbol}</span>" "{p.label.clone()}</li> }
                    }).collect_view()}
                </ul>
            </Show>
    }
}

/// The chart as a table: one row per point, folded away below the chart at full width, never
/// clipped in height.
fn data_table(
    series: Signal<Vec<Series>>,
    x_label: &'static str,
    metric_name: &'static str,
    metric: fn(&SweepPoint) -> String,
) -> impl IntoView {
    let t = ui();
    let rows = move || {
        series.with(|all| {
            all.iter()
                .flat_map(|s| s.points.iter().map(move |p| (s.name.clone(), p.clone())))
                .collect::<Vec<(String, SweepPoint)>>()
        })
    };
    view! {
        <details class="chart-data-details">
        <summary>{t.chart_data_caption}</summary>
        <div class="table-scroll" tabindex="0">
            <table class="chart-data" aria-label=t.chart_data_caption>
                <thead>
                    <tr>
                        <th scope="col">{t.col_series}</th>
                        <th scope="col">{x_label}</th>
                        <th scope="col">{t.col_median}</th>
                        <th scope="col">{t.col_min}</th>
                        <th scope="col">{t.col_max}</th>
                        <th scope="col">{metric_name}</th>
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
                            <td class="num">{metric(&row.1)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
        </details>
    }
}

/// The kind of fit, for scripts and tests (`data-fit`): `serial`, `no-faster` or `none`.
fn fit_kind(fit: Option<AmdahlFit>) -> &'static str {
    match fit {
        Some(AmdahlFit::Serial(_)) => "serial",
        Some(AmdahlFit::NoFaster) => "no-faster",
        None => "none",
    }
}

/// Each line's serial share fitted with Amdahl's law, and the speedup it allows at most.
fn amdahl_table(series: Signal<Vec<Series>>) -> impl IntoView {
    let t = ui();
    view! {
        <div class="table-scroll" tabindex="0">
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
                        let fit = fitted_amdahl(&line);
                        let serial = fit.and_then(|fit| match fit {
                            AmdahlFit::Serial(serial) => Some(serial),
                            AmdahlFit::NoFaster => None,
                        });
                        let cells = if fit == Some(AmdahlFit::NoFaster) {
                            // No fraction is claimed for a split that more workers made no faster.
                            view! { <td colspan="2" class="no-fit">{t.amdahl_no_fit}</td> }.into_any()
                        } else {
                            view! {
                                <td class="num">{serial.map_or("—".into(), format::percent)}</td>
                                <td class="num">{serial.map_or("—".into(), |s| if s > 0.0 { format::times(1.0 / s) } else { "∞".into() })}</td>
                            }.into_any()
                        };
                        view! {
                            <tr
                                data-series=line.name.clone()
                                data-serial=serial.map(|s| format!("{s:.4}"))
                                data-fit=fit_kind(fit)
                            >
                                <th scope="row">{line.name.clone()}</th>
                                {cells}
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
