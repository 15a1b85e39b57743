//! What a task costs, part two: the heap a parked task holds against what an idle Web Worker weighs.

use super::panel::{ExperimentFrame, RunButtons, RunStatus};
use super::task_costs::CostClaims;
use crate::components::controls::NumberField;
use crate::components::later::{after_ms, Later};
use crate::components::notes::ClampNotes;
use crate::components::share::ShareBar;
use crate::engine_client::{self, Mode};
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use crate::presets::{write_to_url, Preset};
use crate::runner::Runner;
use experiments::catalog::task_memory::PARKED;
use experiments::catalog::task_memory::WEIGHED_WORKERS;
use experiments::catalog::ExperimentId;
use experiments::catalog::{self, Machine};
use experiments::published::{GOROUTINE_PERFORMANCE_HI, PARALLELISM_BY_GOROUTINES_JA};
use experiments::Measurement;
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// How long to wait for the browser's memory measurement before saying it did not answer.
const MEMORY_ANSWER_MS: i32 = 45_000;

/// Why the browser's measurement of the page's memory gave no number.
#[derive(Clone, Debug, PartialEq)]
enum MemoryBlock {
    /// `performance.measureUserAgentSpecificMemory` does not exist: not a Chromium-based browser,
    /// or (`isolated` false) a page that is not cross-origin isolated.
    NoApi { isolated: bool },
    /// The engine already started in this tab: its workers have waited on shared memory.
    EngineRan,
    /// The browser refused, with its reason.
    Refused(String),
    /// No answer within [`MEMORY_ANSWER_MS`].
    NoAnswer,
}

impl MemoryBlock {
    /// The reader-facing reason.
    fn text(&self) -> String {
        let t = ui();
        match self {
            MemoryBlock::NoApi { isolated: false } => t.memory_block_not_isolated.to_string(),
            MemoryBlock::NoApi { isolated: true } => t.memory_block_no_api.to_string(),
            MemoryBlock::EngineRan => t.memory_block_engine_ran.to_string(),
            MemoryBlock::Refused(reason) => fill(t.memory_block_refused, &[("reason", reason)]),
            MemoryBlock::NoAnswer => {
                fill(t.memory_block_no_answer, &[("s", &format::int((MEMORY_ANSWER_MS / 1000) as u64))])
            }
        }
    }

    /// A short name for tests and the data attribute.
    fn id(&self) -> &'static str {
        match self {
            MemoryBlock::NoApi { isolated: false } => "not-isolated",
            MemoryBlock::NoApi { isolated: true } => "no-api",
            MemoryBlock::EngineRan => "engine-ran",
            MemoryBlock::Refused(_) => "refused",
            MemoryBlock::NoAnswer => "no-answer",
        }
    }
}

/// Ask the browser how much memory this page uses (all its workers included), if it lets us and
/// answers within [`MEMORY_ANSWER_MS`] (it waits for its next garbage collection).
async fn browser_memory_bytes() -> Result<f64, MemoryBlock> {
    let measured = Box::pin(ask_browser_memory());
    match futures_util::future::select(measured, after_ms(MEMORY_ANSWER_MS)).await {
        futures_util::future::Either::Left((bytes, _)) => bytes,
        futures_util::future::Either::Right(_) => Err(MemoryBlock::NoAnswer),
    }
}

async fn ask_browser_memory() -> Result<f64, MemoryBlock> {
    let isolated = machine_isolated();
    let no_api = MemoryBlock::NoApi { isolated };
    let window = web_sys::window().ok_or(no_api.clone())?;
    let performance = js_sys::Reflect::get(&window, &"performance".into()).map_err(|_| no_api.clone())?;
    let measure =
        js_sys::Reflect::get(&performance, &"measureUserAgentSpecificMemory".into()).map_err(|_| no_api.clone())?;
    let measure: js_sys::Function = measure.dyn_into().map_err(|_| no_api.clone())?;
    let refused = |error: wasm_bindgen::JsValue| {
        let reason = error
            .dyn_ref::<js_sys::Error>()
            .map(|e| format!("{}: {}", String::from(e.name()), String::from(e.message())))
            .or_else(|| error.as_string())
            .unwrap_or_else(|| format!("{error:?}"));
        MemoryBlock::Refused(reason)
    };
    let promise: js_sys::Promise = measure.call0(&performance).map_err(refused)?.dyn_into().map_err(|_| no_api)?;
    let result = wasm_bindgen_futures::JsFuture::from(promise).await.map_err(refused)?;
    js_sys::Reflect::get(&result, &"bytes".into())
        .ok()
        .and_then(|b| b.as_f64())
        .ok_or_else(|| MemoryBlock::Refused(ui().memory_answer_without_bytes.into()))
}

