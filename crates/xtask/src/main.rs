//! `cargo xtask …`: every project command, doing its own set-up on a fresh machine.
//!
//! `serve` and `test` are the two commands the README promises. Both install what is missing
//! (wasm32 targets, the engine's pinned nightly with rust-src, trunk, the wasm-bindgen CLI matching
//! Cargo.lock, Chromium, npm packages) and skip whatever is already installed at the right version.

mod app_build;
mod bench;
mod budget;
mod cartridge;
mod catalog_json;
mod chunk_bundles;
mod content;
mod dist;
mod shell;
mod site;
mod soak;
mod tidy;
mod toolchain;
mod tools;

use std::process::ExitCode;

const HELP: &str = "\
cargo xtask <command>

  serve         install what is missing, build, serve http://127.0.0.1:8080 (cross-origin isolated)
  test          install what is missing, then run every check: fmt, clippy, native tests, the
                native crates' docs, the site build and the end-to-end tests in headless Chromium
  bench         measure the kernels natively and in headless Chromium; print ratios, write bench-report.*
  soak          build, then 300 runs in one page of headless Chromium; fails on a worker alive beyond
                the pools, memory that grows after warm-up, or workers left ([RUNS]; see `soak --help`)
  build         install what is missing and build the site into dist/
  e2e           the end-to-end tests against the site `build` left in dist/, its deployable copies
                packaged first (no build) [--name PATTERN] [FILE…]
  budget        check the built dist/ against its download budgets (gzip -9 of the wasm modules)
  dist          build, then make it deployable in target/site ([--out DIR] [--public-url /REPO/])
  cartridge     an IMS Common Cartridge (.imscc) of the chapters for Canvas, Moodle, … (--site URL
                [--lang en] [--chapters sum,hashing] [--out FILE])
  catalog       write e2e/catalog.json, the experiment catalog the JavaScript tests read (build does too)
  setup         only install what is missing
  build-engine  build the threaded engine module (Trunk runs this as a pre-build hook)
  build-app     build the UI module split per experiment into the site and start it from its page
                (Trunk runs this as its post-build hook) [DIR]
  build-prose   write each text's prose into the site as content/<lang>/<slug>-<hash>.json, which
                the app fetches on demand (Trunk runs this as a pre-build hook too) [DIR]
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => site::serve(),
        Some("test") => site::test(),
        Some("bench") => bench::run(),
        Some("soak") => soak::command(&args[1..]),
        Some("build") => tools::setup().and_then(|_| site::build()),
        Some("e2e") => site::e2e(&args[1..]),
        Some("budget") => budget::check_dist(&shell::root().join("dist")),
        Some("dist") => dist::command(&args[1..]),
        Some("cartridge") => cartridge::command(&args[1..]),
        Some("catalog") => catalog_json::write(),
        Some("setup") => tools::setup(),
        Some("build-engine") => site::build_engine(args.get(1).map(String::as_str)),
        Some("build-app") => app_build::command(args.get(1).map(String::as_str)),
        Some("build-prose") => site::build_prose(args.get(1).map(String::as_str)),
        Some("help" | "--help" | "-h") | None => {
            print!("{HELP}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{HELP}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}
