//! One test per rule of the `drawingbench-1.0` profile, each with an action sequence written
//! for it (no shared data needed). Expected values are worked out from the rule by hand.

use gobo::drawing::reference::{CritValue, Evaluation};
use gobo::drawing::task::Task;
use gobo::drawing::ui::UiConfig;
use gobo::drawing::{judge, Verdict};

const PEN_RED: &str = r##"{"criteria": {"required_tools": ["pen"], "required_colors": ["#FF0000"],
    "min_segments": 1, "min_coverage": 0.05}}"##;

fn run(task: &str, actions: &str) -> Verdict {
    let task = Task::from_json(task).expect("task");
    judge(actions.as_bytes(), &task.criteria, &UiConfig::drawingbench_default()).expect("verdict")
}

fn eval(task: &str, actions: &str) -> Evaluation {
    run(task, actions).outcome.expect("no exception")
}

fn crit(e: &Evaluation, key: &str) -> CritValue {
    e.criterion(key).cloned().unwrap_or_else(|| panic!("no {key}"))
}

#[test]
fn non_list_scores_zero_with_one_syntax_error() {
    for raw in ["{\"actions\": []}", "not json", "null", "\"[]\""] {
        let e = eval(PEN_RED, raw);
        assert!(e.not_a_list);
        assert_eq!(e.score, 0.0);
        assert_eq!(e.errors.len(), 1);
        assert_eq!(e.errors[0].message, "Actions must be a list/array");
        assert_eq!(e.errors[0].index, Some(-1));
    }
    assert!(run(PEN_RED, "[1,").parse_error.is_some());
}

#[test]
fn empty_list_scores_0_53() {
    // 1 - .15 (pen) - .05 (red) - .15 (segments) - .12 (coverage 0) = 0.53.
    assert_eq!(eval(PEN_RED, "[]").score, 0.53);
}

