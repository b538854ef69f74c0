//! Project diffs (`gobo::scratch::project::diff`): on each example's broken and fixed
//! versions, the diff patch turns one into the other (scripts, variables, lists, broadcasts)
//! in both directions, and the atoms give an edit distance of 0 to themselves and >0 to none.

use gobo::scratch::project::diff::{diff_atoms, diff_patch, edit_distance};
use gobo::scratch::project::patch::{
    apply_block_edits, edits_to_json, parse_block_edits, PatchOptions,
};
use gobo::scratch::project::{load, save, Project};

fn example(name: &str, file: &str) -> Project {
    let path = format!("{}/../examples/scratch/{name}/{file}", env!("CARGO_MANIFEST_DIR"));
    load(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// What a diff patch must reproduce: each target's blocks, variables, lists and broadcasts.
fn scripts(p: &Project) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_slice(&save(p)).unwrap();
    v["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            serde_json::json!([t["name"], t["blocks"], t["variables"], t["lists"], t["broadcasts"]])
        })
        .collect()
}

fn check(from: &Project, to: &Project, what: &str) {
    let edits = diff_patch(from, to).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(!edits.is_empty(), "{what}: the versions differ");
    // Through JSON, as `gobo patch apply` would read it.
    let text = edits_to_json(&edits).to_bytes();
    let edits = parse_block_edits(&text, 100_000).unwrap();
    let mut p = from.clone();
    apply_block_edits(&mut p, &edits, &PatchOptions::default())
        .unwrap_or_else(|e| panic!("{what}: {e}: {}", String::from_utf8_lossy(&text)));
    assert_eq!(scripts(&p), scripts(to), "{what}: {}", String::from_utf8_lossy(&text));
}

#[test]
fn diff_patch_turns_broken_into_fixed_and_back() {
    for name in ["keys", "quiz", "timing"] {
        let (broken, fixed) = (example(name, "broken.json"), example(name, "project.json"));
        check(&broken, &fixed, &format!("{name}: broken -> fixed"));
        check(&fixed, &broken, &format!("{name}: fixed -> broken"));
        assert!(diff_patch(&fixed, &fixed).unwrap().is_empty(), "{name}: no change, no edits");
    }
}

#[test]
fn edit_distance_of_atoms() {
    for name in ["keys", "quiz", "timing"] {
        let (broken, fixed) = (example(name, "broken.json"), example(name, "project.json"));
        let gold = diff_atoms(&broken, &fixed);
        assert!(!gold.is_empty(), "{name}");
        assert!(diff_atoms(&broken, &broken).is_empty(), "{name}");
        let same = edit_distance(&gold, &gold);
        assert_eq!((same.d_edit, same.matched.len()), (0, gold.len()), "{name}");
        // Doing nothing misses every gold atom.
        let nothing = edit_distance(&gold, &[]);
        assert_eq!((nothing.d_edit, nothing.missing.len()), (gold.len(), gold.len()), "{name}");
    }
}
