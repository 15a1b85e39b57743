//! Drawing plotters charts on a `<canvas>` that fills its box, stays sharp on high-density screens
//! and redraws when its box is resized or its data changes.

use super::axis::{Axis, Placer, Scale, Side};
use crate::format;
use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

/// Colours and scale a chart draws with.
#[derive(Clone, Copy)]
pub struct Ink {
    /// Device pixels per CSS pixel: multiply every size by it.
    pub dpr: f64,
    pub text: RGBColor,
    pub grid: RGBColor,
    pub muted: RGBColor,
}

impl Ink {
    pub fn px(&self, css_px: f64) -> i32 {
        (css_px * self.dpr).round() as i32
    }
    pub fn font(&self, css_px: f64) -> (&'static str, f64) {
        ("sans-serif", css_px * self.dpr)
    }
}

/// Eight colours that stay distinguishable for common colour-vision deficiencies (Okabe–Ito).
pub const TASK_COLOURS: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(240, 228, 66),
    RGBColor(120, 120, 120),
];

/// Black or white, whichever reads better on `background`.
pub fn text_on(background: RGBColor) -> RGBColor {
    let RGBColor(r, g, b) = background;
    let luminance = 0.299 * r as f64 + 0.587 * g as f64 + 0.114 * b as f64;
    if luminance > 140.0 {
        RGBColor(20, 20, 20)
    } else {
        WHITE
    }
}

fn ink() -> Ink {
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
    if crate::environment::prefers_dark() {
        Ink { dpr, text: RGBColor(225, 225, 225), grid: RGBColor(70, 70, 75), muted: RGBColor(160, 160, 160) }
    } else {
        Ink { dpr, text: RGBColor(30, 30, 30), grid: RGBColor(225, 225, 228), muted: RGBColor(110, 110, 110) }
    }
}

/// Size the canvas to its CSS box (times the pixel ratio) and hand a cleared drawing area to `draw`.
pub fn paint(
    canvas: &HtmlCanvasElement,
    css_height: f64,
    draw: impl FnOnce(DrawingArea<CanvasBackend, Shift>, Ink) -> Result<(), String>,
) {
    let ink = ink();
    let css_width = match canvas.client_width() {
        0 => 640.0,
        w => w as f64,
    };
    canvas.set_width((css_width * ink.dpr) as u32);
    canvas.set_height((css_height * ink.dpr) as u32);
    let Some(backend) = CanvasBackend::with_canvas_object(canvas.clone()) else {
        return;
    };
    let root = backend.into_drawing_area();
    if root.fill(&TRANSPARENT).is_ok() {
        if let Err(error) = draw(root, ink) {
            web_sys::console::warn_1(&format!("chart not drawn: {error}").into());
        }
    }
}

/// A canvas whose width is tracked: returns a signal that changes when its box is resized.
pub fn watch_width(canvas: NodeRef<Canvas>) -> ReadSignal<i32> {
    let (width, set_width) = signal(0);
    Effect::new(move |_| {
        let Some(element) = canvas.get() else { return };
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            if let Ok(entry) = entries.get(0).dyn_into::<web_sys::ResizeObserverEntry>() {
                set_width.try_set(entry.content_rect().width().round() as i32);
            }
        });
        let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) else {
            return;
        };
        observer.observe(&element);
        let held = SendWrapper::new((observer, callback));
        on_cleanup(move || held.0.disconnect());
    });
    width
}

/// Turn a plotters error into a message.
pub fn err<E: std::fmt::Debug>(error: E) -> String {
    format!("{error:?}")
}

/// One axis of a chart before it is laid out: its scale, range, label suffix and title.
#[derive(Clone, Copy, Debug)]
pub struct AxisSpec<'a> {
    pub scale: Scale,
    pub low: f64,
    pub high: f64,
    pub suffix: &'static str,
    pub title: &'a str,
}

/// A plotters chart whose coordinates are the axes' own (log2 or log10 on a log axis).
pub type Chart<'a> = ChartContext<'a, CanvasBackend, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The laid-out axes of a chart: the ticks drawn and the placer for its annotations.
pub struct Axes {
    pub x: Axis,
    pub y: Option<Axis>,
    pub placer: Placer,
}

