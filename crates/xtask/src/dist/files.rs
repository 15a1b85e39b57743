//! File helpers for `cargo xtask dist` and the build: copying and walking folders, reading and
//! writing text with the path in the error, and FNV-1a, the hash that names files after their content.

use std::path::{Path, PathBuf};

/// Copy `from` into `to`, leaving out dotfiles (Trunk's `.trunk-lock`).
pub(crate) fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type().map_err(|e| e.to_string())?.is_dir() {
            copy_tree(&source, &target)?;
        } else {
            std::fs::copy(&source, &target).map_err(|e| format!("{}: {e}", source.display()))?;
        }
    }
    Ok(())
}

pub(super) fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        if entry.file_type().map_err(|e| e.to_string())?.is_dir() {
            walk(&entry.path(), files)?;
        } else {
            files.push(entry.path());
        }
    }
    Ok(())
}

pub(super) fn html_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    walk(dir, &mut files)?;
    files.retain(|f| f.extension().is_some_and(|e| e == "html"));
    files.sort();
    Ok(files)
}

pub(super) fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

pub(super) fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// 64-bit FNV-1a: a stable, dependency-free hash for file names and versions (not for security).
pub(crate) struct Fnv(pub(crate) u64);

impl Fnv {
    pub(crate) fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    pub(crate) fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// The files directly in `folder` (not in its subfolders), sorted.
pub(crate) fn files_in(folder: &Path) -> Result<Vec<PathBuf>, String> {
    let listed = std::fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let mut files: Vec<PathBuf> = listed.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
    files.sort();
    Ok(files)
}

/// A hash of `files`, in their order: each one's path below `base` and its bytes. A content hash
/// to name a build by (the engines' build id, the UI's folder).
pub(crate) fn hash_files(base: &Path, files: &[PathBuf]) -> Result<u64, String> {
    let mut hash = Fnv::new();
    for file in files {
        hash.add(file.strip_prefix(base).unwrap_or(file).to_string_lossy().as_bytes());
        hash.add(&std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?);
    }
    Ok(hash.0)
}

pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = Fnv::new();
    hash.add(bytes);
    hash.0
}
