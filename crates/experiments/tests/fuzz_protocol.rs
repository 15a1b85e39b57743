//! The UI⇄engine protocol, fuzzed: whatever text reaches the engine as a request (random strings,
//! mutated valid requests, huge, negative, fractional or missing numbers, deep nesting), it is
//! either refused with a message or parsed; a parsed run is either accepted, every job within the
//! limits, or refused with a message. Nothing panics.
//!
//! Requests and their enums are in serde's externally tagged form: a variant is an object of one
//! key, its name (`{"run": {"run_id": 1, "jobs": […]}}`, a workload `{"sum": {"numbers": …}}`, a
//! source `{"generated": {…}}`), or its name alone when it carries nothing (`"status"`,
//! `"task_memory"`). A request in the internally tagged form of earlier builds (`{"type": "run", …}`,
//! `{"kind": "sum", …}`, `{"from": "generated", …}`) is refused.

use experiments::protocol::Request;
use experiments::{HashSource, Job, ScenarioKind, SortAlgorithm, Variant, Workload};
use proptest::prelude::*;
use proptest::test_runner::RngAlgorithm;
use serde_json::{json, Value};

/// What the engine's coordinator does with a request's text (`engine/src/web/mod.rs`).
#[derive(Debug, PartialEq)]
enum Answer {
    /// A run whose every job passed `Job::validate`: the engine starts it.
    Runs(usize),
    /// A run with a job beyond the limits: `Failed { message }`.
    Fails(String),
    Stops,
    Reports,
    /// Not a request at all.
    Refused(String),
}

fn answer(text: &str) -> Answer {
    match Request::from_json(text) {
        Ok(Request::Run { jobs, .. }) => match jobs.iter().find_map(|job| job.validate().err()) {
            Some(message) => Answer::Fails(message),
            None => Answer::Runs(jobs.len()),
        },
        Ok(Request::Stop { .. }) => Answer::Stops,
        Ok(Request::Status) => Answer::Reports,
        Err(message) => Answer::Refused(message),
    }
}

/// The property every request text must meet.
fn check(text: &str) -> Result<(), TestCaseError> {
    match answer(text) {
        Answer::Fails(message) | Answer::Refused(message) => {
            prop_assert!(!message.trim().is_empty(), "a refusal says why: {text:?}")
        }
        Answer::Runs(_) | Answer::Stops | Answer::Reports => {
            // What parsed survives the trip back to JSON unchanged.
            let request = Request::from_json(text).unwrap();
            prop_assert_eq!(Request::from_json(&request.to_json()), Ok(request));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Valid requests, from any values (most jobs beyond the limits, some within).

/// Strings matching `pattern`, parsed once (a `&str` strategy parses it again for every value).
fn regex(pattern: &str) -> proptest::string::RegexGeneratorStrategy<String> {
    proptest::string::string_regex(pattern).expect("a valid pattern")
}

/// Any text of up to `max` characters (control characters, astral planes and all).
fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(any::<char>(), 0..=max).prop_map(String::from_iter)
}

fn number() -> impl Strategy<Value = u32> {
    prop_oneof![0u32..=3, 0u32..=100, 0u32..=100_000, any::<u32>(), Just(u32::MAX)]
}

fn big() -> impl Strategy<Value = u64> {
    prop_oneof![0u64..=3, 0u64..=100_000_000, any::<u64>(), Just(u64::MAX)]
}

fn workload() -> impl Strategy<Value = Workload> {
    prop_oneof![
        (big(), any::<u64>()).prop_map(|(numbers, seed)| Workload::Sum { numbers, seed }),
        number().prop_map(|units| Workload::Spin { units }),
        (number(), number(), any::<u64>()).prop_map(|(documents, latency_us, seed)| Workload::DocSearch {
            documents,
            latency_us,
            seed
        }),
        (
            number(),
            any::<u64>(),
            prop::sample::select(vec![
                SortAlgorithm::Bubble,
                SortAlgorithm::ChunkedBubble,
                SortAlgorithm::OddEven,
                SortAlgorithm::Merge,
            ])
        )
            .prop_map(|(numbers, seed, algorithm)| Workload::Sort { numbers, seed, algorithm }),
        prop::sample::select(ScenarioKind::ALL.to_vec()).prop_map(|scenario| Workload::Scenario { scenario }),
        number().prop_map(|sqrt| Workload::Granularity { sqrt }),
        Just(Workload::TaskMemory),
        number().prop_map(|round_trips| Workload::PingPong { round_trips }),
        (big(), any::<u64>(), text(20), any::<bool>(), number()).prop_map(|(bytes, seed, name, file, slice_bytes)| {
            let source = if file { HashSource::File { name, bytes } } else { HashSource::Generated { bytes, seed } };
            Workload::Hash { source, slice_bytes }
        }),
        (number(), number(), number(), number()).prop_map(|(requests, concurrency, work_us, wait_us)| Workload::Qps {
            requests,
            concurrency,
            work_us,
            wait_us
        }),
    ]
}

fn job() -> impl Strategy<Value = Job> {
    (
        workload(),
        prop::sample::select(vec![Variant::Sequential, Variant::ThreadPool, Variant::Goroutines]),
        number(),
        number(),
        number(),
    )
        .prop_map(|(workload, variant, workers, tasks, repetitions)| Job {
            workload,
            variant,
            workers,
            tasks,
            repetitions,
        })
}

fn request() -> impl Strategy<Value = Request> {
    prop_oneof![
        8 => (any::<u64>(), prop::collection::vec(job(), 0..6))
            .prop_map(|(run_id, jobs)| Request::Run { run_id, jobs }),
        1 => any::<u64>().prop_map(|run_id| Request::Stop { run_id }),
        1 => Just(Request::Status),
    ]
}

// ---------------------------------------------------------------------------------------------
// Mutations of a valid request's JSON.

/// A value to put where a number (or anything) was: the boundaries of every integer type, floats,
/// strings that look like numbers, wrong types.
fn odd_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(vec![
            json!(-1),
            json!(0),
            json!(-0.0),
            json!(0.5),
            json!(1.5e300),
            json!(-1.5e300),
            json!(u32::MAX),
            json!(u32::MAX as u64 + 1),
            json!(u64::MAX),
            json!(i64::MIN),
            json!(null),
            json!(true),
            json!("NaN"),
            json!("Infinity"),
            json!("-1"),
            json!("1e400"),
            json!("<script>alert(1)</script>"),
            json!([]),
            json!({}),
            json!([1, 2, 3]),
            // A workload where something else was (or another workload), in the form of now, a
            // unit variant's name where a struct variant was, and the form of earlier builds.
            json!({"sum": {"numbers": 1, "seed": 1}}),
            json!("task_memory"),
            json!({"kind": "sum", "numbers": 1, "seed": 1}),
        ]),
        any::<i64>().prop_map(|v| json!(v)),
        any::<f64>().prop_map(|v| serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)),
        text(12).prop_map(Value::String),
    ]
}

