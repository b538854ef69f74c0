//! Composite sessions (docs/composite.md): one test per action, placement kind and
//! ScratchWorld quirk, each on a small project written here. The expected outcomes follow
//! ScratchWorld's server (`scratch_api.py`), its page scripts (`connection_utils.js`,
//! `add_block.js`, `set_block_field.js`) and the scratch-blocks connection rules they call.
//! After every action the project must still validate without errors.

use gobo::scratch::agent::{
    ActResult, Code, Feedback, IndexMode, ObserveMode, Session, SessionConfig,
};
use gobo::scratch::project::validate::{has_errors, validate};
use gobo::scratch::project::{self, Project};
use serde_json::{json, Value};

/// A block object for a project's `blocks` map.
fn blk(
    opcode: &str,
    next: Option<&str>,
    parent: Option<&str>,
    inputs: Value,
    fields: Value,
) -> Value {
    let mut b = json!({"opcode": opcode, "next": next, "parent": parent, "inputs": inputs, "fields": fields,
        "shadow": false, "topLevel": parent.is_none()});
    if parent.is_none() {
        b["x"] = json!(0);
        b["y"] = json!(0);
    }
    b
}

fn costume(name: &str) -> Value {
    json!({"name": name, "assetId": name, "md5ext": format!("{name}.svg"), "dataFormat": "svg"})
}

/// A project: the stage (with `stage` merged in) and sprites `(name, blocks, extra)`. (The
/// JSON maps are written with sorted keys, so scripts run in block-id order.)
fn project(stage: Value, sprites: Vec<(&str, Value, Value)>) -> Project {
    let mut st = json!({"isStage": true, "name": "Stage", "variables": {}, "lists": {}, "broadcasts": {},
        "blocks": {}, "costumes": [costume("backdrop1"), costume("night")], "sounds": []});
    merge(&mut st, stage);
    let mut targets = vec![st];
    for (name, blocks, extra) in sprites {
        let mut t = json!({"isStage": false, "name": name, "variables": {}, "lists": {}, "broadcasts": {},
            "blocks": blocks, "costumes": [costume("c1"), costume("c2")],
            "sounds": [{"name": "pop", "assetId": "a1b2", "md5ext": "a1b2.wav", "dataFormat": "wav"}]});
        merge(&mut t, extra);
        targets.push(t);
    }
    let text =
        json!({"targets": targets, "monitors": [], "extensions": [], "meta": {"semver": "3.0.0"}})
            .to_string();
    project::load(text.as_bytes()).expect("fixture loads")
}

fn merge(into: &mut Value, from: Value) {
    if let (Value::Object(a), Value::Object(b)) = (into, from) {
        for (k, v) in b {
            a.insert(k, v);
        }
    }
}

fn session(p: Project) -> Session {
    Session::new(p, SessionConfig::default()).expect("session")
}

fn act(s: &mut Session, api: &str, args: Value) -> ActResult {
    let r = s.act(&json!({"api": api, "args": args}));
    let findings: Vec<String> = validate(s.project()).iter().map(|f| f.to_string()).collect();
    assert!(!has_errors(&validate(s.project())), "invalid after {api}: {findings:?}");
    r
}

fn ok(s: &mut Session, api: &str, args: Value) -> Value {
    let r = act(s, api, args);
    assert!(r.ok(), "{api} failed: {:?}", r.error);
    r.data.unwrap()
}

fn fails(s: &mut Session, api: &str, args: Value, code: Code) -> String {
    let r = act(s, api, args);
    assert_eq!(r.code(), Some(code), "{api}: {:?}", r.error);
    r.error.unwrap().message
}

/// The pseudocode of the editing target.
fn code(s: &Session) -> String {
    s.peek().pseudocode
}

/// The opcodes of the script starting at block `id`, following `next`.
fn chain(s: &Session, id: &str) -> Vec<String> {
    let blocks = &s.project().targets[s.editing()].blocks;
    let mut out = Vec::new();
    let mut at = blocks.index_of(id);
    while let Some(i) = at {
        let b = blocks.get(i).unwrap();
        out.push(b.opcode.clone());
        at = b.next;
    }
    out
}

/// The ids of the editing target's scripts, in order.
fn scripts(s: &Session) -> Vec<String> {
    s.peek().blocks.iter().filter(|e| e.top).map(|e| e.id.clone()).collect()
}

/// A sprite `Cat` with: flag hat `h` → move `m` → say `sy` → wait `w`, and a loose stack
/// turn `t1` → turn `t2`, and a forever `f` holding `ch` (change x), and a repeat `r`.
fn stacks() -> Project {
    let num = |v: &str| json!([1, [4, v]]);
    let blocks = json!({
        "h": blk("event_whenflagclicked", Some("m"), None, json!({}), json!({})),
        "m": blk("motion_movesteps", Some("sy"), Some("h"), json!({"STEPS": num("10")}), json!({})),
        "sy": blk("looks_say", Some("w"), Some("m"), json!({"MESSAGE": [1, [10, "hi"]]}), json!({})),
        "w": blk("control_wait", None, Some("sy"), json!({"DURATION": [1, [5, "1"]]}), json!({})),
        "t1": blk("motion_turnright", Some("t2"), None, json!({"DEGREES": num("15")}), json!({})),
        "t2": blk("motion_turnleft", None, Some("t1"), json!({"DEGREES": num("15")}), json!({})),
        "f": blk("control_forever", None, None, json!({"SUBSTACK": [2, "ch"]}), json!({})),
        "ch": blk("motion_changexby", None, Some("f"), json!({"DX": num("10")}), json!({})),
        "r": blk("control_repeat", None, None, json!({"TIMES": [1, [6, "10"]]}), json!({}))
    });
    project(json!({}), vec![("Cat", blocks, json!({})), ("Dog", json!({}), json!({}))])
}

/// The index of block `id` in the current observation.
fn ix(s: &Session, id: &str) -> u32 {
    s.peek().blocks.iter().find(|e| e.id == id).unwrap_or_else(|| panic!("{id} not indexed")).index
}

fn connect(s: &mut Session, src: &str, tgt: &str, placement: Value) -> ActResult {
    let (a, b) = (ix(s, src), ix(s, tgt));
    act(
        s,
        "connect_blocks",
        json!({"sourceBlockIndex": a, "targetBlockIndex": b, "placement": placement}),
    )
}

// ---------------------------------------------------------------- select_sprite / select_stage

#[test]
fn select_sprite_matches_names_without_case() {
    let mut s = session(stacks());
    assert_eq!(s.peek().target, "Cat");
    let d = ok(&mut s, "select_sprite", json!({"name": "  dog "}));
    assert_eq!(d, json!({"selected": "Dog", "targetId": "target-2"}));
    assert_eq!(s.peek().target, "Dog");
    let m = fails(&mut s, "select_sprite", json!({"name": "Bird"}), Code::NotFound);
    assert_eq!(m, "Sprite not found: Bird");
    // The stage is not a sprite.
    fails(&mut s, "select_sprite", json!({"name": "Stage"}), Code::NotFound);
    let m = fails(&mut s, "select_sprite", json!({}), Code::InvalidArg);
    assert_eq!(m, "'name' is required");
}

#[test]
fn select_sprite_argument_quirks() {
    let mut s = session(stacks());
    // A number has no .strip() in Python: the server fails.
    let r = act(&mut s, "select_sprite", json!({"name": 5}));
    assert_eq!(r.code(), Some(Code::RuntimeError));
    assert_eq!(
        r.error.as_ref().unwrap().details,
        Some(json!({"api": "select_sprite", "error": "'int' object has no attribute 'strip'"}))
    );
    // A quote breaks the page script the name is pasted into.
    fails(&mut s, "select_sprite", json!({"name": "Bob's"}), Code::JavascriptError);
    // A backslash escape is read as JavaScript reads it.
    assert_eq!(ok(&mut s, "select_sprite", json!({"name": "D\\u006fg"}))["selected"], "Dog");
    let mut s2 = session(stacks());
    let d = ok(&mut s2, "select_sprite", json!({"name": "\\x44og"}));
    assert_eq!(d["selected"], "Dog");
}

