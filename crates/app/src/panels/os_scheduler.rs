//! The OS scheduler chapter: a seeded round-robin simulation (`workloads::os_scheduler`), recomputed
//! live as the reader moves the controls, drawn as a Gantt chart and as thread states.
//!
//! It is a model, not a measurement: it runs in the page itself (bounded, a few milliseconds at the
//! largest settings) and needs no engine, so it works on pages without threads too.

use super::os_scheduler_quiz::{QuizPhase, SolveThenReveal};
use super::panel::ExperimentFrame;
use crate::components::controls::{unique_id, NumberField, Slider};
use crate::components::lane_chart::{Bar, Fill, Lane, LaneChart};
use crate::components::later::Later;
use crate::components::notes::ClampNotes;
use crate::components::predict;
use crate::components::share::ShareBar;
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use crate::presets::{write_to_url, Preset};
use experiments::catalog::os_scheduler::{CORES, MIXES, QUANTUM_MS, SEED, SWITCH_US, THREADS};
use experiments::catalog::ExperimentId;
use experiments::catalog::{self, Machine};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use workloads::os_scheduler::{generate_threads, simulate, CoreActivity, Mix, Schedule, ThreadState};

fn mix_of(id: &str) -> Mix {
    match id {
        "cpu" => Mix::CpuBound,
        "io" => Mix::IoBound,
        _ => Mix::Mixed,
    }
}

fn mix_name(id: &str) -> &'static str {
    let t = ui();
    match id {
        "cpu" => t.mix_cpu,
        "io" => t.mix_io,
        _ => t.mix_mixed,
    }
}

fn ms(us: u64) -> f64 {
    us as f64 / 1000.0
}

fn gantt_lanes(schedule: &Schedule) -> Vec<Lane> {
    let t = ui();
    schedule
        .gantt
        .iter()
        .enumerate()
        .map(|(core, segments)| Lane {
            label: fill(t.core_lane, &[("n", &core.to_string())]),
            bars: segments
                .iter()
                .map(|s| match s.activity {
                    CoreActivity::Run { thread } => Bar {
                        start: ms(s.start_us),
                        end: ms(s.end_us),
                        fill: Fill::Item(thread as u32),
                        label: Some(fill(t.thread_lane, &[("n", &thread.to_string())])),
                    },
                    CoreActivity::Switch { .. } => {
                        Bar { start: ms(s.start_us), end: ms(s.end_us), fill: Fill::Muted, label: None }
                    }
                })
                .collect(),
        })
        .collect()
}

fn state_lanes(schedule: &Schedule) -> Vec<Lane> {
    let t = ui();
    schedule
        .threads
        .iter()
        .enumerate()
        .map(|(thread, report)| Lane {
            label: fill(t.thread_lane, &[("n", &thread.to_string())]),
            bars: report
                .timeline
                .iter()
                .map(|interval| Bar {
                    start: ms(interval.start_us),
                    end: ms(interval.end_us),
                    fill: match interval.state {
                        ThreadState::Running => Fill::Item(thread as u32),
                        ThreadState::Runnable => Fill::Muted,
                        ThreadState::Waiting => Fill::Outline,
                    },
                    label: None,
                })
                .collect(),
        })
        .collect()
}

#[component]
pub fn OsSchedulerExperiment() -> impl IntoView {
    let t = ui();
    view! {
        <ExperimentFrame experiment=ExperimentId::OsScheduler title=t.os_title controls=|machine| view! { <OsSchedulerControls machine /> }.into_any() />
    }
}

