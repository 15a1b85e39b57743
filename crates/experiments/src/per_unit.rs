//! Per-unit figures that a chapter, `lab` and the bench all show, computed once: nanoseconds per task
//! switch, nanoseconds per task, and megabytes (10^6 bytes) per second.

/// Nanoseconds per switch when `round_trips` round trips took `median_ms`: a round trip hands the
/// turn there and back, two switches.
pub fn ns_per_switch(median_ms: f64, round_trips: u32) -> f64 {
    median_ms * 1e6 / (2.0 * f64::from(round_trips.max(1)))
}

/// Nanoseconds per task when `tasks` tasks took `median_ms`.
pub fn ns_per_task(median_ms: f64, tasks: u32) -> f64 {
    median_ms * 1e6 / f64::from(tasks.max(1))
}

/// Megabytes (10^6 bytes) per second when `bytes` took `median_ms`.
pub fn mb_per_s(bytes: f64, median_ms: f64) -> f64 {
    bytes / 1e6 / (median_ms / 1e3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        // 1,000 round trips in 1 ms: 2,000 switches, 500 ns each.
        assert_eq!(ns_per_switch(1.0, 1_000), 500.0);
        assert_eq!(ns_per_task(2.0, 1_000), 2_000.0);
        assert_eq!(mb_per_s(50e6, 500.0), 100.0);
        // A count of zero is read as one, never a division by zero.
        assert_eq!(ns_per_task(1.0, 0), 1e6);
    }
}
