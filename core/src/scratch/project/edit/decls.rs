//! Declaration edits: add, rename and remove variables, lists and broadcast messages. These
//! work on the whole [`Project`], because a stage declaration is visible from every sprite:
//! renaming updates the fields, inline primitives and monitors that refer to the id wherever
//! it is visible; removing refuses while a block still refers to it.

use alloc::string::String;
use alloc::vec::Vec;

use super::super::blocks::{Block, InputValue, Primitive, PrimitiveKind};
use super::super::json::Json;
use super::super::model::{Broadcast, List, Monitor, Project, Variable};
use super::error::{DeclKind, EditError};

/// A variable, list or broadcast declaration.
#[derive(Debug, Clone, PartialEq)]
pub enum Decl {
    /// A variable.
    Variable(Variable),
    /// A list.
    List(List),
    /// A broadcast message.
    Broadcast(Broadcast),
}

impl Decl {
    /// Which kind it is.
    pub fn kind(&self) -> DeclKind {
        match self {
            Decl::Variable(_) => DeclKind::Variable,
            Decl::List(_) => DeclKind::List,
            Decl::Broadcast(_) => DeclKind::Broadcast,
        }
    }

    /// Its id.
    pub fn id(&self) -> &str {
        match self {
            Decl::Variable(v) => &v.id,
            Decl::List(l) => &l.id,
            Decl::Broadcast(b) => &b.id,
        }
    }

    /// Its name.
    pub fn name(&self) -> &str {
        match self {
            Decl::Variable(v) => &v.name,
            Decl::List(l) => &l.name,
            Decl::Broadcast(b) => &b.name,
        }
    }
}

impl DeclKind {
    /// The field that names a declaration of this kind (`VARIABLE`, `LIST`,
    /// `BROADCAST_OPTION`).
    pub fn field_name(self) -> &'static str {
        match self {
            DeclKind::Variable => "VARIABLE",
            DeclKind::List => "LIST",
            DeclKind::Broadcast => "BROADCAST_OPTION",
        }
    }

    /// The compressed primitive kind that names a declaration of this kind.
    pub fn primitive(self) -> PrimitiveKind {
        match self {
            DeclKind::Variable => PrimitiveKind::Variable,
            DeclKind::List => PrimitiveKind::List,
            DeclKind::Broadcast => PrimitiveKind::Broadcast,
        }
    }
}

/// The `(id, name)` of every declaration of `kind` in target `t`, in file order.
pub fn decls(project: &Project, t: usize, kind: DeclKind) -> Vec<(&str, &str)> {
    let Some(target) = project.targets.get(t) else { return Vec::new() };
    match kind {
        DeclKind::Variable => {
            target.variables.iter().map(|v| (v.id.as_str(), v.name.as_str())).collect()
        }
        DeclKind::List => target.lists.iter().map(|l| (l.id.as_str(), l.name.as_str())).collect(),
        DeclKind::Broadcast => {
            target.broadcasts.iter().map(|b| (b.id.as_str(), b.name.as_str())).collect()
        }
    }
}

/// The targets from which a declaration of target `t` is visible: all of them for the stage,
/// else `t` alone.
fn scope(project: &Project, t: usize) -> Vec<usize> {
    if project.targets.get(t).is_some_and(|x| x.is_stage) {
        (0..project.targets.len()).collect()
    } else {
        alloc::vec![t]
    }
}

/// Whether block `b` refers to declaration `id` of `kind` (a field or an inline primitive).
pub fn block_uses(b: &Block, kind: DeclKind, id: &str) -> bool {
    let field = b.fields.iter().any(|f| f.name == kind.field_name() && f.id.as_deref() == Some(id));
    field
        || b.inputs.iter().any(|i| {
            [&i.value, &i.shadow].into_iter().any(|v| {
                matches!(v, Some(InputValue::Primitive(Primitive::Reference { kind: k, id: r, .. }))
                if *k == kind.primitive() && r == id)
            })
        })
}

fn monitor_uses(m: &Monitor, kind: DeclKind, id: &str) -> bool {
    m.id == id && m.params.iter().any(|(k, _)| k == kind.field_name())
}

impl Project {
    /// Adds a declaration to target `t` at position `at` of its list (the end when `None`).
    /// The id must be new among that kind in the targets that would see it (a sprite sees its
    /// own and the stage's; a stage declaration is seen by every sprite), and the name new in
    /// target `t` (broadcasts ignoring case). A sprite-local name may shadow a global one: Scratch
    /// files hold such projects, references go by id, and a patch's inverse or a diff must
    /// reach every state a file can be in.
    pub fn add_decl(&mut self, t: usize, decl: Decl, at: Option<usize>) -> Result<(), EditError> {
        let kind = decl.kind();
        let stage = self.stage_index();
        let Some(target) = self.targets.get(t) else {
            return Err(EditError::UnknownDecl { kind, id: decl.id().into() });
        };
        let mut clash_scope = scope(self, t);
        if !target.is_stage {
            clash_scope.push(stage);
        }
        for s in clash_scope {
            for (id, name) in decls(self, s, kind) {
                if id == decl.id() {
                    return Err(EditError::NameTaken { kind, name: id.into() });
                }
                // Broadcast names are matched case-insensitively by Scratch.
                let same = match kind {
                    DeclKind::Broadcast => name.to_lowercase() == decl.name().to_lowercase(),
                    _ => name == decl.name(),
                };
                // Only a duplicate in the same target is refused: a sprite-local name that
                // shadows a global one is a state Scratch files hold and load (references go
                // by id), and a patch (a diff, an inverse) must be able to reach it.
                if same && s == t {
                    return Err(EditError::NameTaken { kind, name: name.into() });
                }
            }
        }
        let Some(target) = self.targets.get_mut(t) else { return Err(EditError::TooLarge) };
        fn put<T>(list: &mut Vec<T>, item: T, at: Option<usize>) {
            let pos = at.unwrap_or(list.len()).min(list.len());
            list.insert(pos, item);
        }
        match decl {
            Decl::Variable(v) => put(&mut target.variables, v, at),
            Decl::List(l) => put(&mut target.lists, l, at),
            Decl::Broadcast(b) => put(&mut target.broadcasts, b, at),
        }
        Ok(())
    }

