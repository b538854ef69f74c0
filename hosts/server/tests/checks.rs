//! `/v1/lint` and `/v1/suites/check` in process: the lint report of the CLI's fixtures (a clean
//! base, a patch with findings, the base given), and suite adequacy on the clicker's suite with
//! hand-made wrong variants (adequate; not adequate with a missed negative), each the core's
//! verdict; bad input and work over the budget are 422s.

mod common;

use base64::Engine as _;
use common::{root, TestServer};
use serde_json::{json, Value};

/// A project folder as a base64 `.sb3`, its assets kept.
fn sb3(rel: &str) -> Value {
    let files = gobo_host::sb3::load_path(&root().join(rel)).expect("project");
    let (bytes, _) = gobo_host::sb3::repack(&files, files.project_json.clone()).expect("packs");
    json!(base64::engine::general_purpose::STANDARD.encode(bytes))
}

async fn post(s: &TestServer, uri: &str, body: Value) -> (u16, Value) {
    let r = s.post(uri, &body).await;
    (r.status.as_u16(), r.json())
}

fn lint_fixture(name: &str) -> Value {
    common::json_file(&format!("hosts/cli/tests/fixtures/lint/{name}"))
}

#[tokio::test]
async fn lint_reports_the_cores_findings() {
    let s = TestServer::new("lint");
    let (status, clean) = post(&s, "/v1/lint", json!({"project": lint_fixture("base.json")})).await;
    assert_eq!(status, 200, "{clean}");
    assert_eq!(clean["findings"], json!([]), "{clean}");

    let body = json!({"project": lint_fixture("patched.json"), "base": lint_fixture("base.json")});
    let (status, report) = post(&s, "/v1/lint", body).await;
    assert_eq!(status, 200, "{report}");
    let load = |name: &str| {
        let text = std::fs::read(root().join("hosts/cli/tests/fixtures/lint").join(name)).unwrap();
        let files = gobo_host::sb3::read_bytes(&text, &Default::default()).unwrap();
        gobo_host::repair::Loaded::new(&files).unwrap().project
    };
    let want = gobo::scratch::lint::lint(&load("patched.json"), Some(&load("base.json")));
    assert_eq!(report, serde_json::to_value(&want).unwrap());
    let codes: Vec<&str> =
        report["findings"].as_array().unwrap().iter().filter_map(|f| f["code"].as_str()).collect();
    assert!(codes.iter().any(|c| c.starts_with("barrier.")), "{codes:?}");

    let (status, err) = post(&s, "/v1/lint", json!({"project": {"targets": 1}})).await;
    assert_eq!((status, err["error"]["path"].as_str()), (422, Some("project")), "{err}");
}

#[tokio::test]
async fn suite_check_separates_gold_from_wrong_programs() {
    let s = TestServer::new("suites-check");
    let suite = common::json_file("tests-support/suite-check/clicker/suite.json");
    let gold = sb3("tests-support/forge-corpus/clicker");
    let double = sb3("tests-support/suite-check/clicker/double");
    let late = sb3("tests-support/suite-check/clicker/late-level");
    let small = sb3("tests-support/suite-check/clicker/stays-small");

    let body = json!({"suite": suite, "pass": [gold], "fail": [double, late], "seeds": "1..2"});
    let (status, v) = post(&s, "/v1/suites/check", body).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["adequate"], true, "{v}");
    assert_eq!(v["negatives_caught"], 2);
    assert_eq!(v["seeds"], json!([1, 2]));
    assert_eq!(v["negatives"][0]["name"], "fail[0]");

    let body = json!({"suite": suite, "pass": [gold], "fail": [double, small]});
    let (status, v) = post(&s, "/v1/suites/check", body).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["adequate"], false, "{v}");
    assert_eq!(v["negatives"][1]["caught"], false, "stays-small is missed on purpose: {v}");

    for (body, path) in [
        (json!({"suite": suite, "pass": [gold], "fail": []}), None),
        (json!({"suite": suite, "pass": [gold], "fail": [double], "seeds": 1000}), Some("seeds")),
        (json!({"suite": {"tests": 3}, "pass": [gold], "fail": [double]}), None),
        (json!({"suite": suite, "pass": ["not a project"], "fail": [double]}), Some("pass[0]")),
    ] {
        let (status, err) = post(&s, "/v1/suites/check", body.clone()).await;
        assert_eq!(status, 422, "{body}: {err}");
        if let Some(p) = path {
            assert_eq!(err["error"]["path"], p, "{err}");
        }
    }
}