#[test]
fn select_stage_and_broadcast_clean_up() {
    // "used" is named by a block, "spare" by none: selecting a target reloads the workspace,
    // and scratch-vm deletes the unused message (it is already gone once the session opens).
    let blocks = json!({"b": blk("event_broadcast", None, None, json!({"BROADCAST_INPUT": [1, [11, "used", "m1"]]}), json!({}))});
    let p = project(
        json!({"broadcasts": {"m1": "used", "m2": "spare"}}),
        vec![("Cat", blocks, json!({}))],
    );
    let mut s = session(p);
    let names: Vec<&str> =
        s.project().targets[0].broadcasts.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["used"]);
    let d = ok(&mut s, "select_stage", json!({}));
    assert_eq!(d, json!({"selected": "Stage", "targetId": "target-0"}));
    assert!(s.peek().is_stage);
}

// ---------------------------------------------------------------- add_variable / add_list

#[test]
fn add_variable_creates_or_finds() {
    let mut s = session(project(
        json!({"variables": {"g1": ["score", 0]}}),
        vec![("Cat", json!({}), json!({}))],
    ));
    let d = ok(&mut s, "add_variable", json!({"name": "speed", "scope": "sprite"}));
    let id = d["created"]["id"].as_str().unwrap().to_string();
    assert_eq!(
        d["created"],
        json!({"name": "speed", "id": id, "scope": "sprite", "created": true})
    );
    assert!(s.project().targets[1].variables.iter().any(|v| v.id == id && v.name == "speed"));
    // The same name again: found, not created.
    let d = ok(&mut s, "add_variable", json!({"name": "speed", "scope": "sprite"}));
    assert_eq!(d["created"]["created"], false);
    assert_eq!(d["created"]["id"], id.as_str());
    // A sprite-scope request finds the stage's variable of that name (and still says "sprite").
    let d = ok(&mut s, "add_variable", json!({"name": "score", "scope": "sprite"}));
    assert_eq!(
        d["created"],
        json!({"name": "score", "id": "g1", "scope": "sprite", "created": false})
    );
    // Scope all goes to the stage.
    let d = ok(&mut s, "add_variable", json!({"name": "level", "scope": "all"}));
    assert!(s.project().targets[0].variables.iter().any(|v| v.name == "level"));
    assert_eq!(d["created"]["scope"], "all");
    assert!(s.peek().text.contains("name: level, scope: all"));
}

#[test]
fn add_variable_argument_errors() {
    let mut s = session(stacks());
    assert_eq!(
        fails(&mut s, "add_variable", json!({"name": "x", "scope": "global"}), Code::InvalidArg),
        "'scope' must be 'sprite' or 'all'"
    );
    assert_eq!(
        fails(&mut s, "add_variable", json!({"name": "   ", "scope": "all"}), Code::InvalidArg),
        "'name' is required"
    );
    // Python's strip keeps U+FEFF, JavaScript's trim removes it.
    assert_eq!(
        fails(
            &mut s,
            "add_variable",
            json!({"name": "\u{feff}", "scope": "all"}),
            Code::InvalidName
        ),
        "Invalid name"
    );
    let d = ok(&mut s, "add_list", json!({"name": "items", "scope": "sprite"}));
    assert_eq!(d["created"]["created"], true);
    assert!(s.project().targets[1].lists.iter().any(|l| l.name == "items"));
    assert!(s.peek().text.contains("name: items, scope: sprite"));
}

// ---------------------------------------------------------------- add_block

#[test]
fn add_block_uses_toolbox_defaults_and_goes_last() {
    let mut s = session(stacks());
    let before = scripts(&s);
    let d = ok(&mut s, "add_block", json!({"blockType": "motion_movesteps"}));
    assert_eq!(d["connected"], false);
    let id = d["blockId"].as_str().unwrap();
    let after = scripts(&s);
    assert_eq!(after.last().map(String::as_str), Some(id));
    assert_eq!(&after[..before.len()], &before[..]);
    assert!(code(&s).ends_with(&format!(
        "#{} [top] motion_movesteps\n- input STEPS: 10 (math_number)\n",
        ix(&s, id)
    )));
    let texts = [
        ("looks_sayforsecs", "- input MESSAGE: \"Hello!\" (text)\n- input SECS: 2 (math_number)"),
        ("looks_switchcostumeto", "- input COSTUME: c2 (looks_costume)"),
        ("sound_play", "- input SOUND_MENU: pop (sound_sounds_menu)"),
        ("looks_switchbackdropto", "- input BACKDROP: night (looks_backdrops)"),
        ("motion_goto", "- input TO: _random_ (motion_goto_menu)"),
        ("motion_pointtowards", "- input TOWARDS: _mouse_ (motion_pointtowards_menu)"),
        (
            "control_create_clone_of",
            "- input CLONE_OPTION: _myself_ (control_create_clone_of_menu)",
        ),
        ("operator_add", "- input NUM1:  (math_number)\n- input NUM2:  (math_number)"),
        ("operator_join", "- input STRING1: \"apple \" (text)"),
        ("control_wait", "- input DURATION: 1 (math_positive_number)"),
        ("motion_pointindirection", "- input DIRECTION: 90 (math_angle)"),
        ("sensing_touchingcolor", "- input COLOR: #34de20 (colour_picker)"),
        ("sensing_of", "- field PROPERTY: \"backdrop #\""),
        ("control_stop", "- field STOP_OPTION: \"all\""),
        ("looks_seteffectto", "- field EFFECT: \"COLOR\""),
    ];
    for (opcode, text) in texts {
        ok(&mut s, "add_block", json!({"blockType": opcode}));
        assert!(code(&s).contains(text), "{opcode}: {text:?} not in\n{}", code(&s));
    }
}

#[test]
fn add_block_broadcast_menus_select_message1() {
    let mut s = session(stacks());
    ok(&mut s, "add_block", json!({"blockType": "event_broadcast"}));
    let stage = &s.project().targets[0];
    assert_eq!(stage.broadcasts.len(), 1);
    assert_eq!(stage.broadcasts[0].name, "message1");
    assert!(code(&s).contains("- input BROADCAST_INPUT: message1 (event_broadcast_menu)"));
    // An existing "Message1" is reused (Blockly finds variable names without case).
    let blocks = json!({"b": blk("event_whenbroadcastreceived", None, None, json!({}), json!({"BROADCAST_OPTION": ["Message1", "mm"]}))});
    let mut s = session(project(
        json!({"broadcasts": {"mm": "Message1"}}),
        vec![("Cat", blocks, json!({}))],
    ));
    ok(&mut s, "add_block", json!({"blockType": "event_whenbroadcastreceived"}));
    assert_eq!(s.project().targets[0].broadcasts.len(), 1);
    assert!(code(&s).ends_with("- field BROADCAST_OPTION: \"Message1\" {choices: {\"broadcastoptionOptions\":[\"New message\",\"Message1\"]}}\n"));
}

#[test]
fn add_block_outside_the_toolbox_creates_nothing() {
    let mut s = session(stacks());
    let n = s.project().targets[1].blocks.len();
    assert_eq!(
        ok(&mut s, "add_block", json!({"blockType": "pen_penDown"}))["blockId"],
        Value::Null
    );
    // The stage's toolbox has no motion blocks.
    ok(&mut s, "select_stage", json!({}));
    assert_eq!(
        ok(&mut s, "add_block", json!({"blockType": "motion_movesteps"}))["blockId"],
        Value::Null
    );
    assert_eq!(s.project().targets[1].blocks.len(), n);
    assert!(s.project().targets[0].blocks.is_empty());
    // But it offers "when stage clicked", and its clone menu starts at the first sprite.
    assert!(ok(&mut s, "add_block", json!({"blockType": "event_whenstageclicked"}))["blockId"]
        .is_string());
    ok(&mut s, "add_block", json!({"blockType": "control_create_clone_of"}));
    let full = Session::new(
        s.project().clone(),
        SessionConfig { mode: ObserveMode::Full, ..SessionConfig::default() },
    )
    .unwrap();
    let _ = full;
    assert!(
        code(&s).contains("- input CLONE_OPTION: Cat (control_create_clone_of_menu)"),
        "{}",
        code(&s)
    );
    assert_eq!(
        fails(&mut s, "add_block", json!({"blockType": " "}), Code::InvalidArg),
        "'blockType' is required"
    );
}

