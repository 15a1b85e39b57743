//! Predict, then run: before the first run a panel asks an optional question with a few answers;
//! after the run one sentence sets the reader's answer against what was measured.
//!
//! Which answer a measurement falls in is decided by the pure functions below (thresholds in their
//! comments, tested natively). The reader's choice is kept in `localStorage` (one key per
//! experiment) and nowhere else. A course author turns the questions off with `?predict=0`.

use crate::components::controls::unique_id;
use crate::components::results::ResultRow;
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use experiments::catalog::ExperimentId;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

/// The URL parameter that turns the questions off (`predict=0`).
pub const PARAMETER: &str = "predict";

/// What a run measured, as the comparison needs it: the answer it falls in, and the number shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub option: usize,
    pub value: String,
}

// ---------------------------------------------------------------------------------------------
// Pure decisions: which answer a measured number falls in. `None` for a number that is not finite.
// ---------------------------------------------------------------------------------------------

/// Whether a page asks for predictions, given its `predict` parameter: off only for `0`, `false`,
/// `no` or `off` (any case); absent or any other value leaves them on.
pub fn enabled(raw: Option<&str>) -> bool {
    !matches!(raw.map(|r| r.trim().to_ascii_lowercase()).as_deref(), Some("0" | "false" | "no" | "off"))
}

/// A stored answer, if it names one of `options` answers.
pub fn stored_choice(raw: Option<&str>, options: usize) -> Option<usize> {
    raw?.trim().parse::<usize>().ok().filter(|&i| i < options)
}

/// Speedup against the worker count `workers` (k): 0 below 0.9× (slower), 1 from 0.9× to under 1.5×
/// (about the same), 2 from 1.5× to at most 1.25·k (faster, up to about k×), 3 above 1.25·k (clearly
/// more than k×: only possible when tasks wait). With k = 1, band 2 is empty.
pub fn speedup_against_workers(speedup: f64, workers: u32) -> Option<usize> {
    let ceiling = (1.25 * workers.max(1) as f64).max(1.5);
    speedup.is_finite().then_some(match speedup {
        s if s < 0.9 => 0,
        s if s < 1.5 => 1,
        s if s <= ceiling => 2,
        _ => 3,
    })
}

/// Which of two runs finished first, from the speedup of the k-worker run over the one-worker run:
/// 0 the one-worker run (speedup below 1/1.1, it was more than 10 % faster), 1 the k-worker run
/// (speedup above 1.1), 2 about the same (within 10 % either way).
pub fn first_to_finish(speedup: f64) -> Option<usize> {
    speedup.is_finite().then_some(match speedup {
        s if s > 1.1 => 1,
        s if s < 1.0 / 1.1 => 0,
        _ => 2,
    })
}

/// A task's time against the loop's (time over the loop's time): 0 below 0.9× (less than the loop),
/// 1 from 0.9× to under 1.5× (about the loop), 2 from 1.5× to under 5× (a few times), 3 from 5×
/// (many times).
pub fn overhead_band(time_over_loop: f64) -> Option<usize> {
    time_over_loop.is_finite().then_some(match time_over_loop {
        r if r < 0.9 => 0,
        r if r < 1.5 => 1,
        r if r < 5.0 => 2,
        _ => 3,
    })
}

/// Bytes per parked task: 0 under 1 KiB, 1 from 1 to under 10 KiB, 2 from 10 to under 100 KiB,
/// 3 from 100 KiB.
pub fn memory_band(bytes: f64) -> Option<usize> {
    const KIB: f64 = 1024.0;
    (bytes.is_finite() && bytes >= 0.0).then_some(match bytes {
        b if b < KIB => 0,
        b if b < 10.0 * KIB => 1,
        b if b < 100.0 * KIB => 2,
        _ => 3,
    })
}

/// A thread switch's cost over a task switch's, as the panel shows it (one decimal): 0 below 0.9
/// (a task switch costs more), 1 from 0.9 to under 1.5 (about the same), 2 from 1.5 to under 10 (a
/// few times cheaper), 3 from 10 (ten times cheaper or more).
pub fn switch_band(thread_over_task: f64) -> Option<usize> {
    thread_over_task.is_finite().then_some(match thread_over_task {
        r if r < 0.9 => 0,
        r if r < 1.5 => 1,
        r if r < 10.0 => 2,
        _ => 3,
    })
}

/// Which server answered more requests per second, from the goroutine server's rate over the
/// thread pool's: 0 the thread pool (ratio below 1/1.1), 1 the goroutines (above 1.1), 2 about the
/// same (within 10 %).
pub fn qps_winner(tasks_over_pool: f64) -> Option<usize> {
    first_to_finish(tasks_over_pool)
}

