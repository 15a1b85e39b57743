//! Compute, then measure: a panel asks for a figure the reader works out by hand from numbers on
//! the page (Amdahl's ceiling, Little's law, rounds of hashes, an ideal time), checks the answer
//! against the formula, and then sets the measured figure beside the computed one.
//!
//! Every number a question shows is a setting or a live measurement, and the answer is computed
//! from the numbers *as shown* (rounded as the page rounds them), so a reader working from the
//! page gets exactly it. The formulas, the reading of a typed number and the tolerance are the pure
//! functions below (tested natively). Nothing is stored. `?predict=0`, which turns the predictions
//! off, turns these questions off too.

use crate::components::controls::unique_id;
use crate::components::predict;
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

/// An answer within this share of the formula's counts as right (5 %: enough for rounding, or for
/// leaving out a term the question shows to be small; not enough for 16× where 15× is right).
pub const TOLERANCE: f64 = 0.05;

// ---------------------------------------------------------------------------------------------
// Pure: reading the answer, the tolerance, the formulas.
// ---------------------------------------------------------------------------------------------

/// A typed number: `12.5`, `12,5` (a decimal comma, in any language), `4,950` or `4 950` (digit
/// groups; a single comma before exactly three digits is a group where the page's language writes
/// decimals with a point), `12.5×`, `≈ 15 ms`, full-width `１２．５` and Devanagari digits. `None`
/// for anything without a number.
pub fn parse_answer(text: &str, decimal_comma: bool) -> Option<f64> {
    let ascii: String = text
        .chars()
        .filter_map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32),
            '०'..='९' => char::from_u32(c as u32 - '०' as u32 + '0' as u32),
            '．' | '。' => Some('.'),
            '，' | '、' => Some(','),
            '−' | '－' => Some('-'),
            c if c.is_whitespace() || matches!(c, '_' | '\'' | '’') => None,
            c => Some(c),
        })
        .collect();
    // The number: from its first digit (or sign, or point) to the last character a number holds.
    let start = ascii.find(|c: char| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | ','))?;
    let number: String = ascii[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | ',' | 'e' | 'E'))
        .collect();
    let number = number.trim_end_matches(['e', 'E', '.', ',']);
    let (commas, points) = (number.matches(',').count(), number.matches('.').count());
    let plain = match (commas, points) {
        (0, _) if points > 1 => number.replace('.', ""),
        (0, _) => number.to_string(),
        (_, 0) if commas > 1 => number.replace(',', ""),
        (_, 0) => {
            let after = number.len() - number.find(',').unwrap_or(0) - 1;
            let grouped = !decimal_comma && after == 3 && number[..number.find(',').unwrap_or(0)].len() <= 3;
            if grouped {
                number.replace(',', "")
            } else {
                number.replace(',', ".")
            }
        }
        // Both: whichever comes last separates the decimals.
        _ if number.rfind(',') > number.rfind('.') => number.replace('.', "").replace(',', "."),
        _ => number.replace(',', ""),
    };
    experiments::params::parse_decimal(&plain)
}

/// Whether `typed` is within [`TOLERANCE`] of `answer`.
pub fn is_right(answer: f64, typed: f64) -> bool {
    answer.is_finite() && typed.is_finite() && (typed - answer).abs() <= TOLERANCE * answer.abs()
}

/// `value` rounded to `digits` decimals, as the page shows it.
pub fn shown(value: f64, digits: u8) -> f64 {
    let scale = 10f64.powi(i32::from(digits));
    (value * scale).round() / scale
}

/// Amdahl's ceiling: the most speedup any number of workers can give work whose share `serial`
/// cannot be split, 1 ÷ s. `None` for s = 0 (no ceiling) or a share outside (0, 1].
pub fn amdahl_ceiling(serial: f64) -> Option<f64> {
    (serial > 0.0 && serial <= 1.0).then(|| 1.0 / serial)
}

/// How many of `workers` can run at once, at best: the least of the workers, the tasks and the
/// logical processors.
pub fn at_once(workers: u32, tasks: u32, cores: u32) -> u32 {
    workers.min(tasks).min(cores).max(1)
}

/// The shortest time work that took `one_ms` on one worker can take split over [`at_once`]
/// workers.
pub fn ideal_ms(one_ms: f64, workers: u32, tasks: u32, cores: u32) -> f64 {
    one_ms / at_once(workers, tasks, cores) as f64
}

/// Rounds of `items` equal pieces of work on `workers` workers that take one at a time: ⌈items ÷
/// workers⌉.
pub fn rounds(items: u32, workers: u32) -> u32 {
    items.div_ceil(workers.max(1))
}

/// The most speedup over a loop that equal pieces can give on `workers` workers, each with a core:
/// the pieces over the rounds they take (30 hashes on 16 workers: 2 rounds, 15×).
pub fn rounds_speedup(items: u32, workers: u32) -> f64 {
    items as f64 / rounds(items, workers).max(1) as f64
}

