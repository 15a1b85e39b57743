//! A value over time, one line per series (e.g. requests in flight), with its data table beside it.

use super::axis::Scale;
use super::canvas::{chart_with_axes, err, paint, watch_width, AxisSpec, TASK_COLOURS};
use crate::format;
use crate::i18n::{fill, ui};
use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::*;

/// One named line: (x, y) points in x order.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

const HEIGHT: f64 = 260.0;

fn draw(canvas: &web_sys::HtmlCanvasElement, lines: &[Line], x_scale: Scale, x_label: &str, y_label: &str) {
    let all = || lines.iter().flat_map(|l| l.points.iter()).filter(|p| x_scale == Scale::Linear || p.0 > 0.0);
    let x_max = all().map(|p| p.0).fold(0.0, f64::max).max(1e-3);
    let x_min = match x_scale {
        Scale::Linear => 0.0,
        _ => all().map(|p| p.0).fold(f64::INFINITY, f64::min).min(x_max / 10.0),
    };
    let y_max = all().map(|p| p.1).fold(0.0, f64::max).max(1.0) * 1.15;
    paint(canvas, HEIGHT, |root, ink| {
        let x = AxisSpec { scale: x_scale, low: x_min, high: x_max, suffix: "", title: x_label };
        let y = AxisSpec { scale: Scale::Linear, low: 0.0, high: y_max, suffix: "", title: y_label };
        let (mut chart, axes) = chart_with_axes(&root, &ink, x, Ok(y))?;
        for (index, line) in lines.iter().enumerate() {
            let colour = TASK_COLOURS[index % TASK_COLOURS.len()];
            let points: Vec<(f64, f64)> = line
                .points
                .iter()
                .filter(|p| x_scale == Scale::Linear || p.0 > 0.0)
                .map(|&(x, y)| (axes.x.coord(x), y))
                .collect();
            chart.draw_series(LineSeries::new(points, colour.stroke_width(ink.px(2.5) as u32))).map_err(err)?;
        }
        root.present().map_err(err)
    });
}

#[component]
pub fn LineChart(
    #[prop(into)] lines: Signal<Vec<Line>>,
    /// How time runs along the x axis (a log axis lets runs of very different lengths both read).
    x_scale: Scale,
    x_label: &'static str,
    y_label: &'static str,
    #[prop(into)] caption: Signal<String>,
    #[prop(optional)] test_id: &'static str,
) -> impl IntoView {
    let t = ui();
    let canvas = NodeRef::<Canvas>::new();
    let width = watch_width(canvas);
    Effect::new(move |_| {
        width.track();
        let Some(element) = canvas.get() else { return };
        lines.with(|l| draw(&element, l, x_scale, x_label, y_label));
    });
    let label = move || {
        lines.with(|lines| {
            lines
                .iter()
                .map(|l| {
                    let peak = l.points.iter().map(|p| p.1).fold(0.0, f64::max);
                    fill(ui().line_peak, &[("name", &l.name), ("peak", &format::fixed(peak, 0))])
                })
                .collect::<Vec<_>>()
                .join("; ")
        })
    };
    view! {
        <figure class="chart" data-testid=test_id>
            <figcaption>{move || caption.get()}</figcaption>
            <div class="chart-with-table">
                <div class="chart-canvas">
                    <canvas node_ref=canvas role="img" aria-label=label></canvas>
                    <ul class="legend">
                        {move || lines.get().into_iter().enumerate().map(|(index, line)| {
                            let swatch = format!("swatch swatch-{}", index % TASK_COLOURS.len());
                            view! { <li><span class=swatch aria-hidden="true"></span>{line.name}</li> }
                        }).collect_view()}
                    </ul>
                </div>
                // Below the chart at full width, opened on demand; never clipped in height.
                <details class="chart-data-details">
                <summary>{t.chart_data_caption}</summary>
                <div class="table-scroll" tabindex="0">
                    <table class="chart-data" aria-label=t.chart_data_caption>
                        <thead>
                            <tr>
                                <th scope="col">{t.col_series}</th>
                                <th scope="col">{x_label}</th>
                                <th scope="col">{y_label}</th>
                            </tr>
                        </thead>
                        <tbody>
                            {move || lines.get().into_iter().flat_map(|line| {
                                let name = line.name.clone();
                                line.points.into_iter().map(move |(x, y)| view! {
                                    <tr>
                                        <td>{name.clone()}</td>
                                        <td class="num">{format::ms(x)}</td>
                                        <td class="num">{format::fixed(y, 1)}</td>
                                    </tr>
                                })
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
                </details>
            </div>
        </figure>
    }
}
