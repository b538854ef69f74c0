//! Every row of `../shared/xlogo/oracle-public.jsonl` (verdicts of the reference emulator)
//! evaluated by gobo and compared field by field. Skips cleanly without `../shared`.

mod xlogo_common;

#[path = "../../tests-support/reference.rs"]
mod reference;

use gobo::xlogo::{code_json, load, print, python, Emulator, Verdict, World};
use serde_json::Value;

/// Fields every executed oracle row carries and gobo must reproduce exactly.
const FIELDS: [&str; 10] = [
    "error_type",
    "success",
    "final_turtle",
    "trace_xy",
    "drawn_lines",
    "pen_color",
    "n_actions",
    "block_cnt",
    "n_blocks",
    "result",
];

#[test]
fn oracle_rows_agree() {
    let Some(dir) = xlogo_common::shared_dir() else {
        reference::skipped(
            "xlogo_oracle::oracle_rows_agree",
            "../shared/xlogo not found (set GOBO_SHARED)",
        );
        return;
    };
    reference::ran("xlogo_oracle::oracle_rows_agree");
    let tasks = xlogo_common::task_rows(&dir);
    let rows = xlogo_common::read_jsonl(&dir.join("oracle-public.jsonl"));
    let mut emulator = Emulator::new();
    let (mut exact, mut documented) = (0usize, 0usize);
    let mut failures = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let id = format!("{}/{} (line {})", row["task_id"], row["mutation"], i + 1);
        let task_row = &tasks[row["task_id"].as_str().expect("task_id")];
        let task = load::task_from_value(&task_row["task"])
            .unwrap_or_else(|e| panic!("{id}: task does not load: {e}"));
        let world = World::new(&task);
        let expected_type = row["error_type"].as_str().expect("error_type");
        let verdict = match code_json::parse_value(&row["code"]) {
            Ok(program) => {
                let outcome = emulator.evaluate(&world, &program);
                Verdict::from_run(&world, &outcome, &emulator)
            }
            Err(e) => Verdict::code_error(&e),
        };
        let got = verdict.to_json();
        let got_type = got["error_type"].as_str().unwrap_or("");
        if expected_type == "EXCEPTION_IndexError" {
            // The reference throws on a start_by longer than the program; gobo reports a
            // constraint failure (docs/xlogo.md, "Where gobo differs").
            let cons_failed = got["result"]["cons_ok"] == Value::Bool(false);
            if cons_failed && matches!(got_type, "CONSTRAINT_FAIL" | "GOAL_AND_CONSTRAINT_FAIL") {
                documented += 1;
            } else {
                failures.push(format!("{id}: reference threw IndexError, gobo says {got_type}"));
            }
            continue;
        }
        let mut diffs = Vec::new();
        for field in FIELDS {
            if let Some(want) = row.get(field) {
                if got.get(field) != Some(want) {
                    diffs.push(format!(
                        "{field}: want {want}, got {}",
                        got.get(field).unwrap_or(&Value::Null)
                    ));
                }
            }
        }
        if diffs.is_empty() {
            exact += 1;
        } else {
            failures.push(format!("{id}: {}", diffs.join("; ")));
        }
    }
    println!(
        "xlogo oracle: {} / {} rows agree ({exact} exactly, {documented} where the reference throws IndexError and gobo reports a constraint failure)",
        exact + documented,
        rows.len()
    );
    for f in failures.iter().take(40) {
        println!("DISAGREE {f}");
    }
    assert!(failures.is_empty(), "{} of {} oracle rows disagree", failures.len(), rows.len());
}

/// The Python rendering of every valid oracle program parses to the same AST, and gobo's
/// printer reproduces the oracle's `code_py` byte for byte.
#[test]
fn oracle_code_py_round_trips() {
    let Some(dir) = xlogo_common::shared_dir() else {
        reference::skipped(
            "xlogo_oracle::oracle_code_py_round_trips",
            "../shared/xlogo not found (set GOBO_SHARED)",
        );
        return;
    };
    reference::ran("xlogo_oracle::oracle_code_py_round_trips");
    let rows = xlogo_common::read_jsonl(&dir.join("oracle-public.jsonl"));
    let mut checked = 0;
    let mut failures = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let Some(code_py) = row["code_py"].as_str() else { continue };
        let id = format!("{}/{} (line {})", row["task_id"], row["mutation"], i + 1);
        let from_json = code_json::parse_value(&row["code"]);
        let from_py = python::parse(code_py.as_bytes());
        match (&from_json, &from_py) {
            (Ok(a), Ok(b)) => {
                if a != b {
                    failures.push(format!("{id}: ASTs differ"));
                }
                if print::to_python(a) != code_py {
                    failures.push(format!("{id}: printer gives {:?}", print::to_python(a)));
                }
                checked += 1;
            }
            // Both forms rejected as invalid code (range(0), setpc('orange'), ...).
            (Err(_), Err(gobo::xlogo::CodeError::Invalid { .. })) => checked += 1,
            // The JSON carries what the Python form cannot (an extra key) or vice versa.
            (Err(_), Ok(_)) if row["error_type"] == "INVALID_CODE" => checked += 1,
            (Err(_), Err(e)) if code_py.contains("<UNKNOWN") => {
                assert!(matches!(e, gobo::xlogo::CodeError::Format { .. }), "{id}: {e}");
                checked += 1;
            }
            (a, b) => failures.push(format!("{id}: json {a:?} vs python {b:?}")),
        }
    }
    println!("xlogo code_py: {checked} programs checked");
    for f in failures.iter().take(20) {
        println!("MISMATCH {f}");
    }
    assert!(failures.is_empty(), "{} code_py mismatches", failures.len());
}
