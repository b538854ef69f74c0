//! `/v1/hooks` and `/v1/record` in process on the forge corpus's clicker: the same documents
//! and picture bytes as the host library the CLI calls (`gobo hooks`, `gobo record`), gold
//! beside the candidate, and 422s for bad parameters and work over the picture budget.

mod common;

use base64::Engine as _;
use common::{root, TestServer};
use gobo::scratch::scenario::Scenario;
use gobo_host::evidence::{record, RecordParams};
use serde_json::{json, Value};

/// The clicker as a base64 `.sb3`, its assets kept.
fn clicker() -> Value {
    let dir = root().join("tests-support/forge-corpus/clicker");
    let files = gobo_host::sb3::load_path(&dir).expect("corpus project");
    let (bytes, _) = gobo_host::sb3::repack(&files, files.project_json.clone()).expect("packs");
    json!(base64::engine::general_purpose::STANDARD.encode(bytes))
}

async fn post(s: &TestServer, uri: &str, body: Value) -> (u16, Value) {
    let r = s.post(uri, &body).await;
    (r.status.as_u16(), r.json())
}

#[tokio::test]
async fn hooks_and_record() {
    let s = TestServer::new("evidence");
    let (status, hooks) = post(&s, "/v1/hooks", json!({"project": clicker()})).await;
    assert_eq!(status, 200, "{hooks}");
    let dir = root().join("tests-support/forge-corpus/clicker");
    let loaded = gobo_host::repair::Loaded::new(&gobo_host::sb3::load_path(&dir).unwrap()).unwrap();
    let want = json!({"hooks": gobo::scratch::forge::hooks(&loaded.project)});
    assert_eq!(hooks, want);
    assert!(hooks["hooks"].as_array().is_some_and(|h| !h.is_empty()));

    let (status, rec) =
        post(&s, "/v1/record", json!({"project": clicker(), "frames": 30, "every": 5})).await;
    assert_eq!(status, 200, "{rec}");
    assert_eq!(rec["samples"].as_array().map(Vec::len), Some(6), "{rec}");
    assert_eq!(rec["side_by_side"], false);
    // The pictures are the library's bytes for the same parameters.
    let image = gobo_host::project::compile_files(&loaded.files).unwrap().image;
    let params = RecordParams { every: 5, frames: Some(30), ..RecordParams::default() };
    let sc = Scenario::green_flag();
    let ev = record(image, None, &sc, &params.config(&sc)).unwrap();
    let b64 = base64::engine::general_purpose::STANDARD;
    let files = rec["files"].as_object().expect("files");
    assert_eq!(files.len(), 8, "6 samples, the sheet and the animation");
    for (name, bytes) in ev.files() {
        assert_eq!(files[name], json!(b64.encode(bytes)), "{name}");
    }
    let mut manifest = rec.clone();
    for k in ["files", "time"] {
        manifest.as_object_mut().unwrap().remove(k);
    }
    assert_eq!(manifest, ev.manifest());

    let body = json!({"project": clicker(), "gold": clicker(), "frames": 10, "every": 5});
    let (status, side) = post(&s, "/v1/record", body).await;
    assert_eq!(status, 200, "{side}");
    assert_eq!(side["side_by_side"], true);
    assert!(side["width"].as_u64() > rec["width"].as_u64());

    for (body, field) in [
        (json!({"project": clicker(), "every": 0}), None),
        (json!({"project": clicker(), "frames": 3000, "every": 1}), Some("every")),
        (json!({"project": clicker(), "frames": 10_000_000}), Some("frames")),
        (json!({"project": "not a project"}), Some("project")),
    ] {
        let (status, err) = post(&s, "/v1/record", body.clone()).await;
        assert_eq!(status, 422, "{body}: {err}");
        if let Some(f) = field {
            assert_eq!(err["error"]["path"], f, "{err}");
        }
    }
    let (status, err) = post(&s, "/v1/hooks", json!({"project": {"targets": 3}})).await;
    assert_eq!(status, 422, "{err}");
}
