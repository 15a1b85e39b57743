//! Preset URLs, fuzzed: whatever a query string holds, every panel reads it without panicking, every
//! knob ends inside its range, every note tells the truth about what was changed and why, and the
//! jobs the panel then builds pass the engine's check.

mod chapters;

use chapters::{assert_all_valid, check_param, panel, Knob, Machine, Mode, PANELS};
use experiments::params::{parse_count, read_flag, read_param, ParamRange};
use proptest::prelude::*;
use proptest::test_runner::RngAlgorithm;

/// Raw values that have broken parsers somewhere: specials, spellings, payloads.
const SPECIAL: &[&str] = &[
    "",
    " ",
    "\t\n",
    "NaN",
    "nan",
    "-NaN",
    "inf",
    "-inf",
    "+inf",
    "Infinity",
    "-Infinity",
    "1e309",
    "-1e309",
    "1e-400",
    "4.9e-324",
    "1.7976931348623157e308",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "9007199254740993",
    "-0",
    "+0",
    "0.5",
    "-0.5",
    "0x10",
    "0b101",
    "1_000",
    "1,000,000",
    "1__0",
    ",,,",
    "___",
    "1e",
    "e5",
    ".",
    "-",
    "+",
    "1.",
    ".5",
    "١٢٣",
    "１２３",
    "12\u{200b}3",
    "\u{feff}7",
    "7\u{0}",
    "💥",
    "é",
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    "%3Cscript%3E",
    "{{7*7}}",
    "${7*7}",
    "' OR 1=1 --",
];

/// Strings matching `pattern`, parsed once (a `&str` strategy parses it again for every value).
fn regex(pattern: &str) -> proptest::string::RegexGeneratorStrategy<String> {
    proptest::string::string_regex(pattern).expect("a valid pattern")
}

/// Any text of up to `max` characters (control characters, astral planes and all).
fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..=max).prop_map(String::from_iter)
}

/// A raw value: a special, a number in some spelling, or anything at all.
fn raw_value() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(SPECIAL).prop_map(str::to_string),
        any::<i64>().prop_map(|v| v.to_string()),
        any::<u64>().prop_map(|v| v.to_string()),
        any::<f64>().prop_map(|v| v.to_string()),
        any::<f64>().prop_map(|v| format!("{v:e}")),
        (0u64..200_000, 0usize..4).prop_map(|(v, style)| spell(v, style)),
        regex("[-+ ]?[0-9_, ]{0,45}([.][0-9]{0,5})?([eE][-+]?[0-9]{1,4})?"),
        regex("[0-9eE.,_+ -]{0,50}"),
        text(60),
        (1usize..200).prop_map(|n| "9".repeat(n)),
    ]
}

/// `v` written the way a reader might: plain, with underscores, with commas, or scientific.
fn spell(v: u64, style: usize) -> String {
    let digits = v.to_string();
    let grouped = |sep: char| {
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(sep);
            }
            out.push(c);
        }
        out
    };
    match style {
        0 => format!(" {digits} "),
        1 => grouped('_'),
        2 => grouped(','),
        _ => format!("{:e}", v as f64),
    }
}

/// A raw value near one of a range's edges, written in some spelling (the edges are where clamping
/// and rounding can go wrong).
#[derive(Clone, Debug)]
struct NearEdge {
    edge: usize,
    offset: f64,
    style: usize,
}

impl NearEdge {
    fn raw(&self, range: &ParamRange) -> String {
        let base = [range.min, range.max, range.default][self.edge % 3] as f64;
        let v = base + self.offset;
        match self.style % 4 {
            0 => format!("{v}"),
            1 => format!("{v:e}"),
            2 => format!("{}", v.round() as i64),
            _ => format!(" {v:.3} "),
        }
    }
}

fn near_edge() -> impl Strategy<Value = NearEdge> {
    (
        0usize..3,
        prop_oneof![Just(0.0), Just(-1.0), Just(1.0), Just(0.5), Just(-0.5), Just(0.49), Just(-0.51), -3.0..3.0f64],
        0usize..4,
    )
        .prop_map(|(edge, offset, style)| NearEdge { edge, offset, style })
}

/// How a query answers a knob: absent, one raw value, a value near the edges of the knob's range,
/// or repeated keys (the page reads the first).
#[derive(Clone, Debug)]
enum Answer {
    Absent,
    Raw(String),
    Near(NearEdge),
    Repeated(Vec<String>),
}