#[test]
fn add_block_variable_blocks() {
    // No variables: the data category offers no set block, and the reporter has nothing to name.
    let mut s = session(stacks());
    assert_eq!(
        ok(&mut s, "add_block", json!({"blockType": "data_setvariableto"}))["blockId"],
        Value::Null
    );
    assert_eq!(
        fails(&mut s, "add_block", json!({"blockType": "data_variable"}), Code::NotFound),
        "No variable found: any variable"
    );
    // With variables: the named one, else the first in workspace order (the stage's first).
    let p = project(
        json!({"variables": {"s1": ["zeta", 0]}, "lists": {"l1": ["bag", []], "l2": ["apples", []]}}),
        vec![("Cat", json!({}), json!({"variables": {"c1": ["alpha", 0]}}))],
    );
    let mut s = session(p);
    ok(
        &mut s,
        "add_block",
        json!({"blockType": "data_setvariableto", "creation": {"variableName": "alpha"}}),
    );
    assert!(code(&s).contains("- field VARIABLE: \"alpha\""));
    ok(
        &mut s,
        "add_block",
        json!({"blockType": "data_changevariableby", "creation": {"variableName": "nope"}}),
    );
    assert!(code(&s).ends_with("- field VARIABLE: \"zeta\" {choices: {\"variableOptions\":[\"alpha\",\"zeta\",\"Rename variable\",\"Delete the \\\"zeta\\\" variable\"]}}\n- input VALUE: 1 (math_number)\n"));
    ok(
        &mut s,
        "add_block",
        json!({"blockType": "data_variable", "creation": {"variableName": "alpha"}}),
    );
    assert!(code(&s).ends_with("[top] data_variable\n- field VARIABLE: \"alpha\" {choices: {\"variables\":[\"alpha\",\"zeta\"]}}\n"));
    // List blocks bind the named list, except "delete all" and "length", which keep the
    // category's first list by name.
    ok(
        &mut s,
        "add_block",
        json!({"blockType": "data_addtolist", "creation": {"listName": "bag"}}),
    );
    assert!(code(&s).contains("- field LIST: \"bag\""));
    ok(
        &mut s,
        "add_block",
        json!({"blockType": "data_deletealloflist", "creation": {"listName": "bag"}}),
    );
    assert!(code(&s).ends_with("[top] data_deletealloflist\n- field LIST: \"apples\" {choices: {\"listOptions\":[\"apples\",\"bag\",\"Rename list\",\"Delete the \\\"apples\\\" list\"]}}\n"));
}

#[test]
fn add_block_first_variable_can_be_a_message() {
    // The stage has a message and no variables: the workspace lists messages first, so the
    // "first variable" is a message. The set block keeps its template's variable; the
    // reporter cannot be built.
    let blocks = json!({"b": blk("event_whenbroadcastreceived", None, None, json!({}), json!({"BROADCAST_OPTION": ["go", "m1"]}))});
    let p = project(
        json!({"broadcasts": {"m1": "go"}}),
        vec![("Cat", blocks, json!({"variables": {"v1": ["zed", 0], "v2": ["amy", 0]}}))],
    );
    let mut s = session(p);
    ok(&mut s, "add_block", json!({"blockType": "data_setvariableto"}));
    assert!(code(&s).contains("- field VARIABLE: \"amy\""), "{}", code(&s));
    fails(&mut s, "add_block", json!({"blockType": "data_variable"}), Code::XmlError);
    // Named explicitly, it works.
    ok(
        &mut s,
        "add_block",
        json!({"blockType": "data_variable", "creation": {"variableName": "zed"}}),
    );
}

#[test]
fn add_block_custom_block_call() {
    let proto = json!({"opcode": "procedures_prototype", "next": null, "parent": "def", "inputs": {}, "fields": {}, "shadow": true, "topLevel": false,
        "mutation": {"tagName": "mutation", "children": [], "proccode": "jump %s", "argumentids": "[\"a1\"]", "argumentnames": "[\"h\"]", "argumentdefaults": "[\"\"]", "warp": "false"}});
    let blocks = json!({"def": blk("procedures_definition", None, None, json!({"custom_block": [1, "proto"]}), json!({})), "proto": proto});
    let mut s = Session::new(
        project(json!({}), vec![("Cat", blocks, json!({}))]),
        SessionConfig { mode: ObserveMode::Full, ..SessionConfig::default() },
    )
    .unwrap();
    let d = ok(&mut s, "add_block", json!({"blockType": "procedures_call"}));
    assert!(d["blockId"].is_string());
    assert!(code(&s).contains("[top] procedures_call\n- proccode: \"jump %s\""), "{}", code(&s));
}

#[test]
fn delete_a_definition_in_use_is_refused() {
    // scratch-blocks refuses to delete a definition while calls remain; gobo's check after
    // every action refuses it too (the calls would name no procedure: UNKNOWN_PROCEDURE).
    let proto = json!({"opcode": "procedures_prototype", "next": null, "parent": "def", "inputs": {}, "fields": {}, "shadow": true, "topLevel": false,
        "mutation": {"tagName": "mutation", "children": [], "proccode": "jump", "argumentids": "[]", "argumentnames": "[]", "argumentdefaults": "[]", "warp": "false"}});
    let blocks = json!({"def": blk("procedures_definition", None, None, json!({"custom_block": [1, "proto"]}), json!({})), "proto": proto});
    let mut s = Session::new(
        project(json!({}), vec![("Cat", blocks, json!({}))]),
        SessionConfig { mode: ObserveMode::Full, ..SessionConfig::default() },
    )
    .unwrap();
    let call = ok(&mut s, "add_block", json!({"blockType": "procedures_call"}))["blockId"].clone();
    let before = (project::save(s.project()), s.step());
    let def = ix(&s, "def");
    let message = fails(&mut s, "delete_block", json!({"blockIndex": def}), Code::InvalidResult);
    let path = format!("/targets/1/blocks/{}/mutation/proccode", call.as_str().unwrap());
    assert!(message.starts_with("delete_block would leave the project invalid"), "{message}");
    assert!(message.contains(&format!("UNKNOWN_PROCEDURE at {path}")), "{message}");
    assert_eq!((project::save(s.project()), s.step()), before, "nothing changed, no step used");
    // Without the call the definition goes.
    let c = ix(&s, call.as_str().unwrap());
    ok(&mut s, "delete_block", json!({"blockIndex": c}));
    let def = ix(&s, "def");
    ok(&mut s, "delete_block", json!({"blockIndex": def}));
    assert_eq!(code(&s), "");
}

// ---------------------------------------------------------------- connect_blocks: stack_after

#[test]
fn stack_after_inserts_a_single_block() {
    let mut s = session(stacks());
    // turn right (t1) goes after move (m): move → turn right → say; turn left stays alone... no:
    // t1 is cut out with everything below it (t2).
    let r = connect(&mut s, "t1", "m", json!({"kind": "stack_after"}));
    assert_eq!(
        r.data.unwrap(),
        json!({"connected": true, "kind": "stack_after", "sourceId": "t1", "targetId": "m"})
    );
    // t1 → t2 is a two-block source and m had a follower: the follower (say) comes right
    // after t1 and t2 goes to the end of say's stack.
    assert_eq!(
        chain(&s, "h"),
        [
            "event_whenflagclicked",
            "motion_movesteps",
            "motion_turnright",
            "looks_say",
            "control_wait",
            "motion_turnleft"
        ]
    );
    assert!(!scripts(&s).contains(&"t1".to_string()));
}

