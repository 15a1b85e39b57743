//! The "what a task costs" chapter: task size against overhead (granularity), heap held by a parked
//! task against a Web Worker (memory), and the time of a thread switch against a task switch.

use super::panel::{variant_id, ResultLog, RunStatus};
use crate::components::controls::NumberField;
use crate::components::controls::Slider;
use crate::components::machine::MachineLine;
use crate::components::notes::ClampNotes;
use crate::components::published::SourceCitation;
use crate::components::results::ResultsTable;
use crate::components::share::ShareBar;
use crate::components::speedup_chart::{ChartSpec, Series, SpeedupChart, SweepPoint, YAxis};
use crate::components::unavailable::{ModeBanner, UnavailableNotice};
use crate::engine_client::{self, Mode};
use crate::environment::machine;
use crate::format;
use crate::i18n::{self, fill, ui};
use crate::presets::{write_to_url, Preset};
use crate::runner::Runner;
use experiments::catalog::task_memory::WEIGHED_WORKERS;
use experiments::catalog::{self, Machine};
use experiments::params::task_cost::{
    workers as workers_range, PARKED, REPETITIONS, ROUND_TRIPS, SWITCH_REPETITIONS, TASKS,
};
use experiments::published::{Source, GOROUTINE_PERFORMANCE_HI, PARALLELISM_BY_GOROUTINES_JA};
use experiments::stats::speedup;
use experiments::{Job, Measurement, Summary, Variant, Workload};
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The claims of the articles about task costs, with their sources (quoted, not measured here).
#[component]
fn CostClaims(claims: Vec<(&'static str, Source)>) -> impl IntoView {
    let t = ui();
    view! {
        <section class="published" data-testid="published">
            <h3>{t.cost_claims_title}</h3>
            <ul>
                {claims.into_iter().map(|(claim, source)| view! { <li>{claim}" "<SourceCitation source /></li> }).collect_view()}
            </ul>
        </section>
    }
}

/// Shared frame of the three panels: title, the engine's availability, the machine line.
#[component]
fn CostPanel(name: &'static str, title: &'static str, children: ChildrenFn) -> impl IntoView {
    let machine = machine();
    let body = match engine_client::availability() {
        Err(reason) => view! { <UnavailableNotice reason /> }.into_any(),
        Ok(mode) => view! { <ModeBanner mode />{children()} }.into_any(),
    };
    let title_id = format!("{name}-title");
    let labelled_by = title_id.clone();
    view! {
        <section class="experiment" aria-labelledby=labelled_by data-experiment=name>
            <h2 id=title_id>{title}</h2>
            {body}
            <MachineLine machine />
        </section>
    }
}

fn current_mode() -> Mode {
    engine_client::availability().unwrap_or(Mode::SingleWorker)
}

// ---------------------------------------------------------------------------------------------

fn sqrt_of(job: &Job) -> u32 {
    match job.workload {
        Workload::Granularity { sqrt } => sqrt,
        _ => 0,
    }
}

fn describe_granularity(job: &Job) -> String {
    let t = ui();
    let template = match job.variant {
        Variant::Sequential => t.granularity_loop,
        Variant::Tasks => t.granularity_rayon,
        Variant::Goroutines => t.granularity_goroutines,
    };
    fill(
        template,
        &[
            ("tasks", &format::int(job.tasks as u64)),
            ("workers", &i18n::workers(job.workers)),
            ("sqrt", &format::int(sqrt_of(job) as u64)),
        ],
    )
}

#[component]
pub fn GranularityExperiment() -> impl IntoView {
    let t = ui();
    view! {
        <CostPanel name="task-granularity" title=t.granularity_title>
            <GranularityControls cores=machine().logical_processors mode=current_mode() />
            <CostClaims claims=vec![(t.cost_claim_overhead, GOROUTINE_PERFORMANCE_HI)] />
        </CostPanel>
    }
}

#[component]
fn GranularityControls(cores: u32, mode: Mode) -> impl IntoView {
    let t = ui();
    let parallel = mode == Mode::Threads;
    let mut preset = Preset::from_url();
    let workers_limits = workers_range(cores);
    let read = catalog::task_granularity::read(&mut preset, Machine { cores, mode });
    let workers = RwSignal::new(read.workers as u64);
    let tasks = RwSignal::new(read.tasks as u64);
    let repetitions = RwSignal::new(read.repetitions as u64);
    let autorun = preset.autorun("task-granularity");
    let notes = preset.notes;
    let runner = Runner::new();
    let log = ResultLog::new();
    let jobs_of_run = RwSignal::new(Vec::<Job>::new());
    // Per (variant, workers): the overhead points; and the loop's time per task size.
    let lines = RwSignal::new(Vec::<((Variant, u32), Vec<SweepPoint>)>::new());
    let loop_ms = RwSignal::new(Vec::<(u32, f64)>::new());
    let measured_tasks = RwSignal::new(tasks.get_untracked() as u32);

    let run = move || {
        let s = catalog::task_granularity::Settings {
            workers: workers.get_untracked() as u32,
            tasks: tasks.get_untracked() as u32,
            repetitions: repetitions.get_untracked() as u32,
        };
        let x = s.tasks;
        write_to_url(&[
            (workers_limits.key, s.workers as u64),
            (TASKS.key, s.tasks as u64),
            (REPETITIONS.key, s.repetitions as u64),
        ]);
        let kinds = catalog::task_granularity::kinds(&s, mode);
        let jobs = catalog::task_granularity::run_jobs(&s, mode);
        jobs_of_run.set(jobs.clone());
        lines.set(kinds.iter().map(|&kind| (kind, Vec::new())).collect());
        loop_ms.set(Vec::new());
        measured_tasks.set(x);
        let run_log = log.start_run();
        let baseline = StoredValue::new(None::<Summary>);
        runner.run(jobs, move |_, m| {
            let sequential = m.job.variant == Variant::Sequential;
            run_log.add(&m, variant_id(m.job.variant), describe_granularity(&m.job), sequential);
            if sequential {
                baseline.set_value(Some(m.summary));
                loop_ms.update(|l| l.push((sqrt_of(&m.job), m.summary.median_ms)));
                return;
            }
            let Some(base) = baseline.get_value() else { return };
            let point = SweepPoint { x: sqrt_of(&m.job), summary: m.summary, speedup: speedup(&base, &m.summary) };
            lines.update(|lines| {
                if let Some((_, points)) = lines.iter_mut().find(|(kind, _)| *kind == (m.job.variant, m.job.workers)) {
                    points.push(point);
                }
            });
        });
    };
    if autorun {
        crate::runner::run_on_mount(run, false);
    }
    let series = Signal::derive(move || {
        lines.with(|lines| {
            lines
                .iter()
                .map(|((variant, workers), points)| {
                    let template = if *variant == Variant::Tasks { t.series_rayon } else { t.series_goroutines };
                    Series { name: fill(template, &[("workers", &i18n::workers(*workers))]), points: points.clone() }
                })
                .collect::<Vec<_>>()
        })
    });
    // Where a task does ~1 µs and ~1 ms of work: from the loop, time per square root on this machine.
    let thresholds = Signal::derive(move || {
        let x = measured_tasks.get() as f64;
        loop_ms
            .with(|l| {
                l.iter().max_by_key(|(sqrt, _)| *sqrt).map(|&(sqrt, ms)| {
                    let us_per_sqrt = ms * 1000.0 / (x * sqrt as f64);
                    vec![
                        (1.0 / us_per_sqrt, t.threshold_us.to_string()),
                        (1000.0 / us_per_sqrt, t.threshold_ms.to_string()),
                    ]
                })
            })
            .unwrap_or_default()
    });
    let running = Signal::derive(move || runner.running.get());
    let describe_job = move |index: usize| {
        jobs_of_run.with_untracked(|jobs| jobs.get(index).map(describe_granularity).unwrap_or_default())
    };
    view! {
        <ClampNotes notes />
        <form class="controls" aria-label=t.controls_label on:submit=move |ev| { ev.prevent_default(); run(); }>
            <NumberField label=t.tasks help=t.granularity_tasks_help.to_string() value=tasks range=TASKS disabled=running />
            <Slider label=t.workers help=t.granularity_workers_help.to_string() value=workers range=Signal::stored(workers_limits) disabled=Signal::derive(move || running.get() || !parallel) />
            <Slider label=t.repetitions help=t.repetitions_help.to_string() value=repetitions range=Signal::stored(REPETITIONS) disabled=running />
            <div class="actions">
                <button type="submit" class="primary" disabled=move || running.get()>{t.granularity_run}</button>
                <button type="button" disabled=move || !running.get() on:click=move |_| runner.stop()>{t.stop}</button>
            </div>
        </form>
        <ShareBar experiment="task-granularity" rows=log.rows.into() />
        <RunStatus runner describe=describe_job />
        {move || {
            let markers = thresholds.get();
            view! {
                <SpeedupChart
                    series
                    spec=ChartSpec { y_axis: YAxis::Overhead, markers, ..ChartSpec::speedup(t.sqrt_per_task) }
                    caption=Signal::derive(move || fill(t.granularity_caption, &[("tasks", &i18n::tasks(measured_tasks.get()))]))
                    empty_text=t.granularity_empty
                    test_id="granularity-chart"
                />
            }
        }}
        <ResultsTable rows=log.rows.into() />
    }
}

// ---------------------------------------------------------------------------------------------

/// A future that resolves `ms` milliseconds from now (a page timer).
fn after_ms(ms: i32) -> wasm_bindgen_futures::JsFuture {
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    }))
}

