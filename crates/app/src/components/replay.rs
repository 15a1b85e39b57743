//! Step-by-step replay of the task runtime's recorded scheduling events: what each worker runs,
//! each local queue, the global queue and the parked tasks, after every event.
//!
//! Playback advances one event per tick; with `prefers-reduced-motion` only manual stepping is
//! offered. A strip above the tables draws what each worker ran over the recording's time, with a
//! playhead at the current step. Everything shown is also text in tables, so the replay reads
//! without the colours; each task's colour is one of 64 distinct hues and its chip says its name.

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
            (t.ev_steal, values(&[("victim", format!("W{victim}")), ("count", format::int(count as u64))]))
        }
        SchedulerEventKind::Finish => (t.ev_finish, values(&[])),
    };
    let pairs: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    fill(template, &pairs)
}

/// The most tasks a replay can hold (the Go scheduler's task limit); each has a colour of its own.
pub const TASK_HUES: u32 = 64;

/// The CSS class giving `task` its colour (`--task-colour`), the same in chips and the strip.
fn task_class(task: u32) -> String {
    format!("task-{}", task % TASK_HUES)
}

/// One stretch of time in which a worker ran one task, as fractions (0 to 1) of the recording.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub worker: usize,
    pub task: u32,
    pub from: f64,
    pub to: f64,
}

/// Where event `index` (0-based) happened, as a fraction of the recording's time; events all at
/// one instant are spread evenly instead.
fn fraction_at(events: &[SchedulerEvent], index: usize) -> f64 {
    let (Some(first), Some(last)) = (events.first(), events.last()) else { return 0.0 };
    let span = last.at_ms - first.at_ms;
    if span > 0.0 {
        ((events[index].at_ms - first.at_ms) / span).clamp(0.0, 1.0)
    } else if events.len() > 1 {
        index as f64 / (events.len() - 1) as f64
    } else {
        0.0
    }
}

/// Where the playhead stands at `step` (0 = before the first event), as a fraction of the recording.
pub fn playhead_fraction(events: &[SchedulerEvent], step: usize) -> f64 {
    if step == 0 || events.is_empty() {
        0.0
    } else {
        fraction_at(events, step.min(events.len()) - 1)
    }
}

/// What each worker ran, from the snapshots after each event: one bar per uninterrupted stretch.
pub fn bars(events: &[SchedulerEvent], snapshots: &[Snapshot]) -> Vec<Bar> {
    let mut bars: Vec<Bar> = Vec::new();
    let mut open: Vec<Option<usize>> = Vec::new();
    for (index, _) in events.iter().enumerate() {
        let Some(after) = snapshots.get(index + 1) else { break };
        let at = fraction_at(events, index);
        let until = if index + 1 < events.len() { fraction_at(events, index + 1) } else { 1.0 };
        if open.len() < after.running.len() {
            open.resize(after.running.len(), None);
        }
        for (worker, running) in after.running.iter().enumerate() {
            match (running, open[worker]) {
                (Some(task), Some(bar)) if bars[bar].task == *task => bars[bar].to = until,
                (Some(task), _) => {
                    bars.push(Bar { worker, task: *task, from: at, to: until });
                    open[worker] = Some(bars.len() - 1);
                }
                (None, _) => open[worker] = None,
            }
        }
    }
    bars
}

/// A task as a small coloured chip, highlighted if it is the task of the current event.
fn chip(task: u32, active: bool) -> impl IntoView {
    let class = format!("chip {}{}", task_class(task), if active { " chip-active" } else { "" });
    view! { <span class=class>{format!("T{task}")}</span> }
}

fn chips(tasks: &[u32], active: Option<u32>) -> AnyView {
    if tasks.is_empty() {
        view! { <span class="queue-empty">{ui().queue_empty}</span> }.into_any()
    } else {
        tasks.iter().map(|&t| chip(t, Some(t) == active)).collect_view().into_any()
    }
}

/// Where the replay stands, shared by its parts: the step, whether it plays and how fast.
#[derive(Clone, Copy)]
struct Playback {
    step: RwSignal<usize>,
    playing: RwSignal<bool>,
    speed: RwSignal<u64>,
    snapshots: Signal<Vec<Snapshot>>,
    events: Signal<Vec<SchedulerEvent>>,
}

impl Playback {
    /// The last step: one per event.
    fn last(self) -> usize {
        self.snapshots.with(|s| s.len().saturating_sub(1))
    }

    /// Stop playing and show step `to` (at most the last).
    fn go(self, to: usize) {
        self.playing.set(false);
        self.step.set(to.min(self.last()));
    }

    /// The event the current step shows, none before the first.
    fn current_event(self) -> Option<SchedulerEvent> {
        let i = self.step.get();
        (i > 0).then(|| self.events.with(|e| e.get(i - 1).copied())).flatten()
    }

    /// The state after the current step.
    fn snapshot(self) -> Snapshot {
        self.snapshots.with(|s| s.get(self.step.get()).cloned().unwrap_or_default())
    }

