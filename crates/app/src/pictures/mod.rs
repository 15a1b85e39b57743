//! Small pictures that chapters place with `<!-- picture: NAME -->` (`prose::PICTURES`), where a
//! picture teaches faster than a paragraph: one pass of bubble sort, Go's G/M/P, Little's law. The
//! prose crate writes each marker into the prose as an empty slot ([`SLOT_START`]); the page splits
//! a piece of prose at its slots ([`split_at_pictures`]) and builds the picture there.
//!
//! Each picture is a split point of its own, like an experiment panel: its code is fetched the
//! first time a page shows it, so a chapter without pictures loads none of it. A picture computes
//! or draws; it never runs or times anything, and what it computes is said to be computed.

mod amdahl;
mod bubble_pass;
mod gmp;
mod lane_pictures;
mod lanes;
mod littles_law;
mod schedules;
mod still_pictures;
mod sum_split;

use crate::components::split_view::{split_now, SplitBuilt, SplitFuture};
use crate::i18n::ui;
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

/// A picture a chapter places, by its marker's name ([`Picture::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picture {
    /// One pass of bubble sort, step by step (chapter bubble-sort).
    BubblePass,
    /// Go's Gs, Ms and Ps, with a hand-off after a system call (chapter go-scheduler).
    Gmp,
    /// Little's law with sliders (the high-concurrency chapter).
    LittlesLaw,
    /// Tasks taking turns on one core against spread over several (chapter 1).
    Interleave,
    /// Threads sharing one core in time slices (the OS scheduler).
    TimeSlices,
    /// The list cut into slices, partial sums, one total (the Sum).
    SumSplit,
    /// Amdahl's curve from a serial share (bubble sort).
    Amdahl,
    /// Equal hashes in rounds on k workers (hashing).
    HashRounds,
    /// Only waits overlap on one worker (CPU vs IO).
    ComputeWait,
    /// Reads that block against reads that park (document search).
    Reads,
    /// Tasks that each pay overhead before their work (task costs).
    TaskOverhead,
    /// A thread pool whose waits block against parked requests (high concurrency).
    PoolOrPark,
    /// An idle P stealing half of a busy P's queue (Go's scheduler).
    WorkStealing,
    /// A thread's three states and the moves between them (the OS scheduler).
    ThreadStates,
    /// One digest as a chain of blocks beside independent digests (hashing).
    HashChain,
    /// Counters sharing a cache line or keeping one each (the Sum's shared total).
    CacheLine,
    /// More workers than cores, each bar longer than its work (chapter 1).
    MoreWorkers,
    /// A CPU-bound thread beside an IO-bound one (CPU vs IO).
    CpuOrIo,
}

impl Picture {
    pub const ALL: [Picture; 18] = [
        Picture::BubblePass,
        Picture::Gmp,
        Picture::LittlesLaw,
        Picture::Interleave,
        Picture::TimeSlices,
        Picture::SumSplit,
        Picture::Amdahl,
        Picture::HashRounds,
        Picture::ComputeWait,
        Picture::Reads,
        Picture::TaskOverhead,
        Picture::PoolOrPark,
        Picture::WorkStealing,
        Picture::ThreadStates,
        Picture::HashChain,
        Picture::CacheLine,
        Picture::MoreWorkers,
        Picture::CpuOrIo,
    ];

