//! Numbers formatted for the reader's locale (digit grouping, decimal separator) through `Intl`.

use js_sys::{Array, Function, Intl, Object, Reflect};
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::JsValue;

thread_local! {
    /// Formatters by (lang, min digits, max digits, compact); building one is slow, using one is fast.
    static FORMATTERS: RefCell<HashMap<(String, u8, u8, bool), Function>> = RefCell::new(HashMap::new());
}

fn formatter(min_digits: u8, max_digits: u8, compact: bool) -> Function {
    let lang = crate::i18n::lang().tag().to_string();
    FORMATTERS.with(|cache| {
        cache
            .borrow_mut()
            .entry((lang.clone(), min_digits, max_digits, compact))
            .or_insert_with(|| {
                let options = Object::new();
                let _ = Reflect::set(&options, &"minimumFractionDigits".into(), &min_digits.into());
                let _ = Reflect::set(&options, &"maximumFractionDigits".into(), &max_digits.into());
                if compact {
                    let _ = Reflect::set(&options, &"notation".into(), &"compact".into());
                }
                Intl::NumberFormat::new(&Array::of1(&JsValue::from_str(&lang)), &options).format()
            })
            .clone()
    })
}

fn with(value: f64, min_digits: u8, max_digits: u8, compact: bool) -> String {
    if !value.is_finite() {
        return "—".into();
    }
    formatter(min_digits, max_digits, compact)
        .call1(&JsValue::NULL, &JsValue::from_f64(value))
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| value.to_string())
}

/// An integer with digit grouping: 10,000,000 (en), 10 000 000 (ru), …
pub fn int(value: u64) -> String {
    with(value as f64, 0, 0, false)
}

/// A short form for large counts: 10M, 1.5K.
pub fn compact(value: u64) -> String {
    with(value as f64, 0, 1, true)
}

/// A number with exactly `digits` decimals.
pub fn fixed(value: f64, digits: u8) -> String {
    with(value, digits, digits, false)
}

/// A number with at most `max_digits` decimals, and no trailing zeros: 12.5, 15, 0.081.
pub fn decimal(value: f64, max_digits: u8) -> String {
    with(value, 0, max_digits, false)
}

/// How many decimals [`ms`] shows for a time of this size.
pub fn ms_digits(value: f64) -> u8 {
    match value.abs() {
        v if v < 1.0 => 3,
        v if v < 10.0 => 2,
        v if v < 100.0 => 1,
        _ => 0,
    }
}

/// Milliseconds with as many decimals as are meaningful for their size.
pub fn ms(value: f64) -> String {
    let digits = ms_digits(value);
    // A value that rounds to zero is shown as zero, never "-0.000" (a task that started a few
    // microseconds "before" its run by another worker's clock).
    let shown = if value.abs() < 0.5 * 10f64.powi(-i32::from(digits)) { 0.0 } else { value };
    fixed(shown, digits)
}

/// A ratio such as a speedup: 1.85× (to the decimals the trust rules read it at).
pub fn times(value: f64) -> String {
    if value.is_finite() {
        format!("{}×", fixed(value, experiments::trust::SHOWN_DECIMALS as u8))
    } else {
        "—".into()
    }
}

/// A share as a percentage: 87 %.
pub fn percent(value: f64) -> String {
    if !value.is_finite() {
        return "—".into();
    }
    let options = Object::new();
    let _ = Reflect::set(&options, &"style".into(), &"percent".into());
    let _ = Reflect::set(&options, &"maximumFractionDigits".into(), &0.into());
    let lang = crate::i18n::lang().tag();
    Intl::NumberFormat::new(&Array::of1(&JsValue::from_str(lang)), &options)
        .format()
        .call1(&JsValue::NULL, &JsValue::from_f64(value))
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_default()
}

/// Prose HTML with every figure marked `{{num X}}` in the Markdown (X in English spelling:
/// `5,720,764`, `3.11`) written for the page's locale with the same decimals.
pub fn prose_numbers(html: &str) -> String {
    expand_numbers(html, fixed)
}

/// `html` with each `{{num X}}` replaced by `write(value, decimals)`; a marker that does not hold a
/// number is left as it is, so nothing is lost.
fn expand_numbers(html: &str, write: impl Fn(f64, u8) -> String) -> String {
    const OPEN: &str = "{{num ";
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find(OPEN) {
        out.push_str(&rest[..at]);
        let after = &rest[at + OPEN.len()..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[at..]);
            return out;
        };
        let spelled = after[..end].trim();
        let decimals = spelled.split_once('.').map_or(0, |(_, d)| d.len()) as u8;
        // Not `str::parse`: see `parse_decimal` (std's float parser weighs 20 KB in the module).
        match experiments::params::parse_decimal(&spelled.replace(',', "")) {
            Some(value) => out.push_str(&write(value, decimals)),
            None => out.push_str(&rest[at..at + OPEN.len() + end + 2]),
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::expand_numbers;

    /// Russian-style: a space between groups, a decimal comma.
    fn russian(value: f64, decimals: u8) -> String {
        let text = format!("{value:.*}", decimals as usize);
        let (whole, fraction) = text.split_once('.').map_or((text.as_str(), None), |(w, f)| (w, Some(f)));
        let digits: Vec<char> = whole.chars().collect();
        let mut grouped = String::new();
        for (i, c) in digits.iter().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                grouped.push(' ');
            }
            grouped.push(*c);
        }
        fraction.map_or(grouped.clone(), |f| format!("{grouped},{f}"))
    }

    #[test]
    fn marked_figures_follow_the_locale_and_keep_their_decimals() {
        let html = "<td>{{num 5,720,764}}</td><td>{{num 3.11}} ms</td><p>about {{num 1.00}}x</p>";
        assert_eq!(expand_numbers(html, russian), "<td>5 720 764</td><td>3,11 ms</td><p>about 1,00x</p>");
    }

    #[test]
    fn anything_else_is_left_alone() {
        assert_eq!(expand_numbers("{{num many}} and {{num 2", russian), "{{num many}} and {{num 2");
        assert_eq!(expand_numbers("no figures {here}", russian), "no figures {here}");
    }
}