    /// Advance one step per tick while playing; stop at the end.
    fn tick_while_playing(self) {
        let timer = StoredValue::new(None::<IntervalHandle>);
        let stop_timer = move || {
            if let Some(handle) = timer.try_update_value(|h| h.take()).flatten() {
                handle.clear();
            }
        };
        Effect::new(move |_| {
            stop_timer();
            if !self.playing.get() {
                return;
            }
            let period = Duration::from_millis(1000 / self.speed.get().max(1));
            let handle = set_interval_with_handle(
                move || {
                    let next = self.step.get_untracked() + 1;
                    if next > self.last() {
                        self.playing.set(false);
                    } else {
                        self.step.set(next);
                    }
                },
                period,
            );
            timer.set_value(handle.ok());
        });
        on_cleanup(stop_timer);
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
    let playback = Playback { step, playing: RwSignal::new(false), speed: RwSignal::new(8u64), snapshots, events };
    // Keep the step inside the recording.
    Effect::new(move |_| {
        let last = playback.last();
        // Only once there is a recording: a preset step must survive until it arrives.
        if last > 0 && step.get() > last {
            step.set(last);
        }
    });
    playback.tick_while_playing();
    let status = move || match playback.current_event() {
        None => t.replay_start.to_string(),
        Some(event) => fill(
            t.replay_status,
            &[
                ("step", &format::int(step.get() as u64)),
                ("steps", &format::int(playback.last() as u64)),
                ("ms", &format::ms(event.at_ms)),
                ("what", &describe_event(&event)),
            ],
        ),
    };
    view! {
        <div class="replay" role="group" aria-label=t.replay_label data-testid="replay">
            {replay_buttons(playback, reduced_motion)}
            {reduced_motion.then(|| view! { <p class="help">{t.replay_reduced_motion}</p> })}
            {replay_sliders(playback, reduced_motion)}
            <p class="replay-status" aria-live="polite" data-testid="replay-status">{status}</p>
            {replay_strip(playback)}
            {replay_state(playback, tasks)}
        </div>
    }
}

/// First, back, play or pause (not with reduced motion), forward, last.
fn replay_buttons(playback: Playback, reduced_motion: bool) -> impl IntoView {
    let t = ui();
    let Playback { step, playing, .. } = playback;
    let at_start = move || step.get() == 0;
    let at_end = move || step.get() >= playback.last();
    view! {
        <div class="replay-controls">
            <button type="button" on:click=move |_| playback.go(0) disabled=at_start>{t.replay_first}</button>
            <button type="button" on:click=move |_| playback.go(step.get().saturating_sub(1)) disabled=at_start>
                {t.replay_back}
            </button>
            {(!reduced_motion).then(|| view! {
                <button
                    type="button"
                    class="primary"
                    aria-pressed=move || playing.get().to_string()
                    on:click=move |_| {
                        if step.get_untracked() >= playback.last() {
                            step.set(0);
                        }
                        playing.update(|p| *p = !*p);
                    }
                >
                    {move || if playing.get() { t.replay_pause } else { t.replay_play }}
                </button>
            })}
            <button type="button" on:click=move |_| playback.go(step.get() + 1) disabled=at_end>{t.replay_forward}</button>
            <button type="button" on:click=move |_| playback.go(playback.last()) disabled=at_end>{t.replay_last}</button>
        </div>
    }
}

/// The step slider, and the speed slider (not with reduced motion).
fn replay_sliders(playback: Playback, reduced_motion: bool) -> impl IntoView {
    let t = ui();
    let Playback { step, speed, .. } = playback;
    let step_id = unique_id("replay-step");
    let speed_id = unique_id("replay-speed");
    let step_output_for = step_id.clone();
    let speed_output_for = speed_id.clone();
    view! {
        <div class="replay-sliders">
            <div class="control">
                <label for=step_id.clone()>{t.replay_step}</label>
                <input
                    type="range"
                    id=step_id
                    min="0"
                    max=move || playback.last().to_string()
                    prop:value=move || step.get().to_string()
                    on:input=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<usize>() {
                            playback.go(v);
                        }
                    }
                />
                <output for=step_output_for class="slider-value" data-testid="replay-step-value">
                    {move || fill(t.replay_step_value, &[("step", &format::int(step.get() as u64)), ("steps", &format::int(playback.last() as u64))])}
                </output>
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
                    <output for=speed_output_for.clone() class="slider-value" data-testid="replay-speed-value">
                        {move || fill(t.replay_speed_value, &[("n", &format::int(speed.get()))])}
                    </output>
                </div>
            })}
        </div>
    }
}

