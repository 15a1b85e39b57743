//! The page's language and its interface strings, and the messages made of them. The strings live
//! in the `ui-text` crate, one typed table per language; chapter prose lives in `content/<lang>/`.
//!
//! English is compiled in. A page in another language fetches its table once, before the app
//! starts ([`load_table`]): a reader downloads one language's strings, not five. Strings with
//! blanks use `{name}` placeholders filled by [`fill`], or plural messages ([`message`]). To add a
//! language: add a [`Lang`] variant, a table in `ui-text`, and a `content/<tag>/` folder.

mod message;

pub use message::Arg;
pub use ui_text::{Forms, Ui};

// `UI_TABLES`: each non-English table's site path (written by build.rs).
include!(concat!(env!("OUT_DIR"), "/ui_tables.rs"));

/// Languages the interface is available in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    Ru,
    Zh,
    Ja,
    Hi,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 5] = [Lang::En, Lang::Ru, Lang::Zh, Lang::Ja, Lang::Hi];

    /// BCP 47 tag, used for `Intl` number formatting and the `content/` folder.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
            Lang::Zh => "zh",
            Lang::Ja => "ja",
            Lang::Hi => "hi",
        }
    }

    /// The language's name in itself, as the switcher lists it.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ru => "Русский",
            Lang::Zh => "中文",
            Lang::Ja => "日本語",
            Lang::Hi => "हिन्दी",
        }
    }
}

/// The page's table when it is not English, once [`load_table`] has fetched it.
static LOADED: std::sync::OnceLock<&'static Ui> = std::sync::OnceLock::new();
/// Why the page's table could not be fetched, if it could not (the page is then in English).
static LOAD_FAILURE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Fetch the page's interface table and its texts' titles (one file), if its language is not
/// English; call before the app starts.
/// A table that cannot be fetched or read leaves the interface in English, and [`load_failure`]
/// says why (the texts too: their titles and prose files are named in the same file).
pub async fn load_table() {
    let lang = lang();
    if lang == Lang::En {
        return;
    }
    match fetch_table(lang).await {
        Ok(table) => {
            let _ = LOADED.set(Box::leak(Box::new(table)));
        }
        Err(reason) => {
            let _ = LOAD_FAILURE.set(reason);
        }
    }
}

/// Why the page's language is shown in English, if it is: `(language, reason)`.
pub fn load_failure() -> Option<(&'static str, &'static str)> {
    LOAD_FAILURE.get().map(|reason| (lang().native_name(), reason.as_str()))
}

async fn fetch_table(lang: Lang) -> Result<Ui, String> {
    let path = UI_TABLES.iter().find(|(tag, _)| *tag == lang.tag()).map(|(_, path)| *path).ok_or("no table")?;
    let file = crate::site_json::fetch(path).await?;
    let table = Ui::from_texts(&mut |name| crate::site_json::strings(&file, name))
        .map_err(|field| format!("{path}: no `{field}`"))?;
    // The same file holds the language's text titles and summaries.
    crate::content::load(&mut |key| crate::site_json::strings(&file, key))
        .map_err(|missing| format!("{path}: {missing}"))?;
    Ok(table)
}

/// The language of this page, read once from its address (`/ru/…` is Russian; no prefix, English).
pub fn lang() -> Lang {
    static LANG: std::sync::OnceLock<Lang> = std::sync::OnceLock::new();
    *LANG.get_or_init(crate::links::language_in_address)
}

/// The strings of the current language (English until its table is fetched, or if it cannot be).
pub fn ui() -> &'static Ui {
    LOADED.get().copied().unwrap_or(&ui_text::en::EN)
}

/// Replace each `{key}` in `template` by its value.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values.iter().fold(template.to_string(), |text, (key, value)| text.replace(&format!("{{{key}}}"), value))
}

/// The browser's `Intl` for the page's language: plural categories and digit grouping.
struct IntlCounting;

impl message::Counting for IntlCounting {
    fn category(&self, n: u64) -> String {
        let rules = js_sys::Intl::PluralRules::new(&js_sys::Array::of1(&lang().tag().into()), &js_sys::Object::new());
        rules.select(n as f64).as_string().unwrap_or_else(|| "other".into())
    }
    fn number(&self, n: u64) -> String {
        crate::format::int(n)
    }
}

/// A whole-sentence message: `{name}` filled by text or a count, and
/// `{name, plural, one {…} few {…} other {…}}` choosing the count's form in the page's language.
pub fn message(template: &str, args: &[(&str, Arg<'_>)]) -> String {
    message::format(template, args, &IntlCounting)
}

/// `n` with its noun in the right form: "1 worker", "4 workers".
pub fn counted(n: u64, forms: Forms) -> String {
    message(forms, &[("n", Arg::Count(n))])
}

/// "1 worker", "4 workers".
pub fn workers(n: u32) -> String {
    counted(n as u64, ui().worker_forms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_of_every_language_is_well_formed() {
        for (tag, table) in ui_text::tables() {
            for (field, texts) in table.texts() {
                for text in texts {
                    let problems = message::problems(text);
                    assert!(problems.is_empty(), "{tag}.{field}: {problems:?}");
                }
            }
        }
    }

    /// English plural rules and plain digits, for the tests only (the app asks `Intl`).
    struct EnglishCounting;

    impl message::Counting for EnglishCounting {
        fn category(&self, n: u64) -> String {
            if n == 1 { "one" } else { "other" }.to_string()
        }
        fn number(&self, n: u64) -> String {
            n.to_string()
        }
    }

    #[test]
    fn english_counts_agree_with_their_nouns() {
        let t = &ui_text::en::EN;
        let english = |template: &str, args: &[(&str, Arg<'_>)]| message::format(template, args, &EnglishCounting);
        let agree = |n| english(t.hash_digests_agree, &[("hashes", Arg::Count(n))]);
        assert_eq!(agree(1), "the hash agrees ✓");
        assert_eq!(agree(30), "all 30 hashes agree ✓");
        let machine =
            |cores| english(t.machine_line, &[("cores", Arg::Count(cores)), ("browser", Arg::Text(t.unknown_browser))]);
        assert!(machine(1).starts_with("Measured on your machine: 1 logical processor ("), "{}", machine(1));
        assert!(machine(8).contains("8 logical processors (") && machine(8).contains("an unknown browser"));
        let i7 = [("processor", Arg::Text("Intel Core i7")), ("cores", Arg::Count(4)), ("ghz", Arg::Text("2.9"))];
        assert_eq!(english(t.published_machine_clocked, &i7), "Intel Core i7, 4 cores, 2.9 GHz");
        assert_eq!(english(t.hash_loop, &[("hashes", Arg::Count(1))]), "Loop: 1 hash one after another");
    }

    #[test]
    fn every_language_fills_the_same_blanks_as_english() {
        let english = ui_text::en::EN.texts();
        for (tag, table) in ui_text::tables() {
            for ((field, texts), (_, english_texts)) in table.texts().into_iter().zip(&english) {
                assert_eq!(texts.len(), english_texts.len(), "{tag}.{field}: as many texts as English");
                for (text, english_text) in texts.iter().zip(english_texts) {
                    assert_eq!(
                        message::argument_names(text),
                        message::argument_names(english_text),
                        "{tag}.{field}: the same {{blanks}} as English in {text:?}"
                    );
                }
            }
        }
    }
}
