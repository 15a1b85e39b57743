//! Native tests of the M:N runtime: every task runs exactly once, stealing spreads work, timers wake
//! in deadline order, sleeping tasks free their worker, and no wake-up is lost under stress.

use super::*;
use crate::runtime::EventKind;
use std::collections::HashSet;
use std::future::Future;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// `Runtime::block_on`, but failing the test instead of hanging if a wake-up was lost.
fn run_within<T: Send + 'static>(
    runtime: &Runtime,
    limit: Duration,
    future: impl std::future::Future<Output = T> + Send + 'static,
) -> T {
    let (sender, receiver) = std::sync::mpsc::channel();
    runtime.spawn_root(future, move |value| {
        let _ = sender.send(value);
    });
    receiver.recv_timeout(limit).expect("the runtime did not finish in time: a lost wake-up?")
}

fn busy_for(micros: u64) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_micros(micros) {
        std::hint::spin_loop();
    }
}

#[test]
fn ten_thousand_tasks_on_eight_workers_each_run_exactly_once() {
    let runtime = Runtime::new(8).unwrap();
    let runs: Arc<Vec<AtomicU32>> = Arc::new((0..10_000).map(|_| AtomicU32::new(0)).collect());
    let counts = runs.clone();
    run_within(&runtime, Duration::from_secs(30), async move {
        let group = WaitGroup::new(10_000);
        for id in 0..10_000u32 {
            let (group, counts) = (group.clone(), counts.clone());
            spawn(id, async move {
                counts[id as usize].fetch_add(1, Ordering::SeqCst);
                group.done();
            });
        }
        group.wait().await;
    });
    assert!(runs.iter().all(|r| r.load(Ordering::SeqCst) == 1));
}

#[test]
fn tasks_spawned_on_one_worker_are_stolen_by_the_others() {
    let runtime = Runtime::new(4).unwrap();
    runtime.start_tracing();
    run_within(&runtime, Duration::from_secs(30), async {
        let group = WaitGroup::new(64);
        // All 64 go to the root task's worker's local queue.
        for id in 0..64 {
            let group = group.clone();
            spawn(id, async move {
                busy_for(500);
                group.done();
            });
        }
        group.wait().await;
    });
    let events = runtime.take_events();
    let spawned_on: HashSet<_> = events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Spawn { queue } => Some(queue),
            _ => None,
        })
        .collect();
    assert_eq!(spawned_on.len(), 1, "all spawned on one worker: {spawned_on:?}");
    assert!(events.iter().any(|e| matches!(e.kind, EventKind::Steal { .. })), "no steal happened");
    let ran_on: HashSet<_> = events.iter().filter(|e| e.kind == EventKind::Run).map(|e| e.worker).collect();
    assert!(ran_on.len() >= 2, "stealing spread the work: ran on {ran_on:?}");
    // Every task ran and finished exactly once, and never on two workers at the same time: the
    // replay checks every step against the ones before it.
    for id in 0..64 {
        let mine: Vec<_> = events.iter().filter(|e| e.task == id).collect();
        assert_eq!(mine.iter().filter(|e| e.kind == EventKind::Finish).count(), 1, "task {id}");
        assert_eq!(mine.iter().filter(|e| e.kind == EventKind::Run).count(), 1, "task {id}");
    }
    let snapshots = experiments::replay::replay(&events, 4).expect("a consistent recording");
    experiments::replay::all_finished(&snapshots, 64).unwrap();
}

#[test]
fn recordings_of_parking_and_stealing_replay_consistently_under_stress() {
    for workers in [1, 2, 4] {
        let runtime = Runtime::new(workers).unwrap();
        runtime.start_tracing();
        run_within(&runtime, Duration::from_secs(60), async {
            let group = WaitGroup::new(200);
            for id in 0..200u32 {
                let group = group.clone();
                spawn(id, async move {
                    for step in 0..5u32 {
                        sleep(Duration::from_micros(((id + step) % 4) as u64 * 100)).await;
                        busy_for(20);
                    }
                    group.done();
                });
            }
            group.wait().await;
        });
        let events = runtime.take_events();
        let snapshots =
            experiments::replay::replay(&events, workers).unwrap_or_else(|e| panic!("{workers} workers: {e}"));
        experiments::replay::all_finished(&snapshots, 200).unwrap();
        assert!(snapshots.iter().all(|s| s.running.len() == workers as usize));
    }
}

#[test]
fn timers_wake_parked_tasks_in_deadline_order() {
    let runtime = Runtime::new(1).unwrap();
    let order = Arc::new(Mutex::new(Vec::new()));
    let finished = order.clone();
    run_within(&runtime, Duration::from_secs(30), async move {
        let group = WaitGroup::new(10);
        for id in 0..10u32 {
            let (group, finished) = (group.clone(), finished.clone());
            // Task 0 sleeps longest; task 9 shortest. Spawned in the opposite order of their deadlines.
            spawn(id, async move {
                sleep(Duration::from_millis(5 + 3 * (10 - id as u64))).await;
                finished.lock().unwrap().push(id);
                group.done();
            });
        }
        group.wait().await;
    });
    let order = order.lock().unwrap().clone();
    assert_eq!(order, (0..10).rev().collect::<Vec<_>>());
}