/// One change to a JSON tree, at the `at`-th node (in pre-order).
#[derive(Clone, Debug)]
enum Mutation {
    /// Put another value in that node's place.
    Replace(usize, Value),
    /// Remove one key of that object (a missing field).
    RemoveKey(usize, usize),
    /// Add an unknown key, or a known one with an odd value (beside a variant's tag: a second tag).
    AddKey(usize, String, Value),
    /// Rename an enum's tag: the one key of an object (an externally tagged variant such as
    /// `{"run": {…}}`, or a one-field struct), or a string (a unit variant such as `"status"` or
    /// `"task_memory"`, a `variant`, `algorithm` or `scenario`).
    Retag(usize, String),
    /// Wrap the node in `depth` arrays.
    Nest(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    let key = prop_oneof![
        prop::sample::select(vec!["type", "kind", "from", "stop", "sum", "workers"]).prop_map(str::to_string),
        regex("[a-z_]{1,10}"),
    ];
    let tag = prop_oneof![
        prop::sample::select(vec![
            "run",
            "stop",
            "status",
            "sum",
            "task_memory",
            "hash",
            "generated",
            "file",
            "goroutines",
            "tasks",
            "type",
            "kind",
            "RUN",
        ])
        .prop_map(str::to_string),
        text(10),
    ];
    prop_oneof![
        4 => (at, odd_value()).prop_map(|(at, v)| Mutation::Replace(at, v)),
        2 => (at, any::<usize>()).prop_map(|(at, k)| Mutation::RemoveKey(at, k)),
        1 => (at, key, odd_value()).prop_map(|(at, k, v)| Mutation::AddKey(at, k, v)),
        2 => (at, tag).prop_map(|(at, tag)| Mutation::Retag(at, tag)),
        1 => (at, 1usize..300).prop_map(|(at, depth)| Mutation::Nest(at, depth)),
    ]
}

/// The `at`-th node of `value` in pre-order (modulo the node count).
fn node_mut(value: &mut Value, at: usize) -> &mut Value {
    fn count(v: &Value) -> usize {
        1 + match v {
            Value::Array(items) => items.iter().map(count).sum(),
            Value::Object(map) => map.values().map(count).sum(),
            _ => 0,
        }
    }
    fn find(v: &mut Value, mut at: usize) -> Result<&mut Value, usize> {
        if at == 0 {
            return Ok(v);
        }
        at -= 1;
        let children: Vec<&mut Value> = match v {
            Value::Array(items) => items.iter_mut().collect(),
            Value::Object(map) => map.values_mut().collect(),
            _ => Vec::new(),
        };
        for child in children {
            match find(child, at) {
                Ok(found) => return Ok(found),
                Err(left) => at = left,
            }
        }
        Err(at)
    }
    let n = count(value);
    match find(value, at % n) {
        Ok(found) => found,
        Err(_) => unreachable!("at % n is a node"),
    }
}

fn mutate(value: &mut Value, mutation: &Mutation) {
    match mutation {
        Mutation::Replace(at, new) => *node_mut(value, *at) = new.clone(),
        Mutation::RemoveKey(at, k) => {
            if let Value::Object(map) = node_mut(value, *at) {
                if let Some(key) = map.keys().nth(k % map.len().max(1)).cloned() {
                    map.remove(&key);
                }
            }
        }
        Mutation::AddKey(at, key, new) => {
            if let Value::Object(map) = node_mut(value, *at) {
                map.insert(key.clone(), new.clone());
            }
        }
        Mutation::Retag(at, tag) => match node_mut(value, *at) {
            Value::Object(map) if map.len() == 1 => {
                let key = map.keys().next().cloned().expect("one key");
                let inner = map.remove(&key).expect("its value");
                map.insert(tag.clone(), inner);
            }
            name @ Value::String(_) => *name = Value::String(tag.clone()),
            _ => {}
        },
        Mutation::Nest(at, depth) => {
            let node = node_mut(value, *at);
            let mut nested = node.take();
            for _ in 0..*depth {
                nested = Value::Array(vec![nested]);
            }
            *node = nested;
        }
    }
}

/// Text-level damage: cut, duplicate a key's text, insert a character, drop one.
#[derive(Clone, Debug)]
enum Damage {
    Cut(usize),
    Insert(usize, char),
    Drop(usize),
    DuplicateTail(usize),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        any::<usize>().prop_map(Damage::Cut),
        (
            any::<usize>(),
            prop_oneof![
                prop::sample::select(vec!['"', '{', '}', '[', ']', ',', ':', '\\', '-', '0', 'e', '.']),
                any::<char>()
            ]
        )
            .prop_map(|(at, c)| Damage::Insert(at, c)),
        any::<usize>().prop_map(Damage::Drop),
        any::<usize>().prop_map(Damage::DuplicateTail),
    ]
}

