//! Schedules the lane pictures draw: which task runs, waits or pays overhead on which lane, and
//! when, computed from a picture's sliders by a few plain rules (round-robin slices, rounds of
//! equal tasks, a read that blocks its thread or parks its task). Models, not measurements: they
//! run nothing and time nothing, and every picture built on them says so.

/// What a lane does during a span, and for which task (numbered from 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// The task computes.
    Run(usize),
    /// The task's fixed cost of being a task (start, hand-over, join).
    Overhead(usize),
    /// The task waits for a read or a reply: it holds its thread if it blocks, nothing if it parks.
    Wait(usize),
    /// The task is ready but no thread or worker is free to take it.
    Ready(usize),
}

/// One span of a lane, in the model's time steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    pub start: f64,
    pub end: f64,
    pub kind: Kind,
}

/// A lane: a core, a worker, a thread or a task, its spans in time order.
pub type Lane = Vec<Span>;

/// When the last span of `lanes` ends (0 with none).
pub fn finish(lanes: &[Lane]) -> f64 {
    lanes.iter().flatten().map(|s| s.end).fold(0.0, f64::max)
}

/// `tasks` tasks of `work` steps each on one core that switches between them every `slice` steps,
/// in turn (round-robin), as an operating system shares a core among runnable threads.
pub fn round_robin(tasks: &[usize], work: f64, slice: f64) -> Lane {
    let slice = slice.max(f64::EPSILON);
    let mut left: Vec<f64> = vec![work; tasks.len()];
    let mut lane = Lane::new();
    let mut now = 0.0;
    while left.iter().any(|l| *l > 1e-9) {
        for (i, &task) in tasks.iter().enumerate() {
            if left[i] <= 1e-9 {
                continue;
            }
            let run = slice.min(left[i]);
            lane.push(Span { start: now, end: now + run, kind: Kind::Run(task) });
            left[i] -= run;
            now += run;
        }
    }
    lane
}

/// `tasks` tasks of `work` steps on `cores` cores: task i on core i mod cores, each core sharing
/// itself among its own tasks by [`round_robin`]. A core with no task gets an empty lane.
pub fn spread(tasks: usize, cores: usize, work: f64, slice: f64) -> Vec<Lane> {
    (0..cores.max(1))
        .map(|core| {
            let own: Vec<usize> = (core..tasks).step_by(cores.max(1)).collect();
            round_robin(&own, work, slice)
        })
        .collect()
}

/// How many times a lane switches from one task to another.
pub fn switches(lane: &Lane) -> usize {
    lane.windows(2).filter(|pair| pair[0].kind != pair[1].kind).count()
}

/// When the first task of a lane is done: the end of its last span, the earliest among tasks.
pub fn first_done(lane: &Lane) -> f64 {
    let mut last_end: Vec<(usize, f64)> = Vec::new();
    for span in lane {
        let Kind::Run(task) = span.kind else { continue };
        match last_end.iter_mut().find(|(t, _)| *t == task) {
            Some(entry) => entry.1 = span.end,
            None => last_end.push((task, span.end)),
        }
    }
    last_end.iter().map(|(_, end)| *end).fold(f64::INFINITY, f64::min).min(finish(std::slice::from_ref(lane)))
}

/// `tasks` equal tasks, each `overhead` steps of being a task and then `work` steps of work, on
/// `workers` workers: task i on worker i mod workers in round i / workers, as a pool hands equal
/// tasks out. Every worker gets a lane, busy or not.
pub fn rounds(tasks: usize, workers: usize, work: f64, overhead: f64) -> Vec<Lane> {
    let workers = workers.max(1);
    let each = work + overhead;
    (0..workers)
        .map(|worker| {
            (worker..tasks)
                .step_by(workers)
                .enumerate()
                .flat_map(|(round, task)| {
                    let start = round as f64 * each;
                    let paid =
                        (overhead > 0.0).then_some(Span { start, end: start + overhead, kind: Kind::Overhead(task) });
                    paid.into_iter().chain([Span { start: start + overhead, end: start + each, kind: Kind::Run(task) }])
                })
                .collect()
        })
        .collect()
}

/// How many rounds `tasks` equal tasks take on `workers` workers (⌈tasks / workers⌉), and how many
/// workers the last round keeps busy.
pub fn round_count(tasks: usize, workers: usize) -> (usize, usize) {
    let workers = workers.max(1);
    let rounds = tasks.div_ceil(workers);
    let last = if tasks == 0 { 0 } else { tasks - (rounds - 1) * workers };
    (rounds, last)
}