fn answer() -> impl Strategy<Value = Answer> {
    prop_oneof![
        1 => Just(Answer::Absent),
        4 => raw_value().prop_map(Answer::Raw),
        2 => near_edge().prop_map(Answer::Near),
        1 => prop::collection::vec(raw_value(), 2..4).prop_map(Answer::Repeated),
    ]
}

fn cores() -> impl Strategy<Value = u32> {
    prop_oneof![1u32..=16, 1u32..=4_096, Just(u32::MAX)]
}

proptest! {
    // XorShift: the default ChaCha generator takes most of the time of a debug build.
    #![proptest_config(ProptestConfig { rng_algorithm: RngAlgorithm::XorShift, ..ProptestConfig::with_cases(10_000) })]

    /// Every panel of every chapter and embed, from a fuzzed preset URL: each knob is in range with a
    /// truthful note (checked in `chapters::Reader`), and the jobs it builds pass `Job::validate`.
    #[test]
    fn every_panel_reads_any_preset_url_safely(
        name in prop::sample::select(PANELS.to_vec()),
        cores in cores(),
        threads in any::<bool>(),
        answers in prop::collection::vec(answer(), 8),
        words in prop::collection::vec(prop_oneof![raw_value(), regex("[a-zA-Z -]{0,12}")], 3),
        autorun in prop::option::of(raw_value()),
        file_bytes in 1u64..=1 << 53,
    ) {
        let machine = Machine { cores, mode: if threads { Mode::Threads } else { Mode::SingleWorker } };
        let mut next = 0;
        let mut source = |knob: &Knob| {
            next += 1;
            match knob {
                Knob::Range(range) => match &answers[next % answers.len()] {
                    Answer::Absent => None,
                    Answer::Raw(raw) => Some(raw.clone()),
                    Answer::Near(near) => Some(near.raw(range)),
                    Answer::Repeated(raws) => Some(raws[0].clone()),
                },
                // A known word now and then (in any case, padded), otherwise anything.
                Knob::Choice { options, .. } => {
                    let word = &words[next % words.len()];
                    if word.len().is_multiple_of(3) {
                        Some(format!(" {} ", options[word.len() % options.len()].to_uppercase()))
                    } else {
                        Some(word.clone())
                    }
                }
            }
        };
        let (settings, runs) = panel(name, machine, &mut source, file_bytes);
        for (range, value) in &settings.values {
            prop_assert!(range.min <= *value && *value <= range.max);
        }
        // One note at most per knob read.
        prop_assert!(settings.notes.len() <= settings.values.len() + settings.words.len());
        assert_all_valid(name, machine, &runs);
        let _ = read_flag(autorun.as_deref());
    }

    /// `read_param` alone, on ranges of every shape (zero minimums, one-value ranges, huge maximums).
    #[test]
    fn any_range_reads_any_raw_value(
        min in prop_oneof![Just(0u64), 0u64..1_000, 0u64..1 << 40],
        span in prop_oneof![Just(0u64), 0u64..1_000, 0u64..1 << 40],
        default_at in any::<u64>(),
        raw in prop::option::of(raw_value()),
    ) {
        let max = min + span;
        let range = ParamRange::new("k", min, max, min + default_at % (span + 1));
        let mut notes = Vec::new();
        let value = read_param(&range, raw.as_deref(), &mut notes);
        check_param(&range, raw.as_deref(), value, &notes);
    }

    /// `parse_count` is total: a finite number or nothing, whatever the input.
    #[test]
    fn parse_count_is_total(raw in raw_value()) {
        if let Some(v) = parse_count(&raw) {
            prop_assert!(v.is_finite(), "{raw:?} gave {v}");
        }
    }
}

#[test]
fn edges_and_spellings_land_where_a_reader_expects() {
    let range = ParamRange::new("n", 100_000, 50_000_000, 10_000_000);
    let read = |raw: &str| {
        let mut notes = Vec::new();
        let value = read_param(&range, Some(raw), &mut notes);
        check_param(&range, Some(raw), value, &notes);
        (value, notes.len())
    };
    assert_eq!(read("50000000"), (50_000_000, 0));
    assert_eq!(read("50,000,000"), (50_000_000, 0));
    assert_eq!(read("5e7"), (50_000_000, 0));
    assert_eq!(read("50000000.4"), (50_000_000, 1), "above the maximum, if only just");
    assert_eq!(read("99999.6"), (100_000, 1), "below the minimum, if only just");
    assert_eq!(read("1e309"), (10_000_000, 1), "not a finite number");
    assert_eq!(read("\"><img src=x onerror=alert(1)>"), (10_000_000, 1));
    assert_eq!(read("-0"), (100_000, 1));
}
