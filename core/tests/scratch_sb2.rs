//! The Scratch 2 conversion (`gobo::scratch::project::sb2`) on small hand-written projects:
//! each test names one rule of scratch-vm 5.0.300's `serialization/sb2.js` and checks the
//! converted model. Whole projects are checked against the reference's traces in
//! `hosts/host/tests/sb2.rs`.

use std::collections::BTreeMap;

use gobo::scratch::project::sb2::{is_sb2, load_sb2, member_names};
use gobo::scratch::project::{
    load_any, Block, InputValue, Json, Literal, LoadOptions, Primitive, Project, SourceFormat,
    Target,
};
use serde_json::{json, Value};

fn stage(children: Value, scripts: Value) -> Value {
    json!({
        "objName": "Stage", "costumes": [], "currentCostumeIndex": 0, "penLayerMD5": null,
        "tempoBPM": 60, "children": children, "scripts": scripts,
    })
}

fn sprite(name: &str, index: i64, scripts: Value) -> Value {
    json!({"objName": name, "costumes": [], "currentCostumeIndex": 0, "indexInLibrary": index,
           "scripts": scripts})
}

fn convert(doc: &Value) -> Project {
    convert_with(doc, &BTreeMap::new())
}

fn convert_with(doc: &Value, files: &BTreeMap<String, Vec<u8>>) -> Project {
    let bytes = serde_json::to_vec(doc).unwrap();
    match load_sb2(&bytes, files) {
        Ok(p) => p.project,
        Err(e) => panic!("does not convert: {e}"),
    }
}

fn error(doc: &Value) -> String {
    let bytes = serde_json::to_vec(doc).unwrap();
    match load_sb2(&bytes, &BTreeMap::new()) {
        Ok(_) => panic!("converts"),
        Err(e) => e.to_string(),
    }
}

fn target<'p>(p: &'p Project, name: &str) -> &'p Target {
    p.targets.iter().find(|t| t.name == name).expect("target")
}

fn blocks<'t>(t: &'t Target, opcode: &str) -> Vec<&'t Block> {
    t.blocks.as_slice().iter().filter(|b| b.opcode == opcode).collect()
}

fn text(l: &Literal) -> String {
    match l {
        Literal::Text(s) => s.clone(),
        Literal::Number(n) => n.as_f64().to_string(),
        other => format!("{other:?}"),
    }
}

/// The literal an input holds (a compressed primitive).
fn literal(b: &Block, input: &str) -> Literal {
    let i = b.input(input).expect("input");
    let value = match (&i.value, &i.shadow) {
        (Some(InputValue::Primitive(p)), _) | (_, Some(InputValue::Primitive(p))) => p,
        _ => panic!("input {input} holds no primitive"),
    };
    match value {
        Primitive::Literal { value, .. } => value.clone(),
        Primitive::Reference { name, .. } => Literal::Text(name.clone()),
    }
}

#[test]
fn a_sprite_variable_named_like_a_global_takes_the_global_id() {
    let doc = json!({
        "objName": "Stage", "costumes": [], "currentCostumeIndex": 0, "penLayerMD5": null,
        "tempoBPM": 60, "variables": [{"name": "a", "value": 1}],
        "children": [{"objName": "S", "costumes": [], "currentCostumeIndex": 0,
                      "variables": [{"name": "a", "value": "local"}, {"name": "b", "value": 2}]}],
    });
    let p = convert(&doc);
    let global = &target(&p, "Stage").variables[0];
    let local = &target(&p, "S").variables;
    assert_eq!(local[0].id, global.id);
    assert_eq!(local[0].value, Literal::Text("local".into()));
    assert_ne!(local[1].id, global.id);
    assert!(local[1].id.ends_with("-b-"), "{}", local[1].id);
}

