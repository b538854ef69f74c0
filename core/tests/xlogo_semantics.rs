//! One test per semantic decision of the XLogo emulator (SEMANTICS.md checklist and the
//! reference quirks gobo reproduces), each on a small task written here.

use gobo::xlogo::{evaluate_bytes, load, CodeInput, World};
use serde_json::{json, Value};

/// A rows x cols grid of allowed tiles without walls, turtle at (x, y) facing `dir`.
fn grid(rows: i64, cols: i64, x: i64, y: i64, dir: i64) -> Value {
    let mut tiles = Vec::new();
    for ty in 0..rows {
        for tx in 0..cols {
            tiles.push(json!({"x": tx, "y": ty, "allowed": true, "walls": {}}));
        }
    }
    json!({
        "turtle": {"x": x, "y": y, "direction": dir},
        "tiles": tiles, "items": [], "lines": [],
        "goal": [], "constraints": []
    })
}

fn tile_mut(task: &mut Value, x: i64, y: i64) -> &mut Value {
    let tiles = task["tiles"].as_array_mut().expect("tiles");
    tiles.iter_mut().find(|t| t["x"] == x && t["y"] == y).expect("tile")
}

fn item(x: i64, y: i64, name: &str, color: &str, count: i64) -> Value {
    json!({"x": x, "y": y, "name": name, "color": color, "count": count})
}

fn find(name: &str) -> Value {
    json!({"name": "find", "specs": [[[{"name": name, "neg": 0}]]]})
}

fn run(task: &Value, py: &str) -> Value {
    let bytes = serde_json::to_vec(task).expect("json");
    evaluate_bytes(&bytes, CodeInput::Python(py.as_bytes())).expect("task loads").to_json()
}

fn code(lines: &[&str]) -> String {
    let mut s = String::from("def run():\n");
    if lines.is_empty() {
        s.push_str("    pass\n");
    }
    for l in lines {
        s.push_str("    ");
        s.push_str(l);
        s.push('\n');
    }
    s
}

#[test]
fn north_is_towards_row_zero_and_turns_are_quarter_turns() {
    let t = grid(3, 3, 1, 1, 0);
    let v = run(&t, &code(&["move_forward()"]));
    assert_eq!(v["final_turtle"], json!({"x": 1, "y": 0, "direction": 0}));
    let v = run(&t, &code(&["turn_left()"]));
    assert_eq!(v["final_turtle"]["direction"], 3);
    let v = run(&t, &code(&["turn_right()", "move_forward()"]));
    assert_eq!(v["final_turtle"], json!({"x": 2, "y": 1, "direction": 1}));
}

#[test]
fn backward_moves_opposite_keeps_heading_and_draws() {
    let t = grid(3, 3, 1, 1, 1);
    let v = run(&t, &code(&["move_backward()"]));
    assert_eq!(v["final_turtle"], json!({"x": 0, "y": 1, "direction": 1}));
    assert_eq!(v["drawn_lines"], json!([{"x1": 0, "y1": 1, "x2": 1, "y2": 1, "color": "#000000"}]));
}

#[test]
fn start_cell_counts_as_visited() {
    let mut t = grid(3, 3, 1, 2, 0);
    t["items"] = json!([item(1, 2, "strawberry", "red", 1)]);
    t["goal"] = json!([find("strawberry")]);
    assert_eq!(run(&t, &code(&[]))["error_type"], "OK");
}

#[test]
fn find_means_visited_at_any_time_not_ending_there() {
    let mut t = grid(3, 3, 1, 2, 0);
    t["items"] = json!([item(1, 1, "strawberry", "red", 1)]);
    t["goal"] = json!([find("strawberry")]);
    assert_eq!(run(&t, &code(&["move_forward()", "move_backward()"]))["error_type"], "OK");
    assert_eq!(run(&t, &code(&["turn_right()", "move_forward()"]))["error_type"], "GOAL_FAIL");
}

#[test]
fn walls_are_checked_on_the_source_cell_only() {
    let mut t = grid(3, 3, 1, 2, 0);
    // Declared only on the destination's side: does not block (an empty goal is met).
    tile_mut(&mut t, 1, 1)["walls"] = json!({"bottom": true});
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "OK");
    // Declared on the source's side: blocks; the crash is at the source, the turtle has moved.
    tile_mut(&mut t, 1, 2)["walls"] = json!({"top": true});
    let v = run(&t, &code(&["move_forward()"]));
    assert_eq!(v["error_type"], "CRASH_WALL");
    assert_eq!(v["result"]["crashed_msg"], json!({"crash_type": "WALL", "pos_xy": [1, 2]}));
    assert_eq!(v["final_turtle"], json!({"x": 1, "y": 1, "direction": 0}));
    assert_eq!(v["trace_xy"], json!([[1, 2], [1, 1]]));
    assert_eq!(v["drawn_lines"], json!([]));
    assert_eq!(v["result"]["goal_ok"], Value::Null);
}