/// Whether this page is cross-origin isolated.
fn machine_isolated() -> bool {
    crate::environment::machine().isolated
}

/// How long the idle workers may take to load before the weighing is given up.
const IDLE_WORKERS_LIMIT_MS: i32 = 10_000;

/// The page's memory before and after starting `count` idle Web Workers, per worker (or why the
/// browser gave no number), or why the idle workers could not be started.
async fn weigh_idle_workers(count: u32) -> Result<Result<f64, MemoryBlock>, String> {
    let before = match browser_memory_bytes().await {
        Ok(bytes) => bytes,
        Err(block) => return Ok(Err(block)),
    };
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    type Handlers = (Closure<dyn FnMut()>, Closure<dyn FnMut(web_sys::Event)>);
    let mut workers: Vec<(web_sys::Worker, Handlers)> = Vec::new();
    let mut answers = Vec::new();
    let t = ui();
    let script_name = "idle-worker.js";
    let script = engine_client::engine_script_url(script_name);
    for _ in 0..count {
        let worker = web_sys::Worker::new_with_options(&script, &options)
            .map_err(|_| message(t.idle_worker_refused, &[("script", Arg::Text(script_name))]))?;
        // Ready, or the reason it never will be (a script that cannot load fires `error`).
        let (tell, told) = futures_channel::oneshot::channel::<Result<(), String>>();
        let tell = std::rc::Rc::new(std::cell::Cell::new(Some(tell)));
        let ready = {
            let tell = tell.clone();
            Closure::<dyn FnMut()>::new(move || {
                if let Some(tell) = tell.take() {
                    let _ = tell.send(Ok(()));
                }
            })
        };
        let failed = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            event.prevent_default();
            if let Some(tell) = tell.take() {
                let _ = tell.send(Err(message(t.idle_worker_not_loaded, &[("script", Arg::Text(script_name))])));
            }
        });
        worker.set_onmessage(Some(ready.as_ref().unchecked_ref()));
        worker.set_onerror(Some(failed.as_ref().unchecked_ref()));
        workers.push((worker, (ready, failed)));
        answers.push(told);
    }
    let all_ready = futures_util::future::join_all(answers);
    let outcome = match futures_util::future::select(all_ready, after_ms(IDLE_WORKERS_LIMIT_MS)).await {
        futures_util::future::Either::Left((answers, _)) => {
            match answers.into_iter().find_map(|answer| answer.unwrap_or(Err(t.idle_worker_ended.into())).err()) {
                Some(problem) => Err(problem),
                None => Ok(browser_memory_bytes().await.map(|after| (after - before) / count as f64)),
            }
        }
        futures_util::future::Either::Right(_) => {
            let seconds = (IDLE_WORKERS_LIMIT_MS / 1000) as u64;
            Err(message(t.idle_worker_late, &[("script", Arg::Text(script_name)), ("s", Arg::Count(seconds))]))
        }
    };
    for (worker, _) in &workers {
        worker.terminate();
    }
    outcome
}

#[component]
pub fn TaskMemoryExperiment() -> impl IntoView {
    let t = ui();
    view! {
        <ExperimentFrame experiment=ExperimentId::TaskMemory title=t.memory_title controls=|machine| view! { <TaskMemoryControls machine /> }.into_any()>
            <CostClaims claims=vec![(t.cost_claim_memory, GOROUTINE_PERFORMANCE_HI), (t.cost_claim_lighter, PARALLELISM_BY_GOROUTINES_JA)] />
        </ExperimentFrame>
    }
}

