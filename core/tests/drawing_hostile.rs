//! Hostile input gives a verdict or a typed error, never a panic or a hang: a million actions,
//! huge and non-finite coordinates, deep nesting, invalid UTF-8, huge ints, every shape tool
//! with extreme geometry (both profiles and the rasterizer).

use gobo::drawing::actions::{Actions, ActionsError, MAX_ACTIONS};
use gobo::drawing::raster::Canvas;
use gobo::drawing::task::Task;
use gobo::drawing::ui::UiConfig;
use gobo::drawing::{judge, judge_paper, pyjson};

fn all_profiles(raw: &[u8]) {
    let task = Task::from_json(
        r##"{"criteria": {"required_tools": ["pen", "circle"], "required_colors": ["#FF0000"],
            "min_segments": 2, "min_coverage": 0.1, "position_constraint": {"type": "left"},
            "size_constraint": {"width": 200, "height": 200, "tolerance": 10}, "corner_placement": true}}"##,
    )
    .unwrap();
    let ui = UiConfig::drawingbench_default();
    let _ = judge(raw, &task.criteria, &ui);
    let _ = judge_paper(raw, &task.criteria, &ui);
    if let Ok(a) = Actions::parse(raw) {
        let _ = Canvas::render(&a, &ui);
    }
}

#[test]
fn a_million_actions() {
    let one = r#"{"action":"moveTo","x":500,"y":400},"#;
    let mut raw = String::from("[");
    for _ in 0..1_000_000 {
        raw.push_str(one);
    }
    raw.push_str(r#"{"action":"mouseUp"}]"#);
    let task = Task::from_json(r#"{"criteria": {"min_segments": 1}}"#).unwrap();
    let err = judge(raw.as_bytes(), &task.criteria, &UiConfig::drawingbench_default()).unwrap_err();
    assert_eq!(err, ActionsError::TooMany(MAX_ACTIONS + 1));
    let exactly = raw.replacen(one, "", 1);
    let v = judge(exactly.as_bytes(), &task.criteria, &UiConfig::drawingbench_default()).unwrap();
    let e = v.outcome.unwrap();
    assert_eq!(e.total_actions, MAX_ACTIONS);
    assert_eq!(e.warnings[0].message, "Very high action count: 1000000 actions");
}

#[test]
fn huge_and_non_finite_coordinates_for_every_tool() {
    let coords = [
        "1e308",
        "-1e308",
        "NaN",
        "Infinity",
        "-Infinity",
        "123456789012345678901234567890",
        "0.5",
        "1e-320",
    ];
    for tool_y in [45, 125, 205, 285, 365, 445] {
        for a in coords {
            for b in coords {
                let raw = format!(
                    r#"[{{"action":"click","x":35,"y":{tool_y}}},{{"action":"mouseDown","x":{a},"y":300}},
                        {{"action":"moveTo","x":{b},"y":{a}}},{{"action":"mouseUp","x":{b},"y":{b}}},
                        {{"action":"click","x":{a},"y":{b}}},{{"action":"mouseDown","x":500,"y":400}},
                        {{"action":"mouseUp","x":{a},"y":{b}}}]"#
                );
                all_profiles(raw.as_bytes());
            }
        }
    }
}

/// Circles centred far left of the canvas whose rays reach it: past 2^53 samples per ray the
/// sample indices are no longer consecutive floats (an earlier sampler hung on some of these).
#[test]
fn huge_circles_that_reach_the_canvas() {
    let ui = UiConfig::drawingbench_default();
    let task = Task::from_json(r#"{"criteria": {"min_coverage": 0.1}}"#).unwrap();
    for r in [1.5e16, 2e17, 3e18, 1e22, 1e150] {
        for y in [70.0, 87.5, 420.0, 770.0] {
            let cx = -r + 570.0;
            let raw = format!(
                r#"[{{"action":"click","x":35,"y":445}},{{"action":"mouseDown","x":{cx:e},"y":{y}}},
                    {{"action":"mouseUp","x":{:e},"y":{y}}}]"#,
                cx + r
            );
            let v = judge(raw.as_bytes(), &task.criteria, &ui).unwrap();
            assert!(v.score().is_some(), "{raw}");
        }
    }
}

#[test]
fn deep_nesting_is_a_json_error() {
    let raw = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(matches!(pyjson::parse(&raw).unwrap_err().kind, pyjson::JsonErrorKind::TooDeep));
    all_profiles(raw.as_bytes());
    let ok = format!("{}{}", "[".repeat(500), "]".repeat(500));
    assert!(pyjson::parse(&ok).is_ok());
}

#[test]
fn invalid_utf8_is_a_json_error_and_scores_as_non_list() {
    let raw = b"[{\"action\": \"moveTo\", \"x\": 1, \"y\": \xff}]";
    let task = Task::from_json(r#"{"criteria": {"min_segments": 1}}"#).unwrap();
    let v = judge(raw, &task.criteria, &UiConfig::drawingbench_default()).unwrap();
    assert!(v.parse_error.is_some());
    assert_eq!(v.score(), Some(0.0));
    all_profiles(raw);
}

#[test]
fn odd_json_values_everywhere() {
    for raw in [
        r#"[{"action":{"a":1}}]"#,
        r#"[{"action":"click","x":[1,2],"y":{"k":"v"}}]"#,
        r#"[{"action":"mouseDown","x":true,"y":false},{"action":"mouseUp","x":"1_0","y":" 7 "}]"#,
        r#"[{"action":"moveTo","x":1,"y":2,"x":"dup"}]"#,
        r#"[1, null, true, "x", [], {}]"#,
        r#"[{"action":"click","x":1e999999,"y":-0.0}]"#,
        "[\"\\ud800\", {\"action\": \"\\u00e9\"}]",
        "   ",
        "",
        "[",
        "\u{feff}[]",
    ] {
        all_profiles(raw.as_bytes());
    }
}