/// Lay out a chart: the y axis (if any) gets ticks for the plot's height, the x axis for the width
/// left beside the y labels; draws the axes, the grid and every tick label (from `axis`, so labels
/// never overlap) and returns the chart to draw the data on. `lanes` replaces the y axis with that
/// many bands and a fixed label area for their names.
pub fn chart_with_axes<'a>(
    root: &'a DrawingArea<CanvasBackend, Shift>,
    ink: &Ink,
    x: AxisSpec,
    y: Result<AxisSpec, (u32, f64)>,
) -> Result<(Chart<'a>, Axes), String> {
    let (width, height) = root.dim_in_pixel();
    let (width, height) = (width as f64, height as f64);
    let font_px = 12.0 * ink.dpr;
    let format = |value: f64, decimals: usize| format::fixed(value, decimals.min(6) as u8);
    let (margin_top, margin_right, margin_left) = (ink.px(12.0) as f64, ink.px(24.0) as f64, ink.px(4.0) as f64);
    let x_area = ink.px(44.0) as f64;
    let plot_height = height - margin_top - x_area;
    let y_axis = y.ok().map(|spec| Axis {
        scale: spec.scale,
        low: spec.low,
        high: spec.high,
        pixels: plot_height,
        font_px,
        side: Side::Left,
        room: margin_top.min(font_px * 0.6),
        suffix: spec.suffix,
    });
    let y_ticks = y_axis.map(|axis| axis.ticks(&format)).unwrap_or_default();
    let y_area = match (&y_axis, y) {
        (Some(axis), _) => axis.widest(&y_ticks) + ink.px(30.0) as f64,
        (None, Err((_, area))) => ink.px(area) as f64,
        (None, Ok(_)) => 0.0,
    };
    let x_axis = Axis {
        scale: x.scale,
        low: x.low,
        high: x.high,
        pixels: (width - margin_left - margin_right - y_area).max(10.0),
        font_px,
        side: Side::Bottom,
        room: margin_right.min(y_area).max(0.0),
        suffix: x.suffix,
    };
    let x_ticks = x_axis.ticks(&format);
    let y_range = match (&y_axis, y) {
        (Some(axis), _) => axis.coord(axis.low)..axis.coord(axis.high),
        (None, Err((lanes, _))) => 0.0..lanes.max(1) as f64,
        (None, Ok(_)) => 0.0..1.0,
    };
    let mut chart = ChartBuilder::on(root)
        .margin_top(margin_top as i32)
        .margin_right(margin_right as i32)
        .margin_left(margin_left as i32)
        .x_label_area_size(x_area as i32)
        .y_label_area_size(y_area as i32)
        .build_cartesian_2d(x_axis.coord(x.low)..x_axis.coord(x.high), y_range.clone())
        .map_err(err)?;
    let title_style = ink.font(12.0).into_font().color(&ink.text);
    let mut mesh = chart.configure_mesh();
    mesh.disable_mesh()
        .x_labels(0)
        .y_labels(0)
        .x_desc(x.title)
        .axis_desc_style(title_style.clone())
        .label_style(title_style.clone())
        .axis_style(ink.muted);
    if let Ok(spec) = y {
        mesh.y_desc(spec.title);
    }
    mesh.draw().map_err(err)?;
    let (x_coord_low, x_coord_high) = (x_axis.coord(x.low), x_axis.coord(x.high));
    // Grid lines under the data, then the labels, centred where `axis` put them.
    let grid = ink.grid.stroke_width(ink.px(1.0).max(1) as u32);
    for tick in &x_ticks {
        let at = x_axis.coord(tick.value);
        chart.draw_series(LineSeries::new([(at, y_range.start), (at, y_range.end)], grid)).map_err(err)?;
        let (px, py) = chart.backend_coord(&(at, y_range.start));
        let shift = tick.label_at - tick.at;
        let style = title_style.pos(Pos::new(HPos::Center, VPos::Top));
        root.draw(&Text::new(tick.label.clone(), (px + shift.round() as i32, py + ink.px(6.0)), style)).map_err(err)?;
    }
    if let Some(axis) = &y_axis {
        for tick in &y_ticks {
            let at = axis.coord(tick.value);
            chart.draw_series(LineSeries::new([(x_coord_low, at), (x_coord_high, at)], grid)).map_err(err)?;
            let (px, py) = chart.backend_coord(&(x_coord_low, at));
            // Up the screen is down in pixels.
            let shift = tick.label_at - tick.at;
            let style = title_style.pos(Pos::new(HPos::Right, VPos::Center));
            root.draw(&Text::new(tick.label.clone(), (px - ink.px(6.0), py - shift.round() as i32), style))
                .map_err(err)?;
        }
    }
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let placer = Placer::new((xs.start as f64, ys.start as f64, xs.end as f64, ys.end as f64), font_px);
    Ok((chart, Axes { x: x_axis, y: y_axis, placer }))
}
