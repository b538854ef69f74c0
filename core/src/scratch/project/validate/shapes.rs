//! Opcodes and shapes against the block catalog: unknown opcodes and undeclared extensions
//! (warnings), and what connects where: only stack blocks follow a block, nothing follows a
//! cap (a warning: they never run), C-slots hold stacks, value inputs hold reporters
//! (errors), booleans go in boolean slots (warning).

use alloc::format;

use super::super::blocks::{Block, Blocks, InputValue};
use super::super::model::{Literal, Project};
use super::{Pointer, Report, Scope};
use crate::scratch::catalog::{self, BlockInfo, Shape, Slot};

/// Whether a known block may have a block after it.
fn takes_next(b: &Block, info: &BlockInfo) -> bool {
    if b.opcode == "control_stop" {
        let option = b.field("STOP_OPTION").map(|f| match &f.value {
            Literal::Text(s) => s.as_str(),
            _ => "",
        });
        let mutation_says = b.mutation.as_ref().and_then(|m| m.has_next);
        return mutation_says.unwrap_or_else(|| option.is_some_and(catalog::stop_has_next));
    }
    info.has_next()
}

pub(super) fn check(project: &Project, scope: Scope<'_>, report: &mut Report) {
    for (t, target) in scope.targets(project) {
        let blocks = &target.blocks;
        for b in blocks.as_slice() {
            let ptr = || Pointer::block(t, &b.id);
            let Some(info) = catalog::lookup(&b.opcode) else {
                let why = match catalog::extension_of(&b.opcode) {
                    Some(ext) => format!(
                        "opcode {:?} of extension {ext:?} is unknown to gobo (it runs as a no-op)",
                        b.opcode
                    ),
                    None => format!("unknown opcode {:?} (it runs as a no-op)", b.opcode),
                };
                report.warn("UNKNOWN_OPCODE", ptr().key("opcode").into_string(), why);
                continue;
            };
            if let Some(ext) = info.extension() {
                if !project.extensions.iter().any(|e| e == ext) {
                    let msg = format!("uses extension {ext:?}, which `extensions` does not list");
                    report.warn("EXTENSION_NOT_DECLARED", ptr().key("opcode").into_string(), msg);
                }
            }
            check_links(blocks, t, b, info, report);
        }
    }
}

fn shape_of(blocks: &Blocks, v: &InputValue) -> Option<(Shape, bool)> {
    let InputValue::Block(c) = v else { return None };
    let child = blocks.get(*c)?;
    catalog::lookup(&child.opcode).map(|i| (i.shape, child.shadow))
}

fn check_links(blocks: &Blocks, t: usize, b: &Block, info: &BlockInfo, report: &mut Report) {
    if let Some(next) = b.next.and_then(|n| blocks.get(n)) {
        let ptr = || Pointer::block(t, &b.id).key("next").into_string();
        if !takes_next(b, info) {
            let msg = format!("{:?} ends a stack: the blocks after it never run", b.opcode);
            report.warn("UNREACHABLE_BLOCK", ptr(), msg);
        }
        if let Some(n) = catalog::lookup(&next.opcode) {
            if !n.has_previous() {
                report.error(
                    "SHAPE_MISMATCH",
                    ptr(),
                    format!("{:?} cannot follow another block", next.opcode),
                );
            }
        }
    }
    for input in &b.inputs {
        let Some(slot) = info.input(&input.name).map(|i| i.slot) else { continue };
        let Some(value) = &input.value else { continue };
        let Some((shape, is_shadow)) = shape_of(blocks, value) else { continue };
        if is_shadow {
            continue;
        }
        let ptr = || Pointer::block(t, &b.id).key("inputs").key(&input.name).index(1).into_string();
        match slot {
            Slot::Statement if !matches!(shape, Shape::Stack | Shape::Cap) => {
                report.error(
                    "SHAPE_MISMATCH",
                    ptr(),
                    "a C-slot holds a block that is not a stack block".into(),
                );
            }
            Slot::Value { .. } | Slot::Boolean
                if !matches!(shape, Shape::Reporter | Shape::Boolean | Shape::Menu) =>
            {
                report.error(
                    "SHAPE_MISMATCH",
                    ptr(),
                    "a value input holds a block that reports nothing".into(),
                );
            }
            Slot::Boolean if shape == Shape::Reporter => {
                report.warn(
                    "SHAPE_MISMATCH",
                    ptr(),
                    "a boolean input holds a round reporter".into(),
                );
            }
            _ => {}
        }
    }
}
