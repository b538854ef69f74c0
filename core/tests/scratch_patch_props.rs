//! A property test of block-edit patches over random edits: a deterministic generator
//! (xorshift, fixed seeds) draws edits over the blocks and declarations a project has (every
//! edit kind, link and remove mode; many are valid, some are not). Each edit either applies
//! with no validation error, is undone exactly by its inverse (the same `project.json` bytes,
//! the inverse going through JSON like a user's patch) and is reproduced by the project diff;
//! or fails with a typed error and changes nothing. Hostile patches are
//! `scratch_patch_hostile.rs`.

use gobo::scratch::project::diff::{diff_atoms, diff_patch};
use gobo::scratch::project::patch::{
    apply_block_edits, edits_to_json, invert, parse_block_edits, PatchOptions,
};
use gobo::scratch::project::validate::{validate, Severity};
use gobo::scratch::project::{load, save, Project};
use serde_json::{json, Value};

/// xorshift64*: a fixed sequence, so a failure names a reproducible round.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

fn project(path: &str) -> Project {
    let path = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    load(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn errors(p: &Project) -> usize {
    validate(p).iter().filter(|f| f.severity == Severity::Error).count()
}

/// One random edit on `p`'s sprite `t`, over its existing blocks and names.
fn random_edit(rng: &mut Rng, p: &Project, t: usize, round: usize) -> Value {
    let target = &p.targets[t];
    let sprite = if target.is_stage { "Stage".to_string() } else { target.name.clone() };
    let ids: Vec<String> =
        target.blocks.iter().filter(|(_, b)| !b.shadow).map(|(_, b)| b.id.clone()).collect();
    let id = if ids.is_empty() { "none".to_string() } else { rng.pick(&ids).clone() };
    let other = if ids.is_empty() { "none".to_string() } else { rng.pick(&ids).clone() };
    let inputs: Vec<String> = target
        .blocks
        .index_of(&id)
        .and_then(|i| target.blocks.get(i))
        .map(|b| b.inputs.iter().map(|i| i.name.clone()).collect())
        .unwrap_or_default();
    let input = if inputs.is_empty() { "STEPS".to_string() } else { rng.pick(&inputs).clone() };
    let stack = *rng.pick(&["looks_say", "motion_movesteps", "looks_show", "control_wait"]);
    let new = format!("n{round}");
    let number = json!((rng.next() % 2001) as f64 / 4.0 - 250.0);
    match rng.below(12) {
        0 | 1 => json!({"op": "modify", "sprite_id": sprite, "block_id": id,
                        "path": format!("inputs/{input}"), "value": number}),
        2 => json!({"op": "add", "sprite_id": sprite, "block": {"opcode": stack, "id": new},
                    "link": {"after": id}}),
        3 => json!({"op": "add", "sprite_id": sprite, "block": {"opcode": stack, "id": new},
                    "link": {"before": id}}),
        4 => json!({"op": "add", "sprite_id": sprite,
                    "block": {"opcode": "operator_add", "id": new, "inputs": {"NUM1": 1, "NUM2": number}},
                    "link": {"input": [id, input]}}),
        5 => json!({"op": "add", "sprite_id": sprite,
                    "block": {"opcode": *rng.pick(&["control_forever", "control_repeat"]), "id": new},
                    "link": {"wrap": [id, other]}}),
        6 => json!({"op": "add", "sprite_id": sprite, "block": {"opcode": "event_whenflagclicked",
                    "id": new, "next": {"opcode": stack}}, "link": {"top": {}}}),
        7 => json!({"op": "remove", "sprite_id": sprite, "block_id": id,
                    "mode": *rng.pick(&["heal", "stack", "unwrap"])}),
        8 => json!({"op": "modify", "sprite_id": sprite, "block_id": id,
                    "path": format!("inputs/{input}/block"), "value": other}),
        9 => json!({"op": "add", "sprite_id": sprite,
                    "variable": {"name": format!("v{round}"), "value": number}}),
        10 => {
            let vars: Vec<String> = target.variables.iter().map(|v| v.name.clone()).collect();
            match vars.first() {
                Some(v) => json!({"op": "modify", "sprite_id": sprite, "variable": {"name": v},
                                  "path": "name", "value": format!("{v}{round}")}),
                None => {
                    json!({"op": "add", "sprite_id": sprite, "list": {"name": format!("l{round}")}})
                }
            }
        }
        _ => json!({"op": "add", "sprite_id": "Stage", "broadcast": {"name": format!("m{round}")}}),
    }
}

fn run_property(path: &str, seed: u64, rounds: usize) {
    let mut rng = Rng(seed);
    let mut p = project(path);
    assert_eq!(errors(&p), 0, "{path}: the fixture itself has validation errors");
    let opts = PatchOptions::default();
    let (mut applied, mut refused) = (0, 0);
    for round in 0..rounds {
        let t = rng.below(p.targets.len());
        let edit = random_edit(&mut rng, &p, t, round);
        let what = format!("{path}, round {round}: {edit}");
        let edits = parse_block_edits(edit.to_string().as_bytes(), 10).expect(&what);
        let before = save(&p);
        let mut next = p.clone();
        match apply_block_edits(&mut next, &edits, &opts) {
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty(), "{what}");
                assert_eq!(save(&next), before, "{what}: a refused edit changed the project ({e})");
            }
            Ok(_) => {
                applied += 1;
                assert_eq!(errors(&next), 0, "{what}: validation errors after apply");
                let inverse = invert(&p, &edits, &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
                let text = edits_to_json(&inverse).to_bytes();
                let inverse = parse_block_edits(&text, usize::MAX).expect(&what);
                let mut back = next.clone();
                apply_block_edits(&mut back, &inverse, &opts)
                    .unwrap_or_else(|e| panic!("{what}: inverse: {e}"));
                assert!(save(&back) == before, "{what}: the inverse does not restore the bytes");
                // The diff of the two versions takes one to the other's scripts.
                let diff = diff_patch(&p, &next).unwrap_or_else(|e| panic!("{what}: diff: {e}"));
                let mut again = p.clone();
                apply_block_edits(&mut again, &diff, &opts)
                    .unwrap_or_else(|e| panic!("{what}: diff apply: {e}"));
                assert!(diff_atoms(&again, &next).is_empty(), "{what}: the diff misses atoms");
                p = next;
            }
        }
    }
    // The generator is not vacuous: both outcomes occur, and most edits apply.
    assert!(applied * 2 > rounds && refused > 0, "{path}: {applied} applied, {refused} refused");
}

#[test]
fn random_edits_apply_validate_invert_and_diff_or_fail_cleanly() {
    run_property("tests/fixtures/edit/base.json", 0x9E37_79B9_7F4A_7C15, 300);
    run_property("tests/fixtures/scratch/kitchen_sink.json", 5, 150);
    for (k, name) in ["guess", "keys", "quiz", "timing"].iter().enumerate() {
        run_property(&format!("../examples/scratch/{name}/project.json"), 17 + k as u64, 150);
    }
}
