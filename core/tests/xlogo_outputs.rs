//! Prompts, renders and batch rows over the checked-in examples (`examples/xlogo/`).

use gobo::xlogo::batch::{eval_row, Summary};
use gobo::xlogo::prompt::{prompt, PromptStyle};
use gobo::xlogo::render::{render_image, CELL, MARGIN};
use gobo::xlogo::{evaluate_program, load, python, Task, World};
use serde_json::{json, Value};

fn example(name: &str) -> Vec<u8> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/xlogo").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn task(name: &str) -> Task {
    load::task_from_slice(&example(name)).expect("example task loads")
}

#[test]
fn ascii_prompt_draws_the_grid() {
    let text = prompt(&task("find-strawberry.json"), PromptStyle::Ascii);
    let grid: Vec<&str> = text.lines().skip(3).take(8).collect();
    assert_eq!(
        grid,
        [
            "     0   1   2 ",
            "   +...+...+...+",
            " 0 :      b   a:",
            "   +---+   +   +",
            " 1 :    XXX    :",
            "   +   +   +   +",
            " 2 : ^         :",
            "   +...+...+...+",
        ]
    );
    assert!(text.contains("Goal: Find the strawberry without stepping on a lemon."), "{text}");
    assert!(text.contains("Constraints: Use at most 6 commands."), "{text}");
}

#[test]
fn nl_prompt_lists_cells_and_lines() {
    let text = prompt(&task("find-strawberry.json"), PromptStyle::Nl);
    assert!(text.contains("- (0, 0): wall on the bottom side\n"), "{text}");
    assert!(text.contains("- (1, 1): forbidden\n"), "{text}");
    assert!(text.contains("- (2, 0): holds a strawberry\n"), "{text}");
    let text = prompt(&task("draw-square.json"), PromptStyle::Nl);
    assert!(text.contains("- from (0, 0) to (1, 0) in red\n"), "{text}");
    assert!(text.contains("Goal: Draw the picture."), "{text}");
    let text = prompt(&task("draw-square.json"), PromptStyle::Ascii);
    assert!(text.contains("   o-r-o\n   r   r\n   o-r-o\n"), "{text}");
}

#[test]
fn render_draws_tiles_walls_items_lines_and_the_turtle() {
    let t = task("find-strawberry.json");
    let program = python::parse(&example("find-strawberry.py")).expect("parses");
    let verdict = evaluate_program(&World::new(&t), &program);
    assert!(verdict.success());
    let image = render_image(&t, verdict.run.as_ref());
    assert_eq!((image.width(), image.height()), (3 * 48 + 24, 3 * 48 + 24));
    let at = |x: i32, y: i32| image.pixel(x as u32, y as u32).expect("inside");
    let cell = |x: i32, y: i32| (MARGIN + x * CELL, MARGIN + y * CELL);
    assert_eq!(at(2, 2), (0xFF, 0xFF, 0xFF), "background");
    let (x, y) = cell(1, 1);
    assert_eq!(at(x + 4, y + 24), (0xFF, 0xCD, 0xD2), "forbidden tile");
    let (x, y) = cell(0, 1);
    assert_eq!(at(x + 24, y), (0x4E, 0x34, 0x2E), "wall on top of (0, 1)");
    let (x, y) = cell(1, 0);
    assert_eq!(at(x + 24, y + 24), (0xFF, 0xD6, 0x00), "lemon");
    let (x, y) = cell(1, 2);
    assert_eq!(at(x + 24, y + 24), (0, 0, 0), "drawn black line through (1, 2)");
    let (x, y) = cell(2, 0);
    assert_eq!(at(x + 24, y + 24), (0x2E, 0x7D, 0x32), "turtle ends on (2, 0)");
    assert_eq!(render_image(&t, verdict.run.as_ref()), image, "deterministic");
}

