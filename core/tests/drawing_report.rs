//! `gobo::drawing::report` on rows whose figures are computed by hand: episode rows and a
//! `draw eval` row (one turn), an error row, an unscored turn, labels from the rows and from
//! the dataset, the improvement buckets, issue counts, action counts, and the Markdown tables.

use gobo::drawing::report::{report_of, Stats};
use gobo::drawing::task::dataset_from_json;
use serde_json::{json, Value};

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} != {b}");
}

fn stats(s: &Stats, mean: f64, median: f64, perfect: usize, rate: f64) {
    close(s.mean, mean);
    close(s.median, median);
    assert_eq!(s.perfect, perfect);
    close(s.perfect_rate, rate);
}

fn rows() -> Vec<Value> {
    vec![
        // A: easy / x, two turns 0.5 → 0.95, with issues and action counts.
        json!({"id": "a", "category": "x", "difficulty": "easy", "turns": [
            {"turn": 1, "score": 0.5, "errors": [{"type": "SYNTAX_ERROR"}],
             "warnings": [{"type": "EFFICIENCY_WARNING"}],
             "evaluation_rest": {"total_actions": 10}, "metrics": {"drawing_segments": 2}},
            {"turn": 2, "score": 0.95, "errors": [], "warnings": [{"type": "EFFICIENCY_WARNING"}],
             "evaluation_rest": {"total_actions": 20}, "metrics": {"drawing_segments": 4}}]}),
        // B: easy / y, one turn 0.92, a model.
        json!({"id": "b", "category": "y", "difficulty": "easy", "model": "m1",
               "turns": [{"turn": 1, "score": 0.92}]}),
        // C: a draw eval row (no turns): hard / x, 0.8.
        json!({"id": "c", "category": "x", "difficulty": "hard", "score": 0.8, "profile": "paper"}),
        // D: a row that could not be evaluated.
        json!({"id": "d", "error": "task_index 9 out of range (0..2)"}),
        // E: medium / x, an unscored first turn (0) then 0.61.
        json!({"id": "e", "category": "x", "difficulty": "medium", "turns": [
            {"turn": 1, "score": null, "exception": "AttributeError: 'str' object has no attribute 'get'"},
            {"turn": 2, "score": 0.61}]}),
    ]
}

#[test]
fn hand_computed_overall_figures() {
    let r = report_of(&rows(), &[]);
    assert_eq!((r.rows, r.error_rows, r.unscored_turns), (5, 1, 1));
    let o = &r.overall;
    assert_eq!((o.episodes, o.retried), (4, 2));
    // First turns 0.5, 0.92, 0.8, 0: mean 2.22 / 4, median (0.5 + 0.8) / 2, one ≥ 0.9.
    stats(&o.first, 0.555, 0.65, 1, 0.25);
    // Deviations from 0.555: −0.055, 0.365, 0.245, −0.555; squares sum to 0.5043.
    close(o.first.sd, (0.5043f64 / 4.0).sqrt());
    // Final turns 0.95, 0.92, 0.8, 0.61: mean 3.28 / 4, median (0.8 + 0.92) / 2, two ≥ 0.9.
    stats(&o.last, 0.82, 0.86, 2, 0.5);
    close(o.improvement, 0.82 - 0.555);
    // A +0.450 and E +0.610 are large; B and C did not change.
    let i = r.improvement;
    assert_eq!((i.worse, i.none, i.small, i.medium, i.large), (0, 2, 0, 0, 2));
    let issues: Vec<_> = r.issues.iter().map(|c| (c.kind.as_str(), c.first, c.last)).collect();
    assert_eq!(issues, [("EFFICIENCY_WARNING", 1, 1), ("SYNTAX_ERROR", 1, 0)]);
    assert_eq!(r.actions_first.turns, 1);
    close(r.actions_first.mean_actions, 10.0);
    close(r.actions_final.mean_segments, 4.0);
}

