//! The Russian, Chinese and Japanese tables held to their `content/<lang>/STYLE.md`'s mechanical
//! rules, as the chapters are (`prose::style`): Russian units in Cyrillic and numbers written the
//! Russian way; Chinese and Japanese ratios in 倍 and percents without a space.

use crate::ru::RU;
use regex::Regex;

/// Every breach of the rules in the Russian table: the field, the text found, the rule.
fn breaches() -> Vec<(&'static str, String, &'static str)> {
    let rules = [
        // A Latin unit after a number, a blank (`{ms} ms`), an opening parenthesis (`(ms)`) or a
        // column heading's comma (`Медиана, ms`).
        (
            Regex::new(r"(?:\d|\}|\(|, )\s?(?:ms|µs|us|ns|s|B|KB|MB|GB|KiB|MiB|GiB|GHz|MHz)(?:/s|/op)?(?:[^\p{L}]|$)")
                .unwrap(),
            "units in Cyrillic (мс, мкс, нс, с, Б, КБ, МБ, ГБ, КиБ, МБ/с, мс/оп)",
        ),
        // A per-unit after a Russian word: `Запросов/s`.
        (Regex::new(r"\p{Cyrillic}/(?:ms|µs|ns|s|op)(?:[^\p{L}]|$)").unwrap(), "a per-unit in Cyrillic (запросов/с)"),
        (Regex::new(r"\d,\d{3}(?:\D|$)").unwrap(), "thousands without a comma (1000, 10\u{a0}000)"),
        (Regex::new(r"\d\.\d").unwrap(), "a decimal comma (0,9×)"),
    ];
    // Not a unit or a number: Amdahl's serial fraction `s`, and Go's versions.
    let allowed = [", s =", "r60.3", "Go 1.1", "Go 1.15"];
    let mut out = Vec::new();
    for (field, texts) in RU.texts() {
        for text in texts {
            let mut text = text.to_string();
            for ok in allowed {
                text = text.replace(ok, "");
            }
            for (pattern, rule) in &rules {
                out.extend(pattern.find_iter(&text).map(|m| (field, m.as_str().to_string(), *rule)));
            }
        }
    }
    out
}

#[test]
fn the_russian_table_writes_units_in_cyrillic_and_numbers_the_russian_way() {
    let found = breaches();
    assert!(found.is_empty(), "content/ru/STYLE.md's rules broken in ru.rs:\n{found:#?}");
}

#[test]
fn the_rules_catch_what_they_name() {
    let per = Regex::new(r"\p{Cyrillic}/(?:ms|µs|ns|s|op)(?:[^\p{L}]|$)").unwrap();
    for bad in ["Запросов/s", "хешей/s за", "запросов/ms"] {
        assert!(per.is_match(bad), "{bad}");
    }
    for good in ["Запросов/с", "МБ/с", "мс/оп", "ввод/вывод", "I/O", "ns/op"] {
        assert!(!per.is_match(good), "{good}");
    }
    let units =
        Regex::new(r"(?:\d|\}|\(|, )\s?(?:ms|µs|us|ns|s|B|KB|MB|GB|KiB|MiB|GiB|GHz|MHz)(?:/s|/op)?(?:[^\p{L}]|$)")
            .unwrap();
    for bad in ["Медиана, ms", "время (ms)", "за {s} s.", "4 MB и", "1 KiB", "300 MB/s", "(µs)", "{ghz} GHz"]
    {
        assert!(units.is_match(bad), "{bad}");
    }
    for good in ["Медиана, мс", "время (мс)", "за {s} с.", "GOMAXPROCS=16", "{n, plural, one {# раунд}}", "CPU, мс"]
    {
        assert!(!units.is_match(good), "{good}");
    }
}

/// Fields whose `×` names the charts' own tick labels (the speedup and overhead axes print `1×`
/// in every language), so a caption that tells the reader how to read them keeps the sign.
const CHART_TICK_FIELDS: [&str; 4] =
    ["results_caption_overhead", "granularity_caption", "count_caption", "count_batching_claim"];

/// Breaches of the Chinese and Japanese sheets' rules in `table`: a ratio written `1.5×` instead of
/// with 倍 (a product like `{tasks} × {sqrt}` is allowed), and a percent with a space before it.
fn cjk_breaches(table: &crate::Ui) -> Vec<(&'static str, String, &'static str)> {
    let ratio = Regex::new(r"(?:\d|\})×").unwrap();
    let spaced_percent = Regex::new(r"(?:\d|\})\s%").unwrap();
    let mut out = Vec::new();
    for (field, texts) in table.texts() {
        for text in texts {
            if !CHART_TICK_FIELDS.contains(&field) {
                out.extend(ratio.find_iter(text).map(|m| (field, m.as_str().to_string(), "a ratio in 倍")));
            }
            out.extend(spaced_percent.find_iter(text).map(|m| (field, m.as_str().to_string(), "12%, no space")));
        }
    }
    out
}

#[test]
fn the_chinese_and_japanese_tables_write_ratios_in_bei_and_percents_without_a_space() {
    for (lang, table) in [("zh", &crate::zh::ZH), ("ja", &crate::ja::JA)] {
        let found = cjk_breaches(table);
        assert!(found.is_empty(), "content/{lang}/STYLE.md's rules broken in {lang}.rs:\n{found:#?}");
    }
}

