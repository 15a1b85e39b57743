//! Fewer files for the split UI: the splitter's chunks grouped into bundles, each bundle one
//! download that holds several chunk modules back to back.
//!
//! The splitter (`wasm_split_cli_support`) puts every function into the chunk of the exact set of
//! panels that reach it, so a panel needs up to sixty files, many of them a few hundred bytes.
//! Each is a request: over HTTP/1.1 a browser keeps six connections per host, and on a slow link
//! (150 ms round trip) those requests came in waves that left the line idle (`cargo xtask bench`,
//! "slow link": the Sum chapter's 58 files arrived over 3.5 s). A bundle is fetched once and each
//! of its chunks instantiated from its slice of the bytes, so a chunk's module, table slots and
//! data are exactly what they were; only the way its bytes arrive changes ([`rewrite_loader`]).
//!
//! Which chunks go together ([`plan`]) is a trade: a bundle brings all its chunks to every panel
//! that needs any of them. Starting from one bundle per chunk, the two bundles whose merging saves
//! the most are merged, while any merge saves anything, counting for each panel the bytes it
//! downloads plus [`REQUEST_COST_BYTES`] per file it fetches. Bundles also compress better than
//! their parts (gzip sees more of the shared code), which the plan does not count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// What one more file costs a reader, in bytes of download: on the slow link a request costs about
/// a round trip (150 ms, 30 KB at 200 KB/s) shared among a browser's six connections, some 5 KB,
/// and less over HTTP/2; 3 KB between the two.
pub const REQUEST_COST_BYTES: u64 = 3_000;

/// The bundles of chunk files to write: each a list of file names, in the order their bytes follow
/// each other; every file of `needs` in exactly one bundle. `sizes`: each file's compressed size;
/// `needs`: which files each panel's split needs. Deterministic: the same input gives the same plan.
pub fn plan(sizes: &BTreeMap<String, u64>, needs: &Needs) -> Vec<Vec<String>> {
    struct Bundle {
        files: BTreeSet<String>,
        bytes: u64,
        panels: BTreeSet<String>,
    }
    let files: BTreeSet<&String> = needs.values().flatten().collect();
    let mut bundles: Vec<Bundle> = files
        .into_iter()
        .map(|file| Bundle {
            files: BTreeSet::from([file.clone()]),
            bytes: sizes.get(file).copied().unwrap_or(0),
            panels: needs.iter().filter(|(_, files)| files.contains(file)).map(|(panel, _)| panel.clone()).collect(),
        })
        .collect();
    // What the panels that need a bundle pay for it: its bytes and its request, each.
    let cost = |panels: usize, bytes: u64| panels as u64 * (bytes + REQUEST_COST_BYTES);
    loop {
        let mut best: Option<(u64, usize, usize)> = None;
        for i in 0..bundles.len() {
            for j in i + 1..bundles.len() {
                let (a, b) = (&bundles[i], &bundles[j]);
                let apart = cost(a.panels.len(), a.bytes) + cost(b.panels.len(), b.bytes);
                let together = cost(a.panels.union(&b.panels).count(), a.bytes + b.bytes);
                let saving = apart.saturating_sub(together);
                if saving > 0 && best.is_none_or(|(most, _, _)| saving > most) {
                    best = Some((saving, i, j));
                }
            }
        }
        let Some((_, i, j)) = best else { break };
        let merged = bundles.remove(j);
        let into = &mut bundles[i];
        into.files.extend(merged.files);
        into.bytes += merged.bytes;
        into.panels.extend(merged.panels);
    }
    bundles.into_iter().map(|b| b.files.into_iter().collect()).collect()
}

/// Which files each panel's split needs: `{"panel_sum": ["chunk_3.wasm", …]}`.
pub type Needs = BTreeMap<String, Vec<String>>;

/// Where a chunk's bytes are once bundled: `length` bytes at `offset` of the file `bundle`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub chunk: String,
    pub bundle: String,
    pub offset: usize,
    pub length: usize,
}

/// The name of the `index`-th bundle of a build.
fn bundle_name(index: usize) -> String {
    format!("bundle_{index}.wasm")
}