fn damaged(text: &str, damage: &Damage) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| i % (chars.len() + 1);
    let mut out = chars.clone();
    match *damage {
        Damage::Cut(i) => out.truncate(at(i)),
        Damage::Insert(i, c) => out.insert(at(i), c),
        Damage::Drop(i) => {
            if !out.is_empty() {
                out.remove(i % out.len());
            }
        }
        Damage::DuplicateTail(i) => {
            let tail: Vec<char> = chars[at(i)..].to_vec();
            out.splice(at(i)..at(i), tail);
        }
    }
    out.into_iter().collect()
}

/// Nesting far past any parser's comfort, of arrays, objects, or a request's own fields.
fn deep() -> impl Strategy<Value = String> {
    (1usize..20_000, 0usize..4).prop_map(|(depth, shape)| match shape {
        0 => format!("{}{}", "[".repeat(depth), "]".repeat(depth)),
        1 => format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth)),
        2 => format!("{{\"run\":{{\"run_id\":1,\"jobs\":{}{}}}}}", "[".repeat(depth), "]".repeat(depth)),
        _ => "[".repeat(depth),
    })
}

/// Any request text: valid, mutated, damaged, deep, or random.
fn request_text() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => request().prop_map(|r| r.to_json()),
        4 => (request(), prop::collection::vec(mutation(), 1..4)).prop_map(|(r, mutations)| {
            let mut value = serde_json::to_value(&r).expect("a request is JSON");
            for m in &mutations {
                mutate(&mut value, m);
            }
            serde_json::to_string(&value).expect("a mutated tree is still JSON")
        }),
        2 => (request(), damage()).prop_map(|(r, d)| damaged(&r.to_json(), &d)),
        1 => deep(),
        2 => text(200),
        1 => regex("[\\[\\]{}\",:0-9a-z\\- ]{0,80}"),
    ]
}

