//! A text's prose, fetched when a page shows it rather than compiled into the module: the build
//! writes one small file per language and text (`content/<lang>/<slug>-<hash>.json`, made by the
//! `prose` crate), and [`ProseState::load`] fetches it relative to the page's base URL. Files already
//! fetched are kept for the page's life, so going back to a chapter shows its prose at once.

use crate::content::ChapterText;
use experiments::catalog::ExperimentId;
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;

/// The prose between a text's experiments: one more piece of HTML than it has experiments (before
/// the first, between each two, after the last), each possibly empty. Trusted HTML: the build made
/// it from our own checked Markdown.
pub type Pieces = Rc<Vec<String>>;

/// Where a text's prose is.
#[derive(Clone)]
pub enum Prose {
    Loading,
    Ready(Pieces),
    /// The request failed (offline without a stored copy, a 404, a file that is not the text's).
    Failed(String),
}

thread_local! {
    /// The files this page has fetched, by path (a few: a list is enough).
    static FETCHED: RefCell<Vec<(&'static str, Pieces)>> = const { RefCell::new(Vec::new()) };
}

/// A text's prose as a signal, and the request that fills it.
#[derive(Clone, Copy)]
pub struct ProseState {
    text: &'static ChapterText,
    pub prose: RwSignal<Prose, LocalStorage>,
    /// Whether the request has ended once, well or not: the experiment panels are built from then
    /// on (after a failure too, so nothing is lost), and stay when a retry brings the prose.
    pub settled: RwSignal<bool>,
}

impl ProseState {
    /// The prose of `text`, fetched now unless this page has it already.
    pub fn load(text: &'static ChapterText) -> Self {
        let known = FETCHED.with(|f| f.borrow().iter().find(|(path, _)| *path == text.prose).map(|(_, p)| p.clone()));
        let state = ProseState {
            text,
            settled: RwSignal::new(known.is_some()),
            prose: RwSignal::new_local(known.clone().map_or(Prose::Loading, Prose::Ready)),
        };
        if known.is_none() {
            state.fetch();
        }
        state
    }

    /// Ask again (the notice's Retry).
    pub fn retry(self) {
        self.prose.set(Prose::Loading);
        self.fetch();
    }

    fn fetch(self) {
        let text = self.text;
        wasm_bindgen_futures::spawn_local(async move {
            let result = fetch(text).await;
            if let Ok(pieces) = &result {
                FETCHED.with(|f| f.borrow_mut().push((text.prose, pieces.clone())));
            }
            // `try_set`: the reader may have left the page meanwhile.
            _ = self.prose.try_set(match result {
                Ok(pieces) => Prose::Ready(pieces),
                Err(why) => Prose::Failed(why),
            });
            // Once only: the panels that follow it are built once and kept.
            if self.settled.try_get_untracked() == Some(false) {
                self.settled.set(true);
            }
        });
    }
}

async fn fetch(text: &'static ChapterText) -> Result<Pieces, String> {
    let file = crate::site_json::fetch(text.prose).await?;
    let strings = |key: &str| crate::site_json::strings(&file, key);
    // Figures marked `{{num …}}` in the Markdown, in the reader's locale.
    check(text.experiments, strings("experiments"), strings("prose"))
        .map(|pieces| Rc::new(pieces.iter().map(|html| crate::format::prose_numbers(html)).collect()))
}

/// The prose pieces of a file whose `experiments` and `prose` were read (`None`: missing or not a
/// list of strings), if it is the file of a text that places `experiments`.
pub fn check(
    experiments: &[ExperimentId],
    placed: Option<Vec<String>>,
    prose: Option<Vec<String>>,
) -> Result<Vec<String>, String> {
    let (Some(placed), Some(prose)) = (placed, prose) else {
        return Err("the file lacks `experiments` or `prose`".into());
    };
    if !placed.iter().map(String::as_str).eq(experiments.iter().map(|e| e.slug()))
        || prose.len() != experiments.len() + 1
    {
        return Err("the file is not this text's".into());
    }
    Ok(prose)
}

#[cfg(test)]
mod tests {
    use super::{check, ExperimentId};

    fn strings(items: &[&str]) -> Option<Vec<String>> {
        Some(items.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn a_file_is_read_only_when_it_places_the_texts_experiments() {
        let prose = strings(&["<p>Before</p>\n", ""]);
        assert_eq!(
            check(&[ExperimentId::Sum], strings(&["sum"]), prose.clone()),
            Ok(vec!["<p>Before</p>\n".into(), String::new()])
        );
        assert!(check(&[ExperimentId::Sum, ExperimentId::Hashing], strings(&["sum"]), prose.clone()).is_err());
        assert!(check(&[ExperimentId::Sum], strings(&["sum"]), strings(&["<p>One piece</p>"])).is_err());
        assert!(check(&[], strings(&[]), strings(&[])).is_err());
        assert!(check(&[ExperimentId::Sum], None, prose).is_err());
        assert!(check(&[ExperimentId::Sum], strings(&["sum"]), None).is_err());
    }
}
