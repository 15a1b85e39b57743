//! A deterministic simulation of how an operating system schedules threads on cores, with round robin.
//!
//! No real threads run here. Each simulated thread is a list of bursts, CPU and IO alternating, and the
//! simulator plays out what a round-robin scheduler does with them. A thread is always in one of three states:
//! **running** (on a core), **runnable** (in the ready queue, wanting a core) or **waiting** (blocked on IO).
//!
//! The rules, in full:
//! - There is one global first-in first-out ready queue. A free core takes the thread at its head.
//! - A running thread keeps its core until its CPU burst ends (it then waits for its IO burst, or finishes)
//!   or its time slice, the *quantum*, runs out. A thread whose quantum runs out is *preempted* (sent to the
//!   tail of the ready queue) only if another thread was already waiting for a core; otherwise it carries on
//!   with a fresh quantum.
//! - A thread that arrives, or whose IO ends, joins the tail of the ready queue.
//! - Each time a core starts a thread other than the one it ran last (its very first thread included), that is
//!   a *context switch*. It costs `switch_cost_us` of overhead: the core does no useful work meanwhile, and the
//!   incoming thread still counts as runnable.
//!
//! Many things can happen at the same instant. They are handled in this fixed order, so results are deterministic:
//! 1. context switches that are over start their thread running;
//! 2. CPU bursts that are over leave their cores (to wait for IO, or to finish);
//! 3. threads that arrive or whose IO is over join the ready queue, lowest thread id first;
//! 4. free cores take threads from the head of the queue, lowest core id first;
//! 5. quanta that are over preempt their thread, lowest core id first, so a preempted thread queues behind
//!    the threads that woke up at the same instant.
//!
//! A burst that ends exactly when its quantum does has simply ended: that is not a preemption.
//! All times are integer microseconds (µs), so the arithmetic is exact; thread and core ids are indices.

use std::collections::VecDeque;
use std::fmt;

use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

/// The most cores a simulation accepts.
pub const MAX_CORES: u32 = 64;
/// The most threads a simulation accepts (and [`generate_threads`] makes).
pub const MAX_THREADS: usize = 256;
/// The most bursts one thread may have.
pub const MAX_BURSTS_PER_THREAD: usize = 101;
/// The longest burst, arrival time or switch cost accepted: one minute.
pub const MAX_DURATION_US: u64 = 60_000_000;
/// The most scheduling instants simulated before giving up (a tiny quantum on long bursts would take forever).
pub const MAX_EVENTS: u64 = 200_000;

/// One stretch of a thread's work, in µs: computing on a core, or waiting for IO (a disk, the network).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Burst {
    Cpu(u64),
    Io(u64),
}

impl Burst {
    fn duration_us(self) -> u64 {
        match self {
            Burst::Cpu(us) | Burst::Io(us) => us,
        }
    }
}

/// What a simulated thread will do: when it arrives, then CPU and IO bursts alternating, first and last CPU.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadSpec {
    pub arrival_us: u64,
    pub bursts: Vec<Burst>,
}

impl ThreadSpec {
    /// A thread that only computes: one CPU burst of `cpu_us`, arriving at `arrival_us`.
    pub fn cpu_only(arrival_us: u64, cpu_us: u64) -> Self {
        ThreadSpec { arrival_us, bursts: vec![Burst::Cpu(cpu_us)] }
    }

    /// The total length of the thread's CPU bursts: the core time it needs.
    pub fn total_cpu_us(&self) -> u64 {
        self.bursts.iter().map(|b| if let Burst::Cpu(us) = b { *us } else { 0 }).sum()
    }

    /// The total length of the thread's IO bursts.
    pub fn total_io_us(&self) -> u64 {
        self.bursts.iter().map(|b| if let Burst::Io(us) = b { *us } else { 0 }).sum()
    }
}

/// Which kind of threads [`generate_threads`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mix {
    /// Long CPU bursts (4–12 ms) with a few short IO bursts (0.5–2 ms), all arriving at 0.
    CpuBound,
    /// Short CPU bursts (0.2–1 ms) between long IO bursts (4–12 ms), all arriving at 0.
    IoBound,
    /// Even thread ids CPU-bound, odd ones IO-bound, arriving over the first 2 ms.
    Mixed,
}

/// A multiple of 0.1 ms between `low_us` and `high_us` inclusive, so generated numbers read well in the UI.
fn draw_us(rng: &mut Pcg64Mcg, low_us: u64, high_us: u64) -> u64 {
    let steps = (high_us - low_us) / 100 + 1;
    low_us + (rng.next_u32() as u64 % steps) * 100
}

