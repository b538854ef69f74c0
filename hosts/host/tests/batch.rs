//! The batch runners: order, resume after a cut-off write, bad lines (which keep their ids),
//! over-long lines, duplicate ids, empty input; the in-memory runner gives the same rows as the
//! file runner, and the in-memory JSON Lines runner the same bytes.

use std::fs;
use std::path::PathBuf;

use gobo_host::batch::{map_lines, map_rows, run_batch, BatchError, BatchOptions};
use serde_json::{json, Value};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobo-batch-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn square(input: &Value) -> Value {
    let n = input["n"].as_i64().unwrap_or(0);
    json!({ "square": n * n })
}

fn opts(jobs: usize) -> BatchOptions {
    BatchOptions { jobs, progress: false, ..BatchOptions::default() }
}

/// Runs a batch and returns its report and the rows it visited, in order.
fn run(
    input: &std::path::Path,
    out: &std::path::Path,
    opts: &BatchOptions,
    eval: impl Fn(&Value) -> Value + Sync,
) -> Result<(gobo_host::batch::BatchReport, Vec<Value>), BatchError> {
    let mut rows = Vec::new();
    let report = run_batch(input, out, opts, eval, |row| rows.push(row.clone()))?;
    Ok((report, rows))
}

fn write_input(dir: &std::path::Path, count: i64) -> PathBuf {
    let lines: Vec<String> =
        (0..count).map(|n| json!({"id": format!("r{n}"), "n": n}).to_string()).collect();
    let path = dir.join("in.jsonl");
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

#[test]
fn rows_come_back_in_input_order_with_ids() {
    let dir = temp_dir("order");
    let input = write_input(&dir, 200);
    let out = dir.join("out.jsonl");
    let (report, rows) = run(&input, &out, &opts(4), square).unwrap();
    assert_eq!((report.ran, report.skipped, report.rows), (200, 0, 200));
    assert_eq!(rows.len(), 200);
    let text = fs::read_to_string(&out).unwrap();
    for (n, line) in text.lines().enumerate() {
        let row: Value = serde_json::from_str(line).unwrap();
        assert_eq!(row["id"], json!(format!("r{n}")));
        assert_eq!(row["square"], json!(n * n));
    }
}

#[test]
fn resume_skips_finished_rows_and_drops_a_cut_off_line() {
    let dir = temp_dir("resume");
    let input = write_input(&dir, 50);
    let full = dir.join("full.jsonl");
    run(&input, &full, &opts(2), square).unwrap();

    // An interrupted run: some rows appended out of order, the last write cut off midway.
    let partial = dir.join("partial.jsonl");
    let text = fs::read_to_string(&full).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = &lines[7][..lines[7].len() / 2];
    fs::write(&partial, format!("{}\n{}\n{}\n{cut}", lines[3], lines[0], lines[12])).unwrap();

    let calls = std::sync::atomic::AtomicUsize::new(0);
    let (report, _) = run(&input, &partial, &opts(2), |v| {
        calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        square(v)
    })
    .unwrap();
    assert_eq!((report.ran, report.skipped), (47, 3));
    assert_eq!(calls.into_inner(), 47);
    assert_eq!(fs::read(&partial).unwrap(), fs::read(&full).unwrap());
}

#[test]
fn a_line_that_is_not_json_gets_an_error_row_keeping_its_id() {
    let dir = temp_dir("badline");
    let input = dir.join("in.jsonl");
    fs::write(&input, "{\"id\":1,\"n\":3}\n{not json\n\n{\"n\":2}\n{\"id\":\"r4\",\"n\":[1,}\n")
        .unwrap();
    let out = dir.join("out.jsonl");
    let (report, rows) = run(&input, &out, &opts(1), square).unwrap();
    assert_eq!(report.rows, 4);
    assert_eq!(rows[0], json!({"id": 1, "square": 9}));
    assert_eq!(rows[1]["id"], Value::Null);
    assert_eq!(rows[1]["line"], json!(2));
    assert!(rows[1]["error"].as_str().unwrap().contains("not valid JSON"));
    assert_eq!(rows[2], json!({"id": null, "square": 4}));
    // The id comes before the fault: the row keeps it.
    assert_eq!(rows[3]["id"], json!("r4"));
    assert_eq!(rows[3]["line"], json!(5));
    assert!(rows[3]["error"].as_str().unwrap().contains("line 5 is not valid JSON"), "{}", rows[3]);
}

#[test]
fn an_over_long_line_gets_an_error_row_keeping_its_id_without_being_parsed() {
    let dir = temp_dir("longline");
    let input = dir.join("in.jsonl");
    let big = "x".repeat(10_000);
    let lines = [
        json!({"id": "a", "n": 2}).to_string(),
        format!("{{\"pad\":\"{big}\",\"id\":\"long\",\"n\":5}}"),
        json!({"id": "c", "n": 3}).to_string(),
    ];
    fs::write(&input, lines.join("\n")).unwrap();
    let out = dir.join("out.jsonl");
    let small = BatchOptions { max_line_bytes: 1000, ..opts(2) };
    let calls = std::sync::atomic::AtomicUsize::new(0);
    let (_, rows) = run(&input, &out, &small, |v| {
        calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        square(v)
    })
    .unwrap();
    assert_eq!(calls.into_inner(), 2, "the long line is not evaluated");
    assert_eq!(rows[0], json!({"id": "a", "square": 4}));
    assert_eq!(rows[1]["id"], json!("long"));
    assert_eq!(rows[1]["line"], json!(2));
    assert!(rows[1]["error"].as_str().unwrap().contains("longer than 1000 bytes"), "{}", rows[1]);
    assert_eq!(rows[2], json!({"id": "c", "square": 9}), "the line after it is read whole");
}

#[test]
fn an_empty_input_is_an_error() {
    let dir = temp_dir("empty");
    let input = dir.join("in.jsonl");
    fs::write(&input, "\n  \n").unwrap();
    let err = run(&input, &dir.join("out.jsonl"), &opts(1), square).unwrap_err();
    assert!(matches!(err, BatchError::Empty { .. }), "{err}");
    assert!(err.to_string().contains("no input lines"), "{err}");
}

#[test]
fn duplicate_ids_are_refused() {
    let dir = temp_dir("dup");
    let input = dir.join("in.jsonl");
    fs::write(&input, "{\"id\":\"a\"}\n{\"id\":\"b\"}\n{\"id\":\"a\"}\n").unwrap();
    let err = run(&input, &dir.join("out.jsonl"), &opts(1), square).unwrap_err();
    assert!(matches!(err, BatchError::DuplicateId { first_line: 1, line: 3, .. }), "{err}");
}

#[test]
fn a_missing_input_is_an_io_error_naming_the_file() {
    let dir = temp_dir("missing");
    let err = run(&dir.join("nope.jsonl"), &dir.join("out.jsonl"), &opts(1), square).unwrap_err();
    assert!(err.to_string().contains("nope.jsonl"), "{err}");
}

#[test]
fn in_memory_rows_equal_the_file_runner_rows_on_any_number_of_threads() {
    let dir = temp_dir("memory");
    let input = write_input(&dir, 1000);
    let out = dir.join("out.jsonl");
    let (_, from_file) = run(&input, &out, &opts(2), square).unwrap();
    let inputs: Vec<Value> = fs::read_to_string(&input)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for jobs in [0, 1, 3] {
        assert_eq!(map_rows(&inputs, jobs, square), from_file, "{jobs} jobs");
    }
    // Rows without an id get `"id": null`; a panic is an error row, and the rest go on.
    let rows = map_rows(&[json!({"n": 3}), json!({"id": 7, "n": -1})], 2, |v| {
        assert!(v["n"].as_i64().unwrap() >= 0, "negative");
        square(v)
    });
    assert_eq!(rows[0], json!({"id": null, "square": 9}));
    assert_eq!(rows[1]["id"], json!(7));
    assert!(rows[1]["error"].as_str().unwrap().contains("panicked"), "{}", rows[1]);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn in_memory_json_lines_equal_the_file_runners_output_bytes() {
    let dir = temp_dir("lines");
    // Good rows (some without an id), a blank line, a line that is not JSON (its id kept), a
    // line too long, and a last line without a newline.
    let mut text = String::new();
    for i in 0..300 {
        text.push_str(&format!("{{\"id\": {i}, \"n\": {}}}\n", i - 7));
    }
    text.push_str("{\"n\": 4}\n\n   \n{\"id\": \"bad\", \"n\": \n");
    text.push_str(&format!("{{\"id\": \"long\", \"pad\": \"{}\"}}\n", "x".repeat(200)));
    text.push_str("{\"id\": \"last\", \"n\": 2}");
    let input = dir.join("in.jsonl");
    fs::write(&input, &text).unwrap();
    let out = dir.join("out.jsonl");
    let opts = BatchOptions { max_line_bytes: 100, ..opts(2) };
    run(&input, &out, &opts, square).unwrap();
    let from_file = fs::read(&out).unwrap();
    assert!(String::from_utf8_lossy(&from_file).contains("longer than 100 bytes"));
    for jobs in [0, 1, 3] {
        let got = map_lines(text.as_bytes(), jobs, 100, square);
        assert_eq!(String::from_utf8(got).unwrap(), String::from_utf8_lossy(&from_file), "{jobs}");
    }
    let _ = fs::remove_dir_all(&dir);
}
