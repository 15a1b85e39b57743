//! The Russian table held to `content/ru/STYLE.md`'s mechanical rules, as the chapters are
//! (`prose::style`): units in Cyrillic, numbers written the Russian way.

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
