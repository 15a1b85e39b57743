//! Numbers, sizes and counts as the report prints them.

use serde_json::Value;

/// A JSON value on one line, for messages (whitespace inside strings is squeezed too).
pub(super) fn one_line(value: &Value) -> String {
    format!("{value:#}").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Text without quotes, anything else as JSON.
pub(super) fn plain_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// `1 worker`, `2 workers`.
pub(super) fn counted(n: u32, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{} {what}s", group_digits(n.into()))
    }
}

/// `median of 3 timed runs`, or `1 timed run`.
pub(super) fn timed_runs(repetitions: u32) -> String {
    if repetitions == 1 {
        "1 timed run".into()
    } else {
        format!("median of {repetitions} timed runs")
    }
}

/// Milliseconds with three significant digits, at most three decimals.
pub(super) fn ms(value: f64) -> String {
    if !value.is_finite() {
        return "n/a".into();
    }
    if value == 0.0 {
        return "0".into();
    }
    let decimals = match value.abs() {
        v if v >= 100.0 => 0,
        v if v >= 10.0 => 1,
        v if v >= 1.0 => 2,
        _ => 3,
    };
    format!("{value:.decimals$}")
}

/// A ratio of times or a speedup: `1.80x`.
pub(super) fn times(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.2}x")
    } else {
        "n/a".into()
    }
}

/// A plain ratio of two ratios: `0.85`.
pub(super) fn ratio(value: f64) -> String {
    if value.is_finite() {
        format!("{value:.2}")
    } else {
        "n/a".into()
    }
}

/// `10,000,000`.
pub(super) fn group_digits(value: u64) -> String {
    let digits = value.to_string();
    let mut grouped = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

/// `1,234,567 B (1205.6 KiB)`.
pub(super) fn bytes(value: u64) -> String {
    format!("{} B ({:.1} KiB)", group_digits(value), value as f64 / 1024.0)
}
