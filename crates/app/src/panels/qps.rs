//! The high-concurrency lab: a thread-pool server and a goroutine server under the same load of
//! requests that compute a little and then wait; QPS, latency percentiles, utilisation, requests
//! in flight over time, and Little's law checked against the measurement.

use super::panel::{ExperimentFrame, LongRunNote, RunButtons, RunStatus};
use super::state::ExperimentState;
use crate::components::axis::Scale;
use crate::components::controls::{NumberField, Slider};
use crate::components::later::Later;
use crate::components::line_chart::{Line, LineChart};
use crate::components::notes::ClampNotes;
use crate::components::published::SourceCitation;
use crate::components::share::ShareBar;
use crate::components::split_view::{LaterCode, SplitBuilt};
use crate::format;
use crate::i18n::{self, fill, message, ui, Arg};
use experiments::catalog::qps::{self as catalog_qps, Settings};
use experiments::catalog::qps::{CONCURRENCY, REPETITIONS, REQUESTS, WAIT_MS, WORK_US};
use experiments::catalog::ExperimentId;
use experiments::catalog::Machine;
use experiments::published::QPS;
use experiments::{Job, Measurement, Variant};
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

fn server_name(m: &Job) -> String {
    let t = ui();
    let template = if m.variant == Variant::ThreadPool { t.qps_pool_server } else { t.qps_goroutine_server };
    message(template, &[("workers", Arg::Count(m.workers as u64))])
}

/// Buckets of in-flight counts (start, average) placed at their middles: on a log time axis the
/// first bucket, which starts at 0, is drawn too.
fn at_middles(buckets: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let width = match buckets {
        [first, second, ..] => second.0 - first.0,
        _ => 0.0,
    };
    buckets.iter().map(|&(start, count)| (start + width / 2.0, count)).collect()
}

/// What each request of a published server test did, in the UI's language.
fn qps_case(sleep_ms: u32) -> String {
    let t = ui();
    if sleep_ms == 0 {
        t.qps_case_hello_world.to_string()
    } else {
        message(t.qps_case_sleep, &[("ms", Arg::Count(sleep_ms as u64))])
    }
}

#[component]
pub fn QpsExperiment() -> impl IntoView {
    let t = ui();
    let published = QPS
        .iter()
        .map(|p| {
            view! {
                <tr>
                    <th scope="row">{qps_case(p.sleep_ms)}</th>
                    <td>{p.thread_pool}</td>
                    <td class="num">{format::int(p.thread_pool_qps as u64)}</td>
                    <td>{p.coroutines}</td>
                    <td class="num">{format::int(p.coroutines_qps as u64)}</td>
                    <td class="num">{format::times(p.coroutines_qps as f64 / p.thread_pool_qps as f64)}</td>
                    <td><SourceCitation source=p.source /></td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <ExperimentFrame
            experiment=ExperimentId::Qps
            title=t.qps_title
            controls=|machine| view! { <QpsControls machine /> }.into_any()
            cannot_run_text=t.qps_single_worker
        >
            <section class="published" data-testid="published">
                <h3>{t.published_title}</h3>
                <div class="table-scroll" tabindex="0">
                    <table>
                        <caption>{t.published_qps_caption}</caption>
                        <thead>
                            <tr>
                                <th scope="col">{t.col_case}</th>
                                <th scope="col">{t.col_server}</th>
                                <th scope="col">{t.col_qps}</th>
                                <th scope="col">{t.col_server}</th>
                                <th scope="col">{t.col_qps}</th>
                                <th scope="col">{t.col_speedup}</th>
                                <th scope="col">{t.col_source}</th>
                            </tr>
                        </thead>
                        <tbody>{published}</tbody>
                    </table>
                </div>
            </section>
        </ExperimentFrame>
    }
}

#[component]
fn QpsControls(machine: Machine) -> impl IntoView {
    let t = ui();
    let (threads_limits, workers_limits) = catalog_qps::ranges(machine);
    let exp = ExperimentState::<Settings>::new(machine);
    let requests = exp.knob(&REQUESTS);
    let concurrency = exp.knob(&CONCURRENCY);
    let wait = exp.knob(&WAIT_MS);
    let work = exp.knob(&WORK_US);
    let threads = exp.knob(&threads_limits);
    let workers = exp.knob(&workers_limits);
    let repetitions = exp.knob(&REPETITIONS);
    let results = RwSignal::new(Vec::<Measurement>::new());

    // A load test of slow requests can take minutes: say so before it starts.
    let at_least_ms =
        Signal::derive(move || experiments::duration::run_takes_at_least_ms(&catalog_qps::run_jobs(&exp.track())));
    let run = move || {
        let s = exp.get();
        results.set(Vec::new());
        exp.run(&s, catalog_qps::run_jobs(&s), move |_, _, m| {
            results.update(|all| all.push(m));
        });
    };
    exp.autorun(run);
    let running = exp.running();
    let ratio = move || {
        results.with(|all| {
            let of =
                |variant| all.iter().find(|m| m.job.variant == variant).and_then(|m| m.qps.as_ref()).map(|q| q.qps);
            match (of(Variant::ThreadPool), of(Variant::Goroutines)) {
                (Some(pool), Some(tasks)) if pool > 0.0 => Some(tasks / pool),
                _ => None,
            }
        })
    };
    view! {
        <ClampNotes notes=exp.notes() />
        <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.qps_title)]) on:submit=move |ev| { ev.prevent_default(); run(); }>
            <NumberField label=t.qps_requests help=t.qps_requests_help.to_string() value=requests range=REQUESTS disabled=running />
            <NumberField label=t.qps_concurrency help=t.qps_concurrency_help.to_string() value=concurrency range=CONCURRENCY disabled=running />
            <Slider label=t.qps_wait help=t.qps_wait_help.to_string() value=wait range=Signal::stored(WAIT_MS) disabled=running />
            <NumberField label=t.qps_work help=t.qps_work_help.to_string() value=work range=WORK_US disabled=running />
            <Slider label=t.qps_threads help=t.qps_threads_help.to_string() value=threads range=Signal::stored(threads_limits) disabled=running />
            <Slider label=t.qps_workers help=t.qps_workers_help.to_string() value=workers range=Signal::stored(workers_limits) disabled=running />
            <Slider label=t.repetitions help=t.repetitions_help_load_test.to_string() value=repetitions range=Signal::stored(REPETITIONS) disabled=running />
            <RunButtons runner=exp.runner run_label=t.run />
            <LongRunNote at_least_ms />
        </form>
        // The rest in a later task (issue 15: no main-thread task over 50 ms); the results table, the
        // chart and sharing come in code of their own, after the engine's files.
        <Later>
            {prediction(Signal::derive(ratio))}
            <RunStatus runner=exp.runner describe=move |index| if index == 0 { i18n::ui().qps_threads.to_string() } else { i18n::ui().qps_workers.to_string() } />
        </Later>
        <LaterCode load=move || qps_views(results, Signal::derive(ratio), [concurrency.into(), wait.into(), work.into()]) />
    }
}

