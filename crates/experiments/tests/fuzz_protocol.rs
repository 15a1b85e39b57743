//! The UI⇄engine protocol, fuzzed: whatever bytes reach the engine as a request (random bytes,
//! damaged valid requests, lengths far beyond the bytes, the JSON text of earlier builds), they are
//! either refused with a message or read; a read run is either accepted, every job within the
//! limits, or refused with a message. Nothing panics, and nothing allocates what the bytes claim.
//!
//! Requests travel in postcard's compact form (`Request::to_bytes`): an enum is its variant's
//! index as a varint, then its fields in order; a number a varint; a list its length, then its items.

use experiments::protocol::Request;
use experiments::{HashSource, Job, ScenarioKind, SortAlgorithm, Variant, Workload};
use proptest::prelude::*;
use proptest::test_runner::RngAlgorithm;

/// What the engine's coordinator does with a request's bytes (`engine/src/web/mod.rs`).
#[derive(Debug, PartialEq)]
enum Answer {
    /// A run whose every job passed `Job::validate`: the engine starts it.
    Runs(usize),
    /// A run with a job beyond the limits: `Failed { message }`.
    Fails(String),
    Stops,
    Reports,
    Warms,
    /// Not a request at all.
    Refused(String),
}

fn answer(bytes: &[u8]) -> Answer {
    match Request::from_bytes(bytes) {
        Ok(Request::Run { jobs, .. }) => match jobs.iter().find_map(|job| job.validate().err()) {
            Some(message) => Answer::Fails(message),
            None => Answer::Runs(jobs.len()),
        },
        Ok(Request::Stop { .. }) => Answer::Stops,
        Ok(Request::Status) => Answer::Reports,
        Ok(Request::Warm { .. }) => Answer::Warms,
        Err(message) => Answer::Refused(message),
    }
}

/// The property every request's bytes must meet.
fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    match answer(bytes) {
        Answer::Fails(message) | Answer::Refused(message) => {
            prop_assert!(!message.trim().is_empty(), "a refusal says why: {bytes:?}")
        }
        Answer::Runs(_) | Answer::Stops | Answer::Reports | Answer::Warms => {
            // What was read survives the trip back to bytes unchanged.
            let request = Request::from_bytes(bytes).unwrap();
            prop_assert_eq!(Request::from_bytes(&request.to_bytes()), Ok(request));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Valid requests, from any values (most jobs beyond the limits, some within).

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
        1 => any::<u32>().prop_map(|workers| Request::Warm { workers }),
    ]
}

// ---------------------------------------------------------------------------------------------
// Damage to a valid request's bytes.

/// One change to a request's bytes.
#[derive(Clone, Debug)]
enum Damage {
    Cut(usize),
    Insert(usize, u8),
    Drop(usize),
    /// Flip some bits of one byte.
    Flip(usize, u8),
    /// A byte with its continuation bit set: a varint that goes on (a length, a number, a variant).
    Continue(usize),
    DuplicateTail(usize),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        any::<usize>().prop_map(Damage::Cut),
        (any::<usize>(), prop_oneof![Just(0u8), Just(0x7f), Just(0x80), Just(0xff), any::<u8>()])
            .prop_map(|(at, b)| Damage::Insert(at, b)),
        any::<usize>().prop_map(Damage::Drop),
        (any::<usize>(), 1u8..=255).prop_map(|(at, bits)| Damage::Flip(at, bits)),
        any::<usize>().prop_map(Damage::Continue),
        any::<usize>().prop_map(Damage::DuplicateTail),
    ]
}

fn damaged(bytes: &[u8], damages: &[Damage]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for damage in damages {
        let at = |i: usize, len: usize| i % (len + 1);
        let len = out.len();
        match *damage {
            Damage::Cut(i) => out.truncate(at(i, len)),
            Damage::Insert(i, b) => out.insert(at(i, len), b),
            Damage::Drop(i) if len > 0 => {
                out.remove(i % len);
            }
            Damage::Flip(i, bits) if len > 0 => out[i % len] ^= bits,
            Damage::Continue(i) if len > 0 => out[i % len] |= 0x80,
            Damage::DuplicateTail(i) => {
                let tail = out[at(i, len)..].to_vec();
                let at = at(i, len);
                out.splice(at..at, tail);
            }
            _ => {}
        }
    }
    out
}

/// Any request's bytes: valid, damaged, or random.
fn request_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        2 => request().prop_map(|r| r.to_bytes()),
        5 => (request(), prop::collection::vec(damage(), 1..4)).prop_map(|(r, d)| damaged(&r.to_bytes(), &d)),
        2 => prop::collection::vec(any::<u8>(), 0..200),
        1 => prop::collection::vec(prop_oneof![Just(0u8), Just(0xff), 0u8..4], 0..40),
    ]
}

