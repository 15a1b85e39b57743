//! Sharing an experiment: copy a link with the current settings, embed it in a course page, and
//! download its results (with the machine that measured them) as CSV or JSON. The four actions sit
//! behind one disclosure button ("Share and export"), so on a phone they take one button's room.

use super::controls::unique_id;
use super::results::ResultRow;
use crate::content;
use crate::environment::machine;
use crate::i18n::{fill, ui};
use leptos::html::Dialog;
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::JsCast;

/// The current query string (the settings of the last run), with its leading `?`, or "".
fn current_query() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// The chapter a named experiment belongs to.
pub fn chapter_of(experiment: &str) -> Option<&'static content::ChapterText> {
    content::chapters().find(|c| c.experiments.contains(&experiment))
}

/// Links for an experiment: the chapter, the embeddable experiment, the embeddable chapter.
fn links(experiment: &str) -> (String, String, String) {
    let root = crate::links::language_root_url();
    let query = current_query();
    let slug = chapter_of(experiment).map_or("", |c| c.slug);
    (
        format!("{root}chapters/{slug}{query}"),
        format!("{root}embed/experiments/{experiment}{query}"),
        format!("{root}embed/chapters/{slug}{query}"),
    )
}

/// An `<iframe>` snippet a course author can paste into an HTML editor.
fn iframe_snippet(src: &str, title: &str, height: u32) -> String {
    let escape = |s: &str| s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;");
    format!(
        "<iframe src=\"{}\" title=\"{}\" loading=\"lazy\" width=\"100%\" height=\"{height}\" style=\"border:0;max-width:100%\" allow=\"cross-origin-isolated\"></iframe>",
        escape(src),
        escape(title)
    )
}

fn copy_text(text: String, done: RwSignal<Option<&'static str>>) {
    let Some(window) = web_sys::window() else { return };
    let promise = window.navigator().clipboard().write_text(&text);
    leptos::task::spawn_local(async move {
        let copied = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        done.try_set(Some(if copied { ui().copied } else { ui().copy_failed }));
    });
}

