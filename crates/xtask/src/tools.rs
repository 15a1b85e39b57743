//! Installing the build and test tools on a fresh machine, and skipping those already present.
//!
//! Nothing is downloaded from GitHub: Rust tools are built from crates.io, wasm-opt, Playwright and
//! the browser drivers come from npm, Chromium, Firefox, WebKitGTK and xmllint from Debian's packages.

use crate::shell::{cargo, output, root, run, tool_path};
use crate::toolchain::{engine_toolchain, install_engine_nightly};
use std::path::Path;
use std::process::Command;

/// Trunk builds the UI. 0.22.1 needs a newer rustc than stable 1.95, so it is built with the engine's
/// pinned nightly.
pub const TRUNK_VERSION: &str = "0.22.1";
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// The cross-browser end-to-end tests drive Debian's Firefox ESR (over WebDriver BiDi, with
/// puppeteer-core: Playwright drives only its own patched Firefox, which cannot be downloaded here).
pub const FIREFOX: &str = "/usr/bin/firefox-esr";
/// And Debian's WebKitGTK (Safari's engine) through its own WebDriver, which needs a display: Xvfb,
/// started by `xvfb-run` (which needs xauth).
pub const WEBKIT_DRIVER: &str = "/usr/bin/WebKitWebDriver";
pub const XVFB_RUN: &str = "/usr/bin/xvfb-run";
/// The cartridge's tests validate it against the Common Cartridge schemas with libxml2's xmllint
/// (Debian's `libxml2-utils`), the library Moodle validates an imported cartridge with.
pub const XMLLINT: &str = "/usr/bin/xmllint";
/// twiggy lists what takes the room in a wasm module (`cargo xtask bench` only).
pub const TWIGGY_VERSION: &str = "0.8.0";

/// Install everything `serve`, `test` and `bench` need.
pub fn setup() -> Result<(), String> {
    rust_targets()?;
    wasm_bindgen_cli()?;
    trunk()?;
    npm_packages()?;
    debian_packages()
}

fn installed(toolchain: &str, list: &str) -> String {
    output(Command::new("rustup").args([list, "list", "--installed", "--toolchain", toolchain])).unwrap_or_default()
}

/// wasm32 for stable (the UI), and the threaded engine's pinned nightly with wasm32 and its std
/// sources for build-std ([`install_engine_nightly`]).
fn rust_targets() -> Result<(), String> {
    if !installed("stable", "target").contains("wasm32-unknown-unknown") {
        run(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown", "--toolchain", "stable"]))?;
    }
    install_engine_nightly()
}

/// The wasm-bindgen version pinned in Cargo.lock; the CLI must match it exactly.
pub fn locked_wasm_bindgen() -> Result<String, String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).map_err(|e| format!("Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\"" {
            if let Some(version) = lines.next().and_then(|v| v.strip_prefix("version = \"")) {
                return Ok(version.trim_end_matches('"').to_string());
            }
        }
    }
    Err("Cargo.lock names no wasm-bindgen".into())
}

fn tool_version(program: &str) -> Option<String> {
    output(Command::new(program).arg("--version").env("PATH", tool_path())).map(|s| s.trim().to_string())
}

fn wasm_bindgen_cli() -> Result<(), String> {
    let version = locked_wasm_bindgen()?;
    if tool_version("wasm-bindgen").as_deref() == Some(&format!("wasm-bindgen {version}")) {
        return Ok(());
    }
    // Not --locked: the CLI's own lock file names a yanked crate, which cargo cannot select (tried
    // with 0.2.130, 2026-12-06: "failed to select a version for the requirement `webpki-roots =
    // \"^1.0.10\"` (locked to 1.0.11)", required by ureq 3.5.0). The CLI's version is pinned to
    // the one Cargo.lock names for the library, which must match it.
    run(cargo().args(["install", "wasm-bindgen-cli", "--version", &version, "--force"]))
}

fn trunk() -> Result<(), String> {
    if tool_version("trunk").as_deref() == Some(&format!("trunk {TRUNK_VERSION}")) {
        return Ok(());
    }
    let toolchain = format!("+{}", engine_toolchain());
    run(cargo().args([&toolchain, "install", "trunk", "--version", TRUNK_VERSION, "--locked", "--force"]))
}

/// twiggy from crates.io, for the bench's "where the bytes go" tables; not part of `setup`.
pub fn twiggy() -> Result<(), String> {
    if tool_version("twiggy").as_deref() == Some(&format!("twiggy {TWIGGY_VERSION}")) {
        return Ok(());
    }
    run(cargo().args(["install", "twiggy", "--version", TWIGGY_VERSION, "--locked", "--force"]))
}

/// playwright-core (drives Chromium), puppeteer-core (Firefox), selenium-webdriver (WebKit),
/// binaryen (wasm-opt) and axe-core (the accessibility audit), pinned in e2e/package-lock.json.
fn npm_packages() -> Result<(), String> {
    let e2e = root().join("e2e");
    let marker = e2e.join("node_modules/.package-lock.json");
    let lock = e2e.join("package-lock.json");
    let fresh = match (std::fs::metadata(&marker), std::fs::metadata(&lock)) {
        (Ok(m), Ok(l)) => m.modified().ok() >= l.modified().ok(),
        _ => false,
    };
    let installed = ["playwright-core", "puppeteer-core", "selenium-webdriver", "binaryen", "axe-core"]
        .iter()
        .all(|p| e2e.join("node_modules").join(p).exists());
    if fresh && installed {
        return Ok(());
    }
    run(Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(&e2e))
}

/// Debian's packages the tests need, each with the file that shows it is installed: Chromium (and
/// its driver), Firefox ESR, WebKitGTK's WebDriver with Xvfb and xauth for its display, xmllint.
const DEBIAN_PACKAGES: &[(&str, &[&str])] = &[
    (CHROMIUM, &["chromium", "chromium-driver"]),
    (FIREFOX, &["firefox-esr"]),
    (WEBKIT_DRIVER, &["webkit2gtk-driver"]),
    (XVFB_RUN, &["xvfb", "xauth"]),
    (XMLLINT, &["libxml2-utils"]),
];

/// The missing ones of [`DEBIAN_PACKAGES`], in one `apt-get install` (one `apt-get update`).
fn debian_packages() -> Result<(), String> {
    let missing: Vec<&str> = DEBIAN_PACKAGES
        .iter()
        .filter(|(file, _)| !Path::new(file).exists())
        .flat_map(|(_, packages)| packages.iter().copied())
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    apt_install(&missing)
}

/// `apt-get install` from Debian's packages (through sudo unless root).
fn apt_install(packages: &[&str]) -> Result<(), String> {
    let root_user = output(Command::new("id").arg("-u")).is_some_and(|id| id.trim() == "0");
    let apt = |args: &[&str]| {
        let mut command = if root_user { Command::new("apt-get") } else { Command::new("sudo") };
        if !root_user {
            command.arg("apt-get");
        }
        command.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        run(&mut command)
    };
    apt(&["update"])?;
    apt(&[["install", "-y", "--no-install-recommends"].as_slice(), packages].concat())
}
