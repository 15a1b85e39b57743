//! One clock for every worker: milliseconds as f64, comparable across threads and Web Workers.

#[cfg(not(target_arch = "wasm32"))]
pub fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

/// Each Web Worker has its own `performance.now()` origin, so we add `performance.timeOrigin`
/// (shared wall-clock basis) to make timestamps from different workers comparable. The origin of
/// a worker never changes, so it is read once: every read after is one call out to JavaScript.
#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> f64 {
    use wasm_bindgen::JsCast;
    thread_local! {
        static PERFORMANCE: (web_sys::Performance, f64) = {
            let performance = js_sys::global()
                .unchecked_into::<web_sys::WorkerGlobalScope>()
                .performance()
                .expect("workers have performance");
            let origin = performance.time_origin();
            (performance, origin)
        };
    }
    PERFORMANCE.with(|(performance, origin)| origin + performance.now())
}
