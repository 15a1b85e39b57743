//! Latency statistics for the requests-per-second (QPS) lab: percentiles, throughput, requests in
//! flight over time and Little's law, all as pure functions on recorded data.
//!
//! Units follow the rest of the crate: times of day and latencies in milliseconds, except the
//! histogram, which works in microseconds so that fast requests keep their resolution.

use serde::{Deserialize, Serialize};

/// Lower edge of the histogram's first bucket, in microseconds.
const HISTOGRAM_MIN_US: f64 = 1.0;
/// How many buckets share each factor of ten: each bucket is 10^(1/10) ≈ 1.26 times wider than the last.
const BUCKETS_PER_DECADE: u32 = 10;
/// 78 buckets of 10^(1/10) from 1 µs end at 10^7.8 µs ≈ 63 s, the first edge past 60 s.
const HISTOGRAM_BUCKETS: usize = 78;

/// Latencies counted in log-spaced buckets: constant memory whatever the number of requests.
///
/// Buckets run from 1 µs to about 63 s with ten buckets per factor of ten; bucket `i` holds the
/// latencies in `[10^(i/10), 10^((i+1)/10))` µs. Latencies below 1 µs are counted in the first bucket
/// and latencies of 63 s or more in the last, so a count is never lost; NaN is not counted.
/// Serialized as `{"counts": [...]}` with one count per bucket.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "HistogramCounts", into = "HistogramCounts")]
pub struct LatencyHistogram {
    counts: Vec<u64>,
}

/// The serialized form of [`LatencyHistogram`], checked for the right number of buckets on the way in.
#[derive(Serialize, Deserialize)]
struct HistogramCounts {
    counts: Vec<u64>,
}

impl TryFrom<HistogramCounts> for LatencyHistogram {
    type Error = String;

    fn try_from(value: HistogramCounts) -> Result<Self, Self::Error> {
        if value.counts.len() == HISTOGRAM_BUCKETS {
            Ok(Self { counts: value.counts })
        } else {
            Err(format!("a latency histogram has {HISTOGRAM_BUCKETS} buckets, not {}", value.counts.len()))
        }
    }
}

impl From<LatencyHistogram> for HistogramCounts {
    fn from(histogram: LatencyHistogram) -> Self {
        Self { counts: histogram.counts }
    }
}

impl Default for LatencyHistogram {
    fn default() -> Self {
        Self { counts: vec![0; HISTOGRAM_BUCKETS] }
    }
}

impl LatencyHistogram {
    /// The largest relative error of [`percentile`](Self::percentile) for latencies between 1 µs and
    /// 63 s: 10^(1/20) − 1 ≈ 12.2 %, half a bucket's width on a log scale.
    pub const MAX_RELATIVE_ERROR: f64 = 0.122_018_454_301_963_4;

    /// An empty histogram.
    pub fn new() -> Self {
        Self::default()
    }

    /// Count one request that took `us` microseconds.
    pub fn record(&mut self, us: f64) {
        if let Some(bucket) = bucket_of(us) {
            self.counts[bucket] += 1;
        }
    }

    /// Add every count of `other`, e.g. to combine the histograms that several workers kept.
    pub fn merge(&mut self, other: &LatencyHistogram) {
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
    }

    /// How many latencies were recorded.
    pub fn count(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The `p`-th percentile (`p` from 0 to 100) in microseconds, by the nearest-rank rule of
    /// [`percentiles`], answered with the geometric middle of the bucket holding that rank.
    ///
    /// For latencies between 1 µs and 63 s the answer is within [`MAX_RELATIVE_ERROR`](Self::MAX_RELATIVE_ERROR)
    /// (12.2 %) of the exact nearest-rank percentile of the recorded values; for latencies outside that
    /// range it is only the first or last bucket's middle. NaN for an empty histogram.
    pub fn percentile(&self, p: f64) -> f64 {
        let rank = nearest_rank(p, self.count());
        if rank == 0 {
            return f64::NAN;
        }
        let mut seen = 0;
        for (bucket, &count) in self.counts.iter().enumerate() {
            seen += count;
            if seen >= rank {
                return (bucket_lower_us(bucket) * bucket_lower_us(bucket + 1)).sqrt();
            }
        }
        unreachable!("the rank never exceeds the total count")
    }

    /// Every bucket, in increasing order, as `(lower_us, upper_us, count)`, for a bar chart. The first
    /// bucket also holds the latencies below its lower edge and the last those above its upper edge.
    pub fn buckets(&self) -> impl Iterator<Item = (f64, f64, u64)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .map(|(bucket, &count)| (bucket_lower_us(bucket), bucket_lower_us(bucket + 1), count))
    }
}