/// The QPS panel's results table, ratio, in-flight chart and sharing: a split point of its own
/// (`views_qps`), fetched after the engine's files (components::split_view::LaterCode).
#[wasm_split(views_qps, fallible, wasm_split_path = ::leptos::wasm_split)]
fn qps_views(results: RwSignal<Vec<Measurement>>, ratio: Signal<Option<f64>>, load: [Signal<u64>; 3]) -> SplitBuilt {
    let t = ui();
    let [concurrency, wait, work] = load;
    let lines = Signal::derive(move || {
        results.with(|all| {
            all.iter()
                .filter_map(|m| {
                    m.qps.as_ref().map(|q| Line { name: server_name(&m.job), points: at_middles(&q.in_flight) })
                })
                .collect::<Vec<_>>()
        })
    });
    let ms = |v: f64| format::ms(v);
    // Built in later tasks, not in the one that instantiated this code (issue 15: no task over 50 ms).
    Ok(view! {
        <Later>
            <Show when=move || results.with(|r| !r.is_empty())>
                <div class="table-scroll" tabindex="0">
                    <table class="qps-results" data-testid="qps-results">
                        <caption>{t.qps_caption}</caption>
                        <thead>
                            <tr>
                                <th scope="col">{t.col_server}</th>
                                <th scope="col">{t.col_qps}</th>
                                <th scope="col">{t.col_p50}</th>
                                <th scope="col">{t.col_p95}</th>
                                <th scope="col">{t.col_p99}</th>
                                <th scope="col">{t.col_computing}</th>
                                <th scope="col">{t.col_held}</th>
                                <th scope="col">{t.col_in_flight}</th>
                                <th scope="col">{t.col_check}</th>
                            </tr>
                        </thead>
                        <tbody>
                            {move || results.get().into_iter().filter_map(|m| m.qps.clone().map(|q| view! {
                                <tr data-variant=if m.job.variant == Variant::ThreadPool { "thread-pool" } else { "goroutines" } data-qps=q.qps>
                                    <th scope="row">{server_name(&m.job)}</th>
                                    <td class="num">{format::int(q.qps.round() as u64)}</td>
                                    <td class="num">{ms(q.p50_ms)}</td>
                                    <td class="num">{ms(q.p95_ms)}</td>
                                    <td class="num">{ms(q.p99_ms)}</td>
                                    <td class="num">{format::percent(q.computing_utilisation)}</td>
                                    <td class="num">{format::percent(q.held_utilisation)}</td>
                                    <td class="num">{format!("{} / {}", format::fixed(q.little.measured_in_flight, 1), format::fixed(q.little.predicted_in_flight, 1))}</td>
                                    <td class="check">{if m.check.ok { fill(t.check_passed, &[("value", &format::int(q.requests as u64))]) } else { fill(t.check_wrong, &[("expected", &m.check.expected)]) }}</td>
                                </tr>
                            })).collect_view()}
                        </tbody>
                    </table>
                </div>
                {move || ratio.get().map(|r| view! { <p data-testid="qps-ratio">{fill(t.qps_ratio, &[("ratio", &format::fixed(r, 1))])}</p> })}
                <LineChart lines x_scale=Scale::Log10 x_label=t.axis_time_run y_label=t.axis_in_flight caption=Signal::derive(move || fill(t.in_flight_caption, &[("concurrency", &format::int(concurrency.get()))])) test_id="in-flight" />
            </Show>
            // Results first, then the question and sharing, as in every chapter.
            {work_it_out(results, concurrency, wait, work)}
            <ShareBar experiment=ExperimentId::Qps />
        </Later>
    }
    .into_any())
}

