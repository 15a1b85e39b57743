//! What a task costs, part three: a turn handed back and forth between two threads against two
//! goroutines (the time of a switch).

use super::panel::{variant_id, ExperimentFrame, ResultLog, RunButtons, RunStatus};
use crate::components::compare::{CompareResults, Compared};
use crate::components::controls::NumberField;
use crate::components::controls::Slider;
use crate::components::later::Later;
use crate::components::notes::ClampNotes;
use crate::components::predict;
use crate::components::share::ShareBar;
use crate::engine_client::Mode;
use crate::format;
use crate::i18n::{fill, ui};
use crate::presets::{write_to_url, Preset};
use crate::runner::Runner;
use experiments::catalog::ExperimentId;
use experiments::catalog::{self, Machine};
use experiments::params::task_cost::{ROUND_TRIPS, SWITCH_REPETITIONS};
use experiments::{Measurement, Variant, Workload};
use leptos::prelude::*;

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
    let mut preset = Preset::from_url();
    let read = catalog::task_switch::read(&mut preset, machine);
    let trips = RwSignal::new(read.round_trips as u64);
    let repetitions = RwSignal::new(read.repetitions as u64);
    let autorun = preset.autorun(ExperimentId::TaskSwitch);
    let notes = preset.notes;
    let runner = Runner::new();
    let results = RwSignal::new(Vec::<Measurement>::new());
    let log = ResultLog::new(ExperimentId::TaskSwitch);
    // What this tab measured here before (another chapter, another language, a reload) comes back.
    log.restore(&|m, _| {
        let name = if m.job.variant == Variant::ThreadPool { ui().switch_threads } else { ui().switch_goroutines };
        (variant_id(m.job.variant), name.to_string())
    });
    let compared = Compared::new();

    let measure = move || {
        let s = catalog::task_switch::Settings {
            round_trips: trips.get_untracked() as u32,
            repetitions: repetitions.get_untracked() as u32,
        };
        let query = write_to_url(&s.query());
        let jobs = catalog::task_switch::run_jobs(&s, mode);
        results.set(Vec::new());
        let run_log = log.start_run(query);
        runner.run(jobs, move |_, m| {
            let name = if m.job.variant == Variant::ThreadPool { t.switch_threads } else { t.switch_goroutines };
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
        experiments::per_unit::ns_per_switch(ms, round_trips)
    };
    let ratio = move || {
        results.with(|r| {
            let of = |variant| r.iter().find(|m| m.job.variant == variant).map(|m| ns(m, m.summary.median_ms));
            match (of(Variant::ThreadPool), of(Variant::Goroutines)) {
                (Some(thread), Some(task)) if task > 0.0 => Some(thread / task),
                _ => None,
            }
        })
    };
    view! {
        <ClampNotes notes />
        <form class="controls" aria-label=fill(t.controls_of, &[("experiment", t.switch_title)]) on:submit=move |ev| { ev.prevent_default(); measure(); }>
            <NumberField label=t.round_trips help=t.round_trips_help.to_string() value=trips range=ROUND_TRIPS disabled=running />
            <Slider label=t.repetitions help=t.repetitions_help.to_string() value=repetitions range=Signal::stored(SWITCH_REPETITIONS) disabled=running />
            <RunButtons runner run_label=t.measure_switches />
        </form>
        // The rest in a task of its own (issue 15: no main-thread task over 50 ms).
        <Later>
            {(mode == Mode::Threads).then(|| predict::task_switch(Signal::derive(ratio)))}
            {(mode == Mode::SingleWorker).then(|| view! { <p class="help">{t.switch_single_worker}</p> })}
            <ShareBar experiment=ExperimentId::TaskSwitch rows=log.rows.into() />
            <CompareResults experiment=ExperimentId::TaskSwitch own=log.rows.into() compared />
            <RunStatus runner describe=move |index| {
                let threads_first = mode == Mode::Threads;
                if threads_first && index == 0 { t.switch_threads } else { t.switch_goroutines }.to_string()
            } />
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
                                let name = if m.job.variant == Variant::ThreadPool { t.switch_threads } else { t.switch_goroutines };
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
        </Later>
    }
}