/// Lower edge of bucket `bucket` (and upper edge of the one before), in microseconds.
fn bucket_lower_us(bucket: usize) -> f64 {
    HISTOGRAM_MIN_US * 10f64.powf(bucket as f64 / f64::from(BUCKETS_PER_DECADE))
}

/// The bucket a latency of `us` microseconds is counted in, `None` for NaN.
fn bucket_of(us: f64) -> Option<usize> {
    if us.is_nan() {
        return None;
    }
    if us < bucket_lower_us(1) {
        return Some(0);
    }
    let last = HISTOGRAM_BUCKETS - 1;
    if us >= bucket_lower_us(last) {
        return Some(last);
    }
    // The logarithm gives the bucket up to rounding; the edges, computed as `buckets` reports them, decide.
    let mut bucket = ((us / HISTOGRAM_MIN_US).log10() * f64::from(BUCKETS_PER_DECADE)).floor() as usize;
    bucket = bucket.clamp(1, last - 1);
    if us < bucket_lower_us(bucket) {
        bucket -= 1;
    } else if us >= bucket_lower_us(bucket + 1) {
        bucket += 1;
    }
    Some(bucket)
}

/// The 1-based nearest rank of percentile `p` (clamped to 0..=100) among `count` sorted values:
/// the smallest rank whose share of the values is at least `p` %, and at least 1. 0 only for no values.
fn nearest_rank(p: f64, count: u64) -> u64 {
    if count == 0 {
        return 0;
    }
    let p = if p.is_nan() { 100.0 } else { p.clamp(0.0, 100.0) };
    // p × count first, then / 100: exact for whole percentages, so p40 of 5 values is rank 2, not 3.
    let rank = (p * count as f64 / 100.0).ceil() as u64;
    rank.clamp(1, count)
}

/// Exact percentiles of raw samples by the nearest-rank method, one per entry of `ps` (each from 0 to 100).
///
/// Nearest rank: sort the N samples; the p-th percentile is the sample at 1-based rank ⌈p/100 × N⌉,
/// taking rank 1 for p = 0. Every answer is a real sample, never an interpolation: for
/// [15, 20, 35, 40, 50], p30 = 20, p40 = 20, p50 = 35 and p100 = 50. Sorts `samples` in place
/// (NaN sorts last); answers NaN for every `p` when there are no samples.
pub fn percentiles(samples: &mut [f64], ps: &[f64]) -> Vec<f64> {
    samples.sort_unstable_by(f64::total_cmp);
    ps.iter()
        .map(|&p| match nearest_rank(p, samples.len() as u64) {
            0 => f64::NAN,
            rank => samples[rank as usize - 1],
        })
        .collect()
}

/// A check of Little's law, L = λ × W: the average number of requests in flight (L) equals the
/// throughput (λ) times the average time each request spends in the system (W).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LittleCheck {
    /// L as measured, e.g. by [`time_weighted_in_flight`].
    pub measured_in_flight: f64,
    /// L as Little's law predicts it from throughput and mean latency.
    pub predicted_in_flight: f64,
    /// |measured − predicted| / predicted: 0 when the law holds exactly. 0 when both are 0, infinite
    /// when only the prediction is 0.
    pub relative_error: f64,
}

/// Check Little's law: with λ = `throughput_per_s` requests per second and W = `mean_latency_ms`
/// milliseconds, the predicted requests in flight are L = λ × W / 1000 (ms to s), compared with
/// `measured_in_flight`.
pub fn littles_law(throughput_per_s: f64, mean_latency_ms: f64, measured_in_flight: f64) -> LittleCheck {
    let predicted_in_flight = throughput_per_s * mean_latency_ms / 1000.0;
    let difference = (measured_in_flight - predicted_in_flight).abs();
    let relative_error = if difference == 0.0 { 0.0 } else { difference / predicted_in_flight.abs() };
    LittleCheck { measured_in_flight, predicted_in_flight, relative_error }
}