#[test]
fn stack_after_at_the_end_and_mismatches() {
    let mut s = session(stacks());
    // t2 alone after w (the end): nothing follows.
    connect(&mut s, "t2", "w", json!({"kind": "stack_after"}));
    assert_eq!(
        chain(&s, "h"),
        [
            "event_whenflagclicked",
            "motion_movesteps",
            "looks_say",
            "control_wait",
            "motion_turnleft"
        ]
    );
    // A forever has no next connection: nothing goes after it.
    let m = connect(&mut s, "t1", "f", json!({"kind": "stack_after"}));
    assert_eq!(m.code(), Some(Code::ConnectionMismatch));
    assert_eq!(m.error.unwrap().message, "Target needs nextConnection");
    // A hat cannot go below anything.
    let r = connect(&mut s, "h", "t1", json!({"kind": "stack_after"}));
    assert_eq!(r.error.unwrap().message, "Source needs previousConnection (a stack-capable block)");
}

#[test]
fn stack_after_orphans_follow_or_are_bumped() {
    // Source m2 → f2 after t1 (→ t2): t2 follows m2, and m2's old follower f2, the orphan,
    // goes to the end of t2's stack.
    let num = json!([1, [4, "1"]]);
    let blocks = json!({
        "t1": blk("motion_turnright", Some("t2"), None, json!({"DEGREES": num}), json!({})),
        "t2": blk("motion_turnleft", None, Some("t1"), json!({"DEGREES": num}), json!({})),
        "m2": blk("motion_movesteps", Some("f2"), None, json!({"STEPS": num}), json!({})),
        "f2": blk("control_forever", None, Some("m2"), json!({}), json!({}))
    });
    let mut s = session(project(json!({}), vec![("Cat", blocks.clone(), json!({}))]));
    assert!(connect(&mut s, "m2", "t1", json!({"kind": "stack_after"})).ok());
    assert_eq!(
        chain(&s, "t1"),
        ["motion_turnright", "motion_movesteps", "motion_turnleft", "control_forever"]
    );
    // Now the target's follower is a forever (a cap): the orphan cannot hang below it and is
    // bumped out as the last script.
    let blocks = json!({
        "t1": blk("motion_turnright", Some("f3"), None, json!({"DEGREES": num}), json!({})),
        "f3": blk("control_forever", None, Some("t1"), json!({}), json!({})),
        "m2": blk("motion_movesteps", Some("s2"), None, json!({"STEPS": num}), json!({})),
        "s2": blk("motion_ifonedgebounce", None, Some("m2"), json!({}), json!({}))
    });
    let mut s = session(project(json!({}), vec![("Cat", blocks, json!({}))]));
    assert!(connect(&mut s, "m2", "t1", json!({"kind": "stack_after"})).ok());
    assert_eq!(chain(&s, "t1"), ["motion_turnright", "motion_movesteps", "control_forever"]);
    assert_eq!(scripts(&s), ["t1", "s2"]);
}

#[test]
fn stack_after_self_and_cycles() {
    let mut s = session(stacks());
    // The source is the target's next block: ScratchWorld cuts it out, puts it back, then
    // tries to join it to itself.
    let r = connect(&mut s, "m", "h", json!({"kind": "stack_after"}));
    assert_eq!(r.code(), Some(Code::Error));
    assert_eq!(r.error.unwrap().message, "Attempted to connect a block to itself.");
    assert_eq!(
        chain(&s, "h"),
        ["event_whenflagclicked", "motion_movesteps", "looks_say", "control_wait"]
    );
    // Target below the source in its stack.
    let r = connect(&mut s, "m", "w", json!({"kind": "stack_after"}));
    assert_eq!(
        (r.code(), r.error.unwrap().message.as_str()),
        (Some(Code::InvalidArg), "Target is within source stack")
    );
    // Target inside the source's C-slot: ScratchWorld's check misses it (the editor would
    // make a cycle); gobo refuses and changes nothing.
    let before = s.project().clone();
    let r = connect(&mut s, "f", "ch", json!({"kind": "stack_after"}));
    assert_eq!(
        (r.code(), r.error.unwrap().message.as_str()),
        (Some(Code::InvalidArg), "Target is within source stack")
    );
    assert_eq!(s.project(), &before);
    let r = connect(&mut s, "r", "ch", json!({"kind": "stack_after"}));
    assert!(r.ok());
    let before = s.project().clone();
    let r = connect(&mut s, "f", "r", json!({"kind": "stack_after"}));
    assert_eq!(
        (r.code(), r.error.unwrap().message.as_str()),
        (Some(Code::InvalidArg), "Target is within source stack")
    );
    assert_eq!(s.project(), &before);
}

// ---------------------------------------------------------------- stack_before

#[test]
fn stack_before_linear_and_orphan() {
    let mut s = session(stacks());
    // t1 → t2 before say: move → t1 → say → wait → t2 (t2 is the orphan handed to the end).
    let r = connect(&mut s, "t1", "sy", json!({"kind": "stack_before"}));
    assert_eq!(
        r.data.unwrap(),
        json!({"connected": true, "kind": "stack_before", "sourceId": "t1", "targetId": "sy"})
    );
    assert_eq!(
        chain(&s, "h"),
        [
            "event_whenflagclicked",
            "motion_movesteps",
            "motion_turnright",
            "looks_say",
            "control_wait",
            "motion_turnleft"
        ]
    );
    // Before a script's first block: the source heads the script.
    let mut s = session(stacks());
    connect(&mut s, "t2", "t1", json!({"kind": "stack_before"}));
    assert_eq!(chain(&s, "t2"), ["motion_turnleft", "motion_turnright"]);
    // A hat has no previous connection.
    let r = connect(&mut s, "t2", "h", json!({"kind": "stack_before"}));
    assert_eq!(r.error.unwrap().message, "Target missing previousConnection");
    // A forever has no next connection.
    let r = connect(&mut s, "f", "t2", json!({"kind": "stack_before"}));
    assert_eq!(r.error.unwrap().message, "Source needs nextConnection (a stack-capable block)");
}

#[test]
fn stack_before_the_first_block_of_a_c_slot() {
    let mut s = session(stacks());
    // ch is first in the forever: t2 (alone below t1) goes into the slot, ch after it.
    let r = connect(&mut s, "t2", "ch", json!({"kind": "stack_before"}));
    assert_eq!(
        r.data.unwrap(),
        json!({"connected": true, "kind": "statement_into", "inputName": "SUBSTACK", "sourceId": "t2", "targetId": "f"})
    );
    assert!(code(&s).contains("- SUBSTACK:\n  #"), "{}", code(&s));
    let f = s.project().targets[1].blocks.index_of("f").unwrap();
    let first =
        s.project().targets[1].blocks.get(f).unwrap().input("SUBSTACK").unwrap().value.clone();
    let t2 = s.project().targets[1].blocks.index_of("t2").unwrap();
    assert_eq!(first, Some(gobo::scratch::project::InputValue::Block(t2)));
    assert_eq!(chain(&s, "t2"), ["motion_turnleft", "motion_changexby"]);
    // t2 had a block above it (t1): the C-block takes t2's old place (the editor's
    // "surrounding" rule), so the forever now hangs below t1.
    assert_eq!(chain(&s, "t1"), ["motion_turnright", "control_forever"]);
    assert!(!scripts(&s).contains(&"f".to_string()));
}

// ---------------------------------------------------------------- statement_into

