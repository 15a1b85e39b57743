//! Building the UI module split per experiment: `cargo build` of the app, `wasm_split_cli_support`
//! cutting it at each panel's split point (`crates/app/src/panels/mod.rs`), `wasm-bindgen` on the
//! core module, `wasm-opt -Oz` on every piece, and the start-up script written into the page (as a
//! file, with the site's Content-Security-Policy in the page, so the dev server's page is as strict
//! as the deployed one).
//!
//! Trunk builds the rest of the site (CSS, files, the page) and runs this as its post-build hook
//! (`cargo xtask build-app`); its own Rust pipeline is skipped (`data-trunk-skip` in index.html),
//! since it has no step between `cargo build` and `wasm-bindgen` where a split could go.

use crate::shell::{cargo, root, run, tool_path};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The app's own target directory: its link needs `--emit-relocs` (the splitter reads the
/// relocations), and other rustflags in a shared directory would rebuild each other's crates.
const APP_TARGET_DIR: &str = "target/app-wasm";

/// The core module as the splitter writes it, with its names: what the bench profiles.
pub const SPLIT_CORE: &str = "target/app-wasm/split/main.wasm";

/// The folder of one build inside the site: `app-<hash>/`, the hash of every file in it, so a page
/// never mixes a new core with an old chunk from a cache (browsers keep the folder for good).
pub const APP_FOLDER_PREFIX: &str = "app-";

/// What the steps after the link make of it, in a word: with the linked module, the key under which
/// a finished build is kept for the next build of the same module (`target/app-wasm/finished/`).
/// Change it when those steps (splitting, bundling, the loader's patches) change, or the next build
/// reuses what the old steps wrote; the folder's name is the hash of its files either way.
const PIPELINE: &str = "split, bundled (chunk_bundles), one task per chunk load";

/// What one build wrote: its folder (relative to the site) and its chunk files.
#[derive(Debug)]
pub struct Built {
    pub folder: String,
    pub chunks: Vec<String>,
}

/// `cargo xtask build-app [DIR]`: build the UI into `DIR` (default: Trunk's staging dir when run as
/// its hook, else `dist`) and write its start-up into `DIR/index.html` under Trunk's public URL.
pub fn command(out: Option<&str>) -> Result<(), String> {
    let site = out
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("TRUNK_STAGING_DIR").map(PathBuf::from))
        .unwrap_or_else(|| root().join("dist"));
    let base = std::env::var("TRUNK_PUBLIC_URL").unwrap_or_else(|_| "/".into());
    let built = build(&site)?;
    let index = site.join("index.html");
    let page = std::fs::read_to_string(&index).map_err(|e| format!("{}: {e}", index.display()))?;
    std::fs::write(&index, with_start_up(&page, &base, &built.folder)?)
        .map_err(|e| format!("{}: {e}", index.display()))?;
    // The start-up in a file and the policy in the page, as deployed: `cargo xtask serve` sends the
    // built site's Content-Security-Policy (Trunk.toml), which refuses inline scripts.
    crate::dist::externalise_inline_scripts(&site)?;
    crate::dist::add_csp(&site)?;
    eprintln!("xtask: the app in {} ({} chunk files)", site.join(&built.folder).display(), built.chunks.len());
    Ok(())
}

