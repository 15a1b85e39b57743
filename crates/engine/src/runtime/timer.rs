//! Timers: the simulated blocking read. A task that awaits [`sleep`] parks until its deadline.

use super::scheduler::Shared;
use crate::clock::now_ms;
use std::cmp::Ordering;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

/// A registered wake-up: at `deadline_ms`, wake `waker`. `seq` keeps equal deadlines in order.
pub(crate) struct TimerEntry {
    pub deadline_ms: f64,
    pub seq: u64,
    pub waker: Waker,
}

impl PartialEq for TimerEntry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for TimerEntry {}
impl PartialOrd for TimerEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for TimerEntry {
    /// Reversed, so that `BinaryHeap` (a max-heap) pops the earliest deadline first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.deadline_ms.total_cmp(&self.deadline_ms).then_with(|| other.seq.cmp(&self.seq))
    }
}

/// A future that completes `duration` after it is created. Inside the runtime it parks the task
/// (its worker runs other tasks meanwhile); polled anywhere else it panics, because nothing would
/// ever wake it.
pub fn sleep(duration: Duration) -> Sleep {
    Sleep { deadline_ms: now_ms() + duration.as_secs_f64() * 1000.0, registered: false }
}

pub struct Sleep {
    deadline_ms: f64,
    registered: bool,
}

impl Sleep {
    pub fn deadline_ms(&self) -> f64 {
        self.deadline_ms
    }
}

impl Future for Sleep {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
        if now_ms() >= self.deadline_ms {
            return Poll::Ready(());
        }
        if !self.registered {
            let runtime = Shared::current().expect("runtime::sleep must be awaited inside the M:N runtime");
            runtime.add_timer(self.deadline_ms, context.waker().clone());
            self.registered = true;
        }
        Poll::Pending
    }
}
