//! Weighing the site's wasm modules (the UI's core and chunks, the engine), raw and compressed with gzip.

use crate::shell::root;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The UI's core module: what every page loads first.
pub(crate) fn app_wasm(dist: &Path) -> Result<PathBuf, String> {
    crate::app_build::app_folder(dist).map(|folder| folder.join("app_bg.wasm"))
}

/// The UI's chunks (every `.wasm` of its folder but the core), sorted by name.
pub(crate) fn app_chunks(dist: &Path) -> Result<Vec<PathBuf>, String> {
    let folder = crate::app_build::app_folder(dist)?;
    let entries = std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let mut chunks: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "wasm") && !p.ends_with("app_bg.wasm"))
        .collect();
    chunks.sort();
    Ok(chunks)
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

/// What a chapter's experiments load beyond the core: every chunk file their panels need, each
/// counted once, weighed together (gzip -9 of each file, summed: each is its own download).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct ChapterCode {
    pub(crate) chapter: String,
    pub(crate) files: usize,
    pub(crate) raw_bytes: u64,
    pub(crate) gzip_bytes: u64,
    /// Of those, what its panels need before a Run works (the rest, their later views, comes after
    /// the engine's files): raw and gzip -9.
    pub(crate) run_raw_bytes: u64,
    pub(crate) run_gzip_bytes: u64,
}

/// The chapter that loads the most code in all, or, with `before_run`, before its Run works
/// (gzip -9): the one the budgets, the targets and the parts tables name.
pub(crate) fn heaviest_chapter(chapters: &[ChapterCode], before_run: bool) -> Option<&ChapterCode> {
    chapters.iter().max_by_key(|c| if before_run { c.run_gzip_bytes } else { c.gzip_bytes })
}

/// [`ChapterCode`] of every chapter that places an experiment ([`chapters`]), from the build's
/// manifest of which chunk files each panel and picture needs. Each file is weighed once, however
/// many chapters load it.
pub(crate) fn chapter_code(dist: &Path) -> Result<Vec<ChapterCode>, String> {
    let code = crate::app_build::PanelCode::read(dist)?;
    let weights: std::collections::HashMap<String, Weight> = code
        .all_files()
        .into_iter()
        .map(|file| weigh(&code.folder.join(&file)).map(|w| (file, w)))
        .collect::<Result<_, _>>()?;
    let mut weighed = Vec::new();
    for chapter in chapters()? {
        let experiments = &chapter.experiments;
        // A chapter's pictures (`<!-- picture: NAME -->`) are built with its prose, before a Run.
        let with_pictures = |mut files: Vec<String>| {
            files.extend(code.picture_files(&chapter.pictures));
            files.sort();
            files.dedup();
            files
        };
        let files = with_pictures(code.files_with_views(experiments));
        if files.is_empty() {
            continue;
        }
        let weights_of = |files: &[String]| {
            files
                .iter()
                .map(|file| &weights[file])
                .fold((0, 0), |(raw, gzip), w| (raw + w.raw_bytes, gzip + w.gzip_bytes))
        };
        let (raw_bytes, gzip_bytes) = weights_of(&files);
        let (run_raw_bytes, run_gzip_bytes) = weights_of(&with_pictures(code.files(experiments)));
        weighed.push(ChapterCode {
            chapter: chapter.slug,
            files: files.len(),
            raw_bytes,
            gzip_bytes,
            run_raw_bytes,
            run_gzip_bytes,
        });
    }
    Ok(weighed)
}

/// A chapter as its code is counted: its English text's slug, the experiments it places and the
/// pictures its prose places (every language places the same ones).
pub(crate) struct Chapter {
    pub(crate) slug: String,
    pub(crate) experiments: Vec<String>,
    pub(crate) pictures: Vec<String>,
}

/// Every chapter, in the order of the texts.
pub(crate) fn chapters() -> Result<Vec<Chapter>, String> {
    Ok(crate::site::texts()?
        .into_iter()
        .filter(|text| text.lang == "en")
        .map(|text| Chapter {
            experiments: text.experiments().map(String::from).collect(),
            pictures: text.pictures,
            slug: text.slug,
        })
        .collect())
}
