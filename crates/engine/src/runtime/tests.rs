//! Native tests of the M:N runtime: every task runs exactly once, stealing spreads work, timers wake
//! in deadline order, sleeping tasks free their worker, and no wake-up is lost under stress.
//!
//! Built for tests, the scheduler has no periodic re-check (see `MAX_SLEEP_MS`): a lost wake-up
//! hangs a run, so every wait here has a deadline that turns a hang into a failure with a message.
//! It also yields the CPU now and then at each step of its sleep/wake protocol (`shake`), so the
//! stress tests meet the rare interleavings in which a wake-up could be lost.
//! Also: a thief wakes an idle worker for the work it leaves behind, dropping the runtime frees
//! every parked task, and a panicking task fails its run (and only it) without hanging anything.

use super::scheduler::current_worker_index;
use super::*;
use crate::runtime::EventKind;
use std::collections::HashSet;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Hang guard: how long a test waits for something that normally takes milliseconds.
const PATIENCE: Duration = Duration::from_secs(10);

/// Wait until `ready()`, or fail the test with `what` after [`PATIENCE`].
fn wait_for(what: &str, ready: impl Fn() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !ready() {
        assert!(Instant::now() < deadline, "still waiting after {PATIENCE:?} for {what}");
        std::thread::sleep(Duration::from_millis(1));
    }
}

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
    // Each task's deadline as its sleep fixed it, in the order the sleeps were made. The deadlines
    // are what the runtime orders by: were the test to expect the ids' order instead, a spawn
    // delayed by more than the 3 ms between two naps (a busy machine) would fail it.
    let deadlines = Arc::new(Mutex::new(Vec::new()));
    let (finished, asked) = (order.clone(), deadlines.clone());
    run_within(&runtime, Duration::from_secs(30), async move {
        let group = WaitGroup::new(10);
        for id in 0..10u32 {
            let (group, finished, asked) = (group.clone(), finished.clone(), asked.clone());
            // Task 0 sleeps longest; task 9 shortest. Spawned in the opposite order of their deadlines.
            spawn(id, async move {
                let nap = sleep(Duration::from_millis(5 + 3 * (10 - id as u64)));
                asked.lock().unwrap().push((nap.deadline_ms(), id));
                nap.await;
                finished.lock().unwrap().push(id);
                group.done();
            });
        }
        group.wait().await;
    });
    let order = order.lock().unwrap().clone();
    let mut by_deadline = deadlines.lock().unwrap().clone();
    // Stable: equal deadlines keep the order their timers were made in, as the runtime does.
    by_deadline.sort_by(|a, b| a.0.total_cmp(&b.0));
    // On a machine that is not stalled that is the reverse of the spawn order, so a runtime that
    // woke tasks in the order they parked would fail here.
    assert_eq!(order, by_deadline.iter().map(|&(_, id)| id).collect::<Vec<_>>());
}

#[test]
fn a_sleeping_task_frees_its_worker_for_the_others() {
    // 16 tasks that each wait 50 ms, on ONE worker: if waiting blocked the worker this would take
    // 800 ms; parked, they all wait at once (about 50 ms). Sleep-dominated, and the bound is half
    // of the blocking time, so a loaded machine's stalls (300 ms seen with a load average of 12)
    // do not flip it.
    let runtime = Runtime::new(1).unwrap();
    runtime.start_tracing();
    let start = Instant::now();
    run_within(&runtime, Duration::from_secs(30), async {
        let group = WaitGroup::new(16);
        for id in 0..16 {
            let group = group.clone();
            spawn(id, async move {
                sleep(Duration::from_millis(50)).await;
                group.done();
            });
        }
        group.wait().await;
    });
    let elapsed = start.elapsed();
    assert!(elapsed < Duration::from_millis(400), "took {elapsed:?}");
    let events = runtime.take_events();
    assert_eq!(events.iter().filter(|e| e.kind == EventKind::Park).count(), 16);
    assert_eq!(events.iter().filter(|e| e.kind == EventKind::Wake).count(), 16);
}

/// With no periodic re-check in this build, a lost wake-up leaves the run waiting: `run_within`'s
/// deadline fails it (see `a_lost_wake_up_hangs_a_run_in_this_build`).
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
    let before = Instant::now();
    let runtime = Runtime::new(3).unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while runtime.start_time_ms().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    let started = runtime.start_time_ms().expect("all three workers started");
    // A time from creation to the last worker's start: within the time this test has waited.
    let waited_ms = before.elapsed().as_secs_f64() * 1000.0;
    assert!((0.0..=waited_ms + 1.0).contains(&started), "started after {started} ms, waited {waited_ms} ms");
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

