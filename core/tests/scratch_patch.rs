//! Block-edit patches (`gobo::scratch::project::patch`): every edit kind and link on a small
//! project with its expected result, apply-then-invert giving the same bytes, each error code,
//! and hostile patches failing with typed errors.

use gobo::scratch::project::patch::{
    self, apply_block_edits, invert, parse_block_edits, ErrorCode, PatchOptions,
};
use gobo::scratch::project::{self, Project};

const BASE: &[u8] = include_bytes!("fixtures/edit/base.json");

fn base() -> Project {
    project::load(BASE).unwrap()
}

/// Applies `patch` to the base project, checks the inverse restores the bytes, returns the
/// patched project.
fn applied(patch: &str) -> Project {
    let edits = parse_block_edits(patch.as_bytes(), 100).unwrap_or_else(|e| panic!("{e}"));
    let mut p = base();
    let opts = PatchOptions::default();
    apply_block_edits(&mut p, &edits, &opts).unwrap_or_else(|e| panic!("{e}"));
    let inv = invert(&base(), &edits, &opts).unwrap_or_else(|e| panic!("invert: {e}"));
    // The inverse goes through JSON like a user's patch.
    let text = patch::edits_to_json(&inv).to_bytes();
    let inv = parse_block_edits(&text, 1000)
        .unwrap_or_else(|e| panic!("inverse reparse: {e}: {}", String::from_utf8_lossy(&text)));
    let mut back = p.clone();
    apply_block_edits(&mut back, &inv, &opts)
        .unwrap_or_else(|e| panic!("inverse apply: {e}: {}", String::from_utf8_lossy(&text)));
    assert_eq!(
        String::from_utf8(project::save(&back)).unwrap(),
        String::from_utf8(project::save(&base())).unwrap(),
        "inverse {}",
        String::from_utf8_lossy(&text)
    );
    p
}

fn err(patch: &str) -> patch::PatchError {
    let edits = match parse_block_edits(patch.as_bytes(), 100) {
        Ok(e) => e,
        Err(e) => return e,
    };
    let mut p = base();
    let e = apply_block_edits(&mut p, &edits, &PatchOptions::default()).unwrap_err();
    assert_eq!(project::save(&p), project::save(&base()), "a failed patch changed the project");
    e
}

fn chain(p: &Project, id: &str) -> Vec<String> {
    let b = &p.targets[1].blocks;
    b.chain(b.index_of(id).unwrap()).into_iter().map(|i| b.id_of(i)).collect()
}

fn block_json(p: &Project, id: &str) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_slice(&project::save(p)).unwrap();
    v["targets"][1]["blocks"][id].clone()
}

#[test]
fn add_after_before_top() {
    let p = applied(
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"looks_nextcostume","id":"n1"},"link":{"after":"a"}}]"#,
    );
    assert_eq!(chain(&p, "h"), ["h", "a", "n1", "c", "e", "g", "sv"]);
    let p = applied(
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"looks_nextcostume","id":"n1"},"link":{"before":"a"}}]"#,
    );
    assert_eq!(chain(&p, "h"), ["h", "n1", "a", "c", "e", "g", "sv"]);
    let p = applied(
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"event_whenkeypressed","id":"k","next":{"opcode":"motion_movesteps","inputs":{"STEPS":5}}},"link":{"top":{"x":10,"y":900}}}]"#,
    );
    let k = block_json(&p, "k");
    assert_eq!(k["fields"]["KEY_OPTION"], serde_json::json!(["space", null]));
    assert_eq!((k["x"].clone(), k["topLevel"].clone()), (10.into(), true.into()));
    let next = k["next"].as_str().unwrap().to_string();
    assert_eq!(block_json(&p, &next)["inputs"]["STEPS"], serde_json::json!([1, [4, 5]]));
}