    /// The name its marker uses: `<!-- picture: bubble-pass -->`.
    pub fn name(self) -> &'static str {
        match self {
            Picture::BubblePass => "bubble-pass",
            Picture::Gmp => "gmp",
            Picture::LittlesLaw => "littles-law",
            Picture::Interleave => "interleave",
            Picture::TimeSlices => "time-slices",
            Picture::SumSplit => "sum-split",
            Picture::Amdahl => "amdahl",
            Picture::HashRounds => "hash-rounds",
            Picture::ComputeWait => "compute-wait",
            Picture::Reads => "reads",
            Picture::TaskOverhead => "task-overhead",
            Picture::PoolOrPark => "pool-or-park",
            Picture::WorkStealing => "work-stealing",
            Picture::ThreadStates => "thread-states",
            Picture::HashChain => "hash-chain",
            Picture::CacheLine => "cache-line",
            Picture::MoreWorkers => "more-workers",
            Picture::CpuOrIo => "cpu-or-io",
        }
    }

    pub fn from_name(name: &str) -> Option<Picture> {
        Picture::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// How the prose crate writes a picture's slot around its name (`prose::picture_slot`; a test holds
/// the two alike).
const SLOT_START: &str = "<div class=\"picture-slot\" data-picture=\"";
const SLOT_END: &str = "\"></div>\n";

/// A piece of prose HTML cut at its picture slots.
#[derive(Debug, PartialEq)]
pub enum Piece<'a> {
    Html(&'a str),
    Picture(Picture),
}

/// `html` as its prose and its pictures, in order. Empty prose between slots is left out, and a slot
/// naming a picture this build does not draw (a prose file of another build) is dropped.
pub fn split_at_pictures(html: &str) -> Vec<Piece<'_>> {
    let mut pieces = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(SLOT_START) {
        let after = &rest[at + SLOT_START.len()..];
        let Some(end) = after.find(SLOT_END) else { break };
        if at > 0 {
            pieces.push(Piece::Html(&rest[..at]));
        }
        pieces.extend(Picture::from_name(&after[..end]).map(Piece::Picture));
        rest = &after[end + SLOT_END.len()..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Html(rest));
    }
    pieces
}

#[wasm_split(picture_bubble_pass, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_bubble_pass() -> SplitBuilt {
    Ok(view! { <bubble_pass::BubblePass /> }.into_any())
}

#[wasm_split(picture_gmp, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_gmp() -> SplitBuilt {
    Ok(gmp::gmp().into_any())
}

#[wasm_split(picture_littles_law, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_littles_law() -> SplitBuilt {
    Ok(view! { <littles_law::LittlesLaw /> }.into_any())
}

#[wasm_split(picture_interleave, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_interleave() -> SplitBuilt {
    Ok(lane_pictures::interleave().into_any())
}

#[wasm_split(picture_time_slices, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_time_slices() -> SplitBuilt {
    Ok(lane_pictures::time_slices().into_any())
}

#[wasm_split(picture_sum_split, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_sum_split() -> SplitBuilt {
    Ok(view! { <sum_split::SumSplit /> }.into_any())
}

#[wasm_split(picture_amdahl, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_amdahl() -> SplitBuilt {
    Ok(view! { <amdahl::Amdahl /> }.into_any())
}

#[wasm_split(picture_hash_rounds, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_hash_rounds() -> SplitBuilt {
    Ok(lane_pictures::hash_rounds().into_any())
}

#[wasm_split(picture_compute_wait, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_compute_wait() -> SplitBuilt {
    Ok(lane_pictures::compute_wait().into_any())
}

#[wasm_split(picture_reads, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_reads() -> SplitBuilt {
    Ok(lane_pictures::reads().into_any())
}

#[wasm_split(picture_task_overhead, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_task_overhead() -> SplitBuilt {
    Ok(lane_pictures::task_overhead().into_any())
}

#[wasm_split(picture_pool_or_park, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_pool_or_park() -> SplitBuilt {
    Ok(lane_pictures::pool_or_park().into_any())
}

#[wasm_split(picture_work_stealing, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_work_stealing() -> SplitBuilt {
    Ok(lane_pictures::stealing().into_any())
}

#[wasm_split(picture_thread_states, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_thread_states() -> SplitBuilt {
    Ok(still_pictures::thread_states().into_any())
}

#[wasm_split(picture_hash_chain, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_hash_chain() -> SplitBuilt {
    Ok(still_pictures::hash_chain().into_any())
}

