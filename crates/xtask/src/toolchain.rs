//! The one nightly that builds the threaded engine and trunk, pinned to a dated release, and making
//! it usable: from the installed `nightly` when that is the release, else by installing the release.
//!
//! rustup refuses to link a name that looks like one of its own channels (`nightly-2026-05-20`), so
//! builds use the custom name [`engine_toolchain`], a rustup link to a toolchain of exactly
//! [`ENGINE_NIGHTLY`]. Its date is checked before every engine build, so a link whose toolchain was
//! since updated (`rustup update nightly`) fails with what to do instead of building with another
//! compiler.

use crate::shell::{output, run};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The nightly release that builds the threaded engine (build-std, atomics) and installs trunk.
/// Moving it forward: ARCHITECTURE.md, "Moving the nightly forward".
pub const ENGINE_NIGHTLY: &str = "nightly-2026-05-20";

/// The toolchain name builds use: `lab-nightly-2026-05-20`, linked by [`install_engine_nightly`].
pub fn engine_toolchain() -> String {
    format!("lab-{ENGINE_NIGHTLY}")
}

/// The release date of [`ENGINE_NIGHTLY`], as its channel manifest writes it: `2026-05-20`.
fn pinned_date() -> &'static str {
    ENGINE_NIGHTLY.strip_prefix("nightly-").unwrap_or(ENGINE_NIGHTLY)
}

