//! References by id from blocks: variable, list and broadcast fields and inline primitives
//! must name a declaration of that kind visible from the target (the target's own, then the
//! stage's; broadcasts on the stage). Procedure calls and argument reporters against their
//! prototypes, and opcodes against the catalog, are checked separately.

use alloc::format;
use alloc::string::String;

use super::super::blocks::{Block, InputValue, Primitive, PrimitiveKind};
use super::super::edit::DeclKind;
use super::super::model::{Project, Target};
use super::{Pointer, Report, Scope};

/// What a reference id names, looked up where Scratch looks.
enum Found<'a> {
    /// A declaration of the right kind, with its name.
    Right(&'a str),
    /// Only a declaration of another kind.
    WrongKind(DeclKind),
    Missing,
}

fn lookup<'a>(project: &'a Project, target: &'a Target, kind: DeclKind, id: &str) -> Found<'a> {
    let stage = project.stage();
    let scopes = [Some(target), stage.filter(|s| !core::ptr::eq(*s, target))];
    let find = |t: &'a Target, k: DeclKind| -> Option<&'a str> {
        match k {
            DeclKind::Variable => t.variables.iter().find(|v| v.id == id).map(|v| v.name.as_str()),
            DeclKind::List => t.lists.iter().find(|l| l.id == id).map(|l| l.name.as_str()),
            DeclKind::Broadcast => {
                t.broadcasts.iter().find(|b| b.id == id).map(|b| b.name.as_str())
            }
        }
    };
    for t in scopes.into_iter().flatten() {
        if let Some(name) = find(t, kind) {
            return Found::Right(name);
        }
    }
    for other in [DeclKind::Variable, DeclKind::List, DeclKind::Broadcast] {
        if other != kind && scopes.into_iter().flatten().any(|t| find(t, other).is_some()) {
            return Found::WrongKind(other);
        }
    }
    Found::Missing
}

fn kind_of_field(name: &str) -> Option<DeclKind> {
    match name {
        "VARIABLE" => Some(DeclKind::Variable),
        "LIST" => Some(DeclKind::List),
        "BROADCAST_OPTION" => Some(DeclKind::Broadcast),
        _ => None,
    }
}

fn kind_of_primitive(k: PrimitiveKind) -> Option<DeclKind> {
    match k {
        PrimitiveKind::Variable => Some(DeclKind::Variable),
        PrimitiveKind::List => Some(DeclKind::List),
        PrimitiveKind::Broadcast => Some(DeclKind::Broadcast),
        _ => None,
    }
}

fn check_ref(
    project: &Project,
    target: &Target,
    kind: DeclKind,
    id: Option<&str>,
    name: &str,
    ptr: String,
    report: &mut Report,
) {
    let Some(id) = id else {
        report.error(
            "UNRESOLVED_REFERENCE",
            ptr,
            format!("a {} reference without an id", kind.name()),
        );
        return;
    };
    match lookup(project, target, kind, id) {
        Found::Right(declared) => {
            if declared != name {
                report.warn(
                    "REFERENCE_NAME",
                    ptr,
                    format!("names {} {id:?} as {name:?}, declared as {declared:?}", kind.name(),),
                );
            }
        }
        Found::WrongKind(other) => {
            report.error(
                "WRONG_REFERENCE_KIND",
                ptr,
                format!("{id:?} is a {}, not a {}", other.name(), kind.name()),
            );
        }
        Found::Missing => {
            let code = match kind {
                DeclKind::Variable => "UNKNOWN_VARIABLE",
                DeclKind::List => "UNKNOWN_LIST",
                DeclKind::Broadcast => "UNKNOWN_BROADCAST",
            };
            report.error(
                code,
                ptr,
                format!("no {} with id {id:?} visible from {:?}", kind.name(), target.name),
            );
        }
    }
}

fn check_block(project: &Project, target: &Target, t: usize, b: &Block, report: &mut Report) {
    for f in &b.fields {
        let Some(kind) = kind_of_field(&f.name) else { continue };
        // Menus named like these on extension blocks hold plain values, not ids.
        if f.id.is_none() && !f.has_id_slot {
            continue;
        }
        let name = match &f.value {
            super::super::model::Literal::Text(s) => s.clone(),
            other => format!("{other:?}"),
        };
        let ptr = Pointer::block(t, &b.id).key("fields").key(&f.name).into_string();
        check_ref(project, target, kind, f.id.as_deref(), &name, ptr, report);
    }
    for input in &b.inputs {
        for (at, v) in [(1, &input.value), (2, &input.shadow)] {
            if let Some(InputValue::Primitive(Primitive::Reference { kind, name, id })) = v {
                let Some(kind) = kind_of_primitive(*kind) else { continue };
                let ptr =
                    Pointer::block(t, &b.id).key("inputs").key(&input.name).index(at).into_string();
                check_ref(project, target, kind, Some(id), name, ptr, report);
            }
        }
    }
}

pub(super) fn check(project: &Project, scope: Scope<'_>, report: &mut Report) {
    for (t, target) in scope.targets(project) {
        for b in target.blocks.as_slice() {
            check_block(project, target, t, b, report);
        }
        check_decl_names(project, t, target, report);
    }
}

/// Two declarations of one kind with the same name visible together (Scratch prevents it).
fn check_decl_names(project: &Project, t: usize, target: &Target, report: &mut Report) {
    let stage = project.stage().filter(|s| !core::ptr::eq(*s, target));
    let names = |t: &Target, k: DeclKind| -> alloc::vec::Vec<(String, String)> {
        match k {
            DeclKind::Variable => {
                t.variables.iter().map(|v| (v.id.clone(), v.name.clone())).collect()
            }
            DeclKind::List => t.lists.iter().map(|v| (v.id.clone(), v.name.clone())).collect(),
            DeclKind::Broadcast => {
                t.broadcasts.iter().map(|v| (v.id.clone(), v.name.clone())).collect()
            }
        }
    };
    for kind in [DeclKind::Variable, DeclKind::List] {
        let own = names(target, kind);
        let global = stage.map(|s| names(s, kind)).unwrap_or_default();
        for (i, (id, name)) in own.iter().enumerate() {
            let dup_own = own[..i].iter().any(|(_, n)| n == name);
            let dup_global = global.iter().any(|(gid, n)| n == name && gid != id);
            if dup_own || dup_global {
                let key = match kind {
                    DeclKind::Variable => "variables",
                    _ => "lists",
                };
                let ptr = Pointer::target(t).key(key).key(id).into_string();
                report.warn(
                    "DUPLICATE_NAME",
                    ptr,
                    format!("another {} named {name:?} is visible here", kind.name()),
                );
            }
        }
    }
    if !target.is_stage && !target.broadcasts.is_empty() {
        let ptr = Pointer::target(t).key("broadcasts").into_string();
        report.warn("BROADCAST_NOT_ON_STAGE", ptr, "broadcast messages belong to the stage".into());
    }
}