/// Offer `text` as a file download called `name`.
pub fn download(name: &str, mime: &str, text: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(anchor) = document.create_element("a").map(|a| a.unchecked_into::<web_sys::HtmlAnchorElement>()) {
        anchor.set_href(&url);
        anchor.set_download(name);
        anchor.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

fn csv_field(value: &str) -> String {
    if value.contains([',', '"', '\n']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_string()
    }
}

/// The results as CSV: one row per measured variant, each with the machine and the settings.
pub fn results_csv(experiment: &str, rows: &[ResultRow]) -> String {
    let m = machine();
    let (page, _, _) = links(experiment);
    let mut csv = String::from(
        "experiment,run,sweep,variant,workers,tasks,median_ms,min_ms,max_ms,speedup,result,correct,logical_processors,browser,isolated,url\n",
    );
    for r in rows {
        let fields = [
            experiment.to_string(),
            r.run.to_string(),
            r.sweep.to_string(),
            r.variant.clone(),
            r.workers.to_string(),
            r.tasks.to_string(),
            r.summary.median_ms.to_string(),
            r.summary.min_ms.to_string(),
            r.summary.max_ms.to_string(),
            r.speedup.map(|s| s.to_string()).unwrap_or_default(),
            r.check.value.clone(),
            r.check.ok.to_string(),
            m.logical_processors.to_string(),
            m.browser.clone().unwrap_or_default(),
            m.isolated.to_string(),
            page.clone(),
        ];
        csv.push_str(&fields.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(","));
        csv.push('\n');
    }
    csv
}

/// The results as JSON, with the machine, the settings and when they were exported.
pub fn results_json(experiment: &str, rows: &[ResultRow]) -> String {
    let m = machine();
    let (page, _, _) = links(experiment);
    let settings: serde_json::Map<String, serde_json::Value> = current_query()
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    let results: Vec<_> = rows
        .iter()
        .map(|r| {
            json!({
                "run": r.run, "sweep": r.sweep, "variant": r.variant, "kind": r.kind, "workers": r.workers, "tasks": r.tasks,
                "median_ms": r.summary.median_ms, "min_ms": r.summary.min_ms, "max_ms": r.summary.max_ms,
                "speedup": r.speedup, "result": r.check.value, "correct": r.check.ok,
            })
        })
        .collect();
    let document = json!({
        "experiment": experiment,
        "url": page,
        "settings": settings,
        "machine": { "logical_processors": m.logical_processors, "browser": m.browser, "cross_origin_isolated": m.isolated },
        "exported_at": js_sys::Date::new_0().to_iso_string().as_string(),
        "results": results,
    });
    serde_json::to_string_pretty(&document).unwrap_or_default()
}

/// One "Share and export" button that shows and hides Copy link, Embed (a dialog with iframe
/// snippets) and downloads of `rows` if given. Escape closes the list and returns to the button.
#[component]
pub fn ShareBar(experiment: &'static str, #[prop(optional)] rows: Option<Signal<Vec<ResultRow>>>) -> impl IntoView {
    let t = ui();
    let status = RwSignal::new(None::<&'static str>);
    let open = RwSignal::new(false);
    let toggle = NodeRef::<leptos::html::Button>::new();
    let dialog = NodeRef::<Dialog>::new();
    let snippets = RwSignal::new((String::new(), String::new(), String::new()));
    let title = chapter_of(experiment).map_or(t.site_name, |c| c.title);
    let open_dialog = move |_| {
        let (page, embed_experiment, embed_chapter) = links(experiment);
        let height = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(&format!("[data-experiment=\"{experiment}\"]")).ok().flatten())
            .map_or(900, |e| (e.get_bounding_client_rect().height() as u32 + 48).clamp(500, 2400));
        snippets.set((
            iframe_snippet(&embed_experiment, title, height),
            iframe_snippet(&embed_chapter, title, 1600),
            page,
        ));
        if let Some(dialog) = dialog.get() {
            let _ = dialog.show_modal();
        }
    };
    let close = move |_| {
        if let Some(dialog) = dialog.get() {
            dialog.close();
        }
    };
    let close_on_escape = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" && open.get_untracked() {
            ev.prevent_default();
            open.set(false);
            if let Some(button) = toggle.get() {
                let _ = button.focus();
            }
        }
    };
    let experiment_id = unique_id("embed-experiment");
    let chapter_id = unique_id("embed-chapter");
    let menu_id = unique_id("share-menu");
    let title_id = format!("{experiment_id}-title");
    let labelled_by = title_id.clone();
    let (experiment_label, chapter_label) = (experiment_id.clone(), chapter_id.clone());
    let has_rows = move || rows.is_some_and(|r| r.with(|r| !r.is_empty()));
    view! {
        <div class="share-bar" on:keydown=close_on_escape>
            <button
                type="button"
                class="share-toggle"
                node_ref=toggle
                aria-expanded=move || open.get().to_string()
                aria-controls=menu_id.clone()
                on:click=move |_| open.update(|o| *o = !*o)
            >
                {t.share_menu}
            </button>
            <span class="share-status" role="status">{move || status.get()}</span>
            <div id=menu_id class="share-actions" role="group" aria-label=t.share_label hidden=move || !open.get()>
                <button type="button" on:click=move |_| copy_text(links(experiment).0, status)>{t.copy_link}</button>
                <button type="button" on:click=open_dialog aria-haspopup="dialog">{t.embed}</button>
                {rows.map(|rows| view! {
                    <button type="button" disabled=move || !has_rows() on:click=move |_| {
                        download(&format!("{experiment}-results.csv"), "text/csv", &rows.with(|r| results_csv(experiment, r)));
                    }>{t.download_csv}</button>
                    <button type="button" disabled=move || !has_rows() on:click=move |_| {
                        download(&format!("{experiment}-results.json"), "application/json", &rows.with(|r| results_json(experiment, r)));
                    }>{t.download_json}</button>
                })}
            </div>
        </div>
        <dialog node_ref=dialog class="embed-dialog" aria-labelledby=labelled_by>
            <h3 id=title_id>{t.embed_title}</h3>
            <p>{t.embed_help}</p>
            <label for=experiment_label>{t.embed_experiment}</label>
            <textarea id=experiment_id readonly rows="4" prop:value=move || snippets.get().0 data-testid="embed-snippet"></textarea>
            <button type="button" on:click=move |_| copy_text(snippets.get_untracked().0, status)>{t.copy_snippet}</button>
            <label for=chapter_label>{t.embed_chapter}</label>
            <textarea id=chapter_id readonly rows="4" prop:value=move || snippets.get().1></textarea>
            <button type="button" on:click=move |_| copy_text(snippets.get_untracked().1, status)>{t.copy_snippet}</button>
            <p>
                {t.plain_link}" "
                <a href=move || snippets.get().2 target="_blank" rel="noopener" data-testid="plain-link">{move || snippets.get().2}</a>
            </p>
            <p class="help">{move || fill(t.embed_isolation_note, &[])}</p>
            <button type="button" class="primary" on:click=close>{t.close}</button>
        </dialog>
    }
}