/// Compile, split, bind and optimise the app into `site/app-<hash>/`.
pub fn build(site: &Path) -> Result<Built, String> {
    let target_dir = root().join(APP_TARGET_DIR);
    run(cargo()
        .args([
            "build",
            "--package",
            "app",
            "--bin",
            "app",
            "--target",
            "wasm32-unknown-unknown",
            "--profile",
            "ui-release",
        ])
        .env("CARGO_TARGET_DIR", &target_dir)
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS",
            "-D warnings -C link-arg=--emit-relocs --cfg erase_components",
        ))?;
    let linked = target_dir.join("wasm32-unknown-unknown/ui-release/app.wasm");
    let input = std::fs::read(&linked).map_err(|e| format!("{}: {e}", linked.display()))?;
    let mut key = crate::dist::Fnv::new();
    key.add(PIPELINE.as_bytes());
    key.add(&input);
    let key = format!("{:016x}", key.0);
    // The same linked module splits, binds and optimises to the same files: a rebuild of the site
    // (`cargo xtask dist` after `build`, a rebuild under `trunk serve`) copies them instead (minutes of wasm-opt).
    let finished = target_dir.join("finished").join(&key);
    if !finished.join(MANIFEST).is_file() {
        let _ = std::fs::remove_dir_all(target_dir.join("finished"));
        split_bind_optimise(&input, &linked, &finished)?;
    }
    let folder = format!("{APP_FOLDER_PREFIX}{:016x}", tree_hash(&finished)?);
    let out = site.join(&folder);
    let _ = std::fs::remove_dir_all(&out);
    crate::dist::copy_tree(&finished, &out)?;
    let chunks = PanelCode::read_folder(&out)?.all_files();
    Ok(Built { folder, chunks })
}

/// Which files each panel's split needs, in the build's folder: `{"panel_sum": ["bundle_3.wasm", …]}`
/// (bundles of the splitter's chunks, see `chunk_bundles`, and the chunks left on their own).
pub const MANIFEST: &str = "chunks.json";

/// The folder of the newest UI build in `site` (`app-<hash>/`).
pub fn app_folder(site: &Path) -> Result<PathBuf, String> {
    let entries = std::fs::read_dir(site).map_err(|e| format!("{}: {e}", site.display()))?;
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(APP_FOLDER_PREFIX))
                && p.join("app_bg.wasm").is_file()
        })
        .collect();
    found.sort_by_key(|p| std::fs::metadata(p.join("app_bg.wasm")).and_then(|m| m.modified()).ok());
    found.pop().ok_or_else(|| format!("no app-*/app_bg.wasm in {}: is the site built?", site.display()))
}

/// A UI build's [`MANIFEST`], read: which chunk files each experiment's panel needs. What `dist`
/// preloads, the budget weighs and the bench reports all come from it.
pub struct PanelCode {
    /// The build's folder (`…/app-<hash>`).
    pub folder: PathBuf,
    needs: std::collections::BTreeMap<String, Vec<String>>,
}

impl PanelCode {
    /// The newest build in `site`.
    pub fn read(site: &Path) -> Result<PanelCode, String> {
        PanelCode::read_folder(&app_folder(site)?)
    }

    fn read_folder(folder: &Path) -> Result<PanelCode, String> {
        let manifest = folder.join(MANIFEST);
        let text = std::fs::read_to_string(&manifest).map_err(|e| format!("{}: {e}", manifest.display()))?;
        let needs = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", manifest.display()))?;
        Ok(PanelCode { folder: folder.to_path_buf(), needs })
    }

    /// The folder's name in the site (`app-<hash>`).
    pub fn folder_name(&self) -> String {
        self.folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    }

    /// The chunk files (names in the folder) the panels of `experiments` need to be built and run,
    /// each once, sorted: what a chapter's page preloads.
    pub fn files<S: AsRef<str>>(&self, experiments: &[S]) -> Vec<String> {
        self.files_of_splits(experiments.iter().map(|e| split_of(e.as_ref())))
    }

    /// Every chunk file the panels of `experiments` load: [`PanelCode::files`] and those of their
    /// later views ([`views_of`]), fetched once the engine's files have arrived.
    pub fn files_with_views<S: AsRef<str>>(&self, experiments: &[S]) -> Vec<String> {
        let splits = experiments.iter().flat_map(|e| [split_of(e.as_ref()), views_of(e.as_ref())]);
        self.files_of_splits(splits)
    }