#[test]
fn a_boundary_wall_is_a_wall_not_out_of_world() {
    let mut t = grid(1, 1, 0, 0, 0);
    tile_mut(&mut t, 0, 0)["walls"] = json!({"top": true});
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "CRASH_WALL");
    let v = run(&t, &code(&["move_backward()"]));
    assert_eq!(v["error_type"], "CRASH_OUT_OF_WORLD");
    assert_eq!(v["result"]["crashed_msg"]["pos_xy"], json!([0, 1]));
}

#[test]
fn missing_cells_are_forbidden_and_exist_false_is_grid_not_exist() {
    let mut t = grid(2, 2, 0, 1, 0);
    t["tiles"].as_array_mut().expect("tiles").retain(|tl| !(tl["x"] == 0 && tl["y"] == 0));
    let v = run(&t, &code(&["move_forward()"]));
    assert_eq!(v["error_type"], "CRASH_FORBIDDEN_AREA");
    assert_eq!(v["result"]["crashed_msg"]["pos_xy"], json!([0, 0]));
    let mut t = grid(2, 2, 0, 1, 0);
    tile_mut(&mut t, 0, 0)["exist"] = json!(false);
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "CRASH_GRID_NOT_EXIST");
    tile_mut(&mut t, 0, 0)["allowed"] = json!(false);
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "CRASH_FORBIDDEN_AREA");
}

#[test]
fn starting_on_a_forbidden_cell_is_not_a_crash() {
    let mut t = grid(2, 1, 0, 1, 0);
    tile_mut(&mut t, 0, 1)["allowed"] = json!(false);
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "OK");
}

#[test]
fn execution_stops_at_the_first_crash_and_skips_goal_and_constraints() {
    let t = grid(1, 2, 0, 0, 1);
    let v = run(&t, &code(&["move_forward()", "move_forward()", "turn_left()"]));
    assert_eq!(v["error_type"], "CRASH_OUT_OF_WORLD");
    assert_eq!(v["n_actions"], 2);
    assert_eq!(v["trace_xy"], json!([[0, 0], [1, 0], [2, 0]]));
    assert_eq!(v["result"]["cons_ok"], Value::Null);
}

fn square(color: Option<&str>) -> Value {
    let mut t = grid(2, 2, 0, 1, 0);
    let c = color.unwrap_or("#000000");
    t["lines"] = json!([
        {"x1": 0, "y1": 0, "x2": 1, "y2": 0, "color": c},
        {"x1": 1, "y1": 0, "x2": 1, "y2": 1, "color": c},
        {"x1": 1, "y1": 1, "x2": 0, "y2": 1, "color": c},
        {"x1": 0, "y1": 1, "x2": 0, "y2": 0, "color": c},
    ]);
    t["goal"] = json!([{"name": "draw", "specs": [[]]}]);
    t
}

#[test]
fn draw_compares_edge_sets_with_the_last_colour() {
    let t = square(None);
    let sq = ["for i in range(4):", "    move_forward()", "    turn_right()"];
    assert_eq!(run(&t, &code(&sq))["error_type"], "OK");
    // Retracing in the same colour is harmless; an extra edge fails; a missing edge fails.
    let five = ["for i in range(5):", "    move_forward()", "    turn_right()"];
    assert_eq!(run(&t, &code(&five))["error_type"], "OK");
    let three = ["for i in range(3):", "    move_forward()", "    turn_right()"];
    assert_eq!(run(&t, &code(&three))["error_type"], "GOAL_FAIL");
    // Overdrawing replaces the colour; white is an ordinary colour.
    let mut red_then_black = vec!["setpc('red')"];
    red_then_black.extend(sq);
    red_then_black.push("setpc('black')");
    red_then_black.extend(sq);
    assert_eq!(run(&t, &code(&red_then_black))["error_type"], "OK");
    let mut white_end = sq.to_vec();
    white_end.extend(["setpc('white')", "move_forward()"]);
    assert_eq!(run(&t, &code(&white_end))["error_type"], "GOAL_FAIL");
}

