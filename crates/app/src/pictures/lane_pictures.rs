//! The lane pictures, one per chapter idea, each a model drawn from its own sliders
//! ([`schedules`], [`lanes`]): tasks taking turns on one core against spread over several
//! (chapter 1), threads sharing a core in time slices (OS scheduler), hashes in rounds (hashing),
//! tasks paying overhead (task costs), reads that block against reads that park (document search),
//! waits against computing (CPU vs IO), a thread pool against parked requests (high
//! concurrency) and an idle P stealing half of a busy P's queue (Go's scheduler). Computed, not
//! measured, and each caption says so.

use super::lanes::{lane_figure, Group};
use super::schedules::{
    finish, first_done, oversubscribed, ready_time, round_count, round_robin, rounds, spread, switches,
    wait_then_compute, work_stealing, Kind, Lane, Span, Waiting,
};
use crate::format;
use crate::i18n::{fill, message, ui, Arg};
use leptos::prelude::*;

/// A lane's name: `template` ("Core {n}") with its number, counted from 1.
fn numbered(template: &str, n: usize) -> String {
    fill(template, &[("n", &format::int(n as u64 + 1))])
}

/// Lanes named by `template` ("Worker {n}"), in order.
fn named(template: &str, lanes: Vec<Lane>) -> Vec<(String, Lane)> {
    lanes.into_iter().enumerate().map(|(i, lane)| (numbered(template, i), lane)).collect()
}

/// A count for a message: steps are whole in these models, but a slice may end between them.
fn steps(value: f64) -> String {
    format::decimal(value, 1)
}

/// How many times faster `fast` finishes than `slow`, for a message.
fn times(slow: f64, fast: f64) -> String {
    format::fixed(slow / fast.max(1e-9), 2)
}

/// Chapter 1: tasks of four steps each, interleaved on one core against spread over several.
pub fn interleave() -> impl IntoView {
    const WORK: f64 = 4.0;
    let t = ui();
    let tasks = RwSignal::new(3u64);
    let cores = RwSignal::new(2u64);
    let lanes = move || {
        let (n, k) = (tasks.get() as usize, cores.get() as usize);
        (round_robin(&(0..n).collect::<Vec<_>>(), WORK, 1.0), spread(n, k, WORK, 1.0))
    };
    let groups = move || {
        let (one, many) = lanes();
        vec![
            Group { title: t.interleave_one.to_string(), lanes: named(t.lanes_core, vec![one]) },
            Group {
                title: message(t.interleave_many, &[("cores", Arg::Count(cores.get()))]),
                lanes: named(t.lanes_core, many),
            },
        ]
    };
    let sentence = move || {
        let (one, many) = lanes();
        let started = one.iter().take(tasks.get() as usize).map(|s| s.start).fold(0.0, f64::max) + 1.0;
        message(
            t.interleave_sentence,
            &[
                ("started", Arg::Text(&steps(started))),
                ("one", Arg::Text(&steps(finish(&[one])))),
                ("cores", Arg::Count(cores.get())),
                ("many", Arg::Text(&steps(finish(&many)))),
            ],
        )
    };
    lane_figure(
        "interleave",
        t.interleave_caption,
        vec![(t.interleave_tasks, (1, 6), tasks), (t.interleave_cores, (1, 4), cores)],
        groups,
        sentence,
        &[("run", t.legend_run)],
    )
}

/// The OS scheduler: threads of 12 ms each sharing one core, switched every time slice.
pub fn time_slices() -> impl IntoView {
    const WORK: f64 = 12.0;
    let t = ui();
    let threads = RwSignal::new(3u64);
    let slice = RwSignal::new(2u64);
    let lane = move || round_robin(&(0..threads.get() as usize).collect::<Vec<_>>(), WORK, slice.get() as f64);
    let groups =
        move || vec![Group { title: t.slices_title.to_string(), lanes: vec![(numbered(t.lanes_core, 0), lane())] }];
    let sentence = move || {
        let lane = lane();
        message(
            t.slices_sentence,
            &[
                ("total", Arg::Text(&steps(finish(std::slice::from_ref(&lane))))),
                ("slice", Arg::Count(slice.get())),
                ("switches", Arg::Count(switches(&lane) as u64)),
                ("first", Arg::Text(&steps(first_done(&lane)))),
            ],
        )
    };
    lane_figure(
        "time-slices",
        t.slices_caption,
        vec![(t.slices_threads, (1, 6), threads), (t.slices_slice, (1, 12), slice)],
        groups,
        sentence,
        &[("run", t.legend_run_thread)],
    )
}