#[component]
fn TaskMemoryControls(machine: Machine) -> impl IntoView {
    let t = ui();
    let mode = machine.mode;
    let mut preset = Preset::from_url();
    let parked = RwSignal::new(catalog::task_memory::read(&mut preset, machine) as u64);
    let autorun = preset.autorun(ExperimentId::TaskMemory);
    let notes = preset.notes;
    let runner = Runner::new();
    let task_report = RwSignal::new(None::<Measurement>);
    // (JavaScript engine per idle worker, engine heap per pool worker), once weighed.
    let worker_bytes = RwSignal::new(None::<Option<(f64, f64)>>);
    let weighing = RwSignal::new(false);
    // Seconds spent waiting for the browser's answer, shown while weighing.
    let waited_s = RwSignal::new(0u32);
    // Why the browser gave no number for the idle workers.
    let block = RwSignal::new(None::<MemoryBlock>);
    // Why the idle workers could not be weighed, if they could not be started.
    let weigh_problem = RwSignal::new(None::<String>);
    let report = MemoryReport { task_report, worker_bytes, weighing, waited_s, block, weigh_problem };

    // A Web Worker is weighed in two parts: what the browser reports for idle workers (their own
    // JavaScript engine), and the heap the engine gives each worker of a new pool (its stack and
    // thread-local storage). Once the engine has run on a page, Chromium no longer answers
    // `measureUserAgentSpecificMemory` (tried: no answer 15 s after a run, nor after its pools
    // ended; the engine's coordinator, which shares memory, lives on), so the idle workers are
    // weighed first, before the engine starts, and a page where it already ran says so.
    let measure = move || {
        let count = parked.get_untracked() as u32;
        write_to_url(&[(PARKED.key, count.to_string())]);
        worker_bytes.set(None);
        weigh_problem.set(None);
        block.set(None);
        task_report.set(None);
        let javascript = RwSignal::new(None::<f64>);
        let start_engine = move || run_engine(runner, count, report, javascript);
        if mode != Mode::Threads {
            block.set(Some(MemoryBlock::NoApi { isolated: machine_isolated() }));
            start_engine();
        } else if engine_client::ever_started() {
            block.set(Some(MemoryBlock::EngineRan));
            start_engine();
        } else {
            weigh_idle_then(report, javascript, start_engine);
        }
    };
    if autorun {
        crate::runner::run_on_mount(measure, None);
    }
    let running = Signal::derive(move || runner.running.get() || weighing.get());
    let bytes = |b: f64| format!("{} B", format::int(b.round().max(0.0) as u64));
    view! {
        <ClampNotes notes />
        <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.memory_title)]) on:submit=move |ev| { ev.prevent_default(); measure(); }>
            <NumberField label=t.parked_tasks_label help=t.parked_tasks_help.to_string() value=parked range=PARKED disabled=running />
            <RunButtons runner run_label=t.measure_memory stoppable=false />
        </form>
        // The rest in a task of its own (issue 15: no main-thread task over 50 ms).
        <Later>
            {prediction(Signal::derive(move || {
                task_report.with(|m| m.as_ref().and_then(|m| m.memory).and_then(|r| r.bytes_per_task)).map(|b| (b, bytes(b)))
            }))}
            <ShareBar experiment=ExperimentId::TaskMemory />
            // While the browser is asked (before the engine starts), its wait is the progress shown.
            <div hidden=move || weighing.get()>
                <RunStatus runner describe=move |index| if index == 0 { t.memory_job_parked } else { t.memory_job_workers }.to_string() />
            </div>
            {memory_report(report, parked)}
        </Later>
    }
}

/// Run the engine's two jobs: `count` parked tasks (the task report), then a new pool's workers
/// (their heap, beside `javascript`'s weight of an idle worker when the browser gave one).
fn run_engine(runner: Runner, count: u32, report: MemoryReport, javascript: RwSignal<Option<f64>>) {
    let MemoryReport { task_report, worker_bytes, .. } = report;
    let jobs = catalog::task_memory::run_jobs(count);
    runner.run(jobs, move |index, m| {
        if index == 0 {
            task_report.set(Some(m));
        } else if let (Some(js), Some(heap)) = (javascript.get_untracked(), m.memory.and_then(|r| r.bytes_per_worker)) {
            worker_bytes.set(Some(Some((js, heap))));
        } else {
            worker_bytes.set(Some(None));
        }
    });
}

/// Ask the browser what idle workers weigh (counting the seconds of its wait), keep its answer in
/// `javascript` or why there is none, then `start_engine`.
fn weigh_idle_then(report: MemoryReport, javascript: RwSignal<Option<f64>>, start_engine: impl FnOnce() + 'static) {
    let MemoryReport { weighing, waited_s, block, weigh_problem, .. } = report;
    weighing.set(true);
    waited_s.set(0);
    let ticker = set_interval_with_handle(move || waited_s.update(|s| *s += 1), std::time::Duration::from_secs(1)).ok();
    leptos::task::spawn_local(async move {
        match weigh_idle_workers(WEIGHED_WORKERS).await {
            Ok(Ok(measured)) => {
                javascript.try_set(Some(measured));
            }
            Ok(Err(reason)) => {
                block.try_set(Some(reason));
            }
            Err(problem) => {
                weigh_problem.try_set(Some(problem));
            }
        }
        if let Some(ticker) = ticker {
            ticker.clear();
        }
        weighing.try_set(false);
        start_engine();
    });
}

/// What the memory measurement has found so far, shown by [`memory_report`].
#[derive(Clone, Copy)]
struct MemoryReport {
    task_report: RwSignal<Option<Measurement>>,
    worker_bytes: RwSignal<Option<Option<(f64, f64)>>>,
    weighing: RwSignal<bool>,
    waited_s: RwSignal<u32>,
    block: RwSignal<Option<MemoryBlock>>,
    weigh_problem: RwSignal<Option<String>>,
}

