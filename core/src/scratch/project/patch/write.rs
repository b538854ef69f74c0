//! Writing edits back as patch JSON (what `invert` and `diff` print), the exact inverse of
//! `parse.rs`: parsing what this writes gives the same edits.

use alloc::string::String;
use alloc::vec::Vec;

use super::super::blocks::Primitive;
use super::super::edit::{DeclKind, RemoveMode};
use super::super::json::{Json, Num};
use super::super::model::Literal;
use super::model::{
    BlockEdit, BlockSpec, Child, DeclPath, DeclRef, EditKind, FieldSpec, InputSpec, Link, ModPath,
    TargetRef,
};

fn s(text: &str) -> Json {
    Json::String(text.into())
}

fn lit(l: &Literal) -> Json {
    match l {
        Literal::Number(n) => Json::Number(*n),
        Literal::Text(t) => s(t),
        Literal::Bool(b) => Json::Bool(*b),
        Literal::Null => Json::Null,
    }
}

fn obj(pairs: Vec<(&str, Json)>) -> Json {
    Json::Object(pairs.into_iter().map(|(k, v)| (String::from(k), v)).collect())
}

/// A whole patch as JSON.
pub fn edits_to_json(edits: &[BlockEdit]) -> Json {
    Json::Array(edits.iter().map(edit_to_json).collect())
}

/// One edit as JSON.
pub fn edit_to_json(e: &BlockEdit) -> Json {
    let target = match &e.target {
        TargetRef::Name(n) => s(n),
        TargetRef::Index(i) => s(&alloc::format!("#{i}")),
    };
    let mut o: Vec<(&str, Json)> = Vec::new();
    let op = |o: &mut Vec<(&str, Json)>, op: &str| {
        o.push(("op", s(op)));
        o.push(("sprite_id", target.clone()));
    };
    match &e.kind {
        EditKind::Remove { block, mode } => {
            op(&mut o, "remove");
            o.push(("block_id", s(block)));
            let mode = match mode {
                RemoveMode::Heal => None,
                RemoveMode::Stack => Some("stack"),
                RemoveMode::Unwrap => Some("unwrap"),
            };
            if let Some(m) = mode {
                o.push(("mode", s(m)));
            }
        }
        EditKind::Add { block, link } => {
            op(&mut o, "add");
            o.push(("block", spec_to_json(block)));
            o.push(("link", link_to_json(link)));
        }
        EditKind::Modify { block, path, value } => {
            op(&mut o, "modify");
            o.push(("block_id", s(block)));
            o.push(("path", s(&path_text(path))));
            o.push(("value", value.clone()));
        }
        EditKind::Records { records, order } => {
            op(&mut o, "modify");
            o.push(("path", s("blocks")));
            let value = records.iter().map(|(id, r)| (id.clone(), r.clone().unwrap_or(Json::Null)));
            o.push(("value", Json::Object(value.collect())));
            if let Some(order) = order {
                o.push(("order", Json::Array(order.iter().map(|i| s(i)).collect())));
            }
        }
        EditKind::AddDecl(d) => {
            op(&mut o, "add");
            let mut spec = alloc::vec![("name", s(&d.name))];
            if let Some(id) = &d.id {
                spec.push(("id", s(id)));
            }
            if let Some(v) = &d.value {
                spec.push(("value", v.clone()));
            }
            if let Some(c) = d.cloud {
                spec.push(("cloud", Json::Bool(c)));
            }
            if let Some(at) = d.at {
                spec.push(("at", Json::Number(Num::Int(at as i64))));
            }
            if !d.monitors.is_empty() {
                let ms = d.monitors.iter().map(|(p, m)| {
                    Json::Array(alloc::vec![Json::Number(Num::Int(*p as i64)), m.clone()])
                });
                spec.push(("monitors", Json::Array(ms.collect())));
            }
            o.push((decl_key(d.kind), obj(spec)));
        }
        EditKind::RemoveDecl { kind, which } => {
            op(&mut o, "remove");
            o.push((decl_key(*kind), which_json(which)));
        }
        EditKind::ModifyDecl { kind, which, path, value } => {
            op(&mut o, "modify");
            o.push((decl_key(*kind), which_json(which)));
            o.push(("path", s(if *path == DeclPath::Name { "name" } else { "value" })));
            o.push(("value", value.clone()));
        }
    }
    obj(o)
}

