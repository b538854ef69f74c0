//! The repair-toolkit endpoints in process, on the forge corpus's `scenes` project (broadcast
//! driven scenes): `/v1/scenarios/instantiate` finds its messages; `/v1/bugs/sites` lists ranked
//! sites; `/v1/bugs/inject` validates a desynchronization bug, stores the buggy `.sb3`, and its
//! inverse patch restores the gold scripts exactly; `/v1/oracles/synthesize` separates gold from
//! the stored buggy project; bad parameters and work over the budget are 422s.

mod common;

use base64::Engine as _;
use common::{root, TestServer};
use serde_json::{json, Value};

/// The corpus project `name` as a base64 `.sb3` (its assets kept).
fn sb3(name: &str) -> Value {
    let dir = root().join("tests-support/forge-corpus").join(name);
    let files = gobo_host::sb3::load_path(&dir).expect("corpus project");
    let (bytes, _) = gobo_host::sb3::repack(&files, files.project_json.clone()).expect("packs");
    json!(base64::engine::general_purpose::STANDARD.encode(bytes))
}

async fn ok(s: &TestServer, uri: &str, body: Value) -> Value {
    let r = s.post(uri, &body).await;
    assert_eq!(r.status, 200, "{uri}: {}", r.text());
    r.json()
}

/// Quick oracle parameters (H = 300 frames, as the corpus test uses).
fn quick() -> Value {
    json!({"ticks": 300, "reruns": 3})
}

#[tokio::test]
async fn scenarios_sites_inject_and_oracle() {
    let s = TestServer::new("repair");
    let gold = sb3("scenes");

    let sc = ok(&s, "/v1/scenarios/instantiate", json!({"project": gold, "ticks": 300})).await;
    assert!(sc["meta"]["messages"].as_array().is_some_and(|m| !m.is_empty()), "{sc}");
    assert!(sc["cases"].as_array().is_some_and(|c| !c.is_empty()), "{sc}");
    assert_eq!(sc["frames"], 300);

    let sites =
        ok(&s, "/v1/bugs/sites", json!({"gold": gold, "pattern": "desynchronization"})).await;
    assert_eq!(sites["patterns"], json!(["desynchronization"]));
    let list = sites["sites"].as_array().expect("sites");
    assert!(!list.is_empty(), "{sites}");
    let ranks: Vec<u64> = list.iter().map(|x| x["rank"].as_u64().expect("rank")).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "rank order: {ranks:?}");

    let body = json!({"gold": gold, "pattern": "desynchronization", "seed": 0, "oracle": quick()});
    let bug = ok(&s, "/v1/bugs/inject", body.clone()).await;
    assert_eq!(bug["success"], true, "{bug}");
    let key = bug["buggy_ref"].as_str().expect("buggy_ref").to_string();
    assert!(bug["suite"]["tests"].as_array().is_some_and(|c| !c.is_empty()), "{bug}");
    let truth = &bug["record"]["ground_truth"];
    assert!(truth["forward"].as_array().is_some_and(|f| !f.is_empty()), "{bug}");
    // The same request gives the same bug (the forge is deterministic).
    let again = ok(&s, "/v1/bugs/inject", body).await;
    assert_eq!(again["buggy_ref"], bug["buggy_ref"]);
    assert_eq!(again["record"], bug["record"]);

    // The stored archive is the buggy project; the inverse patch restores the gold scripts.
    let blob = s.get(&format!("/v1/blobs/{key}")).await;
    assert_eq!(blob.status, 200);
    let buggy = json!({"ref": key});
    let fixed = ok(
        &s,
        "/v1/projects/patch",
        json!({"project": buggy, "patch": truth["inverse"], "assets": false}),
    )
    .await;
    assert_eq!(fixed["ok"], true, "{fixed}");
    // Both sides through serde_json's sorted maps, so their block order agrees.
    let gold_json = common::json_file("tests-support/forge-corpus/scenes/project.json");
    let d = ok(&s, "/v1/projects/diff", json!({"a": fixed["project"], "b": gold_json})).await;
    assert_eq!(d, json!({"ok": true, "patch": []}));

    let syn =
        ok(&s, "/v1/oracles/synthesize", json!({"gold": gold, "buggy": buggy, "oracle": quick()}))
            .await;
    assert_eq!(syn["accepted"], true, "{syn}");
    assert!(syn["assertions"].as_array().is_some_and(|a| !a.is_empty()), "{syn}");
    s.stop().await;
}

#[tokio::test]
async fn bad_parameters_and_work_budgets() {
    let s = TestServer::new("repair-bad");
    let gold = sb3("scenes");
    let cases = [
        (json!({"gold": gold, "pattern": "no-such"}), "bad_request", "unknown pattern"),
        (
            json!({"gold": gold, "pattern": "desynchronization", "operator": "sync.nowait"}),
            "bad_request",
            "not both",
        ),
        (json!({"gold": gold, "trials": 1000}), "work_budget", "trials"),
        (
            json!({"gold": gold, "oracle": {"reruns": 100, "ticks": 100000}}),
            "work_budget",
            "frames per program",
        ),
        (json!({"gold": gold, "oracle": {"reruns": 0}}), "bad_request", "reruns"),
        (json!({"gold": gold, "oracle": {"theta_fail": 0.95}}), "bad_request", "thresholds"),
        (json!({"gold": {"targets": 3}}), "bad_project", ""),
    ];
    for (body, code, words) in cases {
        let r = s.post("/v1/bugs/inject", &body).await;
        assert_eq!(r.status, 422, "{body}: {}", r.text());
        assert_eq!(r.code(), code, "{body}: {}", r.text());
        assert!(r.text().contains(words), "{body}: {}", r.text());
    }
    let r = s.post("/v1/bugs/inject", &json!({"gold": gold, "oracle": {"rerun": 2}})).await;
    assert_eq!(r.status, 422, "unknown field: {}", r.text());
    let r = s.post("/v1/scenarios/instantiate", &json!({"project": gold, "templates": "x"})).await;
    assert_eq!(r.status, 422, "{}", r.text());
    s.stop().await;
}
