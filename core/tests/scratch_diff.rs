//! Project diffs (`gobo::scratch::project::diff`): on each example's broken and fixed
//! versions, the diff patch turns one into the other (scripts, variables, lists, broadcasts)
//! in both directions, and the atoms give an edit distance of 0 to themselves and >0 to none.

use gobo::scratch::project::diff::{diff_atoms, diff_patch, edit_distance, project_edit_distance};
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

fn patched(base: &Project, patch: &str) -> Project {
    let edits = parse_block_edits(patch.as_bytes(), 100).unwrap();
    let mut p = base.clone();
    apply_block_edits(&mut p, &edits, &PatchOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    p
}

#[test]
fn patches_with_the_same_effect_score_the_same() {
    let base = example("keys", "project.json");
    // The gold wraps `change x by` in a new `forever` and adds a new `say` after it; the
    // candidate does the same with other ids for the new blocks, and a shadow literal
    // written as a number instead of text.
    let wrap = |f: &str, s: &str, msg: &str| {
        format!(
            r#"[{{"op":"add","sprite_id":"Cat","block":{{"opcode":"control_forever","id":"{f}"}},"link":{{"wrap":["Cab13","Cab13"]}}}},
               {{"op":"add","sprite_id":"Cat","block":{{"opcode":"looks_say","id":"{s}","inputs":{{"MESSAGE":{msg}}}}},"link":{{"after":"Cab17"}}}}]"#
        )
    };
    let gold = patched(&base, &wrap("f1", "s1", "\"5\""));
    let candidate = patched(&base, &wrap("zz", "q9", "5"));
    let atoms = diff_atoms(&base, &gold);
    assert_eq!(atoms.len(), 3, "{atoms:?}");
    assert!(
        atoms.iter().any(|a| a[0] == "move" && a[3] == "+control_forever.next<Cab12"),
        "{atoms:?}"
    );
    let same = project_edit_distance(&base, &gold, &candidate);
    assert_eq!((same.d_edit, same.matched.len()), (0, 3), "{same:?}");
    // The gold scores 0 against itself, the unchanged base |E_gold|.
    assert_eq!(project_edit_distance(&base, &gold, &gold).d_edit, 0);
    assert_eq!(project_edit_distance(&base, &gold, &base).d_edit, 3);
    // One more change is one more atom; a different literal is one missing and one extra.
    let more = patched(
        &candidate,
        r#"{"op":"modify","sprite_id":"Cat","block_id":"Cab15","path":"inputs/DY","value":3}"#,
    );
    assert_eq!(project_edit_distance(&base, &gold, &more).d_edit, 1);
    let other = patched(&base, &wrap("f1", "s1", "6"));
    let d = project_edit_distance(&base, &gold, &other);
    assert_eq!((d.d_edit, d.missing.len(), d.extra.len()), (2, 1, 1), "{d:?}");
}