/// The simulation's controls and results: a model on the page, so `machine` plays no part in it.
#[component]
fn OsSchedulerControls(machine: Machine) -> impl IntoView {
    let t = ui();
    let mut preset = Preset::from_url();
    let read = catalog::os_scheduler::read(&mut preset, machine);
    let threads = RwSignal::new(read.threads);
    let cores = RwSignal::new(read.cores);
    let quantum = RwSignal::new(read.quantum_ms);
    let switch_cost = RwSignal::new(read.switch_us);
    let seed = RwSignal::new(read.seed);
    let mix = RwSignal::new(read.mix);
    let notes = preset.notes;

    let specs = Memo::new(move |_| generate_threads(threads.get() as usize, seed.get(), mix_of(mix.get())));
    let schedule = Memo::new(move |_| {
        specs
            .with(|specs| simulate(specs, cores.get() as u32, quantum.get() * 1000, switch_cost.get()))
            .map_err(|e| e.to_string())
    });
    // Solve, then reveal: while the reader predicts, the schedule stays hidden.
    let quiz = RwSignal::new(QuizPhase::Off);
    // The quiz is this model's prediction: `predict=0` turns it off like the other panels' questions.
    let asks_questions = predict::enabled(use_query_map().get_untracked().get(predict::PARAMETER).as_deref());
    let shown = move || quiz.get() != QuizPhase::Predicting;
    // The URL always holds the settings shown, so the page can be shared as it is.
    Effect::new(move |_| {
        write_to_url(
            &catalog::os_scheduler::Settings {
                threads: threads.get(),
                cores: cores.get(),
                quantum_ms: quantum.get(),
                switch_us: switch_cost.get(),
                seed: seed.get(),
                mix: mix.get(),
            }
            .query(),
        );
    });

    let never = Signal::stored(false);

    view! {
            <p class="help">{t.os_simulation_note}</p>
            // Not needed to read the model: after the controls (issue 15: no task over 50 ms).
            <Later><ShareBar experiment=ExperimentId::OsScheduler /></Later>
            <ClampNotes notes />
            <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.os_title)]) on:submit=|ev| ev.prevent_default()>
                {mix_choice(mix)}
                <Slider label=t.threads help=t.threads_help.to_string() value=threads range=Signal::stored(THREADS) disabled=never />
                <Slider label=t.cores help=t.cores_help.to_string() value=cores range=Signal::stored(CORES) disabled=never />
                <Slider label=t.quantum help=t.quantum_help.to_string() value=quantum range=Signal::stored(QUANTUM_MS) disabled=never />
                <Slider label=t.switch_cost help=t.switch_cost_help.to_string() value=switch_cost range=Signal::stored(SWITCH_US) disabled=never />
                <NumberField label=t.seed help=t.seed_help.to_string() value=seed range=SEED disabled=never />
            </form>
            // The simulation, its charts and tables in a task of their own (issue 15: no main-thread
            // task over 50 ms).
            <Later>
                {move || schedule.with(|s| s.as_ref().err().map(|detail| view! {
                    <div class="notice notice-warning" role="alert">
                        <p>{t.simulation_refused}</p>
                        <details class="failure-detail">
                            <summary>{t.failure_detail_summary}</summary>
                            <code lang="en">{detail.clone()}</code>
                        </details>
                    </div>
                }))}
                {asks_questions.then(|| view! { <SolveThenReveal phase=quiz seed specs schedule /> })}
                <Show when=shown>{schedule_views(schedule, cores, threads)}</Show>
            </Later>
    }
}

/// The schedule drawn: a Gantt chart of the cores, the threads' states, then the tables, each in a
/// task of its own (both charts in one took 55 to 70 ms).
fn schedule_views(
    schedule: Memo<Result<Schedule, String>>,
    cores: RwSignal<u64>,
    threads: RwSignal<u64>,
) -> impl IntoView {
    let t = ui();
    let gantt = Signal::derive(move || schedule.with(|s| s.as_ref().map(gantt_lanes).unwrap_or_default()));
    let states = Signal::derive(move || schedule.with(|s| s.as_ref().map(state_lanes).unwrap_or_default()));
    let summary = Signal::derive(move || {
        schedule.with(|s| s.as_ref().map_or(String::new(), |s| summary_of(s, cores.get(), threads.get())))
    });
    view! {
        <figure class="timeline">
            <figcaption>{t.gantt_caption}</figcaption>
            <LaneChart lanes=gantt x_label=t.axis_time_sim summary test_id="os-gantt" />
            <p class="timeline-summary" data-testid="os-summary">{summary}</p>
        </figure>
        <Later>
            <figure class="timeline">
                <figcaption>{t.states_caption}</figcaption>
                <LaneChart lanes=states x_label=t.axis_time_sim summary=Signal::derive(move || t.states_caption.to_string()) test_id="os-states" />
            </figure>
        </Later>
        <Later>
            {move || schedule.get().ok().map(|s| schedule_tables(&s))}
            {work_it_out(schedule, cores, threads)}
        </Later>
    }
}

/// Work it out: the least time the schedule can take, the threads' CPU time over the cores (no
/// waiting, no switching, no idle core), then the simulated schedule's length beside it. Shown
/// with the schedule, so it waits for the reader's prediction like the rest.
fn work_it_out(schedule: Memo<Result<Schedule, String>>, cores: RwSignal<u64>, threads: RwSignal<u64>) -> AnyView {
    use crate::components::work_it_out::{self as question, inputs, shown, Ask, Exercise};
    let t = ui();
    let ask = Signal::derive(move || {
        let cpu_ms = schedule.with(|s| s.as_ref().map_or(0.0, |s| s.threads.iter().map(|r| ms(r.cpu_us)).sum::<f64>()));
        let cpu = shown(cpu_ms, format::ms_digits(cpu_ms));
        let c = cores.get();
        let answer = cpu / c.max(1) as f64;
        Ask::Exercise(Exercise {
            formula: "cpu_over_cores",
            question: message(
                t.work_os_question,
                &[
                    ("threads", Arg::Count(threads.get())),
                    ("cpu", Arg::Text(&format::ms(cpu))),
                    ("cores", Arg::Count(c)),
                ],
            ),
            unit: t.unit_ms,
            answer,
            worked: fill(
                t.work_os_worked,
                &[("cpu", &format::ms(cpu)), ("cores", &format::int(c)), ("answer", &format::ms(answer))],
            ),
            computed: fill(t.work_at_least_ms, &[("ms", &format::ms(answer))]),
            inputs: inputs(&[("cpu", cpu), ("cores", c as f64)]),
        })
    });
    let measured = Signal::derive(move || {
        schedule.with(|s| {
            let makespan = ms(s.as_ref().ok()?.totals.makespan_us);
            Some((t.work_os_simulated.to_string(), fill(t.work_value_ms, &[("ms", &format::ms(makespan))])))
        })
    });
    question::work_it_out(ask, measured, String::new())
}

