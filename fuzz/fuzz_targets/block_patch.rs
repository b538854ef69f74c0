//! Block-edit patches from arbitrary bytes: parsing, applying to a small project and inverting
//! never panic; a failed patch leaves the project unchanged, and an applied one is undone
//! exactly by its inverse (the same `project.json` bytes).
#![no_main]

use gobo::scratch::project::patch::{
    apply_block_edits, edits_to_json, invert, parse_block_edits, PatchOptions,
};
use gobo::scratch::project::{load, save};
use libfuzzer_sys::fuzz_target;

const BASE: &[u8] = include_bytes!("../../core/tests/fixtures/edit/base.json");

fuzz_target!(|data: &[u8]| {
    let Ok(edits) = parse_block_edits(data, 64) else {
        return;
    };
    let base = load(BASE).expect("the fixture loads");
    let before = save(&base);
    let opts = PatchOptions { max_edits: 64, ..PatchOptions::default() };
    let mut project = base.clone();
    if apply_block_edits(&mut project, &edits, &opts).is_err() {
        assert!(save(&project) == before, "a failed patch changed the project");
        return;
    }
    let inverse = invert(&base, &edits, &opts).expect("an applicable patch inverts");
    // The inverse goes through its JSON text, as `gobo patch invert` prints it.
    let text = edits_to_json(&inverse).to_bytes();
    let inverse = parse_block_edits(&text, usize::MAX).expect("the inverse parses");
    let unlimited = PatchOptions { max_edits: usize::MAX, ..opts };
    apply_block_edits(&mut project, &inverse, &unlimited).expect("the inverse applies");
    assert!(save(&project) == before, "apply then invert changed the project");
});