/// How long to wait for the browser's memory measurement before saying it did not answer.
const MEMORY_ANSWER_MS: i32 = 45_000;

/// Ask the browser how much memory this page uses (all its workers included), if it lets us and
/// answers within [`MEMORY_ANSWER_MS`] (it waits for its next garbage collection).
async fn browser_memory_bytes() -> Option<f64> {
    let measured = Box::pin(ask_browser_memory());
    match futures_util::future::select(measured, after_ms(MEMORY_ANSWER_MS)).await {
        futures_util::future::Either::Left((bytes, _)) => bytes,
        futures_util::future::Either::Right(_) => None,
    }
}

async fn ask_browser_memory() -> Option<f64> {
    let window = web_sys::window()?;
    let performance = js_sys::Reflect::get(&window, &"performance".into()).ok()?;
    let measure = js_sys::Reflect::get(&performance, &"measureUserAgentSpecificMemory".into()).ok()?;
    let measure: js_sys::Function = wasm_bindgen::JsCast::dyn_into(measure).ok()?;
    let promise: js_sys::Promise = wasm_bindgen::JsCast::dyn_into(measure.call0(&performance).ok()?).ok()?;
    let result = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    js_sys::Reflect::get(&result, &"bytes".into()).ok()?.as_f64()
}

/// How long the idle workers may take to load before the weighing is given up.
const IDLE_WORKERS_LIMIT_MS: i32 = 10_000;

