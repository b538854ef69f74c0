//! Every stateless endpoint in process (tower `oneshot`): health, OpenAPI, blobs, tests/run,
//! render, run, traces/diff, xlogo eval and prompt, draw eval; answers checked against what
//! the examples are known to do.

mod common;

use base64::Engine as _;
use common::{read, root, TestServer};
use gobo_server::Limits;
use serde_json::{json, Value};

#[tokio::test]
async fn health_ready_and_openapi() {
    let s = TestServer::new("health");
    let h = s.get("/healthz").await;
    assert_eq!(h.status, 200);
    assert_eq!(h.json()["status"], "ok");
    assert_eq!(s.get("/readyz").await.status, 200);
    let doc = s.get("/v1/openapi.json").await.json();
    assert_eq!(doc["openapi"], "3.1.0");
    for path in [
        "/v1/blobs",
        "/v1/blobs/{ref}",
        "/v1/tests/run",
        "/v1/render",
        "/v1/run",
        "/v1/traces/diff",
        "/v1/xlogo/eval",
        "/v1/xlogo/prompt",
        "/v1/draw/eval",
        "/v1/projects/validate",
        "/v1/projects/edit-distance",
        "/v1/batch",
        "/v1/batch/{id}",
        "/v1/batch/{id}/results",
    ] {
        assert!(doc["paths"].get(path).is_some(), "{path} missing from the OpenAPI document");
    }
    let page = s.get("/").await;
    assert_eq!(page.status, 200);
    assert!(page.text().contains("<html") || page.text().contains("<!doctype html"));
    s.stop().await;
}

#[tokio::test]
async fn xlogo_eval_and_prompt() {
    let s = TestServer::new("xlogo");
    let task = read("examples/xlogo/find-strawberry.json");
    let code = json!(read("examples/xlogo/find-strawberry.py"));
    let ok =
        s.post_text("/v1/xlogo/eval", &format!("{{\"task\": {task}, \"code\": {code}}}")).await;
    assert_eq!(ok.status, 200, "{}", ok.text());
    assert_eq!(ok.json()["error_type"], "OK");
    assert_eq!(ok.json()["success"], true);
    let crash = json!(read("examples/xlogo/find-strawberry-crash.py"));
    let bad =
        s.post_text("/v1/xlogo/eval", &format!("{{\"task\": {task}, \"code\": {crash}}}")).await;
    assert_eq!(bad.status, 200);
    assert_eq!(bad.json()["success"], false);
    let ast = read("examples/xlogo/draw-square.ast.json");
    let square = read("examples/xlogo/draw-square.json");
    let by_ast =
        s.post_text("/v1/xlogo/eval", &format!("{{\"task\": {square}, \"code\": {ast}}}")).await;
    assert_eq!(by_ast.status, 200);
    assert!(by_ast.json()["error_type"].is_string());

    let p = s
        .post_text("/v1/xlogo/prompt", &format!("{{\"task\": {task}, \"style\": \"ascii\"}}"))
        .await;
    assert_eq!(p.status, 200);
    assert!(p.json()["text"].as_str().unwrap_or("").contains("turtle"));
    let bad_task = s.post("/v1/xlogo/prompt", &json!({"task": {"tiles": 3}})).await;
    assert_eq!(bad_task.status, 422);
    assert_eq!(bad_task.code(), "bad_task");
    s.stop().await;
}

#[tokio::test]
async fn draw_eval_scores_the_example() {
    let s = TestServer::new("draw");
    let task = read("examples/drawing/red-circle.task.json");
    let actions = json!(read("examples/drawing/red_circle.json"));
    let r = s
        .post_text("/v1/draw/eval", &format!("{{\"task\": {task}, \"actions\": {actions}}}"))
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["profile"], "drawingbench-1.0");
    assert!(v["score"].as_f64().is_some_and(|x| x > 0.5), "{v}");
    let paper = s
        .post_text(
            "/v1/draw/eval",
            &format!("{{\"task\": {task}, \"actions\": {actions}, \"profile\": \"paper\"}}"),
        )
        .await;
    assert_eq!(paper.json()["profile"], "paper");
    let by_index = s
        .post_text("/v1/draw/eval", &format!("{{\"task_index\": 0, \"actions\": {actions}}}"))
        .await;
    // No dataset is configured for this server.
    assert_eq!(by_index.status, 422);
    assert_eq!(by_index.code(), "no_dataset");
    let bad_profile = s
        .post_text(
            "/v1/draw/eval",
            &format!("{{\"task\": {task}, \"actions\": [], \"profile\": \"x\"}}"),
        )
        .await;
    assert_eq!(bad_profile.status, 422);
    s.stop().await;
}