#[test]
fn broadcasts_are_lower_cased_and_the_empty_name_becomes_message_n() {
    let scripts = json!([[
        0,
        0,
        [
            ["whenGreenFlag"],
            ["broadcast:", "Go"],
            ["broadcast:", "go"],
            ["broadcast:", ""],
            ["broadcast:", "message1"],
            ["broadcast:", "2"],
            ["broadcast:", "1"]
        ]
    ]]);
    let p = convert(&stage(json!([]), scripts));
    let names: Vec<&str> = target(&p, "Stage").broadcasts.iter().map(|b| b.name.as_str()).collect();
    // Array-index names first, in order, then the others in insertion order.
    assert_eq!(names, ["1", "2", "go", "message1", "message2"]);
    let menus: Vec<String> = blocks(target(&p, "Stage"), "event_broadcast")
        .iter()
        .map(|b| text(&literal(b, "BROADCAST_INPUT")))
        .collect();
    assert_eq!(menus, ["Go", "go", "message2", "message1", "2", "1"]);
}

#[test]
fn inputs_covered_by_reporters_get_scratch2_defaults() {
    let scripts = json!([[
        0,
        0,
        [
            ["whenGreenFlag"],
            ["forward:", ["xpos"]],
            ["say:", ["answer"]],
            ["penColor:", ["xpos"]],
            ["penColor:", 16711680],
            ["penColor:", -1],
            ["wait:elapsed:from:", "0.5"]
        ]
    ]]);
    let p = convert(&stage(json!([sprite("S", 1, scripts)]), json!([])));
    let s = target(&p, "S");
    assert_eq!(literal(blocks(s, "motion_movesteps")[0], "STEPS"), Literal::Number(10.into()));
    assert_eq!(literal(blocks(s, "looks_say")[0], "MESSAGE"), Literal::Text(String::new()));
    let pens = blocks(s, "pen_setPenColorToColor");
    let colours: Vec<String> = pens.iter().map(|b| text(&literal(b, "COLOR"))).collect();
    assert_eq!(colours, ["#990000", "#ff0000", "#ffffff"]);
    // Values keep their JSON type.
    assert_eq!(literal(blocks(s, "control_wait")[0], "DURATION"), Literal::Text("0.5".into()));
    assert_eq!(p.extensions, ["pen"]);
}

#[test]
fn custom_blocks_get_a_prototype_and_numbered_arguments() {
    let scripts = json!([
        [
            0,
            0,
            [
                ["procDef", "jump %n high %b", ["h", "flag"], [10, false], true],
                ["doIf", ["getParam", "flag", "r"], [["changeYposBy:", ["getParam", "h", "r"]]]]
            ]
        ],
        [0, 300, [["whenGreenFlag"], ["call", "jump %n high %b", 5, ["=", 1, 1]]]],
    ]);
    let p = convert(&stage(json!([sprite("S", 1, scripts)]), json!([])));
    let s = target(&p, "S");
    let proto = blocks(s, "procedures_prototype")[0];
    let m = proto.mutation.as_ref().expect("mutation");
    assert_eq!(m.proccode.as_deref(), Some("jump %n high %b"));
    assert_eq!(m.argument_ids.as_deref(), Some(&["input0".to_string(), "input1".into()][..]));
    assert_eq!(m.argument_names.as_deref(), Some(&["h".to_string(), "flag".into()][..]));
    assert!(m.warp);
    let call = blocks(s, "procedures_call")[0];
    assert_eq!(literal(call, "input0"), Literal::Number(5.into()));
    assert!(call.input("input1").is_some());
    // An argument reporter in a boolean slot is a boolean reporter whatever the file says.
    assert_eq!(blocks(s, "argument_reporter_boolean").len(), 1);
    assert_eq!(blocks(s, "argument_reporter_string_number").len(), 1);
}

#[test]
fn click_hats_follow_the_kind_of_target_and_stop_gets_a_next() {
    let hat = json!([[0, 0, [["whenClicked"], ["stopScripts", "other scripts in stage"]]]]);
    let p = convert(&stage(json!([sprite("S", 1, hat.clone())]), hat));
    assert_eq!(blocks(target(&p, "Stage"), "event_whenstageclicked").len(), 1);
    assert_eq!(blocks(target(&p, "S"), "event_whenthisspriteclicked").len(), 1);
    let stop = blocks(target(&p, "Stage"), "control_stop")[0];
    assert_eq!(stop.mutation.as_ref().and_then(|m| m.has_next), Some(true));
}

