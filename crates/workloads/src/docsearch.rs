//! The document search of the IO-bound chapters: a seeded corpus of RSS documents, and counting
//! the items whose description mentions a topic, parsed with quick-xml.
//!
//! Reading a document is simulated elsewhere (a wait of a chosen latency); this module only makes
//! the documents and parses them, so the same code serves the sequential, thread and task variants.

use quick_xml::events::Event;
use quick_xml::Reader;
use rand_core::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The word the chapters search for.
pub const DEFAULT_TOPIC: &str = "scheduler";

const WORDS: &[&str] = &[
    "kernel", "thread", "queue", "latency", "memory", "cache", "worker", "socket", "buffer", "signal", "process",
    "timer", "channel", "mutex", "counter", "request", "packet", "disk", "page", "stack", "heap", "core", "clock",
    "batch", "stream", "event", "poll", "lock", "atomic", "fence",
];

/// Generated documents and the answer a correct search must find.
pub struct Corpus {
    pub documents: Vec<String>,
    /// Items whose description contains the topic, over all well-formed documents.
    pub expected_matches: u64,
    /// How many documents were deliberately broken (each must be reported as an error).
    pub malformed: u32,
}

/// A document the parser could not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchError(pub String);

fn sentence(rng: &mut Pcg64Mcg, words: u32) -> Vec<&'static str> {
    (0..words).map(|_| WORDS[(rng.next_u32() as usize) % WORDS.len()]).collect()
}

/// `count` RSS documents of 3–6 items each. About one description in four mentions `topic` (in
/// varying case); some titles mention it too, which must *not* count. With `malformed_every = Some(n)`,
/// every n-th document is cut off in the middle, as a broken download would be.
pub fn generate_corpus(count: usize, seed: u64, topic: &str, malformed_every: Option<usize>) -> Corpus {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut documents = Vec::with_capacity(count);
    let mut expected_matches = 0;
    let mut malformed = 0;
    for index in 0..count {
        let mut doc = String::with_capacity(2048);
        let mut matches = 0;
        doc.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel>");
        doc.push_str(&format!("<title>Feed {index}: {}</title>", sentence(&mut rng, 3).join(" ")));
        for item in 0..3 + rng.next_u32() % 4 {
            let mut title = sentence(&mut rng, 4);
            if rng.next_u32() % 5 == 0 {
                title.push(topic); // a topic in a title only: not a match
            }
            let length = 8 + rng.next_u32() % 12;
            let mut description = sentence(&mut rng, length);
            let mentions = rng.next_u32() % 4 == 0;
            let upper;
            if mentions {
                let at = (rng.next_u32() as usize) % description.len();
                // ASCII, as the search compares: `to_uppercase` would bring Unicode's case tables
                // into the engine's module (2 KB of gzip) for a topic that is ASCII.
                upper = topic.to_ascii_uppercase();
                description.insert(at, if rng.next_u32() % 2 == 0 { topic } else { &upper });
                matches += 1;
            }
            doc.push_str(&format!(
                "<item><title>{}</title><link>https://example.org/{index}/{item}</link><description>{} &amp; {}</description></item>",
                title.join(" "),
                description.join(" "),
                sentence(&mut rng, 2).join(" "),
            ));
        }
        doc.push_str("</channel></rss>");
        if malformed_every.is_some_and(|n| n > 0 && index % n == n - 1) {
            doc.truncate(doc.len() * 2 / 3);
            malformed += 1;
        } else {
            expected_matches += matches;
        }
        documents.push(doc);
    }
    Corpus { documents, expected_matches, malformed }
}

/// Whether `text` contains `word`, ignoring ASCII case. Compares in place: lower-cased copies would
/// cost two allocations per description, and allocations are what keeps a search from scaling on
/// more workers (in wasm every allocation takes the one lock of the module's allocator).
fn contains_ignoring_ascii_case(text: &str, word: &str) -> bool {
    word.is_empty() || text.as_bytes().windows(word.len()).any(|window| window.eq_ignore_ascii_case(word.as_bytes()))
}