/// High concurrency: which server answers more requests per second.
fn prediction(tasks_over_pool: Signal<Option<f64>>) -> AnyView {
    use crate::components::predict::{qps_winner, strings, Measured, Prediction};
    let t = ui();
    let measured = Signal::derive(move || {
        let ratio = tasks_over_pool.get()?;
        qps_winner(ratio)
            .map(|option| Measured { option, value: fill(t.predict_value_qps, &[("ratio", &format::fixed(ratio, 1))]) })
    });
    let question = Signal::stored(t.predict_qps_question.to_string());
    let options = Signal::stored(strings(&t.predict_qps_options));
    view! { <Prediction experiment=ExperimentId::Qps question options measured quotes="testid:qps-ratio" /> }.into_any()
}

/// Work it out: Little's law, the most requests per second the goroutine server can answer with c
/// requests in flight that each take their wait and their work, beside what it answered.
fn work_it_out(
    results: RwSignal<Vec<Measurement>>,
    concurrency: Signal<u64>,
    wait: Signal<u64>,
    work: Signal<u64>,
) -> AnyView {
    use crate::components::work_it_out::{self as question, inputs, little_per_s, press, request_s, Ask, Exercise};
    let t = ui();
    let ask = Signal::derive(move || {
        let (c, wait_ms, work_us) = (concurrency.get() as u32, wait.get() as u32, work.get() as u32);
        let seconds = request_s(wait_ms, work_us);
        let Some(answer) = little_per_s(c, seconds) else { return Ask::First(t.work_qps_zero.to_string()) };
        let rate = format::int(answer.round() as u64);
        Ask::Exercise(Exercise {
            formula: "little",
            question: message(
                t.work_qps_question,
                &[
                    ("c", Arg::Count(c as u64)),
                    ("wait", Arg::Text(&format::int(wait_ms as u64))),
                    ("work", Arg::Text(&format::int(work_us as u64))),
                ],
            ),
            unit: t.unit_rps,
            answer,
            worked: fill(
                t.work_qps_worked,
                &[
                    ("c", &format::int(c as u64)),
                    ("wait", &format::int(wait_ms as u64)),
                    ("work", &format::int(work_us as u64)),
                    ("seconds", &format::decimal(seconds, 6)),
                    ("answer", &rate),
                ],
            ),
            computed: fill(t.work_at_most_rps, &[("rate", &rate)]),
            inputs: inputs(&[("c", c as f64), ("wait", wait_ms as f64), ("work", work_us as f64)]),
        })
    });
    let measured = Signal::derive(move || {
        // Only a run of the load the question names answers it.
        let (c, wait_us, work_us) = (concurrency.get() as u32, wait.get() as u32 * 1_000, work.get() as u32);
        let qps = results.with(|all| {
            all.iter()
                .filter(|m| matches!(m.job.workload, experiments::Workload::Qps { concurrency, wait_us: w, work_us: u, .. } if concurrency == c && w == wait_us && u == work_us))
                .find(|m| m.job.variant == Variant::Goroutines)
                .and_then(|m| m.qps.as_ref())
                .map(|q| q.qps)
        })?;
        Some((
            t.work_measured_goroutines.to_string(),
            fill(t.work_value_rps, &[("rate", &format::int(qps.round() as u64))]),
        ))
    });
    question::work_it_out(ask, measured, press(t.run))
}