#[test]
fn sprites_are_listed_by_library_index_and_layered_by_child_order() {
    let p = convert(&stage(
        json!([sprite("A", 3, json!([])), sprite("B", 1, json!([])), sprite("C", 2, json!([]))]),
        json!([]),
    ));
    let order: Vec<&str> = p.targets.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(order, ["Stage", "B", "C", "A"]);
    let layer = |n: &str| target(&p, n).layer_order.map(|l| l.as_f64());
    assert_eq!(
        [layer("Stage"), layer("A"), layer("B"), layer("C")],
        [Some(0.0), Some(1.0), Some(2.0), Some(3.0)]
    );
}

#[test]
fn watchers_become_monitors_with_scratch_vm_ids() {
    let mut doc = stage(
        json!([
            sprite("S", 1, json!([])),
            {"target": "Bühne", "cmd": "getVar:", "param": "v", "mode": 2, "visible": true},
            {"target": "S", "cmd": "xpos", "param": null, "mode": 1, "visible": true},
            {"target": "Bühne", "cmd": "timeAndDate", "param": "minute", "mode": 1, "visible": false},
            {"target": "Bühne", "cmd": "noSuchBlock", "param": null, "visible": true},
            {"listName": "L", "contents": [], "visible": true},
        ]),
        json!([]),
    );
    doc["objName"] = json!("Bühne");
    doc["variables"] = json!([{"name": "v", "value": 0}]);
    doc["lists"] = json!([{"listName": "L", "contents": [1, "two"]}]);
    let p = convert(&doc);
    assert_eq!(p.targets[0].name, "Stage");
    let ids: Vec<&str> = p.monitors.iter().map(|m| m.id.as_str()).collect();
    let stage_var = &p.targets[0].variables[0].id;
    let list = &p.targets[0].lists[0].id;
    assert_eq!(ids.len(), 4, "{ids:?}");
    assert_eq!(ids[0], stage_var);
    assert!(ids[1].ends_with("_xposition"));
    assert_eq!(ids[2], "current_minute");
    assert_eq!(ids[3], list);
    let modes: Vec<Option<&str>> = p.monitors.iter().map(|m| m.mode.as_deref()).collect();
    assert_eq!(modes, [Some("large"), Some("default"), Some("default"), Some("list")]);
    assert_eq!(p.monitors[1].sprite_name.as_deref(), Some("S"));
    let bad = stage(json!([{"target": "Nobody", "cmd": "xpos", "visible": true}]), json!([]));
    assert!(error(&bad).contains("does not exist"));
}

#[test]
fn block_comments_attach_by_flattened_index() {
    let mut doc = sprite("S", 1, json!([[0, 0, [["whenGreenFlag"], ["say:", ["answer"]]]]]));
    // Index 2 is the `answer` reporter (flattened: hat, say, answer); -1 is a workspace comment.
    doc["scriptComments"] =
        json!([[1, 2, 100, 50, true, 2, "on answer"], [3, 4, 10, 10, false, -1, "loose"]]);
    let p = convert(&stage(json!([doc]), json!([])));
    let s = target(&p, "S");
    let answer = blocks(s, "sensing_answer")[0];
    let on = s.comments.iter().find(|c| c.text == "on answer").expect("comment");
    assert_eq!(on.block_id.as_deref(), Some(answer.id.as_str()));
    assert_eq!(answer.comment.as_deref(), Some(on.id.as_str()));
    let loose = s.comments.iter().find(|c| c.text == "loose").expect("comment");
    assert_eq!(loose.block_id, None);
}