/// `count` seeded threads (at most [`MAX_THREADS`]): the same count, seed and mix always give the same threads.
pub fn generate_threads(count: usize, seed: u64, mix: Mix) -> Vec<ThreadSpec> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    (0..count.min(MAX_THREADS))
        .map(|id| {
            let io_bound = match mix {
                Mix::CpuBound => false,
                Mix::IoBound => true,
                Mix::Mixed => id % 2 == 1,
            };
            let arrival_us = if mix == Mix::Mixed { draw_us(&mut rng, 0, 2_000) } else { 0 };
            let (cpu_bursts, cpu_range, io_range) = if io_bound {
                (3 + rng.next_u32() % 4, (200, 1_000), (4_000, 12_000))
            } else {
                (1 + rng.next_u32() % 3, (4_000, 12_000), (500, 2_000))
            };
            let mut bursts = vec![Burst::Cpu(draw_us(&mut rng, cpu_range.0, cpu_range.1))];
            for _ in 1..cpu_bursts {
                bursts.push(Burst::Io(draw_us(&mut rng, io_range.0, io_range.1)));
                bursts.push(Burst::Cpu(draw_us(&mut rng, cpu_range.0, cpu_range.1)));
            }
            ThreadSpec { arrival_us, bursts }
        })
        .collect()
}

/// What a core does during one [`Segment`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CoreActivity {
    /// The core runs this thread's code.
    Run { thread: usize },
    /// Context-switch overhead: the core saves the previous thread and loads this one.
    Switch { to_thread: usize },
}

/// One bar of the Gantt chart: what a core did from `start_us` until `end_us`. Idle time has no segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    pub activity: CoreActivity,
    pub start_us: u64,
    pub end_us: u64,
}

/// The three states of a thread between its arrival and its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThreadState {
    /// On a core, executing.
    Running,
    /// Ready to execute, in the ready queue (or being switched in), but not on a core yet.
    Runnable,
    /// Blocked on IO: it could not use a core even if one were free.
    Waiting,
}

/// One stretch of a thread's timeline, from `start_us` until `end_us`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateInterval {
    pub state: ThreadState,
    pub start_us: u64,
    pub end_us: u64,
}

/// What happened to one thread. `waiting_us + cpu_us + io_us == turnaround_us` always holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadReport {
    pub arrival_us: u64,
    /// When its last CPU burst ended.
    pub finish_us: u64,
    /// `finish_us - arrival_us`: how long the thread took from the outside.
    pub turnaround_us: u64,
    /// The textbook "waiting time": time runnable but not running. (Time waiting for IO is `io_us`.)
    pub waiting_us: u64,
    pub cpu_us: u64,
    pub io_us: u64,
    /// How often its quantum ran out while another thread wanted a core.
    pub preemptions: u32,
    /// How often a core switched to this thread.
    pub context_switches: u32,
    /// Its states from arrival to finish, in time order, without gaps.
    pub timeline: Vec<StateInterval>,
}

/// Figures for the whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    pub average_waiting_us: f64,
    pub average_turnaround_us: f64,
    /// When the last thread finished (the simulation starts at 0).
    pub makespan_us: u64,
    /// Time cores spent running threads' code, summed over cores (switch overhead excluded).
    pub busy_us: u64,
    /// `busy_us / (cores × makespan_us)`, between 0 and 1.
    pub cpu_utilisation: f64,
    pub context_switches: u32,
    pub preemptions: u32,
}

/// The result of [`simulate`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    /// The Gantt chart: for each core, its segments in time order.
    pub gantt: Vec<Vec<Segment>>,
    /// One report per thread, in the order the threads were given.
    pub threads: Vec<ThreadReport>,
    pub totals: Totals,
}

/// Input the simulator refuses, explained in plain words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleError(pub String);

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScheduleError {}

fn refuse<T>(message: String) -> Result<T, ScheduleError> {
    Err(ScheduleError(message))
}

fn validate(threads: &[ThreadSpec], cores: u32, quantum_us: u64, switch_cost_us: u64) -> Result<(), ScheduleError> {
    if !(1..=MAX_CORES).contains(&cores) {
        return refuse(format!("the number of cores must be between 1 and {MAX_CORES}, not {cores}"));
    }
    if !(1..=MAX_THREADS).contains(&threads.len()) {
        return refuse(format!("the number of threads must be between 1 and {MAX_THREADS}, not {}", threads.len()));
    }
    if quantum_us == 0 {
        return refuse("the quantum must be at least 1 µs".into());
    }
    if switch_cost_us > MAX_DURATION_US {
        return refuse(format!("the context-switch cost must be at most {MAX_DURATION_US} µs"));
    }
    for (id, thread) in threads.iter().enumerate() {
        if thread.arrival_us > MAX_DURATION_US {
            return refuse(format!("thread {id} arrives after {MAX_DURATION_US} µs"));
        }
        let count = thread.bursts.len();
        if count % 2 == 0 || count > MAX_BURSTS_PER_THREAD {
            return refuse(format!("thread {id} needs an odd number of bursts up to {MAX_BURSTS_PER_THREAD}"));
        }
        for (index, burst) in thread.bursts.iter().enumerate() {
            if matches!(burst, Burst::Cpu(_)) != (index % 2 == 0) {
                return refuse(format!("thread {id} must alternate CPU and IO bursts, starting and ending with CPU"));
            }
            if !(1..=MAX_DURATION_US).contains(&burst.duration_us()) {
                return refuse(format!("thread {id}: every burst must last between 1 and {MAX_DURATION_US} µs"));
            }
        }
    }
    Ok(())
}

