//! Little's law with sliders: requests in flight (L) and the time each takes (W) give the
//! throughput λ = L / W of a server whose waiting requests park; a thread pool of T threads whose
//! requests block holds at most T of them, so λ = min(L, T) / W. Computed, not measured, and said
//! so: the QPS panel, which the chapter places just above it, measures both servers.

use super::lanes::slider;
use crate::components::controls::unique_id;
use crate::i18n::{message, ui, Arg};
use experiments::catalog::qps;
use leptos::prelude::*;

/// (min, max, start) of each slider: requests in flight, milliseconds per request, pool threads.
/// They start where the QPS panel's own defaults do (its catalog's: 50 in flight, a 10 ms wait, 2
/// pool threads), so the rate computed here is the one that panel's first run can be held to.
const IN_FLIGHT: (u64, u64, u64) = (1, 200, qps::CONCURRENCY.default);
const TIME_MS: (u64, u64, u64) = (1, 100, qps::WAIT_MS.default);
const THREADS: (u64, u64, u64) = (1, 64, 2);

/// Requests per second when `in_flight` requests each take `ms` milliseconds: λ = L / W.
pub fn throughput(in_flight: u64, ms: u64) -> f64 {
    in_flight as f64 * 1000.0 / ms.max(1) as f64
}

/// Requests per second of a pool of `threads` threads whose requests block for `ms` each, with
/// `in_flight` requests sent at once: only `min(L, T)` are served at a time, so at most T / W.
pub fn pool_throughput(in_flight: u64, threads: u64, ms: u64) -> f64 {
    throughput(in_flight.min(threads), ms)
}

#[component]
pub fn LittlesLaw() -> impl IntoView {
    let t = ui();
    let in_flight = RwSignal::new(IN_FLIGHT.2);
    let time_ms = RwSignal::new(TIME_MS.2);
    let threads = RwSignal::new(THREADS.2);
    let (l_id, w_id, t_id) = (unique_id("littles-l"), unique_id("littles-w"), unique_id("littles-t"));
    let per_second = |value: f64| Arg::Count(value.round() as u64);
    let parking =
        move || message(t.littles_law_parking, &[("rate", per_second(throughput(in_flight.get(), time_ms.get())))]);
    let pool = move || {
        let value = pool_throughput(in_flight.get(), threads.get(), time_ms.get());
        message(t.littles_law_pool, &[("rate", per_second(value))])
    };
    let parking_for = format!("{l_id} {w_id}");
    let pool_for = format!("{l_id} {w_id} {t_id}");
    view! {
        <figure class="picture littles-law" data-testid="picture-littles-law">
            <figcaption>{t.littles_law_caption}</figcaption>
            <div class="controls">
                {slider(t.littles_law_in_flight, l_id, (IN_FLIGHT.0, IN_FLIGHT.1), in_flight)}
                {slider(t.littles_law_time, w_id, (TIME_MS.0, TIME_MS.1), time_ms)}
                {slider(t.littles_law_threads, t_id, (THREADS.0, THREADS.1), threads)}
            </div>
            <p class="littles-law-result">
                <output for=parking_for data-testid="littles-law-parking">{parking}</output>
            </p>
            <p class="littles-law-result">
                <output for=pool_for data-testid="littles-law-pool">{pool}</output>
            </p>
            <p class="help">{t.littles_law_note}</p>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throughput_is_in_flight_over_time_per_request() {
        // The chapter's example: 100 in flight at 10 ms each is 10,000 requests per second.
        assert_eq!(throughput(100, 10), 10_000.0);
        assert_eq!(throughput(50, 10), 5_000.0);
        assert_eq!(throughput(1, 100), 10.0);
        assert!((throughput(50, 7) - 7_142.857).abs() < 0.001);
    }

    #[test]
    fn the_sliders_start_at_the_qps_panels_defaults() {
        assert_eq!(THREADS.2, qps::pool_threads(1).default, "the panel's thread pool");
        assert_eq!((IN_FLIGHT.2, TIME_MS.2, THREADS.2), (50, 10, 2));
        // The rate the calculator first shows is one the panel's first run can approach.
        assert_eq!(pool_throughput(IN_FLIGHT.2, THREADS.2, TIME_MS.2), 200.0);
    }

    #[test]
    fn a_pool_serves_at_most_its_threads_at_once() {
        // The chapter's thread pool: 8 threads, 10 ms a request: at most 800 per second.
        assert_eq!(pool_throughput(50, 8, 10), 800.0);
        assert_eq!(pool_throughput(50, 8, 10), throughput(8, 10), "T / W once L > T");
        assert_eq!(pool_throughput(4, 8, 10), throughput(4, 10), "L / W while L ≤ T");
        for l in [1, 7, 8, 9, 200] {
            assert!(pool_throughput(l, 8, 10) <= throughput(l, 10));
        }
    }

    #[test]
    fn the_sliders_start_inside_their_ranges() {
        for (min, max, start) in [IN_FLIGHT, TIME_MS, THREADS] {
            assert!(min <= start && start <= max && min >= 1);
        }
    }
}
