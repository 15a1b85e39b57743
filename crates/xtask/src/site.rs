//! Building the two wasm modules into a site, serving it, and running every test against it.

use crate::shell::{cargo, root, run, tool_path};
use crate::toolchain::{check_engine_toolchain, engine_toolchain};
use crate::tools::setup;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where `cargo xtask test` puts a copy of its one build moved to the path `/lab/`, as a host would
/// serve it (what `cargo xtask dist --public-url /lab/` writes).
const PROJECT_SITE: &str = "target/project-site";

/// Threads in wasm: atomics need nightly's build-std, and since rust-lang/rust#147225 shared memory
/// must be asked for explicitly at link time (the TLS exports let wasm-bindgen start threads).
const ENGINE_RUSTFLAGS: &[&str] = &[
    // Real warnings in our code fail the build. (rustc still prints one notice per crate that
    // `atomics` is an unstable target feature: that is a nightly notice, not about our code.)
    "-D",
    "warnings",
    "-C",
    "target-feature=+atomics,+bulk-memory,+mutable-globals,+simd128",
    // A generic function instantiated for the same types in two crates is linked once, not once per
    // crate (the engine is built without LTO: its crate is an rlib too, for `lab`): 5.7 KB of gzip.
    // The kernels' hot loops call no instance shared from a crate built for size (checked with
    // `wasm-objdump -d` on the linked module; the runtime's timer wheel calls one swap helper).
    "-Z",
    "share-generics=y",
    "-C",
    "link-arg=--shared-memory",
    "-C",
    "link-arg=--max-memory=4294967296",
    "-C",
    "link-arg=--import-memory",
    "-C",
    "link-arg=--export=__wasm_init_tls",
    "-C",
    "link-arg=--export=__tls_size",
    "-C",
    "link-arg=--export=__tls_align",
    "-C",
    "link-arg=--export=__tls_base",
];

/// Build the threaded engine (the pinned nightly, build-std) and its worker scripts into `out`
/// (default: Trunk's staging dir when run as a hook, else `dist/engine`).
pub fn build_engine(out: Option<&str>) -> Result<(), String> {
    let out_dir = out
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("TRUNK_STAGING_DIR").map(|d| PathBuf::from(d).join("engine")))
        .unwrap_or_else(|| root().join("dist/engine"));
    let target_dir = root().join("target/engine-wasm");
    check_engine_toolchain()?;
    run(cargo()
        .args(["build", "--package", "engine", "--lib", "--target", "wasm32-unknown-unknown", "--release"])
        .env("RUSTUP_TOOLCHAIN", engine_toolchain())
        .env("CARGO_TARGET_DIR", &target_dir)
        .env("CARGO_UNSTABLE_BUILD_STD", "panic_abort,std")
        .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS", ENGINE_RUSTFLAGS.join(" ")))?;
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    run(Command::new("wasm-bindgen")
        .env("PATH", tool_path())
        .args(["--target", "web", "--no-typescript", "--out-name", "engine"])
        .args(name_section_flags())
        .arg("--out-dir")
        .arg(&out_dir)
        .arg(target_dir.join("wasm32-unknown-unknown/release/engine.wasm")))?;
    for script in ["coordinator.js", "pool-worker.js", "idle-worker.js"] {
        let from = root().join("crates/engine/js").join(script);
        std::fs::copy(&from, out_dir.join(script)).map_err(|e| format!("{}: {e}", from.display()))?;
    }
    build_single_engine(&out_dir.with_file_name("engine-single"))
}

/// Write every text's prose into the site (`content/<lang>/<slug>-<hash>.json`), and every
/// non-English interface table (`ui/<tag>-<hash>.json`), under `out`
/// (default: Trunk's staging dir when run as a hook, else `dist`): the app has each text's title
/// and experiments compiled in and fetches its prose from there when a page shows it. Refuses the
/// same Markdown the app's build script refuses, naming file and line.
pub fn build_prose(out: Option<&str>) -> Result<(), String> {
    let site = out
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("TRUNK_STAGING_DIR").map(PathBuf::from))
        .unwrap_or_else(|| root().join("dist"));
    let texts = texts()?;
    let written = prose::write_site(&texts, &site)?;
    eprintln!("xtask: {} prose files in {}", written.len(), site.join("content").display());
    // The interface strings and text titles of every language but English (compiled into the
    // app), fetched likewise.
    let tables = prose::write_language_files(&texts, &site)?;
    eprintln!("xtask: {} interface tables in {}", tables.len(), site.join("ui").display());
    Ok(())
}

/// Every text of `content/`, read and checked as the app's build script does.
pub fn texts() -> Result<Vec<prose::Text>, String> {
    let content = root().join("content");
    prose::read(&content)
        .map(|(texts, _)| texts)
        .map_err(|refused| format!("the texts in {} cannot be built:\n  {}", content.display(), refused.join("\n  ")))
}