/// How a task's wait treats its thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waiting {
    /// The wait holds its thread: a pool of `n` threads has at most `n` tasks under way.
    Blocks,
    /// The wait parks the task and frees its worker: every task waits at once, and `n` workers
    /// share only the computing.
    Parks,
}

/// `tasks` tasks that each wait `wait` steps (a read, a reply) and then compute `compute` steps,
/// with `threads` threads or workers, a lane per task. With [`Waiting::Blocks`], a task takes a
/// thread for its wait and its work, so tasks queue for threads; with [`Waiting::Parks`], every
/// task starts its wait at once and queues for a worker only to compute.
pub fn wait_then_compute(tasks: usize, threads: usize, wait: f64, compute: f64, waiting: Waiting) -> Vec<Lane> {
    let mut free_at = vec![0.0_f64; threads.max(1)];
    (0..tasks)
        .map(|task| {
            let mut lane = Lane::new();
            let earliest = |free_at: &[f64]| {
                free_at
                    .iter()
                    .enumerate()
                    .fold((0, f64::INFINITY), |best, (i, t)| if *t < best.1 { (i, *t) } else { best })
            };
            match waiting {
                Waiting::Blocks => {
                    let (thread, start) = earliest(&free_at);
                    if start > 0.0 {
                        lane.push(Span { start: 0.0, end: start, kind: Kind::Ready(task) });
                    }
                    if wait > 0.0 {
                        lane.push(Span { start, end: start + wait, kind: Kind::Wait(task) });
                    }
                    lane.push(Span { start: start + wait, end: start + wait + compute, kind: Kind::Run(task) });
                    free_at[thread] = start + wait + compute;
                }
                Waiting::Parks => {
                    if wait > 0.0 {
                        lane.push(Span { start: 0.0, end: wait, kind: Kind::Wait(task) });
                    }
                    let (worker, free) = earliest(&free_at);
                    let start = free.max(wait);
                    if start > wait {
                        lane.push(Span { start: wait, end: start, kind: Kind::Ready(task) });
                    }
                    lane.push(Span { start, end: start + compute, kind: Kind::Run(task) });
                    free_at[worker] = start + compute;
                }
            }
            lane
        })
        .collect()
}

/// Go's work stealing, one step per goroutine: `tasks` goroutines spawned onto the first of `ps`
/// Ps' local queues. Each step every P runs the goroutine at the head of its queue; a P whose queue
/// is empty first takes half (rounded up) of the longest other queue, from its head, as Go's
/// `runqsteal` does. Without stealing the first P runs them all. The lanes, one per P, and how
/// many steals there were.
pub fn work_stealing(tasks: usize, ps: usize, stealing: bool) -> (Vec<Lane>, usize) {
    let ps = ps.max(1);
    let mut queues: Vec<std::collections::VecDeque<usize>> = vec![std::collections::VecDeque::new(); ps];
    queues[0].extend(0..tasks);
    let mut lanes = vec![Lane::new(); ps];
    let mut steals = 0;
    let mut now = 0.0;
    while queues.iter().any(|q| !q.is_empty()) {
        for p in 0..ps {
            if stealing && queues[p].is_empty() {
                let victim = (0..ps).filter(|v| *v != p).max_by_key(|v| (queues[*v].len(), usize::MAX - v));
                if let Some(victim) = victim.filter(|v| queues[*v].len() > 1) {
                    let take = queues[victim].len().div_ceil(2);
                    let taken: Vec<usize> = queues[victim].drain(..take).collect();
                    queues[p].extend(taken);
                    steals += 1;
                }
            }
        }
        for (p, queue) in queues.iter_mut().enumerate() {
            if let Some(task) = queue.pop_front() {
                lanes[p].push(Span { start: now, end: now + 1.0, kind: Kind::Run(task) });
            }
        }
        now += 1.0;
    }
    (lanes, steals)
}