/// How many of `total` tasks were stolen: 0 none, 1 some but fewer than half, 2 half or more.
pub fn steal_band(stolen: u32, total: u32) -> Option<usize> {
    (total > 0).then_some(match stolen {
        0 => 0,
        s if 2 * s < total => 1,
        _ => 2,
    })
}

/// The rows of the latest run that was not a sweep.
pub fn latest_plain_run(rows: &[ResultRow]) -> &[ResultRow] {
    let Some(run) = rows.iter().rev().find(|r| !r.sweep).map(|r| r.run) else { return &[] };
    let start = rows.iter().position(|r| r.run == run).unwrap_or(rows.len());
    let end = rows.iter().rposition(|r| r.run == run).map_or(start, |e| e + 1);
    &rows[start..end]
}

/// The rows of the latest run, sweep or not.
pub fn latest_run(rows: &[ResultRow]) -> &[ResultRow] {
    let Some(run) = rows.last().map(|r| r.run) else { return &[] };
    let start = rows.iter().position(|r| r.run == run).unwrap_or(rows.len());
    &rows[start..]
}

/// The speedup of the first row of `kind` among `rows` that has one.
pub(crate) fn speedup_of(rows: &[ResultRow], kind: &str) -> Option<(f64, u32)> {
    rows.iter().find(|r| r.kind == kind).and_then(|r| r.speedup.map(|s| (s, r.workers)))
}

/// The speedup of the row of `kind` with `workers` workers, else of the first row of `kind` (a run
/// of several worker counts answers the question asked about the slider's count).
fn speedup_with(rows: &[ResultRow], kind: &str, workers: u32) -> Option<(f64, u32)> {
    rows.iter()
        .find(|r| r.kind == kind && r.workers == workers)
        .and_then(|r| r.speedup.map(|s| (s, r.workers)))
        .or_else(|| speedup_of(rows, kind))
}

// ---------------------------------------------------------------------------------------------
// The component.
// ---------------------------------------------------------------------------------------------

