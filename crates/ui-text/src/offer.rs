//! The offer of a language on a first visit, in that language: the few strings the English landing
//! page needs of every other language, kept apart from the full tables so that it carries them alone.

/// The offer in one language.
pub struct Offer {
    /// The offer's accessible name.
    pub label: &'static str,
    pub text: &'static str,
    pub switch: &'static str,
    pub dismiss: &'static str,
}

/// The offer in the language `tag`.
pub fn offer(tag: &str) -> Option<&'static Offer> {
    OFFERS.iter().find(|(t, _)| *t == tag).map(|(_, offer)| offer)
}

static OFFERS: [(&str, Offer); 5] = [
    (
        "en",
        Offer {
            label: "Language",
            text: "This lab is also written in English.",
            switch: "Read it in English",
            dismiss: "No, thanks",
        },
    ),
    (
        "ru",
        Offer {
            label: "Язык",
            text: "Эта лаборатория есть и на русском языке.",
            switch: "Читать по-русски",
            dismiss: "Нет, спасибо",
        },
    ),
    (
        "zh",
        Offer {
            label: "语言", text: "本实验室也有中文版。", switch: "阅读中文版", dismiss: "不用了，谢谢"
        },
    ),
    (
        "ja",
        Offer {
            label: "言語",
            text: "このラボは日本語でも読めます。",
            switch: "日本語で読む",
            dismiss: "いいえ、結構です",
        },
    ),
    (
        "hi",
        Offer {
            label: "भाषा", text: "यह लैब हिन्दी में भी उपलब्ध है।", switch: "हिन्दी में पढ़ें", dismiss: "नहीं, धन्यवाद"
        },
    ),
];
