//! Amdahl's law as a curve from its own slider: the speedup on 1 to 16 workers of a job whose
//! serial share s cannot be split, beside the ideal line and under the ceiling 1/s. Computed,
//! not measured, and the caption says so; the sweep above it measures the sorts.

use super::lanes::{drawing, slider, Markup};
use super::schedules::amdahl;
use crate::components::controls::unique_id;
use crate::format;
use crate::i18n::{message, ui, Arg};
use leptos::prelude::*;

/// The plot's corners in the drawing's units (it is 400 × 230), and its largest worker count and
/// speedup.
const X0: f64 = 44.0;
const X1: f64 = 390.0;
const Y0: f64 = 196.0;
const Y1: f64 = 24.0;
const MOST: f64 = 16.0;

fn x(workers: f64) -> f64 {
    X0 + (workers - 1.0) / (MOST - 1.0) * (X1 - X0)
}

fn y(speedup: f64) -> f64 {
    Y0 - (speedup - 1.0) / (MOST - 1.0) * (Y0 - Y1)
}

/// The curve's points for serial share `serial`, 1 to 16 workers.
pub fn curve(serial: f64) -> Vec<(f64, f64)> {
    (1..=MOST as u32).map(|w| (w as f64, amdahl(serial, w as f64))).collect()
}

#[component]
pub fn Amdahl() -> impl IntoView {
    let t = ui();
    // 10 %: the curve bends visibly toward its ceiling of 10 within 16 workers.
    let percent = RwSignal::new(10u64);
    let id = unique_id("picture-amdahl");
    let serial = move || percent.get() as f64 / 100.0;
    let sentence = move || {
        let s = serial();
        let at = |w: f64| format::fixed(amdahl(s, w), 2);
        let (two, four, sixteen) = (at(2.0), at(4.0), at(16.0));
        let share = format::percent(s);
        let template = if s > 0.0 { t.amdahl_picture_sentence } else { t.amdahl_picture_sentence_no_ceiling };
        let ceiling = format::decimal(1.0 / s.max(1e-9), 2);
        message(
            template,
            &[
                ("s", Arg::Text(&share)),
                ("two", Arg::Text(&two)),
                ("four", Arg::Text(&four)),
                ("sixteen", Arg::Text(&sixteen)),
                ("ceiling", Arg::Text(&ceiling)),
            ],
        )
    };
    let drawn = move || {
        let s = serial();
        let mut svg = Markup::default();
        for v in [1.0, 4.0, 8.0, 12.0, 16.0] {
            let label = format::int(v as u64);
            svg.line("amdahl-grid", (X0, y(v)), (X1, y(v)));
            svg.text("lanes-name", (x(v), Y0 + 14.0), 11.0, "middle", &label);
            svg.text("lanes-name", (X0 - 6.0, y(v) + 4.0), 11.0, "end", &label);
        }
        svg.line("amdahl-ideal", (x(1.0), y(1.0)), (x(MOST), y(MOST)));
        if s > 0.0 && 1.0 / s <= MOST {
            svg.line("amdahl-ceiling", (X0, y(1.0 / s)), (X1, y(1.0 / s)));
        }
        let points: Vec<(f64, f64)> = curve(s).into_iter().map(|(w, v)| (x(w), y(v))).collect();
        svg.polyline("amdahl-curve", &points);
        for (w, v) in curve(s).into_iter().filter(|(w, _)| [2.0, 4.0, 16.0].contains(w)) {
            svg.circle("amdahl-point", x(w), y(v), 4.0);
        }
        svg.text("lanes-title", ((X0 + X1) / 2.0, 226.0), 12.0, "middle", t.amdahl_picture_workers);
        svg.text("lanes-title", (X0 - 30.0, 12.0), 12.0, "start", t.amdahl_picture_speedup);
        drawing("lanes amdahl", 230.0, sentence(), svg)
    };
    view! {
        <figure class="picture lanes-picture amdahl-picture" data-testid="picture-amdahl">
            <figcaption>{t.amdahl_picture_caption}</figcaption>
            <div class="controls">{slider(t.amdahl_picture_serial, id.clone(), (0, 100), percent)}</div>
            {drawn}
            <ul class="lanes-legend">
                <li><span class="lanes-swatch curve" aria-hidden="true"></span>{t.amdahl_picture_legend_curve}</li>
                <li><span class="lanes-swatch ideal" aria-hidden="true"></span>{t.amdahl_picture_legend_ideal}</li>
                <li><span class="lanes-swatch ceiling" aria-hidden="true"></span>{t.amdahl_picture_legend_ceiling}</li>
            </ul>
            <p class="lanes-sentence">
                <output for=id data-testid="picture-amdahl-sentence">{sentence}</output>
            </p>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_starts_at_one_and_stays_under_the_ideal_line_and_the_ceiling() {
        for percent in [1, 10, 50, 90, 100] {
            let s = percent as f64 / 100.0;
            let points = curve(s);
            assert_eq!(points.len(), 16);
            assert!((points[0].1 - 1.0).abs() < 1e-12);
            for (w, v) in points {
                assert!(v <= w + 1e-12 && v <= 1.0 / s + 1e-12);
            }
        }
        // The axes map their ends to the plot's corners.
        assert_eq!((x(1.0), x(MOST), y(1.0), y(MOST)), (X0, X1, Y0, Y1));
    }
}
