//! On a first visit to the English landing page, offer the lab in the reader's own language when
//! the browser prefers one we have (never a redirect: the reader chooses, once).

use crate::i18n::{lang, Lang};
use leptos::prelude::*;

const DECIDED_KEY: &str = "concurrency-lab.language-suggestion";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The first language of `preferred` (BCP 47 tags, the reader's order) that the lab has; None when
/// English comes first or none matches.
pub fn suggested(preferred: &[String]) -> Option<Lang> {
    for tag in preferred {
        let primary = tag.split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase();
        if let Some(found) = Lang::ALL.into_iter().find(|l| l.tag() == primary) {
            return (found != Lang::En).then_some(found);
        }
    }
    None
}

fn browser_languages() -> Vec<String> {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else { return Vec::new() };
    navigator.languages().iter().filter_map(|v| v.as_string()).collect()
}

/// The offer, in the suggested language, with a link to this page in it and a dismiss button.
#[component]
pub fn LanguageSuggestion() -> impl IntoView {
    let decided = storage().and_then(|s| s.get_item(DECIDED_KEY).ok().flatten()).is_some();
    let offer = (lang() == Lang::En && !decided).then(|| suggested(&browser_languages())).flatten();
    let shown = RwSignal::new(offer.is_some());
    let decide = move || {
        if let Some(s) = storage() {
            let _ = s.set_item(DECIDED_KEY, "1");
        }
    };
    offer.map(|to| {
        // The few strings of the offer in every language are compiled in (not the whole tables).
        let t = ui_text::offer::offer(to.tag()).expect("every language has its offer");
        view! {
            <Show when=move || shown.get()>
                <aside class="language-suggestion" lang=to.tag() aria-label=t.label data-testid="language-suggestion">
                    <p>
                        {t.text}" "
                        <a
                            href=crate::links::this_page_in(to)
                            rel="external"
                            hreflang=to.tag()
                            on:click=move |event| {
                                // A new page in that language (the language is read at start-up).
                                event.prevent_default();
                                decide();
                                if let Some(window) = web_sys::window() {
                                    let _ = window.location().assign(&crate::links::this_page_in(to));
                                }
                            }
                        >
                            {t.switch}
                        </a>
                    </p>
                    <button type="button" on:click=move |_| { decide(); shown.set(false); }>{t.dismiss}</button>
                </aside>
            </Show>
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_first_language_we_have_is_offered_unless_it_is_english() {
        assert_eq!(suggested(&tags(&["ru-RU", "en-US"])), Some(Lang::Ru));
        assert_eq!(suggested(&tags(&["de-DE", "ja"])), Some(Lang::Ja));
        assert_eq!(suggested(&tags(&["zh-Hans-CN"])), Some(Lang::Zh));
        assert_eq!(suggested(&tags(&["en-GB", "hi-IN"])), None);
        assert_eq!(suggested(&tags(&["fr", "de"])), None);
        assert_eq!(suggested(&[]), None);
    }
}