/// The page's memory before and after starting `count` idle Web Workers, per worker (`None` if the
/// browser cannot measure it), or why the idle workers could not be started.
async fn weigh_idle_workers(count: u32) -> Result<Option<f64>, String> {
    let Some(before) = browser_memory_bytes().await else { return Ok(None) };
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    type Handlers = (Closure<dyn FnMut()>, Closure<dyn FnMut(web_sys::Event)>);
    let mut workers: Vec<(web_sys::Worker, Handlers)> = Vec::new();
    let mut answers = Vec::new();
    let script = engine_client::engine_script_url("idle-worker.js");
    for _ in 0..count {
        let worker = web_sys::Worker::new_with_options(&script, &options)
            .map_err(|_| "the browser refused to start idle-worker.js".to_string())?;
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
                let _ = tell.send(Err("idle-worker.js could not be loaded".into()));
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
            match answers.into_iter().find_map(|answer| answer.unwrap_or(Err("an idle worker ended".into())).err()) {
                Some(problem) => Err(problem),
                None => Ok(browser_memory_bytes().await.map(|after| (after - before) / count as f64)),
            }
        }
        futures_util::future::Either::Right(_) => {
            Err(format!("idle-worker.js did not start within {} s", IDLE_WORKERS_LIMIT_MS / 1000))
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
        <CostPanel name="task-memory" title=t.memory_title>
            <TaskMemoryControls mode=current_mode() />
            <CostClaims claims=vec![(t.cost_claim_memory, GOROUTINE_PERFORMANCE_HI), (t.cost_claim_lighter, PARALLELISM_BY_GOROUTINES_JA)] />
        </CostPanel>
    }
}

