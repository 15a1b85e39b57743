//! The hashing chapter: SHA-256 of generated data or of a file the reader picks, t times, as a
//! loop on one worker and as t tasks on k workers (the article's 1, 4 and 16), read slice by slice.

use super::panel::{variant_id, ExperimentFrame, RunButtons, RunLog, RunStatus};
use super::state::{ExperimentState, Launch, RunKind};
use crate::components::compare::{CompareResults, Compared};
use crate::components::controls::{unique_id, NumberField, Slider};
use crate::components::later::Later;
use crate::components::notes::ClampNotes;
use crate::components::published::SourceCitation;
use crate::components::results::{ResultRow, ResultsTable};
use crate::components::share::ShareBar;
use crate::components::split_view::{LaterCode, SplitBuilt};
use crate::components::timeline::Timeline;
use crate::components::trace_picker::{TraceLog, TracePicker};
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use experiments::catalog::hashing::{self, Settings};
use experiments::catalog::hashing::{HASHES, PRESET_WORKERS, REPETITIONS, SIZE_MB};
use experiments::catalog::ExperimentId;
use experiments::catalog::Machine;
use experiments::published::PARALLELISM_BY_GOROUTINES_JA;
use experiments::{HashSource, Job, Measurement, Variant, Workload};
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use send_wrapper::SendWrapper;
use wasm_bindgen::JsCast;

const MB: u64 = 1 << 20;

fn bytes_of(job: &Job) -> u64 {
    match &job.workload {
        Workload::Hash { source: HashSource::Generated { bytes, .. } | HashSource::File { bytes, .. }, .. } => *bytes,
        _ => 0,
    }
}

fn describe(job: &Job) -> String {
    let t = ui();
    match job.variant {
        Variant::Sequential => message(t.hash_loop, &[("hashes", Arg::Count(job.tasks as u64))]),
        _ => message(
            t.hash_tasks,
            &[("hashes", Arg::Count(job.tasks as u64)), ("workers", Arg::Count(job.workers as u64))],
        ),
    }
}

/// The trace with each bar named by its hash: the engine numbers every (slice, hash) pair as a
/// task of its own (slice × hashes + hash), so t hashes over s slices come as t × s "tasks". The
/// timeline then counts t tasks, each drawn as one bar (slice) per slice of the data.
fn by_hash(mut m: Measurement) -> Measurement {
    let hashes = m.job.tasks.max(1);
    for span in &mut m.trace.spans {
        span.task %= hashes;
    }
    m
}

/// Hashed megabytes per second: every hash reads all the data.
fn throughput(m: &Measurement) -> f64 {
    (bytes_of(&m.job) * m.job.tasks as u64) as f64 / MB as f64 / (m.summary.median_ms / 1000.0)
}

fn human_size(bytes: u64) -> String {
    const GB: u64 = 1 << 30;
    if bytes >= GB {
        format!("{} GB", format::fixed(bytes as f64 / GB as f64, 1))
    } else if bytes >= MB {
        format!("{} MB", format::fixed(bytes as f64 / MB as f64, 1))
    } else {
        format!("{} kB", format::fixed(bytes as f64 / 1024.0, 1))
    }
}

#[component]
pub fn HashingExperiment() -> impl IntoView {
    let t = ui();
    view! {
        <ExperimentFrame experiment=ExperimentId::Hashing title=t.hash_title controls=|machine| view! { <HashingControls machine /> }.into_any()>
            <section class="published" data-testid="published">
                <h3>{t.cost_claims_title}</h3>
                <ul><li>{t.hash_claim}" "<SourceCitation source=PARALLELISM_BY_GOROUTINES_JA /></li></ul>
            </section>
        </ExperimentFrame>
    }
}