/// Plays round robin with `quantum_us` time slices on `cores` cores, paying `switch_cost_us` per context switch.
pub fn simulate(
    threads: &[ThreadSpec],
    cores: u32,
    quantum_us: u64,
    switch_cost_us: u64,
) -> Result<Schedule, ScheduleError> {
    validate(threads, cores, quantum_us, switch_cost_us)?;
    Simulator::new(threads, cores as usize, quantum_us, switch_cost_us).run()
}

/// Where a thread is, for the simulator (the public [`ThreadState`] plus "not yet" and "done").
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    NotArrived,
    Runnable,
    Running,
    Waiting { until_us: u64 },
    Finished,
}

impl Phase {
    fn visible_state(self) -> Option<ThreadState> {
        match self {
            Phase::Runnable => Some(ThreadState::Runnable),
            Phase::Running => Some(ThreadState::Running),
            Phase::Waiting { .. } => Some(ThreadState::Waiting),
            Phase::NotArrived | Phase::Finished => None,
        }
    }
}

struct ThreadProgress {
    phase: Phase,
    since_us: u64,
    /// Index of the current (or next) CPU burst, and how much of it is left.
    burst: usize,
    cpu_left_us: u64,
    report: ThreadReport,
}

#[derive(Clone, Copy)]
enum CoreState {
    Idle,
    Switching { thread: usize, until_us: u64 },
    Running { thread: usize, since_us: u64, slice_end_us: u64 },
}

struct Simulator<'a> {
    specs: &'a [ThreadSpec],
    quantum_us: u64,
    switch_cost_us: u64,
    now_us: u64,
    ready_queue: VecDeque<usize>,
    cores: Vec<CoreState>,
    last_thread_on_core: Vec<Option<usize>>,
    gantt: Vec<Vec<Segment>>,
    threads: Vec<ThreadProgress>,
}

impl<'a> Simulator<'a> {
    fn new(specs: &'a [ThreadSpec], cores: usize, quantum_us: u64, switch_cost_us: u64) -> Self {
        let threads = specs
            .iter()
            .map(|spec| ThreadProgress {
                phase: Phase::NotArrived,
                since_us: spec.arrival_us,
                burst: 0,
                cpu_left_us: spec.bursts[0].duration_us(),
                report: ThreadReport { arrival_us: spec.arrival_us, ..ThreadReport::default() },
            })
            .collect();
        Simulator {
            specs,
            quantum_us,
            switch_cost_us,
            now_us: 0,
            ready_queue: VecDeque::new(),
            cores: vec![CoreState::Idle; cores],
            last_thread_on_core: vec![None; cores],
            gantt: vec![Vec::new(); cores],
            threads,
        }
    }

    // lesson-code: os-scheduler/loop
    fn run(mut self) -> Result<Schedule, ScheduleError> {
        let mut events = 0;
        while let Some(next_us) = self.next_event_us() {
            events += 1;
            if events > MAX_EVENTS {
                return refuse(format!("the run needs more than {MAX_EVENTS} scheduling events: try a larger quantum"));
            }
            self.now_us = next_us;
            self.start_switched_threads();
            self.end_cpu_bursts();
            self.wake_threads();
            self.fill_free_cores();
            self.expire_quanta();
        }
        if self.threads.iter().any(|t| t.phase != Phase::Finished) {
            return refuse("internal error: the simulation stopped before every thread finished".into());
        }
        Ok(self.into_schedule())
    }
    // lesson-code-end

    /// The earliest future instant at which something happens, or `None` when nothing is left to happen.
    fn next_event_us(&self) -> Option<u64> {
        let thread_events = self.threads.iter().zip(self.specs).filter_map(|(thread, spec)| match thread.phase {
            Phase::NotArrived => Some(spec.arrival_us),
            Phase::Waiting { until_us } => Some(until_us),
            _ => None,
        });
        let core_events = self.cores.iter().filter_map(|core| match *core {
            CoreState::Idle => None,
            CoreState::Switching { until_us, .. } => Some(until_us),
            CoreState::Running { thread, since_us, slice_end_us } => {
                Some(slice_end_us.min(since_us + self.threads[thread].cpu_left_us))
            }
        });
        thread_events.chain(core_events).min()
    }