fn decl_key(kind: DeclKind) -> &'static str {
    match kind {
        DeclKind::Variable => "variable",
        DeclKind::List => "list",
        DeclKind::Broadcast => "broadcast",
    }
}

fn which_json(w: &DeclRef) -> Json {
    match w {
        DeclRef::Id(id) => obj(alloc::vec![("id", s(id))]),
        DeclRef::Name(n) => obj(alloc::vec![("name", s(n))]),
    }
}

/// The text of a modify path.
pub fn path_text(p: &ModPath) -> String {
    match p {
        ModPath::Opcode => "opcode".into(),
        ModPath::Position => "position".into(),
        ModPath::Field(n) => alloc::format!("fields/{n}"),
        ModPath::InputLiteral(n) => alloc::format!("inputs/{n}"),
        ModPath::InputBlock(n) => alloc::format!("inputs/{n}/block"),
        ModPath::InputShadow(n) => alloc::format!("inputs/{n}/shadow"),
        ModPath::Mutation(a) => alloc::format!("mutation/{a}"),
    }
}

fn link_to_json(l: &Link) -> Json {
    match l {
        Link::After(id) => obj(alloc::vec![("after", s(id))]),
        Link::Before(id) => obj(alloc::vec![("before", s(id))]),
        Link::Input(p, n) => obj(alloc::vec![("input", Json::Array(alloc::vec![s(p), s(n)]))]),
        Link::Top(None) => obj(alloc::vec![("top", obj(Vec::new()))]),
        Link::Top(Some((x, y))) => obj(alloc::vec![(
            "top",
            obj(alloc::vec![("x", Json::Number(*x)), ("y", Json::Number(*y))])
        )]),
        Link::Wrap { first, last, input } => {
            let mut o = alloc::vec![("wrap", Json::Array(alloc::vec![s(first), s(last)]))];
            if let Some(i) = input {
                o.push(("input", s(i)));
            }
            obj(o)
        }
    }
}

/// A block spec as JSON. The walk keeps its own stack on the heap (one frame per spec), so a
/// spec nested [`MAX_NESTING`](super::super::MAX_NESTING) deep costs the thread's stack
/// nothing.
pub fn spec_to_json(b: &BlockSpec) -> Json {
    let mut cur = Frame::new(b, true);
    let mut parents: Vec<Frame<'_>> = Vec::new();
    loop {
        match cur.step() {
            Step::Need(child, head) => {
                parents.push(core::mem::replace(&mut cur, Frame::new(child, head)))
            }
            Step::Done(json) => match parents.pop() {
                None => return json,
                Some(p) => {
                    cur = p;
                    cur.deliver(json);
                }
            },
        }
    }
}

/// What a [`Frame`] needs next.
enum Step<'s> {
    /// This spec as JSON (`true`: for an input, with its `next` blocks; `false`: the next
    /// block of the frame's chain, alone).
    Need(&'s BlockSpec, bool),
    /// The finished object.
    Done(Json),
}

/// One spec being written: its inputs one by one, then (for a spec with its chain) the
/// blocks after it.
struct Frame<'s> {
    spec: &'s BlockSpec,
    /// The blocks after it, flattened (empty for a block of a chain, written alone).
    chain: Vec<&'s BlockSpec>,
    /// The inputs written so far.
    inputs: Vec<(String, Json)>,
    /// The items of the exact input being written.
    items: Option<Vec<Json>>,
    /// The blocks of the chain written so far.
    next: Vec<Json>,
}