#[component]
fn HashingControls(machine: Machine) -> impl IntoView {
    let t = ui();
    let cores = machine.cores;
    // Without shared memory the hashes run on message-passing workers: every worker count is real.
    let workers_limits = hashing::workers_range(cores);
    let exp = ExperimentState::<Settings>::new(machine);
    let log = exp.log;
    let source = exp.choice("source");
    let size_mb = exp.knob(&SIZE_MB);
    let hashes = exp.knob(&HASHES);
    let workers = exp.knob(&workers_limits);
    let repetitions = exp.knob(&REPETITIONS);
    let file = RwSignal::new(None::<SendWrapper<web_sys::File>>);
    let file_label = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<&'static str>);
    // What this tab measured here before (another chapter, another language, a reload) comes back.
    log.restore(&|m, _| (variant_id(m.job.variant), describe(&m.job)));
    let views = HashingViews {
        rows: log.rows.into(),
        compared: Compared::new(),
        digests: RwSignal::new(Vec::new()),
        throughputs: RwSignal::new(Vec::new()),
        traces: TraceLog::new(),
        workers,
        hashes,
        cores,
    };
    let HashingViews { digests, throughputs, .. } = views;

    let start = move |worker_counts: Vec<u32>| {
        let s = exp.get();
        let (hash_source, attached) = if s.source == "file" {
            let Some(picked) = file.get_untracked() else {
                problem.set(Some(t.hash_no_file));
                return;
            };
            let source = HashSource::File { name: picked.name(), bytes: picked.size() as u64 };
            (source, Some((*picked).clone()))
        } else {
            (hashing::generated(&s), None)
        };
        digests.set(Vec::new());
        throughputs.set(Vec::new());
        let jobs = hashing::run_jobs(&s, &hash_source, &worker_counts, machine);
        let launch = Launch { kind: RunKind::Run, query: s.query(), jobs, file: attached };
        exp.start(launch, record_hashes(views));
    };
    let run = move || start(vec![exp.get().workers]);
    let run_presets = move || start(PRESET_WORKERS.to_vec());
    // Generated data only (a file must be picked first): what one Run hashes, and whether an
    // address alone may start it.
    let hashed = move || {
        let s = exp.track();
        (s.source == "generated").then(|| hashing::bytes_per_run(&s, &hashing::generated(&s)))
    };
    let big = move || hashed().is_some_and(|bytes| bytes > hashing::AUTORUN_AT_MOST_BYTES);
    let held = RwSignal::new(false);
    if exp.asks_to_autorun() && untrack(big) {
        held.set(true);
    } else {
        exp.autorun(run);
    }
    let running = exp.running();

    view! {
        <ClampNotes notes=exp.notes() />
        <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.hash_title)]) on:submit=move |ev| { ev.prevent_default(); run(); }>
            {source_choice(source, running)}
            <Show when=move || source.get() == "generated">
                <NumberField label=t.hash_size help=t.hash_size_help.to_string() value=size_mb range=SIZE_MB disabled=running />
            </Show>
            {file_picker(PickedFile { source, file, file_label, problem }, running)}
            <Slider label=t.hashes help=t.hashes_help.to_string() value=hashes range=Signal::stored(HASHES) disabled=running />
            <Slider label=t.workers help=t.workers_help.to_string() value=workers range=Signal::stored(workers_limits) disabled=running />
            <Slider label=t.repetitions help=t.repetitions_help_hash.to_string() value=repetitions range=Signal::stored(REPETITIONS) disabled=running />
            <Show when=big>
                <p class="notice notice-warning warning-inline" role="note" data-testid="big-run">
                    {move || fill(t.hash_big_run, &[("size", &human_size(hashed().unwrap_or_default()))])}
                    {move || held.get().then_some(t.hash_autorun_held)}
                </p>
            </Show>
            <RunButtons runner=exp.runner run_label=t.run second=(t.hash_run_presets, Callback::new(move |_| run_presets())) />
        </form>
        // The rest in a later task (issue 15: no main-thread task over 50 ms); the charts, timeline,
        // comparison and sharing come in code of their own, after the engine's files.
        <Later>
            {prediction(log.rows.into(), workers, hashes)}
            {move || problem.get().map(|p| view! { <p class="notice notice-warning" role="alert">{p}</p> })}
            <RunStatus runner=exp.runner describe=exp.describe_job(describe) />
        </Later>
        <LaterCode load=move || hashing_views(views) />
    }
}

/// Records a run: each row, its throughput and digest, and the trace of each run on workers.
fn record_hashes(views: HashingViews) -> Box<dyn Fn(RunLog, usize, Measurement)> {
    let HashingViews { digests, throughputs, traces, .. } = views;
    Box::new(move |run_log, _, m| {
        let sequential = m.job.variant == Variant::Sequential;
        let speedup = run_log.add(&m, variant_id(m.job.variant), describe(&m.job), sequential);
        throughputs
            .update(|rows| rows.push((describe(&m.job), m.job.workers, throughput(&m), speedup.unwrap_or(f64::NAN))));
        digests.update(|d| d.push((m.check.value.clone(), m.check.ok, m.job.tasks)));
        if !sequential {
            traces.add(run_log.label(), describe(&m.job), by_hash(m));
        }
    })
}