#[test]
fn setpc_none_resets_to_black_and_reports_null() {
    let t = square(None);
    let v = run(
        &t,
        &code(&[
            "setpc('red')",
            "setpc(None)",
            "for i in range(4):",
            "    move_forward()",
            "    turn_right()",
        ]),
    );
    assert_eq!(v["error_type"], "OK");
    assert_eq!(v["pen_color"], Value::Null);
    let red = square(Some("#D60000"));
    let v = run(
        &red,
        &code(&["setpc('red')", "for i in range(4):", "    move_forward()", "    turn_right()"]),
    );
    assert_eq!(v["error_type"], "OK");
    assert_eq!(v["pen_color"], "red");
}

#[test]
fn a_line_coloured_by_name_can_never_be_matched() {
    let t = square(Some("black"));
    let sq = ["for i in range(4):", "    move_forward()", "    turn_right()"];
    assert_eq!(run(&t, &code(&sq))["error_type"], "GOAL_FAIL");
}

#[test]
fn a_null_goal_means_draw_the_lines() {
    let mut t = square(None);
    t["goal"] = Value::Null;
    assert_eq!(run(&t, &code(&[]))["error_type"], "GOAL_FAIL");
    t["lines"] = json!([]);
    assert_eq!(run(&t, &code(&[]))["error_type"], "OK");
}

#[test]
fn blocks_are_counted_as_nodes_with_bodies_once() {
    let t = grid(3, 3, 1, 1, 0);
    let v = run(
        &t,
        &code(&[
            "setpc('red')",
            "for i in range(2):",
            "    pass",
            "for j in range(3):",
            "    turn_left()",
        ]),
    );
    assert_eq!(v["block_cnt"], json!({"setpc": 1, "repeat": 2, "lt": 1}));
    assert_eq!(v["n_blocks"], 4);
    assert_eq!(v["n_actions"], 4);
}

#[test]
fn exactly_is_not_checked_for_absent_block_types() {
    let mut t = grid(3, 3, 1, 2, 0);
    t["constraints"] = json!([{"exactly": {"lt": 1}}]);
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "OK");
    let v = run(&t, &code(&["turn_left()", "turn_left()"]));
    assert_eq!(v["error_type"], "CONSTRAINT_FAIL");
    t["constraints"] = json!([{"exactly": {"all": 2}}]);
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "CONSTRAINT_FAIL");
}

#[test]
fn at_most_counts_repeat_and_setpc_blocks() {
    let mut t = grid(3, 3, 1, 2, 0);
    t["constraints"] = json!({"at_most": {"all": 2}});
    assert_eq!(run(&t, &code(&["for i in range(2):", "    move_forward()"]))["error_type"], "OK");
    let v = run(&t, &code(&["setpc('red')", "for i in range(2):", "    move_forward()"]));
    assert_eq!(v["error_type"], "CONSTRAINT_FAIL");
}

#[test]
fn start_by_longer_than_the_program_is_a_constraint_failure() {
    let mut t = grid(3, 3, 1, 2, 0);
    t["constraints"] = json!([{"start_by": ["fd", "fd", "rt"]}]);
    let v = run(&t, &code(&["move_forward()"]));
    assert_eq!(v["error_type"], "CONSTRAINT_FAIL");
    assert_eq!(v["result"]["cons_ok"], false);
    let v = run(&t, &code(&["for i in range(2):", "    move_forward()", "turn_right()"]));
    assert_eq!(v["error_type"], "CONSTRAINT_FAIL");
    let v = run(&t, &code(&["move_forward()", "move_forward()", "turn_right()"]));
    assert_eq!(v["error_type"], "OK");
}

#[test]
fn a_key_in_both_exactly_and_at_most_fails_once_consulted() {
    let mut t = grid(3, 3, 1, 2, 0);
    t["constraints"] = json!([{"exactly": {"lt": 1}, "at_most": {"lt": 1}}]);
    // lt absent from the code: never consulted.
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "OK");
    assert_eq!(run(&t, &code(&["turn_left()"]))["error_type"], "CONSTRAINT_FAIL");
}

#[test]
fn a_constraint_list_of_two_dicts_means_none() {
    let mut t = grid(3, 3, 1, 2, 0);
    t["constraints"] = json!([{"at_most": {"all": 0}}, {"at_most": {"all": 0}}]);
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "OK");
}

