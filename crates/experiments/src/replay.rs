//! Replaying the M:N runtime's recorded events: the state of every queue after each step, and a
//! consistency check of the recording (every task spawned once, finished once, never running twice).

use crate::results::{SchedulerEvent, SchedulerEventKind};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Where every task is after some number of events.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The task each worker is running, if any.
    pub running: Vec<Option<u32>>,
    /// Each worker's local run queue, front first.
    pub local: Vec<Vec<u32>>,
    /// The global run queue, front first.
    pub global: Vec<u32>,
    /// Tasks waiting (on a timer or another task), in the order they parked.
    pub parked: Vec<u32>,
    /// Tasks finished so far.
    pub finished: u32,
}

/// Where a task is, for the consistency check.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Place {
    Local(usize),
    Global,
    Running(usize),
    Parked,
    Finished,
}

fn remove(queue: &mut Vec<u32>, task: u32) -> bool {
    match queue.iter().position(|&t| t == task) {
        Some(index) => {
            queue.remove(index);
            true
        }
        None => false,
    }
}

/// All snapshots of a run on `workers` workers: `result[0]` is before the first event, `result[i]`
/// after event `i - 1`. `Err` names the first event that contradicts the ones before it.
pub fn replay(events: &[SchedulerEvent], workers: u32) -> Result<Vec<Snapshot>, String> {
    let workers = workers.max(1) as usize;
    let mut state = Snapshot {
        running: vec![None; workers],
        local: vec![Vec::new(); workers],
        global: Vec::new(),
        parked: Vec::new(),
        finished: 0,
    };
    let mut places: HashMap<u32, Place> = HashMap::new();
    let mut snapshots = Vec::with_capacity(events.len() + 1);
    snapshots.push(state.clone());
    for (index, event) in events.iter().enumerate() {
        let fail = |why: &str| {
            Err(format!("event {index} ({:?} of task {} at {:.3} ms): {why}", event.kind, event.task, event.at_ms))
        };
        let worker = match event.worker {
            Some(w) if (w as usize) < workers => Some(w as usize),
            Some(_) => return fail("names a worker that does not exist"),
            None => None,
        };
        let task = event.task;
        let place = places.get(&task).copied();
        match event.kind {
            SchedulerEventKind::Spawn { queue } => {
                if place.is_some() {
                    return fail("the task was spawned before");
                }
                match queue {
                    Some(q) if (q as usize) < workers => {
                        state.local[q as usize].push(task);
                        places.insert(task, Place::Local(q as usize));
                    }
                    Some(_) => return fail("names a queue that does not exist"),
                    None => {
                        state.global.push(task);
                        places.insert(task, Place::Global);
                    }
                }
            }
            SchedulerEventKind::Steal { victim, .. } => {
                let (Some(thief), Some(Place::Local(from))) = (worker, place) else {
                    return fail("only a task waiting in a local queue can be stolen");
                };
                if from != victim as usize || !remove(&mut state.local[from], task) {
                    return fail("the task was not in the victim's queue");
                }
                state.local[thief].push(task);
                places.insert(task, Place::Local(thief));
            }
            SchedulerEventKind::Run => {
                let Some(w) = worker else { return fail("a task can only run on a worker") };
                if let Some(other) = state.running[w] {
                    return fail(&format!("the worker is still running task {other}"));
                }
                let taken = match place {
                    Some(Place::Local(q)) => remove(&mut state.local[q], task),
                    Some(Place::Global) => remove(&mut state.global, task),
                    _ => false,
                };
                if !taken {
                    return fail("the task was not waiting in a run queue");
                }
                state.running[w] = Some(task);
                places.insert(task, Place::Running(w));
            }
            SchedulerEventKind::Park | SchedulerEventKind::Finish => {
                let Some(w) = worker else { return fail("only a worker parks or finishes a task") };
                if place != Some(Place::Running(w)) || state.running[w] != Some(task) {
                    return fail("the task was not running on this worker");
                }
                state.running[w] = None;
                if event.kind == SchedulerEventKind::Park {
                    state.parked.push(task);
                    places.insert(task, Place::Parked);
                } else {
                    state.finished += 1;
                    places.insert(task, Place::Finished);
                }
            }
            SchedulerEventKind::Wake => {
                if place != Some(Place::Parked) || !remove(&mut state.parked, task) {
                    return fail("only a parked task can be woken");
                }
                match worker {
                    Some(w) => {
                        state.local[w].push(task);
                        places.insert(task, Place::Local(w));
                    }
                    None => {
                        state.global.push(task);
                        places.insert(task, Place::Global);
                    }
                }
            }
        }
        snapshots.push(state.clone());
    }
    Ok(snapshots)
}