proptest! {
    // XorShift: the default ChaCha generator takes most of the time of a debug build.
    #![proptest_config(ProptestConfig { rng_algorithm: RngAlgorithm::XorShift, ..ProptestConfig::with_cases(10_000) })]

    /// Every request text is answered (run, failed with a reason, stop, status) or refused with a
    /// message, and nothing panics.
    #[test]
    fn every_request_is_answered_or_refused(text in request_text()) {
        check(&text)?;
    }

}

proptest! {
    #![proptest_config(ProptestConfig { rng_algorithm: RngAlgorithm::XorShift, ..ProptestConfig::with_cases(2_000) })]

    /// A run of jobs within the limits starts; any job beyond them fails the run with a message.
    #[test]
    fn a_parsed_run_starts_only_if_every_job_is_valid(
        run_id in any::<u64>(),
        jobs in prop::collection::vec(job(), 1..5),
    ) {
        let text = Request::Run { run_id, jobs: jobs.clone() }.to_json();
        let all_valid = jobs.iter().all(|job| job.validate().is_ok());
        match answer(&text) {
            Answer::Runs(n) => prop_assert!(all_valid && n == jobs.len()),
            Answer::Fails(message) => prop_assert!(!all_valid && !message.is_empty()),
            other => prop_assert!(false, "{other:?}"),
        }
    }
}

/// An externally tagged variant (`{"name": {fields}}`, or `"name"` alone) in the internally tagged
/// form of earlier builds: `{key: "name", fields…}`.
fn internally_tagged(variant: &Value, key: &str) -> Value {
    let (name, fields) = match variant {
        Value::String(name) => (name.clone(), serde_json::Map::new()),
        Value::Object(map) if map.len() == 1 => {
            let (name, fields) = map.iter().next().expect("one key");
            (name.clone(), fields.as_object().cloned().expect("a struct variant's fields"))
        }
        other => panic!("not an externally tagged variant: {other}"),
    };
    let mut old = fields;
    old.insert(key.to_string(), Value::String(name));
    Value::Object(old)
}

proptest! {
    #![proptest_config(ProptestConfig { rng_algorithm: RngAlgorithm::XorShift, ..ProptestConfig::with_cases(2_000) })]

    /// A request in the form of earlier builds (what a page of another build would send) is refused
    /// with a message, never read as another request: the whole request internally tagged
    /// (`{"type": "run", "run_id": …}`), or only one job's workload (`{"kind": "sum", …}`), or only
    /// one hash job's source (`{"from": "generated", …}`).
    #[test]
    fn a_request_in_the_old_tagged_form_is_refused(request in request(), which in 0usize..3, pick in any::<usize>()) {
        let mut value = serde_json::to_value(&request).expect("a request is JSON");
        let jobs: Vec<usize> = match &request {
            Request::Run { jobs, .. } => (0..jobs.len()).collect(),
            _ => Vec::new(),
        };
        let hash_jobs: Vec<usize> = match &request {
            Request::Run { jobs, .. } => jobs
                .iter()
                .enumerate()
                .filter(|(_, job)| matches!(job.workload, Workload::Hash { .. }))
                .map(|(i, _)| i)
                .collect(),
            _ => Vec::new(),
        };
        let what = if which == 2 && !hash_jobs.is_empty() {
            let job = &mut value["run"]["jobs"][hash_jobs[pick % hash_jobs.len()]];
            job["workload"]["hash"]["source"] = internally_tagged(&job["workload"]["hash"]["source"], "from");
            "a source"
        } else if which >= 1 && !jobs.is_empty() {
            let job = &mut value["run"]["jobs"][jobs[pick % jobs.len()]];
            job["workload"] = internally_tagged(&job["workload"], "kind");
            "a workload"
        } else {
            value = internally_tagged(&value, "type");
            "the request"
        };
        let text = serde_json::to_string(&value).expect("still JSON");
        match answer(&text) {
            Answer::Refused(message) => prop_assert!(!message.trim().is_empty(), "a refusal says why: {text}"),
            other => prop_assert!(false, "{what} in the old form was read as {other:?}: {text}"),
        }
    }
}

