//! The results table every experiment fills: one row per measured variant, newest run last.

use crate::engine_client;
use crate::environment::machine;
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use experiments::catalog::ExperimentId;
use experiments::catalog::{Mode, Query};
use experiments::trust::Doubt;
use experiments::{Check, FirstAttempt, Startup, Summary, SAMPLE_FLOOR_MS};
use leptos::prelude::*;
use std::sync::Arc;

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
    /// Why this row should not be taken at face value, or how to read it (empty: nothing to say).
    pub doubts: Vec<Doubt>,
    /// Whether the row its speedup is measured against is itself doubtful.
    pub doubtful_baseline: bool,
    /// What it took to get ready before the timing.
    pub startup: Option<Startup>,
    /// How the row was timed: its raw samples and what they were taken with.
    pub timing: Timing,
    /// Its run's settings and circumstances.
    pub context: Arc<RunContext>,
}

/// What a run was measured with and where: every row carries its run's, so a download, a link or
/// a comparison reads each row's own settings, never the page's current ones.
#[derive(Clone, Debug, PartialEq)]
pub struct RunContext {
    pub experiment: ExperimentId,
    /// The panel's settings for the run, as the query pairs its address takes.
    pub settings: Vec<(String, String)>,
    /// How the engine ran it: `shared_memory` (real threads), `message_workers` (each its own
    /// memory, inputs copied) or `one_worker` (a page without shared memory).
    pub mode: &'static str,
    /// Logical processors the browser reported.
    pub logical_processors: u32,
    /// The engine build the page ran (`None` in a development build).
    pub build: Option<String>,
    /// When the run started, ISO 8601 in UTC.
    pub started_at: String,
}

/// The modes a [`RunContext`] names.
const MODES: [&str; 3] = ["shared_memory", "message_workers", "one_worker"];

impl RunContext {
    pub fn now(experiment: ExperimentId, settings: Query) -> RunContext {
        let mode = match engine_client::availability() {
            Ok(Mode::Threads) => MODES[0],
            _ if experiment.experiment().message_workers => MODES[1],
            _ => MODES[2],
        };
        RunContext {
            experiment,
            settings: settings.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
            mode,
            logical_processors: machine().logical_processors,
            build: engine_client::page_build(),
            started_at: js_sys::Date::new_0().to_iso_string().as_string().unwrap_or_default(),
        }
    }

    /// The settings as the query string of a link (`?workers=2&tasks=8`), or "" for none.
    pub fn query_string(&self) -> String {
        let pairs: Vec<String> = self.settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if pairs.is_empty() {
            String::new()
        } else {
            format!("?{}", pairs.join("&"))
        }
    }

    /// The mode named `name`, if it is one of [`MODES`].
    pub fn mode_named(name: &str) -> Option<&'static str> {
        MODES.into_iter().find(|m| *m == name)
    }
}

/// How a row was timed, beside its summary: nothing here is hidden from the reader.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timing {
    /// Whether the row is its run's baseline (the others' speedups are measured against it).
    pub baseline: bool,
    /// Every timed sample, in the order taken.
    pub samples_ms: Vec<f64>,
    /// The fewest and the most passes one sample ran back to back.
    pub passes: (u32, u32),
    /// Whether its samples were taken in turns with its baseline's.
    pub interleaved: bool,
    /// The lowest and highest speedup round by round, when taken in turns with the baseline.
    pub speedup_range: Option<(f64, f64)>,
    /// The first attempt, when the engine measured the row a second time.
    pub first_attempt: Option<FirstAttempt>,
}

impl ResultRow {
    /// Whether the row's speedup needs a caveat (a warning sign beside it).
    pub fn uncertain(&self) -> bool {
        self.doubts.iter().any(Doubt::warns) || (self.doubtful_baseline && self.speedup.is_some())
    }
}

