//! The patch endpoints in process: `POST /v1/projects/patch|invert|diff` (a diff from each
//! example's broken project to its fixed one applies and leaves no difference; the inverse
//! restores the broken project; `.sb3` output is deterministic; failing and JSON patches), and
//! `POST /v1/sessions/{id}/patch` (the session's project fixed by the diff passes the example's
//! suite; the patch is logged; the step counter is unchanged) with `?target=` observations.

mod common;

use base64::Engine as _;
use common::{read, TestServer};
use serde_json::{json, Value};

fn project(name: &str, file: &str) -> Value {
    serde_json::from_str(&read(&format!("examples/scratch/{name}/{file}"))).expect("project")
}

async fn ok(s: &TestServer, uri: &str, body: Value) -> Value {
    let r = s.post(uri, &body).await;
    assert_eq!(r.status, 200, "{uri}: {}", r.text());
    r.json()
}

async fn no_difference(s: &TestServer, a: &Value, b: &Value) {
    let d = ok(s, "/v1/projects/diff", json!({"a": a, "b": b})).await;
    assert_eq!(d, json!({"ok": true, "patch": []}));
}

#[tokio::test]
async fn diff_apply_and_invert_round_trip() {
    let s = TestServer::new("patches");
    for name in ["keys", "quiz", "timing"] {
        let (broken, fixed) = (project(name, "broken.json"), project(name, "project.json"));
        let d = ok(&s, "/v1/projects/diff", json!({"a": broken, "b": fixed})).await;
        assert_eq!(d["ok"], true, "{d}");
        let patch = d["patch"].clone();
        assert!(patch.as_array().is_some_and(|p| !p.is_empty()), "{name}: {patch}");
        let atoms =
            ok(&s, "/v1/projects/diff", json!({"a": broken, "b": fixed, "atoms": true})).await;
        assert!(atoms["atoms"].as_array().is_some_and(|a| !a.is_empty()), "{atoms}");

        let applied =
            ok(&s, "/v1/projects/patch", json!({"project": broken, "patch": patch})).await;
        assert_eq!(applied["ok"], true, "{name}: {applied}");
        let patched = applied["project"].clone();
        no_difference(&s, &patched, &fixed).await;

        let inv = ok(&s, "/v1/projects/invert", json!({"project": broken, "patch": patch})).await;
        assert_eq!(inv["ok"], true, "{inv}");
        let back =
            ok(&s, "/v1/projects/patch", json!({"project": patched, "patch": inv["inverse"]}))
                .await;
        assert_eq!(back["ok"], true, "{back}");
        no_difference(&s, &back["project"], &broken).await;
    }
    s.stop().await;
}

#[tokio::test]
async fn sb3_output_failures_and_json_patches() {
    let s = TestServer::new("patches-sb3");
    let (broken, fixed) = (project("keys", "broken.json"), project("keys", "project.json"));
    let patch =
        ok(&s, "/v1/projects/diff", json!({"a": broken, "b": fixed})).await["patch"].clone();
    let body = json!({"project": broken, "patch": patch, "output": "sb3", "assets": false});
    let (one, two) = (
        ok(&s, "/v1/projects/patch", body.clone()).await,
        ok(&s, "/v1/projects/patch", body).await,
    );
    assert_eq!(one["ok"], true, "{one}");
    assert_eq!(one["sha256"], two["sha256"]);
    let zip = base64::engine::general_purpose::STANDARD
        .decode(one["sb3_b64"].as_str().unwrap_or(""))
        .expect("base64");
    assert_eq!(&zip[..2], b"PK");
    assert!(one.get("project").is_none());

    // An edit naming a block that does not exist fails at the apply stage; nothing else changes.
    let bad = json!([{"op": "remove", "sprite_id": "Cat", "block_id": "no-such-block"}]);
    let r = ok(&s, "/v1/projects/patch", json!({"project": broken, "patch": bad})).await;
    assert_eq!(r["ok"], false, "{r}");
    assert!(r.get("project").is_none());
    let inv = ok(&s, "/v1/projects/invert", json!({"project": broken, "patch": bad})).await;
    assert_eq!(inv["ok"], false, "{inv}");

    // JSON Patch, given as a model's raw reply with a fenced block.
    let reply = "Here is the fix:\n```json\n[{\"op\": \"test\", \"path\": \"/meta/semver\", \"value\": \"3.0.0\"}]\n```\n";
    let r = ok(
        &s,
        "/v1/projects/patch",
        json!({"project": broken, "patch": reply, "format": "json-patch"}),
    )
    .await;
    assert_eq!((r["ok"].clone(), r["format"].clone()), (json!(true), json!("json-patch")), "{r}");
    let r = ok(
        &s,
        "/v1/projects/patch",
        json!({"project": broken, "patch": "no patch here", "format": "json-patch"}),
    )
    .await;
    assert_eq!((r["ok"].clone(), r["stage"].clone()), (json!(false), json!("extract")), "{r}");

    // Bad requests: an unknown output, a missing project, an unreadable project.
    let r = s
        .post("/v1/projects/patch", &json!({"project": broken, "patch": [], "output": "zip"}))
        .await;
    assert_eq!((r.status.as_u16(), r.code().as_str()), (422, "invalid_request"));
    let r = s.post("/v1/projects/patch", &json!({"patch": []})).await;
    assert_eq!(r.status.as_u16(), 422);
    let r = s.post("/v1/projects/diff", &json!({"a": {"targets": 1}, "b": fixed})).await;
    assert_eq!((r.status.as_u16(), r.json()["error"]["path"].clone()), (422, json!("a")));
    s.stop().await;
}