/// Throughput in requests per second: `completed` requests in `elapsed_ms` milliseconds.
/// NaN unless the elapsed time is positive and finite.
pub fn qps(completed: u64, elapsed_ms: f64) -> f64 {
    if elapsed_ms > 0.0 && elapsed_ms.is_finite() {
        completed as f64 * 1000.0 / elapsed_ms
    } else {
        f64::NAN
    }
}

/// The intervals that count: finite, and not ending before they start.
fn valid(intervals: &[(f64, f64)]) -> impl Iterator<Item = (f64, f64)> + '_ {
    intervals.iter().copied().filter(|&(start, end)| start.is_finite() && end.is_finite() && end >= start)
}

/// The average number of requests in flight in each bucket of `bucket_ms`, from every request's
/// `(start_ms, end_ms)`, as `(bucket_start_ms, mean_in_flight)` for a chart.
///
/// The mean is time-weighted: a request in flight for 2 ms of a 5 ms bucket adds 0.4 to it. Buckets
/// sit on multiples of `bucket_ms`, from the one holding the first start to the one holding the last
/// end (a last end exactly on an edge opens no empty bucket). Intervals with a non-finite time or an
/// end before their start are skipped. Empty when there is no valid interval or `bucket_ms` is not
/// positive and finite. Runs in time linear in the intervals plus the buckets.
pub fn in_flight_over_time(intervals: &[(f64, f64)], bucket_ms: f64) -> Vec<(f64, f64)> {
    if !(bucket_ms > 0.0 && bucket_ms.is_finite()) {
        return Vec::new();
    }
    let Some((first_start, last_end)) = span(intervals) else {
        return Vec::new();
    };
    let origin = (first_start / bucket_ms).floor() * bucket_ms;
    let bucket_count = (((last_end - origin) / bucket_ms).ceil() as usize).max(1);
    let bucket_of = |time: f64| (((time - origin) / bucket_ms).floor().max(0.0) as usize).min(bucket_count - 1);
    let bucket_start = |bucket: usize| origin + bucket as f64 * bucket_ms;

    // Partial overlaps go straight into `in_flight`; whole buckets into a difference array, summed at the end.
    let mut in_flight = vec![0.0; bucket_count];
    let mut whole_buckets = vec![0i64; bucket_count + 1];
    for (start, end) in valid(intervals) {
        let (first, last) = (bucket_of(start), bucket_of(end));
        if first == last {
            in_flight[first] += (end - start) / bucket_ms;
            continue;
        }
        in_flight[first] += (bucket_start(first + 1) - start) / bucket_ms;
        in_flight[last] += (end - bucket_start(last)) / bucket_ms;
        whole_buckets[first + 1] += 1;
        whole_buckets[last] -= 1;
    }
    let mut running = 0i64;
    for (bucket, mean) in in_flight.iter_mut().enumerate() {
        running += whole_buckets[bucket];
        *mean += running as f64;
    }
    in_flight.into_iter().enumerate().map(|(bucket, mean)| (bucket_start(bucket), mean)).collect()
}

/// The first start and last end of the valid intervals, `None` if there is none.
fn span(intervals: &[(f64, f64)]) -> Option<(f64, f64)> {
    valid(intervals).fold(None, |span, (start, end)| match span {
        None => Some((start, end)),
        Some((first, last)) => Some((f64::min(first, start), f64::max(last, end))),
    })
}

