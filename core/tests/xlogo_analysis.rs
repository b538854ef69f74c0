//! `xlogo::{dims, report, perturb, resample}`: task dimensions, the per-dimension report, the
//! three perturbations and the curriculum resampling, on small tasks written here, plus the
//! classifier's distribution over the 85 REAL tasks (skipped when `../shared` is absent).

mod xlogo_common;

use gobo::xlogo::dims::{classify, task_row, ConstraintKind, Dimension, Length, TaskType};
use gobo::xlogo::perturb::{perturb, Subset};
use gobo::xlogo::report::ReportBuilder;
use gobo::xlogo::resample::{resample, row_failed, ResampleConfig, ResampleError};
use gobo::xlogo::{load, python};
use serde_json::{json, Value};

/// A `w` x `h` open grid with the turtle at (x, y) facing north.
fn grid(w: i32, h: i32, x: i32, y: i32) -> Value {
    let tiles: Vec<Value> = (0..h)
        .flat_map(|ty| {
            (0..w).map(move |tx| json!({"x": tx, "y": ty, "allowed": true, "walls": {}}))
        })
        .collect();
    json!({"turtle": {"x": x, "y": y, "direction": 0}, "tiles": tiles, "items": [], "lines": [],
           "goal": [], "constraints": []})
}

fn strawberry(task: &mut Value, x: i32, y: i32) {
    task["items"] = json!([{"x": x, "y": y, "name": "strawberry", "color": "red", "count": 1}]);
    task["goal"] = json!([{"name": "find", "specs": [[[{"name": "strawberry", "neg": 0}]]]}]);
}

fn dims_of(task: &Value, code: Option<&str>) -> gobo::xlogo::dims::Dimensions {
    let t = load::task_from_value(task).unwrap();
    let p = code.map(|c| python::parse(c.as_bytes()).unwrap());
    classify(&t, p.as_ref())
}

#[test]
fn task_types_follow_the_goal() {
    let mut t = grid(3, 3, 1, 2);
    strawberry(&mut t, 1, 0);
    assert_eq!(dims_of(&t, None).task_type, TaskType::Find);
    t["goal"][0]["name"] = json!("collectall");
    assert_eq!(dims_of(&t, None).task_type, TaskType::Logic);
    t["goal"] = json!([{"name": "sum", "specs": [[[{"name": "strawberry", "neg": 0}]]], "total_cnt": 1},
                       {"name": "forbid", "specs": [[[{"color": "green", "neg": 0}]]]}]);
    assert_eq!(dims_of(&t, None).task_type, TaskType::Math, "sum decides before forbid");
    t["goal"] = json!([{"name": "find", "specs": [[[{"name": "strawberry", "neg": 1}]]]}]);
    assert_eq!(dims_of(&t, None).task_type, TaskType::Logic, "a negated literal is logic");
    t["goal"] = Value::Null;
    assert_eq!(dims_of(&t, None).task_type, TaskType::Draw);
}

#[test]
fn constraints_concepts_length_and_grid_size() {
    let mut t = grid(7, 2, 0, 1);
    let d = dims_of(&t, None);
    assert_eq!(
        (d.constraints, d.concepts, d.length, d.grid_side),
        (ConstraintKind::None, None, None, 7)
    );
    assert_eq!(d.aspect(Dimension::GridSize), Some(">=7"));
    assert_eq!(d.aspect(Dimension::Concepts), None);
    t["constraints"] = json!([{"at_most": {"all": 4}}]);
    assert_eq!(dims_of(&t, None).constraints, ConstraintKind::AtMost);
    t["constraints"] = json!([{"at_most": {"all": 4}, "start_by": ["fd"]}]);
    assert_eq!(dims_of(&t, None).constraints, ConstraintKind::Hybrid);
    t["constraints"] = json!([{"at_most": {}}]);
    assert_eq!(dims_of(&t, None).constraints, ConstraintKind::None, "an empty limit is none");

    let loops = "def run():\n    for i in range(3):\n        move_forward()\n";
    let d = dims_of(&t, Some(loops));
    assert_eq!(
        (d.aspect(Dimension::Concepts), d.n_blocks, d.length),
        (Some("Loops"), Some(2), Some(Length::Short))
    );
    let both = "def run():\n    setpc('red')\n    for i in range(3):\n        move_forward()\n        turn_left()\n        move_forward()\n        turn_right()\n";
    let d = dims_of(&t, Some(both));
    assert_eq!(d.aspect(Dimension::Concepts), Some("Loops and Variables"));
    assert_eq!((d.n_blocks, d.length), (Some(6), Some(Length::Medium)));
    let json = d.to_json();
    assert_eq!(json["concepts"], "Loops and Variables");
    assert_eq!(json["grid_size"], ">=7");
}

