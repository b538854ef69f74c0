//! Deep nesting along inputs (C-blocks in C-slots, reporters in inputs, both) is bounded by
//! `MAX_NESTING` (docs/patches.md, "Nesting limit"): a target nested exactly that deep
//! loads, validates, observes, compiles, saves, diffs, inverts, is patched (block edits and
//! JSON Patch) and gives Bug Forge sites on a thread with a 256 KiB stack in a debug build;
//! one level more, or 100,000, is refused at load with a typed error naming the block;
//! patches (block edits, JSON Patch) and composite actions that would nest deeper are
//! refused; and the JSON parser refuses a million nested `[` without overflowing.

use gobo::scratch::agent::{observe, scratchblocks, Ctx, IndexMode, ObserveMode, Session};
use gobo::scratch::compile::compile;
use gobo::scratch::forge::{sites::sites, Operator};
use gobo::scratch::project::diff::{diff_atoms, diff_patch, project_edit_distance};
use gobo::scratch::project::json_patch::{self, Profile, Stage};
use gobo::scratch::project::patch::{
    apply_block_edits, edits_to_json, invert, parse_block_edits, BlockEdit, BlockSpec, Child,
    EditKind, ErrorCode, InputSpec, Link, PatchOptions, TargetRef,
};
use gobo::scratch::project::validate::{validate, Severity};
use gobo::scratch::project::{load, save, LoadError, Project, MAX_NESTING};
use serde_json::json;

const STACK: usize = 256 * 1024;