#[test]
fn statement_into_empty_and_occupied_slots() {
    let mut s = session(stacks());
    let r = connect(&mut s, "t1", "r", json!({"kind": "statement_into", "inputName": "SUBSTACK"}));
    assert_eq!(
        r.data.unwrap(),
        json!({"connected": true, "kind": "statement_into", "inputName": "SUBSTACK", "sourceId": "t1", "targetId": "r"})
    );
    assert!(code(&s)
        .contains("[top] control_repeat\n- input TIMES: 10 (math_whole_number)\n- SUBSTACK:\n  #"));
    // Into the forever, which holds ch: the source stack goes first, ch after its end.
    connect(&mut s, "sy", "f", json!({"kind": "statement_into", "inputName": "SUBSTACK"}));
    let f = s.project().targets[1].blocks.index_of("f").unwrap();
    let first = match s.project().targets[1].blocks.get(f).unwrap().input("SUBSTACK").unwrap().value
    {
        Some(gobo::scratch::project::InputValue::Block(b)) => {
            s.project().targets[1].blocks.get(b).unwrap().id.clone()
        }
        _ => panic!(),
    };
    assert_eq!(chain(&s, &first), ["looks_say", "control_wait", "motion_changexby"]);
    assert_eq!(chain(&s, "h"), ["event_whenflagclicked", "motion_movesteps"]);
}

#[test]
fn statement_into_a_value_input() {
    let mut s = session(stacks());
    // STEPS holds a shadow, which has no previous connection.
    let r = connect(&mut s, "t2", "m", json!({"kind": "statement_into", "inputName": "STEPS"}));
    assert_eq!(
        (r.code(), r.error.unwrap().message.as_str()),
        (Some(Code::ConnectionMismatch), "Cannot chain existing stack after source")
    );
    // An empty Boolean input: the source is cut out first, then the editor throws.
    ok(&mut s, "add_block", json!({"blockType": "control_if"}));
    let if_id = scripts(&s).last().unwrap().clone();
    let r =
        connect(&mut s, "t2", &if_id, json!({"kind": "statement_into", "inputName": "CONDITION"}));
    assert_eq!(
        (r.code(), r.error.unwrap().message.as_str()),
        (Some(Code::Error), "Attempt to connect incompatible types.")
    );
    assert_eq!(chain(&s, "t1"), ["motion_turnright"]);
    assert!(scripts(&s).contains(&"t2".to_string()));
    let r = connect(&mut s, "t1", "m", json!({"kind": "statement_into", "inputName": "NOPE"}));
    assert_eq!(r.error.unwrap().message, "Target has no statement input 'NOPE'");
}

// ---------------------------------------------------------------- value_into

#[test]
fn value_into_disposes_the_shadow_in_compat() {
    let mut s = session(stacks());
    ok(&mut s, "add_block", json!({"blockType": "motion_xposition"}));
    let x = scripts(&s).last().unwrap().clone();
    let r = connect(&mut s, &x, "m", json!({"kind": "value_into", "inputName": "STEPS"}));
    assert_eq!(
        r.data.unwrap(),
        json!({"connected": true, "kind": "value_into", "inputName": "STEPS", "sourceId": x, "targetId": "m"})
    );
    assert!(code(&s).contains("- input STEPS:\n  #"), "{}", code(&s));
    // Unplugging it again leaves the input empty: the shadow is gone.
    let r = connect(&mut s, &x, "t1", json!({"kind": "value_into", "inputName": "DEGREES"}));
    assert!(r.ok());
    assert!(code(&s).contains(" motion_movesteps\n- input STEPS:\n#"), "{}", code(&s));
    let i = ix(&s, &x);
    ok(&mut s, "delete_block", json!({"blockIndex": i}));
    assert!(code(&s).contains("[top] motion_turnright\n- input DEGREES:\n"), "{}", code(&s));
}

#[test]
fn value_into_keeps_the_shadow_in_full_mode() {
    let mut s = Session::new(
        stacks(),
        SessionConfig { mode: ObserveMode::Full, ..SessionConfig::default() },
    )
    .unwrap();
    ok(&mut s, "add_block", json!({"blockType": "motion_xposition"}));
    let x = scripts(&s).last().unwrap().clone();
    connect(&mut s, &x, "m", json!({"kind": "value_into", "inputName": "STEPS"}));
    let i = ix(&s, &x);
    ok(&mut s, "detach_blocks", json!({"blockIndex": i}));
    // Detach leaves a reporter in place; delete brings the shadow back.
    let i = ix(&s, &x);
    ok(&mut s, "delete_block", json!({"blockIndex": i}));
    assert!(code(&s).contains("motion_movesteps\n- input STEPS: 10 (math_number)"), "{}", code(&s));
}

#[test]
fn value_into_unplugs_an_occupant_and_checks_types() {
    let mut s = session(stacks());
    ok(&mut s, "add_block", json!({"blockType": "control_if"}));
    let cond = scripts(&s).last().unwrap().clone();
    ok(&mut s, "add_block", json!({"blockType": "sensing_mousedown"}));
    let md = scripts(&s).last().unwrap().clone();
    ok(&mut s, "add_block", json!({"blockType": "operator_not"}));
    let not = scripts(&s).last().unwrap().clone();
    assert!(
        connect(&mut s, &md, &cond, json!({"kind": "value_into", "inputName": "CONDITION"})).ok()
    );
    // A second Boolean replaces it; the first goes back to the workspace as the last script.
    assert!(
        connect(&mut s, &not, &cond, json!({"kind": "value_into", "inputName": "CONDITION"})).ok()
    );
    assert_eq!(scripts(&s).last(), Some(&md));
    // A number reporter does not fit a Boolean input: the occupant is unplugged first.
    ok(&mut s, "add_block", json!({"blockType": "motion_xposition"}));
    let x = scripts(&s).last().unwrap().clone();
    let r = connect(&mut s, &x, &cond, json!({"kind": "value_into", "inputName": "CONDITION"}));
    assert_eq!(r.code(), Some(Code::Error));
    assert!(r.error.unwrap().message.starts_with(
        "Connection checks failed. Input \"CONDITION\" connection on \"control_if\" block"
    ));
    assert!(scripts(&s).contains(&not));
    // Stack blocks have no output; reporters cannot go into themselves.
    let r = connect(&mut s, "t1", "m", json!({"kind": "value_into", "inputName": "STEPS"}));
    assert_eq!(
        r.error.unwrap().message,
        "Source must be a reporter/predicate (has outputConnection)"
    );
    assert!(connect(&mut s, &md, &not, json!({"kind": "value_into", "inputName": "OPERAND"})).ok());
    let r = connect(&mut s, &not, &md, json!({"kind": "value_into", "inputName": "OPERAND"}));
    assert_eq!(r.code(), Some(Code::ConnectionMismatch), "sensing_mousedown has no input OPERAND");
    let r = connect(&mut s, &not, "m", json!({"kind": "value_into", "inputName": "STEPS"}));
    assert!(r.ok());
    let r = connect(&mut s, "m", &md, json!({"kind": "value_into", "inputName": "OPERAND"}));
    assert_eq!(r.code(), Some(Code::ConnectionMismatch));
}

#[test]
fn value_into_target_inside_source() {
    let mut s = session(stacks());
    ok(&mut s, "add_block", json!({"blockType": "operator_not"}));
    let outer = scripts(&s).last().unwrap().clone();
    ok(&mut s, "add_block", json!({"blockType": "operator_not"}));
    let inner = scripts(&s).last().unwrap().clone();
    assert!(
        connect(&mut s, &inner, &outer, json!({"kind": "value_into", "inputName": "OPERAND"})).ok()
    );
    let r = connect(&mut s, &outer, &inner, json!({"kind": "value_into", "inputName": "OPERAND"}));
    assert_eq!(
        (r.code(), r.error.unwrap().message.as_str()),
        (Some(Code::InvalidArg), "Target is within source hierarchy")
    );
}

// ---------------------------------------------------------------- wrap

