//! Step-by-step replay of the task runtime's recorded scheduling events: what each worker runs,
//! each local queue, the global queue and the parked tasks, after every event.
//!
//! Playback advances one event per tick; with `prefers-reduced-motion` only manual stepping is
//! offered. Everything shown is text in tables, so the replay reads without the colours.

use super::controls::unique_id;
use crate::format;
use crate::i18n::{fill, ui};
use experiments::replay::Snapshot;
use experiments::{SchedulerEvent, SchedulerEventKind};
use leptos::prelude::*;
use std::time::Duration;

/// What happened in `event`, in words.
pub fn describe_event(event: &SchedulerEvent) -> String {
    let t = ui();
    let task = format!("T{}", event.task);
    let worker = event.worker.map(|w| format!("W{w}")).unwrap_or_default();
    let values = |extra: &[(&'static str, String)]| {
        let mut all: Vec<(&'static str, String)> = vec![("task", task.clone()), ("worker", worker.clone())];

        all.extend(extra.iter().cloned());
        all
    };
    let (template, values) = match event.kind {
        SchedulerEventKind::Spawn { queue: Some(_) } => (t.ev_spawn_local, values(&[])),
        SchedulerEventKind::Spawn { queue: None } => (t.ev_spawn_global, values(&[])),
        SchedulerEventKind::Run => (t.ev_run, values(&[])),
        SchedulerEventKind::Park => (t.ev_park, values(&[])),
        SchedulerEventKind::Wake if event.worker.is_some() => (t.ev_wake_local, values(&[])),
        SchedulerEventKind::Wake => (t.ev_wake_global, values(&[])),
        SchedulerEventKind::Steal { victim, count } => {
            (t.ev_steal, values(&[("victim", format!("W{victim}")), ("count", count.to_string())]))
        }
        SchedulerEventKind::Finish => (t.ev_finish, values(&[])),
    };
    let pairs: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    fill(template, &pairs)
}

/// A task as a small coloured chip, highlighted if it is the task of the current event.
fn chip(task: u32, active: bool) -> impl IntoView {
    let class = format!("chip chip-{}{}", task % 8, if active { " chip-active" } else { "" });
    view! { <span class=class>{format!("T{task}")}</span> }
}

fn chips(tasks: &[u32], active: Option<u32>) -> AnyView {
    if tasks.is_empty() {
        view! { <span class="queue-empty">{ui().queue_empty}</span> }.into_any()
    } else {
        tasks.iter().map(|&t| chip(t, Some(t) == active)).collect_view().into_any()
    }
}

#[component]
pub fn Replay(
    /// The recorded events, in order.
    #[prop(into)]
    events: Signal<Vec<SchedulerEvent>>,
    /// One snapshot more than there are events (the state before the first one).
    #[prop(into)]
    snapshots: Signal<Vec<Snapshot>>,
    /// Total tasks of the run.
    #[prop(into)]
    tasks: Signal<u32>,
    /// Where to start (e.g. from the URL).
    step: RwSignal<usize>,
    reduced_motion: bool,
) -> impl IntoView {
    let t = ui();
    let last = move || snapshots.with(|s| s.len().saturating_sub(1));
    let playing = RwSignal::new(false);
    let speed = RwSignal::new(8u64);
    // Keep the step inside the recording.
    Effect::new(move |_| {
        let last = last();
        // Only once there is a recording: a preset step must survive until it arrives.
        if last > 0 && step.get() > last {
            step.set(last);
        }
    });
    let timer = StoredValue::new(None::<IntervalHandle>);
    let stop_timer = move || {
        if let Some(handle) = timer.try_update_value(|h| h.take()).flatten() {
            handle.clear();
        }
    };
    Effect::new(move |_| {
        stop_timer();
        if !playing.get() {
            return;
        }
        let period = Duration::from_millis(1000 / speed.get().max(1));
        let handle = set_interval_with_handle(
            move || {
                let next = step.get_untracked() + 1;
                if next > last() {
                    playing.set(false);
                } else {
                    step.set(next);
                }
            },
            period,
        );
        timer.set_value(handle.ok());
    });
    on_cleanup(stop_timer);

    let current_event = move || {
        let i = step.get();
        (i > 0).then(|| events.with(|e| e.get(i - 1).copied())).flatten()
    };
    let status = move || match current_event() {
        None => t.replay_start.to_string(),
        Some(event) => fill(
            t.replay_status,
            &[
                ("step", &format::int(step.get() as u64)),
                ("steps", &format::int(last() as u64)),
                ("ms", &format::ms(event.at_ms)),
                ("what", &describe_event(&event)),
            ],
        ),
    };
    let snapshot = move || snapshots.with(|s| s.get(step.get()).cloned().unwrap_or_default());
    let active = move || current_event().map(|e| e.task);
    let step_id = unique_id("replay-step");
    let speed_id = unique_id("replay-speed");
    let go = move |to: usize| {
        playing.set(false);
        step.set(to.min(last()));
    };

    view! {
        <div class="replay" role="group" aria-label=t.replay_label data-testid="replay">
            <div class="replay-controls">
                <button type="button" on:click=move |_| go(0) disabled=move || step.get() == 0>{t.replay_first}</button>
                <button type="button" on:click=move |_| go(step.get().saturating_sub(1)) disabled=move || step.get() == 0>
                    {t.replay_back}
                </button>
                {(!reduced_motion).then(|| view! {
                    <button
                        type="button"
                        class="primary"
                        aria-pressed=move || playing.get().to_string()
                        on:click=move |_| {
                            if step.get_untracked() >= last() {
                                step.set(0);
                            }
                            playing.update(|p| *p = !*p);
                        }
                    >
                        {move || if playing.get() { t.replay_pause } else { t.replay_play }}
                    </button>
                })}
                <button type="button" on:click=move |_| go(step.get() + 1) disabled=move || { step.get() >= last() }>
                    {t.replay_forward}
                </button>
                <button type="button" on:click=move |_| go(last()) disabled=move || { step.get() >= last() }>{t.replay_last}</button>
            </div>
            {reduced_motion.then(|| view! { <p class="help">{t.replay_reduced_motion}</p> })}
            <div class="replay-sliders">
                <div class="control">
                    <label for=step_id.clone()>{t.replay_step}</label>
                    <input
                        type="range"
                        id=step_id
                        min="0"
                        max=move || last().to_string()
                        prop:value=move || step.get().to_string()
                        on:input=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse::<usize>() {
                                go(v);
                            }
                        }
                    />
                </div>
                {(!reduced_motion).then(|| view! {
                    <div class="control">
                        <label for=speed_id.clone()>{t.replay_speed}</label>
                        <input
                            type="range"
                            id=speed_id.clone()
                            min="1"
                            max="60"
                            prop:value=move || speed.get().to_string()
                            on:input=move |ev| {
                                if let Ok(v) = event_target_value(&ev).parse::<u64>() {
                                    speed.set(v.clamp(1, 60));
                                }
                            }
                        />
                    </div>
                })}
            </div>
            <p class="replay-status" aria-live="polite" data-testid="replay-status">{status}</p>
            <div class="table-scroll">
                <table class="replay-state">
                    <thead>
                        <tr>
                            <th scope="col">{t.col_worker}</th>
                            <th scope="col">{t.col_running}</th>
                            <th scope="col">{t.col_local_queue}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            let snapshot = snapshot();
                            let active = active();
                            snapshot.running.iter().zip(&snapshot.local).enumerate().map(|(w, (running, local))| view! {
                                <tr data-worker=w>
                                    <th scope="row">{format!("W{w}")}</th>
                                    <td class="running">
                                        {match running {
                                            Some(task) => chip(*task, Some(*task) == active).into_any(),
                                            None => view! { <span class="queue-empty">{t.idle}</span> }.into_any(),
                                        }}
                                    </td>
                                    <td class="queue" data-queue-length=local.len()>{chips(local, active)}</td>
                                </tr>
                            }).collect_view()
                        }}
                    </tbody>
                </table>
            </div>
            <p class="replay-row" data-testid="global-queue">
                <span class="row-label">{t.global_queue}</span>
                {move || chips(&snapshot().global, active())}
            </p>
            <p class="replay-row" data-testid="parked">
                <span class="row-label">{t.parked_tasks}</span>
                {move || chips(&snapshot().parked, active())}
            </p>
            <p class="replay-row">
                {move || fill(t.finished_tasks, &[("done", &snapshot().finished.to_string()), ("total", &tasks.get().to_string())])}
            </p>
        </div>
    }
}
