//! Sharing an experiment: copy a link with the current settings, embed it in a course page, and
//! download its results (with the machine that measured them) as CSV or JSON. The four actions sit
//! behind one disclosure button ("Share and export"), so on a phone they take one button's room.

use super::controls::unique_id;
use super::results::{doubt_text, ResultRow, RunContext};
use crate::content;
use crate::environment::machine;
use crate::i18n::{fill, ui};
use experiments::catalog::ExperimentId;
use leptos::html::Dialog;
use leptos::prelude::*;
use serde_json::json;
use wasm_bindgen::JsCast;

/// The current query string, with its leading `?`, or "": the settings of a panel with no rows yet.
fn current_query() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// The chapter a named experiment belongs to.
pub fn chapter_of(experiment: ExperimentId) -> Option<&'static content::ChapterText> {
    content::chapters().find(|c| c.experiments.contains(&experiment))
}

/// Links for an experiment with the settings of `query` (`?…` or ""): the chapter, the embeddable
/// experiment, the embeddable chapter.
fn links_with(experiment: ExperimentId, query: &str) -> (String, String, String) {
    let root = crate::links::language_root_url();
    let slug = chapter_of(experiment).map_or("", |c| c.slug);
    (
        format!("{root}chapters/{slug}{query}"),
        format!("{root}embed/experiments/{experiment}{query}"),
        format!("{root}embed/chapters/{slug}{query}"),
    )
}

/// Links for an experiment with the settings of its latest run (`rows`' last row), or the page's
/// while it has none: a link never names settings its rows were not measured with.
fn links(experiment: ExperimentId, rows: Option<Signal<Vec<ResultRow>>>) -> (String, String, String) {
    let latest = rows.and_then(|rows| rows.with_untracked(|r| r.last().map(|row| row.context.query_string())));
    links_with(experiment, &latest.unwrap_or_else(current_query))
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

/// One CSV cell: quoted when it holds a separator, a quote or a line break; and a cell that a
/// spreadsheet would take for a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage
/// return) is prefixed with `'`, so opening a download can never run one (a variant's words or a
/// browser's name are not ours to trust once a file travels).
pub fn csv_field(value: &str) -> String {
    let neutral =
        if value.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{value}") } else { value.to_string() };
    if neutral.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", neutral.replace('"', "\"\""))
    } else {
        neutral
    }
}

/// A row's settings as a JSON object.
fn settings_json(context: &RunContext) -> serde_json::Value {
    let map: serde_json::Map<String, serde_json::Value> =
        context.settings.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    serde_json::Value::Object(map)
}

/// The page link of a row: its chapter with its own run's settings.
fn row_link(experiment: ExperimentId, context: &RunContext) -> String {
    links_with(experiment, &context.query_string()).0
}

/// The results as CSV: one row per measured variant, each with the machine and its own run's
/// settings, mode, build and time, and every repetition.
pub fn results_csv(experiment: ExperimentId, rows: &[ResultRow]) -> String {
    let m = machine();
    let mut csv = String::from(
        "experiment,run,sweep,variant,workers,tasks,median_ms,min_ms,max_ms,speedup,result,correct,samples_ms,\
         first_attempt_ms,notes,settings,mode,logical_processors,browser,isolated,build,measured_at,url\n",
    );
    for r in rows {
        let samples = |list: &[f64]| list.iter().map(f64::to_string).collect::<Vec<_>>().join(" ");
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
            samples(&r.timing.samples_ms),
            r.timing.first_attempt.as_ref().map(|f| samples(&f.samples_ms)).unwrap_or_default(),
            doubt_text(r),
            r.context.query_string().trim_start_matches('?').to_string(),
            r.context.mode.to_string(),
            r.context.logical_processors.to_string(),
            m.browser.clone().unwrap_or_default(),
            m.isolated.to_string(),
            r.context.build.clone().unwrap_or_default(),
            r.context.started_at.clone(),
            row_link(experiment, &r.context),
        ];
        csv.push_str(&fields.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(","));
        csv.push('\n');
    }
    csv
}