/// A sprite `S` with one script: a flag hat, `repeats` nested `repeat` blocks (each in the
/// previous one's C-slot), then, when `reporters > 0`, a `say` in the innermost slot whose
/// message is `reporters` nested `+` blocks (each in the previous one's `NUM1`). The deepest
/// block sits `max(repeats - 1, repeats + reporters)` inputs deep.
fn nested(repeats: usize, reporters: usize) -> Vec<u8> {
    let mut b = String::from(
        r#""h":{"opcode":"event_whenflagclicked","next":"c0","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0}"#,
    );
    let first = if repeats > 0 { "c0" } else { "s" };
    b = b.replace("\"c0\"", &format!("\"{first}\""));
    for i in 0..repeats {
        let parent = if i == 0 { "h".to_string() } else { format!("c{}", i - 1) };
        let inner = if i + 1 < repeats {
            format!(r#","SUBSTACK":[2,"c{}"]"#, i + 1)
        } else if reporters > 0 {
            r#","SUBSTACK":[2,"s"]"#.to_string()
        } else {
            String::new()
        };
        b.push_str(&format!(
            r#","c{i}":{{"opcode":"control_repeat","next":null,"parent":"{parent}","inputs":{{"TIMES":[1,[6,"2"]]{inner}}},"fields":{{}},"shadow":false,"topLevel":false}}"#
        ));
    }
    if reporters > 0 {
        let parent = if repeats > 0 { format!("c{}", repeats - 1) } else { "h".into() };
        b.push_str(&format!(
            r#","s":{{"opcode":"looks_say","next":null,"parent":"{parent}","inputs":{{"MESSAGE":[3,"r0",[10,"hi"]]}},"fields":{{}},"shadow":false,"topLevel":false}}"#
        ));
        for j in 0..reporters {
            let parent = if j == 0 { "s".to_string() } else { format!("r{}", j - 1) };
            let num1 = if j + 1 < reporters {
                format!(r#"[3,"r{}",[4,"1"]]"#, j + 1)
            } else {
                r#"[1,[4,"1"]]"#.to_string()
            };
            b.push_str(&format!(
                r#","r{j}":{{"opcode":"operator_add","next":null,"parent":"{parent}","inputs":{{"NUM1":{num1},"NUM2":[1,[4,"1"]]}},"fields":{{}},"shadow":false,"topLevel":false}}"#
            ));
        }
    }
    let costume = r#"[{"name":"c","assetId":"a","md5ext":"a.svg","dataFormat":"svg","rotationCenterX":0,"rotationCenterY":0}]"#;
    format!(
        r#"{{"targets":[{{"isStage":true,"name":"Stage","variables":{{}},"lists":{{}},"broadcasts":{{}},"blocks":{{}},"comments":{{}},"currentCostume":0,"costumes":{costume},"sounds":[],"volume":100,"layerOrder":0}},{{"isStage":false,"name":"S","variables":{{}},"lists":{{}},"broadcasts":{{}},"blocks":{{{b}}},"comments":{{}},"currentCostume":0,"costumes":{costume},"sounds":[],"volume":100,"layerOrder":1,"visible":true,"x":0,"y":0,"size":100,"direction":90,"draggable":false,"rotationStyle":"all around"}}],"monitors":[],"extensions":[],"meta":{{"semver":"3.0.0"}}}}"#
    )
    .into_bytes()
}

/// The three shapes at nesting `d`: C-blocks only, reporters only, half of each.
fn shapes(d: usize) -> [(&'static str, Vec<u8>); 3] {
    [
        ("repeats", nested(d + 1, 0)),
        ("reporters", nested(0, d)),
        ("mixed", nested(d / 2, d - d / 2)),
    ]
}

fn on_stack(size: usize, f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new().stack_size(size).spawn(f).unwrap().join().unwrap();
}

fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    on_stack(STACK, f);
}

fn errors(p: &Project) -> usize {
    validate(p).iter().filter(|f| f.severity == Severity::Error).count()
}

/// Every walk over a target nested exactly `MAX_NESTING` deep.
fn walk_everything(name: &str, bytes: &[u8]) {
    let p = load(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(errors(&p), 0, "{name}");
    for mode in [ObserveMode::Compat, ObserveMode::Full] {
        for index in [IndexMode::Index, IndexMode::Id] {
            let o = observe(&p, Some("S"), mode, index).unwrap();
            assert!(o.blocks.len() > MAX_NESTING / 2, "{name}");
        }
    }
    let sb = scratchblocks::render(&Ctx::new(&p, 1));
    assert!(sb.contains("when flag clicked"), "{name}");
    compile(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
    let bytes_again = save(&p);
    assert!(save(&load(&bytes_again).unwrap()) == bytes_again, "{name}: save round trip");
    let mut s = Session::new(p, Default::default()).unwrap();
    assert!(s.act(&json!({"api": "add_block", "args": {"blockType": "motion_movesteps"}})).ok());
    let r = s.act(&json!({"api": "delete_block", "args": {"blockIndex": 2}}));
    assert!(r.ok(), "{name}: {:?}", r.error);
}

/// The patch layer's walks over the same target: bug-forge sites, removing the script and
/// inverting the removal (in memory: a spec this deep is deeper than a patch's JSON may
/// nest), the script re-added from a spec built in code, diffs both ways, the edit
/// distance, and a JSON Patch.
fn patch_everything(name: &str, bytes: &[u8]) {
    let p = load(bytes).unwrap();
    // The Bug Forge walks the script (the hat's `handler.dup` takes its exact spec, as JSON);
    // a spec this deep is deeper than JSON may nest, so that site is left out.
    sites(&p, &Operator::ALL);
    let opts = PatchOptions::default();
    let remove =
        parse_block_edits(br#"[{"op":"remove","sprite_id":"S","block_id":"h","mode":"stack"}]"#, 1)
            .unwrap();
    let mut empty = p.clone();
    apply_block_edits(&mut empty, &remove, &opts).unwrap();
    let inverse = invert(&p, &remove, &opts).unwrap();
    let _ = edits_to_json(&inverse).to_bytes();
    let mut back = empty.clone();
    apply_block_edits(&mut back, &inverse, &opts).unwrap();
    assert!(save(&back) == save(&p), "{name}: the inverse restores the bytes");
    // The removed script as an `add` (ids kept, positions dropped): the same blocks again.
    let EditKind::Add { block, .. } = &inverse[0].kind else { panic!("{name}: {inverse:?}") };
    let mut spec = block.clone();
    clear_positions(&mut spec);
    let add = BlockEdit {
        target: TargetRef::Name("S".into()),
        kind: EditKind::Add { block: spec, link: Link::Top(None) },
    };
    let mut again = empty.clone();
    apply_block_edits(&mut again, &[add], &opts).unwrap();
    assert!(diff_atoms(&again, &p).is_empty(), "{name}: the re-added script");
    for (from, to) in [(&p, &empty), (&empty, &p)] {
        let diff = diff_patch(from, to).unwrap();
        let mut x = from.clone();
        apply_block_edits(&mut x, &diff, &opts).unwrap();
        assert!(diff_atoms(&x, to).is_empty(), "{name}");
    }
    let d = project_edit_distance(&p, &empty, &p);
    assert!(d.d_edit > 0 && d.d_edit == d.missing.len(), "{name}: {}", d.d_edit);
    let rename = br#"[{"op":"replace","path":"/targets/1/name","value":"T"}]"#;
    let out = json_patch::apply_text(bytes, rename, &Profile::default()).unwrap();
    assert_eq!(load(&out.project_json).unwrap().targets[1].name, "T", "{name}");
}

/// Drops the file positions of a spec and every spec in it (without recursion).
fn clear_positions(spec: &mut BlockSpec) {
    let mut todo = vec![spec];
    while let Some(s) = todo.pop() {
        s.at = None;
        for (_, i) in &mut s.inputs {
            match i {
                InputSpec::Block(b) => todo.push(b),
                InputSpec::Exact { value, shadow, .. } => {
                    for c in [value, shadow].into_iter().flatten() {
                        if let Child::Block(b) = c {
                            todo.push(b);
                        }
                    }
                }
                InputSpec::Literal(_) => {}
            }
        }
        todo.extend(s.next.iter_mut());
    }
}

#[test]
fn nesting_at_the_limit_is_walked_on_a_256k_stack() {
    on_small_stack(|| {
        for (name, bytes) in shapes(MAX_NESTING) {
            walk_everything(name, &bytes);
        }
    });
}

#[test]
fn nesting_at_the_limit_is_patched_on_a_256k_stack() {
    on_small_stack(|| {
        for (name, bytes) in shapes(MAX_NESTING) {
            patch_everything(name, &bytes);
        }
    });
}

#[test]
fn nesting_beyond_the_limit_is_refused_at_load() {
    on_small_stack(|| {
        for d in [MAX_NESTING + 1, 100_000] {
            for (name, bytes) in shapes(d) {
                match load(&bytes) {
                    Err(LoadError::TooDeep { path, id, limit }) => {
                        assert_eq!(limit, MAX_NESTING);
                        assert_eq!(path, "targets[1].blocks", "{name} {d}");
                        assert!(id.starts_with('c') || id.starts_with('r'), "{name} {d}: {id}");
                        let e = LoadError::TooDeep { path, id, limit }.to_string();
                        assert!(e.contains("nested more than 128 inputs deep"), "{e}");
                    }
                    other => panic!("{name} {d}: {other:?}"),
                }
            }
        }
    });
}

#[test]
fn a_million_nested_brackets_are_a_json_error() {
    on_small_stack(|| {
        let deep = "[".repeat(1_000_000);
        assert!(matches!(load(deep.as_bytes()), Err(LoadError::Json { .. })));
        let e = parse_block_edits(deep.as_bytes(), 10).unwrap_err();
        assert_eq!(e.code, ErrorCode::Schema, "{e}");
    });
}

#[test]
fn patches_that_would_nest_deeper_are_refused() {
    on_small_stack(|| {
        let p = load(&nested(0, MAX_NESTING)).unwrap();
        let opts = PatchOptions::default();
        // A reporter into the innermost `+`: one level too deep.
        let last = format!("r{}", MAX_NESTING - 1);
        let add = format!(
            r#"[{{"op":"add","sprite_id":"S","block":{{"opcode":"operator_add"}},"link":{{"input":["{last}","NUM2"]}}}}]"#
        );
        let mut q = p.clone();
        let e = apply_block_edits(&mut q, &parse_block_edits(add.as_bytes(), 1).unwrap(), &opts)
            .unwrap_err();
        assert_eq!((e.code, e.edit), (ErrorCode::TooDeep, Some(0)), "{e}");
        assert!(save(&q) == save(&p), "a refused patch changes nothing");
        // One level less fits.
        let ok = add.replace(&last, &format!("r{}", MAX_NESTING - 2));
        apply_block_edits(&mut q, &parse_block_edits(ok.as_bytes(), 1).unwrap(), &opts).unwrap();
        // A spec built in code deeper than the limit (JSON cannot nest it that deep).
        let mut spec = BlockSpec { opcode: "operator_add".into(), ..BlockSpec::default() };
        for _ in 0..=MAX_NESTING {
            spec = BlockSpec {
                opcode: "operator_add".into(),
                inputs: vec![("NUM1".into(), InputSpec::Block(spec))],
                ..BlockSpec::default()
            };
        }
        let edit = BlockEdit {
            target: TargetRef::Name("S".into()),
            kind: EditKind::Add { block: spec, link: Link::Top(None) },
        };
        let mut q = p.clone();
        let e = apply_block_edits(&mut q, &[edit], &opts).unwrap_err();
        assert_eq!((e.code, e.edit), (ErrorCode::TooDeep, Some(0)), "{e}");
        // A JSON Patch that hangs a reporter under the innermost `+`: the result does not load.
        let deeper = format!(
            r#"[{{"op":"add","path":"/targets/1/blocks/x","value":{{"opcode":"operator_add","next":null,"parent":"{last}","inputs":{{"NUM1":[1,[4,"1"]],"NUM2":[1,[4,"1"]]}},"fields":{{}},"shadow":false,"topLevel":false}}}},
               {{"op":"replace","path":"/targets/1/blocks/{last}/inputs/NUM2","value":[3,"x",[4,"1"]]}}]"#
        );
        let bytes = nested(0, MAX_NESTING);
        let f = json_patch::apply_text(&bytes, deeper.as_bytes(), &Profile::default()).unwrap_err();
        assert_eq!((f.stage, f.code.as_str()), (Stage::Validate, "LOAD"), "{f}");
        assert!(f.message.contains("nested more than 128 inputs deep"), "{f}");
        // The same one level higher loads.
        let fits = deeper.replace(&last, &format!("r{}", MAX_NESTING - 2));
        json_patch::apply_text(&bytes, fits.as_bytes(), &Profile::default()).unwrap();
    });
}

#[test]
fn composite_actions_that_would_nest_deeper_are_refused() {
    on_small_stack(|| {
        let p = load(&nested(0, MAX_NESTING)).unwrap();
        let mut s = Session::new(p, Default::default()).unwrap();
        let r = s.act(&json!({"api": "add_block", "args": {"blockType": "operator_add"}}));
        assert!(r.ok(), "{:?}", r.error);
        let obs = s.peek();
        let new = obs.blocks.iter().rfind(|e| e.top).unwrap().index;
        let at = |id: &str| obs.blocks.iter().find(|e| e.id == id).unwrap().index;
        let (deepest, fits) = (at(&format!("r{}", MAX_NESTING - 1)), at("r0"));
        let connect = |target: u32| {
            json!({"api": "connect_blocks", "args": {"sourceBlockIndex": new, "targetBlockIndex": target,
                "placement": {"kind": "value_into", "inputName": "NUM2"}}})
        };
        let before = save(s.project());
        let r = s.act(&connect(deepest));
        let e = r.error.expect("refused");
        assert!(e.message.contains("nested more than 128 inputs deep"), "{}", e.message);
        assert!(save(s.project()) == before, "a refused action changes nothing");
        assert!(s.act(&connect(fits)).ok());
        assert_eq!(errors(s.project()), 0);
    });
}
