//! The `lab` binary end to end: what a user types, what it prints, and its exit codes.

use std::process::{Command, Output};
use workloads::hashing::{hex, sha256};

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lab")).args(args).output().expect("lab runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn hashing_a_file_prints_its_sha256_like_sha256sum() {
    let path = std::env::temp_dir().join(format!("lab-cli-{}.bin", std::process::id()));
    let content: Vec<u8> = (0..3_000_017u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(&path, &content).unwrap();
    let output = lab(&["hash", "--file", path.to_str().unwrap(), "--hashes", "3", "--workers", "1,2"]);
    std::fs::remove_file(&path).unwrap();
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.contains(&format!("sha256 of the data: {}", hex(&sha256(&content)))), "{text}");
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("BenchmarkHash/")).collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines.iter().all(|l| l.contains(" ok ") && l.ends_with("MB/s")), "{text}");
    assert!(text.contains("published, not measured here"));
}

#[test]
fn goroutines_serve_sleep_bound_requests_far_faster_than_one_thread() {
    // 40 requests that each block 20 ms: one thread answers them one after another (≈ 800 ms),
    // goroutines park 8 at a time (≈ 100 ms). The margin asked for is far below the ≈ 8x expected.
    let output = lab(&[
        "qps",
        "--workers",
        "1",
        "--requests",
        "40",
        "--concurrency",
        "8",
        "--wait-ms",
        "20",
        "--work-us",
        "0",
        "--json",
    ]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    let qps = |i: usize| report["results"][i]["measurement"]["qps"]["qps"].as_f64().expect("a qps figure");
    let (thread_pool, goroutines) = (qps(0), qps(1));
    assert!(goroutines > 3.0 * thread_pool, "thread pool {thread_pool:.0} req/s, goroutines {goroutines:.0} req/s");
}

#[test]
fn bad_input_is_refused_with_a_reason_and_exit_code_2() {
    let missing = lab(&["hash", "--file", "/no/such/file"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/no/such/file"));
    let zero = lab(&["qps", "--concurrency", "0"]);
    assert_eq!(zero.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&zero.stderr).contains("concurrency"));
    let unreadable = lab(&["sort", "--n", "lots"]);
    assert_eq!(unreadable.status.code(), Some(2));
    // A read latency whose microseconds do not fit the engine's u32 is refused, not wrapped.
    let long = lab(&["docsearch", "--latency-ms", "4294968", "--docs", "100", "--reps", "1"]);
    assert_eq!(long.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&long.stderr).contains("--latency-ms 4294968 is too large"));
}

#[test]
fn cost_reports_time_per_task_and_per_switch() {
    let output = lab(&["cost", "--tasks", "1000", "--sqrt", "1", "--trips", "1000", "--reps", "1"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert_eq!(text.lines().filter(|l| l.ends_with("ns/task")).count(), 3, "{text}");
    assert_eq!(text.lines().filter(|l| l.ends_with("ns/switch")).count(), 2, "{text}");
}

/// SHA-256 of the first 2 MiB of the generated stream with the default seed. The browser's
/// end-to-end test checks its own digest, and an independent JavaScript version of the generator,
/// against this same value, so the browser, Node and the native CLI are known to agree.
const GENERATED_2MB_SHA256: &str = "da6da518594c39a97a81b93a9b99d5f0bbfe1160be5f674018366fe67ccc43e4";

#[test]
fn generated_data_has_the_digest_the_browser_computes() {
    let output = lab(&["hash", "--mb", "2", "--hashes", "2", "--workers", "2"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.contains(&format!("sha256 of the data: {GENERATED_2MB_SHA256}")), "{text}");
}