#[test]
fn wrap_takes_the_whole_stack_from_its_top() {
    let mut s = session(stacks());
    // Wrapping t2 wraps its stack from its top (t1): the repeat stays where it is.
    let r = connect(&mut s, "r", "t2", json!({"kind": "wrap"}));
    assert_eq!(
        r.data.unwrap(),
        json!({"connected": true, "kind": "wrap", "substack": "SUBSTACK", "wrappedTopId": "t1", "sourceId": "r"})
    );
    assert!(scripts(&s).contains(&"r".to_string()));
    assert!(!scripts(&s).contains(&"t1".to_string()));
    // A hat-topped stack cannot be wrapped.
    let r = connect(&mut s, "f", "sy", json!({"kind": "wrap"}));
    assert_eq!(r.error.unwrap().message, "Target stack has no previousConnection");
    // Only C-blocks wrap.
    ok(&mut s, "add_block", json!({"blockType": "motion_ifonedgebounce"}));
    let b = scripts(&s).last().unwrap().clone();
    let r = connect(&mut s, "m", &b, json!({"kind": "wrap"}));
    assert_eq!(r.error.unwrap().message, "Source C-block has no statement input 'SUBSTACK'");
    // A stack inside the C-block itself.
    let r = connect(&mut s, "r", "t2", json!({"kind": "wrap"}));
    assert_eq!(
        (r.code(), r.error.unwrap().message.as_str()),
        (Some(Code::InvalidArg), "Target is within source hierarchy")
    );
}

#[test]
fn wrap_hands_the_old_slot_content_to_the_end() {
    let mut s = session(stacks());
    // The forever holds ch: wrapping t1 → t2 puts them first and ch after t2.
    assert!(connect(&mut s, "f", "t1", json!({"kind": "wrap"})).ok());
    let f = s.project().targets[1].blocks.index_of("f").unwrap();
    let first =
        s.project().targets[1].blocks.get(f).unwrap().input("SUBSTACK").unwrap().value.clone();
    assert_eq!(
        first,
        Some(gobo::scratch::project::InputValue::Block(
            s.project().targets[1].blocks.index_of("t1").unwrap()
        ))
    );
    assert_eq!(chain(&s, "t1"), ["motion_turnright", "motion_turnleft", "motion_changexby"]);
}

// ---------------------------------------------------------------- connect argument errors

#[test]
fn connect_argument_errors() {
    let mut s = session(stacks());
    let cases = [
        (
            json!({"sourceBlockIndex": 0, "targetBlockIndex": 1, "placement": {"kind": "wrap"}}),
            Code::InvalidArg,
            "'sourceBlockIndex' must be a positive integer",
        ),
        (
            json!({"sourceBlockIndex": 1.5, "targetBlockIndex": 1, "placement": {"kind": "wrap"}}),
            Code::InvalidArg,
            "'sourceBlockIndex' must be a positive integer",
        ),
        (
            json!({"sourceBlockIndex": "1", "targetBlockIndex": 1, "placement": {"kind": "wrap"}}),
            Code::InvalidArg,
            "'sourceBlockIndex' must be a positive integer",
        ),
        (
            json!({"sourceBlockIndex": 1, "targetBlockIndex": -3, "placement": {"kind": "wrap"}}),
            Code::InvalidArg,
            "'targetBlockIndex' must be a positive integer",
        ),
        (
            json!({"sourceBlockIndex": 1, "targetBlockIndex": 2}),
            Code::InvalidArg,
            "'placement.kind' is required",
        ),
        (
            json!({"sourceBlockIndex": 1, "targetBlockIndex": 2, "placement": "stack_after"}),
            Code::InvalidArg,
            "'placement.kind' is required",
        ),
        (
            json!({"sourceBlockIndex": 1, "targetBlockIndex": 2, "placement": {"kind": "value_into"}}),
            Code::InvalidArg,
            "'inputName' is required when kind is 'statement_into' or 'value_into'",
        ),
        (
            json!({"sourceBlockIndex": 999, "targetBlockIndex": 2, "placement": {"kind": "wrap"}}),
            Code::NotFound,
            "Source block not found at index 999",
        ),
        (
            json!({"sourceBlockIndex": 2, "targetBlockIndex": 18446744073709551615u64, "placement": {"kind": "wrap"}}),
            Code::NotFound,
            "Target block not found at index 18446744073709551615",
        ),
        // Python's bool is an int: true passes the check, then "True" is not an index.
        (
            json!({"sourceBlockIndex": true, "targetBlockIndex": 2, "placement": {"kind": "wrap"}}),
            Code::NotFound,
            "Source block not found at index True",
        ),
        (
            json!({"sourceBlockIndex": 2, "targetBlockIndex": 2, "placement": {"kind": "wrap"}}),
            Code::InvalidArg,
            "Source and target are the same",
        ),
        (
            json!({"sourceBlockIndex": 2, "targetBlockIndex": 3, "placement": {"kind": "sideways"}}),
            Code::InvalidArg,
            "Unknown placement.kind: sideways",
        ),
    ];
    for (args, code, message) in cases {
        let r = act(&mut s, "connect_blocks", args.clone());
        assert_eq!(r.code(), Some(code), "{args}");
        assert_eq!(r.error.unwrap().message, message, "{args}");
    }
}

// ---------------------------------------------------------------- detach_blocks / delete_block

#[test]
fn detach_takes_the_tail() {
    let mut s = session(stacks());
    let i = ix(&s, "sy");
    let d = ok(&mut s, "detach_blocks", json!({"blockIndex": i}));
    assert_eq!(d, json!({"detached": true, "blockId": "sy", "topId": "sy"}));
    assert_eq!(chain(&s, "h"), ["event_whenflagclicked", "motion_movesteps"]);
    assert_eq!(chain(&s, "sy"), ["looks_say", "control_wait"]);
    assert_eq!(scripts(&s).last().map(String::as_str), Some("sy"));
    // The first block of a C-slot leaves the slot.
    let i = ix(&s, "ch");
    ok(&mut s, "detach_blocks", json!({"blockIndex": i}));
    assert!(code(&s).contains("[top] control_forever\n- SUBSTACK:\n\n"));
    // A script's first block and a reporter in an input stay where they are.
    let before = s.project().clone();
    let i = ix(&s, "h");
    ok(&mut s, "detach_blocks", json!({"blockIndex": i}));
    assert_eq!(s.project(), &before);
    assert_eq!(
        fails(&mut s, "detach_blocks", json!({"blockIndex": 0}), Code::InvalidArg),
        "'blockIndex' must be a positive integer"
    );
    assert_eq!(
        fails(&mut s, "detach_blocks", json!({"blockIndex": 77}), Code::NotFound),
        "Block not found at index: 77"
    );
}

#[test]
fn detach_leaves_a_reporter_in_its_input() {
    let mut s = session(stacks());
    ok(&mut s, "add_block", json!({"blockType": "motion_xposition"}));
    let x = scripts(&s).last().unwrap().clone();
    connect(&mut s, &x, "m", json!({"kind": "value_into", "inputName": "STEPS"}));
    let before = s.project().clone();
    let i = ix(&s, &x);
    assert_eq!(ok(&mut s, "detach_blocks", json!({"blockIndex": i}))["topId"], x.as_str());
    assert_eq!(s.project(), &before);
}

#[test]
fn delete_takes_everything_below() {
    let mut s = session(stacks());
    let i = ix(&s, "m");
    let d = ok(&mut s, "delete_block", json!({"blockIndex": i}));
    assert_eq!(
        d,
        json!({"deleted": true, "index": i, "blockId": "m", "blockInfo": {"id": "m", "opcode": "motion_movesteps"}})
    );
    assert_eq!(chain(&s, "h"), ["event_whenflagclicked"]);
    for gone in ["m", "sy", "w", "m-STEPS"] {
        assert!(s.project().targets[1].blocks.index_of(gone).is_none(), "{gone} still there");
    }
    // The legacy `index` argument is read when `blockIndex` is absent.
    let i = ix(&s, "t2");
    ok(&mut s, "delete_block", json!({"index": i}));
    assert_eq!(chain(&s, "t1"), ["motion_turnright"]);
    assert_eq!(
        fails(&mut s, "delete_block", json!({"blockIndex": 40}), Code::NotFound),
        "Block not found at index 40"
    );
}

