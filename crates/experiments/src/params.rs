//! What every knob is (a [`ParamRange`]: URL key, limits, default), and reading one from a URL without ever failing.
//!
//! Each experiment's own knobs are declared in its catalog module (`catalog::sum::NUMBERS`, …).
//! A preset URL like `?workers=2&tasks=8&n=10000000&reps=5&autorun=1` sets the controls. Anything
//! missing takes its default; anything unreadable or out of range is replaced by the nearest allowed
//! value and reported as a [`ClampNote`] so the page can say what it changed.

use serde::{Deserialize, Serialize};

/// The allowed values of one integer knob and its URL key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamRange {
    /// The query-string key, e.g. `workers`.
    pub key: &'static str,
    pub min: u64,
    pub max: u64,
    pub default: u64,
}

impl ParamRange {
    pub const fn new(key: &'static str, min: u64, max: u64, default: u64) -> Self {
        ParamRange { key, min, max, default }
    }

    /// `value` forced into `min..=max`.
    pub fn clamp(&self, value: u64) -> u64 {
        value.clamp(self.min, self.max)
    }
}

/// Why a preset value was not used as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum ClampReason {
    NotANumber,
    /// Not one of the allowed words; `used` holds the index of the default.
    NotAnOption,
    BelowMin {
        min: u64,
    },
    AboveMax {
        max: u64,
    },
}

/// A preset value the page changed, for the visible note.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClampNote {
    pub key: String,
    /// What the URL said (truncated to a sane length).
    pub raw: String,
    /// What the control was set to instead.
    pub used: u64,
    pub reason: ClampReason,
}

/// Parse a reader-typed integer: `10000000`, `10_000_000`, `10,000,000`, `1e7`, `2.5e6`, ` 42 `.
/// Negative numbers parse (to be clamped later); anything else is `None`.
pub fn parse_count(raw: &str) -> Option<f64> {
    let cleaned: String = raw.trim().chars().filter(|c| !matches!(c, '_' | ',' | ' ')).collect();
    if cleaned.is_empty() || cleaned.len() > 40 {
        return None;
    }
    parse_decimal(&cleaned)
}

