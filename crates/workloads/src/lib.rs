//! Pure workloads of Concurrency Lab: the algorithms the chapters time and the seeded data they run on.
//!
//! Nothing here knows about threads, workers, wasm or the DOM. Every function is a plain, deterministic
//! computation, so the same code runs natively (`cargo test`, the `lab` CLI) and inside Web Workers.
//! How work is *split* lives here too (pure index arithmetic); how the pieces are *scheduled* does not.

pub mod data;
pub mod docsearch;
pub mod granularity;
pub mod hashing;
pub mod os_scheduler;
pub mod shared_total;
pub mod sort;
pub mod spin;
pub mod split;
pub mod sum;
