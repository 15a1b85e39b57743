//! What a task costs, part three: a turn handed back and forth between two threads against two
//! goroutines (the time of a switch).

use super::panel::{variant_id, ExperimentFrame, RunButtons, RunStatus};
use super::state::ExperimentState;
use crate::components::compare::{CompareResults, Compared};
use crate::components::controls::NumberField;
use crate::components::controls::Slider;
use crate::components::later::Later;
use crate::components::notes::ClampNotes;
use crate::components::share::ShareBar;
use crate::engine_client::Mode;
use crate::format;
use crate::i18n::{fill, ui};
use experiments::catalog::task_switch::{self, Settings};
use experiments::catalog::task_switch::{REPETITIONS as SWITCH_REPETITIONS, ROUND_TRIPS};
use experiments::catalog::{ExperimentId, Machine};
use experiments::{Measurement, Variant, Workload};
use leptos::prelude::*;

/// A row's name: two threads or two goroutines.
fn switch_name(variant: Variant) -> &'static str {
    if variant == Variant::ThreadPool {
        ui().switch_threads
    } else {
        ui().switch_goroutines
    }
}

#[component]
pub fn SwitchCostExperiment() -> impl IntoView {
    let t = ui();
    view! {
        <ExperimentFrame experiment=ExperimentId::TaskSwitch title=t.switch_title controls=|machine| view! { <SwitchControls machine /> }.into_any()></ExperimentFrame>
    }
}

#[component]
fn SwitchControls(machine: Machine) -> impl IntoView {
    let t = ui();
    let mode = machine.mode;
    let exp = ExperimentState::<Settings>::new(machine);
    let (runner, log) = (exp.runner, exp.log);
    let trips = exp.knob(&ROUND_TRIPS);
    let repetitions = exp.knob(&SWITCH_REPETITIONS);
    let results = RwSignal::new(Vec::<Measurement>::new());
    // What this tab measured here before (another chapter, another language, a reload) comes back.
    log.restore(&|m, _| (variant_id(m.job.variant), switch_name(m.job.variant).to_string()));
    let compared = Compared::new();

    let measure = move || {
        let s = exp.get();
        results.set(Vec::new());
        exp.run(&s, task_switch::run_jobs(&s, mode), move |run_log, _, m| {
            run_log.add(&m, variant_id(m.job.variant), switch_name(m.job.variant).to_string(), false);
            results.update(|r| r.push(m));
        });
    };
    exp.autorun(measure);
    let running = exp.running();
    view! {
        <ClampNotes notes=exp.notes() />
        <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.switch_title)]) on:submit=move |ev| { ev.prevent_default(); measure(); }>
            <NumberField label=t.round_trips help=t.round_trips_help.to_string() value=trips range=ROUND_TRIPS disabled=running />
            <Slider label=t.repetitions help=t.repetitions_help.to_string() value=repetitions range=Signal::stored(SWITCH_REPETITIONS) disabled=running />
            <RunButtons runner run_label=t.measure_switches />
        </form>
        // The rest in a task of its own (issue 15: no main-thread task over 50 ms).
        <Later>
            {(mode == Mode::Threads).then(|| prediction(Signal::derive(move || results.with(|r| thread_over_task(r)))))}
            {(mode == Mode::SingleWorker).then(|| view! { <p class="help">{t.switch_single_worker}</p> })}
            <ShareBar experiment=ExperimentId::TaskSwitch rows=log.rows.into() />
            <CompareResults experiment=ExperimentId::TaskSwitch own=log.rows.into() compared />
            <RunStatus runner describe=move |index| {
                let threads_first = mode == Mode::Threads;
                if threads_first && index == 0 { t.switch_threads } else { t.switch_goroutines }.to_string()
            } />
            {switch_costs(results)}
        </Later>
    }
}

/// Nanoseconds per switch of a run that took `ms`: two switches per round trip.
fn ns_per_switch(m: &Measurement, ms: f64) -> f64 {
    let Workload::PingPong { round_trips } = m.job.workload else { return f64::NAN };
    experiments::per_unit::ns_per_switch(ms, round_trips)
}

/// How many times a thread switch takes a task switch's (medians), once both were measured.
fn thread_over_task(results: &[Measurement]) -> Option<f64> {
    let of = |variant| results.iter().find(|m| m.job.variant == variant).map(|m| ns_per_switch(m, m.summary.median_ms));
    match (of(Variant::ThreadPool), of(Variant::Goroutines)) {
        (Some(thread), Some(task)) if task > 0.0 => Some(thread / task),
        _ => None,
    }
}

/// Once a run measured: each kind's nanoseconds per switch (median, fastest, slowest), then a
/// thread switch over a task switch.
fn switch_costs(results: RwSignal<Vec<Measurement>>) -> impl IntoView {
    let t = ui();
    view! {
        <Show when=move || results.with(|r| !r.is_empty())>
            <div class="table-scroll" tabindex="0">
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
                            let name = switch_name(m.job.variant);
                            let median = ns_per_switch(&m, m.summary.median_ms);
                            view! {
                                <tr data-variant=variant_id(m.job.variant) data-ns=median>
                                    <th scope="row">{name}</th>
                                    <td class="num">{format::int(median.round() as u64)}</td>
                                    <td class="num">{format::int(ns_per_switch(&m, m.summary.min_ms).round() as u64)}</td>
                                    <td class="num">{format::int(ns_per_switch(&m, m.summary.max_ms).round() as u64)}</td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            {move || results.with(|r| thread_over_task(r)).map(|r| view! { <p data-testid="switch-ratio">{fill(t.switch_ratio, &[("ratio", &format::fixed(r, 1))])}</p> })}
        </Show>
    }
}

/// What a switch costs: a thread switch over a task switch.
fn prediction(thread_over_task: Signal<Option<f64>>) -> AnyView {
    use crate::components::predict::{strings, switch_band, Measured, Prediction};
    let t = ui();
    let measured = Signal::derive(move || {
        let ratio = thread_over_task.get()?;
        // Decided on the number as shown (one decimal), so the sentence and the band agree.
        let shown = experiments::params::parse_decimal(&format!("{ratio:.1}"))?;
        switch_band(shown).map(|option| Measured {
            option,
            value: fill(t.predict_value_switch, &[("ratio", &format::fixed(ratio, 1))]),
        })
    });
    let question = Signal::stored(t.predict_switch_question.to_string());
    let options = Signal::stored(strings(&t.predict_switch_options));
    view! { <Prediction experiment=ExperimentId::TaskSwitch question options measured quotes="testid:switch-ratio" /> }
        .into_any()
}
