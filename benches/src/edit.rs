//! The edit layer's benchmark material, shared by `benches/benches/edit.rs` and the
//! `observe_profile` example (for callgrind): a sprite with one 100-block script.

use gobo::scratch::project::{load, Project};
use serde_json::json;

/// A project whose sprite `Big` has one script of 100 blocks: a hat, then moves, turns,
/// says and waits in turn, each with a literal input.
pub fn hundred_blocks() -> Project {
    let ops = [
        ("motion_movesteps", "STEPS"),
        ("motion_turnright", "DEGREES"),
        ("looks_say", "MESSAGE"),
        ("control_wait", "DURATION"),
    ];
    let mut blocks = serde_json::Map::new();
    blocks.insert(
        "b0".into(),
        json!({"opcode": "event_whenflagclicked", "next": "b1", "parent": null, "inputs": {},
               "fields": {}, "shadow": false, "topLevel": true, "x": 0, "y": 0}),
    );
    for i in 1..100 {
        let (op, input) = ops[i % ops.len()];
        let next = if i < 99 { json!(format!("b{}", i + 1)) } else { json!(null) };
        blocks.insert(
            format!("b{i}"),
            json!({"opcode": op, "next": next, "parent": format!("b{}", i - 1),
                   "inputs": {input: [1, [4, format!("{i}")]]}, "fields": {},
                   "shadow": false, "topLevel": false}),
        );
    }
    let costume = json!({"name": "c", "assetId": "a", "md5ext": "a.svg", "dataFormat": "svg",
                          "rotationCenterX": 0, "rotationCenterY": 0});
    let project = json!({
        "targets": [
            {"isStage": true, "name": "Stage", "variables": {}, "lists": {}, "broadcasts": {},
             "blocks": {}, "comments": {}, "currentCostume": 0, "costumes": [costume],
             "sounds": [], "volume": 100, "layerOrder": 0},
            {"isStage": false, "name": "Big", "variables": {}, "lists": {}, "broadcasts": {},
             "blocks": blocks, "comments": {}, "currentCostume": 0, "costumes": [costume],
             "sounds": [], "volume": 100, "layerOrder": 1, "visible": true, "x": 0, "y": 0,
             "size": 100, "direction": 90, "draggable": false, "rotationStyle": "all around"}
        ],
        "monitors": [], "extensions": [], "meta": {"semver": "3.0.0"}
    });
    load(project.to_string().as_bytes()).expect("the generated project loads")
}
