//! The session endpoints in process (tower `oneshot`): an agent's trajectory
//! (`hosts/cli/tests/fixtures/agent/game.jsonl`, 35 composite actions) builds an arrow-key game
//! over `/v1/sessions/{id}/act` and its suite passes on the session; observation, run, stage
//! picture, the gold picture and the action log, export, fork, delete; unknown sessions, failing actions, the session cap, idle
//! expiry, per-session serialization, a restart on the same data folder; and ScratchWorld's
//! route set.

mod common;

use axum::http::Method;
use base64::Engine as _;
use common::{root, TestServer};
use gobo_server::Limits;
use serde_json::{json, Value};

fn fixture(name: &str) -> std::path::PathBuf {
    root().join("hosts/cli/tests/fixtures/agent").join(name)
}

/// The starting project (one sprite, two costumes, no scripts) as a base64 `.sb3`.
fn start_sb3() -> String {
    let files = gobo_host::sb3::load_path(&fixture("start")).expect("start project");
    let bytes = gobo_host::sb3::write_sb3(&files).expect("sb3");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn actions() -> Vec<Value> {
    let text = std::fs::read_to_string(fixture("game.jsonl")).expect("game.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn suite() -> Value {
    serde_json::from_str(&std::fs::read_to_string(fixture("game.suite.json")).unwrap()).unwrap()
}

async fn create(s: &TestServer, extra: Value) -> String {
    let mut body = json!({"project": start_sb3()});
    if let (Some(b), Value::Object(e)) = (body.as_object_mut(), extra) {
        b.extend(e);
    }
    let r = s.post("/v1/sessions", &body).await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()["session_id"].as_str().expect("session_id").to_string()
}

fn png_size(bytes: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info().expect("a PNG");
    (reader.info().width, reader.info().height)
}

#[tokio::test]
async fn a_trajectory_builds_a_game_that_passes_its_suite() {
    let s = TestServer::new("sessions-game");
    let r = s.post("/v1/sessions", &json!({"project": start_sb3(), "seed": 0})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let created = r.json();
    let id = created["session_id"].as_str().unwrap().to_string();
    assert_eq!(created["step"], 0);
    assert_eq!(created["max_steps"], 50);
    assert_eq!(created["observation"]["target"], "Cat");
    // Before any action the suite cannot be judged: it reads a variable the agent has yet to
    // make.
    let before = s.post(&format!("/v1/sessions/{id}/evaluate"), &json!({"suite": suite()})).await;
    assert_eq!(before.status, 422, "{}", before.text());
    assert_eq!(before.code(), "bad_suite");
    assert!(before.text().contains("'hits'"), "{}", before.text());

    let all = actions();
    let mut last = Value::Null;
    for (n, a) in all.iter().enumerate() {
        let r = s.post(&format!("/v1/sessions/{id}/act"), a).await;
        assert_eq!(r.status, 200, "{}", r.text());
        last = r.json();
        assert_eq!(last["success"], true, "action {n}: {last}");
        assert_eq!(last["meta"]["session_id"], id.as_str());
        assert_eq!(last["meta"]["step"], n + 1);
        if n == 0 {
            // With the variable made and no script yet, the suite runs and fails.
            let early =
                s.post(&format!("/v1/sessions/{id}/evaluate"), &json!({"suite": suite()})).await;
            assert_eq!(early.status, 200, "{}", early.text());
            assert_eq!(early.json()["success"], false);
        }
    }
    assert_eq!(all.len(), 35);
    assert_eq!(last["done"], true);
    assert_eq!(last["meta"]["steps_left"], 15);

    let report = s.post(&format!("/v1/sessions/{id}/evaluate"), &json!({"suite": suite()})).await;
    assert_eq!(report.status, 200, "{}", report.text());
    let report = report.json();
    assert_eq!(report["success"], true, "{report}");
    assert_eq!(report["passed_tests"], 3);
    assert_eq!(report["total_tests"], 3);

    // Observation as text and as JSON.
    let text = s.get(&format!("/v1/sessions/{id}/observation")).await;
    assert_eq!(text.status, 200);
    assert!(text.text().contains("event_whenflagclicked"), "{}", text.text());
    let obs = s.get(&format!("/v1/sessions/{id}/observation?format=json")).await.json();
    assert_eq!(obs["target"], "Cat");
    assert!(obs["blocks"].as_array().is_some_and(|b| b.len() > 10), "{obs}");
    assert_eq!(s.get(&format!("/v1/sessions/{id}/observation?format=xml")).await.status, 400);

    // The export is deterministic and keeps the costumes; it passes the stateless endpoint too.
    let sb3 = s.get(&format!("/v1/sessions/{id}/project")).await;
    assert_eq!(sb3.status, 200);
    assert_eq!(sb3.headers["content-type"], "application/x.scratch.sb3");
    let again = s.get(&format!("/v1/sessions/{id}/project?format=sb3")).await;
    assert_eq!(sb3.body, again.body);
    let files = gobo_host::sb3::read_sb3(&sb3.body, &gobo_host::sb3::Limits::default()).unwrap();
    assert_eq!(files.assets.len(), 2);
    let b64 = base64::engine::general_purpose::STANDARD.encode(&sb3.body);
    let judged = s.post("/v1/tests/run", &json!({"project": b64, "suite": suite()})).await;
    assert_eq!(judged.json()["success"], true);
    let pj = s.get(&format!("/v1/sessions/{id}/project?format=json")).await;
    assert_eq!(pj.body, files.project_json);

    // A run: meta line naming the session, one line per frame, an end line.
    let run = s.post(&format!("/v1/sessions/{id}/run"), &json!({"frames": 10})).await;
    assert_eq!(run.status, 200, "{}", run.text());
    let lines: Vec<Value> =
        run.text().lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
    assert_eq!(lines.len(), 12, "{}", run.text());
    assert!(run.text().lines().next().unwrap().contains(&id));
    let over = s.post(&format!("/v1/sessions/{id}/run"), &json!({"frames": 10_000_000})).await;
    assert_eq!(over.status, 422);
    assert_eq!(over.code(), "work_budget");

    // The stage picture.
    let png = s.get(&format!("/v1/sessions/{id}/stage.png?after_frame=3")).await;
    assert_eq!(png.status, 200, "{}", png.text());
    assert_eq!(png.headers["content-type"], "image/png");
    assert_eq!(png_size(&png.body), (480, 360));
    let big = s.get(&format!("/v1/sessions/{id}/stage.png?scale=2")).await;
    assert_eq!(png_size(&big.body), (960, 720));
    assert_eq!(s.get(&format!("/v1/sessions/{id}/stage.png?scale=9")).await.status, 422);

    // The state, then delete.
    let info = s.get(&format!("/v1/sessions/{id}")).await.json();
    assert_eq!(info["step"], 35);
    assert_eq!(info["finished"], "done");
    assert_eq!(info["editing_target"], "Cat");
    let gone = s.delete(&format!("/v1/sessions/{id}")).await;
    assert_eq!(gone.status, 200);
    assert_eq!(gone.json(), json!({"deleted": true, "session_id": id, "steps_used": 35}));
    assert_eq!(s.get(&format!("/v1/sessions/{id}")).await.code(), "unknown_session");
    s.stop().await;
}

#[tokio::test]
async fn unknown_sessions_and_failing_actions() {
    let s = TestServer::new("sessions-bad");
    for id in ["s-0123456789abcdef", "nope", "s-zz"] {
        for (method, path) in [
            (Method::GET, format!("/v1/sessions/{id}")),
            (Method::GET, format!("/v1/sessions/{id}/observation")),
            (Method::GET, format!("/v1/sessions/{id}/stage.png")),
            (Method::GET, format!("/v1/sessions/{id}/project")),
            (Method::POST, format!("/v1/sessions/{id}/fork")),
            (Method::DELETE, format!("/v1/sessions/{id}")),
            (Method::GET, format!("/sessions/{id}/screenshot")),
        ] {
            let r = s.call(method, &path, None, Vec::new()).await;
            assert_eq!(r.status, 404, "{path}: {}", r.text());
            assert_eq!(r.code(), "unknown_session", "{path}");
        }
        let r = s.post(&format!("/v1/sessions/{id}/act"), &json!({"api": "done"})).await;
        assert_eq!(r.status, 404);
        let r = s.post(&format!("/v1/sessions/{id}/evaluate"), &json!({"suite": suite()})).await;
        assert_eq!(r.status, 404);
    }
    let id = create(&s, json!({})).await;
    let path = format!("/v1/sessions/{id}/act");
    // Agent-level failures are 200 with success: false and ScratchWorld's code.
    let r = s.post(&path, &json!({"api": "fly_away", "args": {}})).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["success"], false);
    assert_eq!(r.json()["error"]["code"], "UNSUPPORTED");
    let r = s.post(&path, &json!({"api": "select_sprite", "args": {"name": "Nobody"}})).await;
    assert_eq!(r.json()["error"]["code"], "NOT_FOUND");
    let r = s.post(&path, &json!({"args": {}})).await;
    assert_eq!(r.json()["error"]["code"], "INVALID_ARG");
    let r = s.post(&path, &json!({"api": "delete_block", "args": {"blockIndex": 99}})).await;
    assert_eq!(r.json()["success"], false);
    assert_eq!(r.json()["meta"]["step"], 4);
    // Caller errors are 4xx.
    let bad = s.post_text(&format!("/v1/sessions/{id}/act"), "{\"api\": ").await;
    assert_eq!(bad.status, 400);
    assert_eq!(bad.code(), "malformed_json");
    let none = s.post("/v1/sessions", &json!({"mode": "compat"})).await;
    assert_eq!(none.status, 422);
    assert_eq!(none.code(), "invalid_request");
    let junk = s.post("/v1/sessions", &json!({"project": "not base64!"})).await;
    assert_eq!(junk.status, 422);
    assert_eq!(junk.code(), "bad_project");
    let mode = s.post("/v1/sessions", &json!({"project": start_sb3(), "mode": "loud"})).await;
    assert_eq!(mode.status, 422);
    assert_eq!(mode.json()["error"]["path"], "mode");
    let suite =
        s.post(&format!("/v1/sessions/{id}/evaluate"), &json!({"suite": {"tests": 3}})).await;
    assert_eq!(suite.status, 422);
    assert_eq!(suite.code(), "bad_suite");
    // The episode ends after max_steps.
    let short = create(&s, json!({"max_steps": 2})).await;
    for step in 1..=3 {
        let r = s.post(&format!("/v1/sessions/{short}/act"), &json!({"api": "select_stage"})).await;
        let r = r.json();
        assert_eq!(r["done"], step >= 2, "{r}");
        assert_eq!(r["success"], step < 3, "{r}");
    }
    s.stop().await;
}

#[tokio::test]
async fn the_cap_forks_and_deletes() {
    let limits = Limits { workers: 2, max_sessions: 2, ..Limits::default() };
    let s = TestServer::with_limits("sessions-cap", limits);
    let a = create(&s, json!({})).await;
    let fork = s.post(&format!("/v1/sessions/{a}/fork"), &json!({})).await;
    assert_eq!(fork.status, 201, "{}", fork.text());
    let b = fork.json()["session_id"].as_str().unwrap().to_string();
    assert_ne!(a, b);
    let full = s.post("/v1/sessions", &json!({"project": start_sb3()})).await;
    assert_eq!(full.status, 429);
    assert_eq!(full.code(), "too_many_sessions");
    assert_eq!(s.post(&format!("/v1/sessions/{a}/fork"), &json!({})).await.status, 429);
    let list = s.get("/v1/sessions").await;
    assert_eq!(list.headers["x-max-sessions"], "2");
    assert_eq!(list.headers["x-active-sessions"], "2");
    assert_eq!(list.json()["active"], 2);

    // The fork changes apart from its origin.
    let add = json!({"api": "add_block", "args": {"blockType": "motion_movesteps"}});
    let r = s.post(&format!("/v1/sessions/{b}/act"), &add).await.json();
    assert_eq!(r["success"], true);
    assert_eq!(r["meta"]["session_id"], b.as_str());
    let obs_a = s.get(&format!("/v1/sessions/{a}/observation?format=json")).await.json();
    let obs_b = s.get(&format!("/v1/sessions/{b}/observation?format=json")).await.json();
    assert_eq!(obs_a["blocks"].as_array().map(Vec::len), Some(0));
    assert_eq!(obs_b["blocks"].as_array().map(Vec::len), Some(1));
    assert_eq!(s.get(&format!("/v1/sessions/{a}")).await.json()["step"], 0);
    assert_eq!(s.get(&format!("/v1/sessions/{b}")).await.json()["step"], 1);

    // Deleting frees a place.
    assert_eq!(s.delete(&format!("/v1/sessions/{a}")).await.status, 200);
    assert_eq!(s.delete(&format!("/v1/sessions/{a}")).await.status, 404);
    assert_eq!(s.post("/v1/sessions", &json!({"project": start_sb3()})).await.status, 201);
    s.stop().await;
}

#[tokio::test]
async fn idle_sessions_expire() {
    let limits = Limits { workers: 2, session_idle_secs: 1, ..Limits::default() };
    let s = TestServer::with_limits("sessions-idle", limits);
    let id = create(&s, json!({})).await;
    assert_eq!(s.get(&format!("/v1/sessions/{id}")).await.status, 200);
    tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
    let r = s.get(&format!("/v1/sessions/{id}")).await;
    assert_eq!(r.status, 404);
    assert_eq!(r.code(), "session_expired");
    assert_eq!(s.get("/v1/sessions").await.json()["active"], 0);
    s.stop().await;
}

#[tokio::test]
async fn concurrent_actions_on_one_session_do_not_interleave() {
    let s = std::sync::Arc::new(TestServer::new("sessions-serial"));
    let id = create(&s, json!({"max_steps": 0})).await;
    let mut tasks = Vec::new();
    for _ in 0..24 {
        let (s, id) = (std::sync::Arc::clone(&s), id.clone());
        tasks.push(tokio::spawn(async move {
            let add = json!({"api": "add_block", "args": {"blockType": "looks_show"}});
            s.post(&format!("/v1/sessions/{id}/act"), &add).await.json()
        }));
    }
    let mut steps = Vec::new();
    for t in tasks {
        let r = t.await.unwrap();
        assert_eq!(r["success"], true, "{r}");
        steps.push(r["meta"]["step"].as_u64().unwrap());
    }
    steps.sort_unstable();
    assert_eq!(steps, (1..=24).collect::<Vec<u64>>());
    let obs = s.get(&format!("/v1/sessions/{id}/observation?format=json")).await.json();
    assert_eq!(obs["blocks"].as_array().map(Vec::len), Some(24));
    let ids: std::collections::BTreeSet<&str> =
        obs["blocks"].as_array().unwrap().iter().filter_map(|b| b["id"].as_str()).collect();
    assert_eq!(ids.len(), 24);
    if let Ok(s) = std::sync::Arc::try_unwrap(s) {
        s.stop().await;
    }
}

#[tokio::test]
async fn sessions_survive_a_restart() {
    let s = TestServer::new("sessions-restart");
    let id = create(&s, json!({"auto_observe": false})).await;
    let all = actions();
    for a in &all[..10] {
        // Without auto_observe the client observes before each action, as ScratchWorld's does.
        assert_eq!(s.get(&format!("/v1/sessions/{id}/observation")).await.status, 200);
        let r = s.post(&format!("/v1/sessions/{id}/act"), a).await.json();
        assert_eq!(r["success"], true, "{r}");
    }
    // The last observation is the index map the next action resolves against.
    assert_eq!(s.get(&format!("/v1/sessions/{id}/observation")).await.status, 200);
    let before = s.get(&format!("/v1/sessions/{id}/project")).await.body;
    let forked = s.post(&format!("/v1/sessions/{id}/fork"), &json!({})).await.json();
    let fork = forked["session_id"].as_str().unwrap().to_string();
    let dir = s.stop().await;

    let s = TestServer::open(dir, Limits { workers: 2, ..Limits::default() });
    let info = s.get(&format!("/v1/sessions/{id}")).await.json();
    assert_eq!(info["step"], 10, "{info}");
    assert_eq!(info["config"]["auto_observe"], false);
    assert_eq!(s.get(&format!("/v1/sessions/{id}/project")).await.body, before);
    assert_eq!(s.get(&format!("/v1/sessions/{fork}")).await.json()["step"], 10);
    assert_eq!(s.get("/v1/sessions").await.json()["active"], 2);
    // The index map was saved too: the next action resolves without a new observation.
    let r = s.post(&format!("/v1/sessions/{id}/act"), &all[10]).await.json();
    assert_eq!(r["success"], true, "{r}");
    for a in &all[11..] {
        assert_eq!(s.get(&format!("/v1/sessions/{id}/observation")).await.status, 200);
        let r = s.post(&format!("/v1/sessions/{id}/act"), a).await.json();
        assert_eq!(r["success"], true, "{r}");
    }
    let report = s.post(&format!("/v1/sessions/{id}/evaluate"), &json!({"suite": suite()})).await;
    assert_eq!(report.json()["success"], true, "{}", report.text());
    s.stop().await;
}

/// A session's observation (JSON), exported `project.json` and action log.
async fn state_of(s: &TestServer, id: &str) -> (Value, String, Value) {
    let obs = s.get(&format!("/v1/sessions/{id}/observation?format=json")).await.json();
    let project = s.get(&format!("/v1/sessions/{id}/project?format=json")).await.text();
    (obs, project, log_of(s, id).await)
}

/// A crash (no shutdown snapshot) after 30 actions, with a snapshot every `every` replay rows:
/// the session read back (its snapshot, then its replay rows through the core) has the same
/// step, project, observation and index map, and finishes the game.
async fn crash_and_replay(every: u32) {
    let limits = Limits { workers: 2, session_snapshot_every: every, ..Limits::default() };
    let s = TestServer::with_limits(&format!("sessions-replay-{every}"), limits.clone());
    let observing = create(&s, json!({"auto_observe": false})).await;
    let auto = create(&s, json!({})).await;
    let all = actions();
    for a in &all[..30] {
        assert_eq!(s.get(&format!("/v1/sessions/{observing}/observation")).await.status, 200);
        for id in [&observing, &auto] {
            let r = s.post(&format!("/v1/sessions/{id}/act"), a).await.json();
            assert_eq!(r["success"], true, "{r}");
        }
    }
    // The observing session's last observation is its index map: the action after the crash
    // resolves against it.
    assert_eq!(s.get(&format!("/v1/sessions/{observing}/observation")).await.status, 200);
    let project = s.get(&format!("/v1/sessions/{observing}/project?format=json")).await.text();
    let before = state_of(&s, &auto).await;
    assert_eq!(before.2.as_array().map(Vec::len), Some(30));
    let dir = s.crash().await;

    let s = TestServer::open(dir, limits);
    for id in [&observing, &auto] {
        assert_eq!(s.get(&format!("/v1/sessions/{id}")).await.json()["step"], 30, "{id}");
    }
    let after = s.get(&format!("/v1/sessions/{observing}/project?format=json")).await.text();
    assert_eq!(after, project);
    let after = state_of(&s, &auto).await;
    assert_eq!(after, before);
    let r = s.post(&format!("/v1/sessions/{observing}/act"), &all[30]).await.json();
    assert_eq!(r["success"], true, "{r}");
    for a in &all[31..] {
        assert_eq!(s.get(&format!("/v1/sessions/{observing}/observation")).await.status, 200);
        let r = s.post(&format!("/v1/sessions/{observing}/act"), a).await.json();
        assert_eq!(r["success"], true, "{r}");
    }
    let report =
        s.post(&format!("/v1/sessions/{observing}/evaluate"), &json!({"suite": suite()})).await;
    assert_eq!(report.json()["success"], true, "{}", report.text());
    s.stop().await;
}

#[tokio::test]
async fn a_crash_loses_no_acknowledged_action() {
    // No snapshot since the session was made: every action is replayed.
    crash_and_replay(1000).await;
    // Snapshots every 4 rows: the last ones are replayed on top of a snapshot.
    crash_and_replay(4).await;
}

#[tokio::test]
async fn the_scratchworld_route_set() {
    let s = TestServer::new("sessions-scratchworld");
    // ScratchWorld's harness: create with no body, load the task's project, act, evaluate.
    let r = s.call(Method::POST, "/sessions?record=false&quality=medium", None, Vec::new()).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["is_recording"], false);
    let id = r.json()["session_id"].as_str().unwrap().to_string();
    let empty = s.get(&format!("/v1/sessions/{id}/observation?format=json")).await.json();
    assert_eq!(empty["target"], "Sprite1");

    let sb3 = base64::engine::general_purpose::STANDARD.decode(start_sb3()).unwrap();
    let up = s.call(Method::POST, "/v1/blobs", Some("application/octet-stream"), sb3).await;
    let reference = up.json()["ref"].as_str().unwrap().to_string();
    let bad = s
        .call(
            Method::POST,
            &format!("/sessions/{id}/load_project?project_name=game.sb3"),
            None,
            Vec::new(),
        )
        .await;
    assert_eq!(bad.status, 422);
    let load = s
        .call(
            Method::POST,
            &format!("/sessions/{id}/load_project?project_name={reference}"),
            None,
            Vec::new(),
        )
        .await;
    assert_eq!(load.status, 200, "{}", load.text());
    assert_eq!(load.json()["project_ref"], reference.as_str());
    let obs = s.get(&format!("/v1/sessions/{id}/observation?format=json")).await.json();
    assert_eq!(obs["target"], "Cat");

    for a in actions() {
        let r = s.post(&format!("/sessions/{id}/composite/execute"), &a).await.json();
        assert_eq!(r["success"], true, "{r}");
    }
    let report = s.post(&format!("/sessions/{id}/evaluate"), &json!({"suite": suite()})).await;
    assert_eq!(report.json()["success"], true, "{}", report.text());
    let shot = s.get(&format!("/sessions/{id}/screenshot")).await.json();
    assert_eq!(shot["format"], "base64");
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot["screenshot"].as_str().unwrap())
        .unwrap();
    assert_eq!(png_size(&png), (480, 360));
    let same = s.get(&format!("/v1/sessions/{id}/stage.png")).await;
    assert_eq!(same.body, png);
    assert_eq!(s.get(&format!("/sessions/{id}/screenshot?format=file")).await.status, 400);
    let list = s.get("/sessions").await;
    assert_eq!(list.headers["x-active-sessions"], "1");
    assert_eq!(s.get(&format!("/sessions/{id}")).await.json()["step"], 35);
    assert_eq!(s.delete(&format!("/sessions/{id}")).await.json()["steps_used"], 35);

    // A session made with a body starts from its project.
    let r = s.post("/sessions", &json!({"project": start_sb3(), "max_steps": 5})).await;
    let id = r.json()["session_id"].as_str().unwrap().to_string();
    assert_eq!(s.get(&format!("/sessions/{id}")).await.json()["config"]["max_steps"], 5);

    let doc = s.get("/v1/openapi.json").await.json();
    for path in [
        "/v1/sessions",
        "/v1/sessions/{id}",
        "/v1/sessions/{id}/observation",
        "/v1/sessions/{id}/act",
        "/v1/sessions/{id}/run",
        "/v1/sessions/{id}/stage.png",
        "/v1/sessions/{id}/project",
        "/v1/sessions/{id}/evaluate",
        "/v1/sessions/{id}/fork",
        "/sessions",
        "/sessions/{id}",
        "/sessions/{id}/load_project",
        "/sessions/{id}/composite/execute",
        "/sessions/{id}/evaluate",
        "/sessions/{id}/screenshot",
    ] {
        assert!(doc["paths"].get(path).is_some(), "{path} missing from the OpenAPI document");
    }
    s.stop().await;
}

