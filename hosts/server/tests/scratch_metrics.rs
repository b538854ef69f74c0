//! `/v1/metrics/drift` and sessions made for a ScratchWorld task, in process. Drift: a project
//! against itself is identical (drift 0); a candidate whose cat starts elsewhere differs in
//! pose from frame 0 on, at the checkpoints every 10 frames plus the last, and the report is
//! `diff_traces` of the two runs' traces (the same JSON as `gobo diff-trace --every 10
//! --signals scratcheval`). Task sessions: the session keeps its task's suite, `evaluate`
//! without a suite judges with it (before and after a restart), and unknown tasks, flavours
//! without a suite and evaluation of a task-less session without a suite are 422s.

mod common;

use common::{read, temp_dir, TestServer};
use gobo::scratch::diff::{diff_traces, DiffOptions, Signal};
use gobo::scratch::scenario::Scenario;
use gobo_host::run::{run_trace, RunOptions, Source};
use gobo_server::{Limits, ServerConfig};
use serde_json::{json, Value};

async fn post_text(s: &TestServer, uri: &str, body: &str) -> (u16, Value) {
    let r = s.post_text(uri, body).await;
    (r.status.as_u16(), r.json())
}

/// The keys example with the cat starting at x = 60 instead of 0.
fn moved_cat() -> String {
    let gold = read("examples/scratch/keys/project.json");
    let at = gold.find("\"motion_gotoxy\"").unwrap();
    let zero = at + gold[at..].find("\"0\"").unwrap();
    format!("{}\"60\"{}", &gold[..zero], &gold[zero + 3..])
}

fn trace(project_json: &str, frames: u64) -> String {
    let files = gobo_host::sb3::read_bytes(project_json.as_bytes(), &Default::default()).unwrap();
    let loaded = gobo_host::project::compile_files(&files).unwrap();
    let opts = RunOptions { frames: Some(frames), ..RunOptions::default() };
    let md5 = gobo::md5::hex(project_json.as_bytes());
    let source = Source { project: "project", md5: Some(&md5), assets: Default::default() };
    let mut out = String::new();
    run_trace(loaded.image, &Scenario::green_flag(), &opts, source, &mut |l| {
        out.push_str(l);
        out.push('\n');
    })
    .unwrap();
    out
}

