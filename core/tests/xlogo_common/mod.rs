//! Shared helpers for the XLogo tests that read `../shared/xlogo` (skipped when it is absent).

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;

/// `../shared/xlogo` beside the checkout (or `$GOBO_SHARED/xlogo`), if present.
pub fn shared_dir() -> Option<PathBuf> {
    let base = match std::env::var_os("GOBO_SHARED") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    let dir = base.join("xlogo");
    dir.join("oracle-public.jsonl").is_file().then_some(dir)
}

/// Reads a JSON-lines file.
pub fn read_jsonl(path: &std::path::Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

/// Every task row of the four task files, by `task_id`.
pub fn task_rows(dir: &std::path::Path) -> HashMap<String, Value> {
    let mut map = HashMap::new();
    for file in ["real_tasks", "edge_tasks", "aied_syn_tasks", "extra_tasks_not_in_benchmark"] {
        for row in read_jsonl(&dir.join(format!("{file}.jsonl"))) {
            let id = row["task_id"].as_str().expect("task_id").to_string();
            map.insert(id, row);
        }
    }
    map
}