    /// Moves `thread` into `phase` now, closing the interval of its previous state.
    fn enter(&mut self, thread: usize, phase: Phase) {
        let now_us = self.now_us;
        let progress = &mut self.threads[thread];
        if let Some(state) = progress.phase.visible_state() {
            let report = &mut progress.report;
            let spent_us = now_us - progress.since_us;
            match state {
                ThreadState::Running => report.cpu_us += spent_us,
                ThreadState::Runnable => report.waiting_us += spent_us,
                ThreadState::Waiting => report.io_us += spent_us,
            }
            if spent_us > 0 {
                report.timeline.push(StateInterval { state, start_us: progress.since_us, end_us: now_us });
            }
        }
        progress.phase = phase;
        progress.since_us = now_us;
        if phase == Phase::Finished {
            progress.report.finish_us = now_us;
            progress.report.turnaround_us = now_us - progress.report.arrival_us;
        }
    }

    /// Puts `thread` (already out of the queue) on `core`, through a context switch if it is a different thread.
    fn dispatch(&mut self, core: usize, thread: usize) {
        let is_switch = self.last_thread_on_core[core] != Some(thread);
        if is_switch {
            self.threads[thread].report.context_switches += 1;
            self.last_thread_on_core[core] = Some(thread);
        }
        if is_switch && self.switch_cost_us > 0 {
            let until_us = self.now_us + self.switch_cost_us;
            let activity = CoreActivity::Switch { to_thread: thread };
            self.gantt[core].push(Segment { activity, start_us: self.now_us, end_us: until_us });
            self.cores[core] = CoreState::Switching { thread, until_us };
        } else {
            self.start_running(core, thread);
        }
    }

    fn start_running(&mut self, core: usize, thread: usize) {
        let slice_end_us = self.now_us.saturating_add(self.quantum_us);
        self.cores[core] = CoreState::Running { thread, since_us: self.now_us, slice_end_us };
        self.enter(thread, Phase::Running);
    }

    /// Takes the running thread off `core`: records its segment and how much of its burst is left.
    fn take_off_core(&mut self, core: usize, thread: usize, since_us: u64) {
        let activity = CoreActivity::Run { thread };
        self.gantt[core].push(Segment { activity, start_us: since_us, end_us: self.now_us });
        self.threads[thread].cpu_left_us -= self.now_us - since_us;
        self.cores[core] = CoreState::Idle;
    }

    // lesson-code: os-scheduler/steps
    /// Step 1: switches that are over start their thread.
    fn start_switched_threads(&mut self) {
        for core in 0..self.cores.len() {
            if let CoreState::Switching { thread, until_us } = self.cores[core] {
                if until_us == self.now_us {
                    self.start_running(core, thread);
                }
            }
        }
    }

    /// Step 2: bursts that are over leave their core, to wait for the next IO burst or to finish.
    fn end_cpu_bursts(&mut self) {
        for core in 0..self.cores.len() {
            let CoreState::Running { thread, since_us, .. } = self.cores[core] else { continue };
            if since_us + self.threads[thread].cpu_left_us != self.now_us {
                continue;
            }
            self.take_off_core(core, thread, since_us);
            let bursts = &self.specs[thread].bursts;
            let burst = self.threads[thread].burst;
            if burst + 2 < bursts.len() {
                let until_us = self.now_us + bursts[burst + 1].duration_us();
                self.threads[thread].burst = burst + 2;
                self.threads[thread].cpu_left_us = bursts[burst + 2].duration_us();
                self.enter(thread, Phase::Waiting { until_us });
            } else {
                self.enter(thread, Phase::Finished);
            }
        }
    }

    /// Step 3: threads that arrive now or whose IO is over join the ready queue, lowest id first.
    fn wake_threads(&mut self) {
        for thread in 0..self.threads.len() {
            let wakes = match self.threads[thread].phase {
                Phase::NotArrived => self.specs[thread].arrival_us == self.now_us,
                Phase::Waiting { until_us } => until_us == self.now_us,
                _ => false,
            };
            if wakes {
                self.enter(thread, Phase::Runnable);
                self.ready_queue.push_back(thread);
            }
        }
    }