#[test]
fn batch_rows_carry_id_and_oracle_fields() {
    let task_value: Value = serde_json::from_slice(&example("find-strawberry.json")).expect("json");
    let py = String::from_utf8(example("find-strawberry.py")).expect("utf8");
    let rows = [
        eval_row(&json!({"id": "a", "task": task_value, "code": py})),
        eval_row(&json!({"id": "b", "task": task_value, "code": {"run": [{"type": "fd"}]}})),
        eval_row(&json!({"id": "c", "task": task_value, "code": "def run(:"})),
        eval_row(&json!({"id": "d", "task": {"tiles": []}, "code": "def run():\n    pass"})),
        eval_row(&json!({"id": "e", "task": task_value, "code": {"run": [{"type": "jump"}]}})),
    ];
    assert_eq!(rows[0]["id"], "a");
    assert_eq!(rows[0]["error_type"], "OK");
    assert_eq!(rows[0]["trace_xy"], json!([[0, 2], [1, 2], [2, 2], [2, 1], [2, 0]]));
    assert_eq!(rows[1]["error_type"], "GOAL_FAIL");
    assert_eq!(rows[2]["error_type"], "FORMAT_ERROR");
    assert_eq!(rows[3]["error_type"], "INVALID_TASK");
    assert_eq!(rows[4]["error_type"], "INVALID_CODE");
    let s = Summary::of(&rows);
    assert_eq!((s.rows, s.success, s.format_ok, s.no_crash), (5, 1, 4, 2));
    // The task may come as its JSON text (a string), with the same verdict; text that is not a
    // task is an INVALID_TASK row naming the problem.
    let as_text = eval_row(&json!({"id": "a", "task": task_value.to_string(), "code": py}));
    assert_eq!(as_text, rows[0]);
    let bad = eval_row(&json!({"id": "f", "task": "{\"tiles\": [", "code": py}));
    assert_eq!(bad["error_type"], "INVALID_TASK");
    assert!(bad["error"].as_str().unwrap().contains("line 1"), "{}", bad["error"]);
}

/// Rows through one `TaskCache` equal rows evaluated alone: tasks repeated as objects and as
/// text, a broken task between them, tasks that differ only in one cell, and more distinct
/// tasks than the cache holds (so entries are replaced and loaded again).
#[test]
fn cached_rows_equal_rows_evaluated_alone() {
    use gobo::xlogo::batch::{eval_row_with, TaskCache};
    let find: Value = serde_json::from_slice(&example("find-strawberry.json")).expect("json");
    let draw: Value = serde_json::from_slice(&example("draw-square.json")).expect("json");
    let find_py = String::from_utf8(example("find-strawberry.py")).expect("utf8");
    let draw_ast: Value = serde_json::from_slice(&example("draw-square.ast.json")).expect("json");
    // Variants of the find task with other turtle starts and ids: twice as many distinct tasks
    // as the cache holds, with other verdicts.
    let variants: Vec<Value> = (0..2 * TaskCache::SLOTS)
        .map(|i| {
            let mut t = find.clone();
            t["turtle"]["x"] = json!(i % 3);
            t["turtle"]["y"] = json!((i / 3) % 3);
            t["id"] = json!(format!("variant-{i}"));
            t
        })
        .collect();
    let mut inputs = Vec::new();
    for round in 0..3 {
        inputs.push(json!({"id": round * 10, "task": find, "code": find_py}));
        inputs.push(json!({"id": round * 10 + 1, "task": find.to_string(), "code": find_py}));
        inputs.push(json!({"id": round * 10 + 2, "task": draw, "code": draw_ast}));
        inputs.push(json!({"id": round * 10 + 3, "task": "{\"tiles\": [", "code": find_py}));
        inputs.push(json!({"id": round * 10 + 4, "task": draw.to_string(), "code": "def run(:"}));
        for (i, v) in variants.iter().enumerate() {
            inputs.push(json!({"id": format!("v{round}-{i}"), "task": v, "code": find_py}));
        }
    }
    let mut cache = TaskCache::new();
    let mut kinds = std::collections::BTreeSet::new();
    for input in &inputs {
        let cached = eval_row_with(input, &mut cache);
        assert_eq!(cached, eval_row(input), "{}", input["id"]);
        kinds.insert(cached["error_type"].as_str().unwrap_or("").to_string());
    }
    assert!(kinds.len() >= 3, "the rows cover several verdicts: {kinds:?}");
}