/// One doubt in plain words.
fn doubt_words(doubt: &Doubt) -> String {
    let t = ui();
    match *doubt {
        Doubt::Busy => t.doubt_busy.to_string(),
        Doubt::BusyDuring => t.doubt_busy_during.to_string(),
        Doubt::Noisy { spread } => fill(t.doubt_noisy, &[("spread", &format::times(spread))]),
        Doubt::FewWorkers { used, possible, .. } => message(
            if doubt.small_tasks() { t.doubt_few_workers_small } else { t.doubt_few_workers_busy },
            &[("used", Arg::Count(used as u64)), ("possible", Arg::Count(possible as u64))],
        ),
        Doubt::BeyondCeiling { speedup, ceiling } => message(
            t.doubt_beyond_ceiling,
            &[("speedup", Arg::Text(&format::times(speedup))), ("ceiling", Arg::Count(ceiling as u64))],
        ),
        Doubt::AtCeiling { ceiling, .. } => message(t.doubt_at_ceiling, &[("ceiling", Arg::Count(ceiling as u64))]),
        Doubt::SlowWorkers { slowdown } => fill(t.doubt_slow_workers, &[("slowdown", &format::times(slowdown))]),
        Doubt::FrequentBarriers { barriers, every_us } => message(
            t.doubt_frequent_barriers,
            &[("barriers", Arg::Count(barriers.into())), ("every", Arg::Text(&format::decimal(every_us, 1)))],
        ),
        Doubt::SmallTasksVary { task_ms, spread } => fill(
            t.doubt_small_tasks_vary,
            &[("task", &format::decimal(task_ms * 1000.0, 0)), ("spread", &format::times(spread))],
        ),
    }
}

/// One doubt as the row's one-line note names it: its name and its figure.
fn doubt_short(doubt: &Doubt) -> String {
    let t = ui();
    match *doubt {
        Doubt::Busy => t.note_short_busy.to_string(),
        Doubt::BusyDuring => t.note_short_busy_during.to_string(),
        Doubt::Noisy { spread } => fill(t.note_short_noisy, &[("spread", &format::times(spread))]),
        Doubt::FewWorkers { used, possible, .. } => fill(
            t.note_short_few_workers,
            &[("used", &format::int(used.into())), ("possible", &format::int(possible.into()))],
        ),
        Doubt::BeyondCeiling { speedup, ceiling } => fill(
            t.note_short_beyond_ceiling,
            &[("speedup", &format::times(speedup)), ("ceiling", &format::int(ceiling.into()))],
        ),
        Doubt::AtCeiling { ceiling, .. } => fill(t.note_short_at_ceiling, &[("ceiling", &format::int(ceiling.into()))]),
        Doubt::SlowWorkers { slowdown } => fill(t.note_short_slow_workers, &[("slowdown", &format::times(slowdown))]),
        Doubt::FrequentBarriers { every_us, .. } => {
            fill(t.note_short_frequent_barriers, &[("every", &format::decimal(every_us, 1))])
        }
        Doubt::SmallTasksVary { task_ms, spread } => fill(
            t.note_short_small_tasks_vary,
            &[("task", &format::decimal(task_ms * 1000.0, 0)), ("spread", &format::times(spread))],
        ),
    }
}

/// A row's note in one short line: each doubt's name and figure, and whether it was measured
/// twice; the full sentences ([`doubt_text`], [`remeasured_text`]) open from it.
pub fn short_note(row: &ResultRow) -> String {
    let t = ui();
    let mut parts: Vec<String> = row.doubts.iter().map(doubt_short).collect();
    if row.doubtful_baseline && row.speedup.is_some() {
        parts.push(t.note_short_baseline.to_string());
    }
    if remeasured_text(row).is_some() {
        parts.push(t.note_short_remeasured.to_string());
    }
    parts.join(" · ")
}

/// The doubts of a row in plain words, or an empty string.
pub fn doubt_text(row: &ResultRow) -> String {
    let mut parts: Vec<String> = row.doubts.iter().map(doubt_words).collect();
    if row.doubtful_baseline && row.speedup.is_some() {
        parts.push(ui().doubt_baseline.to_string());
    }
    parts.join("; ")
}

/// What the first attempt of a row measured twice showed that set it aside, in one sentence; `None`
/// when it showed nothing of its own (the run was measured again for another row: the method line
/// says so once, not every row).
pub fn remeasured_text(row: &ResultRow) -> Option<String> {
    let first = row.timing.first_attempt.as_ref().filter(|first| !first.why.is_empty())?;
    let t = ui();
    let why: Vec<String> = first
        .why
        .iter()
        .map(|doubt| match *doubt {
            Doubt::Noisy { spread } => fill(t.first_noisy, &[("spread", &format::times(spread))]),
            Doubt::BusyDuring => t.first_busy_during.to_string(),
            Doubt::BeyondCeiling { speedup, ceiling } => message(
                t.first_beyond,
                &[("speedup", Arg::Text(&format::times(speedup))), ("ceiling", Arg::Count(ceiling as u64))],
            ),
            _ => doubt_words(doubt),
        })
        .collect();
    Some(fill(t.row_remeasured, &[("why", &why.join("; "))]))
}