fn quiz(variant: &str, extra: &str) -> String {
    let project = read(&format!("examples/scratch/quiz/{variant}"));
    let suite = read("examples/scratch/quiz/suite.json");
    format!("{{\"project\": {project}, \"suite\": {suite}{extra}}}")
}

#[tokio::test]
async fn tests_run_reports_like_gobo_test() {
    let s = TestServer::new("tests");
    let ok = s.post_text("/v1/tests/run", &quiz("project.json", "")).await;
    assert_eq!(ok.status, 200, "{}", ok.text());
    let v = ok.json();
    assert_eq!(v["success"], true);
    assert_eq!(v["passed_tests"], v["total_tests"]);
    let broken = s.post_text("/v1/tests/run", &quiz("broken.json", "")).await;
    assert_eq!(broken.status, 200);
    assert_eq!(broken.json()["success"], false);
    assert!(broken.json()["details"]
        .as_array()
        .is_some_and(|d| d.iter().any(|c| c["reason"].is_string())));
    let seeds = s.post_text("/v1/tests/run", &quiz("project.json", ", \"seeds\": \"3..4\"")).await;
    assert_eq!(seeds.json()["seeds"], json!([3, 4]));
    assert_eq!(seeds.json()["details"][0]["pass_rate"], 1.0);
    let too_many = s.post_text("/v1/tests/run", &quiz("project.json", ", \"seeds\": 1000")).await;
    assert_eq!(too_many.status, 422);
    assert_eq!(too_many.code(), "work_budget");
    s.stop().await;

    let tight = TestServer::with_limits(
        "tests-budget",
        Limits { workers: 1, max_frames: 10, ..Limits::default() },
    );
    let over = tight.post_text("/v1/tests/run", &quiz("project.json", "")).await;
    assert_eq!(over.status, 422, "{}", over.text());
    assert_eq!(over.code(), "work_budget");
    tight.stop().await;
}

#[tokio::test]
async fn tests_run_on_recorded_traces() {
    let s = TestServer::new("traces-suite");
    let project = read("examples/scratch/timing/project.json");
    let suite = read("examples/scratch/timing/suite.json");
    let lamp = read("core/tests/fixtures/suite/timing/the-lamp-is-dark-for-two-seconds.jsonl");
    let body = format!(
        "{{\"project\": {project}, \"suite\": {suite}, \"traces\": {{\"the lamp is dark for two seconds\": {}}}}}",
        json!(lamp)
    );
    let r = s.post_text("/v1/tests/run", &body).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["total_tests"], 1);
    assert_eq!(r.json()["success"], true);
    let unknown =
        format!("{{\"project\": {project}, \"suite\": {suite}, \"traces\": {{\"nope\": \"\"}}}}");
    // A trace for a case the suite does not have: the trace is what is wrong.
    let r = s.post_text("/v1/tests/run", &unknown).await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert_eq!(r.code(), "bad_trace");
    s.stop().await;
}

