//! Batch jobs in process: submit, progress, results in input order, listing and deletion; and
//! resumption from a database left as a killed server leaves it (some rows finished, some not):
//! finished rows are kept as stored, the others are evaluated, each exactly once.

mod common;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use common::{read, TestServer};
use gobo_server::Limits;
use serde_json::{json, Value};

fn xlogo_rows(n: usize) -> Value {
    let task: Value =
        serde_json::from_str(&read("examples/xlogo/find-strawberry.json")).unwrap_or_default();
    let good = read("examples/xlogo/find-strawberry.py");
    let rows: Vec<Value> = (0..n)
        .map(|i| {
            let code = if i % 3 == 0 { String::from("def run(): nope") } else { good.clone() };
            json!({"id": format!("r{i}"), "task": task, "code": code})
        })
        .collect();
    json!({"kind": "xlogo", "rows": rows})
}

async fn wait_done(s: &TestServer, id: &str) -> Value {
    let start = Instant::now();
    loop {
        let st = s.get(&format!("/v1/batch/{id}")).await.json();
        if st["state"] == "done" || start.elapsed() > Duration::from_secs(120) {
            return st;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn lines(text: &str) -> Vec<Value> {
    text.lines().map(|l| serde_json::from_str(l).unwrap_or(Value::Null)).collect()
}

#[tokio::test]
async fn a_job_runs_to_the_end() {
    let s = TestServer::new("batch-run");
    let sub = s.post("/v1/batch", &xlogo_rows(300)).await;
    assert_eq!(sub.status, 202, "{}", sub.text());
    let id = sub.json()["job_id"].as_str().unwrap_or("").to_string();
    assert_eq!(sub.json()["total"], 300);
    let all = s.get(&format!("/v1/batch/{id}/results?wait=true")).await;
    assert_eq!(all.status, 200);
    let rows = lines(&all.text());
    assert_eq!(rows.len(), 300);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["id"], format!("r{i}"));
        let expected = if i % 3 == 0 { "FORMAT_ERROR" } else { "OK" };
        assert_eq!(row["error_type"], expected, "row {i}");
    }
    let st = wait_done(&s, &id).await;
    assert_eq!((st["state"].as_str(), st["done"].as_u64()), (Some("done"), Some(300)));
    let tail = lines(&s.get(&format!("/v1/batch/{id}/results?from=298")).await.text());
    assert_eq!(tail.len(), 2);
    assert_eq!(tail[0]["id"], "r298");
    let list = s.get("/v1/batch").await.json();
    assert!(list["jobs"].as_array().is_some_and(|j| j.iter().any(|j| j["job_id"] == id.as_str())));
    assert_eq!(s.delete(&format!("/v1/batch/{id}")).await.status, 200);
    assert_eq!(s.get(&format!("/v1/batch/{id}")).await.status, 404);
    assert_eq!(s.get(&format!("/v1/batch/{id}/results")).await.status, 404);
    s.stop().await;
}

#[tokio::test]
async fn draw_and_test_jobs() {
    let s = TestServer::new("batch-kinds");
    let task: Value =
        serde_json::from_str(&read("examples/drawing/red-circle.task.json")).unwrap_or_default();
    let actions = read("examples/drawing/red_circle.json");
    let draw = json!({"kind": "draw", "options": {"profile": "paper"}, "rows": [
        {"id": 1, "task": task, "actions_raw": actions},
        {"id": 2, "task": task, "actions_raw": "not json"},
        {"id": 3, "actions_raw": "[]"},
    ]});
    let sub = s.post("/v1/batch", &draw).await;
    assert_eq!(sub.status, 202, "{}", sub.text());
    let id = sub.json()["job_id"].as_str().unwrap_or("").to_string();
    let rows = lines(&s.get(&format!("/v1/batch/{id}/results?wait=true")).await.text());
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["profile"], "paper");
    assert!(rows[0]["score"].as_f64().is_some());
    assert!(rows[2]["error"].as_str().is_some_and(|e| e.contains("task")));

    let project: Value =
        serde_json::from_str(&read("examples/scratch/quiz/project.json")).unwrap_or_default();
    let broken: Value =
        serde_json::from_str(&read("examples/scratch/quiz/broken.json")).unwrap_or_default();
    let suite: Value =
        serde_json::from_str(&read("examples/scratch/quiz/suite.json")).unwrap_or_default();
    let test = json!({"kind": "test", "rows": [
        {"id": "gold", "project": project, "suite": suite},
        {"id": "broken", "project": broken, "suite": suite, "seeds": 2},
        {"id": "bad", "project": 7, "suite": suite},
    ]});
    let sub = s.post("/v1/batch", &test).await;
    assert_eq!(sub.status, 202, "{}", sub.text());
    let id = sub.json()["job_id"].as_str().unwrap_or("").to_string();
    let rows = lines(&s.get(&format!("/v1/batch/{id}/results?wait=true")).await.text());
    assert_eq!(rows.len(), 3);
    assert_eq!((rows[0]["id"].as_str(), rows[0]["success"].as_bool()), (Some("gold"), Some(true)));
    assert_eq!(rows[1]["success"], false);
    assert_eq!(rows[1]["seeds"], json!([1, 2]));
    assert!(rows[2]["error"].is_string());

    let bad_kind = s.post("/v1/batch", &json!({"kind": "nope", "rows": [{}]})).await;
    assert_eq!(bad_kind.status, 422);
    let empty = s.post("/v1/batch", &json!({"kind": "xlogo", "rows": []})).await;
    assert_eq!(empty.code(), "work_budget");
    let bad_options = s
        .post("/v1/batch", &json!({"kind": "draw", "rows": [{}], "options": {"profile": "x"}}))
        .await;
    assert_eq!(bad_options.code(), "bad_options");
    let by_index = s
        .post(
            "/v1/batch",
            &json!({"kind": "draw", "rows": [{"task_index": 1, "actions_raw": "[]"}]}),
        )
        .await;
    assert_eq!(by_index.code(), "no_dataset");
    s.stop().await;
}

