//! Summary statistics over repeated timings, and the speedup of one measurement over a baseline.

use crate::results::Summary;

/// Index of the median sample (the lower middle one for an even count), `None` for no samples.
pub fn median_index(samples: &[f64]) -> Option<usize> {
    if samples.is_empty() {
        return None;
    }
    let mut order: Vec<usize> = (0..samples.len()).collect();
    order.sort_by(|&a, &b| samples[a].total_cmp(&samples[b]));
    Some(order[(samples.len() - 1) / 2])
}

/// Median, min and max. The median is the lower middle sample, so it is always a real measurement.
pub fn summarize(samples: &[f64]) -> Summary {
    let Some(mid) = median_index(samples) else {
        return Summary { median_ms: f64::NAN, min_ms: f64::NAN, max_ms: f64::NAN };
    };
    let min_ms = samples.iter().copied().fold(f64::INFINITY, f64::min);
    let max_ms = samples.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Summary { median_ms: samples[mid], min_ms, max_ms }
}

/// How many times faster than the baseline (median over median). Above 1 is faster.
pub fn speedup(baseline: &Summary, other: &Summary) -> f64 {
    if other.median_ms > 0.0 {
        baseline.median_ms / other.median_ms
    } else {
        f64::NAN
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(summarize(&[3.0, 1.0, 2.0]).median_ms, 2.0);
        // Lower middle of an even count: a real sample, never an average of two.
        assert_eq!(summarize(&[4.0, 1.0, 3.0, 2.0]).median_ms, 2.0);
    }

    #[test]
    fn min_max_and_index() {
        let s = [5.0, 9.0, 1.0, 7.0, 3.0];
        let summary = summarize(&s);
        assert_eq!((summary.min_ms, summary.max_ms), (1.0, 9.0));
        assert_eq!(median_index(&s), Some(0)); // 5.0 is the middle value
        assert_eq!(median_index(&[]), None);
        assert!(summarize(&[]).median_ms.is_nan());
    }

    #[test]
    fn speedup_is_baseline_over_other() {
        let base = summarize(&[10.0]);
        let fast = summarize(&[2.5]);
        assert_eq!(speedup(&base, &fast), 4.0);
        assert_eq!(speedup(&fast, &base), 0.25);
    }
}
