//! The mechanical rules of each language's style sheet (`content/<lang>/STYLE.md`), checked over
//! every text of `content/`: units, ratios, spacing around bold, spelling of the key term, and one
//! percent style per language. What a rule cannot see (tone, terms in context) is the sheet's.

use regex::Regex;
use std::path::Path;

/// The prose of a Markdown text as the rules see it: without fenced code blocks, inline code, and
/// `{{num …}}` markers (whose figures stay, without the marker).
fn prose_of(markdown: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in markdown.lines() {
        // Code lines become empty lines, so a breach's line number is the file's.
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
        }
        out.push('\n');
    }
    let inline_code = Regex::new(r"`[^`\n]*`").unwrap();
    let num = Regex::new(r"\{\{num ([^}]*)\}\}").unwrap();
    num.replace_all(&inline_code.replace_all(&out, ""), "$1").into_owned()
}

/// One rule broken: where, and what the sheet says instead.
#[derive(Debug)]
pub struct Breach {
    pub file: String,
    pub line: usize,
    pub found: String,
    pub rule: &'static str,
}

/// Every match of `pattern` in `text` as a breach of `rule`.
fn find(file: &str, text: &str, pattern: &Regex, rule: &'static str, out: &mut Vec<Breach>) {
    for m in pattern.find_iter(text) {
        let line = text[..m.start()].matches('\n').count() + 1;
        out.push(Breach { file: file.to_string(), line, found: m.as_str().to_string(), rule });
    }
}