    /// Step 4: every idle core takes the thread at the head of the ready queue.
    fn fill_free_cores(&mut self) {
        for core in 0..self.cores.len() {
            if matches!(self.cores[core], CoreState::Idle) {
                let Some(thread) = self.ready_queue.pop_front() else { return };
                self.dispatch(core, thread);
            }
        }
    }

    /// Step 5: a thread whose quantum is over makes way for a thread that was already waiting, if there is one.
    fn expire_quanta(&mut self) {
        let mut already_waiting = self.ready_queue.len();
        for core in 0..self.cores.len() {
            let CoreState::Running { thread, since_us, slice_end_us } = self.cores[core] else { continue };
            if slice_end_us != self.now_us {
                continue;
            }
            if already_waiting == 0 {
                let slice_end_us = self.now_us.saturating_add(self.quantum_us);
                self.cores[core] = CoreState::Running { thread, since_us, slice_end_us };
                continue;
            }
            already_waiting -= 1;
            self.take_off_core(core, thread, since_us);
            self.threads[thread].report.preemptions += 1;
            self.enter(thread, Phase::Runnable);
            self.ready_queue.push_back(thread);
            if let Some(next) = self.ready_queue.pop_front() {
                self.dispatch(core, next);
            }
        }
    }
    // lesson-code-end