/// What each worker ran over the recording, and where the replay stands in it.
fn replay_strip(playback: Playback) -> impl IntoView {
    let t = ui();
    let Playback { step, snapshots, events, .. } = playback;
    let strip = Memo::new(move |_| events.with(|e| snapshots.with(|s| bars(e, s))));
    let lane_count = move || snapshots.with(|s| s.first().map_or(0, |s| s.running.len()).max(1));
    let playhead = move || events.with(|e| playhead_fraction(e, step.get()));
    let percent = |fraction: f64| format!("{:.3}%", fraction * 100.0);
    view! {
        <div class="replay-track">
            <div class="replay-track-lanes" aria-hidden="true">
                {move || (0..lane_count()).map(|w| view! { <span>{format!("W{w}")}</span> }).collect_view()}
            </div>
            <svg
                class="replay-strip"
                role="img"
                aria-label=move || fill(t.replay_strip_label, &[("percent", &format::int((playhead() * 100.0).round() as u64))])
                data-testid="replay-strip"
                data-playhead-step=move || step.get()
                data-playhead=move || format!("{:.4}", playhead())
                height=move || (lane_count() * 16).to_string()
            >
                {move || strip.get().into_iter().map(|bar| {
                    let class = format!("bar {}", task_class(bar.task));
                    let tip = format!("T{} · W{}", bar.task, bar.worker);
                    view! {
                        <rect class=class x=percent(bar.from) width=percent((bar.to - bar.from).max(0.002)) y=(bar.worker * 16 + 2).to_string() height="12">
                            <title>{tip}</title>
                        </rect>
                    }
                }).collect_view()}
                <line class="playhead" data-testid="playhead" x1=move || percent(playhead()) x2=move || percent(playhead()) y1="0" y2="100%"></line>
            </svg>
        </div>
    }
}

/// The state after the current step as text: each worker's running task and local queue, the
/// global queue, the parked tasks and how many have finished.
fn replay_state(playback: Playback, tasks: Signal<u32>) -> impl IntoView {
    let t = ui();
    let active = move || playback.current_event().map(|e| e.task);
    view! {
        <div class="table-scroll" tabindex="0">
            <table class="replay-state">
                <colgroup>
                    <col class="replay-col-worker" />
                    <col class="replay-col-running" />
                    <col />
                </colgroup>
                <thead>
                    <tr>
                        <th scope="col">{t.col_worker}</th>
                        <th scope="col">{t.col_running}</th>
                        <th scope="col">{t.col_local_queue}</th>
                    </tr>
                </thead>
                <tbody>
                    {move || {
                        let snapshot = playback.snapshot();
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
            {move || chips(&playback.snapshot().global, active())}
        </p>
        <p class="replay-row" data-testid="parked">
            <span class="row-label">{t.parked_tasks}</span>
            {move || chips(&playback.snapshot().parked, active())}
        </p>
        <p class="replay-row">
            {move || fill(t.finished_tasks, &[("done", &format::int(playback.snapshot().finished as u64)), ("total", &format::int(tasks.get() as u64))])}
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(at_ms: f64, worker: u32, task: u32, kind: SchedulerEventKind) -> SchedulerEvent {
        SchedulerEvent { at_ms, worker: Some(worker), task, kind }
    }

    fn running(tasks: &[Option<u32>]) -> Snapshot {
        Snapshot { running: tasks.to_vec(), local: vec![Vec::new(); tasks.len()], ..Snapshot::default() }
    }

    #[test]
    fn the_playhead_stands_at_the_current_events_time() {
        let events = vec![
            event(10.0, 0, 0, SchedulerEventKind::Run),
            event(12.0, 1, 1, SchedulerEventKind::Run),
            event(20.0, 0, 0, SchedulerEventKind::Finish),
        ];
        assert_eq!(playhead_fraction(&events, 0), 0.0);
        assert_eq!(playhead_fraction(&events, 1), 0.0);
        assert!((playhead_fraction(&events, 2) - 0.2).abs() < 1e-9);
        assert_eq!(playhead_fraction(&events, 3), 1.0);
        assert_eq!(playhead_fraction(&events, 99), 1.0, "a step past the end stays at the end");
        assert_eq!(playhead_fraction(&[], 5), 0.0);
    }

    #[test]
    fn events_at_one_instant_are_spread_evenly() {
        let events: Vec<_> = (0..5).map(|i| event(3.0, 0, i, SchedulerEventKind::Run)).collect();
        assert!((playhead_fraction(&events, 3) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn a_worker_running_one_task_across_events_is_one_bar() {
        let events = vec![
            event(0.0, 0, 0, SchedulerEventKind::Run),
            event(5.0, 1, 1, SchedulerEventKind::Run),
            event(8.0, 1, 1, SchedulerEventKind::Finish),
            event(10.0, 0, 0, SchedulerEventKind::Finish),
        ];
        let snapshots = vec![
            running(&[None, None]),
            running(&[Some(0), None]),
            running(&[Some(0), Some(1)]),
            running(&[Some(0), None]),
            running(&[None, None]),
        ];
        assert_eq!(
            bars(&events, &snapshots),
            vec![Bar { worker: 0, task: 0, from: 0.0, to: 1.0 }, Bar { worker: 1, task: 1, from: 0.5, to: 0.8 }]
        );
    }

    #[test]
    fn every_task_the_go_scheduler_allows_has_its_own_colour() {
        let classes: std::collections::HashSet<_> =
            (0..experiments::catalog::go_scheduler::TASKS.max as u32).map(task_class).collect();
        assert_eq!(classes.len() as u64, experiments::catalog::go_scheduler::TASKS.max);
        assert!(experiments::catalog::go_scheduler::TASKS.max <= TASK_HUES as u64);
    }
}