fn concat_task() -> Value {
    let mut t = grid(3, 3, 1, 2, 0);
    t["items"] = json!([
        item(1, 1, "circle", "orange", 1),
        item(1, 0, "circle", "black", 1),
        item(2, 0, "circle", "green", 1)
    ]);
    let spec = |c: &str| json!([[{"color": c, "neg": 0}], [{"name": "circle", "neg": 0}]]);
    t["goal"] =
        json!([{"name": "concat", "specs": [spec("orange"), spec("black"), spec("green")]}]);
    t
}

#[test]
fn concat_needs_each_target_exactly_once_in_order() {
    let t = concat_task();
    let abc = ["move_forward()", "move_forward()", "turn_right()", "move_forward()"];
    assert_eq!(run(&t, &code(&abc))["error_type"], "OK");
    let mut revisit = abc.to_vec();
    revisit.extend(["move_backward()", "move_forward()"]);
    assert_eq!(run(&t, &code(&revisit))["error_type"], "GOAL_FAIL");
    let wrong_order = [
        "turn_right()",
        "move_forward()",
        "turn_left()",
        "move_forward()",
        "move_forward()",
        "turn_left()",
        "move_forward()",
    ];
    assert_eq!(run(&t, &code(&wrong_order))["error_type"], "GOAL_FAIL");
}

#[test]
fn sum_counts_distinct_cells() {
    let mut t = grid(3, 3, 1, 2, 0);
    t["items"] = json!([item(1, 1, "strawberry", "red", 2), item(1, 0, "strawberry", "red", 3)]);
    t["goal"] =
        json!([{"name": "sum", "specs": [[[{"name": "strawberry", "neg": 0}]]], "total_cnt": 2}]);
    let fbf = ["move_forward()", "move_backward()", "move_forward()"];
    assert_eq!(run(&t, &code(&fbf))["error_type"], "OK");
    assert_eq!(run(&t, &code(&["move_forward()", "move_forward()"]))["error_type"], "GOAL_FAIL");
}

#[test]
fn collectall_needs_at_least_one_matching_item() {
    let mut t = grid(3, 3, 1, 2, 0);
    t["goal"] = json!([{"name": "collectall", "specs": [[[{"color": "red", "neg": 0}]]]}]);
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "GOAL_FAIL");
    t["items"] = json!([item(1, 1, "circle", "red", 1), item(1, 0, "triangle", "red", 1)]);
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "GOAL_FAIL");
    assert_eq!(run(&t, &code(&["move_forward()", "move_forward()"]))["error_type"], "OK");
}

#[test]
fn forbid_and_findonly() {
    let mut t = grid(3, 3, 1, 2, 0);
    t["items"] = json!([item(1, 1, "lemon", "yellow", 1), item(1, 0, "strawberry", "red", 1)]);
    t["goal"] = json!([{"name": "findonly", "specs": [[[{"name": "strawberry", "neg": 0}]]]}]);
    assert_eq!(run(&t, &code(&["move_forward()", "move_forward()"]))["error_type"], "GOAL_FAIL");
    let around = [
        "turn_right()",
        "move_forward()",
        "turn_left()",
        "move_forward()",
        "move_forward()",
        "turn_left()",
        "move_forward()",
    ];
    assert_eq!(run(&t, &code(&around))["error_type"], "OK");
    t["goal"] =
        json!([find("strawberry"), {"name": "forbid", "specs": [[[{"name": "lemon", "neg": 0}]]]}]);
    assert_eq!(run(&t, &code(&["move_forward()", "move_forward()"]))["error_type"], "GOAL_FAIL");
    assert_eq!(run(&t, &code(&around))["error_type"], "OK");
}

#[test]
fn findonly_replaces_forbids_assembled_before_it() {
    // Reference quirk: objectives are grouped by name; findonly resets the forbid list.
    let mut t = grid(3, 3, 1, 2, 0);
    t["items"] = json!([item(1, 1, "circle", "red", 1), item(1, 0, "strawberry", "red", 1)]);
    let forbid_red = json!({"name": "forbid", "specs": [[[{"color": "red", "neg": 0}]]]});
    let findonly = json!({"name": "findonly", "specs": [[[{"color": "red", "neg": 0}]]]});
    t["goal"] = json!([forbid_red.clone(), findonly.clone()]);
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "OK");
    t["goal"] = json!([findonly, forbid_red]);
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "GOAL_FAIL");
}