/// The breaches of `lang`'s mechanical rules in one text.
pub fn breaches(lang: &str, file: &str, markdown: &str) -> Vec<Breach> {
    let text = prose_of(markdown);
    let mut out = Vec::new();
    if lang == "ru" {
        let latin_unit = Regex::new(r"\d\s?(?:ms|µs|ns|s|MB|KB|GB|MiB|GiB|GHz|MHz)(?:/s)?\b").unwrap();
        find(file, &text, &latin_unit, "units in Cyrillic (мс, мкс, нс, с, МБ, КБ, ГБ, МиБ, ГГц)", &mut out);
        // "в 1,8 раза быстрее": × belongs to a bare figure (2×), not inside the phrase.
        let times_in_phrase = Regex::new(r"\d\s?×\s+(?:быстрее|медленнее|дольше|больше|меньше)").unwrap();
        find(file, &text, &times_in_phrase, "в 1,8 раза быстрее, not в 1,8× быстрее", &mut out);
        // A task's fixed cost is накладные расходы; «сбор» is a fee (сборка, собрать stay).
        let fee = Regex::new(r"(?i)\bсбор(?:а|у|ом|е|ы|ов)?\b").unwrap();
        find(file, &text, &fee, "накладные расходы, not сбор", &mut out);
    }
    if matches!(lang, "zh" | "ja") {
        // A ratio after a number reads with 倍; × between two quantities (a formula) is not a ratio.
        let ratio = Regex::new(r"\d\s?[x×](?:[^\d\s]|$|\s[^\d])").unwrap();
        find(file, &text, &ratio, "a ratio with 倍, not x or ×", &mut out);
    } else {
        // A ratio after a number takes the multiplication sign, not a Latin x.
        let latin_x = Regex::new(r"\d\s?x(?:[^\p{L}\d]|$)").unwrap();
        find(file, &text, &latin_x, "a ratio with ×, not x", &mut out);
    }
    if lang == "zh" {
        // A half-width space between Chinese and Latin letters or digits (the sheet's 标点与空格).
        let tight = Regex::new(r"\p{Han}[A-Za-z0-9]|[A-Za-z0-9]\p{Han}").unwrap();
        find(file, &text, &tight, "a space between Chinese and Latin letters or digits", &mut out);
        // 约 before the comparison: 约快 8 倍, not 快约 8 倍 (the sheet's 倍数).
        let about_after = Regex::new("[快慢]约").unwrap();
        find(file, &text, &about_after, "约快 / 约慢, not 快约 / 慢约", &mut out);
        // The sheet's terms: 开销 for overhead (费用 is a fee), 窃取 for stealing.
        let fee = Regex::new("费用").unwrap();
        find(file, &text, &fee, "开销, not 费用", &mut out);
        let steal = Regex::new("偷走").unwrap();
        find(file, &text, &steal, "窃取, not 偷走", &mut out);
    }
    if lang == "ja" {
        // No space after bold before Japanese text, except where the bold ends in punctuation:
        // there CommonMark needs the space to close the bold.
        let spaced = Regex::new(r"\*\*[^*\n]*[^*\n\p{P}\s]\*\* [\p{Hiragana}\p{Katakana}\p{Han}]").unwrap();
        find(file, &text, &spaced, "no space after bold before Japanese text", &mut out);
        // Italics around Japanese words join the text with no space on either side (Latin words
        // in italics keep theirs, as Latin words do).
        let jp = r"\p{Hiragana}\p{Katakana}\p{Han}";
        let spaced_italic = Regex::new(&format!(
            r"[{jp}、。）] \*[^*\s][^*\n]*[{jp}][^*\n]*\*(?:[^*]|$)|(?:^|[^*])\*[^*\s][^*\n]*[{jp}][^*\n]*\* [{jp}（]"
        ))
        .unwrap();
        find(file, &text, &spaced_italic, "no space around italics of Japanese words", &mut out);
    }
    if lang == "hi" {
        let misspelt = Regex::new("समवर्तीता").unwrap();
        find(file, &text, &misspelt, "समवर्तिता, spelt so", &mut out);
        find(file, &text, &no_nukta(), "the nukta in the sheet's words (ज़्यादा, इंतज़ार, ख़ुद, क़रीब, …)", &mut out);
        let curly = Regex::new("[“”]").unwrap();
        find(file, &text, &curly, "quotes straight: \"…\"", &mut out);
        // The sheet's words: ऊपरी ख़र्च for overhead (शुल्क is a fee), and an engineer's words, not a
        // textbook's.
        let fee = Regex::new("शुल्क").unwrap();
        find(file, &text, &fee, "ऊपरी ख़र्च, not शुल्क", &mut out);
        let textbook = Regex::new("यादृच्छिक|माध्यिका|लघुगणकीय").unwrap();
        find(file, &text, &textbook, "रैंडम, मीडियन, लॉग स्केल", &mut out);
        let precomposed = Regex::new("[\u{958}-\u{95F}]").unwrap();
        find(file, &text, &precomposed, "the nukta as its own sign (U+093C), not a precomposed letter", &mut out);
    }
    out
}

/// The words content/hi/STYLE.md lists with a nukta, spelt without it.
fn no_nukta() -> Regex {
    let words = ["ज़्यादा", "ज़रूरी", "इंतज़ार", "फ़ाइल", "फ़ायदा", "ख़र्च", "ख़ुद", "ख़ाली", "ख़त्म", "ग़लत", "क़ीमत", "मुक़ाबले", "क़रीब"];
    // From a word's start, so that its inflections (फ़ाइलें, ग़लती) count too.
    Regex::new(&format!(r"\b(?:{})", words.map(|w| w.replace('\u{93C}', "")).join("|"))).unwrap()
}

/// A language's percent style: `12%` (no space) or `12 %` (a space, or a no-break space).
fn percent_styles(text: &str) -> (usize, usize) {
    let tight = Regex::new(r"\d%").unwrap().find_iter(text).count();
    let spaced = Regex::new(r"\d[ \u{a0}]%").unwrap().find_iter(text).count();
    (tight, spaced)
}

