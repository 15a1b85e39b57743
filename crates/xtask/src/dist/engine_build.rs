//! The engines' build: one id for both engines' files, stamped into the site's pages and
//! coordinators, and the engines' folders named after it so browsers may keep them for good.

use super::files::{files_in, hash_files, html_files, read, write};
use super::strict_page::tags;
use std::path::{Path, PathBuf};

/// The placeholder in `coordinator.js` that [`stamp_engine_build`] replaces.
const ENGINE_BUILD_PLACEHOLDER: &str = "const ENGINE_BUILD = 'dev';";

/// The engines' folders as the engine build writes them (and a development server serves them);
/// [`stamp_engine_build`] names each after the build: `engine-<build>/`, `engine-single-<build>/`.
pub const ENGINE_FOLDERS: [&str; 2] = ["engine", "engine-single"];

/// The folder of the engine `name` (one of [`ENGINE_FOLDERS`]) of a site stamped with `build`.
pub fn engine_folder(name: &str, build: &str) -> String {
    format!("{name}-{build}")
}

/// The build id a stamped site in `dir` carries (what [`stamp_engine_build`] returned), if any.
pub fn engine_build(dir: &Path) -> Result<Option<String>, String> {
    let index = read(&dir.join("index.html"))?;
    let meta = "<meta name=\"lab-engine-build\" content=\"";
    Ok(index.find(meta).map(|at| index[at + meta.len()..].chars().take_while(char::is_ascii_hexdigit).collect()))
}

/// Where the engine `name` (one of [`ENGINE_FOLDERS`]) is in the built site `dir`: its folder named
/// after the build, or the plain one in a site that is not stamped.
pub fn engine_dir(dir: &Path, name: &str) -> Result<PathBuf, String> {
    Ok(match engine_build(dir)? {
        Some(build) => dir.join(engine_folder(name, &build)),
        None => dir.join(name),
    })
}

/// Stamp the built site in `dir` with one build id of its engine (a hash of both engines' files):
/// written into each `coordinator.js`, which reports it when ready, and into every page as
/// `<meta name="lab-engine-build">`; then each engine's folder is named after it
/// ([`engine_folder`]), so its files are content-addressed like the app's: browsers keep them for
/// good and a warm visit asks for none of them, and a page only ever loads the engine of its own
/// build (one left open across a deployment finds its folder gone and says to reload). Returns the id.
pub fn stamp_engine_build(dir: &Path) -> Result<String, String> {
    let mut files = Vec::new();
    for folder in ENGINE_FOLDERS {
        files.extend(files_in(&dir.join(folder))?);
    }
    let build = format!("{:016x}", hash_files(dir, &files)?);
    for file in files.iter().filter(|f| f.file_name().is_some_and(|n| n == "coordinator.js")) {
        let code = read(file)?;
        if !code.contains(ENGINE_BUILD_PLACEHOLDER) {
            return Err(format!("{}: no `{ENGINE_BUILD_PLACEHOLDER}` to fill in", file.display()));
        }
        write(file, &code.replacen(ENGINE_BUILD_PLACEHOLDER, &format!("const ENGINE_BUILD = '{build}';"), 1))?;
    }
    for file in html_files(dir)? {
        let html = read(&file)?;
        if html.contains("name=\"lab-engine-build\"") {
            continue;
        }
        let head = tags(&html)
            .into_iter()
            .find(|t| t.name == "head")
            .ok_or_else(|| format!("{}: no <head> for the engine's build id", file.display()))?;
        let meta = format!("\n    <meta name=\"lab-engine-build\" content=\"{build}\" />");
        write(&file, &format!("{}{meta}{}", &html[..head.end], &html[head.end..]))?;
    }
    for folder in ENGINE_FOLDERS {
        let named = dir.join(engine_folder(folder, &build));
        let _ = std::fs::remove_dir_all(&named);
        std::fs::rename(dir.join(folder), &named).map_err(|e| format!("{}: {e}", named.display()))?;
    }
    Ok(build)
}
