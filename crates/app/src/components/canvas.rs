//! Drawing plotters charts on a `<canvas>` that fills its box, stays sharp on high-density screens
//! and redraws when its box is resized or its data changes.

use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::*;
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
