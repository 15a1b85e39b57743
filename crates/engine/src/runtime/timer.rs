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
    Sleep { deadline_ms: now_ms() + duration.as_secs_f64() * 1000.0 }
}

pub struct Sleep {
    /// Private to the runtime's module, so its tests can move it (as a skewed clock would).
    pub(super) deadline_ms: f64,
}

impl Sleep {
    pub fn deadline_ms(&self) -> f64 {
        self.deadline_ms
    }
}

impl Future for Sleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
        if now_ms() >= self.deadline_ms {
            return Poll::Ready(());
        }
        // Register on every pending poll, not just the first. Web Workers' clocks can disagree by a
        // fraction of a millisecond, so a timer fired on one worker may be polled on another whose
        // clock says "not yet": without a fresh timer nothing would hold or wake the task again,
        // and it would be dropped. An extra entry after a spurious wake-up only costs a no-op wake.
        let runtime = Shared::current().expect("runtime::sleep must be awaited inside the M:N runtime");
        runtime.add_timer(self.deadline_ms, context.waker().clone());
        Poll::Pending
    }
}
