//! Event hooks of a project (SPEC §2.3, part (ii) of ScratchEval's reference record, `gobo
//! hooks`): every hat script with its canonical trigger (SPEC §2.8 vocabulary), its sprite,
//! and the state signals its blocks write (variables, lists, pose, costume, visibility,
//! backdrop, broadcasts sent, bubbles, clones). Static: read from the blocks, nothing runs;
//! custom blocks a script calls are listed by name, not followed.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use super::walk::{broadcast_name, code_blocks, field_text, hat_at, input_text, script_tops};
use crate::scratch::project::{Block, Blocks, Project};

/// One hat script.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hook {
    /// The sprite (`Stage` for the stage).
    pub sprite: String,
    /// The hat block's id.
    pub block: String,
    /// The canonical trigger (`green_flag`, `key:space`, `click:Cat`, `click:stage`,
    /// `broadcast:game over`, `clone_start:Cat`, `backdrop:end`, `greater_than:timer`,
    /// `procedure:jump %s` for a custom block definition).
    pub trigger: String,
    /// Signals the script writes, sorted (`vars:score`, `lists:items`, `pose`, `costume`,
    /// `visibility`, `backdrop`, `broadcast:win`, `says`, `clones:Enemy`, `sound`).
    pub writes: Vec<String>,
    /// Custom blocks the script calls (their proccode), sorted.
    pub calls: Vec<String>,
}

/// Every hat script of `project`, in target then block order.
pub fn hooks(project: &Project) -> Vec<Hook> {
    let mut out = Vec::new();
    for t in &project.targets {
        let tops = script_tops(&t.blocks);
        let sprite = if t.is_stage { String::from("Stage") } else { t.name.clone() };
        for (idx, hat) in code_blocks(t) {
            if tops.get(idx.get()) != Some(&idx) || hat_at(&t.blocks, idx).is_none() {
                continue;
            }
            let mut writes = BTreeSet::new();
            let mut calls = BTreeSet::new();
            for (j, b) in code_blocks(t) {
                if tops.get(j.get()) == Some(&idx) {
                    written(&t.blocks, b, &sprite, &mut writes);
                    if b.opcode == "procedures_call" {
                        if let Some(m) = &b.mutation {
                            calls.insert(m.proccode.clone().unwrap_or_default());
                        }
                    }
                }
            }
            out.push(Hook {
                sprite: sprite.clone(),
                block: hat.id.clone(),
                trigger: trigger(&t.blocks, hat, &sprite),
                writes: writes.into_iter().collect(),
                calls: calls.into_iter().collect(),
            });
        }
    }
    out
}

fn trigger(blocks: &Blocks, hat: &Block, sprite: &str) -> String {
    let field = |n: &str| field_text(hat, n).unwrap_or_default();
    match hat.opcode.as_str() {
        "event_whenflagclicked" => String::from("green_flag"),
        "event_whenkeypressed" => format!("key:{}", field("KEY_OPTION")),
        "event_whenthisspriteclicked" => format!("click:{sprite}"),
        "event_whenstageclicked" => String::from("click:stage"),
        "event_whenbroadcastreceived" => format!("broadcast:{}", field("BROADCAST_OPTION")),
        "event_whenbackdropswitchesto" => format!("backdrop:{}", field("BACKDROP")),
        "event_whengreaterthan" => {
            format!("greater_than:{}", field("WHENGREATERTHANMENU").to_lowercase())
        }
        "control_start_as_clone" => format!("clone_start:{sprite}"),
        "procedures_definition" => {
            let proto = super::walk::input_block(hat, "custom_block").and_then(|p| blocks.get(p));
            let code = proto.and_then(|p| p.mutation.as_ref()).and_then(|m| m.proccode.clone());
            format!("procedure:{}", code.unwrap_or_default())
        }
        other => other.to_string(),
    }
}

