//! `/v1/draw/episode` and `/v1/draw/report` in process: the example episode's row is the
//! core's (`gobo draw episode --json`), turn by turn as a harness calls it, with canvases on
//! request; the report of episode rows is the core's; bad documents and empty reports are
//! 422s naming where.

mod common;

use base64::Engine as _;
use common::TestServer;
use gobo::drawing::episode::{episode_line, EpisodeConfig};
use gobo::drawing::report::report_of;
use gobo::drawing::ui::UiConfig;
use serde_json::{json, Value};

async fn post(s: &TestServer, uri: &str, body: Value) -> (u16, Value) {
    let r = s.post(uri, &body).await;
    (r.status.as_u16(), r.json())
}

#[tokio::test]
async fn an_episode_turn_by_turn_is_the_cores_row() {
    let s = TestServer::new("draw-episode");
    let doc = common::json_file("examples/drawing/red-circle.episode.json");
    let want = episode_line(&doc, &[], &UiConfig::drawingbench_default(), EpisodeConfig::default());
    let (status, row) = post(&s, "/v1/draw/episode", doc.clone()).await;
    assert_eq!(status, 200, "{row}");
    assert_eq!(row, want);

    // A harness's first call: turn 1 only; the answer asks for turn 2 with the feedback.
    let mut first = doc.clone();
    first["turns"] = json!([doc["turns"][0]]);
    let (status, row) = post(&s, "/v1/draw/episode", first).await;
    assert_eq!(status, 200, "{row}");
    assert_eq!((row["needs_next_turn"].clone(), row["next_turn"].clone()), (json!(true), json!(2)));
    assert_eq!(row["feedback_text"], want["turns"][0]["feedback_recon_text"]);

    // Canvases on request: one PNG per turn, 1000×700.
    let mut rendered = doc.clone();
    rendered["render"] = json!(true);
    let (status, row) = post(&s, "/v1/draw/episode", rendered).await;
    assert_eq!(status, 200, "{row}");
    for t in row["turns"].as_array().unwrap() {
        let png = base64::engine::general_purpose::STANDARD
            .decode(t["canvas_png"].as_str().unwrap())
            .unwrap();
        let reader = png::Decoder::new(std::io::Cursor::new(png)).read_info().unwrap();
        assert_eq!((reader.info().width, reader.info().height), (1000, 700));
    }
    // Text that is not an action list has no canvas.
    let body = json!({"task": doc["task"], "turns": ["not json"], "render": true});
    let (status, row) = post(&s, "/v1/draw/episode", body).await;
    assert_eq!(status, 200, "{row}");
    assert_eq!(row["turns"][0]["canvas_png"], Value::Null);
    assert!(row["turns"][0]["parse_error"].is_string());
}

#[tokio::test]
async fn bad_episodes_are_422s_naming_where() {
    let s = TestServer::new("draw-episode-bad");
    let task = json!({"criteria": {"min_segments": 1}});
    for (body, path) in [
        (json!({"task": task, "turns": []}), "turns"),
        (json!({"task": task, "turns": [5]}), "turns[0]"),
        (json!({"task": task, "turns": ["[]"], "max_turns": 0}), "max_turns"),
        (json!({"task": task, "turns": ["[]"], "stop_at": 2}), "stop_at"),
        (json!({"task": task, "turns": ["[]"], "profile": "nope"}), "profile"),
        (json!({"task": {"criteria": 3}, "turns": ["[]"]}), "task"),
        (json!({"task": task, "turns": ["[]"], "ui": {"canvas": 1}}), "ui"),
    ] {
        let (status, err) = post(&s, "/v1/draw/episode", body.clone()).await;
        assert_eq!(status, 422, "{body} -> {err}");
        assert_eq!(err["error"]["path"], json!(path), "{body} -> {err}");
    }
    // Wrong types and unknown fields are caught by the request schema.
    let (status, _) = post(&s, "/v1/draw/episode", json!({"task": task, "turns": "[]"})).await;
    assert_eq!(status, 422);
    let (status, _) =
        post(&s, "/v1/draw/episode", json!({"task": task, "turns": [], "x": 1})).await;
    assert_eq!(status, 422);
    // No dataset configured: a task index cannot be resolved.
    if std::env::var_os("GOBO_DRAWINGBENCH_DATASET").is_none() {
        let (status, err) =
            post(&s, "/v1/draw/episode", json!({"task_index": 0, "turns": ["[]"]})).await;
        assert_eq!((status, err["error"]["code"].as_str()), (422, Some("no_dataset")), "{err}");
    }
    let (status, err) =
        post(&s, "/v1/draw/episode", json!({"task": task, "task_index": 0, "turns": ["[]"]})).await;
    assert_eq!(status, 422, "{err}");
}

#[tokio::test]
async fn a_report_is_the_cores() {
    let s = TestServer::new("draw-report");
    let doc = common::json_file("examples/drawing/red-circle.episode.json");
    let ui = UiConfig::drawingbench_default();
    let mut one = doc.clone();
    one["turns"] = json!([doc["turns"][0]]);
    one["difficulty"] = json!("easy");
    let rows = vec![
        episode_line(&doc, &[], &ui, EpisodeConfig::default()),
        episode_line(&one, &[], &ui, EpisodeConfig::default()),
        json!({"id": "e", "error": "no task"}),
    ];
    let (status, report) = post(&s, "/v1/draw/report", json!({"rows": rows})).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report, report_of(&rows, &[]).to_json());
    assert_eq!(
        (report["overall"]["episodes"].clone(), report["error_rows"].clone()),
        (json!(2), json!(1))
    );
    let (status, err) = post(&s, "/v1/draw/report", json!({"rows": []})).await;
    assert_eq!((status, err["error"]["path"].as_str()), (422, Some("rows")), "{err}");
    let (status, _) = post(&s, "/v1/draw/report", json!({"rows": 3})).await;
    assert_eq!(status, 422);
}