#[test]
fn task_rows_carry_their_key_and_reference() {
    let mut t = grid(2, 2, 0, 1);
    strawberry(&mut t, 0, 0);
    let row = json!({"task_id": 17, "task": t.to_string(), "reference_code": "def run():\n    move_forward()\n"});
    let r = task_row(&row).unwrap();
    assert_eq!(r.key.as_deref(), Some("17"));
    assert_eq!(r.reference.as_ref().map(|p| p.run.len()), Some(1));
    let bad = json!({"id": "x", "task": t, "reference_code": {"run": [{"type": "jump"}]}});
    let err = task_row(&bad).unwrap_err();
    assert!(err.starts_with("reference_code: "), "{err}");
    assert!(task_row(&json!({"id": 1})).is_err());
}

#[test]
fn report_counts_rates_per_aspect_and_unmatched_rows() {
    let mut find = grid(3, 3, 1, 2);
    strawberry(&mut find, 1, 0);
    let draw = {
        let mut t = grid(5, 1, 0, 0);
        t["goal"] = Value::Null;
        t
    };
    let fd = dims_of(&find, Some("def run():\n    move_forward()\n"));
    let dd = dims_of(&draw, None);
    let mut b = ReportBuilder::new();
    b.add(&json!({"id": 1, "error_type": "OK", "success": true}), Some(&fd));
    b.add(&json!({"id": 2, "error_type": "CRASH_WALL", "success": false}), Some(&fd));
    b.add(&json!({"id": 3, "error_type": "GOAL_FAIL", "success": false}), Some(&dd));
    b.add(&json!({"id": 4, "error_type": "FORMAT_ERROR", "success": false}), None);
    let r = b.finish();
    assert_eq!(
        (r.overall.rows, r.overall.success, r.overall.format_ok, r.overall.no_crash),
        (4, 1, 3, 2)
    );
    assert_eq!(r.unmatched, 1);
    let types = &r.by[0];
    assert_eq!(types.dimension, "task_type");
    let names: Vec<_> =
        types.aspects.iter().map(|a| (a.aspect, a.rates.rows, a.rates.success)).collect();
    assert_eq!(names, [("Find", 2, 1), ("Draw", 1, 0), ("unknown", 1, 0)]);
    assert_eq!(types.aspects[0].rates.success_rate, 0.5);
    // Concepts: the draw task has no reference code, so it is unknown there.
    let concepts: Vec<_> = r.by[2].aspects.iter().map(|a| (a.aspect, a.rates.rows)).collect();
    assert_eq!(concepts, [("Basic Actions", 2), ("unknown", 2)]);
    let grid_sizes: Vec<_> = r.by[4].aspects.iter().map(|a| (a.aspect, a.rates.rows)).collect();
    assert_eq!(grid_sizes, [("<=3", 2), ("5", 1), ("unknown", 1)]);
    let j = r.to_json();
    assert_eq!(j["by"][0]["aspects"][0]["no_crash_rate"], 0.5);
    assert!(r.to_markdown().contains("| Find | 2 | 50.00 % (1) |"), "{}", r.to_markdown());
    // Without any known task there are no per-dimension tables.
    let mut only = ReportBuilder::new();
    only.add(&json!({"error_type": "OK"}), None);
    assert!(only.finish().by.is_empty());
}

#[test]
fn subsets_parse_and_label() {
    let labels: Vec<_> = Subset::ALL.iter().map(|s| s.label()).collect();
    assert_eq!(labels, ["T", "T_A", "T_B", "T_C", "T_AB", "T_BC", "T_AC", "T_ABC"]);
    for s in Subset::ALL {
        assert_eq!(Subset::parse(s.label()), Some(s));
    }
    assert_eq!(Subset::parse("cb"), Subset::parse("T_BC"));
    for bad in ["", "T_", "AA", "D", "T_AD"] {
        assert_eq!(Subset::parse(bad), None, "{bad}");
    }
}