#[test]
fn hand_computed_groups() {
    let r = report_of(&rows(), &[]);
    let names: Vec<_> = r.by_difficulty.iter().map(|g| (g.name.as_str(), g.episodes)).collect();
    assert_eq!(names, [("easy", 2), ("medium", 1), ("hard", 1)]);
    let easy = &r.by_difficulty[0];
    stats(&easy.first, 0.71, 0.71, 1, 0.5);
    stats(&easy.last, 0.935, 0.935, 2, 1.0);
    close(easy.improvement, 0.935 - 0.71);
    // x has three episodes, y one: most first.
    let cats: Vec<_> = r.by_category.iter().map(|g| (g.name.as_str(), g.episodes)).collect();
    assert_eq!(cats, [("x", 3), ("y", 1)]);
    stats(&r.by_category[0].first, 1.3 / 3.0, 0.5, 0, 0.0);
    let models: Vec<_> = r.by_model.iter().map(|g| (g.name.as_str(), g.episodes)).collect();
    assert_eq!(models, [("m1", 1)]);
}

#[test]
fn labels_come_from_the_dataset_when_rows_lack_them() {
    let tasks = dataset_from_json(
        r#"[{"id": "p", "category": "c0", "difficulty": "very_hard", "criteria": {}},
            {"id": "q", "category": "c1", "difficulty": "odd", "criteria": {}}]"#,
    )
    .unwrap();
    let rows = [
        json!({"id": 1, "task_index": 1, "score": 1.0}),
        json!({"id": 2, "task_index": 0, "score": 0.5}),
        json!({"id": 3, "score": 0.7}),
    ];
    let r = report_of(&rows, &tasks);
    let d: Vec<_> = r.by_difficulty.iter().map(|g| g.name.as_str()).collect();
    // The paper's order first, then others by name.
    assert_eq!(d, ["very_hard", "odd", "unknown"]);
    let c: Vec<_> = r.by_category.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(c, ["c0", "c1", "unknown"]);
    assert!(r.by_model.is_empty());
    // Without the dataset every label is unknown.
    let r = report_of(&rows, &[]);
    assert_eq!(r.by_category.len(), 1);
    assert_eq!(r.by_category[0].episodes, 3);
}

#[test]
fn improvement_buckets_edges() {
    let ep = |a: f64, b: f64| json!({"turns": [{"score": a}, {"score": b}]});
    let rows = [
        ep(0.5, 0.55),  // +0.050: small
        ep(0.5, 0.551), // +0.051: medium
        ep(0.5, 0.599), // +0.099: medium
        ep(0.5, 0.6),   // +0.100: large
        ep(0.5, 0.499), // worse
        ep(0.3, 0.301), // +0.001: small
    ];
    let i = report_of(&rows, &[]).improvement;
    assert_eq!((i.worse, i.none, i.small, i.medium, i.large), (1, 0, 2, 2, 1));
}

#[test]
fn json_and_markdown() {
    let r = report_of(&rows(), &[]);
    let j = r.to_json();
    assert_eq!(j["overall"]["episodes"], json!(4));
    assert_eq!(j["overall"]["final"]["perfect"], json!(2));
    assert_eq!(j["by_difficulty"][0]["name"], json!("easy"));
    assert_eq!(j["issues"][1], json!({"type": "SYNTAX_ERROR", "first": 1, "final": 0}));
    assert_eq!(j["perfect_at"], json!(0.9));
    let md = r.to_markdown();
    assert!(md.starts_with("4 episodes (2 retried), 1 error rows, 1 unscored turns"), "{md}");
    assert!(md.contains("| mean score | 0.555 | 0.820 | +0.265 |"), "{md}");
    assert!(md.contains("| perfect (≥ 0.9) | 1/4 | 2/4 | +1 |"), "{md}");
    assert!(md.contains("| easy | 2 | 0.710 | 0.935 | +0.225 | 1 | 2 |"), "{md}");
    assert!(md.contains("| SYNTAX_ERROR | 1 | 0 |"), "{md}");
    // An empty report is all zeros, not NaN.
    let empty = report_of(&[], &[]);
    assert_eq!(empty.overall.first.mean, 0.0);
    assert!(!empty.to_json().to_string().contains("null"));
}