/// Hashing: equal hashes in rounds on k workers, beside one worker.
pub fn hash_rounds() -> impl IntoView {
    let t = ui();
    let hashes = RwSignal::new(30u64);
    let workers = RwSignal::new(4u64);
    let groups = move || {
        let (n, k) = (hashes.get() as usize, workers.get() as usize);
        vec![
            Group {
                title: message(t.rounds_workers_title, &[("workers", Arg::Count(1))]),
                lanes: named(t.lanes_worker, rounds(n, 1, 1.0, 0.0)),
            },
            Group {
                title: message(t.rounds_workers_title, &[("workers", Arg::Count(k as u64))]),
                lanes: named(t.lanes_worker, rounds(n, k, 1.0, 0.0)),
            },
        ]
    };
    let sentence = move || {
        let (n, k) = (hashes.get() as usize, workers.get() as usize);
        let (count, last) = round_count(n, k);
        message(
            t.rounds_sentence,
            &[
                ("hashes", Arg::Count(n as u64)),
                ("rounds", Arg::Count(count as u64)),
                ("workers", Arg::Count(k as u64)),
                ("last", Arg::Count(last as u64)),
                ("speedup", Arg::Text(&times(n as f64, count as f64))),
            ],
        )
    };
    lane_figure(
        "hash-rounds",
        t.rounds_caption,
        vec![(t.rounds_hashes, (1, 32), hashes), (t.rounds_workers, (1, 16), workers)],
        groups,
        sentence,
        &[("run", t.legend_run)],
    )
}

/// Task costs: 48 steps of work as one loop, or as tasks that each pay a step of overhead first.
pub fn task_overhead() -> impl IntoView {
    const WORK: f64 = 48.0;
    const OVERHEAD: f64 = 1.0;
    let t = ui();
    let tasks = RwSignal::new(8u64);
    let workers = RwSignal::new(2u64);
    let split = move || {
        let n = tasks.get() as usize;
        rounds(n, workers.get() as usize, WORK / n as f64, OVERHEAD)
    };
    let groups = move || {
        vec![
            Group { title: t.overhead_loop.to_string(), lanes: named(t.lanes_worker, rounds(1, 1, WORK, 0.0)) },
            Group {
                title: message(
                    t.overhead_split,
                    &[("tasks", Arg::Count(tasks.get())), ("workers", Arg::Count(workers.get()))],
                ),
                lanes: named(t.lanes_worker, split()),
            },
        ]
    };
    let sentence = move || {
        let time = finish(&split());
        let busy = WORK + OVERHEAD * tasks.get() as f64;
        message(
            t.overhead_sentence,
            &[
                ("loop", Arg::Text(&steps(WORK))),
                ("time", Arg::Text(&steps(time))),
                ("speedup", Arg::Text(&times(WORK, time))),
                ("share", Arg::Text(&format::percent(OVERHEAD * tasks.get() as f64 / busy))),
            ],
        )
    };
    lane_figure(
        "task-overhead",
        t.overhead_caption,
        vec![(t.overhead_tasks, (1, 48), tasks), (t.overhead_workers, (1, 4), workers)],
        groups,
        sentence,
        &[("run", t.legend_run), ("overhead", t.legend_overhead)],
    )
}

/// The three wait pictures' shared part: `tasks` tasks that wait and then compute, blocking on
/// `threads` threads (first group) and parking on one worker (second), with their sentence's
/// figures: when each group finishes.
struct WaitPicture {
    tasks: RwSignal<u64>,
    threads: RwSignal<u64>,
    wait: RwSignal<u64>,
    compute: f64,
}

impl WaitPicture {
    fn lanes(&self, waiting: Waiting) -> Vec<Lane> {
        let threads = if waiting == Waiting::Blocks { self.threads.get() as usize } else { 1 };
        wait_then_compute(self.tasks.get() as usize, threads, self.wait.get() as f64, self.compute, waiting)
    }

