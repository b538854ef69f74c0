//! `gobo patch apply ... -o OUT.sb3` archives load in scratch-vm 5.0.300 (`../shared/refvm`):
//! each fixture gets a new green-flag script, is repacked, and scratch-vm must load the
//! archive with the same targets and the same non-shadow blocks (by id) that gobo reads back
//! from it. Needs node and refvm's node_modules (`.ci/run` installs them into an overlay of
//! `../shared`); skips visibly without them (tests-support/reference.rs).

#[path = "../../../tests-support/reference.rs"]
mod reference;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use gobo::scratch::project::{load_with, LoadOptions};

const NAME: &str = "repack_loads_in_scratch_vm";

/// A script the repacked project gains (on the stage, so every fixture can take it).
const PATCH: &str = r##"[{"op":"add","sprite_id":"#0","block":{"opcode":"event_whenflagclicked","id":"gobo-repack-hat",
  "next":{"opcode":"control_wait","id":"gobo-repack-wait","inputs":{"DURATION":2}}},"link":{"top":{}}}]"##;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Each target's name and its non-shadow block ids.
type Shape = BTreeMap<String, BTreeSet<String>>;

/// What gobo reads back from an archive it wrote.
fn gobo_shape(sb3: &Path) -> Shape {
    let files = gobo_host::sb3::load_path(sb3).unwrap_or_else(|e| panic!("{}: {e}", sb3.display()));
    let project = load_with(&files.project_json, &LoadOptions { repair_references: true })
        .unwrap_or_else(|e| panic!("{}: {e}", sb3.display()));
    project
        .targets
        .iter()
        .map(|t| {
            let ids = t.blocks.iter().filter(|(_, b)| !b.shadow).map(|(_, b)| b.id.clone());
            (t.name.clone(), ids.collect())
        })
        .collect()
}

fn refvm_shape(line: &serde_json::Value) -> Shape {
    let targets = line["targets"].as_array().expect("targets");
    targets
        .iter()
        .map(|t| {
            let name = t["name"].as_str().unwrap_or_default().to_string();
            let ids = t["blocks"].as_array().expect("blocks").iter();
            (name, ids.filter_map(|b| b.as_str().map(String::from)).collect())
        })
        .collect()
}

#[test]
fn repacked_archives_load_in_scratch_vm() {
    let Some(shared) = reference::shared() else {
        return reference::skipped(NAME, "../shared not found (set GOBO_SHARED)");
    };
    let refvm = shared.join("refvm");
    if !refvm.join("node_modules/scratch-vm/package.json").is_file() {
        return reference::skipped(
            NAME,
            "refvm's node_modules are not installed (npm ci in refvm)",
        );
    }
    if !Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success()) {
        return reference::skipped(NAME, "node is not installed");
    }
    let mut inputs: Vec<PathBuf> = ["broadcast_special_chars", "monitors", "draggable", "default"]
        .iter()
        .map(|n| refvm.join(format!("fixtures/other/{n}.sb3")))
        .collect();
    inputs.push(refvm.join("bench/io_demo"));
    inputs.push(refvm.join("bench/semantics_demo"));
    let dir = std::env::temp_dir().join(format!("gobo-repack-refvm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let patch = dir.join("patch.json");
    std::fs::write(&patch, PATCH).unwrap();
    let mut outs = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let out = dir.join(format!("{i}.sb3"));
        let o = Command::new(env!("CARGO_BIN_EXE_gobo"))
            .args(["patch", "apply"])
            .args([input, &patch])
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}: {}{}",
            input.display(),
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        outs.push(out);
    }
    let node = Command::new("node")
        .arg(repo().join("hosts/cli/tests/refvm/load.js"))
        .args(&outs)
        .env("REFVM", &refvm)
        .output()
        .expect("node");
    assert!(node.status.success(), "{}", String::from_utf8_lossy(&node.stderr));
    let text = String::from_utf8_lossy(&node.stdout);
    let lines: Vec<serde_json::Value> =
        text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(lines.len(), outs.len(), "{text}");
    for ((input, out), line) in inputs.iter().zip(&outs).zip(&lines) {
        assert_eq!(line["ok"], true, "{}: scratch-vm rejects the repack: {line}", input.display());
        let (ours, theirs) = (gobo_shape(out), refvm_shape(line));
        assert_eq!(ours, theirs, "{}: targets and blocks differ", input.display());
        let stage = ours.values().find(|ids| ids.contains("gobo-repack-hat"));
        assert!(stage.is_some_and(|ids| ids.contains("gobo-repack-wait")), "{}", input.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
    reference::ran(NAME);
}
