//! Pictures of one idea each, drawn as SVG markup ([`lanes::Markup`]): a thread's three states and
//! the moves between them (OS scheduler), one digest as a chain of blocks beside many independent
//! digests (hashing), and counters that share a cache line or keep one each, from the reader's
//! spacing (the Sum's shared total). They compute only where to draw; nothing is timed.

use super::lanes::{drawing, fitted_size, stepped_slider, Markup};
use crate::components::controls::unique_id;
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use leptos::prelude::*;

/// A box with its words centred in it: page ink on a box of the page's colour, dark ink on a box of
/// a task's colour (`lanes-run`).
fn labelled_box(svg: &mut Markup, class: &str, (x, y, width, height): (f64, f64, f64, f64), words: &str, size: f64) {
    svg.rect(class, x, y, width, height);
    let ink = if class.starts_with("lanes-run") { "lanes-number" } else { "lanes-title" };
    svg.text(
        ink,
        (x + width / 2.0, y + height / 2.0 + size * 0.35),
        fitted_size(words, size, width - 8.0),
        "middle",
        words,
    );
}

/// The OS scheduler: running, runnable and waiting, and what moves a thread between them.
pub fn thread_states() -> impl IntoView {
    let t = ui();
    let mut svg = Markup::default();
    let (running, runnable, waiting) =
        ((150.0, 8.0, 100.0, 34.0), (20.0, 120.0, 110.0, 34.0), (270.0, 120.0, 110.0, 34.0));
    labelled_box(&mut svg, "state-box running", running, t.tstates_running, 13.0);
    labelled_box(&mut svg, "state-box", runnable, t.tstates_runnable, 13.0);
    labelled_box(&mut svg, "state-box waiting", waiting, t.tstates_waiting, 13.0);
    // Runnable → running (scheduled) and back (its slice is over); running → waiting (it asks for
    // data); waiting → runnable (the data is there): never straight back to running.
    svg.arrow("state-move", (62.0, 120.0), (160.0, 42.0));
    svg.text("lanes-name", (40.0, 72.0), 11.0, "start", t.tstates_scheduled);
    svg.arrow("state-move", (190.0, 42.0), (100.0, 120.0));
    svg.text("lanes-name", (150.0, 104.0), 11.0, "middle", t.tstates_preempted);
    svg.arrow("state-move", (240.0, 42.0), (320.0, 120.0));
    svg.text("lanes-name", (292.0, 72.0), 11.0, "start", t.tstates_blocks);
    svg.arrow("state-move", (270.0, 146.0), (130.0, 146.0));
    svg.text("lanes-name", (200.0, 172.0), 11.0, "middle", t.tstates_wakes);
    view! {
        <figure class="picture lanes-picture thread-states" data-testid="picture-thread-states">
            <figcaption>{t.tstates_caption}</figcaption>
            {drawing("lanes states", 180.0, t.tstates_label.to_string(), svg)}
        </figure>
    }
}

/// Hashing: one digest's blocks in a chain, each waiting for the state the one before left, beside
/// independent digests that need nothing from each other.
pub fn hash_chain() -> impl IntoView {
    let t = ui();
    let mut svg = Markup::default();
    svg.text("lanes-title", (4.0, 14.0), fitted_size(t.chain_one, 12.0, 392.0), "start", t.chain_one);
    for block in 0..6 {
        let x = 8.0 + block as f64 * 66.0;
        labelled_box(&mut svg, "lanes-run c1", (x, 24.0, 46.0, 26.0), &format!("B{}", block + 1), 11.0);
        if block < 5 {
            svg.arrow("state-move", (x + 46.0, 37.0), (x + 66.0, 37.0));
        }
    }
    svg.text("lanes-title", (4.0, 78.0), fitted_size(t.chain_many, 12.0, 392.0), "start", t.chain_many);
    for digest in 0..3 {
        let y = 88.0 + digest as f64 * 30.0;
        svg.text(
            "lanes-name",
            (4.0, y + 17.0),
            fitted_size(t.lanes_worker, 11.0, 56.0),
            "start",
            &fill(t.lanes_worker, &[("n", &format::int(digest as u64 + 1))]),
        );
        for block in 0..4 {
            let x = 70.0 + block as f64 * 82.0;
            svg.rect(&format!("lanes-run c{}", digest * 2), x, y, 60.0, 22.0);
            if block < 3 {
                svg.arrow("state-move", (x + 60.0, y + 11.0), (x + 82.0, y + 11.0));
            }
        }
    }
    view! {
        <figure class="picture lanes-picture hash-chain" data-testid="picture-hash-chain">
            <figcaption>{t.chain_caption}</figcaption>
            {drawing("lanes chain", 180.0, t.chain_label.to_string(), svg)}
        </figure>
    }
}

