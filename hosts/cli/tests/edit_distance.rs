//! `gobo edit-distance` end to end on an example project: two patches with the same effect
//! (other ids for the new blocks, a literal written differently) score the same, the gold
//! scores 0, the unchanged base scores |E_gold|, and exit codes 0 (computed) and 2 (bad input).

use std::path::PathBuf;
use std::process::{Command, Output};

fn gobo(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_gobo")).args(args).output().unwrap();
    assert!(out.status.code().is_some(), "gobo was killed");
    out
}

fn repo(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path).display().to_string()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobo-edit-distance-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The base with `patch` applied, written as `name` (an `.sb3`, as a model's fix would be).
fn patched(base: &str, patch: &str, name: &str) -> String {
    let patch_file = tmp(&format!("{name}.patch.json"));
    std::fs::write(&patch_file, patch).unwrap();
    let out = tmp(name);
    let o = gobo(&[
        "patch",
        "apply",
        base,
        &patch_file.display().to_string(),
        "--no-assets",
        "-o",
        &out.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    out.display().to_string()
}

fn distance(base: &str, gold: &str, candidate: &str) -> serde_json::Value {
    let o = gobo(&[
        "edit-distance",
        "--base",
        base,
        "--gold",
        gold,
        "--candidate",
        candidate,
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(text.lines().count(), 1, "one compact line: {text}");
    serde_json::from_str(&text).unwrap()
}

fn fix(forever: &str, say: &str, literal: &str) -> String {
    format!(
        r#"[{{"op":"add","sprite_id":"Cat","block":{{"opcode":"control_forever","id":"{forever}"}},"link":{{"wrap":["Cab13","Cab13"]}}}},
           {{"op":"add","sprite_id":"Cat","block":{{"opcode":"looks_say","id":"{say}","inputs":{{"MESSAGE":{literal}}}}},"link":{{"after":"Cab17"}}}},
           {{"op":"modify","sprite_id":"Cat","block_id":"Cab15","path":"inputs/DY","value":{literal}}}]"#
    )
}

#[test]
fn same_effect_same_score_gold_zero_base_all() {
    let base = repo("examples/scratch/keys/project.json");
    let gold = patched(&base, &fix("f1", "s1", "\"5\""), "gold.sb3");
    // Other new ids, the literal as a number: the same effect.
    let same = patched(&base, &fix("x7", "y8", "5.0"), "same.sb3");
    let d = distance(&base, &gold, &same);
    assert_eq!(d["d_edit"], 0, "{d}");
    assert_eq!(d["matched"].as_array().map(Vec::len), Some(4), "{d}");
    assert_eq!(distance(&base, &gold, &gold)["d_edit"], 0);
    // Doing nothing misses every gold edit.
    let none = distance(&base, &gold, &base);
    assert_eq!(
        (none["d_edit"].as_u64(), none["missing"].as_array().map(Vec::len)),
        (Some(4), Some(4))
    );
    // Another literal: for the say and for DY, one gold atom missing and one extra.
    let other = patched(&base, &fix("f1", "s1", "6"), "other.sb3");
    let d = distance(&base, &gold, &other);
    assert_eq!(
        (d["d_edit"].as_u64(), d["extra"].as_array().map(Vec::len)),
        (Some(4), Some(2)),
        "{d}"
    );
    // Human text names the distance and each differing atom.
    let o = gobo(&["edit-distance", "--base", &base, "--gold", &gold, "--candidate", &other]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.starts_with("d_edit 4 (4 gold edits, 2 matched, 2 missing, 2 extra)"), "{text}");
    assert!(text.contains("+ modify Cat Cab15 inputs/DY 6"), "{text}");
}

#[test]
fn bad_input_exits_2() {
    let base = repo("examples/scratch/keys/project.json");
    let missing = tmp("nothing-here.sb3").display().to_string();
    let o = gobo(&["edit-distance", "--base", &base, "--gold", &missing, "--candidate", &base]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("gobo: ") && err.contains("nothing-here.sb3"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let junk = tmp("junk.json");
    std::fs::write(&junk, b"{\"targets\": 3}").unwrap();
    let junk = junk.display().to_string();
    assert_eq!(
        gobo(&["edit-distance", "--base", &junk, "--gold", &base, "--candidate", &base])
            .status
            .code(),
        Some(2)
    );
    // A missing flag is a usage error.
    assert_eq!(gobo(&["edit-distance", "--base", &base, "--gold", &base]).status.code(), Some(2));
}