/// The seconds one request takes at least: its wait and its computing.
pub fn request_s(wait_ms: u32, work_us: u32) -> f64 {
    (wait_ms as f64 * 1_000.0 + work_us as f64) / 1_000_000.0
}

/// Little's law, λ = L ÷ W: the most requests per second `concurrency` requests in flight can
/// complete when each takes at least `seconds`. `None` for requests that take no time.
pub fn little_per_s(concurrency: u32, seconds: f64) -> Option<f64> {
    (seconds > 0.0).then(|| concurrency as f64 / seconds)
}

// ---------------------------------------------------------------------------------------------
// What a panel asks.
// ---------------------------------------------------------------------------------------------

/// One question with its inputs filled in.
#[derive(Clone, Debug, PartialEq)]
pub struct Exercise {
    /// Which formula answers it (`data-formula`, for the end-to-end tests).
    pub formula: &'static str,
    pub question: String,
    /// The unit of the answer, named beside the input.
    pub unit: &'static str,
    /// The formula's answer, from the inputs as shown.
    pub answer: f64,
    /// The worked answer in one line: the formula with the numbers.
    pub worked: String,
    /// The formula's answer as it is set beside the measurement ("12.5× at most").
    pub computed: String,
    /// The inputs as shown, `name=value;…` in plain digits (`data-inputs`, for the end-to-end tests).
    pub inputs: String,
}

/// A question, or what to run before it can be asked.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    First(String),
    Exercise(Exercise),
}

/// `name=value;…` of the inputs, for `data-inputs`.
pub fn inputs(values: &[(&str, f64)]) -> String {
    values.iter().map(|(name, value)| format!("{name}={value}")).collect::<Vec<_>>().join(";")
}

/// The shortest time `tasks` tasks on `workers` workers could take, from the time one worker took
/// (`one_ms`, measured) and this machine's `cores`: `template` words the question with
/// `{one}`, `{tasks}`, `{workers}` and `{cores}`.
pub fn ideal_time(template: &str, one_ms: f64, workers: u32, tasks: u32, cores: u32) -> Exercise {
    let t = ui();
    let one = shown(one_ms, format::ms_digits(one_ms));
    let m = at_once(workers, tasks, cores);
    let answer = ideal_ms(one, workers, tasks, cores);
    let count = |n: u32| Arg::Count(n as u64);
    Exercise {
        formula: "ideal",
        question: message(
            template,
            &[
                ("one", Arg::Text(&format::ms(one))),
                ("tasks", count(tasks)),
                ("workers", count(workers)),
                ("cores", count(cores)),
            ],
        ),
        unit: t.unit_ms,
        answer,
        worked: fill(
            t.work_ideal_worked,
            &[
                ("one", &format::ms(one)),
                ("workers", &format::int(workers as u64)),
                ("tasks", &format::int(tasks as u64)),
                ("cores", &format::int(cores as u64)),
                ("m", &format::int(m as u64)),
                ("answer", &format::ms(answer)),
            ],
        ),
        computed: fill(t.work_at_least_ms, &[("ms", &format::ms(answer))]),
        inputs: inputs(&[("one", one), ("workers", workers as f64), ("tasks", tasks as f64), ("cores", cores as f64)]),
    }
}

/// "Measured on k workers" and the time, for a row.
pub fn measured_ms(workers: u32, ms: f64) -> (String, String) {
    let t = ui();
    (
        message(t.work_measured_on, &[("workers", Arg::Count(workers as u64))]),
        fill(t.work_value_ms, &[("ms", &format::ms(ms))]),
    )
}

/// "Press “Run” first: …", until a question's inputs are measured.
pub fn first(button: &str) -> Ask {
    Ask::First(fill(ui().work_first, &[("button", button)]))
}

/// "Press “Run” to measure it."
pub fn press(button: &str) -> String {
    fill(ui().work_to_measure, &[("button", button)])
}

// ---------------------------------------------------------------------------------------------
// The component.
// ---------------------------------------------------------------------------------------------

/// `data-verdict`: what Check found (`None`: no number in the answer).
fn verdict_name(right: Option<bool>) -> &'static str {
    match right {
        None => "unreadable",
        Some(true) => "right",
        Some(false) => "wrong",
    }
}

/// `data-state`: asking, or waiting for the inputs (`first`).
fn state_name(asking: bool) -> &'static str {
    if asking {
        "ask"
    } else {
        "first"
    }
}

