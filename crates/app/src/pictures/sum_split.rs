//! The Sum split up, from its own sliders: the list cut into slices, each slice summed by a
//! worker into a partial sum, the partial sums added into one total. The colours show one
//! possible order (slice i to worker i mod k); which worker takes which slice is up to the pool.

use super::lanes::{drawing, fitted_size, slider, Markup};
use crate::components::controls::unique_id;
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use leptos::prelude::*;

/// Where the drawing's rows are, in its units (it is 400 wide).
const LIST_TOP: f64 = 22.0;
const LIST_HEIGHT: f64 = 24.0;
const WORKER_TOP: f64 = 82.0;
const WORKER_HEIGHT: f64 = 26.0;
const PARTIAL_Y: f64 = 138.0;
const TOTAL_TOP: f64 = 176.0;
const HEIGHT: f64 = 206.0;
const MARGIN: f64 = 10.0;
const GAP: f64 = 8.0;

/// The worker that takes slice `slice` of `workers` in the drawing's order.
pub fn worker_of(slice: usize, workers: usize) -> usize {
    slice % workers.max(1)
}

/// The left edge and width of box `i` of `count` boxes side by side across the drawing.
fn boxes(i: usize, count: usize, gap: f64) -> (f64, f64) {
    let count = count.max(1) as f64;
    let width = (400.0 - 2.0 * MARGIN - gap * (count - 1.0)) / count;
    (MARGIN + i as f64 * (width + gap), width)
}

/// Where partial sum `slice` sits: under its worker, spread across the worker's width.
fn partial_x(slice: usize, slices: usize, workers: usize) -> f64 {
    let worker = worker_of(slice, workers);
    let own: Vec<usize> = (0..slices).filter(|s| worker_of(*s, workers) == worker).collect();
    let place = own.iter().position(|s| *s == slice).unwrap_or(0);
    let (left, width) = boxes(worker, workers, GAP);
    left + width * (place as f64 + 0.5) / own.len() as f64
}

#[component]
pub fn SumSplit() -> impl IntoView {
    let t = ui();
    let slices = RwSignal::new(8u64);
    let workers = RwSignal::new(2u64);
    let (slices_id, workers_id) = (unique_id("picture-sum-slices"), unique_id("picture-sum-workers"));
    let output_for = format!("{slices_id} {workers_id}");
    let sentence = move || {
        let (s, k) = (slices.get() as usize, workers.get() as usize);
        let most = (0..k).map(|w| (0..s).filter(|i| worker_of(*i, k) == w).count()).max().unwrap_or(0);
        message(
            t.split_sentence,
            &[("slices", Arg::Count(s as u64)), ("workers", Arg::Count(k as u64)), ("most", Arg::Count(most as u64))],
        )
    };
    let drawn = move || {
        let (s, k) = (slices.get() as usize, workers.get() as usize);
        let (total_left, total_width) = (120.0, 160.0);
        let total_mid = total_left + total_width / 2.0;
        let mut svg = Markup::default();
        svg.text("lanes-title", (MARGIN, 15.0), 12.0, "start", t.split_list);
        for w in 0..k {
            let (left, width) = boxes(w, k, GAP);
            svg.rect(&format!("split-worker c{}", w % 6), left, WORKER_TOP, width, WORKER_HEIGHT);
            let name = fill(t.lanes_worker, &[("n", &format::int(w as u64 + 1))]);
            svg.text(
                "lanes-name",
                (left + width / 2.0, WORKER_TOP + 17.0),
                fitted_size(&name, 11.0, width - 4.0),
                "middle",
                &name,
            );
            svg.line(
                "split-link",
                (left + width / 2.0, WORKER_TOP + WORKER_HEIGHT),
                (left + width / 2.0, PARTIAL_Y - 14.0),
            );
        }
        for i in 0..s {
            let (left, width) = boxes(i, s, 0.0);
            let worker = worker_of(i, k);
            let (w_left, w_width) = boxes(worker, k, GAP);
            let px = partial_x(i, s, k);
            let number = format::int(i as u64 + 1);
            svg.rect(&format!("lanes-run c{}", worker % 6), left, LIST_TOP, width, LIST_HEIGHT);
            if width >= 16.0 {
                svg.text("lanes-number", (left + width / 2.0, LIST_TOP + 16.0), 10.0, "middle", &number);
            }
            svg.line("split-link", (left + width / 2.0, LIST_TOP + LIST_HEIGHT), (w_left + w_width / 2.0, WORKER_TOP));
            svg.line("split-link", (px, PARTIAL_Y + 9.0), (total_mid, TOTAL_TOP));
            svg.circle(&format!("split-partial c{}", worker % 6), px, PARTIAL_Y, 9.0);
            svg.text("lanes-number", (px, PARTIAL_Y + 4.0), 10.0, "middle", &number);
        }
        svg.text("lanes-title", (MARGIN, PARTIAL_Y - 16.0), 12.0, "start", t.split_partials);
        svg.rect("split-total", total_left, TOTAL_TOP, total_width, 26.0);
        svg.text("lanes-title", (total_mid, TOTAL_TOP + 18.0), 12.0, "middle", t.split_total);
        drawing("lanes split", HEIGHT, sentence(), svg)
    };
    view! {
        <figure class="picture lanes-picture sum-split" data-testid="picture-sum-split">
            <figcaption>{t.split_caption}</figcaption>
            <div class="controls">
                {slider(t.split_slices, slices_id, (1, 12), slices)}
                {slider(t.split_workers, workers_id, (1, 4), workers)}
            </div>
            {drawn}
            <p class="lanes-sentence">
                <output for=output_for data-testid="picture-sum-split-sentence">{sentence}</output>
            </p>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_go_to_workers_in_turn_and_their_partials_sit_under_them() {
        assert_eq!((0..5).map(|s| worker_of(s, 2)).collect::<Vec<_>>(), [0, 1, 0, 1, 0]);
        assert_eq!(worker_of(3, 0), 0, "no workers is read as one");
        // Boxes fill the width between the margins.
        let (left, width) = boxes(3, 4, GAP);
        assert!((left + width - (400.0 - MARGIN)).abs() < 1e-9);
        // Each partial sum lies inside its worker's box.
        for slices in 1..=12 {
            for workers in 1..=4 {
                for slice in 0..slices {
                    let (left, width) = boxes(worker_of(slice, workers), workers, GAP);
                    let x = partial_x(slice, slices, workers);
                    assert!(x > left && x < left + width, "slice {slice} of {slices} on {workers}");
                }
            }
        }
    }
}