    fn groups(&self, blocking: String, parking: String) -> Vec<Group> {
        let t = ui();
        vec![
            Group { title: blocking, lanes: named(t.lanes_task, self.lanes(Waiting::Blocks)) },
            Group { title: parking, lanes: named(t.lanes_task, self.lanes(Waiting::Parks)) },
        ]
    }

    /// When the blocking and the parking group finish.
    fn finishes(&self) -> (f64, f64) {
        (finish(&self.lanes(Waiting::Blocks)), finish(&self.lanes(Waiting::Parks)))
    }

    /// `template` with `{blocking}`, `{parking}` (when each group finishes) and `{speedup}`.
    fn sentence(&self, template: &str) -> String {
        let (blocking, parking) = self.finishes();
        let (b, p, s) = (steps(blocking), steps(parking), times(blocking, parking));
        message(template, &[("blocking", Arg::Text(&b)), ("parking", Arg::Text(&p)), ("speedup", Arg::Text(&s))])
    }
}

/// Document search: documents read (a wait) and then parsed, on one worker, blocking or parking.
pub fn reads() -> impl IntoView {
    let t = ui();
    let model =
        WaitPicture { tasks: RwSignal::new(4), threads: RwSignal::new(1), wait: RwSignal::new(4), compute: 1.0 };
    let (tasks, wait) = (model.tasks, model.wait);
    let model = StoredValue::new(model);
    let groups = move || model.with_value(|m| m.groups(t.reads_blocks.to_string(), t.reads_parks.to_string()));
    let sentence = move || model.with_value(|m| m.sentence(t.reads_sentence));
    lane_figure(
        "reads",
        t.reads_caption,
        vec![(t.reads_documents, (1, 8), tasks), (t.reads_wait, (0, 8), wait)],
        groups,
        sentence,
        &[("run", t.legend_run), ("wait", t.legend_wait), ("ready", t.legend_ready)],
    )
}

/// CPU vs IO: tasks that compute two steps after a wait; only the waits can overlap on one worker.
pub fn compute_wait() -> impl IntoView {
    let t = ui();
    let model =
        WaitPicture { tasks: RwSignal::new(4), threads: RwSignal::new(1), wait: RwSignal::new(3), compute: 2.0 };
    let (tasks, wait) = (model.tasks, model.wait);
    let model = StoredValue::new(model);
    let groups = move || model.with_value(|m| m.groups(t.cpuio_loop.to_string(), t.cpuio_parks.to_string()));
    let sentence = move || model.with_value(|m| m.sentence(t.cpuio_sentence));
    lane_figure(
        "compute-wait",
        t.cpuio_caption,
        vec![(t.cpuio_tasks, (1, 8), tasks), (t.cpuio_wait, (0, 8), wait)],
        groups,
        sentence,
        &[("run", t.legend_run), ("wait", t.legend_wait), ("ready", t.legend_ready)],
    )
}

/// High concurrency: requests that wait four steps and compute one, on a pool of threads whose
/// waits hold them, or as goroutines on one worker whose waits park.
pub fn pool_or_park() -> impl IntoView {
    let t = ui();
    let model =
        WaitPicture { tasks: RwSignal::new(8), threads: RwSignal::new(2), wait: RwSignal::new(4), compute: 1.0 };
    let (tasks, threads) = (model.tasks, model.threads);
    let model = StoredValue::new(model);
    let groups = move || {
        model.with_value(|m| {
            m.groups(message(t.pool_blocks, &[("threads", Arg::Count(threads.get()))]), t.pool_parks.to_string())
        })
    };
    let sentence = move || model.with_value(|m| m.sentence(t.pool_sentence));
    lane_figure(
        "pool-or-park",
        t.pool_caption,
        vec![(t.pool_requests, (1, 12), tasks), (t.pool_threads, (1, 6), threads)],
        groups,
        sentence,
        &[("run", t.legend_run), ("wait", t.legend_wait), ("ready", t.legend_ready)],
    )
}

