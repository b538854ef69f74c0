//! Long scripts do not overflow the stack: removing, inverting, re-adding, diffing and
//! validating a 50,000-block script, and dropping every value built on the way, on a thread
//! with a 256 KiB stack. Chains are walked by loops (flat `next` lists in block specs), never
//! by recursion along `next`. `GOBO_DEEP_BLOCKS=n` runs it with another length (measuring).

use gobo::scratch::project::diff::{diff_atoms, diff_patch};
use gobo::scratch::project::patch::{
    apply_block_edits, edits_to_json, invert, parse_block_edits, PatchOptions,
};
use gobo::scratch::project::validate::{validate, Severity};
use gobo::scratch::project::{load, save, Project};

const N: usize = 50_000;

/// A project whose sprite has one green-flag script of `n` blocks under its hat.
fn long_script(n: usize) -> Vec<u8> {
    let mut blocks = String::from(
        r#""h":{"opcode":"event_whenflagclicked","next":"b0","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0}"#,
    );
    for i in 0..n {
        let next = if i + 1 < n { format!("\"b{}\"", i + 1) } else { "null".into() };
        let parent = if i == 0 { "\"h\"".to_string() } else { format!("\"b{}\"", i - 1) };
        blocks.push_str(&format!(
            r#","b{i}":{{"opcode":"motion_changexby","next":{next},"parent":{parent},"inputs":{{"DX":[1,[4,"1"]]}},"fields":{{}},"shadow":false,"topLevel":false}}"#
        ));
    }
    let costume = r#"[{"name":"c","assetId":"a","md5ext":"a.svg","dataFormat":"svg","rotationCenterX":0,"rotationCenterY":0}]"#;
    format!(
        r#"{{"targets":[{{"isStage":true,"name":"Stage","variables":{{}},"lists":{{}},"broadcasts":{{}},"blocks":{{}},"comments":{{}},"currentCostume":0,"costumes":{costume},"sounds":[],"volume":100,"layerOrder":0}},{{"isStage":false,"name":"S","variables":{{}},"lists":{{}},"broadcasts":{{}},"blocks":{{{blocks}}},"comments":{{}},"currentCostume":0,"costumes":{costume},"sounds":[],"volume":100,"layerOrder":1,"visible":true,"x":0,"y":0,"size":100,"direction":90,"draggable":false,"rotationStyle":"all around"}}],"monitors":[],"extensions":[],"meta":{{"semver":"3.0.0"}}}}"#
    )
    .into_bytes()
}

fn errors(p: &Project) -> usize {
    validate(p).iter().filter(|f| f.severity == Severity::Error).count()
}

fn run() {
    let n = std::env::var("GOBO_DEEP_BLOCKS").ok().and_then(|v| v.parse().ok()).unwrap_or(N);
    let bytes = long_script(n);
    let a = load(&bytes).expect("the long script loads");
    assert_eq!(a.targets[1].blocks.len(), n + 1);
    assert_eq!(errors(&a), 0);
    let opts = PatchOptions::default();
    // Remove the whole stack under the hat, and invert it: the inverse adds the 50,000 blocks
    // back (one spec with a flat `next` list), through JSON like a user's patch.
    let remove = parse_block_edits(
        br#"[{"op":"remove","sprite_id":"S","block_id":"b0","mode":"stack"}]"#,
        10,
    )
    .unwrap();
    let mut b = a.clone();
    apply_block_edits(&mut b, &remove, &opts).unwrap();
    assert_eq!(b.targets[1].blocks.len(), 1);
    let inverse = invert(&a, &remove, &opts).unwrap();
    let text = edits_to_json(&inverse).to_bytes();
    drop(inverse);
    let inverse = parse_block_edits(&text, 10).unwrap();
    let mut back = b.clone();
    apply_block_edits(&mut back, &inverse, &opts).unwrap();
    assert!(save(&back) == save(&a), "the inverse restores the bytes");
    // Inverting the inverse (a 50,000-block add) gives the remove back.
    let again = invert(&b, &inverse, &opts).unwrap();
    let mut there = back.clone();
    apply_block_edits(&mut there, &again, &opts).unwrap();
    assert!(save(&there) == save(&b));
    // Diffs both ways reproduce the other side.
    for (from, to) in [(&a, &b), (&b, &a)] {
        let diff = diff_patch(from, to).unwrap();
        let text = edits_to_json(&diff).to_bytes();
        let diff = parse_block_edits(&text, 100).unwrap();
        let mut x = from.clone();
        apply_block_edits(&mut x, &diff, &opts).unwrap();
        assert!(diff_atoms(&x, to).is_empty());
    }
    assert_eq!(errors(&back), 0);
}

#[test]
fn a_50000_block_script_on_a_256k_stack() {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(run)
        .unwrap()
        .join()
        .expect("no stack overflow, every step as expected");
}