/// A 2 x 5 grid, turtle at the bottom left facing north, strawberry at the top left, a wall to
/// pass around, a forbidden cell and an at-most constraint.
fn corridor() -> Value {
    let mut t = grid(2, 5, 0, 4);
    strawberry(&mut t, 0, 0);
    // A wall on the top of (0, 2) forces the path through column 1; (1, 4) is forbidden.
    t["tiles"][4]["walls"] = json!({"top": true});
    t["tiles"][9]["allowed"] = json!(false);
    t["constraints"] = json!([{"at_most": {"all": 6}}]);
    t
}

#[test]
fn perturbations_a_b_c() {
    let t = corridor();
    let reference = python::parse(
        b"def run():\n    move_forward()\n    turn_right()\n    move_forward()\n    turn_left()\n    move_forward()\n    move_forward()\n    turn_left()\n    move_forward()\n    turn_right()\n    move_forward()\n",
    )
    .unwrap();
    let same = perturb(&t, Some(&reference), Subset::default()).unwrap();
    assert_eq!(same.task, t);
    assert_eq!(same.reference.unwrap().error_type, "CONSTRAINT_FAIL", "10 blocks > 6");

    let a = perturb(&t, Some(&reference), Subset::parse("A").unwrap()).unwrap();
    assert!(a.changed.a && !a.changed.b && !a.changed.c);
    assert_eq!(a.task["constraints"], json!([]));
    assert!(a.reference.unwrap().success);

    let b = perturb(&t, None, Subset::parse("B").unwrap()).unwrap();
    assert!(b.changed.b);
    assert_eq!(b.task["tiles"][4]["walls"], json!({}));
    assert_eq!(b.task["tiles"][9]["allowed"], json!(true));

    // C on the walled grid: the breadth-first path goes round the wall, (0,4) (0,3) (0,2) (1,2)
    // (1,1) (1,0) (0,0): 6 steps, halfway is step 3.
    let c = perturb(&t, None, Subset::parse("C").unwrap()).unwrap();
    let m = c.moved.unwrap();
    assert_eq!((m.from, m.path_len), ([0, 4], 6));
    assert_eq!(m.to, [1, 2]);
    assert_eq!(c.task["turtle"], json!({"x": 1, "y": 2, "direction": 0}));
    // BC: without the wall the path is straight up, 4 steps, halfway (0, 2).
    let bc = perturb(&t, None, Subset::parse("BC").unwrap()).unwrap();
    assert_eq!(bc.moved.unwrap().to, [0, 2]);
    assert_eq!((bc.moved.unwrap().path_len, bc.changed.a), (4, false));
}

#[test]
fn perturbations_that_do_not_apply_leave_the_task_unchanged() {
    let mut t = grid(3, 3, 1, 1);
    strawberry(&mut t, 1, 0);
    let abc = perturb(&t, None, Subset::parse("ABC").unwrap()).unwrap();
    assert!(!abc.changed.a && !abc.changed.b && !abc.changed.c, "one step away: nothing to do");
    assert_eq!(abc.task, t);
    assert!(abc.moved.is_none());
    // An unreachable target: nothing moves.
    let mut walled = grid(1, 3, 0, 2);
    strawberry(&mut walled, 0, 0);
    walled["tiles"][1]["allowed"] = json!(false);
    assert!(perturb(&walled, None, Subset::parse("C").unwrap()).unwrap().moved.is_none());
    // A data row is unwrapped; a broken task is a typed error.
    let row = json!({"task_id": "9", "task": t});
    assert_eq!(perturb(&row, None, Subset::default()).unwrap().task, row["task"]);
    let err = perturb(&json!({"tiles": 3}), None, Subset::default()).unwrap_err();
    assert!(err.to_string().starts_with("$.tiles"), "{err}");
}

