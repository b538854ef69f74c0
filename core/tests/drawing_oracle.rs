//! Every row of `../shared/drawingbench/oracle-public.jsonl` (the published evaluator run on
//! recorded, generated and edge-case action texts) must agree with gobo's `drawingbench-1.0`
//! verdict on score, errors, warnings, criteria, metrics, the rest of the result dict, the
//! feedback and the exception. Lists the reference builds from Python sets are compared as
//! sets. Skips cleanly when `../shared` is absent.

#[path = "../../tests-support/reference.rs"]
mod reference;

use std::path::PathBuf;

use gobo::drawing::actions::Actions;
use gobo::drawing::task::{dataset_from_json, Criteria};
use gobo::drawing::ui::UiConfig;
use gobo::drawing::{judge, pyjson, Evaluator};
use serde_json::Value;

fn shared() -> Option<PathBuf> {
    let dir = std::env::var_os("GOBO_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let db = dir.join("drawingbench");
    db.join("oracle-public.jsonl").exists().then_some(db)
}

/// Sorts the set-built lists so they compare as sets.
fn normalise(v: &mut Value) {
    if let Some(obj) = v.as_object_mut() {
        for key in ["colors_exact_used", "colors_missing"] {
            if let Some(Value::Array(items)) = obj.get_mut(key) {
                items.sort_by_key(|a| a.to_string());
            }
        }
    }
}

const FIELDS: [&str; 9] = [
    "score",
    "errors",
    "warnings",
    "criteria_met",
    "metrics",
    "evaluation_rest",
    "feedback_recon",
    "feedback_recon_text",
    "exception",
];

#[test]
fn oracle_rows_agree() {
    let Some(db) = shared() else {
        reference::skipped("drawing_oracle::oracle_rows_agree", "../shared/drawingbench not found");
        return;
    };
    reference::ran("drawing_oracle::oracle_rows_agree");
    let ui = UiConfig::from_json(&std::fs::read_to_string(db.join("UI_CONFIG.json")).unwrap())
        .expect("UI config");
    assert_eq!(
        ui,
        UiConfig::drawingbench_default(),
        "the built-in default is the published config"
    );
    let tasks =
        dataset_from_json(&std::fs::read_to_string(db.join("dataset_consolidated.json")).unwrap())
            .expect("dataset");
    assert_eq!(tasks.len(), 250);
    let text = std::fs::read_to_string(db.join("oracle-public.jsonl")).unwrap();
    let (mut total, mut agree, mut parse_errors_agree, mut parse_errors) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut evaluator = Evaluator::new();
    for (line_no, line) in text.lines().enumerate() {
        let row: Value = serde_json::from_str(line).unwrap();
        total += 1;
        let idx = row["task_index"].as_u64().unwrap() as usize;
        let criteria = match row.get("criteria_override") {
            Some(c) => {
                let v = pyjson::parse(&c.to_string()).unwrap();
                Criteria::from_value(&v, "criteria").unwrap()
            }
            None => tasks[idx].criteria.clone(),
        };
        let raw = row["actions_raw"].as_str().unwrap();
        let verdict = judge(raw.as_bytes(), &criteria, &ui).expect("within limits");
        // The batch path (one evaluator reused across rows) and the direct action reader give
        // the same as a fresh evaluation through the general JSON reader.
        let reused = evaluator.judge(raw.as_bytes(), &criteria, &ui).expect("within limits");
        // Compared as debug text, so that NaN coordinates compare equal.
        assert_eq!(format!("{reused:?}"), format!("{verdict:?}"), "line {}: reused", line_no + 1);
        assert_eq!(
            format!("{:?}", Actions::parse(raw.as_bytes())),
            format!("{:?}", Actions::parse_via_json(raw.as_bytes())),
            "line {}: direct reader vs JSON tree",
            line_no + 1
        );
        let ours = verdict.to_row(&criteria, &ui);
        let mut bad = Vec::new();
        for field in FIELDS {
            let Some(want) = row.get(field) else { continue };
            let mut want = want.clone();
            let mut got = ours.get(field).cloned().unwrap_or(Value::Null);
            normalise(&mut want);
            normalise(&mut got);
            if want != got {
                bad.push(format!("  {field}:\n    want {want}\n    got  {got}"));
            }
        }
        if !row["parse_error"].is_null() {
            parse_errors += 1;
            if row["parse_error"] == ours["parse_error"] {
                parse_errors_agree += 1;
            }
        }
        if bad.is_empty() {
            agree += 1;
        } else {
            failures.push(format!(
                "line {} ({}, task {idx}):\n{}",
                line_no + 1,
                row["kind"],
                bad.join("\n")
            ));
        }
    }
    println!("drawingbench-1.0 oracle agreement: {agree} / {total}");
    println!("parse_error text agreement: {parse_errors_agree} / {parse_errors}");
    let mut by_field = std::collections::BTreeMap::new();
    for f in &failures {
        for l in
            f.lines().filter(|l| l.starts_with("  ") && l.ends_with(':') && !l.starts_with("    "))
        {
            *by_field.entry(l.trim().to_string()).or_insert(0) += 1;
        }
    }
    println!("disagreements by field: {by_field:?}");
    for f in failures.iter().filter(|f| !f.contains("evaluation_rest:")).take(8) {
        println!("{f}");
    }
    assert_eq!(agree, total, "{} rows disagree", failures.len());
}
