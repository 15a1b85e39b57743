//! The results table every experiment fills: one row per measured variant, newest run last.

use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use experiments::trust::Doubt;
use experiments::{Check, Startup, Summary};
use leptos::prelude::*;

/// One measured variant of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultRow {
    /// Unique across the page's lifetime (keys the table rows).
    pub key: u64,
    /// The run number the reader sees (1, 2, …); runs and sweeps share the numbering.
    pub run: u32,
    /// Whether the row is a point of a sweep (its run is a sweep) rather than of a plain run.
    pub sweep: bool,
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
    /// Why this row should not be taken at face value (empty: no reason found).
    pub doubts: Vec<Doubt>,
    /// Whether the row its speedup is measured against is itself doubtful.
    pub doubtful_baseline: bool,
    /// What it took to get ready before the timing.
    pub startup: Option<Startup>,
}

impl ResultRow {
    /// Whether the row's speedup needs a caveat.
    pub fn uncertain(&self) -> bool {
        !self.doubts.is_empty() || (self.doubtful_baseline && self.speedup.is_some())
    }
}

/// The doubts of a row in plain words, or an empty string.
pub fn doubt_text(row: &ResultRow) -> String {
    let t = ui();
    let mut parts: Vec<String> = row
        .doubts
        .iter()
        .map(|doubt| match *doubt {
            Doubt::Busy => t.doubt_busy.to_string(),
            Doubt::BusyDuring => t.doubt_busy_during.to_string(),
            Doubt::Noisy { spread } => fill(t.doubt_noisy, &[("spread", &format::times(spread))]),
            Doubt::FewWorkers { used, possible, .. } => message(
                if doubt.small_tasks() { t.doubt_few_workers_small } else { t.doubt_few_workers_busy },
                &[("used", Arg::Count(used as u64)), ("possible", Arg::Count(possible as u64))],
            ),
        })
        .collect();
    if row.doubtful_baseline && row.speedup.is_some() {
        parts.push(t.doubt_baseline.to_string());
    }
    parts.join("; ")
}

/// What the latest run of `rows` took before its timing, in one sentence.
fn startup_text(rows: &[ResultRow]) -> Option<String> {
    let t = ui();
    let last_run = rows.last()?.run;
    let startups: Vec<Startup> = rows.iter().filter(|r| r.run == last_run).filter_map(|r| r.startup).collect();
    startups.first()?;
    let workers_ms: f64 = startups.iter().filter_map(|s| s.workers_ms).sum();
    let settle_ms: f64 = startups.iter().map(|s| s.settle_ms).sum();
    let rounds: u32 = startups.iter().map(|s| s.warm_up_rounds).sum();
    let mut parts = Vec::new();
    parts.push(if workers_ms > 0.0 {
        fill(t.startup_workers, &[("ms", &format::ms(workers_ms))])
    } else {
        t.startup_workers_kept.to_string()
    });
    let settle = if startups.iter().all(|s| s.quiet) { t.startup_settled } else { t.startup_not_settled };
    parts.push(message(settle, &[("ms", Arg::Text(&format::ms(settle_ms))), ("rounds", Arg::Count(rounds as u64))]));
    Some(fill(t.startup_line, &[("parts", &parts.join("; "))]))
}

/// The run column: the run's number, marked when the run was a sweep.
fn run_cell(row: &ResultRow) -> String {
    if row.sweep {
        fill(ui().run_cell_sweep, &[("n", &format::int(row.run as u64))])
    } else {
        format::int(row.run as u64)
    }
}

fn check_cell(check: &Check) -> String {
    let t = ui();
    if check.ok {
        let value = check.value.parse().map(format::int).unwrap_or_else(|_| shortened(&check.value));
        fill(t.check_passed, &[("value", &value)])
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

/// What a results table's ratio column states about each row against its run's baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RowRatio {
    /// Baseline median ÷ this median: above 1× is faster (most experiments).
    #[default]
    Speedup,
    /// This median ÷ the baseline median: above 1× is slower, as a chart of overhead draws it.
    TimeOverBaseline,
}

impl RowRatio {
    /// The column's value for a row whose speedup over its baseline is `speedup`.
    pub fn of(self, speedup: f64) -> f64 {
        match self {
            RowRatio::Speedup => speedup,
            RowRatio::TimeOverBaseline => 1.0 / speedup,
        }
    }
}

#[component]
pub fn ResultsTable(
    rows: Signal<Vec<ResultRow>>,
    /// The ratio column's metric; speedup unless the panel's chart states the inverse.
    #[prop(optional)]
    ratio: RowRatio,
) -> impl IntoView {
    let t = ui();
    let (caption, ratio_heading) = match ratio {
        RowRatio::Speedup => (t.results_caption, t.col_speedup),
        RowRatio::TimeOverBaseline => (t.results_caption_overhead, t.axis_overhead),
    };
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="results" data-testid="results">
                <caption>{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t.col_run}</th>
                        <th scope="col">{t.col_variant}</th>
                        <th scope="col">{t.col_workers}</th>
                        <th scope="col">{t.col_tasks}</th>
                        <th scope="col">{t.col_median}</th>
                        <th scope="col">{t.col_min}</th>
                        <th scope="col">{t.col_max}</th>
                        <th scope="col">{ratio_heading}</th>
                        <th scope="col">{t.col_check}</th>
                        <th scope="col">{t.col_note}</th>
                    </tr>
                </thead>
                <tbody>
                    <Show when=move || rows.with(|r| r.is_empty())>
                        <tr class="empty"><td colspan="10">{t.results_empty}</td></tr>
                    </Show>
                    <For each=move || rows.get() key=|row| row.key let:row>
                        <tr
                            data-variant=row.kind
                            data-result=row.check.value.clone()
                            data-doubts=row.doubts.len()
                            class:wrong=!row.check.ok
                            class:uncertain=row.uncertain()
                        >
                            <td class="num" data-testid="row-run" data-sweep=row.sweep.to_string()>{run_cell(&row)}</td>
                            <th scope="row">{row.variant.clone()}</th>
                            <td class="num">{format::int(row.workers.into())}</td>
                            <td class="num">{format::int(row.tasks.into())}</td>
                            <td class="num">{format::ms(row.summary.median_ms)}</td>
                            <td class="num">{format::ms(row.summary.min_ms)}</td>
                            <td class="num">{format::ms(row.summary.max_ms)}</td>
                            <td class="num">
                                {row.speedup.map(|s| format::times(ratio.of(s))).unwrap_or_else(|| "—".into())}
                                {row.uncertain().then(|| view! { <span class="doubt-mark" title=t.doubt_mark_label aria-label=t.doubt_mark_label>" ⚠"</span> })}
                            </td>
                            <td class="check">{check_cell(&row.check)}</td>
                            <td class="note" data-testid="row-note">{doubt_text(&row)}</td>
                        </tr>
                    </For>
                </tbody>
            </table>
        </div>
        <p class="startup-line" data-testid="startup-line">{move || rows.with(|rows| startup_text(rows)).unwrap_or_default()}</p>
    }
}