#[tokio::test]
async fn an_interrupted_job_resumes_without_duplicates() {
    let limits = Limits { workers: 1, ..Limits::default() };
    let s = TestServer::with_limits("batch-resume", limits.clone());
    let sub = s.post("/v1/batch", &xlogo_rows(600)).await;
    let id = sub.json()["job_id"].as_str().unwrap_or("").to_string();
    wait_done(&s, &id).await;
    let dir = s.stop().await;

    // Leave the database as a server killed mid-job would: rows 0..200 and 400..600 finished
    // (marked, to see that they are not evaluated again), rows 200..400 unfinished.
    {
        let db =
            rusqlite::Connection::open(dir.join("gobo.sqlite3")).unwrap_or_else(|e| panic!("{e}"));
        db.execute(
            "UPDATE job_rows SET result = '{\"kept\":' || idx || '}' WHERE job = ?1 AND (idx < 200 OR idx >= 400)",
            [&id],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        db.execute(
            "UPDATE job_rows SET result = NULL WHERE job = ?1 AND idx >= 200 AND idx < 400",
            [&id],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        db.execute("UPDATE jobs SET state = 'running', done = 400 WHERE id = ?1", [&id])
            .unwrap_or_else(|e| panic!("{e}"));
    }

    let s = TestServer::open(dir, limits);
    let st = s.get(&format!("/v1/batch/{id}")).await.json();
    assert_eq!(st["total"], 600);
    let rows = lines(&s.get(&format!("/v1/batch/{id}/results?wait=true")).await.text());
    assert_eq!(rows.len(), 600);
    let mut ids = HashSet::new();
    for (i, row) in rows.iter().enumerate() {
        if !(200..400).contains(&i) {
            assert_eq!(row, &json!({"kept": i}), "finished row {i} was evaluated again");
        } else {
            assert_eq!(row["id"], format!("r{i}"));
            assert!(ids.insert(row["id"].to_string()), "row {i} twice");
        }
    }
    let st = wait_done(&s, &id).await;
    assert_eq!((st["state"].as_str(), st["done"].as_u64()), (Some("done"), Some(600)));
    s.stop().await;
}
