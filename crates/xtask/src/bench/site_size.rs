//! Weighing the site's two wasm modules, raw and compressed with gzip.

use crate::shell::root;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The UI module Trunk wrote (its name carries a content hash).
pub(crate) fn app_wasm(dist: &Path) -> Result<PathBuf, String> {
    let entries = std::fs::read_dir(dist).map_err(|e| format!("{}: {e}", dist.display()))?;
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("app-") && n.ends_with("_bg.wasm"))
        })
        .collect();
    found.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    found.pop().ok_or_else(|| format!("no app-*_bg.wasm in {}: is the site built?", dist.display()))
}

/// A file's size, raw and compressed with `gzip -9`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Weight {
    pub(crate) file: String,
    pub(crate) raw_bytes: u64,
    pub(crate) gzip_bytes: u64,
}

pub(crate) fn weigh(path: &Path) -> Result<Weight, String> {
    let raw_bytes = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?.len();
    let gzip = Command::new("gzip")
        .args(["-9", "-c"])
        .arg(path)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not run gzip: {e}"))?;
    if !gzip.status.success() {
        return Err(format!("gzip -9 -c {} failed ({})", path.display(), gzip.status));
    }
    let file = path.strip_prefix(root()).unwrap_or(path).display().to_string();
    Ok(Weight { file, raw_bytes, gzip_bytes: gzip.stdout.len() as u64 })
}