#[test]
fn the_chinese_and_japanese_rules_catch_what_they_name() {
    let ratio = Regex::new(r"(?:\d|\})×").unwrap();
    let spaced_percent = Regex::new(r"(?:\d|\})\s%").unwrap();
    for bad in ["低于 0.9×", "最多约 {k}×"] {
        assert!(ratio.is_match(bad), "{bad}");
    }
    for good in ["{tasks} × {sqrt}", "0.9 倍", "2 × 3"] {
        assert!(!ratio.is_match(good), "{good}");
    }
    assert!(spaced_percent.is_match("相差 10 % 以内") && spaced_percent.is_match("{percent} % 处"));
    assert!(!spaced_percent.is_match("相差 10% 以内"));
}

/// A unit that follows a number (a figure, a placeholder `{ms}` or a plural's `#`) with an ordinary space:
/// on a phone the line may break between the two, leaving "ms" alone at the start of the next line.
/// A unit is a whole word of its own script: Japanese or Chinese may follow it with no space
/// ("{one} msかかりました"), and the space before it still breaks.
fn unit_after_a_breakable_space() -> Regex {
    Regex::new(
        r"[}#\d] (?:ms|µs|ns|s|MB|KB|GB|KiB|MiB|GiB|мс|мкс|нс|с|МБ|КБ|ГБ|КиБ|МиБ|ГиБ|毫秒|微秒|纳秒|秒|ミリ秒|マイクロ秒|ナノ秒|requests/s|запросов/с|अनुरोध/s)(?:[^\p{Latin}\p{Cyrillic}\p{Devanagari}]|$)",
    )
    .unwrap()
}

#[test]
fn every_table_keeps_a_number_and_its_unit_on_one_line() {
    let unit = unit_after_a_breakable_space();
    for (lang, table) in [
        ("en", &crate::en::EN),
        ("ru", &crate::ru::RU),
        ("zh", &crate::zh::ZH),
        ("ja", &crate::ja::JA),
        ("hi", &crate::hi::HI),
    ] {
        let mut found: Vec<(&str, String)> = Vec::new();
        for (field, texts) in table.texts() {
            for text in texts {
                found.extend(unit.find_iter(text).map(|m| (field, m.as_str().to_string())));
            }
        }
        assert!(
            found.is_empty(),
            "a number and its unit joined by a plain space in {lang}.rs (use \\u{{a0}}):\n{found:#?}"
        );
    }
}

#[test]
fn the_unit_rule_catches_what_it_names() {
    let unit = unit_after_a_breakable_space();
    for bad in [
        "{one} msかかりました",
        "{n} 毫秒内",
        "took {ms} ms.",
        "a 1 ms read",
        "за {s} с",
        "{n, plural, other {# ms}}",
        "{rate} requests/s",
    ] {
        assert!(unit.is_match(bad), "{bad}");
    }
    for good in [
        "took {ms}\u{a0}ms.",
        "{one}\u{a0}msかかりました",
        "{n} mstep",
        "{n} steps",
        "{name} said",
        "{tasks} on",
        "{x} score",
    ] {
        assert!(!unit.is_match(good), "{good}");
    }
}

/// The word each language uses for "program", as a doubt would blame one.
const PROGRAM: [(&str, &str); 5] =
    [("en", "program"), ("ru", "программ"), ("zh", "程序"), ("ja", "プログラム"), ("hi", "प्रोग्राम")];

/// The notes whose figures come from the workers' own repetitions: what varied, and by how much.
/// Nothing there measured the machine outside the lab's workers, so none may name another program;
/// only the busy notes, read off the quiet probe (the workers losing their cores while the lab ran
/// nothing else), may.
fn unmeasured(table: &crate::Ui) -> [(&'static str, &'static str); 6] {
    [
        ("doubt_noisy", table.doubt_noisy),
        ("doubt_slow_workers", table.doubt_slow_workers),
        ("doubt_few_workers_busy", table.doubt_few_workers_busy),
        ("first_noisy", table.first_noisy),
        ("note_short_noisy", table.note_short_noisy),
        ("note_short_slow_workers", table.note_short_slow_workers),
    ]
}

/// The fields among `notes` that name `program`.
fn blaming(notes: &[(&'static str, &'static str)], program: &str) -> Vec<&'static str> {
    notes.iter().filter(|(_, text)| text.to_lowercase().contains(program)).map(|(field, _)| *field).collect()
}

#[test]
fn no_note_blames_another_program_for_what_only_the_workers_measured() {
    for ((tag, table), (program_tag, program)) in crate::tables().into_iter().zip(PROGRAM) {
        assert_eq!(tag, program_tag);
        assert_eq!(blaming(&unmeasured(table), program), Vec::<&str>::new(), "{tag}");
        // The busy notes still say who may have taken the cores: their probe measured it.
        assert!(table.doubt_busy.to_lowercase().contains(program), "{tag}: {}", table.doubt_busy);
    }
    // And the check catches the old wording.
    let old = [(
        "doubt_noisy",
        "noisy: the slowest repetition took {spread} as long as the fastest; another program may be using a core",
    )];
    assert_eq!(blaming(&old, "program"), vec!["doubt_noisy"]);
}