proptest! {
    // XorShift: the default ChaCha generator takes most of the time of a debug build.
    #![proptest_config(ProptestConfig { rng_algorithm: RngAlgorithm::XorShift, ..ProptestConfig::with_cases(10_000) })]

    /// Every request's bytes are answered (run, failed with a reason, stop, status) or refused with
    /// a message, and nothing panics.
    #[test]
    fn every_request_is_answered_or_refused(bytes in request_bytes()) {
        check(&bytes)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { rng_algorithm: RngAlgorithm::XorShift, ..ProptestConfig::with_cases(2_000) })]

    /// A run of jobs within the limits starts; any job beyond them fails the run with a message.
    #[test]
    fn a_read_run_starts_only_if_every_job_is_valid(
        run_id in any::<u64>(),
        jobs in prop::collection::vec(job(), 1..5),
    ) {
        let bytes = Request::Run { run_id, jobs: jobs.clone() }.to_bytes();
        let all_valid = jobs.iter().all(|job| job.validate().is_ok());
        match answer(&bytes) {
            Answer::Runs(n) => prop_assert!(all_valid && n == jobs.len()),
            Answer::Fails(message) => prop_assert!(!all_valid && !message.is_empty()),
            other => prop_assert!(false, "{other:?}"),
        }
    }
}

/// A varint: 7 bits a byte, low bits first, the top bit set on every byte but the last.
fn varint(mut n: u64) -> Vec<u8> {
    let mut out = Vec::new();
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
    out
}

fn sum_job(workers: u32, tasks: u32) -> Job {
    Job {
        workload: Workload::Sum { numbers: 1000, seed: 1 },
        variant: Variant::ThreadPool,
        workers,
        tasks,
        repetitions: 3,
    }
}

#[test]
fn boundary_requests_are_answered_or_refused() {
    let valid = Request::Run { run_id: 1, jobs: vec![sum_job(2, 8)] }.to_bytes();
    assert_eq!(answer(&valid), Answer::Runs(1));
    assert_eq!(answer(&Request::Status.to_bytes()), Answer::Reports);
    assert_eq!(answer(&Request::Stop { run_id: u64::MAX }.to_bytes()), Answer::Stops);
    let hash = Job {
        workload: Workload::Hash { source: HashSource::Generated { bytes: 65_536, seed: 1 }, slice_bytes: 4096 },
        ..sum_job(2, 2)
    };
    let file = Job {
        workload: Workload::Hash {
            source: HashSource::File { name: "a \"b\" \\ é 日本\n\u{1}".into(), bytes: 10 },
            slice_bytes: 4096,
        },
        ..sum_job(2, 2)
    };
    for job in [hash, file] {
        let request = Request::Run { run_id: 7, jobs: vec![job] };
        assert_eq!(Request::from_bytes(&request.to_bytes()), Ok(request));
    }
    // A run that claims far more jobs, or a longer file name, than its bytes hold: refused, and
    // nothing of the claimed size is allocated first.
    let many_jobs = [vec![0, 1], varint(u64::MAX)].concat();
    let long_name = [vec![0, 1, 1, 8, 1], varint(u64::MAX >> 1), b"abc".to_vec()].concat();
    // The JSON text of earlier builds (a page of another build): refused, not read as bytes.
    let old = [
        r#"{"run":{"run_id":1,"jobs":[]}}"#,
        r#""status""#,
        r#"{"stop":{"run_id":1}}"#,
        r#"{"type":"run","run_id":1,"jobs":[]}"#,
    ];
    let mut refused: Vec<Vec<u8>> = vec![
        vec![],
        vec![3],
        vec![0x80],
        vec![0xff; 12],
        vec![0],
        vec![0, 1],
        vec![1],
        // Bytes after a whole request.
        [Request::Status.to_bytes(), vec![0]].concat(),
        [valid.clone(), vec![1]].concat(),
        // A run id beyond 64 bits; a variant of an enum that has no such variant.
        [vec![1], vec![0xff; 10], vec![0x7f]].concat(),
        vec![0, 1, 1, 99],
        many_jobs,
        long_name,
    ];
    refused.extend(old.iter().map(|text| text.as_bytes().to_vec()));
    for bytes in &refused {
        assert!(matches!(answer(bytes), Answer::Refused(ref m) if !m.is_empty()), "{bytes:?}");
    }
    // Read, then refused by the limits.
    let too_many = Request::Run { run_id: 1, jobs: vec![sum_job(2, 1_000_000)] }.to_bytes();
    assert!(matches!(answer(&too_many), Answer::Fails(ref m) if m.contains("tasks")), "{too_many:?}");
    let no_workers = Request::Run { run_id: 1, jobs: vec![sum_job(0, 8)] }.to_bytes();
    assert!(matches!(answer(&no_workers), Answer::Fails(_)));
}