/// `Err` unless every task that was spawned also finished (call after [`replay`] succeeded).
pub fn all_finished(snapshots: &[Snapshot], spawned: usize) -> Result<(), String> {
    let last = snapshots.last().cloned().unwrap_or_default();
    if last.finished as usize == spawned && last.parked.is_empty() && last.running.iter().all(Option::is_none) {
        Ok(())
    } else {
        Err(format!("{} of {spawned} tasks finished; {} parked at the end", last.finished, last.parked.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SchedulerEventKind::*;

    fn event(at_ms: f64, worker: Option<u32>, task: u32, kind: SchedulerEventKind) -> SchedulerEvent {
        SchedulerEvent { at_ms, worker, task, kind }
    }

    #[test]
    fn a_steal_moves_the_task_and_a_park_and_wake_come_back() {
        let events = [
            event(0.0, Some(0), 1, Spawn { queue: Some(0) }),
            event(0.1, Some(0), 2, Spawn { queue: Some(0) }),
            event(0.2, Some(0), 1, Run),
            event(0.3, Some(1), 2, Steal { victim: 0, count: 1 }),
            event(0.4, Some(1), 2, Run),
            event(0.5, Some(0), 1, Park),
            event(0.6, Some(1), 2, Finish),
            event(0.7, Some(1), 1, Wake),
            event(0.8, Some(1), 1, Run),
            event(0.9, Some(1), 1, Finish),
        ];
        let snapshots = replay(&events, 2).unwrap();
        assert_eq!(snapshots.len(), 11);
        assert_eq!(snapshots[2].local, vec![vec![1, 2], vec![]]);
        assert_eq!(snapshots[4].local, vec![vec![], vec![2]]);
        assert_eq!(snapshots[5].running, vec![Some(1), Some(2)], "both run at once: parallelism");
        assert_eq!(snapshots[6].parked, vec![1]);
        assert_eq!(snapshots[8].local[1], vec![1], "woken on the worker that fired the timer");
        assert_eq!(snapshots[10].finished, 2);
        assert!(all_finished(&snapshots, 2).is_ok());
    }

    #[test]
    fn contradictions_are_named() {
        let twice = [event(0.0, None, 1, Spawn { queue: None }), event(0.1, None, 1, Spawn { queue: None })];
        assert!(replay(&twice, 1).unwrap_err().contains("spawned before"));
        let two_workers =
            [event(0.0, None, 1, Spawn { queue: None }), event(0.1, Some(0), 1, Run), event(0.2, Some(1), 1, Run)];
        assert!(replay(&two_workers, 2).unwrap_err().contains("not waiting"));
        let busy = [
            event(0.0, None, 1, Spawn { queue: None }),
            event(0.0, None, 2, Spawn { queue: None }),
            event(0.1, Some(0), 1, Run),
            event(0.2, Some(0), 2, Run),
        ];
        assert!(replay(&busy, 1).unwrap_err().contains("still running task 1"));
        let wrong_worker = [event(0.0, None, 1, Spawn { queue: None }), event(0.1, Some(3), 1, Run)];
        assert!(replay(&wrong_worker, 2).unwrap_err().contains("does not exist"));
        let unfinished = replay(&[event(0.0, None, 1, Spawn { queue: None })], 1).unwrap();
        assert!(all_finished(&unfinished, 1).is_err());
    }
}