#[tokio::test]
async fn a_session_is_fixed_by_a_patch_and_observed_by_target() {
    let s = TestServer::new("patches-session");
    let (broken, fixed) = (project("keys", "broken.json"), project("keys", "project.json"));
    let patch =
        ok(&s, "/v1/projects/diff", json!({"a": broken, "b": fixed})).await["patch"].clone();
    let made = s.post("/v1/sessions", &json!({"project": broken})).await;
    assert_eq!(made.status, 201, "{}", made.text());
    let id = made.json()["session_id"].as_str().unwrap().to_string();
    let suite: Value = serde_json::from_str(&read("examples/scratch/keys/suite.json")).unwrap();
    let eval = ok(&s, &format!("/v1/sessions/{id}/evaluate"), json!({"suite": suite})).await;
    assert_eq!(eval["success"], false, "the broken project fails its suite");

    let r =
        ok(&s, &format!("/v1/sessions/{id}/patch"), json!({"patch": patch, "assets": false})).await;
    assert_eq!(r["ok"], true, "{r}");
    let eval = ok(&s, &format!("/v1/sessions/{id}/evaluate"), json!({"suite": suite})).await;
    assert_eq!(eval["success"], true, "{eval}");
    let bad = json!([{"op": "remove", "sprite_id": "Cat", "block_id": "no-such-block"}]);
    let r = ok(&s, &format!("/v1/sessions/{id}/patch"), json!({"patch": bad})).await;
    assert_eq!(r["ok"], false);
    let info = s.get(&format!("/v1/sessions/{id}")).await.json();
    assert_eq!(info["step"], 0, "a patch is not a step: {info}");
    let log = s.get(&format!("/v1/sessions/{id}/log")).await.json();
    let kinds: Vec<(Value, Value)> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["kind"].clone(), e["ok"].clone()))
        .collect();
    assert_eq!(kinds, vec![(json!("patch"), json!(true)), (json!("patch"), json!(false))]);
    let r =
        s.post(&format!("/v1/sessions/{id}/patch"), &json!({"patch": [], "project": fixed})).await;
    assert_eq!(r.status.as_u16(), 422);

    // Observing another target leaves the editing target's observation alone.
    let mine = s.get(&format!("/v1/sessions/{id}/observation")).await.text();
    let stage = s.get(&format!("/v1/sessions/{id}/observation?target=Stage&format=json")).await;
    assert_eq!(stage.status, 200, "{}", stage.text());
    let stage = stage.json();
    assert_eq!(
        (stage["target"].clone(), stage["is_stage"].clone()),
        (json!("Stage"), json!(true)),
        "{stage}"
    );
    assert_eq!(s.get(&format!("/v1/sessions/{id}/observation")).await.text(), mine);
    let none = s.get(&format!("/v1/sessions/{id}/observation?target=Nobody")).await;
    assert_eq!((none.status.as_u16(), none.code().as_str()), (404, "unknown_target"));
    s.stop().await;
}