/// What the latest run of `rows` found, in one sentence: its fastest row against that row's own
/// baseline (the loop of the same work: a run may hold several, each before the rows it is the
/// reference of). `ratio` is what the table's ratio column states: a time ratio is said as "took
/// N× as long", and so is a speedup below 1×.
pub fn found_text(rows: &[ResultRow], ratio: RowRatio, label: impl Fn(&ResultRow) -> String) -> Option<String> {
    let t = ui();
    let last_run = rows.last()?.run;
    let run: Vec<&ResultRow> = rows.iter().filter(|r| r.run == last_run).collect();
    // Each row with a speedup, beside the baseline row it was measured against.
    let mut compared: Vec<(&ResultRow, &ResultRow)> = Vec::new();
    let mut baseline = None;
    for &row in &run {
        if row.timing.baseline {
            baseline = Some(row);
        } else if let (Some(base), Some(_)) = (baseline, row.speedup) {
            compared.push((row, base));
        }
    }
    let (best, baseline) = compared
        .iter()
        .copied()
        .max_by(|(a, _), (b, _)| a.speedup.unwrap_or(0.0).total_cmp(&b.speedup.unwrap_or(0.0)))?;
    let speedup = best.speedup.filter(|s| s.is_finite() && *s > 0.0)?;
    let faster = speedup >= 1.0 && ratio == RowRatio::Speedup;
    let template = match (compared.len() > 1, faster) {
        (true, true) => t.results_found_best,
        (true, false) => t.results_found_best_slower,
        (false, true) => t.results_found_faster,
        (false, false) => t.results_found_slower,
    };
    let shown = if faster { speedup } else { 1.0 / speedup };
    let mut sentence = fill(
        template,
        &[
            ("run", &label(best)),
            ("variant", &best.variant),
            ("ratio", &format::times(shown)),
            ("baseline", &baseline.variant),
        ],
    );
    if best.uncertain() {
        sentence.push(' ');
        sentence.push_str(t.results_found_doubted);
    }
    Some(sentence)
}

/// How the latest run of `rows` was timed, in a sentence or two: the sample floor, the passes per
/// sample, whether its jobs took turns, and whether it was measured twice.
fn method_text(rows: &[ResultRow]) -> Option<String> {
    let t = ui();
    let last_run = rows.last()?.run;
    let run: Vec<&ResultRow> = rows.iter().filter(|r| r.run == last_run).collect();
    let least = run.iter().map(|r| r.timing.passes.0).min()?;
    let most = run.iter().map(|r| r.timing.passes.1).max()?;
    let mut sentences = Vec::new();
    if most > 1 {
        let passes = if least == most {
            format::int(most as u64)
        } else {
            fill(t.range_dash, &[("low", &format::int(least as u64)), ("high", &format::int(most as u64))])
        };
        sentences.push(fill(t.method_passes, &[("floor", &format::int(SAMPLE_FLOOR_MS as u64)), ("passes", &passes)]));
        if run.iter().any(|r| r.timing.interleaved) {
            sentences.push(t.method_turns.to_string());
        }
    }
    if run.iter().any(|r| r.timing.first_attempt.is_some()) {
        sentences.push(t.method_remeasured.to_string());
    }
    (!sentences.is_empty()).then(|| sentences.join(" "))
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
    let quiet = startups.iter().all(|s| s.quiet);
    // Jobs that mostly wait skip the warm-ups: no "0 rounds" to report then.
    if rounds > 0 || !quiet {
        let settle = if quiet { t.startup_settled } else { t.startup_not_settled };
        let ms = format::ms(settle_ms);
        parts.push(message(settle, &[("ms", Arg::Text(&ms)), ("rounds", Arg::Count(rounds as u64))]));
    }
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
    let found = move || rows.with(|rows| found_text(rows, ratio, run_label));
    view! {
        <p class="results-found" data-testid="results-found" aria-live="polite">{found}</p>
        <div class="table-scroll" tabindex="0">
            <table class="results" data-testid="results">
                <caption>{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t.col_run}</th>
                        <th scope="col">{t.col_variant}</th>
                        <th scope="col">{ratio_heading}</th>
                        <th scope="col" class="secondary">{t.col_workers}</th>
                        <th scope="col" class="secondary">{t.col_tasks}</th>
                        <th scope="col">{t.col_median_range}</th>
                        <th scope="col" class="check">
                            <span class="check-mark" aria-hidden="true">"✓"</span>
                            <span class="check-text">{t.col_check}</span>
                        </th>
                    </tr>
                </thead>
                <For each=move || rows.get() key=|row| row.key let:row>
                    <tbody class="result" data-testid="result">
                        <ResultRowView row ratio />
                    </tbody>
                </For>
                <Show when=move || rows.with(|r| r.is_empty())>
                    <tbody>
                        <tr class="empty"><td colspan=COLUMNS>{t.results_empty}</td></tr>
                    </tbody>
                </Show>
            </table>
        </div>
        <p class="method-line" data-testid="method-line">{move || rows.with(|rows| method_text(rows)).unwrap_or_default()}</p>
        <p class="startup-line" data-testid="startup-line">{move || rows.with(|rows| startup_text(rows)).unwrap_or_default()}</p>
    }
}