#[component]
fn TaskMemoryControls(mode: Mode) -> impl IntoView {
    let t = ui();
    let mut preset = Preset::from_url();
    let parked = RwSignal::new(catalog::task_memory::read(&mut preset, Machine { cores: 1, mode }) as u64);
    let autorun = preset.autorun("task-memory");
    let notes = preset.notes;
    let runner = Runner::new();
    let task_report = RwSignal::new(None::<Measurement>);
    // (JavaScript engine per idle worker, engine heap per pool worker), once weighed.
    let worker_bytes = RwSignal::new(None::<Option<(f64, f64)>>);
    let weighing = RwSignal::new(false);
    // Why the idle workers could not be weighed, if they could not be started.
    let weigh_problem = RwSignal::new(None::<String>);

    // A Web Worker is weighed in two parts: what the browser reports for idle workers (their own
    // JavaScript engine), and the heap the engine gives each worker of a new pool (its stack and
    // thread-local storage). The browser can only measure a page whose workers never waited on
    // shared memory, so the idle workers are weighed first, before the engine starts.
    let measure = move || {
        let count = parked.get_untracked() as u32;
        write_to_url(&[(PARKED.key, count as u64)]);
        worker_bytes.set(None);
        weigh_problem.set(None);
        task_report.set(None);
        let javascript = RwSignal::new(None::<f64>);
        let start_engine = move || {
            let jobs = catalog::task_memory::run_jobs(count);
            runner.run(jobs, move |index, m| {
                if index == 0 {
                    task_report.set(Some(m));
                } else if let (Some(js), Some(heap)) =
                    (javascript.get_untracked(), m.memory.and_then(|r| r.bytes_per_worker))
                {
                    worker_bytes.set(Some(Some((js, heap))));
                } else {
                    worker_bytes.set(Some(None));
                }
            });
        };
        if mode == Mode::Threads && !engine_client::ever_started() {
            weighing.set(true);
            leptos::task::spawn_local(async move {
                match weigh_idle_workers(WEIGHED_WORKERS).await {
                    Ok(measured) => {
                        javascript.try_set(measured);
                    }
                    Err(problem) => {
                        weigh_problem.try_set(Some(problem));
                    }
                }
                weighing.try_set(false);
                start_engine();
            });
        } else {
            start_engine();
        }
    };
    if autorun {
        crate::runner::run_on_mount(measure, false);
    }
    let running = Signal::derive(move || runner.running.get() || weighing.get());
    let bytes = |b: f64| format!("{} B", format::int(b.round().max(0.0) as u64));
    view! {
        <ClampNotes notes />
        <form class="controls" aria-label=t.controls_label on:submit=move |ev| { ev.prevent_default(); measure(); }>
            <NumberField label=t.parked_tasks_label help=t.parked_tasks_help.to_string() value=parked range=PARKED disabled=running />
            <div class="actions">
                <button type="submit" class="primary" disabled=move || running.get()>{t.measure_memory}</button>
            </div>
        </form>
        <ShareBar experiment="task-memory" />
        <RunStatus runner describe=move |_| t.measure_memory.to_string() />
        <div class="memory-report" data-testid="memory-report">
            {move || task_report.get().and_then(|m| m.memory.and_then(|report| report.bytes_per_task.map(|per_task| {
                let spawn_ns = m.summary.median_ms * 1e6 / report.tasks as f64;
                view! {
                    <p data-testid="bytes-per-task" data-bytes=per_task>
                        {fill(t.memory_task_line, &[("bytes", &bytes(per_task)), ("tasks", &i18n::tasks(report.tasks))])}
                    </p>
                    <p>{fill(t.memory_spawn_line, &[("ms", &format::ms(m.summary.median_ms)), ("ns", &format::int(spawn_ns.round() as u64))])}</p>
                }
            })))}
            <Show when=move || weighing.get()>
                <p class="help">{t.memory_worker_waiting}</p>
            </Show>
            {move || worker_bytes.get().map(|measured| match measured {
                Some((javascript, heap)) => {
                    let per_task = task_report.with(|m| m.as_ref().and_then(|m| m.memory).and_then(|r| r.bytes_per_task)).unwrap_or(f64::NAN);
                    let per_worker = javascript + heap;
                    view! {
                        <p data-testid="bytes-per-worker" data-bytes=per_worker>
                            {fill(t.memory_worker_line, &[
                                ("bytes", &bytes(per_worker)),
                                ("javascript", &bytes(javascript)),
                                ("heap", &bytes(heap)),
                                ("workers", &WEIGHED_WORKERS.to_string()),
                            ])}
                        </p>
                        <p>{fill(t.memory_ratio_line, &[("ratio", &format::int((per_worker / per_task).round().max(0.0) as u64))])}</p>
                    }.into_any()
                }
                None => match weigh_problem.get() {
                    Some(problem) => view! {
                        <p data-testid="bytes-per-worker-unavailable">{fill(t.memory_worker_failed, &[("problem", &problem)])}</p>
                    }.into_any(),
                    None => view! { <p data-testid="bytes-per-worker-unavailable">{t.memory_worker_unavailable}</p> }.into_any(),
                },
            })}
        </div>
    }
}

// ---------------------------------------------------------------------------------------------