#[wasm_split(picture_cache_line, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_cache_line() -> SplitBuilt {
    Ok(view! { <still_pictures::CacheLine /> }.into_any())
}

#[wasm_split(picture_more_workers, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_more_workers() -> SplitBuilt {
    Ok(lane_pictures::more_workers().into_any())
}

#[wasm_split(picture_cpu_or_io, fallible, wasm_split_path = ::leptos::wasm_split)]
fn build_cpu_or_io() -> SplitBuilt {
    Ok(lane_pictures::cpu_or_io().into_any())
}

/// Fetch the code of `picture` (at once if the page has it) and build it.
async fn picture_code(picture: Picture) -> SplitBuilt {
    match picture {
        Picture::BubblePass => build_bubble_pass().await,
        Picture::Gmp => build_gmp().await,
        Picture::LittlesLaw => build_littles_law().await,
        Picture::Interleave => build_interleave().await,
        Picture::TimeSlices => build_time_slices().await,
        Picture::SumSplit => build_sum_split().await,
        Picture::Amdahl => build_amdahl().await,
        Picture::HashRounds => build_hash_rounds().await,
        Picture::ComputeWait => build_compute_wait().await,
        Picture::Reads => build_reads().await,
        Picture::TaskOverhead => build_task_overhead().await,
        Picture::PoolOrPark => build_pool_or_park().await,
        Picture::WorkStealing => build_work_stealing().await,
        Picture::ThreadStates => build_thread_states().await,
        Picture::HashChain => build_hash_chain().await,
        Picture::CacheLine => build_cache_line().await,
        Picture::MoreWorkers => build_more_workers().await,
        Picture::CpuOrIo => build_cpu_or_io().await,
    }
}

/// `picture`, once its code is here: nothing meanwhile (the prose around it reads on), a notice with
/// Retry if it cannot be fetched.
#[component]
pub fn PictureView(picture: Picture) -> impl IntoView {
    let key = Picture::ALL.iter().position(|p| *p == picture).unwrap_or_default();
    let load = |key: usize| -> SplitFuture { Box::pin(picture_code(Picture::ALL[key])) };
    let loading = |key: usize| {
        view! { <div class="picture-loading" data-picture-loading=Picture::ALL[key].name()></div> }.into_any()
    };
    split_now(key, load, loading, ui().picture_failed, "picture-failed")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_picture_the_prose_may_place_is_drawn_here() {
        let names: Vec<&str> = Picture::ALL.iter().map(|p| p.name()).collect();
        let placed: Vec<&str> = prose::PICTURES.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, placed, "prose::PICTURES and Picture::ALL name the same pictures, in order");
        for picture in Picture::ALL {
            assert_eq!(Picture::from_name(picture.name()), Some(picture));
        }
        assert_eq!(Picture::from_name("bubble-pas"), None);
    }

    #[test]
    fn prose_is_cut_at_the_slots_the_prose_crate_writes() {
        let slot = |name: &str| prose::picture_slot(name);
        let html = format!("<p>Before.</p>\n{}<p>After.</p>\n{}", slot("gmp"), slot("littles-law"));
        assert_eq!(
            split_at_pictures(&html),
            [
                Piece::Html("<p>Before.</p>\n"),
                Piece::Picture(Picture::Gmp),
                Piece::Html("<p>After.</p>\n"),
                Piece::Picture(Picture::LittlesLaw),
            ]
        );
        assert_eq!(split_at_pictures("<p>Only prose.</p>"), [Piece::Html("<p>Only prose.</p>")]);
        // A slot of a picture this build does not know is dropped, the prose around it kept.
        let unknown = format!("<p>A</p>{}<p>B</p>", slot("no-such-picture"));
        assert_eq!(split_at_pictures(&unknown), [Piece::Html("<p>A</p>"), Piece::Html("<p>B</p>")]);
    }
}