/// The time-weighted mean number of requests in flight from the first start to the last end.
///
/// That mean is the sum of all latencies divided by the elapsed time, which is exactly what Little's
/// law predicts: (completed / elapsed) × (sum of latencies / completed). So with throughput and mean
/// latency measured over the same requests and span, [`littles_law`] holds to rounding. Intervals are
/// filtered as in [`in_flight_over_time`]; NaN when there is none or the span is empty.
pub fn time_weighted_in_flight(intervals: &[(f64, f64)]) -> f64 {
    match span(intervals) {
        Some((first_start, last_end)) if last_end > first_start => {
            valid(intervals).map(|(start, end)| end - start).sum::<f64>() / (last_end - first_start)
        }
        _ => f64::NAN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` requests of `latency_ms` each, back to back on `lanes` lanes that all start at 0.
    fn back_to_back(count: usize, lanes: usize, latency_ms: f64) -> Vec<(f64, f64)> {
        (0..count)
            .map(|request| {
                let slot = (request / lanes) as f64;
                (slot * latency_ms, (slot + 1.0) * latency_ms)
            })
            .collect()
    }

    /// A small deterministic generator for test data (splitmix64), uniform in `0..1`.
    fn uniform_stream(mut state: u64) -> impl FnMut() -> f64 {
        move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) as f64 / 2f64.powi(64)
        }
    }

    #[test]
    fn histogram_counts_every_record() {
        let mut histogram = LatencyHistogram::new();
        assert_eq!(histogram.count(), 0);
        let latencies = [0.0, -3.0, 0.5, 1.0, 1.26, 999.0, 1e3, 2.5e4, 6e7, 1e12, f64::INFINITY];
        for &us in &latencies {
            histogram.record(us);
        }
        histogram.record(f64::NAN);
        assert_eq!(histogram.count(), latencies.len() as u64, "NaN is the only value not counted");
        assert_eq!(histogram.buckets().map(|(_, _, count)| count).sum::<u64>(), latencies.len() as u64);
        assert_eq!(histogram.buckets().next().unwrap().2, 4, "below 1.26 µs: 0, −3, 0.5 and 1");
        assert_eq!(histogram.buckets().last().unwrap().2, 3, "60 s (in [50 s, 63 s)), 1e12 and infinity");
    }

    #[test]
    fn buckets_are_contiguous_and_log_spaced() {
        let buckets: Vec<(f64, f64, u64)> = LatencyHistogram::new().buckets().collect();
        assert_eq!(buckets.len(), HISTOGRAM_BUCKETS);
        assert_eq!(buckets[0].0, 1.0);
        assert!((buckets[10].0 - 10.0).abs() < 1e-9 && (buckets[70].0 - 1e7).abs() < 1e-3);
        assert!(buckets.last().unwrap().1 >= 60e6, "the last edge reaches 60 s");
        for pair in buckets.windows(2) {
            assert_eq!(pair[0].1, pair[1].0);
            assert!((pair[0].1 / pair[0].0 - 10f64.powf(0.1)).abs() < 1e-9);
        }
    }

    #[test]
    fn every_value_lands_inside_its_reported_bucket() {
        let mut next = uniform_stream(3);
        let mut values: Vec<f64> = (0..10_000).map(|_| 10f64.powf(next() * 7.7)).collect();
        // Exact edges too: each belongs to the bucket it opens.
        values.extend(LatencyHistogram::new().buckets().skip(1).map(|(lower, _, _)| lower));
        for us in values {
            let mut histogram = LatencyHistogram::new();
            histogram.record(us);
            let (lower, upper, _) = histogram.buckets().find(|&(_, _, count)| count == 1).unwrap();
            assert!(lower <= us && us < upper, "{us} reported in [{lower}, {upper})");
        }
    }

    #[test]
    fn max_relative_error_is_half_a_bucket() {
        assert!((LatencyHistogram::MAX_RELATIVE_ERROR - (10f64.powf(0.05) - 1.0)).abs() < 1e-15);
    }

    #[test]
    fn histogram_percentiles_stay_within_the_documented_error() {
        // Uniform from 100 µs to 100 ms, and log-uniform from 1 µs to 60 s.
        let mut next = uniform_stream(11);
        let uniform: Vec<f64> = (0..20_000).map(|_| 100.0 + next() * 99_900.0).collect();
        let log_uniform: Vec<f64> = (0..20_000).map(|_| 10f64.powf(next() * 7.77)).collect();
        let ps = [0.0, 1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9, 100.0];
        for mut samples in [uniform, log_uniform] {
            let mut histogram = LatencyHistogram::new();
            samples.iter().for_each(|&us| histogram.record(us));
            let exact = percentiles(&mut samples, &ps);
            for (&p, &exact) in ps.iter().zip(&exact) {
                let estimate = histogram.percentile(p);
                let error = (estimate - exact).abs() / exact;
                assert!(error <= LatencyHistogram::MAX_RELATIVE_ERROR + 1e-12, "p{p}: {estimate} for {exact}");
            }
        }
        assert!(LatencyHistogram::new().percentile(50.0).is_nan());
    }

    #[test]
    fn histogram_percentile_uses_nearest_rank() {
        let mut histogram = LatencyHistogram::new();
        for us in [15.0, 20.0, 35.0, 40.0, 50.0] {
            histogram.record(us);
        }
        let bucket_middle = |us: f64| {
            let mut single = LatencyHistogram::new();
            single.record(us);
            single.percentile(50.0)
        };
        assert_eq!(histogram.percentile(30.0), bucket_middle(20.0));
        assert_eq!(histogram.percentile(40.0), bucket_middle(20.0));
        assert_eq!(histogram.percentile(50.0), bucket_middle(35.0));
        assert_eq!(histogram.percentile(100.0), bucket_middle(50.0));
        assert_eq!(histogram.percentile(0.0), bucket_middle(15.0));
        assert_ne!(bucket_middle(20.0), bucket_middle(35.0));
    }

    #[test]
    fn histograms_merge_and_round_trip_through_json() {
        let mut a = LatencyHistogram::new();
        let mut b = LatencyHistogram::new();
        [5.0, 50.0, 500.0].iter().for_each(|&us| a.record(us));
        [50.0, 5e6].iter().for_each(|&us| b.record(us));
        a.merge(&b);
        assert_eq!(a.count(), 5);
        assert_eq!(a.percentile(50.0), b.percentile(0.0), "the middle of 5, 50, 50, 500, 5e6 is 50");

        let json = serde_json::to_string(&a).unwrap();
        assert!(json.starts_with("{\"counts\":["), "{json}");
        assert_eq!(serde_json::from_str::<LatencyHistogram>(&json).unwrap(), a);
        assert!(serde_json::from_str::<LatencyHistogram>("{\"counts\":[1,2,3]}").is_err());
    }

    #[test]
    fn nearest_rank_classic_example() {
        let mut samples = [35.0, 20.0, 50.0, 40.0, 15.0];
        let answers = percentiles(&mut samples, &[30.0, 40.0, 50.0, 100.0, 0.0, 5.0, 20.0, 21.0]);
        assert_eq!(answers, [20.0, 20.0, 35.0, 50.0, 15.0, 15.0, 15.0, 20.0]);
        assert_eq!(samples, [15.0, 20.0, 35.0, 40.0, 50.0], "sorted in place");
    }

    #[test]
    fn nearest_rank_edge_cases() {
        assert!(percentiles(&mut [], &[50.0])[0].is_nan());
        assert_eq!(percentiles(&mut [7.0], &[0.0, 50.0, 100.0]), [7.0, 7.0, 7.0]);
        // Out-of-range percentages clamp to the extremes.
        assert_eq!(percentiles(&mut [1.0, 2.0, 3.0], &[-5.0, 150.0]), [1.0, 3.0]);
        // p99 of 1..=100 is 99, p99.5 rounds up to 100.
        let mut hundred: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentiles(&mut hundred, &[99.0, 99.5, 1.0]), [99.0, 100.0, 1.0]);
    }

    #[test]
    fn qps_counts_per_second() {
        assert_eq!(qps(1000, 2500.0), 400.0);
        assert_eq!(qps(0, 10.0), 0.0);
        assert!(qps(10, 0.0).is_nan());
        assert!(qps(10, -1.0).is_nan());
    }

    #[test]
    fn littles_law_holds_on_four_busy_lanes() {
        let intervals = back_to_back(1000, 4, 10.0);
        let elapsed_ms = intervals.iter().map(|&(_, end)| end).fold(0.0, f64::max);
        assert_eq!(elapsed_ms, 2500.0);
        let throughput = qps(intervals.len() as u64, elapsed_ms);
        assert_eq!(throughput, 400.0);
        let measured = time_weighted_in_flight(&intervals);
        assert_eq!(measured, 4.0);
        let check = littles_law(throughput, 10.0, measured);
        assert_eq!(check.predicted_in_flight, 4.0);
        assert!(check.relative_error < 1e-12, "{check:?}");
        // Every 100 ms bucket of the run has exactly four requests in flight.
        let over_time = in_flight_over_time(&intervals, 100.0);
        assert_eq!(over_time.len(), 25);
        assert!(over_time.iter().all(|&(_, in_flight)| (in_flight - 4.0).abs() < 1e-12), "{over_time:?}");
    }

    #[test]
    fn littles_law_reports_a_mismatch() {
        // Units matter: 400/s × 10 ms is 4, not 4000 and not 0.004.
        let check = littles_law(400.0, 10.0, 5.0);
        assert_eq!(check.predicted_in_flight, 4.0);
        assert!((check.relative_error - 0.25).abs() < 1e-12);
        assert_eq!(littles_law(400.0, 10.0, 3.0).relative_error, 0.25);
        assert_eq!(littles_law(0.0, 10.0, 0.0).relative_error, 0.0);
        assert_eq!(littles_law(0.0, 10.0, 1.0).relative_error, f64::INFINITY);
    }

    #[test]
    fn littles_law_holds_on_random_arrivals() {
        let mut next = uniform_stream(7);
        let intervals: Vec<(f64, f64)> = (0..5000)
            .map(|_| {
                let start = next() * 10_000.0;
                (start, start + 1.0 + 40.0 * next() * next())
            })
            .collect();
        let (first_start, last_end) = span(&intervals).unwrap();
        let latencies: Vec<f64> = intervals.iter().map(|&(start, end)| end - start).collect();
        let mean_latency_ms = latencies.iter().sum::<f64>() / latencies.len() as f64;
        let throughput = qps(intervals.len() as u64, last_end - first_start);
        let measured = time_weighted_in_flight(&intervals);
        let check = littles_law(throughput, mean_latency_ms, measured);
        assert!(check.relative_error < 1e-9, "{check:?}");
        assert!((2.0..20.0).contains(&measured), "{measured}");

        // The buckets' own time-weighted mean over the span agrees (buckets may stick out at both ends).
        let bucket_ms = 50.0;
        let over_time = in_flight_over_time(&intervals, bucket_ms);
        let request_time: f64 = over_time.iter().map(|&(_, in_flight)| in_flight * bucket_ms).sum();
        assert!((request_time - latencies.iter().sum::<f64>()).abs() < 1e-6);
    }

    #[test]
    fn in_flight_over_time_by_hand() {
        assert_eq!(in_flight_over_time(&[(0.0, 10.0), (5.0, 15.0)], 5.0), [(0.0, 1.0), (5.0, 2.0), (10.0, 1.0)]);
        // Partial overlaps count by time: 2 ms of a 5 ms bucket is 0.4.
        assert_eq!(in_flight_over_time(&[(1.0, 3.0)], 5.0), [(0.0, 0.4)]);
        assert_eq!(in_flight_over_time(&[(3.0, 7.0)], 5.0), [(0.0, 0.4), (5.0, 0.4)]);
        // Buckets start on a multiple of the width at the first request, not at time 0.
        assert_eq!(in_flight_over_time(&[(1002.0, 1010.0)], 5.0), [(1000.0, 0.6), (1005.0, 1.0)]);
        // Long requests fill the buckets in between.
        assert_eq!(
            in_flight_over_time(&[(0.0, 20.0), (2.5, 17.5)], 5.0),
            [(0.0, 1.5), (5.0, 2.0), (10.0, 2.0), (15.0, 1.5)]
        );
    }

    #[test]
    fn in_flight_over_time_skips_what_cannot_be_charted() {
        assert!(in_flight_over_time(&[], 5.0).is_empty());
        assert!(in_flight_over_time(&[(0.0, 10.0)], 0.0).is_empty());
        assert!(in_flight_over_time(&[(0.0, 10.0)], f64::NAN).is_empty());
        assert_eq!(in_flight_over_time(&[(0.0, 10.0), (8.0, 2.0), (f64::NAN, 3.0)], 10.0), [(0.0, 1.0)]);
        assert_eq!(in_flight_over_time(&[(7.0, 7.0)], 5.0), [(5.0, 0.0)]);
    }

    #[test]
    fn time_weighted_in_flight_by_hand() {
        assert_eq!(time_weighted_in_flight(&[(0.0, 10.0), (5.0, 15.0)]), 20.0 / 15.0);
        // A gap with nothing in flight lowers the mean.
        assert_eq!(time_weighted_in_flight(&[(0.0, 10.0), (30.0, 40.0)]), 0.5);
        assert!(time_weighted_in_flight(&[]).is_nan());
        assert!(time_weighted_in_flight(&[(3.0, 3.0)]).is_nan());
    }
}