/// Bytes in a cache line as the picture draws it (64 on most x86 chips; the caption names Apple's
/// 128).
const LINE: u64 = 64;
/// The counters drawn: one per worker of a 4-worker run.
const COUNTERS: u64 = 4;

/// How many cache lines `COUNTERS` 8-byte counters `spacing` bytes apart touch, and the most
/// counters any one line holds.
pub fn lines_touched(spacing: u64) -> (u64, u64) {
    let lines: Vec<u64> = (0..COUNTERS).map(|i| i * spacing / LINE).collect();
    let distinct = lines.iter().fold(Vec::new(), |mut seen, l| {
        if !seen.contains(l) {
            seen.push(*l);
        }
        seen
    });
    let most = distinct.iter().map(|d| lines.iter().filter(|l| *l == d).count() as u64).max().unwrap_or(0);
    (distinct.len() as u64, most)
}

/// The Sum's shared total: four counters, a worker each, `spacing` bytes apart, over cache lines.
#[component]
pub fn CacheLine() -> impl IntoView {
    let t = ui();
    let spacing = RwSignal::new(8u64);
    let id = unique_id("picture-cache-line");
    let sentence = move || {
        let (lines, most) = lines_touched(spacing.get());
        let template = if most > 1 { t.cacheline_shared } else { t.cacheline_own };
        message(
            template,
            &[("spacing", Arg::Count(spacing.get())), ("lines", Arg::Count(lines)), ("most", Arg::Count(most))],
        )
    };
    let drawn = move || {
        let bytes = COUNTERS * 128;
        let scale = 392.0 / bytes as f64;
        let mut svg = Markup::default();
        for line in 0..bytes / LINE {
            let x = 4.0 + (line * LINE) as f64 * scale;
            svg.rect(if line % 2 == 0 { "line-box" } else { "line-box odd" }, x, 22.0, LINE as f64 * scale, 30.0);
        }
        svg.text("lanes-name", (4.0, 14.0), 11.0, "start", t.cacheline_memory);
        for counter in 0..COUNTERS {
            let at = counter * spacing.get();
            let x = 4.0 + at as f64 * scale;
            svg.rect(&format!("lanes-run c{}", counter), x, 26.0, (8.0 * scale).max(4.0), 22.0);
            let core_x = 50.0 + counter as f64 * 100.0;
            svg.arrow("state-move", (core_x, 84.0), (x + 4.0 * scale, 50.0));
            labelled_box(
                &mut svg,
                &format!("split-worker c{}", counter),
                (core_x - 40.0, 84.0, 80.0, 26.0),
                &fill(t.lanes_core, &[("n", &format::int(counter + 1))]),
                11.0,
            );
        }
        drawing("lanes cache-line", 116.0, sentence(), svg)
    };
    view! {
        <figure class="picture lanes-picture cache-line" data-testid="picture-cache-line">
            <figcaption>{t.cacheline_caption}</figcaption>
            <div class="controls">{stepped_slider(t.cacheline_spacing, id.clone(), (8, 128), 8, spacing)}</div>
            {drawn}
            <p class="lanes-sentence">
                <output for=id data-testid="picture-cache-line-sentence">{sentence}</output>
            </p>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::lines_touched;

    #[test]
    fn counters_share_a_line_until_they_are_a_line_apart() {
        assert_eq!(lines_touched(8), (1, 4), "32 bytes: all four in one line");
        assert_eq!(lines_touched(16), (1, 4), "at 0, 16, 32, 48");
        assert_eq!(lines_touched(32), (2, 2));
        assert_eq!(lines_touched(24), (2, 3), "0, 24 and 48 in one line, 72 in the next");
        assert_eq!(lines_touched(40), (2, 2), "0 and 40 share a line, 80 and 120 the next");
        assert_eq!(lines_touched(64), (4, 1));
        assert_eq!(lines_touched(128), (4, 1));
    }
}
