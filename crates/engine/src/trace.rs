//! Scheduler events turned into a timeline: running spans (a task on a worker) and parked spans
//! (a task waiting), with the events themselves kept for the replay up to a cap.

use experiments::{SchedulerEvent, SchedulerEventKind, Span, Trace};
use std::collections::HashMap;

/// Scheduler events beyond this many are dropped from a trace (spans are always kept).
const MAX_TRACE_EVENTS: usize = 20_000;

/// Sort `spans` by their start, stably (one function, not a generic sort per caller's closure: each
/// would bring its own copy of the standard library's sort into the engine's module).
#[inline(never)]
pub fn sort_by_start(spans: &mut [Span]) {
    spans.sort_by(|a, b| a.start_ms.total_cmp(&b.start_ms));
}

/// Turn scheduler events into running spans (task on worker) and parked spans (task waiting,
/// shown on the worker it left), relative to `t0`.
pub fn trace_from_events(events: Vec<SchedulerEvent>, t0: f64, wall_ms: f64) -> Trace {
    let mut trace = Trace { wall_ms, ..Trace::default() };
    // Per task: where and since when it runs, and where and since when it is parked.
    let mut running: HashMap<u32, (u32, f64)> = HashMap::new();
    let mut parked: HashMap<u32, (u32, f64)> = HashMap::new();
    for event in &events {
        let at = event.at_ms - t0;
        let worker = event.worker.unwrap_or(0);
        match event.kind {
            SchedulerEventKind::Run => {
                if let Some((parked_on, since)) = parked.remove(&event.task) {
                    trace.parked.push(Span { worker: parked_on, task: event.task, start_ms: since, end_ms: at });
                }
                running.insert(event.task, (worker, at));
            }
            SchedulerEventKind::Park | SchedulerEventKind::Finish => {
                if let Some((ran_on, since)) = running.remove(&event.task) {
                    trace.spans.push(Span { worker: ran_on, task: event.task, start_ms: since, end_ms: at });
                }
                if event.kind == SchedulerEventKind::Park {
                    parked.insert(event.task, (worker, at));
                }
            }
            _ => {}
        }
    }
    if events.len() <= MAX_TRACE_EVENTS {
        trace.events = events.into_iter().map(|e| SchedulerEvent { at_ms: e.at_ms - t0, ..e }).collect();
    }
    trace
}
