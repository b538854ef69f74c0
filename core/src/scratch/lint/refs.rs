//! The references a block holds (variable, list and broadcast fields and inline primitives)
//! and how scratch-vm resolves one: by id in the target then the stage, else by name.

use alloc::string::String;
use alloc::vec::Vec;

use crate::scratch::forge::walk::literal_text;
use crate::scratch::project::{Block, InputValue, Primitive, PrimitiveKind, Project, Target};

/// What a reference names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Kind {
    Variable,
    List,
    Broadcast,
}

impl Kind {
    pub(super) fn noun(self) -> &'static str {
        match self {
            Kind::Variable => "variable",
            Kind::List => "list",
            Kind::Broadcast => "broadcast",
        }
    }
}

/// One reference slot of a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Ref<'a> {
    pub kind: Kind,
    /// `fields.VARIABLE`, `inputs.VALUE[1]`...
    pub slot: String,
    pub id: Option<&'a str>,
    pub name: String,
}

/// The reference slots of `b`, in field then input order. Fields without an id slot (menus of
/// extension blocks named like these) hold plain values and are skipped.
pub(super) fn refs_of(b: &Block) -> Vec<Ref<'_>> {
    let mut out = Vec::new();
    for f in &b.fields {
        let kind = match f.name.as_str() {
            "VARIABLE" => Kind::Variable,
            "LIST" => Kind::List,
            "BROADCAST_OPTION" => Kind::Broadcast,
            _ => continue,
        };
        if f.id.is_none() && !f.has_id_slot {
            continue;
        }
        let mut slot = String::from("fields.");
        slot.push_str(&f.name);
        out.push(Ref { kind, slot, id: f.id.as_deref(), name: literal_text(&f.value) });
    }
    for input in &b.inputs {
        for (at, v) in [("[1]", &input.value), ("[2]", &input.shadow)] {
            if let Some(InputValue::Primitive(Primitive::Reference { kind, name, id })) = v {
                let kind = match kind {
                    PrimitiveKind::Variable => Kind::Variable,
                    PrimitiveKind::List => Kind::List,
                    PrimitiveKind::Broadcast => Kind::Broadcast,
                    _ => continue,
                };
                let mut slot = String::from("inputs.");
                slot.push_str(&input.name);
                slot.push_str(at);
                out.push(Ref { kind, slot, id: Some(id), name: name.clone() });
            }
        }
    }
    out
}

/// A declaration: its id, name and whether it is the stage's (global).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Decl<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub global: bool,
}

/// The declarations of `kind` a target owns.
pub(super) fn decls(t: &Target, kind: Kind) -> Vec<Decl<'_>> {
    let g = t.is_stage;
    match kind {
        Kind::Variable => {
            t.variables.iter().map(|v| Decl { id: &v.id, name: &v.name, global: g }).collect()
        }
        Kind::List => {
            t.lists.iter().map(|v| Decl { id: &v.id, name: &v.name, global: g }).collect()
        }
        Kind::Broadcast => {
            t.broadcasts.iter().map(|v| Decl { id: &v.id, name: &v.name, global: g }).collect()
        }
    }
}

/// The scopes scratch-vm searches from `target`: the target, then the stage.
pub(super) fn scopes<'a>(project: &'a Project, target: &'a Target) -> Vec<&'a Target> {
    let mut out = alloc::vec![target];
    if let Some(stage) = project.stage().filter(|s| !core::ptr::eq(*s, target)) {
        out.push(stage);
    }
    out
}

/// The declaration `id` names in scope (scratch-vm's `lookupVariableById`; broadcasts live on
/// the stage but are found from any target the same way).
pub(super) fn by_id<'a>(scopes: &[&'a Target], kind: Kind, id: &str) -> Option<Decl<'a>> {
    scopes.iter().find_map(|t| decls(t, kind).into_iter().find(|d| d.id == id))
}

/// The declaration a name binds to in scope (`lookupVariableByNameAndType`; broadcast names
/// compare case-insensitively, as `lookupBroadcastByInputValue`).
pub(super) fn by_name<'a>(scopes: &[&'a Target], kind: Kind, name: &str) -> Option<Decl<'a>> {
    scopes.iter().find_map(|t| {
        decls(t, kind).into_iter().find(|d| match kind {
            Kind::Broadcast => d.name.to_lowercase() == name.to_lowercase(),
            _ => d.name == name,
        })
    })
}

/// The declaration a reference binds to when the program runs, if any.
pub(super) fn resolve<'a>(scopes: &[&'a Target], r: &Ref<'_>) -> Option<Decl<'a>> {
    r.id.and_then(|id| by_id(scopes, r.kind, id)).or_else(|| by_name(scopes, r.kind, &r.name))
}