/// What to hash: generated data or the file picked.
fn source_choice(source: RwSignal<&'static str>, running: Signal<bool>) -> impl IntoView {
    let t = ui();
    let group = unique_id("hash-source");
    view! {
        <fieldset class="control choice">
            <legend>{t.hash_source}</legend>
            {[("generated", t.hash_generated), ("file", t.hash_file)].into_iter().map(|(option, label)| view! {
                <label>
                    <input type="radio" name=group.clone() value=option prop:checked=move || source.get() == option
                        disabled=move || running.get() on:change=move |_| source.set(option) />
                    {label}
                </label>
            }).collect_view()}
        </fieldset>
    }
}

/// The file to hash, what the picker says of it, and why a run could not start without one.
#[derive(Clone, Copy)]
struct PickedFile {
    source: RwSignal<&'static str>,
    file: RwSignal<Option<SendWrapper<web_sys::File>>>,
    file_label: RwSignal<String>,
    problem: RwSignal<Option<&'static str>>,
}

/// With "file" chosen: a drop zone and a file input; the file dropped or picked is the one hashed.
fn file_picker(picked_file: PickedFile, running: Signal<bool>) -> impl IntoView {
    let t = ui();
    let PickedFile { source, file, file_label, problem } = picked_file;
    let file_id = unique_id("hash-file");
    let choose = move |picked: web_sys::File| {
        file_label
            .set(fill(t.hash_file_chosen, &[("name", &picked.name()), ("size", &human_size(picked.size() as u64))]));
        file.set(Some(SendWrapper::new(picked)));
        source.set("file");
        problem.set(None);
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        if let Some(picked) = ev.data_transfer().and_then(|d| d.files()).and_then(|files| files.get(0)) {
            choose(picked);
        }
    };
    view! {
        <Show when=move || source.get() == "file">
            <div class="control drop-zone" data-testid="drop-zone"
                on:dragover=|ev: web_sys::DragEvent| ev.prevent_default()
                on:drop=on_drop
            >
                <label for=file_id.clone()>{t.hash_pick}</label>
                <input type="file" id=file_id.clone() disabled=move || running.get() on:change=move |ev| {
                    let input: web_sys::HtmlInputElement = event_target(&ev);
                    if let Some(picked) = input.files().and_then(|files| files.get(0)) {
                        choose(picked);
                    }
                } />
                <p class="help">{t.hash_drop}</p>
                <p class="file-chosen" data-testid="file-chosen">{move || file_label.get()}</p>
            </div>
        </Show>
    }
}

/// The element an event happened on, as the type the handler expects.
fn event_target<T: JsCast>(ev: &web_sys::Event) -> T {
    ev.target().expect("an event has a target").unchecked_into()
}

/// What the hashing panel's later views are given: its rows and comparison, each run's digests (value,
/// whether it checked, hashes) and throughputs (name, workers, MB/s, speedup), its traces.
#[derive(Clone, Copy)]
struct HashingViews {
    rows: Signal<Vec<ResultRow>>,
    compared: Compared,
    digests: RwSignal<Vec<(String, bool, u32)>>,
    throughputs: RwSignal<Vec<(String, u32, f64, f64)>>,
    traces: TraceLog,
    /// The knobs and the logical processors the question to work out names.
    workers: RwSignal<u64>,
    hashes: RwSignal<u64>,
    cores: u32,
}