fn written(blocks: &Blocks, b: &Block, sprite: &str, out: &mut BTreeSet<String>) {
    let op = b.opcode.as_str();
    let w = match op {
        "data_setvariableto" | "data_changevariableby" => {
            format!("vars:{}", field_text(b, "VARIABLE").unwrap_or_default())
        }
        "data_addtolist"
        | "data_deleteoflist"
        | "data_deletealloflist"
        | "data_insertatlist"
        | "data_replaceitemoflist" => {
            format!("lists:{}", field_text(b, "LIST").unwrap_or_default())
        }
        "event_broadcast" | "event_broadcastandwait" => {
            format!("broadcast:{}", broadcast_name(blocks, b).unwrap_or_else(|| String::from("?")))
        }
        "looks_switchcostumeto" | "looks_nextcostume" => String::from("costume"),
        "looks_show" | "looks_hide" => String::from("visibility"),
        "looks_switchbackdropto" | "looks_switchbackdroptoandwait" | "looks_nextbackdrop" => {
            String::from("backdrop")
        }
        "looks_say" | "looks_sayforsecs" | "looks_think" | "looks_thinkforsecs" => {
            String::from("says")
        }
        "looks_setsizeto" | "looks_changesizeby" => String::from("pose"),
        "control_create_clone_of" => {
            let menu = input_text(blocks, b, "CLONE_OPTION").unwrap_or_default();
            let who = if menu == "_myself_" { sprite.to_string() } else { menu };
            format!("clones:{who}")
        }
        _ if op.starts_with("motion_") && !is_motion_reporter(op) => String::from("pose"),
        _ if op.starts_with("sound_play") => String::from("sound"),
        _ => return,
    };
    out.insert(w);
}

fn is_motion_reporter(op: &str) -> bool {
    matches!(
        op,
        "motion_xposition"
            | "motion_yposition"
            | "motion_direction"
            | "motion_goto_menu"
            | "motion_glideto_menu"
            | "motion_pointtowards_menu"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scratch::project::load;
    use alloc::vec;

    const PROJECT: &str = r#"{"targets": [
      {"isStage": true, "name": "Stage", "variables": {"s": ["score", 0]}, "lists": {},
       "broadcasts": {"m": "win"}, "blocks": {
        "h": {"opcode": "event_whenbroadcastreceived", "next": "a", "parent": null, "inputs": {},
              "fields": {"BROADCAST_OPTION": ["win", "m"]}, "shadow": false, "topLevel": true, "x": 0, "y": 0},
        "a": {"opcode": "looks_nextbackdrop", "next": null, "parent": "h", "inputs": {}, "fields": {},
              "shadow": false, "topLevel": false}},
       "costumes": [{"name": "b", "assetId": "cd21514d0531fdffb22204e0ec5ed84a", "md5ext": "cd21514d0531fdffb22204e0ec5ed84a.svg", "dataFormat": "svg", "rotationCenterX": 0, "rotationCenterY": 0}],
       "sounds": [], "currentCostume": 0},
      {"isStage": false, "name": "Cat", "variables": {}, "lists": {}, "broadcasts": {}, "blocks": {
        "f": {"opcode": "event_whenflagclicked", "next": "g", "parent": null, "inputs": {}, "fields": {},
              "shadow": false, "topLevel": true, "x": 0, "y": 0},
        "g": {"opcode": "data_setvariableto", "next": "k", "parent": "f", "inputs": {"VALUE": [1, [10, "0"]]},
              "fields": {"VARIABLE": ["score", "s"]}, "shadow": false, "topLevel": false},
        "k": {"opcode": "motion_gotoxy", "next": null, "parent": "g", "inputs": {"X": [1, [4, "0"]], "Y": [1, [4, "0"]]},
              "fields": {}, "shadow": false, "topLevel": false},
        "c": {"opcode": "event_whenthisspriteclicked", "next": "d", "parent": null, "inputs": {}, "fields": {},
              "shadow": false, "topLevel": true, "x": 0, "y": 200},
        "d": {"opcode": "event_broadcast", "next": null, "parent": "c", "inputs": {"BROADCAST_INPUT": [1, [11, "win", "m"]]},
              "fields": {}, "shadow": false, "topLevel": false},
        "loose": {"opcode": "looks_show", "next": null, "parent": null, "inputs": {}, "fields": {},
              "shadow": false, "topLevel": true, "x": 0, "y": 400}},
       "costumes": [{"name": "c", "assetId": "cd21514d0531fdffb22204e0ec5ed84a", "md5ext": "cd21514d0531fdffb22204e0ec5ed84a.svg", "dataFormat": "svg", "rotationCenterX": 0, "rotationCenterY": 0}],
       "sounds": [], "currentCostume": 0}],
      "meta": {"semver": "3.0.0"}}"#;

    #[test]
    fn every_hat_with_its_trigger_and_writes() {
        let p = load(PROJECT.as_bytes()).expect("loads");
        let h = hooks(&p);
        let rows: Vec<(&str, &str, Vec<&str>)> = h
            .iter()
            .map(|h| {
                (
                    h.sprite.as_str(),
                    h.trigger.as_str(),
                    h.writes.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                ("Stage", "broadcast:win", vec!["backdrop"]),
                ("Cat", "green_flag", vec!["pose", "vars:score"]),
                ("Cat", "click:Cat", vec!["broadcast:win"]),
            ]
        );
    }
}