#[test]
fn add_fills_toolbox_defaults_and_resolves_names() {
    let p = applied(
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"data_changevariableby","id":"cv","fields":{"VARIABLE":"score"}},"link":{"after":"sv"}}]"#,
    );
    let cv = block_json(&p, "cv");
    assert_eq!(cv["fields"]["VARIABLE"], serde_json::json!(["score", "vs"]));
    assert_eq!(cv["inputs"]["VALUE"], serde_json::json!([1, [4, "1"]]));
    let p = applied(
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"motion_goto","id":"go"},"link":{"after":"sv"}}]"#,
    );
    let go = block_json(&p, "go");
    let menu = go["inputs"]["TO"][1].as_str().unwrap().to_string();
    assert_eq!(block_json(&p, &menu)["fields"]["TO"], serde_json::json!(["_random_", null]));
    assert_eq!(block_json(&p, &menu)["shadow"], true);
    let p = applied(
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"event_broadcast","id":"bc","inputs":{"BROADCAST_INPUT":"go"}},"link":{"after":"sv"}}]"#,
    );
    assert_eq!(
        block_json(&p, "bc")["inputs"]["BROADCAST_INPUT"],
        serde_json::json!([1, [11, "go", "bm"]])
    );
}

#[test]
fn add_into_inputs_and_slots() {
    let p = applied(
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"motion_xposition","id":"xp"},"link":{"input":["a","STEPS"]}}]"#,
    );
    assert_eq!(block_json(&p, "a")["inputs"]["STEPS"], serde_json::json!([3, "xp", [4, "10"]]));
    let p = applied(
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"looks_show","id":"s1"},"link":{"input":["c","SUBSTACK"]}}]"#,
    );
    assert_eq!(chain(&p, "s1"), ["s1", "d", "d2"]);
    let p = applied(r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"operator_join","id":"j","inputs":{"STRING1":{"opcode":"motion_xposition","id":"xp"}}},"link":{"after":"zz"}}]"#.replace(r#","link":{"after":"zz"}"#, r#","link":{"top":{}}"#).as_str());
    assert_eq!(
        block_json(&p, "j")["inputs"]["STRING1"],
        serde_json::json!([3, "xp", [10, "apple"]])
    );
}

#[test]
fn add_wrap() {
    let p = applied(
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"control_forever","id":"fv"},"link":{"wrap":["c","sv"]}}]"#,
    );
    assert_eq!(chain(&p, "h"), ["h", "a", "fv"]);
    assert_eq!(block_json(&p, "fv")["inputs"]["SUBSTACK"], serde_json::json!([2, "c"]));
    assert_eq!(chain(&p, "c"), ["c", "e", "g", "sv"]);
    let p = applied(
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"control_repeat","id":"rp","inputs":{"TIMES":3}},"link":{"wrap":["a","a"]}}]"#,
    );
    assert_eq!(chain(&p, "h"), ["h", "rp", "c", "e", "g", "sv"]);
}