/// The hashing panel's question to work out, digests, results and throughput tables, comparison, sharing and timeline: a split point of its own
/// (`views_hashing`), fetched after the engine's files (components::split_view::LaterCode).
#[wasm_split(views_hashing, fallible, wasm_split_path = ::leptos::wasm_split)]
fn hashing_views(views: HashingViews) -> SplitBuilt {
    let t = ui();
    let HashingViews { rows, compared, digests, throughputs, traces, workers, hashes, cores } = views;
    let (traced, traced_label) = traces.shown_where(|m| m.job.variant != Variant::Sequential, |m| describe(&m.job));
    let lanes = Signal::derive(move || traced.with(|m| m.as_ref().map_or(1, |m| m.job.workers)));
    // Built in later tasks, not in the one that instantiated this code (issue 15: no task over 50 ms).
    Ok(view! {
        <Later>
            {move || digests.with(|d| d.first().cloned()).map(|(digest, _, _)| {
                let all_agree = digests.with(|d| d.iter().all(|(value, ok, _)| *ok && *value == digest));
                let count = digests.with(|d| d.iter().map(|(_, _, n)| n).max().copied().unwrap_or(0));
                view! {
                    <p class="digest" data-testid="digest" data-digest=digest.clone() data-agree=all_agree.to_string()>
                        {fill(t.hash_digest, &[("digest", &digest)])}" — "
                        {if all_agree { message(t.hash_digests_agree, &[("hashes", Arg::Count(count as u64))]) } else { t.hash_digests_differ.to_string() }}
                    </p>
                }
            })}
            <ResultsTable rows />
            <CompareResults experiment=ExperimentId::Hashing own=rows compared />
            <Show when=move || throughputs.with(|r| !r.is_empty())>
                <div class="table-scroll" tabindex="0">
                    <table class="throughput" data-testid="throughput">
                        <caption>{t.hash_throughput_caption}</caption>
                        <thead><tr>
                            <th scope="col">{t.col_variant}</th>
                            <th scope="col">{t.col_workers}</th>
                            <th scope="col">{t.col_mb_per_s}</th>
                            <th scope="col">{t.col_speedup}</th>
                        </tr></thead>
                        <tbody>
                            {move || throughputs.get().into_iter().map(|(name, k, mbps, speedup)| view! {
                                <tr data-workers=k data-mbps=mbps>
                                    <th scope="row">{name}</th>
                                    <td class="num">{format::int(k as u64)}</td>
                                    <td class="num">{format::fixed(mbps, 0)}</td>
                                    <td class="num">{format::times(speedup)}</td>
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                </div>
            </Show>
            // Verdict and results first, then the question and sharing, as in every chapter.
            {work_it_out(rows, workers, hashes, cores)}
            <ShareBar experiment=ExperimentId::Hashing rows />
        </Later>
        <Later>
            <TracePicker log=traces />
            <Timeline measurement=traced what=traced_label lanes test_id="hash-timeline" note=t.hash_timeline_note />
        </Later>
    }
    .into_any())
}

/// Hashing: the hashes on k workers against one after another.
fn prediction(rows: Signal<Vec<ResultRow>>, workers: RwSignal<u64>, hashes: RwSignal<u64>) -> AnyView {
    use crate::components::predict::speedup_question;
    let question = Signal::derive(move || {
        message(
            ui().predict_hash_question,
            &[("workers", Arg::Count(workers.get())), ("hashes", Arg::Count(hashes.get()))],
        )
    });
    speedup_question(ExperimentId::Hashing, question, rows, "tasks", workers)
}

/// Work it out: the rounds t hashes take on k workers (⌈t ÷ k⌉), and so the most speedup they can
/// give over the loop, beside the speedup measured with k workers.
fn work_it_out(rows: Signal<Vec<ResultRow>>, workers: RwSignal<u64>, hashes: RwSignal<u64>, cores: u32) -> AnyView {
    use crate::components::predict::latest_plain_run;
    use crate::components::work_it_out::{self as question, inputs, press, rounds, rounds_speedup, Ask, Exercise};
    let t = ui();
    let ask = Signal::derive(move || {
        let (k, h) = (workers.get() as u32, hashes.get() as u32);
        let (rounds, answer) = (rounds(h, k), rounds_speedup(h, k));
        let x = format::decimal(answer, 2);
        Ask::Exercise(Exercise {
            formula: "rounds",
            question: message(
                t.work_hash_question,
                &[("hashes", Arg::Count(h as u64)), ("workers", Arg::Count(k as u64))],
            ),
            unit: t.unit_times,
            answer,
            worked: message(
                t.work_hash_worked,
                &[
                    ("hashes", Arg::Text(&format::int(h as u64))),
                    ("workers", Arg::Text(&format::int(k as u64))),
                    ("rounds", Arg::Count(rounds as u64)),
                    ("answer", Arg::Text(&x)),
                ],
            ),
            computed: fill(t.work_at_most_times, &[("x", &x)]),
            inputs: inputs(&[("hashes", h as f64), ("workers", k as f64)]),
        })
    });
    let measured = Signal::derive(move || {
        let k = workers.get() as u32;
        let speedup = rows.with(|rows| {
            latest_plain_run(rows)
                .iter()
                .find(|r| r.kind == "tasks" && r.workers == k && r.tasks == hashes.get() as u32)
                .and_then(|r| r.speedup)
        })?;
        Some((
            message(t.work_measured_cores, &[("workers", Arg::Count(k as u64)), ("cores", Arg::Count(cores as u64))]),
            fill(t.work_value_times, &[("x", &format::decimal(speedup, 2))]),
        ))
    });
    question::work_it_out(ask, measured, press(t.run))
}