#[test]
fn c_on_a_draw_task_aims_at_the_nearest_line_end() {
    let mut t = grid(6, 1, 0, 0);
    t["goal"] = Value::Null;
    t["lines"] = json!([{"x1": 4, "y1": 0, "x2": 5, "y2": 0, "color": "#000000"}]);
    let c = perturb(&t, None, Subset::parse("C").unwrap()).unwrap();
    assert_eq!(c.moved.unwrap().to, [2, 0]);
}

#[test]
fn resampling_weights_failures_and_is_seeded() {
    let failed = [false, true, false, false];
    let cfg = ResampleConfig { beta: 1.0, size: Some(10_000), seed: 7 };
    let r = resample(&failed, &cfg).unwrap();
    assert_eq!((r.rows, r.failed, r.size), (4, 1, 10_000));
    assert_eq!((r.weight_pass, r.weight_fail), (0.2, 0.4));
    assert!((r.expected_fail_share - 0.4).abs() < 1e-12);
    // 10,000 draws at p = 0.4: the count is within 5 standard deviations (±245) of 4,000.
    assert!((3_755..=4_245).contains(&r.drawn_failed), "{}", r.drawn_failed);
    assert_eq!(r.drawn_failed, r.draws.iter().filter(|i| **i == 1).count());
    assert_eq!(resample(&failed, &cfg).unwrap(), r, "same seed, same draws");
    let other = resample(&failed, &ResampleConfig { seed: 8, ..cfg }).unwrap();
    assert_ne!(other.draws, r.draws);
    // beta 0 is uniform; the default size is the row count.
    let u = resample(&failed, &ResampleConfig { beta: 0.0, size: None, seed: 1 }).unwrap();
    assert_eq!((u.size, u.weight_fail), (4, 0.25));
    let ids = [json!("a"), json!("b"), json!("c"), json!("d")];
    let j = u.to_json(&ids);
    assert_eq!(j["sample"].as_array().unwrap().len(), 4);
    assert!(j.get("draws").is_none());
    assert_eq!(resample(&[], &cfg), Err(ResampleError::Empty));
    assert_eq!(
        resample(&failed, &ResampleConfig { beta: -1.0, ..cfg }),
        Err(ResampleError::Beta(-1.0))
    );
    assert!(matches!(
        resample(&failed, &ResampleConfig { size: Some(usize::MAX), ..cfg }),
        Err(ResampleError::TooManyDraws(_))
    ));
    assert!(row_failed(&json!({"error_type": "GOAL_FAIL", "success": false})));
    assert!(!row_failed(&json!({"error_type": "OK", "success": true})));
    assert!(row_failed(&json!({"error": "line 3 is not JSON"})));
}

/// The classifier over the 85 REAL tasks, against the paper's Fig. 3a counts.
#[test]
fn real_task_distribution_matches_the_paper() {
    let Some(dir) = xlogo_common::shared_dir() else {
        println!("skipped: ../shared/xlogo is absent");
        return;
    };
    let rows = xlogo_common::read_jsonl(&dir.join("real_tasks.jsonl"));
    let mut counts: std::collections::BTreeMap<(String, String), usize> = Default::default();
    for row in &rows {
        let r = task_row(row).unwrap();
        let d = classify(&r.task, r.reference.as_ref());
        for dim in Dimension::ALL {
            let aspect = d.aspect(dim).unwrap_or("unknown");
            *counts.entry((dim.name().to_string(), aspect.to_string())).or_default() += 1;
        }
    }
    let get = |d: &str, a: &str| counts.get(&(d.to_string(), a.to_string())).copied().unwrap_or(0);
    println!("{counts:?}");
    let paper = [
        ("task_type", [("Find", 33), ("Draw", 33), ("Math", 10), ("Logic", 9)].as_slice()),
        ("constraints", &[("None", 54), ("AtMost", 21), ("Exactly", 6), ("StartBy", 4)]),
        (
            "concepts",
            &[("Basic Actions", 47), ("Loops", 24), ("Variables", 7), ("Loops and Variables", 7)],
        ),
        ("length", &[("Short", 41), ("Medium", 29), ("Long", 15)]),
        ("grid_size", &[("<=3", 59), ("4", 15), ("5", 4), ("6", 4), (">=7", 3)]),
    ];
    for (dim, aspects) in paper {
        for (aspect, want) in aspects {
            assert_eq!(get(dim, aspect), *want, "{dim} {aspect}");
        }
    }
}