/// The results as JSON, with the machine and when they were exported; every row with its own run's
/// settings, mode, build and time and its raw repetitions. The file-wide `settings` (what files
/// before rows carried their own had) is written only when every row shares them.
pub fn results_json(experiment: ExperimentId, rows: &[ResultRow]) -> String {
    let m = machine();
    let results: Vec<_> = rows
        .iter()
        .map(|r| {
            json!({
                "run": r.run, "sweep": r.sweep, "variant": r.variant, "kind": r.kind, "workers": r.workers, "tasks": r.tasks,
                "median_ms": r.summary.median_ms, "min_ms": r.summary.min_ms, "max_ms": r.summary.max_ms,
                "speedup": r.speedup, "result": r.check.value, "correct": r.check.ok,
                "samples_ms": r.timing.samples_ms,
                "first_attempt_ms": r.timing.first_attempt.as_ref().map(|f| f.samples_ms.clone()),
                "notes": doubt_text(r),
                "settings": settings_json(&r.context),
                "mode": r.context.mode, "logical_processors": r.context.logical_processors,
                "build": r.context.build, "measured_at": r.context.started_at,
                "url": row_link(experiment, &r.context),
            })
        })
        .collect();
    let mut document = serde_json::Map::new();
    document.insert("experiment".into(), json!(experiment));
    if let Some(last) = rows.last() {
        document.insert("url".into(), json!(row_link(experiment, &last.context)));
        if rows.iter().all(|r| r.context.settings == last.context.settings) {
            document.insert("settings".into(), settings_json(&last.context));
        }
    }
    document.insert(
        "machine".into(),
        json!({ "logical_processors": m.logical_processors, "browser": m.browser, "cross_origin_isolated": m.isolated }),
    );
    document.insert("exported_at".into(), json!(js_sys::Date::new_0().to_iso_string().as_string()));
    document.insert("results".into(), json!(results));
    serde_json::to_string_pretty(&serde_json::Value::Object(document)).unwrap_or_default()
}

/// One "Share and export" button that shows and hides Copy link, Embed (a dialog with iframe
/// snippets) and downloads of `rows` if given. Escape closes the list and returns to the button.
#[component]
pub fn ShareBar(experiment: ExperimentId, #[prop(optional)] rows: Option<Signal<Vec<ResultRow>>>) -> impl IntoView {
    let t = ui();
    let status = RwSignal::new(None::<&'static str>);
    let open = RwSignal::new(false);
    let toggle = NodeRef::<leptos::html::Button>::new();
    let dialog = NodeRef::<Dialog>::new();
    let snippets = RwSignal::new((String::new(), String::new(), String::new()));
    let title = chapter_of(experiment).map_or(t.site_name, |c| c.title);
    let open_dialog = move |_| {
        let (page, embed_experiment, embed_chapter) = links(experiment, rows);
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
    let close_on_escape = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Escape" && open.get_untracked() {
            ev.prevent_default();
            open.set(false);
            if let Some(button) = toggle.get() {
                let _ = button.focus();
            }
        }
    };
    let menu_id = unique_id("share-menu");
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
                <button type="button" on:click=move |_| copy_text(links(experiment, rows).0, status)>{t.copy_link}</button>
                <button type="button" on:click=open_dialog aria-haspopup="dialog">{t.embed}</button>
                {rows.map(|rows| view! {
                    <button type="button" disabled=move || !has_rows() on:click=move |_| {
                        download(&format!("{experiment}-results.csv"), "text/csv", &rows.with(|r| results_csv(experiment, r)));
                        super::kept::downloaded(experiment);
                    }>{t.download_csv}</button>
                    <button type="button" disabled=move || !has_rows() on:click=move |_| {
                        download(&format!("{experiment}-results.json"), "application/json", &rows.with(|r| results_json(experiment, r)));
                        super::kept::downloaded(experiment);
                    }>{t.download_json}</button>
                })}
            </div>
        </div>
        {embed_dialog(dialog, snippets, status)}
    }
}

/// The embed dialog: the iframe snippets of the experiment and of its chapter, and the plain link.
fn embed_dialog(
    dialog: NodeRef<Dialog>,
    snippets: RwSignal<(String, String, String)>,
    status: RwSignal<Option<&'static str>>,
) -> impl IntoView {
    let t = ui();
    let close = move |_| {
        if let Some(dialog) = dialog.get() {
            dialog.close();
        }
    };
    let experiment_id = unique_id("embed-experiment");
    let chapter_id = unique_id("embed-chapter");
    let title_id = format!("{experiment_id}-title");
    let labelled_by = title_id.clone();
    let (experiment_label, chapter_label) = (experiment_id.clone(), chapter_id.clone());
    view! {
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

#[cfg(test)]
mod tests {
    use super::csv_field;

    #[test]
    fn a_cell_a_spreadsheet_would_run_is_neutralised() {
        assert_eq!(csv_field("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"");
        assert_eq!(csv_field("+1"), "'+1");
        assert_eq!(csv_field("-1+2"), "'-1+2");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_field("\tx"), "'\tx");
        assert_eq!(csv_field("\rx"), "\"'\rx\"");
        // Plain cells stay as they are; separators are quoted.
        assert_eq!(csv_field("1.5"), "1.5");
        assert_eq!(csv_field("8 tasks, 2 workers"), "\"8 tasks, 2 workers\"");
        assert_eq!(csv_field(""), "");
    }
}