/// Go's scheduler: goroutines spawned onto one P's queue, run without and with work stealing.
pub fn stealing() -> impl IntoView {
    let t = ui();
    let goroutines = RwSignal::new(8u64);
    let ps = RwSignal::new(2u64);
    let run = move |stealing: bool| work_stealing(goroutines.get() as usize, ps.get() as usize, stealing);
    // Ps are named as Go and the G/M/P picture name them: P0, P1, …
    let by_p = |lanes: Vec<Lane>| lanes.into_iter().enumerate().map(|(p, lane)| (format!("P{p}"), lane)).collect();
    let groups = move || {
        vec![
            Group { title: t.steal_alone.to_string(), lanes: by_p(run(false).0) },
            Group { title: t.steal_shared.to_string(), lanes: by_p(run(true).0) },
        ]
    };
    let sentence = move || {
        let ((alone, _), (shared, steals)) = (run(false), run(true));
        message(
            t.steal_sentence,
            &[
                ("alone", Arg::Text(&steps(finish(&alone)))),
                ("shared", Arg::Text(&steps(finish(&shared)))),
                ("steals", Arg::Count(steals as u64)),
            ],
        )
    };
    lane_figure(
        "work-stealing",
        t.steal_caption,
        vec![(t.steal_goroutines, (1, 16), goroutines), (t.steal_ps, (1, 4), ps)],
        groups,
        sentence,
        &[("run", t.legend_run_goroutine)],
    )
}

/// Chapter 1: more workers than cores: the cores take turns among the workers, so each worker's
/// bar is longer than its work.
pub fn more_workers() -> impl IntoView {
    const WORK: usize = 4;
    let t = ui();
    let workers = RwSignal::new(4u64);
    let cores = RwSignal::new(2u64);
    let lanes = move || oversubscribed(workers.get() as usize, cores.get() as usize, WORK);
    let groups = move || {
        vec![Group {
            title: message(
                t.oversub_title,
                &[("workers", Arg::Count(workers.get())), ("cores", Arg::Count(cores.get()))],
            ),
            lanes: named(t.lanes_worker, lanes()),
        }]
    };
    let sentence = move || {
        let lanes = lanes();
        let waited = lanes.iter().map(ready_time).fold(0.0, f64::max);
        message(
            t.oversub_sentence,
            &[("finish", Arg::Text(&steps(finish(&lanes)))), ("waited", Arg::Text(&steps(waited)))],
        )
    };
    lane_figure(
        "more-workers",
        t.oversub_caption,
        vec![(t.oversub_workers, (1, 8), workers), (t.oversub_cores, (1, 4), cores)],
        groups,
        sentence,
        &[("run", t.legend_run_worker), ("ready", t.legend_ready_core)],
    )
}

/// CPU vs IO: a CPU-bound thread beside an IO-bound one, over the same twelve steps (still).
pub fn cpu_or_io() -> impl IntoView {
    let t = ui();
    let span = |start: f64, end: f64, kind| Span { start, end, kind };
    let groups = move || {
        let cpu = vec![span(0.0, 12.0, Kind::Run(0))];
        let io = vec![
            span(0.0, 1.0, Kind::Run(1)),
            span(1.0, 5.0, Kind::Wait(1)),
            span(5.0, 6.0, Kind::Run(1)),
            span(6.0, 10.0, Kind::Wait(1)),
            span(10.0, 11.0, Kind::Run(1)),
            span(11.0, 12.0, Kind::Wait(1)),
        ];
        vec![
            Group { title: t.cpuio_cpu_title.to_string(), lanes: vec![(numbered(t.lanes_task, 0), cpu)] },
            Group { title: t.cpuio_io_title.to_string(), lanes: vec![(numbered(t.lanes_task, 1), io)] },
        ]
    };
    lane_figure(
        "cpu-or-io",
        t.cpuio_kinds_caption,
        vec![],
        groups,
        move || t.cpuio_kinds_sentence.to_string(),
        &[("run", t.legend_run), ("wait", t.legend_wait)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_pictures_compare_blocking_with_parking_on_the_same_tasks() {
        let owner = Owner::new();
        owner.with(|| {
            let model = WaitPicture {
                tasks: RwSignal::new(4),
                threads: RwSignal::new(1),
                wait: RwSignal::new(4),
                compute: 1.0,
            };
            assert_eq!(model.finishes(), (20.0, 8.0));
            // Without waits there is nothing to overlap.
            model.wait.set(0);
            assert_eq!(model.finishes(), (4.0, 4.0));
            // A pool of threads shortens only the blocking group.
            model.wait.set(4);
            model.threads.set(2);
            assert_eq!(model.finishes(), (10.0, 8.0));
        });
    }
}
