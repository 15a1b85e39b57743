//! `cargo xtask soak`: the long soak of the built site in headless Chromium (`e2e/soak.mjs`).
//!
//! Many consecutive runs in one page, changing the chapter and the worker count: after every run no
//! more workers are alive than the engine's pools plus its coordinator; the engine's wasm memory and
//! heap, the page's JS heap and the UI's wasm memory stay flat after warm-up (tolerances in
//! `e2e/soak.mjs`); 30 s after leaving the chapter only the coordinator is left. `cargo xtask test`
//! runs a short version (`e2e/tests/soak.test.mjs`).

use crate::shell::{root, run, tool_path};
use std::process::Command;

pub const HELP: &str = "\
cargo xtask soak [RUNS]

  Build the site into dist/ (as `cargo xtask build`), then run e2e/soak.mjs against it: RUNS
  (default 300) small runs in one page of headless Chromium, over the engine chapters and worker
  counts 1 to 16. Fails if after a run more Web Workers are alive than the engine's pools plus its
  coordinator, if the engine's wasm memory or heap, the page's JS heap or the UI's wasm memory grew
  beyond its tolerance between the quarter after warm-up and the last quarter, or if 30 s after
  leaving the chapter more than the coordinator is alive. Prints one line of figures. About 10
  minutes for 300 runs on two cores.

Environment:
  XTASK_SOAK_SKIP_BUILD=1  skip the tool set-up and the build, and soak the dist/ already there
  SOAK_RECORDS=FILE        also write every run's figures to FILE (JSON)
";

/// Skips `setup()` and `site::build()` when set to `1`, to soak an existing `dist/`.
const SKIP_BUILD_VAR: &str = "XTASK_SOAK_SKIP_BUILD";

/// Runs of the full soak.
const DEFAULT_RUNS: u32 = 300;

/// `cargo xtask soak [RUNS]`.
pub fn command(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{HELP}");
        return Ok(());
    }
    let runs = match args {
        [] => DEFAULT_RUNS,
        [runs] => runs
            .parse()
            .ok()
            .filter(|&n| n >= 8)
            .ok_or_else(|| format!("RUNS must be a whole number of at least 8, not `{runs}`\n\n{HELP}"))?,
        _ => return Err(format!("too many arguments\n\n{HELP}")),
    };
    if std::env::var(SKIP_BUILD_VAR).as_deref() == Ok("1") {
        eprintln!("xtask: {SKIP_BUILD_VAR}=1: soaking the existing dist/ without set-up or build");
    } else {
        crate::tools::setup()?;
        crate::site::build()?;
    }
    run(Command::new("node")
        .current_dir(root().join("e2e"))
        .env("SITE_DIR", root().join("dist"))
        .env("PATH", tool_path())
        .arg("soak.mjs")
        .arg(runs.to_string()))
}