#[test]
fn no_wake_up_from_outside_is_lost_while_a_worker_falls_asleep() {
    // No timers at all, so nothing but the wake-up itself can rescue a worker (this build has no
    // periodic re-check). Each round, the task parks on a fresh wait group and hands it out; the
    // outside thread finishes it at once, racing the worker on its way to sleep.
    for workers in [1, 2] {
        let runtime = Runtime::new(workers).unwrap();
        let (groups_sender, groups) = mpsc::channel();
        const ROUNDS: u32 = 2_000;
        runtime.spawn_root(
            async move {
                for _ in 0..ROUNDS {
                    let group = WaitGroup::new(1);
                    let _ = groups_sender.send(group.clone());
                    group.wait().await;
                }
            },
            |()| {},
        );
        for round in 0..ROUNDS {
            // Spin rather than block, so the wake-up follows the hand-out within nanoseconds,
            // while the worker is still on its way to sleep.
            let deadline = Instant::now() + PATIENCE;
            let group = loop {
                match groups.try_recv() {
                    Ok(group) => break group,
                    Err(_) if Instant::now() < deadline => std::hint::spin_loop(),
                    Err(_) => panic!("{workers} workers, round {round}: the task was not woken (a lost wake-up)"),
                }
            };
            group.done();
        }
    }
}

#[test]
fn a_lost_wake_up_hangs_a_run_in_this_build() {
    // What makes `no_wake_up_is_lost_under_stress` able to fail: work that arrives without a
    // wake-up is not found by a periodic re-check 50 ms later; it waits until someone notifies.
    let runtime = Runtime::new(2).unwrap();
    wait_for("both workers to fall asleep", || runtime.sleeping_workers() == 2);
    let (sender, receiver) = mpsc::channel();
    // A lost wake-up, staged: a task queued, and nobody told.
    runtime.queue_silently(None, async move {
        let _ = sender.send(());
    });
    assert_eq!(
        receiver.recv_timeout(Duration::from_millis(500)),
        Err(RecvTimeoutError::Timeout),
        "a task queued without a wake-up ran anyway: something re-checks periodically and would hide a lost wake-up"
    );
    runtime.notify();
    receiver.recv_timeout(PATIENCE).expect("once woken, a worker runs the task");
}

#[test]
fn a_thief_that_leaves_work_behind_wakes_an_idle_worker_for_it() {
    let runtime = Runtime::new(3).unwrap();
    // A root task holds one worker, busy, so that worker cannot run its own queue.
    let release = Arc::new(AtomicBool::new(false));
    let (here_sender, here) = mpsc::channel();
    let hold = release.clone();
    runtime.spawn_root(
        async move {
            let _ = here_sender.send(current_worker_index().expect("on a worker"));
            let deadline = Instant::now() + 3 * PATIENCE;
            while !hold.load(Ordering::SeqCst) && Instant::now() < deadline {
                std::hint::spin_loop();
            }
        },
        |()| {},
    );
    let busy = here.recv_timeout(PATIENCE).expect("the root task runs");
    wait_for("the two other workers to fall asleep", || runtime.sleeping_workers() == 2);
    // Four tasks on the busy worker's queue, and ONE wake-up for them (as when work arrives in a
    // batch). The worker it wakes steals two and runs one; the one it leaves behind is for the
    // third worker, which only a wake-up from the thief brings (this build has no re-check).
    let started = Arc::new(AtomicU32::new(0));
    let alone = Arc::new(AtomicU32::new(0));
    let (finished_sender, finished) = mpsc::channel();
    for _ in 0..4 {
        let (started, alone, finished) = (started.clone(), alone.clone(), finished_sender.clone());
        runtime.queue_silently(Some(busy), async move {
            started.fetch_add(1, Ordering::SeqCst);
            // Wait (busy, holding the worker) until another task runs alongside, or give up.
            let deadline = Instant::now() + Duration::from_secs(5);
            while started.load(Ordering::SeqCst) < 2 && Instant::now() < deadline {
                std::hint::spin_loop();
            }
            if started.load(Ordering::SeqCst) < 2 {
                alone.fetch_add(1, Ordering::SeqCst);
            }
            let _ = finished.send(());
        });
    }
    runtime.notify();
    for _ in 0..4 {
        finished.recv_timeout(3 * PATIENCE).expect("every task finishes");
    }
    release.store(true, Ordering::SeqCst);
    assert_eq!(
        alone.load(Ordering::SeqCst),
        0,
        "a stolen task ran alone for 5 s while a worker slept: the thief did not wake it for the task it left behind"
    );
}

/// Counts its drops: a task that owns one is freed when the counter moves.
struct DropCounter(Arc<AtomicUsize>);