#[tokio::test]
async fn drift_of_a_candidate_from_its_gold_project() {
    let s = TestServer::new("drift");
    let gold = read("examples/scratch/keys/project.json");
    let body = |cand: &str| format!(r#"{{"gold": {gold}, "candidate": {cand}, "frames": 30}}"#);
    let (status, same) = post_text(&s, "/v1/metrics/drift", &body(&gold)).await;
    assert_eq!(status, 200, "{same}");
    assert_eq!((same["identical"].clone(), same["drift"].clone()), (json!(true), json!(0.0)));
    // Frames 0..29 scored at 0, 10, 20 and the last, 29.
    assert_eq!(same["checkpoints"], json!(4));

    let moved = moved_cat();
    let (status, report) = post_text(&s, "/v1/metrics/drift", &body(&moved)).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["identical"], json!(false));
    assert_eq!(report["first_divergence"]["frame"], json!(0), "{report}");
    assert!(report["first_divergence"]["path"].as_str().unwrap().ends_with(".x"), "{report}");
    assert_eq!(report["signals"]["pose"]["frames_differing"], json!(4), "{report}");
    assert_eq!(report["signals"]["vars"]["discrepancy"], json!(0.0), "{report}");
    assert!(report["signals"].get("says").is_none(), "scratcheval leaves says out: {report}");
    assert!(report["drift"].as_f64().unwrap() > 0.0);
    let opts = DiffOptions {
        signals: Signal::parse_list(&["scratcheval"]).unwrap(),
        restrict_first: true,
        tolerance: 0.0,
        every: 10,
    };
    let want = diff_traces(&trace(&gold, 30), &trace(&moved, 30), &opts).unwrap();
    assert_eq!(report, want.to_json());

    // Every frame and every signal, on request.
    let all = format!(
        r#"{{"gold": {gold}, "candidate": {moved}, "frames": 30, "every": 0, "signals": ["all"]}}"#
    );
    let (status, r) = post_text(&s, "/v1/metrics/drift", &all).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["checkpoints"], json!(30));
    assert!(r["signals"].get("says").is_some());

    // Bad input.
    for (extra, path) in [
        (r#""signals": ["nope"]"#, "signals"),
        (r#""tolerance": -1"#, "tolerance"),
        (r#""frames": 100000000"#, "frames"),
        (r#""scenario": {"events": 3}"#, "scenario"),
    ] {
        let b = format!(r#"{{"gold": {gold}, "candidate": {gold}, {extra}}}"#);
        let (status, err) = post_text(&s, "/v1/metrics/drift", &b).await;
        assert_eq!((status, err["error"]["path"].as_str()), (422, Some(path)), "{extra}: {err}");
    }
    let b = format!(r#"{{"gold": {gold}, "candidate": {{"targets": 1}}}}"#);
    let (status, err) = post_text(&s, "/v1/metrics/drift", &b).await;
    assert_eq!((status, err["error"]["path"].as_str()), (422, Some("candidate")), "{err}");
}

/// A suites folder with one task judged by the clicker's adequacy suite.
fn suites_folder() -> std::path::PathBuf {
    let dir = temp_dir("task-suites");
    let manifest = json!({"version": 1, "source": "test", "tasks": [
        {"name": "cookie_clicker", "category": "create", "initial_project": "cookie.sb3",
         "flavours": {"compat": {"status": "complete", "suite": "clicker.json"},
                      "strict": {"status": "missing"}}}]});
    std::fs::write(dir.join("manifest.json"), manifest.to_string()).unwrap();
    std::fs::write(dir.join("clicker.json"), read("tests-support/suite-check/clicker/suite.json"))
        .unwrap();
    dir
}

/// The clicker with its assets, as a base64 `.sb3` JSON string.
fn clicker() -> String {
    use base64::Engine as _;
    let files =
        gobo_host::sb3::load_path(&common::root().join("tests-support/forge-corpus/clicker"))
            .unwrap();
    let (bytes, _) = gobo_host::sb3::repack(&files, files.project_json.clone()).unwrap();
    format!("\"{}\"", base64::engine::general_purpose::STANDARD.encode(bytes))
}

fn server(name: &str, data: std::path::PathBuf, suites: &std::path::Path) -> TestServer {
    let mut config = ServerConfig::new(data.clone());
    config.limits = Limits { workers: 2, ..Limits::default() };
    config.scratchworld = Some(suites.to_path_buf());
    let app = gobo_server::App::start(&config).unwrap_or_else(|e| panic!("{name}: {e}"));
    let router = gobo_server::router(std::sync::Arc::clone(&app));
    TestServer { app, router, dir: data }
}

#[tokio::test]
async fn a_session_made_for_a_task_is_judged_by_its_suite() {
    let suites = suites_folder();
    let s = server("task-session", temp_dir("task-session"), &suites);
    let gold = clicker();
    let body = format!(r#"{{"task": "cookie_clicker", "project": {gold}}}"#);
    let (status, made) = post_text(&s, "/v1/sessions", &body).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["task"]["name"], json!("cookie_clicker"));
    assert_eq!(made["task"]["category"], json!("create"));
    assert_eq!(made["task"]["flavour"], json!("compat"));
    let id = made["session_id"].as_str().unwrap().to_string();

    // Evaluate without a suite: the task's; the same report as with the suite given.
    let (status, own) = post_text(&s, &format!("/v1/sessions/{id}/evaluate"), "{}").await;
    assert_eq!(status, 200, "{own}");
    let suite = read("tests-support/suite-check/clicker/suite.json");
    let (status, given) =
        post_text(&s, &format!("/v1/sessions/{id}/evaluate"), &format!(r#"{{"suite": {suite}}}"#))
            .await;
    assert_eq!(status, 200, "{given}");
    assert_eq!(own, given);
    assert_eq!(own["success"], json!(true), "{own}");
    // The ScratchWorld route too.
    let (status, sw) = post_text(&s, &format!("/sessions/{id}/evaluate"), "{}").await;
    assert_eq!((status, sw.clone()), (200, own.clone()));
    let info = s.get(&format!("/v1/sessions/{id}")).await.json();
    assert_eq!(info["task"]["name"], json!("cookie_clicker"));

    // The binding survives a restart.
    let data = s.stop().await;
    let s = server("task-session-2", data, &suites);
    let (status, again) = post_text(&s, &format!("/v1/sessions/{id}/evaluate"), "{}").await;
    assert_eq!((status, again), (200, own));

    // Bad input.
    for (body, code, path) in [
        (format!(r#"{{"task": "nope", "project": {gold}}}"#), "unknown_task", "task"),
        (
            format!(r#"{{"task": "cookie_clicker", "flavour": "strict", "project": {gold}}}"#),
            "no_suite",
            "task",
        ),
        (
            format!(r#"{{"task": "cookie_clicker", "flavour": "odd", "project": {gold}}}"#),
            "invalid_request",
            "flavour",
        ),
        (format!(r#"{{"flavour": "compat", "project": {gold}}}"#), "invalid_request", "flavour"),
    ] {
        let (status, err) = post_text(&s, "/v1/sessions", &body).await;
        assert_eq!(status, 422, "{err}");
        assert_eq!(
            (err["error"]["code"].as_str(), err["error"]["path"].as_str()),
            (Some(code), Some(path)),
            "{err}"
        );
    }
    let (status, plain) = post_text(&s, "/v1/sessions", &format!(r#"{{"project": {gold}}}"#)).await;
    assert_eq!(status, 201, "{plain}");
    assert_eq!(plain["task"], Value::Null);
    let plain_id = plain["session_id"].as_str().unwrap();
    let (status, err) = post_text(&s, &format!("/v1/sessions/{plain_id}/evaluate"), "{}").await;
    assert_eq!((status, err["error"]["path"].as_str()), (422, Some("suite")), "{err}");
}

#[tokio::test]
async fn the_repositorys_manifest_names_the_compute_suites() {
    // Default folder: the repository's benchmarks/scratchworld. A compute task's suite judges
    // whatever project the session holds (here one that answers nothing: it fails).
    let s = TestServer::new("task-session-repo");
    let gold = clicker();
    let body = format!(r#"{{"task": "calculate_gcd", "flavour": "strict", "project": {gold}}}"#);
    let (status, made) = post_text(&s, "/v1/sessions", &body).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["task"]["category"], json!("compute"));
    let id = made["session_id"].as_str().unwrap();
    let (status, report) = post_text(&s, &format!("/v1/sessions/{id}/evaluate"), "{}").await;
    assert_eq!(status, 200, "{report}");
    let suite: Value =
        serde_json::from_str(&read("benchmarks/scratchworld/compute/calculate_gcd.strict.json"))
            .unwrap();
    assert_eq!(report["total_tests"], json!(suite["tests"].as_array().unwrap().len()));
    assert_eq!(report["success"], json!(false));
}