/// The engine without threads, for pages that are not cross-origin isolated (a module with shared
/// memory cannot even be instantiated there): stable Rust, no atomics, one worker.
fn build_single_engine(out_dir: &Path) -> Result<(), String> {
    let target_dir = root().join("target/engine-single");
    run(cargo()
        .args(["build", "--package", "engine", "--lib", "--target", "wasm32-unknown-unknown", "--release"])
        .env("RUSTUP_TOOLCHAIN", "stable")
        .env_remove("CARGO_UNSTABLE_BUILD_STD")
        .env("CARGO_TARGET_DIR", &target_dir)
        .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS", "-D warnings -C target-feature=+simd128"))?;
    std::fs::create_dir_all(out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    run(Command::new("wasm-bindgen")
        .env("PATH", tool_path())
        .args(["--target", "web", "--no-typescript", "--out-name", "engine"])
        .args(name_section_flags())
        .arg("--out-dir")
        .arg(out_dir)
        .arg(target_dir.join("wasm32-unknown-unknown/release/engine.wasm")))?;
    for script in ["coordinator.js", "message-worker.js"] {
        let from = root().join("crates/engine/js").join(script);
        std::fs::copy(&from, out_dir.join(script)).map_err(|e| format!("{}: {e}", from.display()))?;
    }
    Ok(())
}

/// Keeps the engine's function names in the shipped module when set to `1` (readable stack traces
/// while debugging); otherwise they are stripped, since no reader needs them (about 230 KB raw).
/// The module cargo linked (`target/engine-wasm/…/engine.wasm`) always keeps them.
const ENGINE_NAMES_VAR: &str = "XTASK_ENGINE_NAMES";

/// wasm-bindgen's flags that drop the `name` section, unless [`ENGINE_NAMES_VAR`] asks to keep it.
fn name_section_flags() -> &'static [&'static str] {
    if std::env::var(ENGINE_NAMES_VAR).as_deref() == Ok("1") {
        &[]
    } else {
        &["--remove-name-section"]
    }
}

fn trunk() -> Command {
    let mut command = Command::new("trunk");
    command.current_dir(root()).env("PATH", tool_path());
    command
}

/// Build the site into `dist/` (release: the numbers must come from optimised code).
pub fn build() -> Result<(), String> {
    run(cargo().arg("fetch"))?;
    // The catalog as the end-to-end tests and the bench read it.
    crate::catalog_json::write()?;
    run(trunk().args(["build", "--release", "--offline"]))?;
    // The same strict page as the deployed site: no inline script, a Content-Security-Policy (the
    // app's build hook has done both already; this also covers a page that another hook changed).
    let dist = root().join("dist");
    crate::dist::externalise_inline_scripts(&dist)?;
    crate::dist::add_csp(&dist)?;
    // The headers for Netlify and Cloudflare Pages, as `cargo xtask dist` writes them for `/`.
    crate::dist::write_headers_file(&dist)?;
    crate::dist::stamp_engine_build(&dist).map(drop)
}

/// `cargo xtask serve`: set up, build and serve with the isolation headers on 127.0.0.1:8080.
pub fn serve() -> Result<(), String> {
    setup()?;
    run(cargo().arg("fetch"))?;
    run(trunk().args(["serve", "--release", "--offline"]))
}

/// The public address the project-page site of `cargo xtask test` is built for (its oEmbed answers
/// name it); `e2e/tests/deploy.test.mjs` serves that site locally and maps this address to it.
const PROJECT_SITE_ADDRESS: &str = "https://lab.example/lab/";

/// How long each phase of `cargo xtask test` took, printed as a table at its end (pass or fail), so a
/// slow run says where its time went.
#[derive(Default)]
struct Phases(Vec<(&'static str, std::time::Duration, bool)>);

impl Phases {
    /// Run `phase`, noting its time and whether it passed.
    fn run(&mut self, name: &'static str, phase: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
        let started = std::time::Instant::now();
        let result = phase();
        self.0.push((name, started.elapsed(), result.is_ok()));
        result
    }

    fn table(&self) -> String {
        let total: std::time::Duration = self.0.iter().map(|(_, took, _)| *took).sum();
        let mut out = String::from("xtask: time per phase\n");
        for (name, took, passed) in &self.0 {
            let mark = if *passed { "" } else { "  (failed)" };
            out += &format!("  {name:<28} {:>8.1} s{mark}\n", took.as_secs_f64());
        }
        out += &format!("  {:<28} {:>8.1} s ({:.1} min)\n", "total", total.as_secs_f64(), total.as_secs_f64() / 60.0);
        out
    }
}

/// `cargo xtask test`: everything CI checks, with the time each phase took printed at the end.
pub fn test() -> Result<(), String> {
    let mut phases = Phases::default();
    let result = test_phases(&mut phases);
    eprint!("{}", phases.table());
    result
}

fn test_phases(phases: &mut Phases) -> Result<(), String> {
    phases.run("install tools", setup)?;
    phases.run("fmt", || run(cargo().args(["fmt", "--all", "--", "--check"])))?;
    phases.run("clippy (native)", || run(cargo().args(["clippy", "--all-targets", "--", "-D", "warnings"])))?;
    phases.run("clippy (wasm)", || {
        run(cargo().args([
            "clippy",
            "--package",
            "app",
            "--package",
            "engine",
            "--target",
            "wasm32-unknown-unknown",
            "--",
            "-D",
            "warnings",
        ]))
    })?;
    phases.run("native tests", || {
        run(cargo().arg("test"))?;
        // The app is not a default member (it targets the browser), but its content checks run natively.
        run(cargo().args(["test", "--package", "app"]))
    })?;
    // The native crates' API documentation builds without a warning (broken intra-doc links, …).
    phases.run("docs", || {
        run(cargo()
            .args([
                "doc",
                "--no-deps",
                "--package",
                "experiments",
                "--package",
                "workloads",
                "--package",
                "engine",
                "--package",
                "lab",
                "--package",
                "prose",
            ])
            .env("RUSTDOCFLAGS", "-D warnings"))
    })?;
    phases.run("site build", build)?;
    // What a reader downloads first stays within its budget (a byte count: noise cannot flip it).
    phases.run("size budgets", || crate::budget::check_dist(&root().join("dist")))?;
    phases.run("deployable copies", deployable_copies)?;
    phases.run("end-to-end tests", || end_to_end(&[], None))
}

/// The deployable copies of the one build in `dist/` that the deploy tests serve, neither built
/// again: the site is built once per run.
fn deployable_copies() -> Result<(), String> {
    // The deployable copy (per-route pages, service worker) at the root of a domain.
    crate::dist::package(&root().join("dist"), &root().join("target/site"))?;
    // And one for a project page under a path (GitHub Pages' https://you.github.io/lab/): the same
    // build moved to /lab/, with the oEmbed answers of a site at PROJECT_SITE_ADDRESS (the deploy
    // test maps it to its own server).
    crate::dist::package_for(
        &root().join("dist"),
        &root().join(PROJECT_SITE).join("lab"),
        "/lab/",
        Some(PROJECT_SITE_ADDRESS),
    )
}

const E2E_HELP: &str = "usage: cargo xtask e2e [--name PATTERN] [FILE…]  (after `cargo xtask build`)";

/// `cargo xtask e2e [--name PATTERN] [FILE…]`: the end-to-end tests of `cargo xtask test` (every
/// file, or the files named, e.g. `deploy` or `tests/deploy.test.mjs`; only the tests whose name
/// matches PATTERN) against the site `cargo xtask build` left in `dist/`, with its deployable copies
/// packaged first. Builds nothing.
pub fn e2e(args: &[String]) -> Result<(), String> {
    let mut name = None;
    let mut files = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--name" => name = Some(args.next().ok_or(format!("--name needs a pattern\n{E2E_HELP}"))?.clone()),
            "--help" | "-h" => {
                println!("{E2E_HELP}");
                return Ok(());
            }
            file if !file.starts_with('-') => {
                let stem = file.rsplit('/').next().unwrap_or(file).trim_end_matches(".mjs").trim_end_matches(".test");
                let path = root().join("e2e/tests").join(format!("{stem}.test.mjs"));
                if !path.is_file() {
                    return Err(format!("no end-to-end test {}\n{E2E_HELP}", path.display()));
                }
                files.push(path);
            }
            other => return Err(format!("unknown argument `{other}`\n{E2E_HELP}")),
        }
    }
    if !root().join("dist/index.html").is_file() {
        return Err("no site in dist/: run `cargo xtask build` first".into());
    }
    deployable_copies()?;
    end_to_end(&files, name.as_deref())
}

/// The Playwright tests in `e2e/tests` (or only `files`; only the tests named like `name`), one
/// file at a time (the machine has two cores).
pub fn end_to_end(files: &[PathBuf], name: Option<&str>) -> Result<(), String> {
    let dir = root().join("e2e/tests");
    let mut files = files.to_vec();
    if files.is_empty() {
        files = std::fs::read_dir(&dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(".test.mjs"))
            .collect();
    }
    files.sort();
    let name: Vec<String> = name.map(|n| format!("--test-name-pattern={n}")).into_iter().collect();
    run(Command::new("node")
        .current_dir(root().join("e2e"))
        .env("SITE_DIR", root().join("dist"))
        // The same 200 fuzzed preset URLs on every CI run (a failure must be reproducible, never a
        // flip of the dice); set FUZZ_SEED to try others.
        .env("FUZZ_SEED", std::env::var("FUZZ_SEED").unwrap_or_else(|_| "20261130".into()))
        // A failed test may leave its server or browser open: force-exit instead of hanging, and a
        // test stuck for five minutes fails rather than using up the CI budget.
        .args(["--test", "--test-concurrency=1", "--test-reporter=spec", "--test-force-exit", "--test-timeout=300000"])
        .args(name)
        .args(&files))
}