    fn into_schedule(self) -> Schedule {
        let threads: Vec<ThreadReport> = self.threads.into_iter().map(|t| t.report).collect();
        let count = threads.len() as f64;
        let makespan_us = threads.iter().map(|t| t.finish_us).max().unwrap_or(0);
        let busy_us = (self.gantt.iter().flatten())
            .filter(|segment| matches!(segment.activity, CoreActivity::Run { .. }))
            .map(|segment| segment.end_us - segment.start_us)
            .sum();
        let capacity_us = self.gantt.len() as u64 * makespan_us;
        let totals = Totals {
            average_waiting_us: threads.iter().map(|t| t.waiting_us as f64).sum::<f64>() / count,
            average_turnaround_us: threads.iter().map(|t| t.turnaround_us as f64).sum::<f64>() / count,
            makespan_us,
            busy_us,
            cpu_utilisation: if capacity_us == 0 { 0.0 } else { busy_us as f64 / capacity_us as f64 },
            context_switches: threads.iter().map(|t| t.context_switches).sum(),
            preemptions: threads.iter().map(|t| t.preemptions).sum(),
        };
        Schedule { gantt: self.gantt, threads, totals }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000;
    const A: usize = 0;
    const B: usize = 1;
    const C: usize = 2;

    fn run(thread: usize, start_ms: u64, end_ms: u64) -> Segment {
        Segment { activity: CoreActivity::Run { thread }, start_us: start_ms * MS, end_us: end_ms * MS }
    }

    fn interval(state: ThreadState, start_ms: u64, end_ms: u64) -> StateInterval {
        StateInterval { state, start_us: start_ms * MS, end_us: end_ms * MS }
    }

    #[test]
    fn round_robin_on_one_core_by_hand() {
        // A needs 3 ms, B needs 2 ms, quantum 1 ms: they take turns, A B A B A.
        let threads = [ThreadSpec::cpu_only(0, 3 * MS), ThreadSpec::cpu_only(0, 2 * MS)];
        let schedule = simulate(&threads, 1, MS, 0).unwrap();
        assert_eq!(schedule.gantt, vec![vec![run(A, 0, 1), run(B, 1, 2), run(A, 2, 3), run(B, 3, 4), run(A, 4, 5)]]);
        let [a, b] = &schedule.threads[..] else { panic!("two reports expected") };
        assert_eq!((a.finish_us, a.turnaround_us, a.waiting_us, a.cpu_us), (5 * MS, 5 * MS, 2 * MS, 3 * MS));
        assert_eq!((b.finish_us, b.turnaround_us, b.waiting_us, b.cpu_us), (4 * MS, 4 * MS, 2 * MS, 2 * MS));
        // A is preempted at 1 and 3; B at 2 (at 4 its burst ends as its quantum does: not a preemption).
        assert_eq!((a.preemptions, b.preemptions), (2, 1));
        assert_eq!((a.context_switches, b.context_switches), (3, 2));
        use ThreadState::*;
        assert_eq!(
            b.timeline,
            vec![interval(Runnable, 0, 1), interval(Running, 1, 2), interval(Runnable, 2, 3), interval(Running, 3, 4)]
        );
        let totals = &schedule.totals;
        assert_eq!((totals.average_waiting_us, totals.average_turnaround_us), (2_000.0, 4_500.0));
        assert_eq!((totals.makespan_us, totals.busy_us, totals.cpu_utilisation), (5 * MS, 5 * MS, 1.0));
        assert_eq!((totals.context_switches, totals.preemptions), (5, 3));
    }

    #[test]
    fn a_quantum_longer_than_every_burst_is_first_come_first_served() {
        // A (4 ms) at 0, B (3 ms) at 1 ms, C (1 ms) at 2 ms: each runs to the end, in arrival order.
        let threads =
            [ThreadSpec::cpu_only(0, 4 * MS), ThreadSpec::cpu_only(MS, 3 * MS), ThreadSpec::cpu_only(2 * MS, MS)];
        let schedule = simulate(&threads, 1, 100 * MS, 0).unwrap();
        assert_eq!(schedule.gantt, vec![vec![run(A, 0, 4), run(B, 4, 7), run(C, 7, 8)]]);
        let waits: Vec<u64> = schedule.threads.iter().map(|t| t.waiting_us / MS).collect();
        let turnarounds: Vec<u64> = schedule.threads.iter().map(|t| t.turnaround_us / MS).collect();
        assert_eq!(waits, vec![0, 3, 5]); // B waits 1..4, C waits 2..7
        assert_eq!(turnarounds, vec![4, 6, 6]);
        assert_eq!(schedule.totals.average_waiting_us, 8_000.0 / 3.0);
        assert_eq!((schedule.totals.preemptions, schedule.totals.context_switches), (0, 3));
    }

    #[test]
    fn a_thread_waiting_for_io_frees_its_core() {
        // A computes 1 ms, waits 5 ms for IO, computes 1 ms. B computes 4 ms, during A's IO.
        let io_thread = ThreadSpec { arrival_us: 0, bursts: vec![Burst::Cpu(MS), Burst::Io(5 * MS), Burst::Cpu(MS)] };
        let threads = [io_thread, ThreadSpec::cpu_only(0, 4 * MS)];
        let schedule = simulate(&threads, 1, 10 * MS, 0).unwrap();
        // The core idles from 5 to 6: B is done and A still waits for its IO.
        assert_eq!(schedule.gantt, vec![vec![run(A, 0, 1), run(B, 1, 5), run(A, 6, 7)]]);
        use ThreadState::*;
        let a = &schedule.threads[A];
        assert_eq!(a.timeline, vec![interval(Running, 0, 1), interval(Waiting, 1, 6), interval(Running, 6, 7)]);
        assert_eq!((a.waiting_us, a.io_us, a.turnaround_us), (0, 5 * MS, 7 * MS));
        assert_eq!((schedule.threads[B].waiting_us, schedule.threads[B].turnaround_us), (MS, 5 * MS));
        assert_eq!(schedule.totals.makespan_us, 7 * MS);
        assert_eq!(schedule.totals.cpu_utilisation, 6.0 / 7.0);
    }

    #[test]
    fn two_cores_run_two_threads_at_once() {
        let threads = [ThreadSpec::cpu_only(0, 3 * MS), ThreadSpec::cpu_only(0, 2 * MS)];
        let schedule = simulate(&threads, 2, MS, 0).unwrap();
        // Nobody else wants a core, so neither thread is ever preempted: the quantum just renews.
        assert_eq!(schedule.gantt, vec![vec![run(A, 0, 3)], vec![run(B, 0, 2)]]);
        assert_eq!((schedule.totals.makespan_us, schedule.totals.preemptions), (3 * MS, 0));
        assert_eq!(schedule.totals.cpu_utilisation, 5.0 / 6.0);
        assert!(schedule.threads.iter().all(|t| t.waiting_us == 0));
    }

    #[test]
    fn three_threads_on_two_cores_by_hand() {
        // At 1 ms both quanta end but only C is waiting, so only core 0's thread (A) is preempted.
        // At 2 ms B ends; A moves to core 1. C's quantum ends too, but nobody waits any more.
        let threads =
            [ThreadSpec::cpu_only(0, 3 * MS), ThreadSpec::cpu_only(0, 2 * MS), ThreadSpec::cpu_only(0, 2 * MS)];
        let schedule = simulate(&threads, 2, MS, 0).unwrap();
        assert_eq!(schedule.gantt, vec![vec![run(A, 0, 1), run(C, 1, 3)], vec![run(B, 0, 2), run(A, 2, 4)]]);
        let waits: Vec<u64> = schedule.threads.iter().map(|t| t.waiting_us / MS).collect();
        assert_eq!(waits, vec![1, 0, 1]);
        assert_eq!((schedule.threads[A].preemptions, schedule.threads[A].context_switches), (1, 2));
        assert_eq!((schedule.totals.makespan_us, schedule.totals.busy_us), (4 * MS, 7 * MS));
    }

    #[test]
    fn each_context_switch_adds_its_cost_to_the_makespan() {
        // The A B A B A case with 0.1 ms per switch: 5 switches, so 5 ms of work ends at 5.5 ms.
        let threads = [ThreadSpec::cpu_only(0, 3 * MS), ThreadSpec::cpu_only(0, 2 * MS)];
        let schedule = simulate(&threads, 1, MS, 100).unwrap();
        let switch = |to_thread, start_us| Segment {
            activity: CoreActivity::Switch { to_thread },
            start_us,
            end_us: start_us + 100,
        };
        let at = |thread, start_us| Segment { activity: CoreActivity::Run { thread }, start_us, end_us: start_us + MS };
        let expected = vec![
            switch(A, 0),
            at(A, 100),
            switch(B, 1_100),
            at(B, 1_200),
            switch(A, 2_200),
            at(A, 2_300),
            switch(B, 3_300),
            at(B, 3_400),
            switch(A, 4_400),
            at(A, 4_500),
        ];
        assert_eq!(schedule.gantt, vec![expected]);
        assert_eq!(schedule.totals.context_switches, 5);
        assert_eq!(schedule.totals.makespan_us, 5 * MS + 5 * 100);
        assert_eq!(schedule.totals.cpu_utilisation, 5_000.0 / 5_500.0);
        // Being switched in counts as waiting: A waits 0.1 + 1.2 + 1.2 ms.
        assert_eq!(schedule.threads[A].waiting_us, 2_500);
    }

    #[test]
    fn a_core_that_gets_its_last_thread_back_pays_no_switch() {
        // A alone: 1 ms CPU, 2 ms IO, 1 ms CPU, quantum 0.5 ms. Only its first start is a switch; the quantum
        // renews because nobody else waits, and after its IO it finds its registers still on the core.
        let alone = ThreadSpec { arrival_us: 0, bursts: vec![Burst::Cpu(MS), Burst::Io(2 * MS), Burst::Cpu(MS)] };
        let schedule = simulate(&[alone], 1, MS / 2, 100).unwrap();
        let switch = Segment { activity: CoreActivity::Switch { to_thread: A }, start_us: 0, end_us: 100 };
        let first = Segment { activity: CoreActivity::Run { thread: A }, start_us: 100, end_us: 1_100 };
        let second = Segment { activity: CoreActivity::Run { thread: A }, start_us: 3_100, end_us: 4_100 };
        assert_eq!(schedule.gantt, vec![vec![switch, first, second]]);
        assert_eq!((schedule.totals.context_switches, schedule.totals.preemptions), (1, 0));
    }

    #[test]
    fn refuses_absurd_input_in_plain_words() {
        let one = [ThreadSpec::cpu_only(0, MS)];
        assert!(simulate(&one, 0, MS, 0).unwrap_err().0.contains("cores"));
        assert!(simulate(&one, MAX_CORES + 1, MS, 0).is_err());
        assert!(simulate(&[], 1, MS, 0).unwrap_err().0.contains("threads"));
        assert!(simulate(&one, 1, 0, 0).unwrap_err().0.contains("quantum"));
        let starts_with_io = ThreadSpec { arrival_us: 0, bursts: vec![Burst::Io(MS), Burst::Cpu(MS), Burst::Io(MS)] };
        assert!(simulate(&[starts_with_io], 1, MS, 0).unwrap_err().0.contains("alternate"));
        assert!(simulate(&[ThreadSpec::cpu_only(0, 0)], 1, MS, 0).is_err());
        assert!(simulate(&[ThreadSpec::cpu_only(0, MAX_DURATION_US + 1)], 1, MS, 0).is_err());
        // A 60 s burst in 1 µs slices would be 60 million events: refused, not run forever.
        let long = [ThreadSpec::cpu_only(0, MAX_DURATION_US)];
        assert!(simulate(&long, 1, 1, 0).unwrap_err().0.contains("larger quantum"));
        assert!(simulate(&long, 1, u64::MAX, 0).is_ok());
    }

    #[test]
    fn same_seed_same_schedule_and_different_seeds_differ() {
        for mix in [Mix::CpuBound, Mix::IoBound, Mix::Mixed] {
            let threads = generate_threads(10, 42, mix);
            assert_eq!(threads, generate_threads(10, 42, mix));
            assert_ne!(threads, generate_threads(10, 43, mix));
            assert_eq!(simulate(&threads, 2, 2 * MS, 100), simulate(&threads, 2, 2 * MS, 100));
            assert_ne!(simulate(&threads, 2, 2 * MS, 100), simulate(&generate_threads(10, 43, mix), 2, 2 * MS, 100));
        }
    }

    #[test]
    fn mixes_make_cpu_bound_and_io_bound_threads() {
        assert!(generate_threads(20, 1, Mix::CpuBound).iter().all(|t| t.total_cpu_us() > t.total_io_us()));
        assert!(generate_threads(20, 1, Mix::IoBound).iter().all(|t| t.total_io_us() > t.total_cpu_us()));
        let mixed = generate_threads(20, 1, Mix::Mixed);
        assert!(mixed.iter().step_by(2).all(|t| t.total_cpu_us() > t.total_io_us()));
        assert!(mixed.iter().any(|t| t.arrival_us > 0));
        assert_eq!(generate_threads(1_000, 1, Mix::Mixed).len(), MAX_THREADS);
    }

    fn check_invariants(specs: &[ThreadSpec], switch_cost_us: u64, schedule: &Schedule, label: &str) {
        let mut runs_of_thread = vec![Vec::new(); specs.len()];
        for segments in &schedule.gantt {
            for pair in segments.windows(2) {
                assert!(pair[0].end_us <= pair[1].start_us, "{label}: a core does two things at once");
            }
            for segment in segments {
                assert!(segment.start_us < segment.end_us, "{label}: empty segment");
                if let CoreActivity::Run { thread } = segment.activity {
                    runs_of_thread[thread].push((segment.start_us, segment.end_us));
                }
            }
        }
        for (id, (spec, report)) in specs.iter().zip(&schedule.threads).enumerate() {
            let runs = &mut runs_of_thread[id];
            runs.sort();
            assert!(runs.windows(2).all(|p| p[0].1 <= p[1].0), "{label}: thread {id} on two cores at once");
            assert_eq!(runs.iter().map(|(s, e)| e - s).sum::<u64>(), spec.total_cpu_us(), "{label}: thread {id}");
            assert_eq!((report.cpu_us, report.io_us), (spec.total_cpu_us(), spec.total_io_us()), "{label}: {id}");
            assert!(report.finish_us >= report.arrival_us, "{label}: thread {id} ends before it starts");
            assert_eq!(report.turnaround_us, report.finish_us - spec.arrival_us, "{label}: thread {id}");
            assert_eq!(report.waiting_us + report.cpu_us + report.io_us, report.turnaround_us, "{label}: {id}");
            // The timeline covers arrival to finish without gaps.
            let mut at_us = spec.arrival_us;
            for interval in &report.timeline {
                assert_eq!(interval.start_us, at_us, "{label}: thread {id} timeline gap");
                at_us = interval.end_us;
            }
            assert_eq!(at_us, report.finish_us, "{label}: thread {id} timeline end");
            // Round robin never leaves a core idle while a thread sits in the ready queue. (A runnable
            // interval ends with the thread being switched in, if switches cost time: it is off the queue then.)
            for runnable in report.timeline.iter().filter(|i| i.state == ThreadState::Runnable) {
                let switch_in = (schedule.gantt.iter().flatten())
                    .find(|s| s.activity == CoreActivity::Switch { to_thread: id } && s.end_us == runnable.end_us);
                let (start_us, end_us) = (runnable.start_us, switch_in.map_or(runnable.end_us, |s| s.start_us));
                for segments in &schedule.gantt {
                    let covered: u64 =
                        segments.iter().map(|s| s.end_us.min(end_us).saturating_sub(s.start_us.max(start_us))).sum();
                    assert_eq!(covered, end_us - start_us, "{label}: a core idles while thread {id} is queued");
                }
            }
        }
        let switches: Vec<&Segment> =
            (schedule.gantt.iter().flatten()).filter(|s| matches!(s.activity, CoreActivity::Switch { .. })).collect();
        assert!(switches.iter().all(|s| s.end_us - s.start_us == switch_cost_us), "{label}: switch length");
        let expected_switches = if switch_cost_us > 0 { schedule.totals.context_switches } else { 0 };
        assert_eq!(switches.len() as u32, expected_switches, "{label}: one switch segment per costly switch");
        assert!(schedule.totals.cpu_utilisation <= 1.0, "{label}: utilisation above 1");
    }

    #[test]
    fn invariants_hold_on_generated_workloads() {
        for seed in 0..5 {
            for mix in [Mix::CpuBound, Mix::IoBound, Mix::Mixed] {
                for count in [1, 2, 5, 12] {
                    let specs = generate_threads(count, seed, mix);
                    for cores in 1..=4 {
                        for quantum_us in [300, 1_000, 3_000, 50_000] {
                            for switch_cost_us in [0, 100] {
                                let label = format!("seed {seed} {mix:?} {count} threads {cores} cores q {quantum_us} s {switch_cost_us}");
                                let schedule = simulate(&specs, cores, quantum_us, switch_cost_us).unwrap();
                                check_invariants(&specs, switch_cost_us, &schedule, &label);
                            }
                        }
                    }
                }
            }
        }
    }
}