    /// The chunk files the pictures named (`prose::PICTURES`) need: fetched when a page first
    /// shows one, before any Run.
    pub fn picture_files<S: AsRef<str>>(&self, pictures: &[S]) -> Vec<String> {
        self.files_of_splits(pictures.iter().map(|p| picture_split(p.as_ref())))
    }

    fn files_of_splits(&self, splits: impl Iterator<Item = String>) -> Vec<String> {
        let mut files: Vec<String> =
            splits.flat_map(|split| self.needs.get(&split).into_iter().flatten()).cloned().collect();
        files.sort();
        files.dedup();
        files
    }

    /// Every chunk file any panel needs, sorted.
    pub fn all_files(&self) -> Vec<String> {
        let mut files: Vec<String> = self.needs.values().flatten().cloned().collect();
        files.sort();
        files.dedup();
        files
    }
}

/// Split `input` (linked from `linked`), bind its core and optimise every piece into `out`, with the
/// manifest of which chunks each panel needs written last (its presence marks a finished build).
fn split_bind_optimise(input: &[u8], linked: &Path, out: &Path) -> Result<(), String> {
    // Split into a scratch folder, then bind the core module into the site.
    let core = root().join(SPLIT_CORE);
    let scratch = core.parent().expect("a folder").to_path_buf();
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let split = {
        let mut options = wasm_split_cli_support::Options::new(input);
        options.output_dir = &scratch;
        options.main_out_path = &core;
        options.link_name = "./__wasm_split.js";
        options.main_module = "./app.js";
        wasm_split_cli_support::transform(options).map_err(|e| format!("splitting {}: {e:?}", linked.display()))?
    };
    let _ = std::fs::remove_dir_all(out);
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    run(Command::new("wasm-bindgen")
        .env("PATH", tool_path())
        .args(["--target", "web", "--no-typescript", "--keep-lld-exports", "--no-demangle", "--out-name", "app"])
        .arg("--out-dir")
        .arg(out)
        .arg(&core))?;
    let mut chunks = Vec::new();
    for module in &split.split_modules {
        let name = module.file_name().and_then(|n| n.to_str()).ok_or("a chunk without a name")?.to_string();
        std::fs::copy(module, out.join(&name)).map_err(|e| format!("{}: {e}", module.display()))?;
        chunks.push(name);
    }
    chunks.sort();
    let modules: Vec<PathBuf> =
        std::iter::once("app_bg.wasm").chain(chunks.iter().map(String::as_str)).map(|m| out.join(m)).collect();
    optimise(&modules)?;
    let needs: std::collections::BTreeMap<String, Vec<String>> = split
        .prefetch_map
        .into_iter()
        .map(|(split, stems)| (split, stems.into_iter().map(|stem| format!("{stem}.wasm")).collect()))
        .collect();
    // The chunks grouped into fewer files (see chunk_bundles), and the loaders told where each is.
    let sizes = chunks
        .iter()
        .map(|chunk| crate::bench::site_size::weigh(&out.join(chunk)).map(|w| (chunk.clone(), w.gzip_bytes)))
        .collect::<Result<_, _>>()?;
    let plan = crate::chunk_bundles::plan(&sizes, &needs);
    let (parts, fetched) = crate::chunk_bundles::write(out, &plan, &needs)?;
    eprintln!(
        "xtask: {} chunks in {} files ({} bundles)",
        chunks.len(),
        plan.len(),
        plan.iter().filter(|b| b.len() > 1).count()
    );
    let link = scratch.join("__wasm_split.js");
    let loaders = std::fs::read_to_string(&link).map_err(|e| format!("{}: {e}", link.display()))?;
    let loaders = crate::chunk_bundles::rewrite_loader(&one_task_per_chunk_load(&loaders)?, &parts)?;
    std::fs::write(out.join("__wasm_split.js"), loaders).map_err(|e| format!("{}: {e}", out.display()))?;
    let manifest = out.join(MANIFEST);
    std::fs::write(&manifest, serde_json::to_string(&fetched).expect("strings"))
        .map_err(|e| format!("{}: {e}", manifest.display()))
}

