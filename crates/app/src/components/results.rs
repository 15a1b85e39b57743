//! The results table every experiment fills: one row per measured variant, newest run last.

use crate::format;
use crate::i18n::{fill, ui};
use experiments::{Check, Summary};
use leptos::prelude::*;

/// One measured variant of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultRow {
    /// Unique across the page's lifetime (keys the table rows).
    pub key: u64,
    /// The run number the reader sees (1, 2, …).
    pub run: u32,
    /// Stable id of the variant for tests and styling ("sequential", "tasks").
    pub kind: &'static str,
    /// The variant as the reader sees it.
    pub variant: String,
    pub workers: u32,
    pub tasks: u32,
    pub summary: Summary,
    /// Sequential median over this median; `None` when there is no baseline.
    pub speedup: Option<f64>,
    pub check: Check,
}

fn check_cell(check: &Check) -> String {
    let t = ui();
    if check.ok {
        let value = check.value.parse().map(format::int).unwrap_or_else(|_| shortened(&check.value));
        format!("{value} {} ✓", t.check_ok)
    } else {
        fill(t.check_wrong, &[("expected", &check.expected)])
    }
}

/// A long value (a SHA-256 digest) cut to its first 12 characters: the panel shows it whole elsewhere.
fn shortened(value: &str) -> String {
    const SHOWN: usize = 12;
    if value.chars().count() > 2 * SHOWN {
        format!("{}…", value.chars().take(SHOWN).collect::<String>())
    } else {
        value.to_string()
    }
}

#[component]
pub fn ResultsTable(rows: Signal<Vec<ResultRow>>) -> impl IntoView {
    let t = ui();
    view! {
        <div class="table-scroll">
            <table class="results" data-testid="results">
                <caption>{t.results_caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t.col_run}</th>
                        <th scope="col">{t.col_variant}</th>
                        <th scope="col">{t.col_workers}</th>
                        <th scope="col">{t.col_tasks}</th>
                        <th scope="col">{t.col_median}</th>
                        <th scope="col">{t.col_min}</th>
                        <th scope="col">{t.col_max}</th>
                        <th scope="col">{t.col_speedup}</th>
                        <th scope="col">{t.col_check}</th>
                    </tr>
                </thead>
                <tbody>
                    <Show when=move || rows.with(|r| r.is_empty())>
                        <tr class="empty"><td colspan="9">{t.results_empty}</td></tr>
                    </Show>
                    <For each=move || rows.get() key=|row| row.key let:row>
                        <tr data-variant=row.kind data-result=row.check.value.clone() class:wrong=!row.check.ok>
                            <td class="num">{row.run}</td>
                            <th scope="row">{row.variant.clone()}</th>
                            <td class="num">{row.workers}</td>
                            <td class="num">{row.tasks}</td>
                            <td class="num">{format::ms(row.summary.median_ms)}</td>
                            <td class="num">{format::ms(row.summary.min_ms)}</td>
                            <td class="num">{format::ms(row.summary.max_ms)}</td>
                            <td class="num">{row.speedup.map(format::times).unwrap_or_else(|| "—".into())}</td>
                            <td>{check_cell(&row.check)}</td>
                        </tr>
                    </For>
                </tbody>
            </table>
        </div>
    }
}