fn storage_key(experiment: ExperimentId) -> String {
    format!("concurrency-lab.predict.{experiment}")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// An optional question before the run, and after it one sentence comparing the answer with the
/// measurement. `measured` is `None` until a run has measured something. A `model` (a simulation
/// recomputed as the reader moves the controls) never locks the answer. `quotes` says where the
/// panel shows the number the sentence quotes (`data-quotes`, read by the end-to-end tests):
/// `row:VARIANT` or `row:VARIANT@WORKERS` (the first results row of that variant), `testid:ID`
/// (an element of the panel), or `steals` (the replay's own count).
#[component]
pub fn Prediction(
    experiment: ExperimentId,
    #[prop(into)] question: Signal<String>,
    #[prop(into)] options: Signal<Vec<String>>,
    #[prop(into)] measured: Signal<Option<Measured>>,
    #[prop(optional)] model: bool,
    #[prop(optional, into)] quotes: Option<String>,
) -> impl IntoView {
    if !enabled(use_query_map().get_untracked().get(PARAMETER).as_deref()) {
        return ().into_any();
    }
    let t = ui();
    let key = storage_key(experiment);
    let option_count = options.with_untracked(Vec::len);
    let saved = storage().and_then(|s| s.get_item(&key).ok().flatten());
    let chosen = RwSignal::new(stored_choice(saved.as_deref(), option_count));
    let choose = move |index: usize| {
        chosen.set(Some(index));
        if let Some(storage) = storage() {
            let _ = storage.set_item(&storage_key(experiment), &index.to_string());
        }
    };
    // After a measured run the answer stands; a reader who gave none sees nothing extra.
    let locked = Signal::derive(move || !model && measured.with(Option::is_some));
    let hidden = move || locked.get() && chosen.get().is_none();
    let group = unique_id("predict");
    let sentence = move || {
        let (choice, measured) = (chosen.get()?, measured.get()?);
        let names = options.get();
        let template = if model { t.predict_result_model } else { t.predict_result };
        let verdict = if choice == measured.option { t.predict_right } else { t.predict_wrong };
        let text = fill(
            template,
            &[("chosen", names.get(choice)?), ("value", &measured.value), ("measured", names.get(measured.option)?)],
        );
        Some((choice, measured.option, format!("{text} {verdict}")))
    };
    view! {
        <div class="prediction" data-testid="prediction" data-quotes=quotes hidden=hidden>
            <fieldset class="prediction-question" disabled=move || locked.get()>
                <legend>
                    <span class="prediction-kicker">{t.predict_kicker}</span>
                    " "
                    <span data-testid="prediction-question">{move || question.get()}</span>
                </legend>
                <div class="prediction-options">
                    {move || options.get().into_iter().enumerate().map(|(index, name)| {
                        let group = group.clone();
                        view! {
                            <label>
                                <input
                                    type="radio"
                                    name=group
                                    value=index
                                    prop:checked=move || chosen.get() == Some(index)
                                    on:change=move |_| choose(index)
                                />
                                {name}
                            </label>
                        }
                    }).collect_view()}
                </div>
                <Show when=move || chosen.with(Option::is_none) && !locked.get()>
                    <p class="help">{t.predict_help}</p>
                </Show>
            </fieldset>
            <p
                class="prediction-result"
                role="status"
                data-testid="prediction-result"
                data-chosen=move || sentence().map(|(c, _, _)| c)
                data-measured=move || sentence().map(|(_, m, _)| m)
                data-match=move || sentence().map(|(c, m, _)| (c == m).to_string())
            >
                {move || sentence().map(|(_, _, text)| text)}
            </p>
        </div>
    }
    .into_any()
}

// ---------------------------------------------------------------------------------------------
// The shared shapes of a question; each panel wires its own (`fn prediction` in `panels/<name>.rs`)
// from the signals it already has.
// ---------------------------------------------------------------------------------------------

pub(crate) fn strings(options: &[&'static str]) -> Vec<String> {
    options.iter().map(|s| s.to_string()).collect()
}

pub(crate) fn with_workers(options: &[&'static str], k: u32) -> Vec<String> {
    options.iter().map(|s| message(s, &[("k", Arg::Count(k as u64))])).collect()
}

pub(crate) fn speedup_value(speedup: f64) -> String {
    fill(ui().predict_value_speedup, &[("x", &format::times(speedup))])
}

/// A speedup question of work that only computes; `kind` names the row measured. Its bands name
/// the most that row's workers can give on this machine, the least of its workers and the logical
/// processors ([`speedup_against_workers`]), so no answer offered suggests more parallelism than
/// the machine has.
pub(crate) fn speedup_question(
    experiment: ExperimentId,
    question: Signal<String>,
    rows: Signal<Vec<ResultRow>>,
    kind: &'static str,
    workers: RwSignal<u64>,
) -> AnyView {
    let cores = crate::environment::machine().logical_processors.max(1);
    let measured = Signal::derive(move || {
        rows.with(|rows| speedup_with(latest_plain_run(rows), kind, workers.get() as u32)).and_then(|(s, k)| {
            speedup_against_workers(s, k.min(cores)).map(|option| Measured { option, value: speedup_value(s) })
        })
    });
    // The bands name the worker count of the run once there is one, else the slider's.
    let options = Signal::derive(move || {
        let k = rows
            .with(|rows| speedup_with(latest_plain_run(rows), kind, workers.get() as u32).map(|(_, k)| k))
            .unwrap_or(workers.get() as u32);
        with_workers(&ui().predict_workers_options, k.min(cores))
    });
    let quotes = format!("row:{kind}");
    view! { <Prediction experiment question options measured quotes /> }.into_any()
}

/// A speedup question of work that waits, whose bands depend on the worker count
/// ([`speedup_against_workers`]): waiting tasks can beat the workers, so the bands name at least
/// 2× (on one worker, "faster, up to about 1×" would be an empty band beside "about the same").
pub(crate) fn workers_question(
    experiment: ExperimentId,
    question: Signal<String>,
    rows: Signal<Vec<ResultRow>>,
    workers: RwSignal<u64>,
) -> AnyView {
    let measured = Signal::derive(move || {
        rows.with(|rows| speedup_of(latest_plain_run(rows), "goroutines")).and_then(|(s, k)| {
            speedup_against_workers(s, k.max(2)).map(|option| Measured { option, value: speedup_value(s) })
        })
    });
    // The bands name the worker count of the run once there is one, else the slider's.
    let options = Signal::derive(move || {
        let k = rows
            .with(|rows| speedup_of(latest_plain_run(rows), "goroutines").map(|(_, k)| k))
            .unwrap_or(workers.get() as u32);
        with_workers(&ui().predict_workers_options, k.max(2))
    });
    view! { <Prediction experiment question options measured quotes="row:goroutines" /> }.into_any()
}

/// The tasks a recorded scheduler trace shows stolen (each counted once), and all its tasks.
pub fn stolen_tasks(events: &[experiments::SchedulerEvent], total: u32) -> (u32, u32) {
    let mut stolen: Vec<u32> = events
        .iter()
        .filter(|e| matches!(e.kind, experiments::SchedulerEventKind::Steal { .. }))
        .map(|e| e.task)
        .collect();
    stolen.sort_unstable();
    stolen.dedup();
    (stolen.len() as u32, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_off_word_turns_predictions_off() {
        assert!(enabled(None));
        for off in ["0", "false", "OFF", " no "] {
            assert!(!enabled(Some(off)), "{off}");
        }
        for on in ["1", "yes", "", "banana", "2"] {
            assert!(enabled(Some(on)), "{on}");
        }
    }

    #[test]
    fn a_stored_choice_counts_only_if_it_names_an_answer() {
        assert_eq!(stored_choice(Some("2"), 4), Some(2));
        assert_eq!(stored_choice(Some("4"), 4), None);
        assert_eq!(stored_choice(Some("-1"), 4), None);
        assert_eq!(stored_choice(Some("two"), 4), None);
        assert_eq!(stored_choice(None, 4), None);
    }

    #[test]
    fn the_worker_bands_grow_with_the_workers() {
        assert_eq!(speedup_against_workers(0.8, 4), Some(0));
        assert_eq!(speedup_against_workers(1.2, 4), Some(1));
        assert_eq!(speedup_against_workers(3.9, 4), Some(2));
        assert_eq!(speedup_against_workers(5.0, 4), Some(2));
        assert_eq!(speedup_against_workers(5.1, 4), Some(3));
        // One worker: faster than 1.5× can only mean waits overlapped.
        assert_eq!(speedup_against_workers(1.6, 1), Some(3));
        assert_eq!(speedup_against_workers(f64::NAN, 2), None);
    }

    #[test]
    fn ten_percent_either_way_counts_as_a_tie() {
        assert_eq!(first_to_finish(1.95), Some(1));
        assert_eq!(first_to_finish(1.05), Some(2));
        assert_eq!(first_to_finish(0.95), Some(2));
        assert_eq!(first_to_finish(0.8), Some(0));
        assert_eq!(qps_winner(6.2), Some(1));
        assert_eq!(qps_winner(0.5), Some(0));
    }

    #[test]
    fn overhead_memory_and_switch_bands() {
        assert_eq!(overhead_band(0.5), Some(0));
        assert_eq!(overhead_band(1.0), Some(1));
        assert_eq!(overhead_band(3.0), Some(2));
        assert_eq!(overhead_band(40.0), Some(3));
        assert_eq!(memory_band(300.0), Some(0));
        assert_eq!(memory_band(2048.0), Some(1));
        assert_eq!(memory_band(65_536.0), Some(2));
        assert_eq!(memory_band(1_048_576.0), Some(3));
        assert_eq!(memory_band(-1.0), None);
        assert_eq!(switch_band(0.5), Some(0));
        assert_eq!(switch_band(1.0), Some(1));
        assert_eq!(switch_band(9.9), Some(2));
        assert_eq!(switch_band(10.0), Some(3));
    }

    #[test]
    fn steals_none_some_or_most() {
        assert_eq!(steal_band(0, 16), Some(0));
        assert_eq!(steal_band(7, 16), Some(1));
        assert_eq!(steal_band(8, 16), Some(2));
        assert_eq!(steal_band(0, 0), None);
    }

    #[test]
    fn a_task_stolen_twice_counts_once() {
        use experiments::{SchedulerEvent, SchedulerEventKind};
        let event = |task, kind| SchedulerEvent { at_ms: 0.0, worker: Some(1), task, kind };
        let events = [
            event(3, SchedulerEventKind::Steal { victim: 0, count: 2 }),
            event(4, SchedulerEventKind::Steal { victim: 0, count: 2 }),
            event(3, SchedulerEventKind::Steal { victim: 1, count: 1 }),
            event(5, SchedulerEventKind::Run),
        ];
        assert_eq!(stolen_tasks(&events, 8), (2, 8));
    }

    #[test]
    fn the_latest_plain_run_skips_a_later_sweep() {
        use experiments::{Check, Summary};
        let row = |run, sweep, kind: &'static str| ResultRow {
            key: 0,
            run,
            sweep,
            kind,
            variant: String::new(),
            workers: 2,
            tasks: 8,
            summary: Summary { median_ms: 1.0, min_ms: 1.0, max_ms: 1.0 },
            speedup: Some(run as f64),
            check: Check { ok: true, value: String::new(), expected: String::new() },
            doubts: Vec::new(),
            doubtful_baseline: false,
            startup: None,
            timing: Default::default(),
            context: std::sync::Arc::new(crate::components::results::RunContext {
                experiment: ExperimentId::Sum,
                settings: Vec::new(),
                mode: "shared_memory",
                logical_processors: 2,
                build: None,
                started_at: String::new(),
            }),
        };
        let rows = vec![row(1, false, "sequential"), row(1, false, "tasks"), row(2, true, "tasks")];
        assert_eq!(latest_plain_run(&rows).len(), 2);
        assert_eq!(speedup_of(latest_plain_run(&rows), "tasks"), Some((1.0, 2)));
        assert_eq!(speedup_with(&rows, "tasks", 2), Some((1.0, 2)));
        assert_eq!(speedup_with(&rows, "tasks", 5), Some((1.0, 2)), "no row of 5 workers: the first");
        assert_eq!(speedup_with(&rows, "chunked", 2), None);
        assert_eq!(latest_run(&rows).len(), 1);
        assert!(latest_plain_run(&[]).is_empty());
    }
}