/// Write the bundles of `plan` into `folder` (where the chunk files are), delete the chunk files
/// they hold, and return where each chunk went with `needs` restated in files to fetch. A bundle of
/// one chunk is no bundle: that file stays as it is.
pub fn write(folder: &Path, plan: &[Vec<String>], needs: &Needs) -> Result<(Vec<Part>, Needs), String> {
    let mut parts = Vec::new();
    let mut file_of: BTreeMap<&str, String> = BTreeMap::new();
    for (index, files) in plan.iter().enumerate() {
        if let [single] = files.as_slice() {
            file_of.insert(single, single.clone());
            continue;
        }
        let bundle = bundle_name(index);
        let mut bytes = Vec::new();
        for chunk in files {
            let path = folder.join(chunk);
            let module = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            parts.push(Part {
                chunk: chunk.clone(),
                bundle: bundle.clone(),
                offset: bytes.len(),
                length: module.len(),
            });
            bytes.extend_from_slice(&module);
            file_of.insert(chunk, bundle.clone());
        }
        let path = folder.join(&bundle);
        std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        for chunk in files {
            let path = folder.join(chunk);
            std::fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    let restated = needs
        .iter()
        .map(|(panel, files)| {
            let mut fetched: Vec<String> = files
                .iter()
                .map(|f| file_of.get(f.as_str()).cloned().ok_or_else(|| format!("{f} is in no bundle")))
                .collect::<Result<_, _>>()?;
            fetched.sort();
            fetched.dedup();
            Ok((panel.clone(), fetched))
        })
        .collect::<Result<_, String>>()?;
    Ok((parts, restated))
}

/// The loader of a bundled chunk's part: fetch its bundle once (the fetch is shared by every part
/// of it and, like the splitter's own loads, forgotten when it fails, so a Retry fetches anew) and
/// instantiate the part from its bytes.
const BUNDLE_LOADER: &str =
    "/* Chunks bundled into fewer files (see crates/xtask/src/chunk_bundles.rs): each bundle is fetched \
once, each chunk instantiated from its part of it. */
const bundles = new Map();
function bundlePart(file, offset, length) {
    let bytes = bundles.get(file);
    if (bytes === undefined) {
        bytes = fetch(new URL(file, import.meta.url)).then((response) => {
            if (!response.ok) throw new Error(`${file}: HTTP status code is not ok (${response.status})`);
            return response.arrayBuffer();
        });
        bytes.catch(() => { if (bundles.get(file) === bytes) bundles.delete(file); });
        bundles.set(file, bytes);
    }
    return bytes.then((buffer) => new Uint8Array(buffer, offset, length));
}
";

/// The splitter's loaders (`__wasm_split.js`) with each bundled chunk's fetch replaced by a read of
/// its part of a bundle. `Err` if a chunk's fetch is not found exactly once in the shape the
/// splitter writes, so that a new version of the splitter cannot silently load chunks that are gone.
pub fn rewrite_loader(loaders: &str, parts: &[Part]) -> Result<String, String> {
    let mut rewritten = loaders.to_string();
    for part in parts {
        let fetcher = format!(
            "const src = fetch(new URL(\"./{}\", import.meta.url));\n    src.catch(() => {{}});\n    \
             return async (imports) => (WebAssembly.instantiateStreaming(src, imports));",
            part.chunk
        );
        if rewritten.matches(&fetcher).count() != 1 {
            return Err(format!(
                "__wasm_split.js: the load of {} is not written as this build expects (see chunk_bundles::rewrite_loader)",
                part.chunk
            ));
        }
        let from_bundle = format!(
            "const src = bundlePart(\"./{}\", {}, {});\n    src.catch(() => {{}});\n    \
             return async (imports) => (WebAssembly.instantiate(await src, imports));",
            part.bundle, part.offset, part.length
        );
        rewritten = rewritten.replacen(&fetcher, &from_bundle, 1);
    }
    if parts.is_empty() {
        return Ok(rewritten);
    }
    // A module's `import` declarations hold wherever they stand, so the helper can go first.
    Ok(format!("{BUNDLE_LOADER}{rewritten}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn needs(pairs: &[(&str, &[&str])]) -> BTreeMap<String, Vec<String>> {
        pairs.iter().map(|(p, files)| (p.to_string(), files.iter().map(|f| f.to_string()).collect())).collect()
    }

    fn sizes(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
        pairs.iter().map(|(f, s)| (f.to_string(), *s)).collect()
    }

    #[test]
    fn small_chunks_that_panels_share_go_together_and_a_big_one_a_panel_does_not_need_does_not() {
        // Every panel needs the two small shared chunks; only `a` needs the big one.
        let needs = needs(&[
            ("a", &["shared_1", "shared_2", "big_a", "own_a"]),
            ("b", &["shared_1", "shared_2", "own_b"]),
            ("c", &["shared_1", "shared_2"]),
        ]);
        let sizes = sizes(&[("shared_1", 300), ("shared_2", 500), ("big_a", 90_000), ("own_a", 400), ("own_b", 200)]);
        let plan = plan(&sizes, &needs);
        let bundle_of = |file: &str| plan.iter().position(|b| b.iter().any(|f| f == file)).unwrap();
        assert_eq!(bundle_of("shared_1"), bundle_of("shared_2"));
        assert_eq!(bundle_of("big_a"), bundle_of("own_a"), "only `a` needs both: one request for it");
        assert_ne!(bundle_of("big_a"), bundle_of("shared_1"), "b and c would download 90 KB they never use");
        // Every file in exactly one bundle.
        let mut all: Vec<&String> = plan.iter().flatten().collect();
        all.sort();
        assert_eq!(all.len(), 5);
        all.dedup();
        assert_eq!(all.len(), 5);
        assert_eq!(super::plan(&sizes, &needs), plan, "the same input gives the same plan");
    }

    #[test]
    fn bundles_are_the_chunks_back_to_back_and_each_panel_fetches_the_bundles_of_its_chunks() {
        let dir = std::env::temp_dir().join(format!("xtask-bundles-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (file, bytes) in [("chunk_1.wasm", "one"), ("chunk_2.wasm", "two!"), ("split_a.wasm", "alone")] {
            std::fs::write(dir.join(file), bytes).unwrap();
        }
        let needs = needs(&[("a", &["chunk_1.wasm", "chunk_2.wasm", "split_a.wasm"]), ("b", &["chunk_2.wasm"])]);
        let plan = vec![vec!["chunk_1.wasm".to_string(), "chunk_2.wasm".to_string()], vec!["split_a.wasm".to_string()]];
        let (parts, fetched) = write(&dir, &plan, &needs).unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("bundle_0.wasm")).unwrap(), "onetwo!");
        assert!(!dir.join("chunk_1.wasm").exists() && !dir.join("chunk_2.wasm").exists());
        assert_eq!(std::fs::read_to_string(dir.join("split_a.wasm")).unwrap(), "alone", "a bundle of one stays");
        assert_eq!(
            parts,
            [
                Part { chunk: "chunk_1.wasm".into(), bundle: "bundle_0.wasm".into(), offset: 0, length: 3 },
                Part { chunk: "chunk_2.wasm".into(), bundle: "bundle_0.wasm".into(), offset: 3, length: 4 },
            ]
        );
        assert_eq!(fetched["a"], ["bundle_0.wasm", "split_a.wasm"]);
        assert_eq!(fetched["b"], ["bundle_0.wasm"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bundled_chunk_loads_its_part_and_a_loader_of_another_shape_fails_the_build() {
        let chunk = |name: &str| {
            format!(
                "const __{name} = makeLoad(() => {{\n    const src = fetch(new URL(\"./{name}.wasm\", import.meta.url));\n    \
                 src.catch(() => {{}});\n    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));\n}}\n, []);\n"
            )
        };
        let loaders = format!("import {{ initSync }} from \"./app.js\";\n{}{}", chunk("chunk_1"), chunk("split_a"));
        let parts = [Part { chunk: "chunk_1.wasm".into(), bundle: "bundle_0.wasm".into(), offset: 7, length: 42 }];
        let rewritten = rewrite_loader(&loaders, &parts).unwrap();
        assert!(rewritten.contains("const src = bundlePart(\"./bundle_0.wasm\", 7, 42);"), "{rewritten}");
        assert!(rewritten.contains("WebAssembly.instantiate(await src, imports)"), "{rewritten}");
        assert!(!rewritten.contains("./chunk_1.wasm"), "{rewritten}");
        // The chunk left alone still streams from its own file.
        assert!(rewritten.contains("fetch(new URL(\"./split_a.wasm\", import.meta.url))"), "{rewritten}");
        assert!(rewritten.find("function bundlePart").unwrap() < rewritten.find("const __chunk_1").unwrap());
        // A chunk the loader does not fetch as expected fails the build.
        let missing = [Part { chunk: "chunk_9.wasm".into(), bundle: "bundle_0.wasm".into(), offset: 0, length: 1 }];
        assert!(rewrite_loader(&loaders, &missing).unwrap_err().contains("chunk_9.wasm"));
        assert_eq!(rewrite_loader(&loaders, &[]).unwrap(), loaders);
    }
}