#[tokio::test]
async fn blobs_stand_for_projects() {
    let s = TestServer::new("blobs");
    let files = gobo_host::sb3::load_path(&root().join("examples/scratch/quiz/project.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let sb3 = gobo_host::sb3::write_sb3(&files).unwrap_or_else(|e| panic!("{e}"));
    let up = s
        .call(axum::http::Method::POST, "/v1/blobs", Some("application/octet-stream"), sb3.clone())
        .await;
    assert_eq!(up.status, 201, "{}", up.text());
    let reference = up.json()["ref"].as_str().unwrap_or("").to_string();
    assert_eq!(reference, gobo_server::blobs::sha256_hex(&sb3));
    assert_eq!(up.json()["bytes"], sb3.len());
    let again =
        s.call(axum::http::Method::POST, "/v1/blobs", Some("application/zip"), sb3.clone()).await;
    assert_eq!(again.json()["ref"], reference.as_str());
    let down = s.get(&format!("/v1/blobs/{reference}")).await;
    assert_eq!(down.status, 200);
    assert_eq!(down.body, sb3);

    let suite = read("examples/scratch/quiz/suite.json");
    let by_ref = s
        .post_text(
            "/v1/tests/run",
            &format!("{{\"project\": {{\"ref\": \"{reference}\"}}, \"suite\": {suite}}}"),
        )
        .await;
    assert_eq!(by_ref.status, 200, "{}", by_ref.text());
    assert_eq!(by_ref.json()["success"], true);
    let b64 = base64::engine::general_purpose::STANDARD.encode(&sb3);
    let by_value = s
        .post_text("/v1/tests/run", &format!("{{\"project\": \"{b64}\", \"suite\": {suite}}}"))
        .await;
    assert_eq!(by_value.json(), by_ref.json());

    let missing = "0".repeat(64);
    let unknown = s
        .post_text(
            "/v1/tests/run",
            &format!("{{\"project\": {{\"ref\": \"{missing}\"}}, \"suite\": {suite}}}"),
        )
        .await;
    assert_eq!(unknown.status, 422);
    assert_eq!(unknown.code(), "unknown_ref");
    assert_eq!(s.get(&format!("/v1/blobs/{missing}")).await.status, 404);
    assert_eq!(s.get("/v1/blobs/not-a-ref").await.status, 404);
    s.stop().await;
}

#[tokio::test]
async fn render_returns_stage_pngs() {
    let s = TestServer::new("render");
    let project = read("examples/scratch/guess/project.json");
    let r = s
        .post_text(
            "/v1/render",
            &format!("{{\"project\": {project}, \"frames\": [0, 3], \"scale\": 2}}"),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["frames"][1]["frame"], 3);
    let png = base64::engine::general_purpose::STANDARD
        .decode(v["frames"][1]["png_b64"].as_str().unwrap_or(""))
        .unwrap_or_default();
    let decoder = png::Decoder::new(png.as_slice());
    let info = decoder.read_info().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((info.info().width, info.info().height), (960, 720));
    let far = s
        .post_text("/v1/render", &format!("{{\"project\": {project}, \"frames\": [999999999]}}"))
        .await;
    assert_eq!(far.status, 422);
    assert_eq!(far.code(), "work_budget");
    s.stop().await;
}

#[tokio::test]
async fn run_returns_the_trace() {
    let s = TestServer::new("run");
    let project = read("examples/scratch/guess/project.json");
    let r = s
        .post_text(
            "/v1/run",
            &format!("{{\"project\": {project}, \"frames\": 12, \"name\": \"guess\"}}"),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.headers["content-type"], "application/x-ndjson");
    let lines: Vec<Value> =
        r.text().lines().map(|l| serde_json::from_str(l).unwrap_or(Value::Null)).collect();
    assert_eq!(lines.len(), 14);
    assert_eq!(lines[0]["meta"]["project"], "guess");
    assert_eq!(lines[0]["meta"]["md5"], gobo::md5::hex(project.as_bytes()));
    assert_eq!(lines[13]["end"]["frames"], 12);
    s.stop().await;
}

#[tokio::test]
async fn traces_diff_finds_the_divergence() {
    let s = TestServer::new("diff");
    let dir = "core/tests/fixtures/suite/timing/";
    let a = read(&format!("{dir}the-ball-moves-right-and-grows.jsonl"));
    let b = read(&format!("{dir}the-lamp-is-dark-for-two-seconds.jsonl"));
    let same = s.post("/v1/traces/diff", &json!({"a": a, "b": a})).await;
    assert_eq!(same.status, 200);
    assert_eq!(same.json()["identical"], true);
    let differ =
        s.post("/v1/traces/diff", &json!({"a": a, "b": b, "signals": ["pose", "vars"]})).await;
    assert_eq!(differ.status, 200);
    assert_eq!(differ.json()["identical"], false);
    assert_eq!(differ.json()["first_divergence"]["frame"], 30);
    assert!(differ.json()["signals"]["vars"]["discrepancy"].as_f64().is_some_and(|d| d > 0.5));
    let bad = s.post("/v1/traces/diff", &json!({"a": "{", "b": a})).await;
    assert_eq!(bad.status, 422);
    let bad_signal = s.post("/v1/traces/diff", &json!({"a": a, "b": a, "signals": ["nope"]})).await;
    assert_eq!(bad_signal.status, 422);
    assert_eq!(bad_signal.json()["error"]["path"], "signals[0]");
    s.stop().await;
}

#[tokio::test]
async fn projects_validate_like_gobo_validate() {
    let s = TestServer::new("validate");
    let project = read("examples/scratch/quiz/project.json");
    let r = s
        .post_text(
            "/v1/projects/validate",
            &format!("{{\"project\": {project}, \"assets\": false}}"),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["valid"], true);
    assert_eq!(r.json()["errors"], 0);
    // The examples have no asset files: with the asset check on, each costume is a finding.
    let with_assets =
        s.post_text("/v1/projects/validate", &format!("{{\"project\": {project}}}")).await;
    assert!(with_assets.json()["findings"].as_array().is_some_and(|f| !f.is_empty()));
    // A variable declared under another id: the blocks that name it dangle.
    let broken = project.replacen("\"v_Stage_score\": [", "\"v_other\": [", 1);
    let r = s
        .post_text(
            "/v1/projects/validate",
            &format!("{{\"project\": {broken}, \"assets\": false}}"),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!((r.json()["valid"].as_bool(), r.json()["errors"].as_u64()), (Some(false), Some(2)));
    assert_eq!(r.json()["findings"][0]["code"], "UNKNOWN_VARIABLE");
    let unreadable = s.post("/v1/projects/validate", &json!({"project": {"targets": "x"}})).await;
    assert_eq!(unreadable.status, 422);
    assert_eq!(unreadable.code(), "bad_project");
    s.stop().await;
}

#[tokio::test]
async fn projects_edit_distance_like_gobo_edit_distance() {
    let s = TestServer::new("edit-distance");
    let broken = read("examples/scratch/keys/broken.json");
    let fixed = read("examples/scratch/keys/project.json");
    let body = |candidate: &str| {
        format!("{{\"base\": {broken}, \"gold\": {fixed}, \"candidate\": {candidate}}}")
    };
    let gold = s.post_text("/v1/projects/edit-distance", &body(&fixed)).await;
    assert_eq!(gold.status, 200, "{}", gold.text());
    assert_eq!(gold.json()["d_edit"], 0);
    assert_eq!(gold.json()["matched"], json!([["modify", "Cat", "Cab15", "inputs/DY", "10"]]));
    // The unchanged base misses the one gold edit; a candidate as .sb3-less base64 text of
    // project.json scores the same as the object.
    let none = s.post_text("/v1/projects/edit-distance", &body(&broken)).await;
    assert_eq!(
        (none.json()["d_edit"].as_u64(), none.json()["missing"].as_array().map(Vec::len)),
        (Some(1), Some(1))
    );
    let b64 =
        json!(base64::engine::general_purpose::STANDARD.encode(broken.as_bytes())).to_string();
    let none64 = s.post_text("/v1/projects/edit-distance", &body(&b64)).await;
    assert_eq!(none64.json(), none.json());
    // A wrong fix: the gold edit missing, its own edit extra.
    let mut wrong: Value = serde_json::from_str(&fixed).unwrap();
    let dy = wrong.pointer_mut("/targets/1/blocks/Cab15/inputs/DY/1/1").expect("Cat's DY");
    *dy = json!("11");
    let wrong = wrong.to_string();
    let w = s.post_text("/v1/projects/edit-distance", &body(&wrong)).await;
    assert_eq!(w.json()["d_edit"], 2, "{}", w.text());
    let unreadable = s
        .post(
            "/v1/projects/edit-distance",
            &json!({"base": {"targets": "x"}, "gold": {}, "candidate": {}}),
        )
        .await;
    assert_eq!(unreadable.status, 422);
    assert_eq!(unreadable.code(), "bad_project");
    let missing = s.post("/v1/projects/edit-distance", &json!({"base": {}})).await;
    assert_eq!(missing.status, 422, "{}", missing.text());
    s.stop().await;
}