/// A decimal number as people and the articles write it (`-12`, `2.5e6`, `.5`, `1E7`), without
/// `str::parse::<f64>`: std's parser carries a 20 KB table of powers of five, and a wasm module's
/// data stays in the core every page loads, whichever split uses it. Exact (correctly rounded)
/// when the digits, less leading zeros, fit 2^53 and the power of ten is within ±22 (Clinger's
/// fast path: every count, setting and published figure here); otherwise within a few units in the
/// last place. `None` for anything else, and for a value too large for an `f64`.
pub fn parse_decimal(text: &str) -> Option<f64> {
    const EXACT_POWERS: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ];
    let (negative, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (number, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() || !(whole.bytes().chain(fraction.bytes()).all(|b| b.is_ascii_digit())) {
        return None;
    }
    // The significant digits as an integer, and the power of ten that scales it.
    let mut digits: u64 = 0;
    let mut scale: i64 = -(fraction.len() as i64);
    for byte in whole.bytes().chain(fraction.bytes()) {
        match digits.checked_mul(10).and_then(|d| d.checked_add(u64::from(byte - b'0'))) {
            Some(more) => digits = more,
            // Digits beyond what a u64 holds only scale the ones kept.
            None => scale += 1,
        }
    }
    if let Some(exponent) = exponent {
        let (sign, written) = match exponent.as_bytes().first()? {
            b'-' => (-1, &exponent[1..]),
            b'+' => (1, &exponent[1..]),
            _ => (1, exponent),
        };
        if written.is_empty() || !written.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        // An exponent of seven digits or more is out of an f64's range either way.
        let significant = written.trim_start_matches('0');
        let value: i64 = if significant.len() > 6 { 1_000_000 } else { significant.parse().unwrap_or(0) };
        scale += sign * value;
    }
    let mut value = digits as f64;
    if digits != 0 {
        let mut left = scale;
        while left > 0 {
            let step = left.min(22);
            value *= EXACT_POWERS[step as usize];
            left -= step;
        }
        while left < 0 {
            let step = (-left).min(22);
            value /= EXACT_POWERS[step as usize];
            left += step;
        }
    }
    let value = if negative { -value } else { value };
    value.is_finite().then_some(value)
}

/// Read one knob from a raw query value: default when absent, nearest allowed value otherwise.
pub fn read_param(range: &ParamRange, raw: Option<&str>, notes: &mut Vec<ClampNote>) -> u64 {
    let Some(raw) = raw else {
        return range.default;
    };
    let shown: String = raw.chars().take(40).collect();
    let mut note = |used: u64, reason: ClampReason| {
        notes.push(ClampNote { key: range.key.to_string(), raw: shown.clone(), used, reason });
        used
    };
    match parse_count(raw) {
        None => note(range.default, ClampReason::NotANumber),
        Some(v) if v < range.min as f64 => note(range.min, ClampReason::BelowMin { min: range.min }),
        Some(v) if v > range.max as f64 => note(range.max, ClampReason::AboveMax { max: range.max }),
        Some(v) => v.round() as u64,
    }
}

/// Read a word-valued knob (e.g. `kind=io`): one of `options`, or `default` with a note.
pub fn read_choice<'a>(
    key: &str,
    raw: Option<&str>,
    options: &[&'a str],
    default: &'a str,
    notes: &mut Vec<ClampNote>,
) -> &'a str {
    let Some(raw) = raw else { return default };
    let wanted = raw.trim().to_ascii_lowercase();
    match options.iter().find(|o| **o == wanted) {
        Some(option) => option,
        None => {
            let used = options.iter().position(|o| *o == default).unwrap_or(0) as u64;
            let raw = raw.chars().take(40).collect();
            notes.push(ClampNote { key: key.to_string(), raw, used, reason: ClampReason::NotAnOption });
            default
        }
    }
}

/// Is a query flag like `autorun` switched on (`1`, `true`, `yes`, `on`)?
pub fn read_flag(raw: Option<&str>) -> bool {
    matches!(raw.map(|r| r.trim().to_ascii_lowercase()).as_deref(), Some("1" | "true" | "yes" | "on"))
}

/// The most workers any control offers, on any machine: a huge machine cannot ask a browser for
/// hundreds of Web Workers. The engine refuses more (`job::limits::MAX_WORKERS`).
pub const WORKERS_CAP: u64 = 128;

/// A default worker count: `wanted`, or the machine's logical processors if they are fewer (a page
/// never starts with more workers than can run at once).
pub const fn at_most_cores(wanted: u64, hardware_concurrency: u32) -> u64 {
    let cores = if hardware_concurrency == 0 { 1 } else { hardware_concurrency as u64 };
    if wanted < cores {
        wanted
    } else {
        cores
    }
}