#[test]
fn costumes_take_their_asset_id_from_the_archive_file() {
    let mut doc = stage(json!([]), json!([]));
    doc["costumes"] = json!([
        {"costumeName": "bg", "baseLayerID": 3, "baseLayerMD5": "aaaa.PNG", "bitmapResolution": 2,
         "rotationCenterX": 1, "rotationCenterY": 1},
        {"costumeName": "gone", "baseLayerID": 9, "baseLayerMD5": "bbbb"},
    ]);
    let mut files = BTreeMap::new();
    files.insert("3.PNG".to_string(), b"bytes".to_vec());
    let p = convert_with(&doc, &files);
    let c = &p.targets[0].costumes;
    let md5 = gobo::md5::hex(b"bytes");
    assert_eq!(c[0].asset_id.as_deref(), Some(md5.as_str()));
    assert_eq!(c[0].md5ext, Some(format!("{md5}.png")));
    assert_eq!(c[0].data_format.as_deref(), Some("png"));
    // The stage's centre is fixed at 240, 180 times the resolution.
    assert_eq!(c[0].rotation_center_x.map(|n| n.as_f64()), Some(480.0));
    assert_eq!(c[1].md5ext.as_deref(), Some("bbbb.png"));
    let names = member_names(&Json::parse(&serde_json::to_vec(&doc).unwrap()).unwrap());
    assert_eq!(names, ["3.PNG", "9.png"]);
}

#[test]
fn counts_the_ids_scratch_vm_draws() {
    // 1 (module) + 2 targets + blocks (hat, say, join = 3) + inputs (say: 1, join: 2) = 9.
    let scripts = json!([[0, 0, [["whenGreenFlag"], ["say:", ["concatenate:with:", "a", "b"]]]]]);
    let p = convert(&stage(json!([sprite("S", 1, scripts)]), json!([])));
    assert_eq!(p.source, SourceFormat::Sb2 { load_uid_calls: 9 });
    assert_eq!(p.load_uid_calls(), 9);
}

#[test]
fn unknown_blocks_are_left_out_and_built_ins_refused() {
    let scripts = json!([[0, 0, [["whenGreenFlag"], ["noSuchBlock", 1], ["show"]]]]);
    let p = convert(&stage(json!([sprite("S", 1, scripts)]), json!([])));
    let s = target(&p, "S");
    let hat = blocks(s, "event_whenflagclicked")[0];
    let show = blocks(s, "looks_show")[0];
    assert_eq!(hat.next.and_then(|n| s.blocks.get(n)).map(|b| b.id.clone()), Some(show.id.clone()));
    let bad = stage(json!([sprite("S", 1, json!([[0, 0, [["constructor"]]]]))]), json!([]));
    assert!(error(&bad).contains("built-in"), "{}", error(&bad));
    let bad = stage(json!([sprite("S", 1, json!([[0, 0, [["broadcast:", 5]]]]))]), json!([]));
    assert!(error(&bad).contains("must be a string"), "{}", error(&bad));
}

#[test]
fn load_any_tells_the_formats_apart() {
    let sb2 = serde_json::to_vec(&stage(json!([]), json!([]))).unwrap();
    assert!(is_sb2(&Json::parse(&sb2).unwrap()));
    let (p, _) = load_any(&sb2, &BTreeMap::new(), &LoadOptions::default()).unwrap();
    assert!(matches!(p.source, SourceFormat::Sb2 { .. }));
    let sb3 = br#"{"targets":[{"isStage":true,"name":"Stage"}]}"#;
    assert!(!is_sb2(&Json::parse(sb3).unwrap()));
    let (p, assets) = load_any(sb3, &BTreeMap::new(), &LoadOptions::default()).unwrap();
    assert_eq!(p.source, SourceFormat::Sb3);
    assert!(assets.is_empty());
    // A Scratch 2 stage missing a required key is reported as such.
    let broken = br#"{"objName":"Stage","costumes":[]}"#;
    let err = load_any(broken, &BTreeMap::new(), &LoadOptions::default()).unwrap_err();
    assert!(err.to_string().contains("currentCostumeIndex"), "{err}");
}

#[test]
fn escaped_backspaces_are_removed_like_scratch_parser_does() {
    let mut doc = stage(json!([]), json!([]));
    doc["variables"] = json!([{"name": "a\u{8}b", "value": "c\\\u{8}d"}]);
    let p = convert(&doc);
    let v = &p.targets[0].variables[0];
    assert_eq!(v.name, "ab");
    assert_eq!(v.value, Literal::Text("c\\d".into()));
}
