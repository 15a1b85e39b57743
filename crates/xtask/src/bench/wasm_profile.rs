//! Where the wasm bytes go: each module's largest items by retained size, from `twiggy top`.
//!
//! The shipped modules carry no function names (wasm-opt drops them from the app, and the engine's
//! are stripped), so twiggy reads the modules cargo linked, before wasm-bindgen and wasm-opt: their
//! sizes are larger than what is shipped, but the items and their shares are the same code.

use super::formatting::bytes;
use super::table::Table;
use crate::shell::{output, root, tool_path};
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How many items of each module the report lists.
pub(super) const TOP_ITEMS: usize = 15;

/// One item of a module (a function, a data segment, a section) and the bytes it keeps alive.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(super) struct Contributor {
    pub(super) name: String,
    pub(super) retained_bytes: u64,
    pub(super) retained_percent: f64,
}

/// The largest items of one module.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(super) struct ModuleProfile {
    /// `app` or `engine`.
    pub(super) module: String,
    /// The module twiggy read, from the workspace root.
    pub(super) file: String,
    pub(super) raw_bytes: u64,
    pub(super) top: Vec<Contributor>,
}

/// The UI's core module as the splitter wrote it (with names; before wasm-bindgen and wasm-opt).
pub(super) fn linked_app_wasm() -> Result<PathBuf, String> {
    let core = root().join(crate::app_build::SPLIT_CORE);
    core.is_file().then_some(core.clone()).ok_or_else(|| format!("no {}: is the site built?", core.display()))
}

/// The threaded engine as cargo linked it (with names).
pub(super) fn linked_engine_wasm() -> PathBuf {
    root().join("target/engine-wasm/wasm32-unknown-unknown/release/engine.wasm")
}

/// `twiggy top --retained` of `path`: its [`TOP_ITEMS`] largest items by retained size.
pub(super) fn profile(module: &str, path: &Path) -> Result<ModuleProfile, String> {
    let raw_bytes = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?.len();
    let json = output(
        Command::new("twiggy")
            .env("PATH", tool_path())
            .args(["top", "--retained", "-n", &TOP_ITEMS.to_string(), "-f", "json"])
            .arg(path),
    )
    .ok_or_else(|| format!("`twiggy top` could not read {}", path.display()))?;
    let file = path.strip_prefix(root()).unwrap_or(path).display().to_string();
    Ok(ModuleProfile { module: module.into(), file, raw_bytes, top: parse_twiggy_top(&json)? })
}

/// The items of `twiggy top -f json`: `[{"name", "retained_size", "retained_size_percent", …}, …]`.
/// twiggy appends a summary row for the items it left out; that row is not an item.
pub(super) fn parse_twiggy_top(json: &str) -> Result<Vec<Contributor>, String> {
    let rows: Vec<Value> = serde_json::from_str(json).map_err(|e| format!("twiggy's JSON: {e}"))?;
    rows.iter()
        .filter(|row| !row["name"].as_str().is_some_and(|n| n.starts_with("... and ")))
        .map(|row| {
            let name = row["name"].as_str().ok_or("a twiggy item without a name")?;
            let retained_bytes = row["retained_size"].as_u64().ok_or_else(|| format!("{name}: no retained_size"))?;
            let retained_percent =
                row["retained_size_percent"].as_f64().ok_or_else(|| format!("{name}: no retained_size_percent"))?;
            Ok(Contributor { name: name.into(), retained_bytes, retained_percent })
        })
        .collect()
}

impl ModuleProfile {
    pub(super) fn table(&self) -> Table {
        let mut table = Table::new(
            &format!(
                "Where the {} wasm's bytes go: its {} largest items by retained size (twiggy top, {} as linked, {} before \
                 wasm-bindgen and wasm-opt)",
                self.module,
                self.top.len(),
                self.file,
                bytes(self.raw_bytes)
            ),
            &["item", "retained", "% of module"],
            &[false, true, true],
        );
        for item in &self.top {
            table.row(&[&shortened(&item.name), &bytes(item.retained_bytes), &format!("{:.1}", item.retained_percent)]);
        }
        table
    }
}

/// Long Rust symbol names cut to a readable width (the JSON report keeps them whole).
fn shortened(name: &str) -> String {
    const WIDTH: usize = 90;
    if name.chars().count() <= WIDTH {
        name.into()
    } else {
        name.chars().take(WIDTH - 1).chain(['…']).collect()
    }
}
