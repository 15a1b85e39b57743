//! The code beside an experiment's result, folded: the Rust kernel the engine really runs (extracted
//! from the crates' own source at build time, see `build.rs`) and Go written for the same idea, each
//! part with its line count, so the reader can weigh what the concurrent version's extra lines buy.

use crate::code_listings::{listing, Part, Role};
use crate::i18n::{message, ui, Arg};
use experiments::catalog::ExperimentId;
use leptos::prelude::*;

/// A marked region of source, as the build script extracted it.
pub struct Region {
    /// The name after `// lesson-code:`.
    pub marker: &'static str,
    /// The file it comes from, relative to the repository.
    pub file: &'static str,
    /// Its lines, without the indentation they share.
    pub text: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/code.rs"));

/// The lines of `code` a reader counts: neither blank nor only a `//` comment.
pub fn code_lines(code: &str) -> usize {
    code.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with("//")).count()
}

fn region(regions: &'static [Region], marker: &str) -> Option<&'static Region> {
    regions.iter().find(|r| r.marker == marker)
}

/// The reader's name of a part's role.
fn role_label(role: Role) -> &'static str {
    let t = ui();
    match role {
        Role::Sequential => t.code_role_sequential,
        Role::Pool => t.code_role_pool,
        Role::Goroutines => t.code_role_goroutines,
        Role::Shared => t.code_role_shared,
        Role::Both => t.code_role_both,
        Role::ModelLoop => t.code_role_model_loop,
        Role::ModelSteps => t.code_role_model_steps,
    }
}

fn role_id(role: Role) -> &'static str {
    match role {
        Role::Sequential => "sequential",
        Role::Pool => "pool",
        Role::Goroutines => "goroutines",
        Role::Shared => "shared",
        Role::Both => "both",
        Role::ModelLoop => "model-loop",
        Role::ModelSteps => "model-steps",
    }
}

/// One language's listing: every part under its role and file, then the parts' line counts.
fn language_listing(
    language: &'static str,
    heading: &'static str,
    parts: &[Part],
    regions: &'static [Region],
) -> AnyView {
    let shown: Vec<(Role, &'static Region)> =
        parts.iter().filter_map(|part| region(regions, part.marker).map(|r| (part.role, r))).collect();
    let counts: Vec<AnyView> = shown
        .iter()
        .map(|&(role, region)| {
            let lines = code_lines(region.text);
            let text =
                message(ui().code_count, &[("role", Arg::Text(role_label(role))), ("lines", Arg::Count(lines as u64))]);
            view! { <li data-role=role_id(role) data-lines=lines>{text}</li> }.into_any()
        })
        .collect();
    let parts_view: Vec<AnyView> = shown
        .into_iter()
        .map(|(role, region)| {
            let label = role_label(role);
            view! {
                <figure class="code-part" data-role=role_id(role)>
                    <figcaption>{label}" · "<span class="code-file">{region.file}</span></figcaption>
                    <pre tabindex="0" aria-label=label data-file=region.file><code>{region.text}</code></pre>
                </figure>
            }
            .into_any()
        })
        .collect();
    view! {
        <div class="code-listing" data-language=language>
            <h3>{heading}</h3>
            {parts_view}
            <ul class="code-counts">{counts}</ul>
        </div>
    }
    .into_any()
}

/// The folded code of `experiment`, or nothing for an experiment without a listing.
#[component]
pub fn CodeView(experiment: ExperimentId) -> impl IntoView {
    let t = ui();
    listing(experiment).map(|listing| {
        let (rust_heading, weigh) = if listing.is_model() {
            (t.code_rust_heading_model, t.code_weigh_model)
        } else {
            (t.code_rust_heading, t.code_weigh)
        };
        view! {
            <details class="code-view" data-testid="code-view">
                <summary>{t.code_summary}</summary>
                <div class="code-columns">
                    {language_listing("rust", rust_heading, listing.rust, RUST_CODE)}
                    {language_listing("go", t.code_go_heading, listing.go, GO_CODE)}
                </div>
                <p class="code-weigh">{weigh}</p>
            </details>
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code_listings::LISTINGS;
    use experiments::catalog::{Runs, CATALOG};

    #[test]
    fn only_the_model_the_page_runs_is_shown_as_a_model() {
        for listing in LISTINGS {
            let on_page = CATALOG.iter().any(|e| e.id == listing.experiment && e.runs == Runs::Page);
            assert_eq!(listing.is_model(), on_page, "`{}`", listing.experiment);
        }
    }

    #[test]
    fn every_experiment_has_a_listing() {
        for experiment in CATALOG {
            let listing =
                listing(experiment.id).unwrap_or_else(|| panic!("`{}` has no code listing", experiment.name()));
            assert!(!listing.rust.is_empty() && !listing.go.is_empty(), "`{}` shows Rust and Go", experiment.name());
        }
        for listing in LISTINGS {
            assert!(
                CATALOG.iter().any(|e| e.id == listing.experiment),
                "`{}` is not in the catalog",
                listing.experiment
            );
        }
    }

    #[test]
    fn every_part_was_extracted_and_has_code() {
        for listing in LISTINGS {
            for (parts, regions) in [(listing.rust, RUST_CODE), (listing.go, GO_CODE)] {
                for part in parts {
                    let region =
                        region(regions, part.marker).unwrap_or_else(|| panic!("`{}` not extracted", part.marker));
                    assert!(code_lines(region.text) > 0, "`{}` has code", part.marker);
                    assert!(!region.text.contains("lesson-code"), "`{}` holds no marker", part.marker);
                }
            }
        }
    }

    #[test]
    fn the_rust_shown_is_in_its_source_file() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for region in RUST_CODE.iter().chain(GO_CODE) {
            let source = std::fs::read_to_string(root.join(region.file)).unwrap();
            let lines: Vec<&str> = region.text.lines().collect();
            let found = source.lines().collect::<Vec<_>>().windows(lines.len()).any(|window| {
                let indent = window[0].len() - window[0].trim_start().len();
                window.iter().zip(&lines).all(|(s, l)| s.get(indent..).unwrap_or("").trim_end() == *l)
            });
            assert!(found, "`{}` is found verbatim (but for its indentation) in {}", region.marker, region.file);
        }
    }

    #[test]
    fn counts_skip_blank_and_comment_lines() {
        assert_eq!(code_lines("fn a() {\n\n    // why\n    b(); // how\n}\n"), 3);
        assert_eq!(code_lines(""), 0);
        assert_eq!(code_lines("/// doc\n//! module\n"), 0);
    }
}