    /// The position of declaration `id` of `kind` in target `t`'s list.
    pub fn decl_position(&self, t: usize, kind: DeclKind, id: &str) -> Option<usize> {
        decls(self, t, kind).iter().position(|(i, _)| *i == id)
    }

    /// Renames declaration `id` of `kind` in target `t`, and every field, inline primitive and
    /// monitor that refers to it where it is visible. Returns the old name. The new name must
    /// be free in target `t` (shadowing across the stage and a sprite is allowed).
    pub fn rename_decl(
        &mut self,
        t: usize,
        kind: DeclKind,
        id: &str,
        name: &str,
    ) -> Result<String, EditError> {
        let pos = self
            .decl_position(t, kind, id)
            .ok_or(EditError::UnknownDecl { kind, id: id.into() })?;
        let unchanged = decls(self, t, kind).get(pos).is_some_and(|(_, n)| *n == name);
        if unchanged {
            return Ok(name.into());
        }
        // The new name must not clash with another declaration of the same target
        // (shadowing across the stage and a sprite is allowed, as in `add_decl`).
        let mut check: Vec<(String, String)> = decls(self, t, kind)
            .into_iter()
            .map(|(i, n)| (String::from(i), String::from(n)))
            .collect();
        check.retain(|(i, _)| i != id);
        if check.iter().any(|(_, n)| n == name) {
            return Err(EditError::NameTaken { kind, name: name.into() });
        }
        let Some(target) = self.targets.get_mut(t) else { return Err(EditError::TooLarge) };
        let old = match kind {
            DeclKind::Variable => core::mem::replace(&mut target.variables[pos].name, name.into()),
            DeclKind::List => core::mem::replace(&mut target.lists[pos].name, name.into()),
            DeclKind::Broadcast => {
                core::mem::replace(&mut target.broadcasts[pos].name, name.into())
            }
        };
        for s in scope(self, t) {
            let Some(target) = self.targets.get_mut(s) else { continue };
            for b in target.blocks.list.iter_mut() {
                rename_in_block(b, kind, id, name);
            }
        }
        for m in &mut self.monitors {
            if monitor_uses(m, kind, id) {
                for (k, v) in &mut m.params {
                    if k == kind.field_name() {
                        *v = Json::String(name.into());
                    }
                }
            }
        }
        Ok(old)
    }

    /// Removes declaration `id` of `kind` from target `t`, with the monitors showing it.
    /// Refused ([`EditError::InUse`]) while a block where it is visible refers to it. Returns
    /// the declaration, its position, and the removed monitors with their positions.
    pub fn remove_decl(
        &mut self,
        t: usize,
        kind: DeclKind,
        id: &str,
    ) -> Result<RemovedDecl, EditError> {
        let pos = self
            .decl_position(t, kind, id)
            .ok_or(EditError::UnknownDecl { kind, id: id.into() })?;
        for s in scope(self, t) {
            let Some(target) = self.targets.get(s) else { continue };
            if let Some(b) = target.blocks.as_slice().iter().find(|b| block_uses(b, kind, id)) {
                return Err(EditError::InUse {
                    kind,
                    id: id.into(),
                    target: target.name.clone(),
                    block: b.id.clone(),
                });
            }
        }
        let Some(target) = self.targets.get_mut(t) else { return Err(EditError::TooLarge) };
        let decl = match kind {
            DeclKind::Variable => Decl::Variable(target.variables.remove(pos)),
            DeclKind::List => Decl::List(target.lists.remove(pos)),
            DeclKind::Broadcast => Decl::Broadcast(target.broadcasts.remove(pos)),
        };
        let mut monitors = Vec::new();
        let mut i = 0;
        let mut original = 0;
        while i < self.monitors.len() {
            if monitor_uses(&self.monitors[i], kind, id) {
                monitors.push((original, self.monitors.remove(i)));
            } else {
                i += 1;
            }
            original += 1;
        }
        Ok(RemovedDecl { decl, position: pos, monitors })
    }
}

/// What [`Project::remove_decl`] took out.
#[derive(Debug, Clone, PartialEq)]
pub struct RemovedDecl {
    /// The declaration.
    pub decl: Decl,
    /// Its former position in its target's list.
    pub position: usize,
    /// The monitors removed with it, with their former positions in `Project::monitors`.
    pub monitors: Vec<(usize, Monitor)>,
}

fn rename_in_block(b: &mut Block, kind: DeclKind, id: &str, name: &str) {
    for f in &mut b.fields {
        if f.name == kind.field_name() && f.id.as_deref() == Some(id) {
            f.value = super::super::model::Literal::Text(name.into());
        }
    }
    for i in &mut b.inputs {
        for v in [&mut i.value, &mut i.shadow] {
            if let Some(InputValue::Primitive(Primitive::Reference { kind: k, id: r, name: n })) = v
            {
                if *k == kind.primitive() && r == id {
                    *n = name.into();
                }
            }
        }
    }
}
