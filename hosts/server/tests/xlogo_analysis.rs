//! The XLogoMiniProg analyses in process: `POST /v1/xlogo/classify|perturb|resample|report` on
//! the examples give the same figures as `gobo xlogo classify|perturb|resample|report`
//! (hosts/cli/tests/xlogo_analysis.rs), and bad input is a 422 naming the field.

mod common;

use common::{json_file, read, TestServer};
use serde_json::{json, Value};

async fn ok(s: &TestServer, uri: &str, body: Value) -> Value {
    let r = s.post(uri, &body).await;
    assert_eq!(r.status, 200, "{uri}: {}", r.text());
    r.json()
}

#[tokio::test]
async fn classify_perturb_resample_and_report() {
    let s = TestServer::new("xlogo-analysis");
    let find = json_file("examples/xlogo/find-strawberry.json");
    let draw = json_file("examples/xlogo/draw-square.json");
    let find_ref = read("examples/xlogo/find-strawberry.py");
    let draw_ref = json_file("examples/xlogo/draw-square.ast.json");

    let dims = ok(&s, "/v1/xlogo/classify", json!({"task": find, "code": find_ref})).await;
    assert_eq!(dims["task_type"], "Logic", "{dims}");
    assert_eq!(
        (dims["constraints"].as_str(), dims["concepts"].as_str()),
        (Some("AtMost"), Some("Loops"))
    );
    assert_eq!(dims["n_blocks"], 6);
    let row = json!({"task": draw, "reference_code": draw_ref});
    let dims = ok(&s, "/v1/xlogo/classify", json!({"task": row})).await;
    assert_eq!(
        (dims["task_type"].as_str(), dims["concepts"].as_str()),
        (Some("Draw"), Some("Loops and Variables"))
    );

    let p = ok(&s, "/v1/xlogo/perturb", json!({"task": find, "code": find_ref})).await;
    let rows = p["perturbed"].as_array().expect("perturbed");
    assert_eq!(rows.len(), 8);
    assert_eq!(rows[0]["reference"], json!({"error_type": "OK", "success": true}));
    assert_eq!(rows[1]["changed"], json!({"A": true, "B": false, "C": false}));
    assert_eq!(rows[1]["task"]["constraints"], json!([]));
    let p = ok(&s, "/v1/xlogo/perturb", json!({"task": find, "subsets": ["AB"]})).await;
    assert_eq!(p["perturbed"].as_array().map(Vec::len), Some(1));

    // Verdict rows as `xlogo eval --batch` writes them: find solved, draw not, one unknown id.
    let mut verdicts = Vec::new();
    for (id, task, code) in [
        ("find", &find, json!(find_ref)),
        ("draw", &draw, json!({"run": [{"type": "fd"}]})),
        ("other", &find, json!("def run(:\n")),
    ] {
        let mut v = ok(&s, "/v1/xlogo/eval", json!({"task": task, "code": code})).await;
        v["id"] = json!(id);
        verdicts.push(v);
    }
    let tasks = [
        json!({"task_id": "find", "task": find, "reference_code": find_ref}),
        json!({"task_id": "draw", "task": draw, "reference_code": draw_ref}),
    ];
    let r = ok(&s, "/v1/xlogo/report", json!({"rows": verdicts, "tasks": tasks})).await;
    assert_eq!(r["overall"]["rows"], 3);
    assert_eq!(
        (r["overall"]["success"].as_u64(), r["overall"]["format_ok"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!((r["unmatched"].as_u64(), r["unreadable_tasks"].as_u64()), (Some(1), Some(0)));
    let aspects: Vec<(String, u64, u64)> = r["by"][0]["aspects"]
        .as_array()
        .expect("aspects")
        .iter()
        .map(|a| {
            (
                a["aspect"].as_str().unwrap_or("").into(),
                a["rows"].as_u64().unwrap_or(0),
                a["success"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    let want =
        [("Draw".to_string(), 1, 0), ("Logic".to_string(), 1, 1), ("unknown".to_string(), 1, 0)];
    assert_eq!(aspects, want);

    let body = json!({"rows": verdicts, "beta": 1.0, "size": 30, "seed": 7});
    let a = ok(&s, "/v1/xlogo/resample", body.clone()).await;
    assert_eq!(a, ok(&s, "/v1/xlogo/resample", body).await, "seeded");
    assert_eq!(a["size"], 30);
    assert_eq!((a["rows"].as_u64(), a["failed"].as_u64()), (Some(3), Some(2)));
    s.stop().await;
}

#[tokio::test]
async fn bad_input_is_a_422_naming_the_field() {
    let s = TestServer::new("xlogo-analysis-bad");
    let find = json_file("examples/xlogo/find-strawberry.json");
    let cases = [
        ("/v1/xlogo/classify", json!({"task": {"tiles": 3}}), "task"),
        ("/v1/xlogo/classify", json!({"task": find, "code": "def run(:\n"}), "code"),
        ("/v1/xlogo/perturb", json!({"task": find, "subsets": ["T_X"]}), "subsets"),
        ("/v1/xlogo/resample", json!({"rows": []}), ""),
        ("/v1/xlogo/resample", json!({"rows": [{"id": 1}], "beta": -1.0}), ""),
        ("/v1/xlogo/resample", json!({"rows": [{"id": 1}], "size": 100_000_000}), ""),
        ("/v1/xlogo/report", json!({"rows": []}), "rows"),
    ];
    for (uri, body, path) in cases {
        let r = s.post(uri, &body).await;
        assert_eq!(r.status, 422, "{uri} {body}: {}", r.text());
        assert_eq!(r.json()["error"]["path"].as_str().unwrap_or(""), path, "{uri}: {}", r.text());
    }
    s.stop().await;
}