/// The kind of threads the model generates: CPU-bound, IO-bound or mixed.
fn mix_choice(mix: RwSignal<&'static str>) -> impl IntoView {
    let t = ui();
    let group = unique_id("mix");
    view! {
        <fieldset class="control choice">
            <legend>{t.mix}</legend>
            {MIXES.iter().map(|&option| view! {
                <label>
                    <input
                        type="radio"
                        name=group.clone()
                        value=option
                        prop:checked=move || mix.get() == option
                        on:change=move |_| mix.set(option)
                    />
                    {mix_name(option)}
                </label>
            }).collect_view()}
        </fieldset>
    }
}

/// The schedule in one sentence, for the chart's accessible name and the line under it.
fn summary_of(s: &Schedule, cores: u64, threads: u64) -> String {
    let t = ui();
    message(
        t.gantt_summary,
        &[
            ("cores", Arg::Count(cores)),
            ("threads", Arg::Count(threads)),
            ("ms", Arg::Text(&format::ms(ms(s.totals.makespan_us)))),
            ("switches", Arg::Count(s.totals.context_switches as u64)),
            ("utilisation", Arg::Text(&format::percent(s.totals.cpu_utilisation))),
        ],
    )
}

/// The schedule's totals, then one row per thread.
fn schedule_tables(s: &Schedule) -> impl IntoView {
    let t = ui();
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="os-totals" data-testid="os-totals">
                <caption>{t.totals_caption}</caption>
                <tbody>
                    <tr><th scope="row">{t.total_avg_waiting}</th><td class="num">{format!("{} ms", format::ms(s.totals.average_waiting_us / 1000.0))}</td></tr>
                    <tr><th scope="row">{t.total_avg_turnaround}</th><td class="num">{format!("{} ms", format::ms(s.totals.average_turnaround_us / 1000.0))}</td></tr>
                    <tr><th scope="row">{t.total_makespan}</th><td class="num">{format!("{} ms", format::ms(ms(s.totals.makespan_us)))}</td></tr>
                    <tr><th scope="row">{t.total_utilisation}</th><td class="num" data-value=s.totals.cpu_utilisation>{format::percent(s.totals.cpu_utilisation)}</td></tr>
                    <tr><th scope="row">{t.total_switches}</th><td class="num" data-value=s.totals.context_switches>{format::int(s.totals.context_switches as u64)}</td></tr>
                    <tr><th scope="row">{t.total_preemptions}</th><td class="num">{format::int(s.totals.preemptions as u64)}</td></tr>
                </tbody>
            </table>
        </div>
        <div class="table-scroll" tabindex="0">
            <table class="os-threads" data-testid="os-threads">
                <caption>{t.threads_caption}</caption>
                <thead>
                    <tr>
                        <th scope="col">{t.col_thread}</th>
                        <th scope="col">{t.col_arrival}</th>
                        <th scope="col">{t.col_cpu_ms}</th>
                        <th scope="col">{t.col_io_ms}</th>
                        <th scope="col">{t.col_waiting_ms}</th>
                        <th scope="col">{t.col_turnaround_ms}</th>
                        <th scope="col">{t.col_preemptions}</th>
                        <th scope="col">{t.col_switches}</th>
                    </tr>
                </thead>
                <tbody>
                    {s.threads.iter().enumerate().map(|(i, r)| view! {
                        <tr data-finish-us=r.finish_us>
                            <th scope="row">{fill(t.thread_lane, &[("n", &i.to_string())])}</th>
                            <td class="num">{format::ms(ms(r.arrival_us))}</td>
                            <td class="num">{format::ms(ms(r.cpu_us))}</td>
                            <td class="num">{format::ms(ms(r.io_us))}</td>
                            <td class="num">{format::ms(ms(r.waiting_us))}</td>
                            <td class="num">{format::ms(ms(r.turnaround_us))}</td>
                            <td class="num">{format::int(r.preemptions as u64)}</td>
                            <td class="num">{format::int(r.context_switches as u64)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