#[test]
fn only_the_last_target_objective_counts() {
    let mut t = grid(3, 3, 1, 2, 0);
    t["items"] = json!([item(1, 1, "lemon", "yellow", 1), item(0, 2, "strawberry", "red", 1)]);
    t["goal"] = json!([find("strawberry"), find("lemon")]);
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "OK");
}

#[test]
fn items_outside_the_reference_item_model_fail_every_item_goal() {
    let mut t = grid(3, 3, 1, 2, 0);
    t["items"] = json!([item(1, 1, "triangle", "yellow", 1)]);
    t["goal"] = json!([find("triangle")]);
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "GOAL_FAIL");
    t["items"] = json!([item(1, 1, "triangle", "green", 1)]);
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "OK");
}

#[test]
fn negated_and_count_literals_are_evaluated() {
    let mut t = grid(3, 3, 1, 2, 0);
    t["items"] = json!([item(1, 1, "circle", "blue", 1), item(1, 0, "strawberry", "red", 3)]);
    t["goal"] = json!([{"name": "find", "specs": [[[{"name": "circle", "neg": 1}], [{"name": "noname", "neg": 1}]]]}]);
    assert_eq!(run(&t, &code(&["move_forward()"]))["error_type"], "GOAL_FAIL");
    assert_eq!(run(&t, &code(&["move_forward()", "move_forward()"]))["error_type"], "OK");
    t["goal"] = json!([{"name": "find", "specs": [[[{"count": 3, "neg": 0}]]]}]);
    assert_eq!(run(&t, &code(&["move_forward()", "move_forward()"]))["error_type"], "OK");
}

#[test]
fn the_action_cap_is_100000_and_overrides_the_last_action() {
    let t = grid(3, 3, 1, 1, 0);
    let five = |inner: &str| {
        let mut lines = Vec::new();
        for d in 0..5 {
            lines.push(format!("{}for v{d} in range(10):", "    ".repeat(d)));
        }
        lines.push(format!("{}{inner}", "    ".repeat(5)));
        lines
    };
    let exact: Vec<String> = five("turn_left()");
    let refs: Vec<&str> = exact.iter().map(String::as_str).collect();
    let v = run(&t, &code(&refs));
    assert_eq!(v["error_type"], "OK");
    assert_eq!(v["n_actions"], 100_000);
    let mut over = exact.clone();
    over.push("move_forward()".to_string());
    let refs: Vec<&str> = over.iter().map(String::as_str).collect();
    let v = run(&t, &code(&refs));
    assert_eq!(v["error_type"], "CRASH_EXCEED_MAX_CALLS");
    assert_eq!(v["result"]["crashed_msg"], "EXCEED_MAX_CALLS");
    assert_eq!(v["final_turtle"], json!({"x": 1, "y": 0, "direction": 0}));
    assert_eq!(v["drawn_lines"].as_array().map(Vec::len), Some(1));
    // A wall crash on the 100,001st action reports the cap.
    let mut walled = t.clone();
    tile_mut(&mut walled, 1, 1)["walls"] = json!({"top": true});
    assert_eq!(run(&walled, &code(&refs))["error_type"], "CRASH_EXCEED_MAX_CALLS");
}

#[test]
fn empty_loop_bodies_run_nothing_but_count_as_blocks() {
    let t = grid(3, 3, 1, 1, 0);
    let mut lines = Vec::new();
    for d in 0..40 {
        lines.push(format!("{}for v{d} in range(12):", "    ".repeat(d)));
    }
    lines.push(format!("{}pass", "    ".repeat(40)));
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let v = run(&t, &code(&refs));
    assert_eq!(v["n_actions"], 0);
    assert_eq!(v["n_blocks"], 40);
}

#[test]
fn the_loader_sizes_the_grid_from_tiles_and_ignores_rows_cols() {
    let mut t = grid(2, 3, 0, 0, 1);
    t["rows"] = json!(9);
    t["cols"] = json!(9);
    let task = load::task_from_slice(&serde_json::to_vec(&t).expect("json")).expect("loads");
    assert_eq!((task.rows, task.cols), (2, 3));
    let world = World::new(&task);
    assert_eq!((world.rows(), world.cols()), (2, 3));
}

#[test]
fn evaluation_is_deterministic() {
    let t = concat_task();
    let prog = code(&["move_forward()", "move_forward()", "turn_right()", "move_forward()"]);
    let a = serde_json::to_string(&run(&t, &prog)).expect("a");
    let b = serde_json::to_string(&run(&t, &prog)).expect("b");
    assert_eq!(a, b);
}
