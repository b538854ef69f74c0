//! Fuzzes the DrawingBench episode reader and report (`gobo draw episode`, `gobo draw report`,
//! `POST /v1/draw/episode` and `/v1/draw/report`): any bytes read as an episode document
//! (inline task or `task_index` into two tasks) give a row or a typed error, and that row,
//! read as a report row, gives a report and its Markdown, without panicking.
#![no_main]

use gobo::drawing::episode::{all_scored, episode_line, EpisodeConfig};
use gobo::drawing::report::report_of;
use gobo::drawing::task::Task;
use gobo::drawing::ui::{Num, UiConfig};
use libfuzzer_sys::fuzz_target;

const TASKS: [&str; 2] = [
    r##"{"id": "t0", "category": "shapes", "difficulty": "easy", "criteria": {"required_tools": ["pen"], "required_colors": ["#FF0000"], "min_segments": 1, "min_coverage": 0.05}}"##,
    r##"{"id": "t1", "criteria": {"required_tools": ["circle", "fill"], "min_coverage": 0.3, "position_constraint": {"type": "right", "description": "d"}}}"##,
];

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    let tasks: Vec<Task> = TASKS.iter().filter_map(|t| Task::from_json(t).ok()).collect();
    // A small canvas keeps each turn's raster cheap; the reader and the rules are the same.
    let ui =
        UiConfig { width: Num::int(60), height: Num::int(40), ..UiConfig::drawingbench_default() };
    let row = episode_line(&doc, &tasks, &ui, EpisodeConfig::default());
    let _ = all_scored(&row);
    let report = report_of([&row, &doc], &tasks);
    let _ = report.to_json();
    let _ = report.to_markdown();
});