impl Drop for DropCounter {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn dropping_the_runtime_frees_every_task_parked_on_a_gate_a_wait_group_or_a_timer() {
    const EACH: u32 = 50;
    let runtime = Runtime::new(2).unwrap();
    let dropped = Arc::new(AtomicUsize::new(0));
    let parked = Arc::new(AtomicU32::new(0));
    let (counter, parking) = (dropped.clone(), parked.clone());
    runtime.spawn_root(
        async move {
            let _mine = DropCounter(counter.clone());
            let gate = Gate::new();
            for id in 0..3 * EACH {
                let (gate, counter, parking) = (gate.clone(), counter.clone(), parking.clone());
                spawn(id, async move {
                    let _mine = DropCounter(counter);
                    parking.fetch_add(1, Ordering::SeqCst);
                    match id % 3 {
                        // The gate holds this task's waker, and this task holds the gate: a cycle.
                        0 => gate.wait().await,
                        // The same with a wait group nobody will finish.
                        1 => {
                            let never = WaitGroup::new(1);
                            never.wait().await
                        }
                        _ => sleep(Duration::from_secs(3600)).await,
                    }
                });
            }
            // The root parks at the gate too.
            gate.wait().await;
        },
        |()| {},
    );
    wait_for("every task to park", || parked.load(Ordering::SeqCst) == 3 * EACH);
    let state = runtime.downgrade();
    drop(runtime);
    let all = 3 * EACH as usize + 1;
    let deadline = Instant::now() + PATIENCE;
    while dropped.load(Ordering::SeqCst) < all && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(dropped.load(Ordering::SeqCst), all, "tasks freed after the runtime was dropped, of {all}");
    wait_for("the runtime's state to be freed (no task, waker or worker left holding it)", || {
        state.upgrade().is_none()
    });
}

#[test]
fn a_panicking_task_fails_its_run_without_hanging_and_the_runtime_runs_on() {
    let runtime = Runtime::new(2).unwrap();
    // Another run, alive at the same time: it must not fail with the first.
    let gate = Gate::new();
    let (other_sender, other) = mpsc::channel();
    let opened = gate.clone();
    runtime.spawn_root(
        async move {
            opened.wait().await;
            42
        },
        move |value| {
            let _ = other_sender.send(value);
        },
    );
    runtime.start_tracing();
    let panicking = Arc::new(AtomicBool::new(false));
    let about_to_panic = panicking.clone();
    let (sender, outcome) = mpsc::channel();
    runtime.spawn_root(
        async move {
            let group = WaitGroup::new(4);
            for id in 0..4 {
                let (group, about_to_panic) = (group.clone(), about_to_panic.clone());
                spawn(id, async move {
                    yield_now().await;
                    if id == 2 {
                        about_to_panic.store(true, Ordering::SeqCst);
                        panic!("task 2 fails on purpose");
                    }
                    group.done();
                });
            }
            group.wait().await;
        },
        move |()| {
            let _ = sender.send(());
        },
    );
    wait_for("task 2 to panic", || panicking.load(Ordering::SeqCst));
    // `take_events` waits for traced polls under way to record how they ended: a poll that
    // panicked must count as ended.
    let handle = runtime.handle();
    let (events_sender, events) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = events_sender.send(handle.take_events());
    });
    events.recv_timeout(PATIENCE).expect("take_events still waits for the poll that panicked");
    match outcome.recv_timeout(PATIENCE) {
        // Its reply was dropped: whoever awaits the run sees it fail.
        Err(RecvTimeoutError::Disconnected) => {}
        Ok(()) => panic!("the run finished although one of its tasks panicked"),
        Err(RecvTimeoutError::Timeout) => panic!("the run still waits for the task that panicked"),
    }
    let message = runtime.handle().panic_message().expect("the panic is reported");
    assert!(message.contains("task 2 fails on purpose"), "{message}");
    gate.open();
    assert_eq!(other.recv_timeout(PATIENCE), Ok(42), "the other run goes on");
    assert_eq!(run_within(&runtime, PATIENCE, async { 7 }), 7, "the runtime runs the next run");
    // Natively, a panic inside `block_on`'s run fails the caller with the task's message.
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        runtime.block_on(async {
            spawn(9, async { panic!("task 9 fails on purpose") });
            std::future::pending::<()>().await
        })
    }));
    let message = failed.expect_err("block_on returned after a panic");
    let message = message.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("task 9 fails on purpose"), "{message}");
}

#[test]
fn a_panicking_task_fails_run_inline_too() {
    let runtime = Runtime::new_inline();
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        runtime.run_inline(async {
            let group = WaitGroup::new(1);
            spawn(1, async { panic!("task 1 fails on purpose") });
            group.wait().await;
        })
    }));
    assert!(failed.is_err(), "run_inline returned although a task of its run panicked");
    assert_eq!(runtime.run_inline(async { 5 }), 5, "the runtime runs the next run");
}
