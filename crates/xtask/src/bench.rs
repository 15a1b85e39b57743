//! `cargo xtask bench`: the same kernels natively and in headless Chromium, side by side, in one run.

pub fn run() -> Result<(), String> {
    Err("bench: not written yet".into())
}