/// `workers` workers of `work` steps each sharing `cores` cores, a step at a time: each step the
/// cores go to the workers that have waited longest (round-robin), the rest wait ready. A lane per
/// worker, its running and its waiting for a core, as the first chapter's timeline draws four
/// workers on two cores: four bars, each longer than its work.
pub fn oversubscribed(workers: usize, cores: usize, work: usize) -> Vec<Lane> {
    let mut left = vec![work; workers];
    let mut order: std::collections::VecDeque<usize> = (0..workers).collect();
    let mut lanes = vec![Lane::new(); workers];
    let mut now = 0.0;
    while left.iter().any(|l| *l > 0) {
        let running: Vec<usize> = order.iter().copied().filter(|w| left[*w] > 0).take(cores.max(1)).collect();
        for w in 0..workers {
            if left[w] == 0 {
                continue;
            }
            let kind = if running.contains(&w) { Kind::Run(w) } else { Kind::Ready(w) };
            match lanes[w].last_mut() {
                Some(last) if last.kind == kind && last.end == now => last.end = now + 1.0,
                _ => lanes[w].push(Span { start: now, end: now + 1.0, kind }),
            }
        }
        for w in &running {
            left[*w] -= 1;
        }
        order.retain(|w| !running.contains(w));
        order.extend(running);
        now += 1.0;
    }
    lanes
}

/// How long `lane` waited ready for a core.
pub fn ready_time(lane: &Lane) -> f64 {
    lane.iter().filter(|s| matches!(s.kind, Kind::Ready(_))).map(|s| s.end - s.start).sum()
}