/// A question whose answer the reader works out and checks (Enter or Check), then the formula's
/// answer beside the measurement. `ask` says what to run first until its inputs exist; `measured`
/// is the measured figure (a label and its value) once there is one, `to_measure` what to press
/// until then. A plain function over few signal types, not a component: every generic view type
/// here is code that each chapter with a question downloads.
pub fn work_it_out(ask: Signal<Ask>, measured: Signal<Option<(String, String)>>, to_measure: String) -> AnyView {
    if !predict::enabled(use_query_map().get_untracked().get(predict::PARAMETER).as_deref()) {
        return ().into_any();
    }
    let t = ui();
    // What Check found: the answer it checked against, and the number it read (None: no number).
    let checked = RwSignal::new(None::<(f64, Option<f64>)>);
    // A verdict stands only for the question it answered: new inputs ask a new question.
    let verdict = move || {
        let (answer, read) = checked.get()?;
        ask.with(|ask| match ask {
            Ask::Exercise(e) if e.answer == answer => Some((read.map(|r| is_right(answer, r)), e.worked.clone())),
            _ => None,
        })
    };
    let asking = move || ask.with(|ask| matches!(ask, Ask::Exercise(_)));
    let tolerance = format::percent(TOLERANCE);
    let feedback = move || {
        verdict().map(|(right, worked)| match right {
            None => t.work_unreadable.to_string(),
            Some(true) => fill(t.work_right, &[("tolerance", &tolerance), ("worked", &worked)]),
            Some(false) => fill(t.work_wrong, &[("tolerance", &tolerance), ("worked", &worked)]),
        })
    };
    let (kicker_id, question_id, input_id) = (unique_id("work"), unique_id("work-question"), unique_id("work-answer"));
    let (labelled_by, described_by) = (kicker_id.clone(), question_id.clone());
    // The question's words and inputs, and the unit its answer is in (none until it can be asked).
    let text = move || {
        ask.with(|ask| match ask {
            Ask::Exercise(e) => e.question.clone(),
            Ask::First(first) => first.clone(),
        })
    };
    let exercise = move |field: fn(&Exercise) -> String| {
        ask.with(|ask| match ask {
            Ask::Exercise(e) => Some(field(e)),
            Ask::First(_) => None,
        })
    };
    // The formula's answer beside the measurement, once an answer was checked.
    let compare = move || {
        verdict().filter(|(right, _)| right.is_some())?;
        let computed = ask.with(|ask| match ask {
            Ask::Exercise(e) => e.computed.clone(),
            Ask::First(_) => String::new(),
        });
        Some(computed_beside_measured(computed, measured.get(), &to_measure))
    };
    view! {
        <div class="work-it-out" role="group" aria-labelledby=labelled_by data-testid="work-it-out" data-state=move || state_name(asking())>
            <p class="work-question">
                <span class="work-kicker" id=kicker_id>{t.work_kicker}</span>
                " "
                <span id=question_id data-testid="work-question" data-formula=move || exercise(|e| e.formula.to_string())
                    data-inputs=move || exercise(|e| e.inputs.clone())>{text}</span>
            </p>
            {answer_form(ask, checked, input_id, described_by)}
            <p class="work-feedback" role="status" data-testid="work-feedback" data-verdict=move || verdict().map(|(right, _)| verdict_name(right))>
                {feedback}
            </p>
            {compare}
        </div>
    }
    .into_any()
}

/// The answer field and Check (or Enter), shown while there is a question: what Check read goes
/// to `checked` with the answer it is checked against. The field stays while the question
/// changes, so typing and focus survive a run.
fn answer_form(
    ask: Signal<Ask>,
    checked: RwSignal<Option<(f64, Option<f64>)>>,
    input_id: String,
    described_by: String,
) -> impl IntoView {
    let t = ui();
    let typed = RwSignal::new(String::new());
    let check = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Ask::Exercise(e) = ask.get_untracked() else { return };
        // The page's language writes decimals with a comma if its formatter does.
        let comma = format::fixed(0.5, 1).contains(',');
        checked.set(Some((e.answer, parse_answer(&typed.get_untracked(), comma))));
    };
    let unit = move || {
        ask.with(|ask| match ask {
            Ask::Exercise(e) => e.unit.to_string(),
            Ask::First(_) => String::new(),
        })
    };
    let help = fill(t.work_help, &[("tolerance", &format::percent(TOLERANCE))]);
    view! {
        <form class="work-answer" on:submit=check hidden=move || !ask.with(|ask| matches!(ask, Ask::Exercise(_)))>
            <label for=input_id.clone()>{move || fill(t.work_answer, &[("unit", &unit())])}</label>
            <input id=input_id type="text" inputmode="decimal" autocomplete="off" spellcheck="false"
                aria-describedby=described_by data-testid="work-input" on:input=move |ev| typed.set(event_target_value(&ev)) />
            <button type="submit">{t.work_check}</button>
            <p class="help">{help}</p>
        </form>
    }
}