#[test]
fn remove_modes() {
    let p = applied(r#"[{"op":"remove","sprite_id":"Cat","block_id":"c"}]"#);
    assert_eq!(chain(&p, "h"), ["h", "a", "e", "g", "sv"]);
    let p = applied(r#"[{"op":"remove","sprite_id":"Cat","block_id":"c","mode":"stack"}]"#);
    assert_eq!(chain(&p, "h"), ["h", "a"]);
    let p = applied(r#"[{"op":"remove","sprite_id":"Cat","block_id":"c","mode":"unwrap"}]"#);
    assert_eq!(chain(&p, "h"), ["h", "a", "d", "d2", "e", "g", "sv"]);
    let p = applied(r#"[{"op":"remove","sprite_id":"Cat","block_id":"r"}]"#);
    assert_eq!(block_json(&p, "e")["inputs"]["MESSAGE"], serde_json::json!([1, [10, "Hello"]]));
    applied(r#"[{"op":"remove","sprite_id":"Cat","block_id":"h"}]"#);
    applied(r#"[{"op":"remove","sprite_id":"Cat","block_id":"l","mode":"stack"}]"#);
    applied(r#"[{"op":"remove","sprite_id":"Cat","block_id":"pv"}]"#);
    applied(r#"[{"op":"remove","sprite_id":"Cat","block_id":"gm"}]"#);
}

#[test]
fn modify_paths() {
    let p = applied(
        r#"[{"op":"modify","sprite_id":"Cat","block_id":"e","path":"opcode","value":"looks_think"}]"#,
    );
    assert_eq!(block_json(&p, "e")["opcode"], "looks_think");
    let p = applied(
        r#"[{"op":"modify","sprite_id":"Cat","block_id":"a","path":"inputs/STEPS","value":25}]"#,
    );
    assert_eq!(block_json(&p, "a")["inputs"]["STEPS"], serde_json::json!([1, [4, 25]]));
    let p = applied(
        r#"[{"op":"modify","sprite_id":"Cat","block_id":"g","path":"inputs/TO","value":"_mouse_"}]"#,
    );
    assert_eq!(block_json(&p, "gm")["fields"]["TO"], serde_json::json!(["_mouse_", null]));
    let p = applied(
        r#"[{"op":"modify","sprite_id":"Cat","block_id":"sv","path":"fields/VARIABLE","value":"score"}]"#,
    );
    assert_eq!(block_json(&p, "sv")["fields"]["VARIABLE"], serde_json::json!(["score", "vs"]));
    let p = applied(
        r#"[{"op":"modify","sprite_id":"Cat","block_id":"a","path":"inputs/STEPS/block","value":"rep"}]"#,
    );
    assert_eq!(block_json(&p, "a")["inputs"]["STEPS"], serde_json::json!([3, "rep", [4, "10"]]));
    let p = applied(
        r#"[{"op":"modify","sprite_id":"Cat","block_id":"e","path":"inputs/MESSAGE/block","value":null}]"#,
    );
    assert_eq!(block_json(&p, "e")["inputs"]["MESSAGE"], serde_json::json!([1, [10, "Hello"]]));
    assert_eq!(block_json(&p, "r")["topLevel"], true);
    applied(
        r#"[{"op":"modify","sprite_id":"Cat","block_id":"g","path":"inputs/TO/shadow","value":{"opcode":"motion_goto_menu","fields":{"TO":"_mouse_"}}}]"#,
    );
    applied(
        r#"[{"op":"modify","sprite_id":"Cat","block_id":"a","path":"inputs/STEPS/shadow","value":[4, "7"]}]"#,
    );
    applied(
        r#"[{"op":"modify","sprite_id":"Cat","block_id":"l","path":"position","value":{"x":1,"y":2}}]"#,
    );
    applied(
        r#"[{"op":"modify","sprite_id":"Cat","block_id":"a","path":"mutation/warp","value":"true"}]"#,
    );
    // Moving a reporter out of one input into another, and back.
    applied(
        r#"[{"op":"modify","sprite_id":"Cat","block_id":"a","path":"inputs/STEPS/block","value":"r"}]"#,
    );
}

#[test]
fn declarations() {
    let p = applied(
        r#"[{"op":"add","sprite_id":"Cat","variable":{"name":"lives","value":3}},
        {"op":"add","sprite_id":"Cat","block":{"opcode":"data_setvariableto","fields":{"VARIABLE":"lives"}},"link":{"after":"sv"}}]"#,
    );
    assert!(p.targets[1].variables.iter().any(|v| v.name == "lives"));
    let p = applied(
        r#"[{"op":"modify","sprite_id":"Stage","variable":{"name":"score"},"path":"name","value":"points"}]"#,
    );
    assert_eq!(
        block_json(&p, "r")["inputs"]["NUM2"],
        serde_json::json!([3, [12, "points", "vs"], [4, "2"]])
    );
    applied(r#"[{"op":"add","sprite_id":"Cat","broadcast":{"name":"win","id":"bw"}}]"#);
    applied(r#"[{"op":"add","sprite_id":"Stage","list":{"name":"todo","value":["a",1]}}]"#);
    applied(
        r#"[{"op":"modify","sprite_id":"Cat","variable":{"id":"vl"},"path":"value","value":"fast"}]"#,
    );
    // Removing a global with a monitor: its users go first; the inverse restores the monitor.
    applied(
        r#"[{"op":"remove","sprite_id":"Cat","block_id":"r"},{"op":"remove","sprite_id":"Cat","block_id":"pv"},{"op":"remove","sprite_id":"Stage","variable":{"name":"score"}}]"#,
    );
}

#[test]
fn records_escape_hatch() {
    let p = applied(
        r#"[{"op":"modify","sprite_id":"Cat","path":"blocks","value":{"l2":{"opcode":"looks_hide","next":null,"parent":"l","inputs":{},"fields":{},"shadow":false,"topLevel":false,"comment":"c1"}}}]"#,
    );
    assert_eq!(block_json(&p, "l2")["comment"], "c1");
}

#[test]
fn errors_name_the_edit_and_the_reason() {
    let cases: &[(&str, ErrorCode, Option<usize>)] = &[
        ("{", ErrorCode::Schema, None),
        (r#"[{"op":"frobnicate","sprite_id":"Cat"}]"#, ErrorCode::Schema, Some(0)),
        (
            r#"[{"op":"remove","sprite_id":"Dog","block_id":"a"}]"#,
            ErrorCode::UnknownTarget,
            Some(0),
        ),
        (
            r#"[{"op":"remove","sprite_id":"Cat","block_id":"zz"}]"#,
            ErrorCode::UnknownBlock,
            Some(0),
        ),
        (
            r#"[{"op":"modify","sprite_id":"Cat","block_id":"a","path":"fields/NOPE","value":1}]"#,
            ErrorCode::UnknownPath,
            Some(0),
        ),
        (
            r#"[{"op":"modify","sprite_id":"Cat","block_id":"a","path":"colour","value":1}]"#,
            ErrorCode::UnknownPath,
            Some(0),
        ),
        (
            r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"motion_fly"},"link":{"top":{}}}]"#,
            ErrorCode::UnknownOpcode,
            Some(0),
        ),
        (
            r#"[{"op":"modify","sprite_id":"Cat","block_id":"c","path":"opcode","value":"control_forever"}]"#,
            ErrorCode::IncompatibleOpcode,
            Some(0),
        ),
        (
            r#"[{"op":"modify","sprite_id":"Cat","block_id":"e","path":"opcode","value":"looks_size"}]"#,
            ErrorCode::IncompatibleOpcode,
            Some(0),
        ),
        (
            r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"motion_xposition"},"link":{"after":"a"}}]"#,
            ErrorCode::BadLink,
            Some(0),
        ),
        (
            r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"looks_show"},"link":{"input":["a","STEPS"]}}]"#,
            ErrorCode::BadLink,
            Some(0),
        ),
        (
            r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"motion_xposition"},"link":{"input":["e","MESSAGE"]}}]"#,
            ErrorCode::BadLink,
            Some(0),
        ),
        (
            r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"looks_show"},"link":{"before":"h"}}]"#,
            ErrorCode::BadLink,
            Some(0),
        ),
        (
            r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"looks_show"},"link":{"wrap":["a","c"]}}]"#,
            ErrorCode::BadLink,
            Some(0),
        ),
        (
            r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"control_forever"},"link":{"after":"a"}}]"#,
            ErrorCode::BadLink,
            Some(0),
        ),
        (
            r#"[{"op":"modify","sprite_id":"Cat","block_id":"r","path":"inputs/NUM1/block","value":"e"}]"#,
            ErrorCode::BadLink,
            Some(0),
        ),
        (
            r#"[{"op":"modify","sprite_id":"Cat","block_id":"l2","path":"inputs/X/block","value":"l"}]"#,
            ErrorCode::UnknownPath,
            Some(0),
        ),
        (
            r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"looks_show","id":"a"},"link":{"top":{}}}]"#,
            ErrorCode::DuplicateId,
            Some(0),
        ),
        (
            r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"data_setvariableto","fields":{"VARIABLE":"nobody"}},"link":{"top":{}}}]"#,
            ErrorCode::UnresolvedReference,
            Some(0),
        ),
        (
            r#"[{"op":"add","sprite_id":"Cat","variable":{"name":"speed"}}]"#,
            ErrorCode::NameTaken,
            Some(0),
        ),
        (
            r#"[{"op":"modify","sprite_id":"Stage","variable":{"name":"score"},"path":"name","value":"Score"},{"op":"add","sprite_id":"Stage","variable":{"name":"Score"}}]"#,
            ErrorCode::NameTaken,
            Some(1),
        ),
        (
            r#"[{"op":"modify","sprite_id":"Cat","variable":{"name":"speed"},"path":"name","value":"speed"},{"op":"add","sprite_id":"Cat","variable":{"name":"v2"}},{"op":"modify","sprite_id":"Cat","variable":{"name":"v2"},"path":"name","value":"speed"}]"#,
            ErrorCode::NameTaken,
            Some(2),
        ),
        (
            r#"[{"op":"add","sprite_id":"Cat","variable":{"name":"score"}},{"op":"add","sprite_id":"Cat","variable":{"name":"score"}}]"#,
            ErrorCode::NameTaken,
            Some(1),
        ),
        (
            r#"[{"op":"remove","sprite_id":"Cat","variable":{"name":"speed"}}]"#,
            ErrorCode::InUse,
            Some(0),
        ),
        (
            r#"[{"op":"modify","sprite_id":"Cat","path":"blocks","value":{"l2":{"opcode":"looks_hide","next":"l","parent":"l","inputs":{},"fields":{},"shadow":false,"topLevel":false}}}]"#,
            ErrorCode::Cycle,
            Some(0),
        ),
        (
            r#"[{"op":"modify","sprite_id":"Cat","path":"blocks","value":{"l2":{"opcode":"looks_hide","next":"qq","parent":"l","inputs":{},"fields":{},"shadow":false,"topLevel":false}}}]"#,
            ErrorCode::UnknownBlock,
            Some(0),
        ),
        (
            r#"[{"op":"remove","sprite_id":"Cat","block_id":"d"},{"op":"modify","sprite_id":"Cat","path":"blocks","value":{"l2":{"opcode":"motion_xposition","next":null,"parent":"l","inputs":{},"fields":{},"shadow":false,"topLevel":false}}}]"#,
            ErrorCode::InvalidResult,
            Some(1),
        ),
    ];
    for (patch, code, edit) in cases {
        let e = err(patch);
        assert_eq!((e.code, e.edit), (*code, *edit), "{patch}: {e}");
    }
}

