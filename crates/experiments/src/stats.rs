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

/// The lowest and the highest of `values` (NaN, NaN for none).
pub fn low_high(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let low = values.iter().copied().fold(f64::INFINITY, f64::min);
    let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (low, high)
}

/// Round by round, how many times faster `samples` were than `baseline` (baseline ÷ sample), for
/// two measurements taken in turns; `None` unless both hold the same number of samples, two or
/// more, all positive.
pub fn paired_ratios(baseline: &[f64], samples: &[f64]) -> Option<Vec<f64>> {
    let all_positive = baseline.iter().chain(samples).all(|&ms| ms > 0.0 && ms.is_finite());
    (baseline.len() == samples.len() && samples.len() >= 2 && all_positive)
        .then(|| baseline.iter().zip(samples).map(|(b, s)| b / s).collect())
}

/// How many times faster than the baseline (median over median). Above 1 is faster.
pub fn speedup(baseline: &Summary, other: &Summary) -> f64 {
    if other.median_ms > 0.0 {
        baseline.median_ms / other.median_ms
    } else {
        f64::NAN
    }
}

/// Amdahl's law: the speedup on `workers` workers of work whose fraction `serial` cannot be split.
pub fn amdahl_speedup(serial: f64, workers: f64) -> f64 {
    1.0 / (serial + (1.0 - serial) / workers)
}

/// What Amdahl's law makes of a sweep's `(workers, speedup)` points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AmdahlFit {
    /// The serial fraction s (0 to 1) that best explains the points.
    Serial(f64),
    /// More workers made it no faster, on the whole: the fit's s would be above 1, which no serial
    /// part can be. The law assumes splitting costs nothing; a split that costs more than it saves
    /// (more passes, barriers, copies, tasks to start) is outside it, so no fraction is claimed.
    NoFaster,
}

/// Amdahl's law fitted to measured `(workers, speedup)` points, each speedup taken against the same
/// work on one worker.
///
/// From 1/speedup = s + (1 − s)/k follows 1/speedup − 1/k = s · (1 − 1/k): a line through the origin,
/// fitted by least squares. Points with one worker carry no information and are skipped. `None`
/// without any point at more than one worker.
pub fn amdahl_fit(points: &[(f64, f64)]) -> Option<AmdahlFit> {
    let (mut xy, mut xx) = (0.0, 0.0);
    for &(workers, speedup) in points {
        if workers <= 1.0 || !(speedup.is_finite() && speedup > 0.0) {
            continue;
        }
        let x = 1.0 - 1.0 / workers;
        let y = 1.0 / speedup - 1.0 / workers;
        xy += x * y;
        xx += x * x;
    }
    if xx <= 0.0 {
        return None;
    }
    let serial = xy / xx;
    Some(if serial > 1.0 { AmdahlFit::NoFaster } else { AmdahlFit::Serial(serial.max(0.0)) })
}

/// The serial fraction of [`amdahl_fit`], if the points have one.
pub fn amdahl_serial_fraction(points: &[(f64, f64)]) -> Option<f64> {
    match amdahl_fit(points)? {
        AmdahlFit::Serial(serial) => Some(serial),
        AmdahlFit::NoFaster => None,
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
    fn amdahl_fit_recovers_the_serial_fraction_of_ideal_data() {
        for serial in [0.0, 0.1, 0.3, 0.5, 0.9, 1.0] {
            let points: Vec<(f64, f64)> = [1.0, 2.0, 4.0, 8.0, 16.0].map(|k| (k, amdahl_speedup(serial, k))).to_vec();
            let fitted = amdahl_serial_fraction(&points).unwrap();
            assert!((fitted - serial).abs() < 1e-9, "{serial} fitted as {fitted}");
        }
        // s = 0.5 caps the speedup at 2, whatever the worker count.
        assert!(amdahl_speedup(0.5, 1e9) < 2.0);
    }

    #[test]
    fn amdahl_fit_handles_slowdowns_noise_and_missing_points() {
        assert_eq!(amdahl_fit(&[(2.0, 0.8), (4.0, 0.7)]), Some(AmdahlFit::NoFaster), "slower with more workers");
        assert_eq!(amdahl_serial_fraction(&[(2.0, 0.8), (4.0, 0.7)]), None, "a slowdown claims no serial part");
        assert_eq!(amdahl_fit(&[(2.0, 1.0), (4.0, 1.0)]), Some(AmdahlFit::Serial(1.0)), "exactly no gain: s = 1");
        assert_eq!(amdahl_fit(&[(1.0, 1.0)]), None);
        assert_eq!(amdahl_serial_fraction(&[(1.0, 1.0)]), None);
        assert_eq!(amdahl_serial_fraction(&[]), None);
        let noisy = [(2.0, 1.9), (4.0, 3.1), (8.0, 4.2)];
        let fitted = amdahl_serial_fraction(&noisy).unwrap();
        assert!((0.05..0.15).contains(&fitted), "{fitted}");
        // Superlinear points fit as s = 0, never below.
        assert_eq!(amdahl_serial_fraction(&[(2.0, 2.5)]), Some(0.0));
    }

    #[test]
    fn speedup_is_baseline_over_other() {
        let base = summarize(&[10.0]);
        let fast = summarize(&[2.5]);
        assert_eq!(speedup(&base, &fast), 4.0);
        assert_eq!(speedup(&fast, &base), 0.25);
    }

    #[test]
    fn ratios_pair_up_round_by_round() {
        assert_eq!(paired_ratios(&[10.0, 12.0], &[5.0, 4.0]), Some(vec![2.0, 3.0]));
        assert_eq!(paired_ratios(&[10.0, 12.0], &[5.0]), None, "counts differ");
        assert_eq!(paired_ratios(&[10.0], &[5.0]), None, "one round has no spread");
        assert_eq!(paired_ratios(&[10.0, 12.0], &[5.0, 0.0]), None, "a zero time");
        assert_eq!(low_high(&[3.0, 1.0, 2.0]), (1.0, 3.0));
        assert!(low_high(&[]).0.is_nan());
    }
}