/// A run request of the one job `job` (JSON text as is).
fn run_of(job: &str) -> String {
    format!(r#"{{"run":{{"run_id":1,"jobs":[{job}]}}}}"#)
}

/// A run request of one Sum job: `numbers` and `rest` are JSON text as is.
fn sum_run(numbers: &str, rest: &str) -> String {
    run_of(&format!(r#"{{"workload":{{"sum":{{{numbers}"seed":1}}}},"variant":"tasks",{rest}}}"#))
}

#[test]
fn boundary_requests_are_answered_or_refused() {
    let valid = sum_run(r#""numbers":1000,"#, r#""workers":2,"tasks":8,"repetitions":3"#);
    assert_eq!(answer(&valid), Answer::Runs(1));
    assert_eq!(answer(r#""status""#), Answer::Reports);
    assert_eq!(answer(r#"{"stop":{"run_id":18446744073709551615}}"#), Answer::Stops);
    // A unit variant is its name alone, a struct variant an object, however deep.
    let parked = r#"{"workload":"task_memory","variant":"goroutines","workers":1,"tasks":100,"repetitions":1}"#;
    assert_eq!(answer(&run_of(parked)), Answer::Runs(1));
    let generated = r#"{"hash":{"source":{"generated":{"bytes":65536,"seed":1}},"slice_bytes":4096}}"#;
    let hash = format!(r#"{{"workload":{generated},"variant":"tasks","workers":2,"tasks":2,"repetitions":1}}"#);
    assert_eq!(answer(&run_of(&hash)), Answer::Runs(1));
    let refused = [
        "".to_string(),
        "null".into(),
        "{}".into(),
        "[]".into(),
        r#""run""#.into(),
        r#""Status""#.into(),
        r#"{"run":null}"#.into(),
        r#"{"run":{}}"#.into(),
        r#"{"status":{}}"#.into(),
        r#"{"run":{"run_id":-1,"jobs":[]}}"#.into(),
        r#"{"run":{"run_id":1.5,"jobs":[]}}"#.into(),
        r#"{"run":{"run_id":18446744073709551616,"jobs":[]}}"#.into(),
        r#"{"run":{"run_id":NaN,"jobs":[]}}"#.into(),
        r#"{"<script>":{"run_id":1}}"#.into(),
        // Two tags in one variant.
        r#"{"stop":{"run_id":1},"status":null}"#.into(),
        // The internally tagged form of earlier builds, whole or in part.
        r#"{"type":"status"}"#.into(),
        r#"{"type":"stop","run_id":1}"#.into(),
        r#"{"type":"run","run_id":1,"jobs":[]}"#.into(),
        run_of(
            r#"{"workload":{"kind":"sum","numbers":1000,"seed":1},"variant":"tasks","workers":2,"tasks":8,"repetitions":3}"#,
        ),
        run_of(r#"{"workload":{"kind":"task_memory"},"variant":"goroutines","workers":1,"tasks":100,"repetitions":1}"#),
        run_of(
            &hash
                .replace(r#"{"generated":{"bytes":65536,"seed":1}}"#, r#"{"from":"generated","bytes":65536,"seed":1}"#),
        ),
        // A struct variant's name alone, and two workloads in one.
        run_of(r#"{"workload":"sum","variant":"tasks","workers":2,"tasks":8,"repetitions":3}"#),
        run_of(
            r#"{"workload":{"sum":{"numbers":1000,"seed":1},"spin":{"units":1}},"variant":"tasks","workers":2,"tasks":8,"repetitions":3}"#,
        ),
        sum_run(r#""numbers":1e400,"#, r#""workers":2,"tasks":8,"repetitions":3"#),
        sum_run(r#""numbers":-5,"#, r#""workers":2,"tasks":8,"repetitions":3"#),
        sum_run("", r#""workers":2,"tasks":8,"repetitions":3"#),
        sum_run(r#""numbers":1000,"#, r#""workers":4294967296,"tasks":8,"repetitions":3"#),
        sum_run(r#""numbers":1000,"#, r#""workers":2,"tasks":8"#),
    ];
    for text in &refused {
        assert!(matches!(answer(text), Answer::Refused(ref m) if !m.is_empty()), "{text}");
    }
    // Parsed, then refused by the limits.
    let too_many = valid.replace("\"tasks\":8", "\"tasks\":1000000");
    assert!(matches!(answer(&too_many), Answer::Fails(ref m) if m.contains("tasks")), "{too_many}");
    // Deep nesting is refused by the parser's depth limit, not by a stack overflow.
    for depth in [127, 128, 129, 10_000, 1_000_000] {
        assert!(matches!(answer(&"[".repeat(depth)), Answer::Refused(_)));
        let jobs = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(matches!(answer(&format!(r#"{{"run":{{"run_id":1,"jobs":{jobs}}}}}"#)), Answer::Refused(_)));
        let tags = format!("{}1{}", r#"{"run":"#.repeat(depth), "}".repeat(depth));
        assert!(matches!(answer(&tags), Answer::Refused(_)));
    }
}
