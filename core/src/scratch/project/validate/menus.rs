//! Menu values that name things by name: costumes, backdrops, sounds and sprites. A name that
//! does not exist is a warning (Scratch does nothing, or picks by number, at run time).

use alloc::format;
use alloc::vec::Vec;

use super::super::model::{Literal, Project, Target};
use super::{Pointer, Report, Scope};

/// What a menu field may name besides its special values.
#[derive(Clone, Copy)]
enum Names {
    Costumes,
    Backdrops,
    Sounds,
    Sprites,
}

/// `(opcode, field, what it names, special values)`.
const MENUS: &[(&str, &str, Names, &[&str])] = &[
    ("looks_costume", "COSTUME", Names::Costumes, &[]),
    (
        "looks_backdrops",
        "BACKDROP",
        Names::Backdrops,
        &["next backdrop", "previous backdrop", "random backdrop"],
    ),
    ("event_whenbackdropswitchesto", "BACKDROP", Names::Backdrops, &[]),
    ("sound_sounds_menu", "SOUND_MENU", Names::Sounds, &[]),
    ("motion_goto_menu", "TO", Names::Sprites, &["_random_", "_mouse_"]),
    ("motion_glideto_menu", "TO", Names::Sprites, &["_random_", "_mouse_"]),
    ("motion_pointtowards_menu", "TOWARDS", Names::Sprites, &["_mouse_", "_random_"]),
    ("sensing_touchingobjectmenu", "TOUCHINGOBJECTMENU", Names::Sprites, &["_mouse_", "_edge_"]),
    ("sensing_distancetomenu", "DISTANCETOMENU", Names::Sprites, &["_mouse_"]),
    ("sensing_of_object_menu", "OBJECT", Names::Sprites, &["_stage_"]),
    ("control_create_clone_of_menu", "CLONE_OPTION", Names::Sprites, &["_myself_"]),
];

pub(super) fn check(project: &Project, scope: Scope<'_>, report: &mut Report) {
    let stage = project.stage();
    let sprites: Vec<&str> =
        project.targets.iter().filter(|t| !t.is_stage).map(|t| t.name.as_str()).collect();
    for (t, target) in scope.targets(project) {
        for b in target.blocks.as_slice() {
            let Some((_, field, names, special)) = MENUS.iter().find(|(op, ..)| *op == b.opcode)
            else {
                continue;
            };
            let Some(f) = b.field(field) else { continue };
            let value = match &f.value {
                Literal::Text(s) => s.as_str(),
                // Numbers pick by position at run time.
                _ => continue,
            };
            if special.contains(&value) || known(*names, value, target, stage, &sprites) {
                continue;
            }
            let ptr = Pointer::block(t, &b.id).key("fields").key(field).into_string();
            report.warn("UNKNOWN_MENU_VALUE", ptr, format!("{value:?} names no {}", what(*names)));
        }
    }
}

fn known(
    names: Names,
    value: &str,
    target: &Target,
    stage: Option<&Target>,
    sprites: &[&str],
) -> bool {
    match names {
        Names::Costumes => target.costumes.iter().any(|c| c.name == value),
        Names::Backdrops => stage.is_some_and(|s| s.costumes.iter().any(|c| c.name == value)),
        Names::Sounds => target.sounds.iter().any(|s| s.name == value),
        Names::Sprites => sprites.contains(&value),
    }
}

fn what(names: Names) -> &'static str {
    match names {
        Names::Costumes => "costume of this target",
        Names::Backdrops => "backdrop",
        Names::Sounds => "sound of this target",
        Names::Sprites => "sprite",
    }
}
