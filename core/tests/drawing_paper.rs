//! Profile `paper`: one test per criterion and per constraint kind (position halves, position
//! box, size, corner placement), with action sequences written for them.

use gobo::drawing::actions::Actions;
use gobo::drawing::judge_paper;
use gobo::drawing::paper::{evaluate, PaperResult, WEIGHTS};
use gobo::drawing::task::Task;
use gobo::drawing::ui::UiConfig;

fn run(criteria: &str, actions: &str) -> PaperResult {
    let task = Task::from_json(&format!(r#"{{"criteria": {criteria}}}"#)).unwrap();
    let actions = Actions::parse(actions.as_bytes()).unwrap();
    evaluate(&actions, &task.criteria, &UiConfig::drawingbench_default())
}

fn value(r: &PaperResult, name: &str) -> f64 {
    let k = WEIGHTS.iter().position(|(n, _)| *n == name).unwrap();
    r.values[k]
}

/// A rectangle from screen (x1, y1) to (x2, y2) in colour button `color_x`.
fn rect(x1: i32, y1: i32, x2: i32, y2: i32) -> String {
    format!(
        r#"{{"action":"click","x":35,"y":365}},{{"action":"mouseDown","x":{x1},"y":{y1}}},{{"action":"mouseUp","x":{x2},"y":{y2}}}"#
    )
}

#[test]
fn weights_sum_to_one() {
    let sum: f64 = WEIGHTS.iter().map(|(_, w)| w).sum();
    assert!((sum - 1.0).abs() < 1e-12);
}

#[test]
fn perfect_red_rectangle_scores_one() {
    let r = run(
        r##"{"required_tools": ["rectangle"], "required_colors": ["#FF0000"], "min_segments": 1, "min_coverage": 0.01}"##,
        &format!(r#"[{{"action":"click","x":429,"y":25}},{}]"#, rect(200, 200, 500, 400)),
    );
    assert_eq!(r.score, 1.0, "{r:?}");
}

#[test]
fn tools_count_only_tools_that_drew() {
    // Fill selected and used only by a click on the canvas: counts (the app fills on click).
    let r = run(
        r#"{"required_tools": ["fill", "circle"]}"#,
        r#"[{"action":"click","x":35,"y":205},{"action":"click","x":500,"y":400},{"action":"click","x":35,"y":445}]"#,
    );
    assert_eq!(value(&r, "tools"), 0.5);
}

#[test]
fn colours_need_a_drawing_in_that_colour() {
    let r = run(
        r##"{"required_colors": ["#FF0000", "#0000ff"]}"##,
        &format!(
            r#"[{{"action":"click","x":477,"y":25}},{},{{"action":"click","x":429,"y":25}}]"#,
            rect(200, 200, 300, 300)
        ),
    );
    // Blue (case-insensitive) was drawn; red was selected after the last drawing.
    assert_eq!(value(&r, "colors"), 0.5);
}

#[test]
fn segments_are_drawn_objects() {
    let r = run(
        r#"{"min_segments": 4}"#,
        &format!(
            "[{},{},{}]",
            rect(200, 200, 300, 300),
            rect(400, 200, 500, 300),
            rect(600, 200, 700, 300)
        ),
    );
    assert_eq!(value(&r, "segments"), 0.75);
}

#[test]
fn coverage_is_measured_on_the_rendered_canvas() {
    // A full-canvas rectangle outline touches the 76 border cells of the 20×20 grid (0.19).
    let r = run(r#"{"min_coverage": 0.19}"#, &format!("[{}]", rect(95, 75, 1085, 765)));
    assert_eq!(value(&r, "coverage"), 1.0);
    let r = run(r#"{"min_coverage": 0.38}"#, &format!("[{}]", rect(95, 75, 1085, 765)));
    assert_eq!(value(&r, "coverage"), 0.5);
}

#[test]
fn position_half_uses_the_first_object() {
    let left_then_right = format!("[{},{}]", rect(100, 100, 300, 300), rect(800, 100, 1000, 300));
    let right = r#"{"position_constraint": {"type": "right", "description": "d"}}"#;
    let left = r#"{"position_constraint": {"type": "left", "description": "d"}}"#;
    assert_eq!(value(&run(right, &left_then_right), "position"), 0.0);
    assert_eq!(value(&run(left, &left_then_right), "position"), 1.0);
    let above = r#"{"position_constraint": {"type": "above", "description": "d"}}"#;
    let below = r#"{"position_constraint": {"type": "below", "description": "d"}}"#;
    assert_eq!(value(&run(above, &left_then_right), "position"), 1.0);
    assert_eq!(value(&run(below, &left_then_right), "position"), 0.0);
    // Nothing drawn: the constraint fails.
    assert_eq!(value(&run(left, "[]"), "position"), 0.0);
}

#[test]
fn position_box_is_the_share_of_objects_inside() {
    let c = r#"{"position_constraint": {"x_max": 590, "y_max": 420}}"#;
    let r = run(c, &format!("[{},{}]", rect(100, 100, 500, 400), rect(500, 100, 700, 300)));
    assert_eq!(value(&r, "position"), 0.5);
}

#[test]
fn corner_placement_counts_corners_reached() {
    let c = r#"{"corner_placement": true}"#;
    let three = format!(
        "[{},{},{}]",
        rect(100, 80, 200, 180),
        rect(980, 80, 1080, 180),
        rect(100, 660, 200, 760)
    );
    assert_eq!(value(&run(c, &three), "position"), 0.75);
}

#[test]
fn size_matches_within_tolerance_and_degrades_outside() {
    let c = r#"{"size_constraint": {"width": 200, "height": 200, "tolerance": 10}}"#;
    assert_eq!(value(&run(c, &format!("[{}]", rect(200, 200, 408, 395))), "size"), 1.0);
    // 250×200: 40 px over tolerance of a 200 px target -> 1 - 40/200.
    assert_eq!(value(&run(c, &format!("[{}]", rect(200, 200, 450, 400))), "size"), 0.8);
    // A circle of radius 100 has a 200×200 box.
    let circle = r#"[{"action":"click","x":35,"y":445},{"action":"mouseDown","x":500,"y":400},{"action":"mouseUp","x":600,"y":400}]"#;
    assert_eq!(value(&run(c, circle), "size"), 1.0);
}

#[test]
fn syntax_and_bounds_are_shares_of_actions() {
    let r = run(
        "{}",
        r#"[{"action":"undo"},{"action":"moveTo","x":300,"y":300},{"action":"mouseDown"},
            {"action":"moveTo","x":2000,"y":300},{"action":"mouseUp"}]"#,
    );
    assert_eq!(value(&r, "syntax"), 0.8);
    assert_eq!(value(&r, "bounds"), 0.0);
}

#[test]
fn criteria_without_constraints_are_not_applicable_and_score_full() {
    let r = run("{}", "[]");
    assert!(r.not_applicable.iter().all(|&n| n));
    assert_eq!(r.score, 1.0);
    let none =
        judge_paper(b"{}", &Task::default().criteria, &UiConfig::drawingbench_default()).unwrap();
    assert_eq!(none.score, 0.0);
}
