//! Scheduler events turned into a timeline: running spans (a task on a worker) and parked spans
//! (a task waiting), with the events themselves kept for the replay up to a cap.

use experiments::{SchedulerEvent, SchedulerEventKind, Span, Trace};

/// Scheduler events beyond this many are dropped from a trace (spans are always kept).
const MAX_TRACE_EVENTS: usize = 20_000;

/// Sort `spans` by their start (as `f64::total_cmp` orders them), stably.
pub fn sort_by_start(spans: &mut Vec<Span>) {
    let order = stable_order(spans.iter().map(|span| span.start_ms).collect());
    *spans = order.into_iter().map(|index| spans[index].clone()).collect();
}

/// The indices of `keys` in the order a stable sort by key (`f64::total_cmp`) puts them: equal keys
/// in the order they came. Every stable sort of the engine goes through here (spans by start, the
/// runtime's events by sequence number), and this sorts only the keys, with the sort of floats the
/// measuring code uses anyway, so the module carries no copy of the standard library's sort per
/// element type.
#[inline(never)]
pub(crate) fn stable_order(keys: Vec<f64>) -> Vec<usize> {
    let mut sorted = keys.clone();
    sorted.sort_by(f64::total_cmp);
    // Each item goes to the first place of its key in `sorted`, after those of its key before it.
    let mut placed = vec![0; keys.len()];
    let mut order = vec![0; keys.len()];
    for (index, key) in keys.iter().enumerate() {
        let first = sorted.partition_point(|k| k.total_cmp(key).is_lt());
        order[first + placed[first]] = index;
        placed[first] += 1;
    }
    order
}

/// A worker and a time per task: a map from task ids, which count up from 0 (a job's task index),
/// held in a list by id up to [`DENSE_TASKS`] and in a short list beyond. (A `HashMap` here, and
/// the pool's handles, were the engine's only ones: 3 KB of gzip for its table and hasher.)
#[derive(Default)]
struct PerTask {
    dense: Vec<Option<(u32, f64)>>,
    sparse: Vec<(u32, (u32, f64))>,
}

/// Task ids below this are held by index (at most 4 MB, for a traced run of 262,144 tasks or more,
/// whose events alone take 25 MB). Beyond it, in the short list: a count sweep's later tasks, of
/// which only those running or parked at once are held.
const DENSE_TASKS: u32 = 1 << 18;

impl PerTask {
    fn insert(&mut self, task: u32, value: (u32, f64)) {
        if task < DENSE_TASKS {
            let index = task as usize;
            if self.dense.len() <= index {
                self.dense.resize(index + 1, None);
            }
            self.dense[index] = Some(value);
        } else {
            self.remove(task);
            self.sparse.push((task, value));
        }
    }

    fn remove(&mut self, task: u32) -> Option<(u32, f64)> {
        if task < DENSE_TASKS {
            self.dense.get_mut(task as usize)?.take()
        } else {
            let at = self.sparse.iter().position(|(t, _)| *t == task)?;
            Some(self.sparse.swap_remove(at).1)
        }
    }
}

/// Turn scheduler events into running spans (task on worker) and parked spans (task waiting,
/// shown on the worker it left), relative to `t0`.
pub fn trace_from_events(events: Vec<SchedulerEvent>, t0: f64, wall_ms: f64) -> Trace {
    let mut trace = Trace { wall_ms, ..Trace::default() };
    // Per task: where and since when it runs, and where and since when it is parked.
    let mut running = PerTask::default();
    let mut parked = PerTask::default();
    for event in &events {
        let at = event.at_ms - t0;
        let worker = event.worker.unwrap_or(0);
        match event.kind {
            SchedulerEventKind::Run => {
                if let Some((parked_on, since)) = parked.remove(event.task) {
                    trace.parked.push(Span { worker: parked_on, task: event.task, start_ms: since, end_ms: at });
                }
                running.insert(event.task, (worker, at));
            }
            SchedulerEventKind::Park | SchedulerEventKind::Finish => {
                if let Some((ran_on, since)) = running.remove(event.task) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_task_values_are_kept_replaced_and_taken_like_a_map() {
        let mut per_task = PerTask::default();
        for task in [0, 5, DENSE_TASKS - 1, DENSE_TASKS, u32::MAX] {
            assert_eq!(per_task.remove(task), None);
            per_task.insert(task, (1, 1.5));
            per_task.insert(task, (2, 2.5));
            assert_eq!(per_task.remove(task), Some((2, 2.5)), "task {task}");
            assert_eq!(per_task.remove(task), None, "task {task}");
        }
        per_task.insert(u32::MAX, (3, 0.0));
        per_task.insert(DENSE_TASKS + 1, (4, 0.0));
        assert_eq!(per_task.remove(u32::MAX), Some((3, 0.0)));
        assert_eq!(per_task.remove(DENSE_TASKS + 1), Some((4, 0.0)));
    }

    #[test]
    fn spans_are_sorted_by_start_as_a_stable_sort_by_total_cmp_sorts_them() {
        let starts = [3.0, -0.0, 0.0, 1.5, f64::NAN, -2.0, 1.5, f64::INFINITY, -f64::NAN, 0.0, 3.0, -0.0, 1e-300];
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut spans: Vec<Span> = Vec::new();
        for task in 0..3000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let start_ms =
                if task % 3 == 0 { starts[(x % starts.len() as u64) as usize] } else { (x % 50) as f64 * 0.25 };
            spans.push(Span { worker: (x % 8) as u32, task, start_ms, end_ms: start_ms + 1.0 });
        }
        let mut expected = spans.clone();
        expected.sort_by(|a, b| a.start_ms.total_cmp(&b.start_ms));
        sort_by_start(&mut spans);
        let key = |s: &Span| (s.worker, s.task, s.start_ms.to_bits(), s.end_ms.to_bits());
        assert_eq!(spans.iter().map(key).collect::<Vec<_>>(), expected.iter().map(key).collect::<Vec<_>>());
    }
}
