//! JSON text exactly as `serde_json::to_string` writes it, but with floats written by `ryu` (with its
//! small tables) instead of serde_json's own `zmij`, whose 17 KB table of powers of ten was the
//! largest piece of data in the threaded engine's module. The engine writes its answers to the page
//! ([`experiments::protocol::Response`]) with [`to_string`].
//!
//! Both write the shortest digits that read back as the same float, in the same layout; they
//! differ only in that zmij signs a positive exponent (`1e+21`, ryu `1e21`), which `Floats` adds.
//! A test holds the two to the same text over millions of floats.

use serde::Serialize;
use std::io;

/// serde_json's compact form ([`serde_json::ser::CompactFormatter`]: every method left as the
/// trait writes it), but for floats.
struct Floats;

impl serde_json::ser::Formatter for Floats {
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        // serde_json writes `null` for a float that is not finite, and calls this for the others.
        let mut buffer = ryu::Buffer::new();
        let text = buffer.format_finite(value);
        match text.split_once('e') {
            Some((digits, exponent)) if !exponent.starts_with('-') => {
                writer.write_all(digits.as_bytes())?;
                writer.write_all(b"e+")?;
                writer.write_all(exponent.as_bytes())
            }
            _ => writer.write_all(text.as_bytes()),
        }
    }
}

/// `value` as JSON text, as `serde_json::to_string(value)` writes it.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut bytes = Vec::with_capacity(128);
    value.serialize(&mut serde_json::Serializer::with_formatter(&mut bytes, Floats))?;
    // serde_json writes UTF-8 only: its strings come from `str`s, and it escapes nothing else.
    Ok(String::from_utf8(bytes).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::to_string;
    use experiments::protocol::{Failure, FailureKind, Response, Stage};
    use experiments::{Span, Trace};

    /// Floats of every kind: random bit patterns, timings in milliseconds as the engine measures
    /// them, whole numbers, powers of ten and the extremes.
    fn floats() -> Vec<f64> {
        let mut floats = vec![0.0, -0.0, f64::MAX, f64::MIN, f64::MIN_POSITIVE, 5e-324, f64::EPSILON, 1e21, 1e-7];
        floats.extend((-330..310).flat_map(|e| [10f64.powi(e), 1.5 * 10f64.powi(e), -7.25 * 10f64.powi(e)]));
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..400_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let ms = (x % 10_000_000_000) as f64 / 1000.0 / ((x >> 40) % 7 + 1) as f64;
            floats.extend([
                f64::from_bits(x),
                ms,
                ms * 1e-6,
                -ms,
                (x % 1000) as f64,
                ((x >> 3) % 100_000) as f64 * 0.005,
            ]);
        }
        floats.retain(|f| f.is_finite());
        floats
    }

    #[test]
    fn floats_are_written_as_serde_json_writes_them() {
        for float in floats() {
            assert_eq!(to_string(&float).unwrap(), serde_json::to_string(&float).unwrap(), "{float:e}");
        }
        let not_finite = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY];
        assert_eq!(to_string(&not_finite[..]).unwrap(), serde_json::to_string(&not_finite[..]).unwrap());
    }

    #[test]
    fn answers_are_written_as_serde_json_writes_them() {
        let spans = floats()
            .chunks(2)
            .take(2000)
            .enumerate()
            .map(|(task, pair)| Span { worker: 3, task: task as u32, start_ms: pair[0], end_ms: pair[pair.len() - 1] })
            .collect();
        let trace = Trace { spans, wall_ms: 12.345, shown_until_ms: Some(1e-9), ..Trace::default() };
        assert_eq!(to_string(&trace).unwrap(), serde_json::to_string(&trace).unwrap());
        let answers = [
            Response::Progress { run_id: 7, job_index: 1, done: 2, total: 3, stage: Stage::Turns, jobs: 2 },
            Response::Failed { run_id: 7, failure: Failure::new(FailureKind::TimedOut, "\"quoted\"\n\u{1F600} ✓") },
            Response::Finished { run_id: u64::MAX },
        ];
        for answer in &answers {
            assert_eq!(to_string(answer).unwrap(), answer.to_json());
        }
    }
}