/// A project of the viewer test: a pen line drawn `steps` pixels a frame.
fn pen(gold: bool) -> Value {
    let name = if gold { "pen-gold.json" } else { "pen.json" };
    common::json_file(&format!("hosts/cli/tests/viewer/{name}"))
}

async fn log_of(s: &TestServer, id: &str) -> Value {
    s.get(&format!("/v1/sessions/{id}/log")).await.json()["entries"].clone()
}

#[tokio::test]
async fn an_invalid_result_is_refused_and_not_logged() {
    let s = TestServer::new("sessions-invalid");
    let project = common::json_file("hosts/cli/tests/fixtures/agent/custom-block.json");
    let r = s.post("/v1/sessions", &json!({"project": project, "mode": "full"})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let id = r.json()["session_id"].as_str().unwrap().to_string();
    let act = format!("/v1/sessions/{id}/act");
    let call = json!({"api": "add_block", "args": {"blockType": "procedures_call"}});
    assert_eq!(s.post(&act, &call).await.json()["success"], true);
    // Deleting the definition (#1) while the call (#2) remains: a 200 refusal, no step used.
    let r = s.post(&act, &json!({"api": "delete_block", "args": {"blockIndex": 1}})).await;
    assert_eq!(r.status, 200);
    let r = r.json();
    assert_eq!((&r["success"], &r["meta"]["step"]), (&json!(false), &json!(1)), "{r}");
    assert_eq!(r["error"]["code"], "INVALID_RESULT", "{r}");
    assert_eq!(r["error"]["details"]["findings"][0]["code"], "UNKNOWN_PROCEDURE", "{r}");
    let text = s.get(&format!("/v1/sessions/{id}/observation")).await.text();
    assert!(text.contains("procedures_definition"), "{text}");
    let entries = log_of(&s, &id).await;
    assert_eq!(entries.as_array().map(Vec::len), Some(1), "only the add_block: {entries}");
    s.stop().await;
}

#[tokio::test]
async fn the_action_log_and_the_gold_picture() {
    let s = TestServer::new("sessions-log");
    let r = s
        .post("/v1/sessions", &json!({"project": pen(false), "gold": pen(true), "mode": "full"}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let made = r.json();
    let id = made["session_id"].as_str().unwrap().to_string();
    let info = s.get(&format!("/v1/sessions/{id}")).await.json();
    assert_eq!(info["gold_ref"].as_str().map(str::len), Some(64), "{info}");
    assert_eq!(log_of(&s, &id).await, json!([]));

    // The gold program moves 4 steps a frame, the session's 2: at frame 20 they differ.
    let stage = s.get(&format!("/v1/sessions/{id}/stage.png?after_frame=20")).await;
    let gold = s.get(&format!("/v1/sessions/{id}/gold.png?after_frame=20")).await;
    assert_eq!((stage.status.as_u16(), gold.status.as_u16()), (200, 200));
    assert_eq!(png_size(&gold.body), (480, 360));
    assert_ne!(stage.body, gold.body);

    let blocks = made["observation"]["blocks"].as_array().unwrap();
    let mv = blocks.iter().find(|b| b["opcode"] == "motion_movesteps").unwrap()["index"].clone();
    let bad = json!({"api": "delete_block", "args": {"blockIndex": 99}});
    let fix = json!({"api": "set_block_field", "args": {"blockIndex": mv, "fieldName": "STEPS", "value": "4"}});
    assert_eq!(s.post(&format!("/v1/sessions/{id}/act"), &bad).await.json()["success"], false);
    assert_eq!(s.post(&format!("/v1/sessions/{id}/act"), &fix).await.json()["success"], true);
    let entries = log_of(&s, &id).await;
    assert_eq!(entries.as_array().map(Vec::len), Some(2), "{entries}");
    assert_eq!(entries[0]["kind"], "act");
    assert_eq!(entries[0]["step"], 1);
    assert_eq!(entries[0]["success"], false);
    assert_eq!(entries[0]["error"]["code"], "NOT_FOUND", "{entries}");
    assert_eq!(entries[1]["step"], 2);
    assert_eq!(entries[1]["success"], true);
    assert_eq!(entries[1]["requested_action"]["api"], "set_block_field");
    assert!(entries[1]["error"].is_null());
    // Fixed: the stage equals the gold one.
    let stage = s.get(&format!("/v1/sessions/{id}/stage.png?after_frame=20")).await;
    assert_eq!(stage.body, gold.body);

    // A fork starts a new log; the log survives a restart and goes with the session.
    let fork = s.post(&format!("/v1/sessions/{id}/fork"), &json!({})).await.json();
    let fork = fork["session_id"].as_str().unwrap().to_string();
    assert_eq!(log_of(&s, &fork).await, json!([]));
    let dir = s.stop().await;
    let s = TestServer::open(dir, Limits { workers: 2, ..Limits::default() });
    assert_eq!(log_of(&s, &id).await, entries);
    let g = s.get(&format!("/v1/sessions/{fork}/gold.png?after_frame=20")).await;
    assert_eq!(g.body, gold.body);
    assert_eq!(s.delete(&format!("/v1/sessions/{id}")).await.status, 200);
    assert_eq!(s.get(&format!("/v1/sessions/{id}/log")).await.status, 404);

    // Without a gold project, gold.png is a 404 that says so; a gold that does not load is a 422.
    let plain = create(&s, json!({})).await;
    let none = s.get(&format!("/v1/sessions/{plain}/gold.png")).await;
    assert_eq!((none.status.as_u16(), none.code().as_str()), (404, "no_gold"));
    let broken =
        s.post("/v1/sessions", &json!({"project": pen(false), "gold": {"targets": 7}})).await;
    assert_eq!(broken.status, 422, "{}", broken.text());
    assert_eq!(broken.json()["error"]["path"], "gold");
    s.stop().await;
}
