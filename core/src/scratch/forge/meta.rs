//! Project metadata for scenario instantiation (SPEC §2.5, `EXTRACTMETADATA`): the keys a
//! project listens to, the sprites that react to clicks, the messages it receives, whether it
//! asks questions or reads the mouse, and the variables a player loses (lives, health), which
//! the `flag_drive` template writes. Static: read from the blocks, nothing runs.

use alloc::collections::BTreeSet;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use super::walk::{code_blocks, field_text, input_block, literal_text};
use crate::scratch::project::Project;

/// What the templates can drive in a project.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Metadata {
    /// Scratch key names from `when key pressed` hats and `key pressed?` menus, sorted
    /// (`any` becomes `space`).
    pub keys: Vec<String>,
    /// Sprites with a `when this sprite clicked` hat (and `Stage` for `when stage clicked`),
    /// in target order.
    pub clickable: Vec<String>,
    /// Messages with a `when I receive` hat, sorted.
    pub messages: Vec<String>,
    /// The project asks questions (`ask and wait`).
    pub asks: bool,
    /// The project reads the mouse (position, button, `go to mouse-pointer`...).
    pub mouse: bool,
    /// Variables named like a life counter (`lives`, `health`, `hp`...), as `[sprite, name]`
    /// (`Stage` for globals): `flag_drive` sets them to 0.
    pub counters: Vec<[String; 2]>,
}

const MOUSE_OPCODES: [&str; 3] = ["sensing_mousex", "sensing_mousey", "sensing_mousedown"];

fn is_counter(name: &str) -> bool {
    let n = name.to_lowercase();
    ["lives", "life", "health", "hearts", "hp"].iter().any(|w| n == *w || n.starts_with(w))
}

/// Reads a project's metadata.
pub fn extract(project: &Project) -> Metadata {
    let mut keys = BTreeSet::new();
    let mut messages = BTreeSet::new();
    let mut m = Metadata::default();
    for t in &project.targets {
        let mut clicked = false;
        for (_, b) in code_blocks(t) {
            match b.opcode.as_str() {
                "event_whenkeypressed" => {
                    if let Some(k) = field_text(b, "KEY_OPTION") {
                        keys.insert(if k == "any" { String::from("space") } else { k });
                    }
                }
                "sensing_keypressed" => {
                    let menu = input_block(b, "KEY_OPTION").and_then(|i| t.blocks.get(i));
                    if let Some(k) = menu.filter(|m| m.shadow).and_then(|m| m.fields.first()) {
                        let k = literal_text(&k.value);
                        keys.insert(if k == "any" { String::from("space") } else { k });
                    }
                }
                "event_whenthisspriteclicked" | "event_whenstageclicked" => clicked = true,
                "event_whenbroadcastreceived" => {
                    if let Some(msg) = field_text(b, "BROADCAST_OPTION") {
                        messages.insert(msg);
                    }
                }
                "sensing_askandwait" => m.asks = true,
                op if MOUSE_OPCODES.contains(&op) => m.mouse = true,
                _ => {}
            }
        }
        // Menus naming the mouse pointer (go to, point towards, touching, distance).
        if t.blocks
            .iter()
            .any(|(_, b)| b.shadow && b.fields.iter().any(|f| literal_text(&f.value) == "_mouse_"))
        {
            m.mouse = true;
        }
        if clicked {
            m.clickable.push(if t.is_stage { String::from("Stage") } else { t.name.clone() });
        }
        let owner = if t.is_stage { "Stage" } else { t.name.as_str() };
        for v in t.variables.iter().filter(|v| is_counter(&v.name)) {
            m.counters.push([owner.to_string(), v.name.clone()]);
        }
    }
    m.keys = keys.into_iter().collect();
    m.messages = messages.into_iter().collect();
    m
}