/// `cargo xtask setup`: make [`engine_toolchain`] run [`ENGINE_NIGHTLY`], with the wasm32 target
/// and the standard library's sources (for build-std). Links the installed dated release, or the
/// plain `nightly` if it is that release (nothing downloaded); only otherwise installs the release.
pub fn install_engine_nightly() -> Result<(), String> {
    let link = engine_toolchain();
    let installed = toolchain_names();
    let release = match pinned_release_among(&installed, &link) {
        Some(found) => found,
        None => {
            run(Command::new("rustup").args(["toolchain", "install", ENGINE_NIGHTLY, "--profile", "minimal"]))?;
            ENGINE_NIGHTLY.to_string()
        }
    };
    let dir = sysroot(&release).ok_or_else(|| format!("rustup names no directory for {release}"))?;
    let linked = installed.contains(&link) && sysroot(&link).as_deref().map(canonical) == Some(canonical(&dir));
    if !linked {
        run(Command::new("rustup").args(["toolchain", "link", &link]).arg(&dir))?;
    }
    // A linked toolchain takes no targets or components of its own: they go to the release it links.
    let listed = |what: &str| {
        output(Command::new("rustup").args([what, "list", "--installed", "--toolchain", &release])).unwrap_or_default()
    };
    if !listed("target").contains("wasm32-unknown-unknown") {
        run(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown", "--toolchain", &release]))?;
    }
    if !listed("component").contains("rust-src") {
        run(Command::new("rustup").args(["component", "add", "rust-src", "--toolchain", &release]))?;
    }
    check_engine_toolchain()
}

/// `Err` saying what to do unless [`engine_toolchain`] is installed and is [`ENGINE_NIGHTLY`].
pub fn check_engine_toolchain() -> Result<(), String> {
    let link = engine_toolchain();
    let date = toolchain_names().contains(&link).then(|| sysroot(&link)).flatten().and_then(|dir| release_date(&dir));
    match date {
        Some(date) if date == pinned_date() => Ok(()),
        Some(date) => Err(format!(
            "the toolchain {link} is nightly {date}, not {ENGINE_NIGHTLY}: run `cargo xtask setup` to link the pinned \
             release"
        )),
        None => Err(format!("the toolchain {link} ({ENGINE_NIGHTLY}) is not installed: run `cargo xtask setup`")),
    }
}

/// The installed toolchain, other than `link`, whose release is [`ENGINE_NIGHTLY`]: the dated
/// release itself, or else a plain `nightly` of that date.
fn pinned_release_among(installed: &[String], link: &str) -> Option<String> {
    let dated = installed.iter().filter(|name| is_dated_release(name));
    let plain = installed.iter().filter(|name| is_plain_nightly(name));
    dated
        .chain(plain)
        .filter(|name| *name != link)
        .find(|name| sysroot(name).and_then(|dir| release_date(&dir)).as_deref() == Some(pinned_date()))
        .cloned()
}

/// `nightly-2026-05-20` or `nightly-2026-05-20-<host>`.
fn is_dated_release(name: &str) -> bool {
    name == ENGINE_NIGHTLY || name.strip_prefix(ENGINE_NIGHTLY).is_some_and(|host| host.starts_with('-'))
}

/// `nightly` or `nightly-<host>`, the channel that moves every day.
fn is_plain_nightly(name: &str) -> bool {
    name == "nightly"
        || name.strip_prefix("nightly-").is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// The names `rustup toolchain list` prints (without `(active, default)`).
fn toolchain_names() -> Vec<String> {
    let list = output(Command::new("rustup").args(["toolchain", "list"])).unwrap_or_default();
    list.lines().filter_map(|line| line.split_whitespace().next()).map(String::from).collect()
}

/// An installed toolchain's directory. Only ever asked of installed toolchains: an older rustup
/// would download a missing one on `rustc +name`.
fn sysroot(toolchain: &str) -> Option<PathBuf> {
    let dir = output(Command::new("rustc").arg(format!("+{toolchain}")).args(["--print", "sysroot"]))?;
    Some(PathBuf::from(dir.trim())).filter(|dir| !dir.as_os_str().is_empty())
}

fn canonical(dir: &Path) -> PathBuf {
    dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())
}

/// The release date in a toolchain's channel manifest, e.g. `2026-05-20` (a nightly's commit date
/// is usually the day before).
fn release_date(dir: &Path) -> Option<String> {
    let manifest = std::fs::read_to_string(dir.join("lib/rustlib/multirust-channel-manifest.toml")).ok()?;
    manifest_date(&manifest)
}

fn manifest_date(manifest: &str) -> Option<String> {
    let date = manifest.lines().find_map(|line| line.strip_prefix("date = "))?;
    Some(date.trim().trim_matches('"').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pin_is_one_dated_nightly_under_a_name_rustup_can_link() {
        let date = pinned_date();
        assert_eq!(ENGINE_NIGHTLY, format!("nightly-{date}"));
        let digits: Vec<&str> = date.split('-').collect();
        assert!(
            digits.len() == 3 && digits.iter().all(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())),
            "{date}"
        );
        // rustup refuses to link names that look like its channels (nightly…, stable…, beta…, 1.…).
        let name = engine_toolchain();
        assert!(!["nightly", "stable", "beta"].iter().any(|channel| name.starts_with(channel)), "{name}");
        assert!(!name.starts_with(|c: char| c.is_ascii_digit()), "{name}");
    }

    #[test]
    fn release_names_and_manifest_dates_are_read() {
        assert!(is_dated_release(ENGINE_NIGHTLY));
        assert!(is_dated_release(&format!("{ENGINE_NIGHTLY}-x86_64-unknown-linux-gnu")));
        assert!(!is_dated_release("nightly-x86_64-unknown-linux-gnu"));
        assert!(is_plain_nightly("nightly") && is_plain_nightly("nightly-x86_64-unknown-linux-gnu"));
        assert!(!is_plain_nightly(ENGINE_NIGHTLY) && !is_plain_nightly(&engine_toolchain()));
        assert!(!is_plain_nightly("stable-x86_64-unknown-linux-gnu"));
        let manifest = "manifest-version = \"2\"\ndate = \"2026-05-20\"\n[pkg.cargo]\nversion = \"1.97.0-nightly\"\n";
        assert_eq!(manifest_date(manifest).as_deref(), Some("2026-05-20"));
        assert_eq!(manifest_date("manifest-version = \"2\"\n"), None);
    }

    /// Every other use of the engine's nightly goes through this module.
    #[test]
    fn no_other_xtask_source_names_a_nightly_channel() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = vec![src.clone()];
        let mut offenders = Vec::new();
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).expect("src readable").flatten().map(|e| e.path()));
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "toolchain.rs")
            {
                let text = std::fs::read_to_string(&path).expect("source readable");
                if text.contains("\"nightly\"") || text.contains("+nightly") || text.contains("\"nightly-") {
                    offenders.push(path.display().to_string());
                }
            }
        }
        assert!(offenders.is_empty(), "name the nightly through toolchain::ENGINE_NIGHTLY: {offenders:?}");
    }
}