/// `wasm-opt -Oz` on every module, as many at a time as the machine has cores (a build has about
/// a hundred chunks); quiet unless one fails.
fn optimise(modules: &[PathBuf]) -> Result<(), String> {
    eprintln!("xtask: wasm-opt -Oz on {} modules", modules.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| -> Result<(), String> {
                    while let Some(file) = modules.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                        let done = Command::new("wasm-opt")
                            .env("PATH", tool_path())
                            .arg("-Oz")
                            .arg(file)
                            .arg("-o")
                            .arg(file)
                            .output()
                            .map_err(|e| format!("could not start wasm-opt: {e}"))?;
                        if !done.status.success() {
                            return Err(format!(
                                "wasm-opt -Oz {} failed ({}): {}",
                                file.display(),
                                done.status,
                                String::from_utf8_lossy(&done.stderr)
                            ));
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        workers.into_iter().try_for_each(|w| w.join().map_err(|_| "a wasm-opt thread panicked".to_string())?)
    })
}

/// `page` (Trunk's output) with the app's start-up before `</head>`: a preload of the core module
/// and its script under the page's `base`, as Trunk writes them for an app of its own, and the
/// module script that starts it. The script names the app's files relative (`./app-<hash>/…`):
/// its import resolves against the page's `<base href>` while the script is in the page and
/// against its own address once moved into a file at the site's top (`init-<hash>.js`), the same
/// folder; the module's fetch resolves against `<base href>`. So the script does not depend on the
/// public URL, and a build moves to another one by its pages alone (`dist::rebase`).
pub fn with_start_up(page: &str, base: &str, folder: &str) -> Result<String, String> {
    let end = page.find("</head>").ok_or("index.html without </head>")?;
    let (script, wasm) = (format!("{folder}/app.js"), format!("{folder}/app_bg.wasm"));
    let start_up = format!(
        "<link rel=\"modulepreload\" href=\"{base}{script}\" crossorigin=\"anonymous\">\n\
         <link rel=\"preload\" href=\"{base}{wasm}\" crossorigin=\"anonymous\" as=\"fetch\" type=\"application/wasm\">\n\
         <script type=\"module\">\n\
         import init, * as bindings from './{script}';\n\
         const wasm = await init({{ module_or_path: './{wasm}' }});\n\
         window.wasmBindings = bindings;\n\
         dispatchEvent(new CustomEvent(\"TrunkApplicationStarted\", {{detail: {{wasm}}}}));\n\
         </script>\n"
    );
    Ok(format!("{}{start_up}{}", &page[..end], &page[end..]))
}

/// The splitter's loaders (`__wasm_split.js`) changed so that every chunk starts loading in a
/// main-thread task of its own. A panel needs up to sixty chunks; starting every fetch and
/// instantiation of them at once made one task of 60 to 120 ms on a 2-core machine, and a page must
/// keep each task under 50 ms (issue 15). `Err` if the splitter's script no longer has the shape
/// this expects, so a new version of it cannot silently undo this.
fn one_task_per_chunk_load(loaders: &str) -> Result<String, String> {
    const LOADER: &str = "const loader = async () => {\n";
    const NEXT_TASK: &str =
        "/* Each chunk's load starts in a task of its own (see crates/xtask/src/app_build.rs). */\n\
        const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));\n";
    if loaders.matches(LOADER).count() != 1 {
        return Err("__wasm_split.js: the splitter's loader is not written as this build expects \
                    (one `const loader = async () => {`); see one_task_per_chunk_load"
            .into());
    }
    let spread = loaders.replace(LOADER, &format!("{LOADER}        await nextTask();\n"));
    Ok(format!("{NEXT_TASK}{spread}"))
}

/// A hash of every file in `folder` (not in its subfolders): each one's name and bytes, by name.
fn tree_hash(folder: &Path) -> Result<u64, String> {
    crate::dist::hash_files(folder, &crate::dist::files_in(folder)?)
}

/// The split of `experiment`'s panel, as `crates/app/src/panels/mod.rs` names it (`panel_sum`).
pub fn split_of(experiment: &str) -> String {
    split_name("panel", experiment)
}

/// The split of the views of `experiment`'s panel that its first Run does not need, as its panel's
/// module names it (`views_sum`; `components::split_view::LaterCode`). Not every panel has one.
pub fn views_of(experiment: &str) -> String {
    split_name("views", experiment)
}

/// The split of a picture the prose places (`<!-- picture: NAME -->`), as
/// `crates/app/src/pictures/mod.rs` names it (`picture_bubble_pass`).
pub fn picture_split(picture: &str) -> String {
    split_name("picture", picture)
}

/// A split's name as a Rust identifier: `panel_task_granularity`.
fn split_name(kind: &str, experiment: &str) -> String {
    format!("{kind}_{}", experiment.replace('-', "_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_up_goes_into_the_head_and_its_script_does_not_depend_on_the_public_url() {
        let page = "<html><head><base href=\"/lab/\" /></head><body></body></html>";
        let started = with_start_up(page, "/lab/", "app-0123456789abcdef").unwrap();
        let head = &started[..started.find("</head>").unwrap()];
        // The preloads under the public URL, as Trunk writes its links; the script relative to it.
        assert!(head.contains("<link rel=\"modulepreload\" href=\"/lab/app-0123456789abcdef/app.js\""));
        assert!(head.contains("<link rel=\"preload\" href=\"/lab/app-0123456789abcdef/app_bg.wasm\""));
        assert!(head.contains("import init, * as bindings from './app-0123456789abcdef/app.js';"), "{started}");
        assert!(head.contains("module_or_path: './app-0123456789abcdef/app_bg.wasm'"), "{started}");
        assert!(!head.contains("'/"), "no address in the script starts at the root: {started}");
        assert!(started.ends_with("</head><body></body></html>"));
        assert!(with_start_up("<html><body></body></html>", "/", "app-0").is_err());
    }

    #[test]
    fn every_chunk_load_waits_for_a_task_of_its_own() {
        let loaders = "import { initSync } from \"./app.js\";\nfunction makeLoad(fetcher, deps) {\n    \
                       const loader = async () => {\n        const parallelStuff = deps.map(d => d());\n";
        let spread = one_task_per_chunk_load(loaders).unwrap();
        assert!(spread.starts_with("/* Each chunk's load"), "{spread}");
        assert!(
            spread.contains("const loader = async () => {\n        await nextTask();\n        const parallelStuff"),
            "{spread}"
        );
        assert!(spread.contains("setTimeout(resolve, 0)"), "{spread}");
        // A splitter whose script looks otherwise fails the build instead of loading all at once.
        assert!(one_task_per_chunk_load("function makeLoad(fetcher) { return fetcher(); }").is_err());
    }

    #[test]
    fn the_folder_hash_changes_with_any_file_of_the_build() {
        let dir = std::env::temp_dir().join(format!("xtask-tree-hash-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("app_bg.wasm"), "core").unwrap();
        std::fs::write(dir.join("__wasm_split.js"), "offsets 0 10").unwrap();
        let before = tree_hash(&dir).unwrap();
        assert_eq!(tree_hash(&dir).unwrap(), before);
        std::fs::write(dir.join("__wasm_split.js"), "offsets 0 11").unwrap();
        assert_ne!(tree_hash(&dir).unwrap(), before, "a loader with other offsets is another build");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_experiment_has_a_split_name() {
        assert_eq!(split_of("sum"), "panel_sum");
        assert_eq!(split_of("task-granularity"), "panel_task_granularity");
        assert_eq!(views_of("task-granularity"), "views_task_granularity");
        assert_eq!(picture_split("bubble-pass"), "picture_bubble_pass");
    }
}
