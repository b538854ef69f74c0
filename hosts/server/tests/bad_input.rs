//! Bad input in process: malformed JSON, wrong types, unknown fields, missing content types,
//! oversized bodies, unknown routes and resources, hostile projects (garbage base64, corrupt
//! and zip-bomb archives, deep nesting); each answered with a 4xx and a clear message, and the
//! server still healthy afterwards. Also load shedding: a full queue answers 503 with
//! `Retry-After`.

mod common;

use std::io::Write;

use axum::http::Method;
use base64::Engine as _;
use common::{read, TestServer};
use gobo_server::Limits;
use serde_json::json;

#[tokio::test]
async fn malformed_and_mistyped_requests() {
    let s = TestServer::new("bad-json");
    let r = s.post_text("/v1/xlogo/eval", "{\"task\": ").await;
    assert_eq!(r.status, 400);
    assert_eq!(r.code(), "malformed_json");
    assert!(!r.json()["error"]["message"].as_str().unwrap_or("").is_empty());

    let r = s.post("/v1/render", &json!({"project": {}, "frames": "three"})).await;
    assert_eq!(r.status, 422);
    assert_eq!(r.code(), "invalid_request");
    assert_eq!(r.json()["error"]["path"], "frames");

    let r = s.post("/v1/render", &json!({"project": {}, "frames": [1], "colour": "red"})).await;
    assert_eq!(r.status, 422);
    assert!(r.json()["error"]["message"].as_str().unwrap_or("").contains("colour"));

    let r = s.post("/v1/xlogo/eval", &json!({"code": "def run(): pass"})).await;
    assert_eq!(r.status, 422);
    assert!(r.json()["error"]["message"].as_str().unwrap_or("").contains("task"));

    let r = s.call(Method::POST, "/v1/xlogo/eval", None, b"{}".to_vec()).await;
    assert_eq!(r.status, 415);
    let r = s.call(Method::POST, "/v1/xlogo/eval", Some("text/plain"), b"{}".to_vec()).await;
    assert_eq!(r.status, 415);

    let r = s.get("/v1/nothing-here").await;
    assert_eq!(r.status, 404);
    assert_eq!(r.code(), "no_route");
    let r = s.delete("/v1/render").await;
    assert_eq!(r.status, 405);
    assert_eq!(r.code(), "method_not_allowed");
    assert_eq!(s.get("/v1/batch/j-0000000000000000").await.status, 404);
    assert_eq!(s.get("/v1/batch/..%2F..%2Fetc").await.status, 404);
    let r = s.get("/v1/batch/j-0000000000000000/results?from=-1").await;
    assert_eq!((r.status.as_u16(), r.code().as_str()), (400, "invalid_query"));

    let deep =
        format!("{{\"task\": {}1{}, \"code\": \"\"}}", "[".repeat(100_000), "]".repeat(100_000));
    let r = s.post_text("/v1/xlogo/eval", &deep).await;
    assert!(r.status.is_client_error(), "{}", r.text());
    assert!(r.json()["error"]["message"].as_str().unwrap_or("").contains("recursion"));

    assert_eq!(s.get("/healthz").await.status, 200);
    s.stop().await;
}

#[tokio::test]
async fn oversized_bodies_are_413() {
    let s = TestServer::with_limits(
        "bad-size",
        Limits { workers: 1, max_body_bytes: 4096, ..Limits::default() },
    );
    let big = json!({"a": "x".repeat(10_000), "b": ""});
    let r = s.post("/v1/traces/diff", &big).await;
    assert_eq!(r.status, 413, "{}", r.text());
    assert_eq!(r.code(), "body_too_large");
    let r =
        s.call(Method::POST, "/v1/blobs", Some("application/octet-stream"), vec![0; 10_000]).await;
    assert_eq!(r.status, 413);
    assert_eq!(r.code(), "body_too_large");
    let small = s.post("/v1/traces/diff", &json!({"a": "", "b": ""})).await;
    assert!(small.status.is_client_error() || small.status.is_success());
    assert_eq!(s.get("/healthz").await.status, 200);
    s.stop().await;
}

fn zip_with(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        zip.start_file(*name, opts).unwrap_or_else(|e| panic!("{e}"));
        zip.write_all(bytes).unwrap_or_else(|e| panic!("{e}"));
    }
    zip.finish().unwrap_or_else(|e| panic!("{e}")).into_inner()
}

#[tokio::test]
async fn hostile_projects_are_refused() {
    let s = TestServer::new("bad-project");
    let suite = read("examples/scratch/quiz/suite.json");
    let b64 = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
    let bomb = zip_with(&[("project.json", b"{}"), ("a.wav", &vec![0u8; 65 << 20])]);
    let cases = [
        (json!("not base64 at all!"), "base64"),
        (json!(b64(b"PK\x03\x04 truncated")), "zip"),
        (json!(b64(&bomb)), "limit"),
        (json!(b64(&zip_with(&[("../evil.json", b"{}")]))), "file name"),
        (json!(b64(&zip_with(&[("costume.png", b"x")]))), "project.json"),
        (json!({"targets": 5}), ""),
        (
            json!({"targets": [{"isStage": true, "blocks": {"a": {"opcode": "x", "next": "a"}}}]}),
            "",
        ),
        (json!([1, 2]), "project"),
        (json!({"ref": "xyz"}), "64 hex"),
    ];
    for (project, says) in cases {
        let body = format!("{{\"project\": {project}, \"suite\": {suite}}}");
        let r = s.post_text("/v1/tests/run", &body).await;
        assert!(r.status.is_client_error(), "{project:.80}: {} {}", r.status, r.text());
        let message = r.json()["error"]["message"].as_str().unwrap_or("").to_string();
        assert!(message.contains(says), "{project:.80}: {message}");
        assert!(!message.is_empty());
    }
    let r = s.post("/v1/render", &json!({"project": {"targets": []}, "frames": [0]})).await;
    assert_eq!(r.status, 422);
    assert_eq!(r.code(), "bad_project");
    assert_eq!(s.get("/healthz").await.status, 200);
    s.stop().await;
}

#[tokio::test]
async fn a_full_queue_sheds_with_retry_after() {
    let limits = Limits { workers: 1, queue_depth: 1, batch_workers: 1, ..Limits::default() };
    let s = std::sync::Arc::new(TestServer::with_limits("bad-shed", limits));
    // A suite that keeps the only worker busy for a while (many seeds), then more requests
    // than the one queue place.
    let heavy = format!(
        "{{\"project\": {}, \"suite\": {}, \"seeds\": 60}}",
        read("examples/scratch/timing/project.json"),
        read("examples/scratch/timing/suite.json")
    );
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let (s, body) = (std::sync::Arc::clone(&s), heavy.clone());
        tasks.push(tokio::spawn(async move { s.post_text("/v1/tests/run", &body).await }));
    }
    let mut ok = 0;
    let mut shed = 0;
    for t in tasks {
        let r = t.await.unwrap_or_else(|e| panic!("{e}"));
        match r.status.as_u16() {
            200 => ok += 1,
            503 => {
                assert_eq!(r.code(), "overloaded");
                assert!(r.headers.get("retry-after").is_some());
                shed += 1;
            }
            other => panic!("unexpected {other}: {}", r.text()),
        }
    }
    assert!(ok >= 1 && shed >= 1, "ok {ok}, shed {shed}");
    assert_eq!(s.get("/healthz").await.status, 200);
    if let Ok(s) = std::sync::Arc::try_unwrap(s) {
        s.stop().await;
    }
}