#[component]
pub fn SwitchCostExperiment() -> impl IntoView {
    let t = ui();
    view! {
        <CostPanel name="task-switch" title=t.switch_title>
            <SwitchControls mode=current_mode() />
        </CostPanel>
    }
}

#[component]
fn SwitchControls(mode: Mode) -> impl IntoView {
    let t = ui();
    let mut preset = Preset::from_url();
    let read = catalog::task_switch::read(&mut preset, Machine { cores: 1, mode });
    let trips = RwSignal::new(read.round_trips as u64);
    let repetitions = RwSignal::new(read.repetitions as u64);
    let autorun = preset.autorun("task-switch");
    let notes = preset.notes;
    let runner = Runner::new();
    let results = RwSignal::new(Vec::<Measurement>::new());
    let log = ResultLog::new();

    let measure = move || {
        let s = catalog::task_switch::Settings {
            round_trips: trips.get_untracked() as u32,
            repetitions: repetitions.get_untracked() as u32,
        };
        write_to_url(&[(ROUND_TRIPS.key, s.round_trips as u64), (SWITCH_REPETITIONS.key, s.repetitions as u64)]);
        let jobs = catalog::task_switch::run_jobs(&s, mode);
        results.set(Vec::new());
        let run_log = log.start_run();
        runner.run(jobs, move |_, m| {
            let name = if m.job.variant == Variant::Tasks { t.switch_threads } else { t.switch_goroutines };
            run_log.add(&m, variant_id(m.job.variant), name.to_string(), false);
            results.update(|r| r.push(m));
        });
    };
    if autorun {
        crate::runner::run_on_mount(measure, false);
    }
    let running = Signal::derive(move || runner.running.get());
    // Two switches per round trip.
    let ns = |m: &Measurement, ms: f64| {
        let Workload::PingPong { round_trips } = m.job.workload else { return f64::NAN };
        ms * 1e6 / (2.0 * round_trips as f64)
    };
    let ratio = move || {
        results.with(|r| {
            let of = |variant| r.iter().find(|m| m.job.variant == variant).map(|m| ns(m, m.summary.median_ms));
            match (of(Variant::Tasks), of(Variant::Goroutines)) {
                (Some(thread), Some(task)) if task > 0.0 => Some(thread / task),
                _ => None,
            }
        })
    };
    view! {
        <ClampNotes notes />
        <form class="controls" aria-label=t.controls_label on:submit=move |ev| { ev.prevent_default(); measure(); }>
            <NumberField label=t.round_trips help=t.round_trips_help.to_string() value=trips range=ROUND_TRIPS disabled=running />
            <Slider label=t.repetitions help=t.repetitions_help.to_string() value=repetitions range=Signal::stored(SWITCH_REPETITIONS) disabled=running />
            <div class="actions">
                <button type="submit" class="primary" disabled=move || running.get()>{t.measure_switches}</button>
                <button type="button" disabled=move || !running.get() on:click=move |_| runner.stop()>{t.stop}</button>
            </div>
        </form>
        {(mode == Mode::SingleWorker).then(|| view! { <p class="help">{t.switch_single_worker}</p> })}
        <ShareBar experiment="task-switch" rows=log.rows.into() />
        <RunStatus runner describe=move |_| t.measure_switches.to_string() />
        <Show when=move || results.with(|r| !r.is_empty())>
            <div class="table-scroll">
                <table class="switch-costs" data-testid="switch-costs">
                    <caption>{t.switch_caption}</caption>
                    <thead>
                        <tr>
                            <th scope="col">{t.col_variant}</th>
                            <th scope="col">{t.col_ns_median}</th>
                            <th scope="col">{t.col_ns_min}</th>
                            <th scope="col">{t.col_ns_max}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || results.get().into_iter().map(|m| {
                            let name = if m.job.variant == Variant::Tasks { t.switch_threads } else { t.switch_goroutines };
                            let median = ns(&m, m.summary.median_ms);
                            view! {
                                <tr data-variant=variant_id(m.job.variant) data-ns=median>
                                    <th scope="row">{name}</th>
                                    <td class="num">{format::int(median.round() as u64)}</td>
                                    <td class="num">{format::int(ns(&m, m.summary.min_ms).round() as u64)}</td>
                                    <td class="num">{format::int(ns(&m, m.summary.max_ms).round() as u64)}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            {move || ratio().map(|r| view! { <p data-testid="switch-ratio">{fill(t.switch_ratio, &[("ratio", &format::fixed(r, 1))])}</p> })}
        </Show>
    }
}