#[test]
fn delete_a_reporter_brings_back_a_loaded_shadow() {
    let blocks = json!({
        "m": blk("motion_movesteps", None, None, json!({"STEPS": [3, "x", [4, "10"]]}), json!({})),
        "x": blk("motion_xposition", None, Some("m"), json!({}), json!({}))
    });
    let mut s = session(project(json!({}), vec![("Cat", blocks, json!({}))]));
    let i = ix(&s, "x");
    ok(&mut s, "delete_block", json!({"blockIndex": i}));
    assert!(code(&s).contains("- input STEPS: 10 (math_number)"), "{}", code(&s));
}

// ---------------------------------------------------------------- set_block_field

#[test]
fn set_block_field_by_input_and_field() {
    let mut s = session(stacks());
    let i = ix(&s, "m");
    let d =
        ok(&mut s, "set_block_field", json!({"blockIndex": i, "fieldName": "STEPS", "value": 25}));
    assert_eq!(
        d,
        json!({"updated": 1, "blockIndex": i, "blockId": "m", "fieldName": "STEPS", "value": "25", "originalValue": 25, "translatedValue": 25})
    );
    assert!(code(&s).contains("- input STEPS: 25 (math_number)"));
    ok(&mut s, "add_block", json!({"blockType": "looks_seteffectto"}));
    let e = ix(&s, scripts(&s).last().unwrap());
    // Display text → value through the dropdown's options.
    ok(
        &mut s,
        "set_block_field",
        json!({"blockIndex": e, "fieldName": "EFFECT", "value": "ghost"}),
    );
    assert!(code(&s).contains("- field EFFECT: \"GHOST\""));
    ok(&mut s, "add_block", json!({"blockType": "motion_goto"}));
    let g = ix(&s, scripts(&s).last().unwrap());
    ok(
        &mut s,
        "set_block_field",
        json!({"blockIndex": g, "fieldName": "TO", "value": "mouse-pointer"}),
    );
    assert!(code(&s).contains("- input TO: _mouse_ (motion_goto_menu)"));
    ok(&mut s, "set_block_field", json!({"blockIndex": g, "fieldName": "TO", "value": "Dog"}));
    assert!(code(&s).contains("- input TO: Dog (motion_goto_menu)"));
    // Angles wrap into (-180, 180].
    ok(&mut s, "add_block", json!({"blockType": "motion_pointindirection"}));
    let p = ix(&s, scripts(&s).last().unwrap());
    ok(
        &mut s,
        "set_block_field",
        json!({"blockIndex": p, "fieldName": "DIRECTION", "value": "270"}),
    );
    assert!(code(&s).contains("- input DIRECTION: -90 (math_angle)"));
    // Values are stringified the JavaScript way.
    ok(&mut s, "set_block_field", json!({"blockIndex": i, "fieldName": "STEPS", "value": 1.5e21}));
    assert!(code(&s).contains("- input STEPS: 1.5e+21 (math_number)"));
}

#[test]
fn set_block_field_variables_and_messages() {
    let blocks = json!({
        "sv": blk("data_setvariableto", None, None, json!({"VALUE": [1, [10, "0"]]}), json!({"VARIABLE": ["a", "va"]})),
        "b": blk("event_broadcast", None, None, json!({"BROADCAST_INPUT": [1, [11, "go", "m1"]]}), json!({}))
    });
    let p = project(
        json!({"variables": {"vg": ["global", 0]}, "broadcasts": {"m1": "go"}}),
        vec![("Cat", blocks, json!({"variables": {"va": ["a", 0]}}))],
    );
    let mut s = session(p);
    let i = ix(&s, "sv");
    // Names become ids on the server, then the field takes the id.
    let d = ok(
        &mut s,
        "set_block_field",
        json!({"blockIndex": i, "fieldName": "VARIABLE", "value": "global"}),
    );
    assert_eq!((d["translatedValue"].clone(), d["value"].clone()), (json!("vg"), json!("vg")));
    assert!(code(&s).contains("- field VARIABLE: \"global\""));
    let m = fails(
        &mut s,
        "set_block_field",
        json!({"blockIndex": i, "fieldName": "VARIABLE", "value": "nope"}),
        Code::SetFailed,
    );
    assert_eq!(m, "Variable id doesn't point to a real variable!  ID was nope");
    // A message that does not exist yet is created.
    let b = ix(&s, "b");
    ok(
        &mut s,
        "set_block_field",
        json!({"blockIndex": b, "fieldName": "BROADCAST_INPUT", "value": "start"}),
    );
    assert!(s.project().targets[0].broadcasts.iter().any(|m| m.name == "start"));
    assert!(code(&s).contains("- input BROADCAST_INPUT: start (event_broadcast_menu)"));
}

#[test]
fn set_block_field_new_shadows_and_errors() {
    let mut s = session(stacks());
    ok(&mut s, "add_block", json!({"blockType": "motion_xposition"}));
    let x = scripts(&s).last().unwrap().clone();
    connect(&mut s, &x, "m", json!({"kind": "value_into", "inputName": "STEPS"}));
    let i = ix(&s, &x);
    ok(&mut s, "delete_block", json!({"blockIndex": i}));
    // STEPS is empty now: a new number shadow is made.
    let m = ix(&s, "m");
    ok(&mut s, "set_block_field", json!({"blockIndex": m, "fieldName": "STEPS", "value": "7"}));
    assert!(code(&s).contains("- input STEPS: 7 (math_number)"));
    // An empty Boolean input cannot take a number shadow.
    ok(&mut s, "add_block", json!({"blockType": "control_if"}));
    let c = ix(&s, scripts(&s).last().unwrap());
    let e = fails(
        &mut s,
        "set_block_field",
        json!({"blockIndex": c, "fieldName": "CONDITION", "value": 1}),
        Code::ConnectionFailed,
    );
    assert_eq!(e, "Failed to connect shadow block: undefined");
    let e = fails(
        &mut s,
        "set_block_field",
        json!({"blockIndex": m, "fieldName": "SPEED", "value": 1}),
        Code::InputNotFound,
    );
    assert_eq!(e, "Input 'SPEED' not found on block motion_movesteps. Available inputs: STEPS");
    // An input holding a reporter without fields.
    ok(&mut s, "add_block", json!({"blockType": "operator_add"}));
    let add = scripts(&s).last().unwrap().clone();
    connect(&mut s, &add, "m", json!({"kind": "value_into", "inputName": "STEPS"}));
    let m = ix(&s, "m");
    let e = fails(
        &mut s,
        "set_block_field",
        json!({"blockIndex": m, "fieldName": "STEPS", "value": 1}),
        Code::InvalidField,
    );
    assert_eq!(e, "Field 'NUM' not found on shadow block operator_add");
    assert_eq!(
        fails(
            &mut s,
            "set_block_field",
            json!({"blockIndex": m, "fieldName": "STEPS"}),
            Code::InvalidArg
        ),
        "'value' is required"
    );
    assert_eq!(
        fails(&mut s, "set_block_field", json!({"blockIndex": m, "value": 1}), Code::InvalidArg),
        "'fieldName' is required (legacy 'target' is no longer supported)"
    );
}

#[test]
fn set_block_field_sound_and_sprite_menus() {
    // ScratchWorld's server turns a sound name into its asset id and a sprite name in a
    // distance menu into the sprite's id; gobo's full mode keeps the names.
    for (mode, sound, sprite) in
        [(ObserveMode::Compat, "a1b2", "target-2"), (ObserveMode::Full, "pop", "Dog")]
    {
        let mut s =
            Session::new(stacks(), SessionConfig { mode, ..SessionConfig::default() }).unwrap();
        ok(&mut s, "add_block", json!({"blockType": "sound_play"}));
        let p = ix(&s, scripts(&s).last().unwrap());
        ok(
            &mut s,
            "set_block_field",
            json!({"blockIndex": p, "fieldName": "SOUND_MENU", "value": "pop"}),
        );
        assert!(
            code(&s).contains(&format!("- input SOUND_MENU: {sound} (sound_sounds_menu)")),
            "{}",
            code(&s)
        );
        ok(&mut s, "add_block", json!({"blockType": "sensing_distanceto"}));
        let d = ix(&s, scripts(&s).last().unwrap());
        ok(
            &mut s,
            "set_block_field",
            json!({"blockIndex": d, "fieldName": "DISTANCETOMENU", "value": "Dog"}),
        );
        assert!(
            code(&s)
                .contains(&format!("- input DISTANCETOMENU: {sprite} (sensing_distancetomenu)")),
            "{}",
            code(&s)
        );
    }
}