/// Bytes per parked task, the wait for the browser's answer, then bytes per worker (or why the
/// browser gave none, with a way to measure in a fresh tab).
fn memory_report(report: MemoryReport, parked: RwSignal<u64>) -> impl IntoView {
    let t = ui();
    let MemoryReport { task_report, worker_bytes, weighing, waited_s, block, weigh_problem } = report;
    let bytes = |b: f64| format!("{} B", format::int(b.round().max(0.0) as u64));
    view! {
    <div class="memory-report" data-testid="memory-report">
        {move || task_report.get().and_then(|m| m.memory.and_then(|report| report.bytes_per_task.map(|per_task| {
            let spawn_ns = experiments::per_unit::ns_per_task(m.summary.median_ms, report.tasks);
            view! {
                <p data-testid="bytes-per-task" data-bytes=per_task>
                    {message(t.memory_task_line, &[("bytes", Arg::Text(&bytes(per_task))), ("tasks", Arg::Count(report.tasks as u64))])}
                </p>
                <p>{fill(t.memory_spawn_line, &[("ms", &format::ms(m.summary.median_ms)), ("ns", &format::int(spawn_ns.round() as u64))])}</p>
            }
        })))}
        <Show when=move || weighing.get()>
            <p class="help" role="status" data-testid="memory-waiting">
                <progress max=MEMORY_ANSWER_MS / 1000 value=move || waited_s.get()></progress>
                " "
                {move || fill(t.memory_worker_waiting, &[("s", &format::int(waited_s.get() as u64)), ("max", &format::int((MEMORY_ANSWER_MS / 1000) as u64))])}
            </p>
        </Show>
        {move || worker_bytes.get().map(|measured| match measured {
            Some((javascript, heap)) => {
                let per_task = task_report.with(|m| m.as_ref().and_then(|m| m.memory).and_then(|r| r.bytes_per_task)).unwrap_or(f64::NAN);
                let per_worker = javascript + heap;
                view! {
                    <p data-testid="bytes-per-worker" data-bytes=per_worker>
                        {message(t.memory_worker_line, &[
                            ("bytes", Arg::Text(&bytes(per_worker))),
                            ("javascript", Arg::Text(&bytes(javascript))),
                            ("heap", Arg::Text(&bytes(heap))),
                            ("workers", Arg::Count(WEIGHED_WORKERS as u64)),
                        ])}
                    </p>
                    <p>{message(t.memory_ratio_line, &[("ratio", Arg::Count((per_worker / per_task).round().max(0.0) as u64))])}</p>
                }.into_any()
            }
            None => match weigh_problem.get() {
                Some(problem) => view! {
                    <p data-testid="bytes-per-worker-unavailable">{fill(t.memory_worker_failed, &[("problem", &problem)])}</p>
                }.into_any(),
                None => {
                    let reason = block.get().unwrap_or(MemoryBlock::NoApi { isolated: machine_isolated() });
                    let again = (reason == MemoryBlock::EngineRan).then(|| {
                        let path = web_sys::window().and_then(|w| w.location().pathname().ok()).unwrap_or_default();
                        let href = format!("{path}?{}={}&autorun=task-memory", PARKED.key, parked.get_untracked());
                        // A fresh tab in a browsing context of its own (noopener): a reload in this tab is
                        // not answered either (tried: no answer within 45 s), a new tab is.
                        view! { <a class="button" href=href target="_blank" rel="noopener external" data-testid="memory-reload">{t.memory_reload_and_measure}</a> }
                    });
                    view! {
                        <p data-testid="bytes-per-worker-unavailable" data-block=reason.id()>
                            {fill(t.memory_worker_unavailable, &[("reason", &reason.text())])}
                        </p>
                        {again}
                    }.into_any()
                }
            },
        })}
    </div>
    }
}

/// What a task costs in memory: bytes per parked task; `per_task` gives them with their display.
fn prediction(per_task: Signal<Option<(f64, String)>>) -> AnyView {
    use crate::components::predict::{memory_band, strings, Measured, Prediction};
    let t = ui();
    let measured = Signal::derive(move || {
        per_task.get().and_then(|(bytes, shown)| {
            memory_band(bytes)
                .map(|option| Measured { option, value: fill(t.predict_value_memory, &[("bytes", &shown)]) })
        })
    });
    let question = Signal::stored(t.predict_memory_question.to_string());
    let options = Signal::stored(strings(&t.predict_memory_options));
    view! { <Prediction experiment=ExperimentId::TaskMemory question options measured quotes="testid:bytes-per-task" /> }.into_any()
}