/// Every breach in `content/`, every language, with the percent style checked across each language.
pub fn check_content(content: &Path) -> Vec<Breach> {
    let mut out = Vec::new();
    let mut languages: Vec<_> =
        std::fs::read_dir(content).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    languages.sort();
    for dir in languages {
        let lang = dir.file_name().unwrap().to_string_lossy().into_owned();
        if lang.len() != 2 {
            continue;
        }
        let (mut tight, mut spaced) = (Vec::new(), Vec::new());
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "md") && !p.ends_with("STYLE.md")) {
            let name = path.strip_prefix(content).unwrap_or(path).display().to_string();
            let markdown = std::fs::read_to_string(path).unwrap();
            out.extend(breaches(&lang, &name, &markdown));
            let (t, s) = percent_styles(&prose_of(&markdown));
            if t > 0 {
                tight.push(name.clone());
            }
            if s > 0 {
                spaced.push(name);
            }
        }
        if !tight.is_empty() && !spaced.is_empty() {
            out.push(Breach {
                file: format!("{lang}/"),
                line: 0,
                found: format!("12% in {tight:?}, 12 % in {spaced:?}"),
                rule: "one percent style per language",
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(lang: &str, markdown: &str) -> Vec<&'static str> {
        breaches(lang, "x.md", markdown).into_iter().map(|b| b.rule).collect()
    }

    #[test]
    fn each_rule_finds_what_it_names_and_nothing_else() {
        assert_eq!(rules("ru", "Заняло 40 MB и 2 s.").len(), 2);
        assert_eq!(rules("ru", "Заняло {{num 3.91}} ms.").len(), 1);
        assert!(rules("ru", "Код: `sleep(5 ms)`.\n```\nsleep(5 ms)\n```\n").is_empty(), "code is not prose");
        assert!(rules("ru", "Заняло 40 МБ за 2 с, 14 ГБ/с.").is_empty());
        assert_eq!(rules("ru", "примерно в 1.8× быстрее, в 2 × медленнее").len(), 2);
        assert!(rules("ru", "примерно в 1,8 раза быстрее; ускорение 2×; 2 × 3").is_empty());
        assert_eq!(rules("ru", "фиксированный сбор, при сборе 100 нс, Сбор").len(), 3);
        assert!(rules("ru", "сборка мусора, собрать, сборщик").is_empty());
        assert_eq!(rules("zh", "约快 1.8x。").len(), 1);
        assert_eq!(rules("zh", "快约 8 倍，慢约 12%").len(), 2);
        assert!(rules("zh", "约快 8 倍，约慢 12%").is_empty());
        assert_eq!(rules("zh", "每个任务的费用，把它们偷走").len(), 2);
        assert!(rules("zh", "每个任务的开销，把它们窃取过去").is_empty());
        assert_eq!(rules("zh", "4 个goroutine 在2 个工作线程上").len(), 2);
        assert!(rules("zh", "4 个 goroutine 在 2 个工作线程上，**运行**；“M:N”中的 M。").is_empty());
        assert_eq!(rules("ja", "約1.8×速い").len(), 1);
        assert!(rules("zh", "快 1.8 倍；请求数 × 时间；2 × 3 = 6").is_empty());
        assert_eq!(rules("ja", "**スレッド** のタスク").len(), 1);
        assert!(
            rules("ja", "**分割にはコストがかかります。** タスクを作り").is_empty(),
            "bold ending in punctuation needs it"
        );
        assert!(rules("ja", "**スレッド**のタスク").is_empty());
        assert_eq!(rules("ja", "これを *非同期* に行う").len(), 1);
        assert!(rules("ja", "これを*非同期*に行う。*t* 個のスライス、*ready* とも").is_empty());
        assert_eq!(rules("hi", "समवर्तीता और").len(), 1);
        assert!(rules("hi", "समवर्तिता").is_empty());
        assert_eq!(rules("hi", "एक तय शुल्क, यादृच्छिक सूची, माध्यिका").len(), 3);
        assert!(rules("hi", "एक तय ऊपरी ख़र्च, रैंडम सूची, मीडियन").is_empty());
        assert_eq!(rules("hi", "“M:N” का M").len(), 2);
        assert!(rules("hi", "\"M:N\" का M").is_empty());
        assert_eq!(rules("hi", "खुद हिसाब, करीब-करीब, ज्यादा इंतजार").len(), 5);
        assert_eq!(rules("hi", "\u{959}ुद").len(), 1, "a precomposed ख़");
        assert!(rules("hi", "ख़ुद हिसाब, क़रीब-क़रीब, ज़्यादा इंतज़ार, ख़ुदा").is_empty());
        assert_eq!(percent_styles("12% and 12 % and 3\u{a0}%"), (1, 2));
        assert_eq!(rules("en", "about 1.8x faster, 2x").len(), 2);
        assert!(rules("en", "about 1.8× faster; 0x1F; 4xx errors; the x axis").is_empty());
    }

    /// An interface string as a reader sees its words: a blank (`{ms}`, `#`) stands for a value
    /// the rules do not judge, and a plural message's syntax is gone (its forms side by side).
    fn as_read(message: &str) -> String {
        let blank = Regex::new(r"\{\w+\}|#").unwrap();
        let syntax = Regex::new(r"\{\w+, plural,\s*|(?:=\d+|zero|one|two|few|many|other)\s*\{|\}").unwrap();
        syntax.replace_all(&blank.replace_all(message, "\u{FFFC}"), "").into_owned()
    }

    #[test]
    fn every_interface_keeps_its_sheets_rules() {
        let mut found = Vec::new();
        // Not the ratio rule: the Chinese table's captions name the charts' own ticks (1×); not the
        // Hindi quotes: the tables quote buttons as the English one does (“Run”).
        let judged = |b: &Breach| !b.rule.starts_with("a ratio") && !b.rule.starts_with("quotes");
        for (lang, table) in ui_text::tables() {
            for (field, texts) in table.texts() {
                for text in texts {
                    found.extend(
                        breaches(lang, field, &as_read(text))
                            .into_iter()
                            .filter(judged)
                            .map(|b| format!("{lang}.rs {}: `{}` ({})", b.file, b.found, b.rule)),
                    );
                }
            }
        }
        assert!(found.is_empty(), "content/<lang>/STYLE.md's rules broken in ui-text:\n{}", found.join("\n"));
        // And one percent style per language, the texts' and the interface's alike.
        let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content");
        for (lang, table) in ui_text::tables() {
            let texts: String = std::fs::read_dir(content.join(lang))
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "md") && !p.ends_with("STYLE.md"))
                .map(|p| prose_of(&std::fs::read_to_string(p).unwrap()))
                .collect();
            // A placeholder stands where a figure goes: `{percent}%` is written as `12%` is.
            let interface =
                table.texts().into_iter().flat_map(|(_, t)| t).collect::<Vec<_>>().join("\n").replace('}', "0");
            let (texts_tight, texts_spaced) = percent_styles(&texts);
            let (tight, spaced) = percent_styles(&interface);
            assert!(
                (texts_tight == 0 || spaced == 0) && (texts_spaced == 0 || tight == 0),
                "{lang}: the texts write {texts_tight} × 12% and {texts_spaced} × 12 %, the interface {tight} and {spaced}"
            );
        }
        assert_eq!(as_read("{tasks, plural, other {# 个 goroutine}}在 {ms} ms"), "\u{FFFC} 个 goroutine在 \u{FFFC} ms");
        assert_eq!(rules("zh", &as_read("{tasks, plural, other {# 个 goroutine}}在 {workers} 上")).len(), 1);
    }

    #[test]
    fn every_text_keeps_its_languages_style_sheet() {
        let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content");
        let breaches = check_content(&content);
        let lines: Vec<String> =
            breaches.iter().map(|b| format!("{}:{}: `{}` ({})", b.file, b.line, b.found.trim(), b.rule)).collect();
        assert!(lines.is_empty(), "{} breaches of content/<lang>/STYLE.md:\n{}", lines.len(), lines.join("\n"));
        for lang in ["en", "ru", "zh", "ja", "hi"] {
            assert!(content.join(lang).join("STYLE.md").is_file(), "content/{lang}/STYLE.md");
        }
    }
}