/// Amdahl's law: the speedup on `workers` workers of a job whose `serial` share (0 to 1) cannot be
/// split: 1 / (s + (1 − s) / n).
pub fn amdahl(serial: f64, workers: f64) -> f64 {
    1.0 / (serial + (1.0 - serial) / workers.max(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn busy(lane: &Lane) -> f64 {
        lane.iter().filter(|s| matches!(s.kind, Kind::Run(_))).map(|s| s.end - s.start).sum()
    }

    #[test]
    fn one_core_takes_turns_and_finishes_when_all_the_work_is_done() {
        let lane = round_robin(&[0, 1, 2], 4.0, 1.0);
        assert_eq!(finish(std::slice::from_ref(&lane)), 12.0, "3 tasks × 4 steps on one core");
        assert_eq!(lane[..3].iter().map(|s| s.kind).collect::<Vec<_>>(), [Kind::Run(0), Kind::Run(1), Kind::Run(2)]);
        assert_eq!(switches(&lane), 11, "a switch between every two slices of different tasks");
        assert_eq!(first_done(&lane), 10.0, "task 0's last slice is the 10th");
        // A slice as long as the work: each task runs to its end, two switches in all.
        let whole = round_robin(&[0, 1, 2], 4.0, 4.0);
        assert_eq!((switches(&whole), first_done(&whole)), (2, 4.0));
        // A slice that does not divide the work: the last slice is shorter, the total the same.
        let uneven = round_robin(&[0, 1], 5.0, 2.0);
        assert_eq!(busy(&uneven), 10.0);
        assert_eq!(uneven.last().map(|s| s.end - s.start), Some(1.0));
    }

    #[test]
    fn spread_tasks_run_side_by_side_and_finish_sooner() {
        let lanes = spread(3, 2, 4.0, 1.0);
        assert_eq!(lanes.len(), 2);
        assert_eq!(finish(&lanes), 8.0, "core 0 has tasks 0 and 2, core 1 task 1");
        assert_eq!(busy(&lanes[1]), 4.0);
        // More cores than tasks: the extra cores have empty lanes.
        let idle = spread(2, 4, 4.0, 1.0);
        assert_eq!((idle.len(), idle[3].len(), finish(&idle)), (4, 0, 4.0));
    }

    #[test]
    fn equal_tasks_run_in_rounds_of_as_many_as_there_are_workers() {
        // The hashing chapter's case: 30 hashes on 4 workers, 8 rounds, 2 busy in the last.
        assert_eq!(round_count(30, 4), (8, 2));
        assert_eq!(round_count(30, 16), (2, 14));
        assert_eq!(round_count(4, 4), (1, 4));
        assert_eq!(round_count(0, 4), (0, 0));
        let lanes = rounds(30, 4, 1.0, 0.0);
        assert_eq!(finish(&lanes), 8.0);
        assert_eq!(lanes.iter().map(|l| l.len()).sum::<usize>(), 30, "every task once");
        // With overhead each task pays it first, and the time grows by one overhead per round.
        let paid = rounds(8, 2, 3.0, 1.0);
        assert_eq!(finish(&paid), 16.0);
        assert_eq!(paid[0][0].kind, Kind::Overhead(0));
        assert_eq!(paid[0][1], Span { start: 1.0, end: 4.0, kind: Kind::Run(0) });
    }

    #[test]
    fn a_blocking_wait_holds_its_thread_while_a_parked_one_frees_it() {
        // Four reads of 4 steps, then 1 step of parsing each, one thread or worker.
        let blocking = wait_then_compute(4, 1, 4.0, 1.0, Waiting::Blocks);
        assert_eq!(finish(&blocking), 20.0, "every read waits alone: 4 × (4 + 1)");
        assert_eq!(blocking[1][0], Span { start: 0.0, end: 5.0, kind: Kind::Ready(1) });
        let parking = wait_then_compute(4, 1, 4.0, 1.0, Waiting::Parks);
        assert_eq!(finish(&parking), 8.0, "the reads wait together, then 4 parses in turn");
        assert_eq!(parking[3][1], Span { start: 4.0, end: 7.0, kind: Kind::Ready(3) });
        // Without waiting, parking gains nothing: the computing cannot overlap on one worker.
        let cpu = |waiting| finish(&wait_then_compute(4, 1, 0.0, 2.0, waiting));
        assert_eq!(cpu(Waiting::Blocks), cpu(Waiting::Parks));
        // A pool of 2 threads halves the blocking time, no more.
        assert_eq!(finish(&wait_then_compute(4, 2, 4.0, 1.0, Waiting::Blocks)), 10.0);
    }

    #[test]
    fn an_idle_p_steals_half_of_the_longest_queue() {
        // Without stealing one P runs all eight, one step each.
        let (alone, none) = work_stealing(8, 2, false);
        assert_eq!((finish(&alone), none, alone[1].len()), (8.0, 0, 0));
        // With stealing P1 takes four at once and the two finish together.
        let (shared, steals) = work_stealing(8, 2, true);
        assert_eq!((finish(&shared), steals, shared[1].len()), (4.0, 1, 4));
        assert_eq!(shared[1][0].kind, Kind::Run(0), "taken from the head of P0's queue");
        // Four Ps: P1 takes half, P2 and P3 half of what is left in the longest queues.
        let (four, steals) = work_stealing(8, 4, true);
        assert_eq!(four.iter().map(|l| l.len()).sum::<usize>(), 8, "every goroutine once");
        assert!(finish(&four) <= 3.0 && steals >= 3, "{} steps, {steals} steals", finish(&four));
        // One goroutine: nothing worth stealing.
        assert_eq!(work_stealing(1, 4, true).1, 0);
    }

    #[test]
    fn more_workers_than_cores_take_turns_and_each_bar_outgrows_its_work() {
        // Four workers of 4 steps on 2 cores: 16 steps of work in 8; each bar is 7 or 8 long.
        let lanes = oversubscribed(4, 2, 4);
        assert_eq!(finish(&lanes), 8.0);
        assert_eq!(lanes[0][..2].iter().map(|s| s.kind).collect::<Vec<_>>(), [Kind::Run(0), Kind::Ready(0)]);
        for lane in &lanes {
            let ran: f64 = lane.iter().filter(|s| matches!(s.kind, Kind::Run(_))).map(|s| s.end - s.start).sum();
            assert_eq!(ran, 4.0, "every worker does its 4 steps");
        }
        assert_eq!(ready_time(&lanes[3]), 4.0, "the last worker waits half its bar");
        // As many cores as workers: no waiting.
        let fits = oversubscribed(2, 2, 4);
        assert_eq!((finish(&fits), ready_time(&fits[1])), (4.0, 0.0));
        assert_eq!(fits[0].len(), 1, "one run, merged");
    }

    #[test]
    fn amdahls_law_has_a_ceiling_of_one_over_the_serial_share() {
        assert!((amdahl(0.5, 2.0) - 4.0 / 3.0).abs() < 1e-12);
        assert!((amdahl(0.5, 4.0) - 1.6).abs() < 1e-12);
        assert!(amdahl(0.1, 1e9) < 10.0 && amdahl(0.1, 1e9) > 9.99);
        assert_eq!(amdahl(0.0, 8.0), 8.0);
        assert_eq!(amdahl(1.0, 8.0), 1.0);
    }
}
