//! A chart of horizontal lanes with coloured bars over time: the OS scheduler's Gantt chart (one
//! lane per core) and its thread states (one lane per thread).

use super::axis::Scale;
use super::canvas::{chart_with_axes, err, paint, text_on, watch_width, AxisSpec, TASK_COLOURS};
use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::*;

/// How a bar is filled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fill {
    /// The colour of item `n` (thread or task), as in the legends and chips.
    Item(u32),
    /// Grey: overhead such as a context switch, or a thread waiting in the ready queue.
    Muted,
    /// Only an outline: a thread blocked on IO.
    Outline,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub start: f64,
    pub end: f64,
    pub fill: Fill,
    /// Drawn inside the bar when it is wide enough.
    pub label: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub label: String,
    pub bars: Vec<Bar>,
}

const HEIGHT_PER_LANE: f64 = 26.0;
const AXIS_HEIGHT: f64 = 56.0;

fn draw(canvas: &web_sys::HtmlCanvasElement, lanes: &[Lane], x_label: &str) {
    let count = lanes.len().max(1) as u32;
    let end = lanes.iter().flat_map(|l| l.bars.iter().map(|b| b.end)).fold(0.0, f64::max).max(0.001);
    paint(canvas, AXIS_HEIGHT + HEIGHT_PER_LANE * count as f64, |root, ink| {
        let x = AxisSpec { scale: Scale::Linear, low: 0.0, high: end, suffix: "", title: x_label };
        let (mut chart, _) = chart_with_axes(&root, &ink, x, Err((count, 44.0)))?;
        let bottom_of = |lane: usize| (count as usize - 1 - lane) as f64;
        let label_style = ink.font(12.0).into_font().color(&ink.text);
        for (index, lane) in lanes.iter().enumerate() {
            let (_, py) = chart.backend_coord(&(0.0, bottom_of(index) + 0.5));
            root.draw(&Text::new(lane.label.clone(), (ink.px(6.0), py - ink.px(6.0)), label_style.clone()))
                .map_err(err)?;
        }
        let plot_width = chart.plotting_area().dim_in_pixel().0 as f64;
        for (index, lane) in lanes.iter().enumerate() {
            let (low, high) = (bottom_of(index) + 0.15, bottom_of(index) + 0.85);
            for bar in &lane.bars {
                let corners = [(bar.start, low), (bar.end.max(bar.start + end * 0.002), high)];
                let (style, colour) = match bar.fill {
                    Fill::Item(n) => {
                        let colour = TASK_COLOURS[n as usize % TASK_COLOURS.len()];
                        (colour.filled(), colour)
                    }
                    Fill::Muted => (ink.muted.mix(0.45).filled(), ink.muted),
                    Fill::Outline => (ink.muted.stroke_width(ink.px(1.0) as u32), WHITE),
                };
                chart.draw_series(std::iter::once(Rectangle::new(corners, style))).map_err(err)?;
                let width_px = (bar.end - bar.start) / end * plot_width;
                if let (Some(text), Fill::Item(_)) = (&bar.label, bar.fill) {
                    if width_px > 26.0 * ink.dpr {
                        let (px, py) = chart.backend_coord(&(bar.start, high));
                        let style = ink.font(11.0).into_font().color(&text_on(colour));
                        root.draw(&Text::new(text.clone(), (px + ink.px(3.0), py + ink.px(3.0)), style))
                            .map_err(err)?;
                    }
                }
            }
        }
        root.present().map_err(err)
    });
}

/// Lanes of bars on a shared time axis, with a text alternative.
#[component]
pub fn LaneChart(
    #[prop(into)] lanes: Signal<Vec<Lane>>,
    x_label: &'static str,
    #[prop(into)] summary: Signal<String>,
    #[prop(optional)] test_id: &'static str,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let width = watch_width(canvas);
    Effect::new(move |_| {
        width.track();
        let Some(element) = canvas.get() else { return };
        lanes.with(|lanes| draw(&element, lanes, x_label));
    });
    view! { <canvas node_ref=canvas role="img" aria-label=move || summary.get() data-testid=test_id></canvas> }
}