/// Count the `<item>`s whose `<description>` contains `topic` (ASCII case-insensitive).
pub fn count_matching_items(document: &str, topic: &str) -> Result<u32, SearchError> {
    let mut reader = Reader::from_str(document);
    let mut depth = 0usize;
    let mut in_item = false;
    let mut in_description = false;
    // One allocation per document: the generated descriptions stay well under this.
    let mut text = String::with_capacity(256);
    let mut matches = 0;
    loop {
        let event =
            reader.read_event().map_err(|e| SearchError(format!("at byte {}: {e}", reader.buffer_position())))?;
        match event {
            Event::Start(start) => {
                depth += 1;
                match start.name().as_ref() {
                    "item" => in_item = true,
                    "description" if in_item => {
                        in_description = true;
                        text.clear();
                    }
                    _ => {}
                }
            }
            Event::End(end) => {
                depth = depth.saturating_sub(1);
                match end.name().as_ref() {
                    "item" => in_item = false,
                    "description" if in_description => {
                        in_description = false;
                        if contains_ignoring_ascii_case(&text, topic) {
                            matches += 1;
                        }
                    }
                    _ => {}
                }
            }
            Event::Text(t) if in_description => text.push_str(&t.xml10_content()),
            Event::CData(c) if in_description => text.push_str(&c.into_inner()),
            // An entity such as &amp; splits the text; keep words apart.
            Event::GeneralRef(_) if in_description => text.push(' '),
            Event::Eof if depth > 0 => return Err(SearchError("the document ends inside an element".into())),
            Event::Eof => return Ok(matches),
            _ => {}
        }
    }
}

/// Search every document: total matches and how many documents could not be parsed.
pub fn search_all(documents: &[String], topic: &str) -> (u64, u32) {
    documents.iter().fold((0, 0), |(found, errors), doc| match count_matching_items(doc, topic) {
        Ok(n) => (found + n as u64, errors),
        Err(_) => (found, errors + 1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsed_counts_equal_the_generators_ground_truth() {
        for seed in [1, 2, 3] {
            let corpus = generate_corpus(300, seed, DEFAULT_TOPIC, None);
            let (found, errors) = search_all(&corpus.documents, DEFAULT_TOPIC);
            assert_eq!(errors, 0);
            assert_eq!(found, corpus.expected_matches, "seed {seed}");
            assert!(corpus.expected_matches > 100, "the corpus has plenty of matches");
        }
    }

    #[test]
    fn matches_are_case_insensitive_and_only_in_descriptions() {
        let doc = "<rss><channel><title>scheduler</title>\
            <item><title>SCHEDULER in title only</title><description>nothing here</description></item>\
            <item><title>x</title><description>the Scheduler &amp; more</description></item>\
            <item><title>y</title><description><![CDATA[a scheduler inside cdata]]></description></item>\
            </channel></rss>";
        assert_eq!(count_matching_items(doc, "scheduler"), Ok(2));
    }

    #[test]
    fn the_in_place_comparison_ignores_case_on_both_sides_and_nothing_else() {
        assert!(contains_ignoring_ascii_case("the Go SCHEDULER runs", "scheduler"));
        assert!(contains_ignoring_ascii_case("the go scheduler", "SchedULER"));
        assert!(contains_ignoring_ascii_case("scheduler", "scheduler"));
        assert!(!contains_ignoring_ascii_case("schedule", "scheduler"), "a word longer than the text");
        assert!(!contains_ignoring_ascii_case("sch eduler", "scheduler"));
        assert!(!contains_ignoring_ascii_case("", "scheduler"));
        assert!(contains_ignoring_ascii_case("anything", ""), "as str::contains, the empty word is everywhere");
        assert_eq!(
            count_matching_items("<rss><item><description>a SCHEDULER</description></item></rss>", "Scheduler"),
            Ok(1)
        );
    }

    #[test]
    fn a_malformed_document_is_an_error_not_a_panic() {
        let corpus = generate_corpus(100, 9, DEFAULT_TOPIC, Some(10));
        assert_eq!(corpus.malformed, 10);
        let (found, errors) = search_all(&corpus.documents, DEFAULT_TOPIC);
        assert_eq!(errors, 10);
        assert_eq!(found, corpus.expected_matches, "broken documents are skipped, the rest still count");
        for broken in ["<rss><item><description>scheduler</description></itme></rss>", "<rss><item", "", "<a></b>"] {
            let result = count_matching_items(broken, "scheduler");
            assert!(result.is_err() || broken.is_empty(), "{broken:?} gave {result:?}");
        }
    }

    #[test]
    fn same_seed_same_corpus() {
        let a = generate_corpus(20, 4, DEFAULT_TOPIC, None);
        let b = generate_corpus(20, 4, DEFAULT_TOPIC, None);
        assert_eq!(a.documents, b.documents);
        assert_eq!(a.expected_matches, b.expected_matches);
    }
}