impl<'s> Frame<'s> {
    fn new(spec: &'s BlockSpec, head: bool) -> Frame<'s> {
        let chain = if head && !spec.next.is_empty() {
            super::super::edit::flat_chain(&spec.next, |n| &n.next)
        } else {
            Vec::new()
        };
        let inputs = Vec::with_capacity(spec.inputs.len());
        Frame { spec, chain, inputs, items: None, next: Vec::new() }
    }

    /// Writes what needs no other spec, up to the next spec needed or the end.
    fn step(&mut self) -> Step<'s> {
        while let Some((name, input)) = self.spec.inputs.get(self.inputs.len()) {
            match input {
                InputSpec::Literal(l) => self.inputs.push((name.clone(), lit(l))),
                InputSpec::Block(b) => return Step::Need(b, true),
                InputSpec::Exact { kind, value, shadow } => {
                    let items = self
                        .items
                        .get_or_insert_with(|| alloc::vec![Json::Number(Num::Int(*kind as i64))]);
                    let third =
                        shadow.is_some() || *kind == super::super::blocks::InputKind::Obscured;
                    let child = match items.len() {
                        1 => Some(value),
                        2 if third => Some(shadow),
                        _ => None,
                    };
                    match child {
                        Some(None) => items.push(Json::Null),
                        Some(Some(Child::Primitive(p))) => items.push(primitive_to_json(p)),
                        Some(Some(Child::Block(b))) => return Step::Need(b, true),
                        None => {
                            let items = self.items.take().unwrap_or_default();
                            self.inputs.push((name.clone(), Json::Array(items)));
                        }
                    }
                }
            }
        }
        if let Some(&n) = self.chain.get(self.next.len()) {
            return Step::Need(n, false);
        }
        let mut o = node_json(self.spec, core::mem::take(&mut self.inputs));
        if !self.next.is_empty() {
            o.push(("next", Json::Array(core::mem::take(&mut self.next))));
        }
        Step::Done(obj(o))
    }

    /// Takes the JSON of the spec the frame asked for.
    fn deliver(&mut self, json: Json) {
        match self.spec.inputs.get(self.inputs.len()) {
            Some((_, InputSpec::Exact { .. })) => {
                if let Some(items) = &mut self.items {
                    items.push(json);
                }
            }
            Some((name, _)) => self.inputs.push((name.clone(), json)),
            None => self.next.push(json),
        }
    }
}

/// One spec's keys, without `next`, its inputs (in order) written already.
fn node_json(b: &BlockSpec, inputs: Vec<(String, Json)>) -> Vec<(&str, Json)> {
    let mut o: Vec<(&str, Json)> = alloc::vec![("opcode", s(&b.opcode))];
    if let Some(id) = &b.id {
        o.push(("id", s(id)));
    }
    if b.shadow {
        o.push(("shadow", Json::Bool(true)));
    }
    if !b.fields.is_empty() {
        let fields = b.fields.iter().map(|(n, f)| {
            let v = match f {
                FieldSpec::Value(l) => lit(l),
                FieldSpec::Exact(l, None) => Json::Array(alloc::vec![lit(l)]),
                FieldSpec::Exact(l, Some(id)) => {
                    Json::Array(alloc::vec![lit(l), id.as_deref().map_or(Json::Null, s)])
                }
            };
            (n.clone(), v)
        });
        o.push(("fields", Json::Object(fields.collect())));
    }
    if !b.inputs.is_empty() {
        o.push(("inputs", Json::Object(inputs)));
    }
    if let Some(m) = &b.mutation {
        o.push(("mutation", Json::Object(m.clone())));
    }
    if let Some(at) = b.at {
        o.push(("at", Json::Number(Num::Int(at as i64))));
    }
    o
}

/// A primitive as its compressed array.
pub fn primitive_to_json(p: &Primitive) -> Json {
    let code = Json::Number(Num::Int(p.kind().code()));
    match p {
        Primitive::Literal { value, .. } => Json::Array(alloc::vec![code, lit(value)]),
        Primitive::Reference { name, id, .. } => Json::Array(alloc::vec![code, s(name), s(id)]),
    }
}