/// Columns of the results table (the notes under a row span them all).
const COLUMNS: &str = "7";

/// The run's label as the found sentence names it: "Run 2" or "Sweep 3".
fn run_label(row: &ResultRow) -> String {
    let t = ui();
    fill(if row.sweep { t.sweep_label } else { t.run_label }, &[("n", &format::int(row.run as u64))])
}

/// One row of the results table, and under it its notes when it has any.
#[component]
fn ResultRowView(row: ResultRow, ratio: RowRatio) -> impl IntoView {
    let t = ui();
    let speedup_cell = row.speedup.map(|s| format::times(ratio.of(s))).unwrap_or_else(|| "—".into());
    let speedup_value = row.speedup.map(|s| ratio.of(s).to_string()).unwrap_or_default();
    let speedup_range = row.timing.speedup_range.map(|(low, high)| {
        let (low, high) = (ratio.of(low), ratio.of(high));
        let (low, high) = if low <= high { (low, high) } else { (high, low) };
        let text = fill(t.range_dash, &[("low", &format::fixed(low, 2)), ("high", &format::fixed(high, 2))]);
        let label = fill(t.speedup_range_label, &[("range", &text)]);
        view! { <span class="spread" title=label.clone() aria-label=label>{text}</span> }
    });
    let median_range = (row.timing.samples_ms.len() > 1).then(|| {
        let text =
            fill(t.range_dash, &[("low", &format::ms(row.summary.min_ms)), ("high", &format::ms(row.summary.max_ms))]);
        let label = fill(t.median_range_label, &[("range", &text)]);
        view! { <span class="spread" title=label.clone() aria-label=label>{text}</span> }
    });
    let notes = doubt_text(&row);
    let short = short_note(&row);
    let remeasured = remeasured_text(&row);
    let has_notes = !notes.is_empty() || remeasured.is_some();
    let uncertain = row.uncertain();
    let samples = row.timing.samples_ms.iter().map(|ms| ms.to_string()).collect::<Vec<_>>().join(" ");
    let check_mark = if row.check.ok { "✓" } else { "✗" };
    view! {
        <tr
            data-variant=row.kind
            data-result=row.check.value.clone()
            data-doubts=row.doubts.iter().filter(|d| d.warns()).count()
            data-notes=row.doubts.len()
            data-varies=row.doubts.iter().any(Doubt::varies_between_runs).to_string()
            data-speedup=speedup_value
            data-workers=row.workers
            data-samples=samples
            data-remeasured=row.timing.first_attempt.is_some().to_string()
            class:wrong=!row.check.ok
            class:uncertain=uncertain
            class:has-notes=has_notes
        >
            <td class="num" data-testid="row-run" data-col="run" data-sweep=row.sweep.to_string()>{run_cell(&row)}</td>
            <th scope="row">{row.variant.clone()}</th>
            <td class="num ratio" data-col="speedup">
                <span class="value">{speedup_cell}</span>
                {uncertain.then(|| view! { <span class="doubt-mark" title=t.doubt_mark_label aria-label=t.doubt_mark_label>" ⚠"</span> })}
                {speedup_range}
            </td>
            <td class="num secondary" data-col="workers">{format::int(row.workers.into())}</td>
            <td class="num secondary" data-col="tasks">{format::int(row.tasks.into())}</td>
            <td class="num" data-col="median"><span class="value">{format::ms(row.summary.median_ms)}</span>{median_range}</td>
            <td class="check" data-col="check">
                <span class="check-mark" aria-hidden="true">{check_mark}</span>
                <span class="check-text">{check_cell(&row.check)}</span>
            </td>
        </tr>
        {has_notes.then(|| view! {
            <tr class="row-note" class:uncertain=uncertain>
                <td colspan=COLUMNS data-testid="row-note">
                    // One line by default, the full sentences a click or a key away (and in downloads).
                    <details>
                        <summary data-testid="row-note-short" title=t.note_open_label>
                            {uncertain.then_some("⚠ ")}{short}
                        </summary>
                        {(!notes.is_empty()).then(|| view! { <p class="doubts">{notes}</p> })}
                        {remeasured.map(|text| view! { <p class="remeasured" data-testid="row-remeasured">{text}</p> })}
                    </details>
                </td>
            </tr>
        })}
    }
}