#[test]
fn moveto_then_any_click_selects_even_if_the_click_has_coordinates() {
    let e =
        eval(PEN_RED, r#"[{"action":"moveTo","x":429,"y":25},{"action":"click","x":900,"y":600}]"#);
    assert_eq!(crit(&e, "colors_exact_used"), CritValue::Strings(vec!["#FF0000".into()]));
}

#[test]
fn colour_boxes_use_a_24_px_pitch_and_the_left_colour_wins_ties() {
    // x = 417 is on the black/red boundary: black (checked first) wins.
    let e = eval(PEN_RED, r#"[{"action":"click","x":417,"y":33}]"#);
    assert_eq!(e.metrics.exact_colors_used, vec![0]);
    // The hint position (453, 25) for red is green in the evaluator's layout.
    let e = eval(PEN_RED, r#"[{"action":"click","x":453,"y":25}]"#);
    assert_eq!(e.metrics.exact_colors_used, vec![2]);
    // y = 34 is outside the ±8 band.
    let e = eval(PEN_RED, r#"[{"action":"click","x":429,"y":34}]"#);
    assert!(e.metrics.exact_colors_used.is_empty());
}

#[test]
fn tool_boxes_are_open_intervals_of_40() {
    let e = eval(PEN_RED, r#"[{"action":"click","x":75,"y":45},{"action":"click","x":35,"y":85}]"#);
    assert_eq!(e.metrics.tool_changes, 0);
    let e = eval(PEN_RED, r#"[{"action":"click","x":74.5,"y":84.9}]"#);
    assert_eq!(e.metrics.tool_changes, 1);
}

#[test]
fn reselecting_after_another_tool_means_not_actually_used() {
    let e = eval(
        PEN_RED,
        r#"[{"action":"click","x":35,"y":45},{"action":"click","x":35,"y":445},
            {"action":"click","x":35,"y":45},{"action":"mouseDown","x":300,"y":300},
            {"action":"moveTo","x":700,"y":500},{"action":"mouseUp"}]"#,
    );
    assert_eq!(crit(&e, "tool_pen_used"), CritValue::Bool(true));
    assert_eq!(crit(&e, "tool_pen_actually_used"), CritValue::Bool(false));
}

#[test]
fn hovering_another_tool_before_drawing_counts_as_switching() {
    let e = eval(
        PEN_RED,
        r#"[{"action":"click","x":35,"y":45},{"action":"moveTo","x":35,"y":125},
            {"action":"mouseDown","x":300,"y":300},{"action":"mouseUp"}]"#,
    );
    assert_eq!(crit(&e, "tool_pen_actually_used"), CritValue::Bool(false));
}

#[test]
fn segments_count_mousedowns_outside_a_segment() {
    let e = eval(
        PEN_RED,
        r#"[{"action":"mouseDown"},{"action":"mouseDown"},{"action":"mouseUp"},
            {"action":"mouseUp"},{"action":"mouseDown","x":2000,"y":50}]"#,
    );
    assert_eq!(e.metrics.drawing_segments, 2);
    // Unmatched counts (3 downs, 2 ups) give a LOGIC_ERROR warning.
    assert!(e.warnings.iter().any(|w| w.kind == "LOGIC_ERROR"));
}

#[test]
fn mousedown_off_canvas_gives_two_coordinate_errors() {
    let e = eval(PEN_RED, r#"[{"action":"mouseDown","x":2000,"y":50}]"#);
    let kinds: Vec<_> = e.errors.iter().map(|i| i.kind).collect();
    assert_eq!(kinds, ["COORDINATE_ERROR", "COORDINATE_ERROR"]);
    assert_eq!(e.errors[0].action_detail.as_deref(), Some("mouseDown(x=2000.0, y=50.0)"));
    assert!(e.errors[1].message.contains("is right of canvas (canvas ends at x=1090)"));
    assert!(e.errors[1].message.contains("is above canvas (canvas starts at y=70)"));
}

#[test]
fn screen_bound_messages_have_no_newline_between_x_and_y_parts() {
    let e = eval(PEN_RED, r#"[{"action":"moveTo","x":-1,"y":-2.5}]"#);
    let m = &e.errors[0].message;
    assert!(m.contains("Suggestion: Use x >= 0  Problem: y=-2.5 is negative"), "{m}");
    assert!(m.ends_with("    [0] moveTo(x=-1, y=-2.5) ← ERROR\n"), "{m}");
}

#[test]
fn syntax_pass_reports_missing_action_unknown_names_and_moveto_without_xy() {
    let e = eval(
        PEN_RED,
        r#"[{"x":1,"y":1},{"action":"undo"},{"action":"moveTo","x":5},{"action":7}]"#,
    );
    let msgs: Vec<_> = e.errors.iter().map(|i| i.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "Missing 'action' field",
            "Unknown action type: undo",
            "moveTo requires 'x' and 'y' coordinates",
            "Unknown action type: 7"
        ]
    );
}

#[test]
fn invalid_coordinate_strings_are_syntax_errors_when_nothing_else_touches_them() {
    // A mouseUp outside a drawing is never used arithmetically, so no exception follows.
    let e = eval(PEN_RED, r#"[{"action":"mouseUp","x":"left","y":null}]"#);
    assert_eq!(e.errors[0].message, "Invalid coordinate types at index 0: x=left, y=None");
    assert_eq!(e.errors[0].action_detail.as_deref(), Some("mouseUp"));
}

#[test]
fn exceptions_match_the_reference() {
    let ex = |raw: &str| run(PEN_RED, raw).outcome.expect_err("exception").to_string();
    assert_eq!(
        ex(r#"[{"action":"click","x":"35","y":"45"}]"#),
        "TypeError: unsupported operand type(s) for -: 'str' and 'int'"
    );
    assert_eq!(ex(r#"["moveTo"]"#), "AttributeError: 'str' object has no attribute 'get'");
    assert_eq!(ex(r#"[{"action":["a"]}]"#), "TypeError: unhashable type: 'list'");
    // The tool-change pass reads a click's x before the colour-click counter compares it.
    assert_eq!(
        ex(r#"[{"action":"click","x":null}]"#),
        "TypeError: unsupported operand type(s) for -: 'NoneType' and 'int'"
    );
    // A moveTo's y is only read when x is inside a tool column.
    assert_eq!(
        ex(r#"[{"action":"moveTo","x":35,"y":[1]}]"#),
        "TypeError: unsupported operand type(s) for -: 'list' and 'int'"
    );
    assert!(run(PEN_RED, r#"[{"action":"moveTo","x":500,"y":[1]}]"#).outcome.is_ok());
    let big = format!(r#"[{{"action":"mouseUp","x":1{},"y":1}}]"#, "0".repeat(400));
    assert_eq!(ex(&big), "OverflowError: int too large to convert to float");
    // Circle tool with an infinite radius: int(inf / 20).
    assert_eq!(
        ex(r#"[{"action":"click","x":35,"y":445},{"action":"mouseDown","x":100,"y":100},
               {"action":"mouseUp","x":Infinity,"y":100}]"#),
        "OverflowError: cannot convert float infinity to integer"
    );
}

#[test]
fn coverage_grid_marks_only_pen_points_not_the_path_between() {
    let e = eval(
        PEN_RED,
        r#"[{"action":"mouseDown","x":100,"y":100},{"action":"moveTo","x":1000,"y":100},{"action":"mouseUp"}]"#,
    );
    assert_eq!(e.metrics.canvas_coverage_accurate, 0.005); // 2 cells of 400
}

#[test]
fn rectangle_marks_its_whole_interior() {
    let e = eval(
        PEN_RED,
        r#"[{"action":"click","x":35,"y":365},{"action":"mouseDown","x":90,"y":70},{"action":"mouseUp","x":590,"y":420}]"#,
    );
    // cells 0..=10 in both directions: 11 × 11 = 121.
    assert_eq!(e.metrics.canvas_coverage_accurate, 121.0 / 400.0);
}

#[test]
fn small_circle_marks_only_its_centre_and_line_marks_its_pixels() {
    let e = eval(
        PEN_RED,
        r#"[{"action":"click","x":35,"y":445},{"action":"mouseDown","x":590,"y":420},{"action":"mouseUp","x":600,"y":420}]"#,
    );
    assert_eq!(e.metrics.canvas_coverage_accurate, 0.0025);
    let e = eval(
        PEN_RED,
        r#"[{"action":"click","x":35,"y":285},{"action":"mouseDown","x":90,"y":100},{"action":"mouseUp","x":1090,"y":100}]"#,
    );
    assert_eq!(e.metrics.canvas_coverage_accurate, 20.0 / 400.0);
}

#[test]
fn huge_line_is_sampled_only_where_it_crosses_the_canvas() {
    // The reference would iterate 2e12 times; the answer is the 20 cells of row y=100.
    let e = eval(
        PEN_RED,
        r#"[{"action":"click","x":35,"y":285},{"action":"mouseDown","x":-1000000000000,"y":170},{"action":"mouseUp","x":1000000000000,"y":170}]"#,
    );
    assert_eq!(e.metrics.canvas_coverage_accurate, 20.0 / 400.0);
}

#[test]
fn score_uses_numpy_rounding_after_the_coverage_penalty_and_python_rounding_otherwise() {
    // pen used, red used, 1 segment, coverage 0 cells of 0.05: 1 - 0.12 = 0.88 either way;
    // the tie case: a deficit giving x.xxx5 exactly after the penalty.
    let e = eval(
        PEN_RED,
        r#"[{"action":"click","x":35,"y":45},{"action":"click","x":429,"y":25},
        {"action":"mouseDown","x":100,"y":100},{"action":"mouseUp"}]"#,
    );
    // 1 cell: deficit (0.05 - 0.0025)/0.05*0.12 = 0.114 -> 0.886.
    assert_eq!(e.score, 0.886);
}

#[test]
fn bonus_applies_between_10_and_500_actions() {
    let mut acts =
        vec![r#"{"action":"click","x":35,"y":45}"#, r#"{"action":"click","x":429,"y":25}"#];
    acts.extend(std::iter::repeat_n(r#"{"action":"click","x":1200,"y":800}"#, 8));
    let e = eval(PEN_RED, &format!("[{}]", acts.join(",")));
    // 10 actions: 1 - .15 (pen never drew) - .15 - .12 + .05 = 0.63.
    assert_eq!(e.score, 0.63);
}

#[test]
fn set_built_lists_are_sorted_and_missing_colours_named() {
    let task = r##"{"criteria": {"required_colors": ["#FF0000", "#808080", "#0000FF"]}}"##;
    let v = run(task, r#"[{"action":"click","x":477,"y":25},{"action":"click","x":429,"y":25}]"#);
    let e = v.outcome.as_ref().unwrap();
    assert_eq!(
        crit(e, "colors_exact_used"),
        CritValue::Strings(vec!["#0000FF".into(), "#FF0000".into()])
    );
    assert_eq!(crit(e, "colors_missing"), CritValue::Strings(vec!["#808080".into()]));
    let fb = v
        .feedback(&Task::from_json(task).unwrap().criteria, &UiConfig::drawingbench_default())
        .unwrap();
    assert!(fb.errors.iter().any(|n| n
        .message
        .starts_with("Colors used: Blue, Red. Missing colors: #808080 (#808080).")));
}

#[test]
fn feedback_text_frames_sections() {
    let v = run(PEN_RED, "[]");
    let task = Task::from_json(PEN_RED).unwrap();
    let fb = v.feedback(&task.criteria, &UiConfig::drawingbench_default()).unwrap();
    assert_eq!(fb.summary, "Partial success. Score: 0.53. 3 error(s) found. 1 warning(s).");
    let text = fb.text();
    assert!(text.starts_with(&format!("{}\nDRAWING EVALUATION FEEDBACK\n", "=".repeat(60))));
    assert!(text.contains("\nERRORS:\n  1. Required tool 'pen' was not used."));
    assert!(text.ends_with(&format!("Score: 0.53/1.00\n{}", "=".repeat(60))));
}

#[test]
fn second_turn_only_below_0_9() {
    use gobo::drawing::feedback::{final_score, needs_second_turn};
    assert!(needs_second_turn(0.892));
    assert!(!needs_second_turn(0.9));
    assert_eq!(final_score(0.5, Some(0.7)), 0.7);
    assert_eq!(final_score(0.95, Some(0.7)), 0.95);
}

#[test]
fn nan_coordinates_are_never_out_of_bounds() {
    // Every comparison with NaN is false, so neither bounds check fires.
    let e = eval(
        PEN_RED,
        r#"[{"action":"mouseDown","x":NaN,"y":100},{"action":"moveTo","x":5,"y":NaN}]"#,
    );
    assert!(e.errors.is_empty(), "{:?}", e.errors);
}
