//! Custom blocks: each definition has a prototype whose argument ids, names and defaults
//! agree; each call names a prototype of its target with the same argument ids; argument
//! reporters name an argument of the definition they are in.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::blocks::{Block, BlockIdx, Blocks, InputValue, Mutation};
use super::super::model::{Literal, Project};
use super::{Pointer, Report, Scope};

/// The prototype block of a `procedures_definition`.
fn prototype<'a>(blocks: &'a Blocks, def: &Block) -> Option<&'a Block> {
    match def.input("custom_block")?.value.as_ref()? {
        InputValue::Block(p) => blocks.get(*p).filter(|p| p.opcode == "procedures_prototype"),
        InputValue::Primitive(_) => None,
    }
}

fn arg_count(proccode: &str) -> usize {
    // `%s`, `%n`, `%b` are arguments; `%%` is not used by Scratch.
    let bytes = proccode.as_bytes();
    bytes.windows(2).filter(|w| w[0] == b'%' && matches!(w[1], b's' | b'n' | b'b')).count()
}

pub(super) fn check(project: &Project, scope: Scope<'_>, report: &mut Report) {
    for (t, target) in scope.targets(project) {
        let blocks = &target.blocks;
        let mut protos: Vec<(&str, &Mutation, &Block)> = Vec::new();
        for b in blocks.as_slice() {
            if b.opcode == "procedures_definition" && prototype(blocks, b).is_none() {
                let ptr = Pointer::block(t, &b.id).key("inputs").key("custom_block").into_string();
                report.error(
                    "PROTOTYPE_MISSING",
                    ptr,
                    "a definition without its procedures_prototype".into(),
                );
            }
            if b.opcode != "procedures_prototype" {
                continue;
            }
            let ptr = || Pointer::block(t, &b.id).key("mutation");
            let Some(m) = &b.mutation else {
                report.error(
                    "PROTOTYPE_MISMATCH",
                    ptr().into_string(),
                    "a prototype without a mutation".into(),
                );
                continue;
            };
            let Some(code) = m.proccode.as_deref() else {
                report.error(
                    "PROTOTYPE_MISMATCH",
                    ptr().key("proccode").into_string(),
                    "a prototype without proccode".into(),
                );
                continue;
            };
            let ids = m.argument_ids.as_ref().map_or(0, Vec::len);
            let names = m.argument_names.as_ref().map_or(0, Vec::len);
            if ids != names {
                let msg = format!("{ids} argument ids but {names} argument names");
                report.error("PROTOTYPE_MISMATCH", ptr().key("argumentnames").into_string(), msg);
            } else if arg_count(code) != ids {
                let msg = format!(
                    "proccode {code:?} has {} arguments, argumentids {ids}",
                    arg_count(code)
                );
                report.warn("PROTOTYPE_MISMATCH", ptr().key("argumentids").into_string(), msg);
            }
            if let Some(defaults) = &m.argument_defaults {
                if defaults.len() != ids {
                    let msg = format!("{} argument defaults for {ids} arguments", defaults.len());
                    report.warn(
                        "PROTOTYPE_MISMATCH",
                        ptr().key("argumentdefaults").into_string(),
                        msg,
                    );
                }
            }
            if protos.iter().any(|(c, _, _)| *c == code) {
                report.warn(
                    "DUPLICATE_PROCEDURE",
                    ptr().key("proccode").into_string(),
                    format!("{code:?} is defined twice"),
                );
            } else {
                protos.push((code, m, b));
            }
        }
        for b in blocks.as_slice() {
            match b.opcode.as_str() {
                "procedures_call" => check_call(t, b, &protos, report),
                "argument_reporter_string_number" | "argument_reporter_boolean" => {
                    check_argument(blocks, t, b, report)
                }
                _ => {}
            }
        }
    }
}

fn check_call(t: usize, b: &Block, protos: &[(&str, &Mutation, &Block)], report: &mut Report) {
    let ptr = || Pointer::block(t, &b.id).key("mutation");
    let Some(code) = b.mutation.as_ref().and_then(|m| m.proccode.as_deref()) else {
        report.error("UNKNOWN_PROCEDURE", ptr().into_string(), "a call without proccode".into());
        return;
    };
    let Some((_, proto, _)) = protos.iter().find(|(c, _, _)| *c == code) else {
        report.error(
            "UNKNOWN_PROCEDURE",
            ptr().key("proccode").into_string(),
            format!("no definition of {code:?} in this target"),
        );
        return;
    };
    let call_ids = b.mutation.as_ref().and_then(|m| m.argument_ids.as_ref());
    if call_ids != proto.argument_ids.as_ref() {
        report.error(
            "CALL_MISMATCH",
            ptr().key("argumentids").into_string(),
            format!("argument ids differ from the definition of {code:?}"),
        );
    }
    let ids = proto.argument_ids.as_deref().unwrap_or(&[]);
    for input in &b.inputs {
        if !ids.contains(&input.name) {
            let p = Pointer::block(t, &b.id).key("inputs").key(&input.name).into_string();
            report.warn(
                "CALL_MISMATCH",
                p,
                format!("input {:?} is not an argument of {code:?}", input.name),
            );
        }
    }
}

fn check_argument(blocks: &Blocks, t: usize, b: &Block, report: &mut Report) {
    let Some(idx) = blocks.index_of(&b.id) else { return };
    let root: BlockIdx = blocks.script_root(idx);
    let Some(root_block) = blocks.get(root) else { return };
    // Inside a prototype (the definition's own argument shadows): fine.
    if root_block.opcode == "procedures_prototype"
        || blocks
            .get(idx)
            .and_then(|x| x.parent)
            .and_then(|p| blocks.get(p))
            .is_some_and(|p| p.opcode == "procedures_prototype")
    {
        return;
    }
    let name: String = match b.field("VALUE").map(|f| &f.value) {
        Some(Literal::Text(s)) => s.clone(),
        _ => String::new(),
    };
    let ptr = Pointer::block(t, &b.id).key("fields").key("VALUE").into_string();
    if root_block.opcode != "procedures_definition" {
        report.warn(
            "UNKNOWN_ARGUMENT",
            ptr,
            format!("argument {name:?} outside a definition reports its default"),
        );
        return;
    }
    let names = prototype(blocks, root_block)
        .and_then(|p| p.mutation.as_ref())
        .and_then(|m| m.argument_names.as_ref());
    if !names.is_some_and(|n| n.contains(&name)) {
        report.warn("UNKNOWN_ARGUMENT", ptr, format!("the definition has no argument {name:?}"));
    }
}