#[test]
fn cycles_are_refused() {
    let e = err(
        r#"[{"op":"modify","sprite_id":"Cat","block_id":"r","path":"inputs/NUM1/block","value":"r"}]"#,
    );
    assert_eq!(e.code, ErrorCode::Cycle, "{e}");
    let e = err(
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"control_forever"},"link":{"wrap":["e","e"]}},{"op":"modify","sprite_id":"Cat","block_id":"r","path":"inputs/NUM1/block","value":"e"}]"#,
    );
    assert!(matches!(e.code, ErrorCode::Cycle | ErrorCode::BadLink), "{e}");
}

/// Regression: an `add` linked into an input its parent does not declare (`STEPS` of a
/// green-flag hat) used to apply, and then `invert` found no exact inverse. Every patch that
/// applies has an exact inverse, so apply refuses it, naming the edit and the input; so does
/// `invert`, and so does moving a block into such an input.
#[test]
fn links_into_undeclared_inputs_are_refused() {
    let cases = [
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"motion_xposition"},"link":{"input":["h","STEPS"]}}]"#,
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"looks_show"},"link":{"input":["h","SUBSTACK"]}}]"#,
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"motion_xposition"},"link":{"input":["a","NOPE"]}}]"#,
        r#"[{"op":"modify","sprite_id":"Cat","block_id":"h","path":"inputs/STEPS/block","value":"rep"}]"#,
    ];
    for patch in cases {
        let e = err(patch);
        assert_eq!((e.code, e.edit), (ErrorCode::UnknownPath, Some(0)), "{patch}: {e}");
        assert!(e.to_string().contains("has no input"), "{patch}: {e}");
        let edits = parse_block_edits(patch.as_bytes(), 10).unwrap();
        let inv = invert(&base(), &edits, &PatchOptions::default()).unwrap_err();
        assert_eq!(inv.code, ErrorCode::UnknownPath, "{patch}: invert: {inv}");
    }
    // The declared inputs still take blocks, and invert exactly.
    applied(
        r#"[{"op":"add","sprite_id":"Cat","block":{"opcode":"motion_xposition","id":"x1"},"link":{"input":["a","STEPS"]}},
            {"op":"modify","sprite_id":"Cat","block_id":"f","path":"inputs/SUBSTACK/block","value":"l"}]"#,
    );
}

/// A sprite variable may shadow a global of the same name (a state Scratch files hold); renaming
/// the global away from it and back, or removing and re-adding it, inverts exactly.
#[test]
fn shadowing_declarations_invert_exactly() {
    applied(r#"[{"op":"add","sprite_id":"Cat","variable":{"name":"score","id":"vc"}}]"#);
    applied(
        r#"[{"op":"add","sprite_id":"Cat","variable":{"name":"score","id":"vc"}},
            {"op":"modify","sprite_id":"Stage","variable":{"id":"vs"},"path":"name","value":"points"},
            {"op":"modify","sprite_id":"Stage","variable":{"id":"vs"},"path":"name","value":"score"}]"#,
    );
}
