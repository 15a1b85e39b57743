//! Statements the texts once got wrong, each checked against the code it describes: a chapter or
//! label that says it again fails here.

use experiments::catalog::ExperimentId;
use std::path::{Path, PathBuf};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The text of `slug` in `lang`.
fn text_of(lang: &str, slug: &str) -> String {
    let path = repository().join(format!("content/{lang}/{slug}.md"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The chapter that shows `experiment`, in `lang`.
fn chapter_of(lang: &str, experiment: ExperimentId) -> String {
    text_of(lang, experiment.experiment().chapter)
}

/// The texts once called the chunked sort's second step "one final pass"; it is a whole bubble
/// sort of the list, which after 4 sorted chunks still takes about three quarters of n passes.
#[test]
fn the_chunked_sorts_second_step_is_a_whole_sort_and_no_text_calls_it_one_pass() {
    // The fact, from the sort itself: 1,000 shuffled values in 4 sorted chunks, then the whole list.
    let n = 1_000usize;
    let mut state = 0x2545_f491_u32;
    let mut values: Vec<i32> = (0..n as i32).collect();
    for i in (1..n).rev() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        values.swap(i, state as usize % (i + 1));
    }
    for range in workloads::sort::chunk_ranges(n, 4) {
        assert!(workloads::sort::bubble_sort(&mut values[range], || true));
    }
    let mut passes = 0;
    assert!(workloads::sort::bubble_sort(&mut values, || {
        passes += 1;
        true
    }));
    assert!(passes > n / 2, "the second step took {passes} passes of {n} values");

    // No label or chapter says otherwise: each language's words for "one final pass" (the
    // wordings the texts used).
    let one_pass: [(&str, &[&str]); 5] = [
        ("en", &["final pass"]),
        ("ru", &["финальный проход", "последний проход", "последнему проходу"]),
        ("zh", &["最后一趟", "最后一遍", "整体一趟"]),
        ("ja", &["最終パス", "最後のパス"]),
        ("hi", &["अंतिम पास"]),
    ];
    let languages: Vec<&str> = ui_text::tables().iter().map(|(lang, _)| *lang).collect();
    assert_eq!(one_pass.map(|(lang, _)| lang).to_vec(), languages, "a wording for every language of the site");
    for (lang, phrases) in one_pass {
        let label = ui_text::table(lang).expect("a language of the site").sort_chunked;
        let text = chapter_of(lang, ExperimentId::BubbleSort);
        for phrase in phrases {
            assert!(!label.contains(phrase), "{lang}: the chunked sort's label says \"{phrase}\": {label}");
            assert!(!text.contains(phrase), "content/{lang}/bubble-sort.md says \"{phrase}\"");
        }
    }
}

/// The hashing chapter once said the native build uses SHA-256 instructions "on recent x86 and ARM
/// chips". sha2 reaches ARM's SHA instructions only with its `asm` feature; while the workloads
/// crate leaves it off, only x86's SHA-NI is used, and no chapter may list ARM beside x86.
#[test]
fn the_hashing_chapter_names_only_the_sha_instructions_the_native_build_uses() {
    let manifest = std::fs::read_to_string(repository().join("crates/workloads/Cargo.toml")).unwrap();
    let sha2 = manifest.lines().find(|line| line.trim_start().starts_with("sha2")).expect("workloads depends on sha2");
    let arm_instructions = sha2.contains("\"asm\"");
    let x86_and_arm = regex::Regex::new(r"x86\s*(and|и|和|や|और)\s*ARM").unwrap();
    for (lang, _) in ui_text::tables() {
        let text = chapter_of(lang, ExperimentId::Hashing);
        let paragraph = text
            .split("\n\n")
            .find(|p| p.contains("`lab hash`") && p.contains("WebAssembly"))
            .expect("a paragraph on `lab hash` against WebAssembly");
        assert!(paragraph.contains("SHA-NI"), "content/{lang}/hashing.md names x86's SHA-NI beside `lab hash`");
        if !arm_instructions {
            assert!(!x86_and_arm.is_match(paragraph), "content/{lang}/hashing.md lists ARM beside x86: {paragraph}");
        }
    }
}

/// "How the lab works" lists the doubts a row's note can name; each name must be the one the
/// interface shows on the note's line (a reader looks the word up there).
#[test]
fn how_the_lab_works_names_the_doubts_as_the_interface_does() {
    for (lang, ui) in ui_text::tables() {
        let text = text_of(lang, "how-the-lab-works");
        let section = text.split("{#doubts}").nth(1).expect("a section on doubts");
        let labels: Vec<&str> = section
            .lines()
            .filter_map(|line| line.strip_prefix("- **")?.split_once("**").map(|(label, _)| label))
            .take(2)
            .collect();
        let noisy = ui.note_short_noisy.split([':', '：']).next().unwrap();
        assert_eq!(labels.first(), Some(&noisy), "content/{lang}/how-the-lab-works.md names the noisy doubt");
        let busy = labels.get(1).expect("the busy doubt is listed");
        assert!(
            ui.note_short_busy.contains(busy) && ui.note_short_busy_during.contains(busy),
            "content/{lang}/how-the-lab-works.md calls the busy doubt \"{busy}\"; the interface: \"{}\", \"{}\"",
            ui.note_short_busy,
            ui.note_short_busy_during
        );
    }
}