// ---------------------------------------------------------------- episodes, envelopes, modes

#[test]
fn envelope_and_step_limit() {
    let mut s =
        Session::new(stacks(), SessionConfig { max_steps: 3, ..SessionConfig::default() }).unwrap();
    let r = act(&mut s, "add_block", json!({"blockType": "looks_show", "extra": 1}));
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(
        v["requested_action"],
        json!({"api": "add_block", "args": {"blockType": "looks_show", "extra": 1}})
    );
    assert_eq!(
        v["executed_action"],
        json!({"api": "add_block", "args": {"blockType": "looks_show", "creation": null}})
    );
    assert_eq!(v["error"], Value::Null);
    assert_eq!(
        v["meta"],
        json!({"session_id": "s-1", "step": 1, "steps_left": 2, "duration_ms": 0})
    );
    assert_eq!(v["done"], false);
    let r = s.act_text("this is not json");
    assert_eq!(r.code(), Some(Code::InvalidActionPlan));
    let r = act(&mut s, "frobnicate", json!({}));
    assert_eq!((r.code(), r.done), (Some(Code::Unsupported), true));
    let r = act(&mut s, "select_stage", json!({}));
    assert_eq!(r.code(), Some(Code::StepLimit));
    assert_eq!(r.meta.step, 3);
}

#[test]
fn done_and_failed_end_the_episode() {
    let mut s = session(stacks());
    let r = act(&mut s, "done", json!({}));
    assert!(r.ok() && r.done);
    assert_eq!(act(&mut s, "select_stage", json!({})).code(), Some(Code::EpisodeDone));
    let mut s = session(stacks());
    assert!(act(&mut s, "failed", json!({})).done);
}

#[test]
fn cached_index_map_without_auto_observation() {
    let mut s =
        Session::new(stacks(), SessionConfig { auto_observe: false, ..SessionConfig::default() })
            .unwrap();
    let m = fails(&mut s, "detach_blocks", json!({"blockIndex": 1}), Code::InvalidState);
    assert_eq!(m, "No cached block data. Call get_blocks_pseudocode first.");
    s.observe();
    let t1 = ix(&s, "t1");
    ok(&mut s, "set_block_field", json!({"blockIndex": t1, "fieldName": "DEGREES", "value": 30}));
    // set_block_field does not renumber: the map stays.
    let sy = ix(&s, "sy");
    ok(&mut s, "detach_blocks", json!({"blockIndex": sy}));
    // detach did: indices need a new observation.
    fails(&mut s, "detach_blocks", json!({"blockIndex": 1}), Code::InvalidState);
    s.observe();
    // After a sprite change the old map names blocks the new workspace lacks.
    ok(&mut s, "select_sprite", json!({"name": "Dog"}));
    let m = fails(&mut s, "delete_block", json!({"blockIndex": 1}), Code::NotFound);
    assert_eq!(m, "Visual block not found in workspace");
}

#[test]
fn id_mode_addresses_blocks_by_id() {
    let mut s =
        Session::new(stacks(), SessionConfig { index: IndexMode::Id, ..SessionConfig::default() })
            .unwrap();
    assert!(s.peek().text.contains("@h [top] event_whenflagclicked"));
    let r = act(
        &mut s,
        "connect_blocks",
        json!({"sourceBlockId": "t1", "targetBlockId": "w", "placement": {"kind": "stack_after"}}),
    );
    assert!(r.ok(), "{:?}", r.error);
    assert_eq!(
        serde_json::to_value(&r.executed_action).unwrap()["args"],
        json!({"sourceBlockId": "t1", "targetBlockId": "w", "placement": {"kind": "stack_after"}})
    );
    assert_eq!(chain(&s, "h").len(), 6);
    assert_eq!(
        fails(&mut s, "delete_block", json!({"blockId": "zz"}), Code::NotFound),
        "Block not found at index zz"
    );
    assert_eq!(
        fails(&mut s, "delete_block", json!({"blockIndex": 1}), Code::InvalidArg),
        "'blockId' must be a block id"
    );
}

#[test]
fn observation_only_feedback() {
    let mut s = Session::new(
        stacks(),
        SessionConfig { feedback: Feedback::ObservationOnly, ..SessionConfig::default() },
    )
    .unwrap();
    let r = act(&mut s, "select_sprite", json!({"name": "Bird"}));
    let v = serde_json::to_value(&r).unwrap();
    assert!(v.get("error").is_none() && v.get("success").is_none() && v.get("data").is_none());
    assert!(r.observation.is_some());
    assert_eq!(r.meta.step, 1);
}

#[test]
fn forks_and_saved_sessions_carry_on_alike() {
    let mut a =
        Session::new(stacks(), SessionConfig { seed: 7, ..SessionConfig::default() }).unwrap();
    ok(&mut a, "add_block", json!({"blockType": "looks_show"}));
    let mut b = a.clone();
    let mut c = Session::from_bytes(&a.to_bytes()).unwrap();
    for s in [&mut a, &mut b, &mut c] {
        ok(s, "add_block", json!({"blockType": "control_forever"}));
        let i = ix(s, "t2");
        ok(s, "delete_block", json!({"blockIndex": i}));
    }
    assert_eq!(project::save(a.project()), project::save(b.project()));
    assert_eq!(project::save(a.project()), project::save(c.project()));
    assert_eq!(a.step(), c.step());
    // Ids come from the seed: another seed, other ids.
    let mut d =
        Session::new(stacks(), SessionConfig { seed: 8, ..SessionConfig::default() }).unwrap();
    let id_d = ok(&mut d, "add_block", json!({"blockType": "looks_show"}))["blockId"].clone();
    let mut e =
        Session::new(stacks(), SessionConfig { seed: 7, ..SessionConfig::default() }).unwrap();
    let id_e = ok(&mut e, "add_block", json!({"blockType": "looks_show"}))["blockId"].clone();
    assert_ne!(id_d, id_e);
    assert!(Session::from_bytes(b"garbage").is_err());
}

#[test]
fn hostile_actions_get_typed_errors() {
    let mut s = session(stacks());
    let huge = "x".repeat(1 << 20);
    fails(&mut s, "select_sprite", json!({"name": huge}), Code::NotFound);
    fails(&mut s, "add_variable", json!({"name": huge, "scope": "nowhere"}), Code::InvalidArg);
    assert_eq!(
        s.act_bytes(b"{\"api\": \"select_stage\", \xff}").code(),
        Some(Code::InvalidActionPlan)
    );
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert_eq!(s.act_text(&deep).code(), Some(Code::InvalidActionPlan));
    for v in [json!(1e300), json!(-1), json!(null), json!([1]), json!({"a": 1})] {
        let r = act(&mut s, "delete_block", json!({"blockIndex": v}));
        assert!(matches!(r.code(), Some(Code::InvalidArg | Code::NotFound)), "{v}: {:?}", r.error);
    }
    assert_eq!(s.act(&json!("not an object")).code(), Some(Code::InvalidArg));
    assert_eq!(s.act(&json!({"api": 5})).code(), Some(Code::InvalidArg));
}

#[test]
fn new_session_expands_primitives_like_scratch_vm() {
    let s = session(stacks());
    let blocks = &s.project().targets[1].blocks;
    let i = blocks.index_of("m-STEPS").expect("the number is a block now");
    let b = blocks.get(i).unwrap();
    assert!(b.shadow && b.opcode == "math_number");
    assert_eq!(
        s.peek().pseudocode,
        gobo::scratch::agent::observe(&stacks(), None, ObserveMode::Compat, IndexMode::Index)
            .unwrap()
            .pseudocode
    );
}