/// The largest worker count offered: at least 16, or twice the machine's logical processors,
/// capped at [`WORKERS_CAP`].
pub fn max_workers(hardware_concurrency: u32) -> u64 {
    (2 * hardware_concurrency as u64).clamp(16, WORKERS_CAP)
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: ParamRange = ParamRange::new("n", 10, 1000, 100);

    fn read(raw: Option<&str>) -> (u64, Vec<ClampNote>) {
        let mut notes = Vec::new();
        let v = read_param(&R, raw, &mut notes);
        (v, notes)
    }

    #[test]
    fn absent_takes_default_silently() {
        assert_eq!(read(None), (100, vec![]));
    }

    #[test]
    fn in_range_values_in_many_spellings() {
        for raw in ["500", " 500 ", "5e2", "5_00", "500.2"] {
            assert_eq!(read(Some(raw)), (500, vec![]), "{raw}");
        }
        assert_eq!(parse_count("10,000,000"), Some(10_000_000.0));
        assert_eq!(parse_count("1E7"), Some(1e7));
        assert_eq!(parse_count("+.5"), Some(0.5));
        assert_eq!(parse_count("5."), Some(5.0));
        assert_eq!(parse_count("1e0000001"), Some(10.0));
        assert_eq!(parse_count("0e400"), Some(0.0));
        for refused in ["inf", "NaN", "infinity", "1e", "e5", ".", "-", "1.2.3", "0x10", "1e400", "1e99999999999"] {
            assert_eq!(parse_count(refused), None, "{refused}");
        }
    }

    #[test]
    fn garbage_falls_back_to_default_with_note() {
        for raw in ["", "abc", "NaN", "inf", "1e999", "12abc"] {
            let (v, notes) = read(Some(raw));
            assert_eq!(v, 100, "{raw}");
            assert_eq!(notes.len(), 1, "{raw}");
            assert_eq!(notes[0].reason, ClampReason::NotANumber);
        }
    }

    #[test]
    fn out_of_range_is_clamped_with_note() {
        let (v, notes) = read(Some("-5"));
        assert_eq!(v, 10);
        assert_eq!(notes[0].reason, ClampReason::BelowMin { min: 10 });
        let (v, notes) = read(Some("99999999999999999999999"));
        assert_eq!(v, 1000);
        assert_eq!(notes[0].reason, ClampReason::AboveMax { max: 1000 });
        assert_eq!(notes[0].used, 1000);
    }

    #[test]
    fn long_raw_values_are_truncated_in_notes() {
        let long = "x".repeat(500);
        let (_, notes) = read(Some(&long));
        assert_eq!(notes[0].raw.len(), 40);
    }

    #[test]
    fn choices_accept_known_words_and_note_others() {
        let mut notes = Vec::new();
        assert_eq!(read_choice("kind", Some(" CPU "), &["io", "cpu"], "io", &mut notes), "cpu");
        assert_eq!(read_choice("kind", None, &["io", "cpu"], "io", &mut notes), "io");
        assert!(notes.is_empty());
        assert_eq!(read_choice("kind", Some("gpu"), &["io", "cpu"], "io", &mut notes), "io");
        assert_eq!(notes[0].reason, ClampReason::NotAnOption);
    }

    #[test]
    fn flags() {
        assert!(read_flag(Some("1")) && read_flag(Some("TRUE")));
        assert!(!read_flag(Some("0")) && !read_flag(None) && !read_flag(Some("maybe")));
    }

    #[test]
    fn worker_limit_follows_the_machine() {
        assert_eq!(max_workers(2), 16);
        assert_eq!(max_workers(12), 24);
        assert_eq!(max_workers(1000), 128);
    }

    proptest::proptest! {
        /// Within the fast path (digits below 2^53, a power of ten within ±22) the hand-written
        /// parser agrees with std's to the bit, and beyond it stays within a relative 1e-14.
        #[test]
        fn parse_decimal_agrees_with_std(whole in 0u64..1_000_000_000, fraction in 0u32..1_000_000, exponent in -40i32..40, negative: bool) {
            let text = format!("{}{whole}.{fraction:06}e{exponent}", if negative { "-" } else { "" });
            let ours = parse_decimal(&text).unwrap();
            let std: f64 = text.parse().unwrap();
            // 15 digits at most (< 2^53), scaled by 10^(exponent - 6).
            if (-16..=28).contains(&exponent) {
                proptest::prop_assert_eq!(ours, std, "{}", text);
            } else {
                proptest::prop_assert!(((ours - std) / std).abs() < 1e-14 || ours == std, "{}: {} vs {}", text, ours, std);
            }
        }
    }

    #[test]
    fn a_default_worker_count_never_exceeds_the_cores() {
        assert_eq!(at_most_cores(4, 2), 2);
        assert_eq!(at_most_cores(4, 8), 4);
        assert_eq!(at_most_cores(4, 0), 1, "an unknown machine counts as one core");
    }
}