/// The formula's answer (`computed`) beside the measured figure, or beside what to press to
/// measure it (`to_measure`) while there is none.
fn computed_beside_measured(computed: String, measured: Option<(String, String)>, to_measure: &str) -> AnyView {
    let t = ui();
    let is_measured = measured.is_some().to_string();
    let (label, value) = measured.unwrap_or_else(|| (t.work_measured.to_string(), to_measure.to_string()));
    view! {
        <div class="work-compare" data-testid="work-compare">
            <p><span>{t.work_formula}</span><strong data-testid="work-computed">{computed}</strong></p>
            <p data-testid="work-measured" data-measured=is_measured><span>{label}</span><strong>{value}</strong></p>
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_number_reads_in_either_decimal_style() {
        for (text, comma, value) in [
            ("12.5", false, 12.5),
            ("12,5", false, 12.5),
            ("12,5", true, 12.5),
            ("12.5", true, 12.5),
            ("4,950", false, 4950.0),
            ("4,950", true, 4.95),
            ("4 950", true, 4950.0),
            ("4\u{a0}950,5", true, 4950.5),
            ("1,234,567.5", false, 1_234_567.5),
            ("1.234.567,5", true, 1_234_567.5),
            ("12,34,567", false, 1_234_567.0),
            (" 15× ", false, 15.0),
            ("≈ 15 ms", false, 15.0),
            ("15 倍", false, 15.0),
            ("１２．５", false, 12.5),
            ("१२.५", false, 12.5),
            ("1e3", false, 1000.0),
            (".5", false, 0.5),
            ("-2", false, -2.0),
            ("2.", false, 2.0),
        ] {
            assert_eq!(parse_answer(text, comma), Some(value), "{text:?} (decimal comma: {comma})");
        }
        for text in ["", "   ", "twelve", "×", "-", ".", ","] {
            assert_eq!(parse_answer(text, false), None, "{text:?}");
        }
    }

    #[test]
    fn five_percent_either_way_is_right() {
        assert!(is_right(12.5, 12.5));
        assert!(is_right(12.5, 12.0));
        assert!(is_right(12.5, 13.1));
        assert!(!is_right(12.5, 13.2));
        // 16× where rounds give 15× is wrong; 3.8 for 3.75 is right, 4 is not.
        assert!(!is_right(15.0, 16.0));
        assert!(is_right(3.75, 3.8));
        assert!(!is_right(3.75, 4.0));
        assert!(!is_right(f64::NAN, 1.0));
        assert!(!is_right(1.0, f64::INFINITY));
    }

    #[test]
    fn amdahl_caps_the_speedup_at_one_over_the_serial_share() {
        assert_eq!(amdahl_ceiling(0.08), Some(12.5));
        assert_eq!(amdahl_ceiling(1.0), Some(1.0));
        assert_eq!(amdahl_ceiling(0.0), None);
        assert_eq!(amdahl_ceiling(1.5), None);
        // The share as the page shows it (0.1 % steps) gives the answer the reader computes.
        assert_eq!(shown(0.08123, 3), 0.081);
        assert!((amdahl_ceiling(shown(0.08123, 3)).unwrap() - 12.345_679).abs() < 1e-5);
    }

    #[test]
    fn the_ideal_time_divides_by_what_can_run_at_once() {
        assert_eq!(at_once(8, 4, 2), 2);
        assert_eq!(at_once(2, 8, 16), 2);
        assert_eq!(at_once(16, 3, 16), 3);
        assert_eq!(at_once(0, 0, 0), 1);
        assert_eq!(ideal_ms(6.0, 4, 8, 2), 3.0);
        assert_eq!(ideal_ms(6.0, 1, 8, 2), 6.0);
    }

    #[test]
    fn hashes_come_in_rounds() {
        assert_eq!(rounds(30, 16), 2);
        assert_eq!(rounds_speedup(30, 16), 15.0);
        assert_eq!(rounds_speedup(30, 4), 3.75);
        assert_eq!(rounds_speedup(30, 1), 1.0);
        assert_eq!(rounds_speedup(4, 16), 4.0);
        assert_eq!(rounds_speedup(32, 16), 16.0);
        assert_eq!(rounds(5, 0), 5);
    }

    #[test]
    fn littles_law_gives_requests_per_second() {
        assert!((request_s(10, 100) - 0.0101).abs() < 1e-12);
        let rate = little_per_s(50, request_s(10, 100)).unwrap();
        assert!((rate - 4950.495).abs() < 1e-3, "{rate}");
        // Leaving out 100 µs of work beside 10 ms of waiting stays within the tolerance.
        assert!(is_right(rate, 5000.0));
        assert_eq!(little_per_s(50, request_s(0, 0)), None);
    }

    #[test]
    fn inputs_are_listed_for_the_tests() {
        assert_eq!(inputs(&[("one", 6.12), ("workers", 2.0)]), "one=6.12;workers=2");
    }
}