#[test]
fn a_sleeping_task_frees_its_worker_for_the_others() {
    // 8 tasks that each wait 50 ms, on ONE worker: if waiting blocked the worker this would take
    // 400 ms; parked, they all wait at once. Sleep-dominated, so the wide margin is robust.
    let runtime = Runtime::new(1).unwrap();
    runtime.start_tracing();
    let start = Instant::now();
    run_within(&runtime, Duration::from_secs(30), async {
        let group = WaitGroup::new(8);
        for id in 0..8 {
            let group = group.clone();
            spawn(id, async move {
                sleep(Duration::from_millis(50)).await;
                group.done();
            });
        }
        group.wait().await;
    });
    let elapsed = start.elapsed();
    assert!(elapsed < Duration::from_millis(250), "took {elapsed:?}");
    let events = runtime.take_events();
    assert_eq!(events.iter().filter(|e| e.kind == EventKind::Park).count(), 8);
    assert_eq!(events.iter().filter(|e| e.kind == EventKind::Wake).count(), 8);
}

#[test]
fn no_wake_up_is_lost_under_stress() {
    let runtime = Runtime::new(4).unwrap();
    let total = Arc::new(AtomicU32::new(0));
    let sum = total.clone();
    for round in 0..5 {
        let sum = sum.clone();
        run_within(&runtime, Duration::from_secs(60), async move {
            let group = WaitGroup::new(500);
            for id in 0..500u32 {
                let (group, sum) = (group.clone(), sum.clone());
                spawn(id, async move {
                    for step in 0..10u32 {
                        // A mix of zero, tiny and short waits, and of nested wait groups.
                        let micros = ((id * 7 + step * 13 + round) % 5) as u64 * 40;
                        sleep(Duration::from_micros(micros)).await;
                        if step % 3 == 0 {
                            let inner = WaitGroup::new(1);
                            let done = inner.clone();
                            spawn(id, async move { done.done() });
                            inner.wait().await;
                        }
                    }
                    sum.fetch_add(1, Ordering::SeqCst);
                    group.done();
                });
            }
            group.wait().await;
        });
    }
    assert_eq!(total.load(Ordering::SeqCst), 2500);
}

#[test]
fn the_runtime_reports_when_all_its_workers_started() {
    let runtime = Runtime::new(3).unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while runtime.start_time_ms().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    let started = runtime.start_time_ms().expect("all three workers started");
    assert!(started >= 0.0);
}

#[test]
fn a_sleep_whose_timer_fires_before_its_own_clock_agrees_waits_again_instead_of_being_lost() {
    // Web Workers' clocks can disagree slightly: the worker firing a timer may think the deadline
    // passed while the worker polling the task next thinks it has not. Moving the deadline after the
    // timer is registered reproduces that here, deterministically.
    let runtime = Runtime::new(2).unwrap();
    let waited_ms = run_within(&runtime, Duration::from_secs(10), async {
        let started = Instant::now();
        let mut nap = sleep(Duration::from_millis(2));
        let mut registered = false;
        std::future::poll_fn(|context| {
            if !registered {
                registered = true;
                let pending = std::pin::Pin::new(&mut nap).poll(context).is_pending();
                assert!(pending, "a fresh 2 ms sleep is not due yet");
                // The timer fires at the old deadline; the sleep's own clock now says 30 ms later.
                nap.deadline_ms += 30.0;
                return std::task::Poll::Pending;
            }
            std::pin::Pin::new(&mut nap).poll(context)
        })
        .await;
        started.elapsed().as_secs_f64() * 1000.0
    });
    assert!(waited_ms >= 30.0, "the sleep ended after {waited_ms} ms, before its deadline");
}

#[test]
fn tracing_that_starts_while_a_task_is_mid_poll_records_neither_half_of_that_poll() {
    // A straggler of an untraced warm-up can still be inside its last poll when the measured run
    // starts tracing: its Finish must not be recorded without the Run that began it.
    let runtime = Runtime::new(1).unwrap();
    let handle = runtime.handle();
    run_within(&runtime, Duration::from_secs(10), async move {
        let group = WaitGroup::new(1);
        let done = group.clone();
        spawn(7, async move {
            handle.start_tracing();
            done.done();
        });
        group.wait().await;
    });
    let events = runtime.take_events();
    assert!(events.iter().all(|e| e.kind != EventKind::Finish), "{events:?}");
    experiments::replay::replay(&events, 1).expect("the recording replays");
}
