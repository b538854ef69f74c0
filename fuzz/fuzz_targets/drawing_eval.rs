//! Fuzzes evaluation end to end: the first byte picks task criteria, the rest is the model's
//! raw text; both profiles, the batch row with feedback, and a render on a small canvas must
//! finish without panicking.
#![no_main]

use gobo::drawing::actions::Actions;
use gobo::drawing::raster::Canvas;
use gobo::drawing::task::Task;
use gobo::drawing::ui::{Num, UiConfig};
use gobo::drawing::{judge, judge_paper};
use libfuzzer_sys::fuzz_target;

const TASKS: [&str; 4] = [
    r##"{"criteria": {"required_tools": ["pen"], "required_colors": ["#FF0000"], "min_segments": 1, "min_coverage": 0.05}}"##,
    r##"{"criteria": {"required_tools": ["circle", "fill", "nope"], "required_colors": ["#808080", "#0000FF"], "min_segments": 3, "min_coverage": 0.3, "prompt": "top-left", "position_constraint": {"type": "right", "description": "d"}, "corner_placement": true}}"##,
    r##"{"criteria": {"min_coverage": 0, "size_constraint": {"width": 200, "height": 200, "tolerance": 10}, "position_constraint": {"x_max": 590, "y_max": 420}}}"##,
    r#"{"criteria": {}}"#,
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, raw)) = data.split_first() else { return };
    let Ok(task) = Task::from_json(TASKS[usize::from(pick) % TASKS.len()]) else { return };
    let ui = UiConfig::drawingbench_default();
    if let Ok(v) = judge(raw, &task.criteria, &ui) {
        let _ = v.to_row(&task.criteria, &ui);
    }
    let _ = judge_paper(raw, &task.criteria, &ui);
    if let Ok(actions) = Actions::parse(raw) {
        let small = UiConfig { width: Num::int(60), height: Num::int(40), ..ui };
        let _ = Canvas::render(&actions, &small);
    }
});
