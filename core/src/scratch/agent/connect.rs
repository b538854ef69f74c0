//! `connect_blocks`: ScratchWorld's five placements (`connection_utils.js`), step for step,
//! over scratch-blocks' connection rules, on the project model through its edit API.
//!
//! The editor's rules that show through: joining a block cuts it out *with everything below
//! it*; a stack connection that is already taken hands its old block (the "orphan") to the end
//! of the stack being inserted, or bumps it out as a new script when that stack ends in a cap;
//! a C-block's first slot connected to a block that sits elsewhere makes the C-block take that
//! block's place ("surrounding"); type checks (Boolean inputs, statement versus value) throw,
//! possibly after part of the move is done, and ScratchWorld reports them as `ERROR`. Where
//! ScratchWorld's own checks miss a cycle (a target nested inside the source), the editor would
//! corrupt the workspace; gobo refuses with `INVALID_ARG` and changes nothing.

use alloc::string::String;

use serde_json::{Map, Value};

use super::actions::{block_arg, pop_to_top, resolve};
use super::args::{truthy, ActError, Code};
use super::jsval::value_string;
use super::observe::{IndexMode, ObserveMode};
use super::session::{Done, Failed, Outcome, Session};
use super::shape::{self, output_check, InputConn};
use crate::scratch::project::edit::{EditError, Owner, ShadowPolicy};
use crate::scratch::project::nesting::{self, MAX_NESTING};
use crate::scratch::project::{BlockIdx, Blocks};

/// How an editor step failed.
enum Thrown {
    /// scratch-blocks threw this message (ScratchWorld: `ERROR`).
    Error(String),
    /// A `requireConnection` check failed (`CONNECTION_MISMATCH`).
    Mismatch(String),
    /// ScratchWorld's own argument check (`INVALID_ARG`).
    Invalid(String),
    /// The step would put a block inside itself (gobo refuses: `INVALID_ARG`).
    Cycle,
}

impl From<EditError> for Thrown {
    fn from(e: EditError) -> Self {
        match e {
            EditError::Cycle { .. } => Thrown::Cycle,
            other => Thrown::Error(alloc::format!("{other}")),
        }
    }
}

/// A superior connection: a block's next connection or one of its statement inputs.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Parent {
    Next(String),
    Slot(String, String),
}

impl Parent {
    fn block(&self) -> &str {
        match self {
            Parent::Next(b) | Parent::Slot(b, _) => b,
        }
    }
}

/// The editing target's blocks under the editor's connection rules.
struct Ws<'a> {
    blocks: &'a mut Blocks,
    policy: ShadowPolicy,
    /// ScratchWorld clears a value input (disposing its shadow) before filling it.
    dispose: bool,
}

fn require(cond: bool, message: &str) -> Result<(), Thrown> {
    if cond {
        Ok(())
    } else {
        Err(Thrown::Mismatch(message.into()))
    }
}

impl Ws<'_> {
    fn idx(&self, id: &str) -> Result<BlockIdx, Thrown> {
        self.blocks.index_of(id).ok_or_else(|| Thrown::Error(alloc::format!("block {id} is gone")))
    }

    fn conns(&self, id: &str) -> shape::Conns {
        match self.blocks.index_of(id) {
            Some(i) => shape::conns(self.blocks, i),
            None => shape::Conns {
                previous: false,
                next: false,
                output: None,
                inputs: alloc::vec::Vec::new(),
            },
        }
    }

    fn owner(&self, id: &str) -> Owner {
        self.blocks.index_of(id).map_or(Owner::Root, |i| self.blocks.owner(i))
    }

    fn id(&self, i: BlockIdx) -> String {
        self.blocks.id_of(i)
    }

    fn opcode(&self, id: &str) -> String {
        self.blocks
            .index_of(id)
            .and_then(|i| self.blocks.get(i))
            .map(|b| b.opcode.clone())
            .unwrap_or_default()
    }

    fn next_of(&self, id: &str) -> Option<String> {
        let i = self.blocks.index_of(id)?;
        self.blocks.get(i)?.next.map(|n| self.id(n))
    }

    /// Whether the previous connection is connected (to a block's next or a C-slot).
    fn prev_connected(&self, id: &str) -> bool {
        self.conns(id).previous && self.owner(id) != Owner::Root
    }

    /// The connection the previous connection is connected to.
    fn prev_target(&self, id: &str) -> Option<Parent> {
        if !self.conns(id).previous {
            return None;
        }
        match self.owner(id) {
            Owner::Next(p) => Some(Parent::Next(self.id(p))),
            Owner::Input(p, n) => {
                let name = self.blocks.get(p)?.inputs.get(n)?.name.clone();
                Some(Parent::Slot(self.id(p), name))
            }
            _ => None,
        }
    }

    /// `getTopOfStack`: up previous connections (through C-slots) to the script's first block.
    fn top_of_stack(&self, id: &str) -> String {
        let mut cur = String::from(id);
        for _ in 0..=self.blocks.len() {
            match self.prev_target(&cur) {
                Some(p) => cur = p.block().into(),
                None => break,
            }
        }
        cur
    }

    fn last_of_stack(&self, id: &str) -> String {
        match self.blocks.index_of(id) {
            Some(i) => self.id(self.blocks.chain_end(i)),
            None => id.into(),
        }
    }

    /// `isBlockInStack(start, search)`: `search` is `start` or below it in its chain.
    fn in_stack(&self, start: &str, search: &str) -> bool {
        let (Some(a), Some(b)) = (self.blocks.index_of(start), self.blocks.index_of(search)) else {
            return false;
        };
        self.blocks.chain(a).contains(&b)
    }

    /// `isBlockAncestor(ancestor, block)`: `block` is `ancestor` or inside it.
    fn is_ancestor(&self, ancestor: &str, block: &str) -> bool {
        let (Some(a), Some(b)) = (self.blocks.index_of(ancestor), self.blocks.index_of(block))
        else {
            return false;
        };
        let mut at = b;
        for _ in 0..=self.blocks.len() {
            if at == a {
                return true;
            }
            match self.blocks.owner(at).block() {
                Some(p) => at = p,
                None => return false,
            }
        }
        false
    }

    /// Whether `inner` lies in `outer`'s subtree (inputs, C-slots, the blocks after it).
    fn inside(&self, outer: &str, inner: &str) -> bool {
        let (Some(a), Some(b)) = (self.blocks.index_of(outer), self.blocks.index_of(inner)) else {
            return false;
        };
        a == b || self.blocks.contains(a, b, true)
    }

    /// `getStatementParentInputIfFirst`: the C-block and slot whose first block this is.
    fn stmt_parent_if_first(&self, id: &str) -> Option<(String, String)> {
        match self.prev_target(id)? {
            Parent::Slot(p, name) => Some((p, name)),
            Parent::Next(_) => None,
        }
    }

    /// Disconnects a block from what is above it: it and everything below it become a
    /// script, listed last.
    fn disconnect(&mut self, id: &str) {
        pop_to_top(self.blocks, id);
    }

    /// The block in a statement connection.
    fn occupant(&self, parent: &Parent) -> Option<String> {
        match parent {
            Parent::Next(b) => self.next_of(b),
            Parent::Slot(b, name) => {
                let i = self.blocks.index_of(b)?;
                let input = self.blocks.get(i)?.input(name)?;
                match input.value {
                    Some(crate::scratch::project::InputValue::Block(c)) => Some(self.id(c)),
                    _ => None,
                }
            }
        }
    }

    /// `parent.connect(child.previousConnection)` for a next connection or a statement input.
    fn connect_stmt(&mut self, parent: &Parent, child: &str) -> Result<(), Thrown> {
        if parent.block() == child {
            return Err(Thrown::Error("Attempted to connect a block to itself.".into()));
        }
        if let Parent::Slot(b, name) = parent {
            if self.conns(b).input(name) != Some(InputConn::Statement) {
                return Err(Thrown::Error("Attempt to connect incompatible types.".into()));
            }
        }
        if !self.conns(child).previous {
            return Err(Thrown::Error("Target connection is null.".into()));
        }
        if self.occupant(parent).as_deref() == Some(child) {
            return Ok(());
        }
        if self.inside(child, parent.block()) {
            return Err(Thrown::Cycle);
        }
        let surrounding = match parent {
            Parent::Slot(b, name) => self.conns(b).first_statement() == Some(name.as_str()),
            Parent::Next(_) => false,
        };
        let previous_parent =
            if self.prev_connected(child) { self.prev_target(child) } else { None };
        if previous_parent.is_some() {
            self.disconnect(child);
        }
        if let Some(orphan) = self.occupant(parent) {
            // Walk down the inserted stack for a free next connection.
            let mut at = String::from(child);
            let mut end = None;
            for _ in 0..=self.blocks.len() {
                if !self.conns(&at).next {
                    break;
                }
                match self.next_of(&at) {
                    Some(n) => at = n,
                    None => {
                        end = Some(at.clone());
                        break;
                    }
                }
            }
            self.disconnect(&orphan);
            if let Some(end) = end {
                self.connect_stmt(&Parent::Next(end), &orphan)?;
            }
        }
        if let (true, Some(pp)) = (surrounding, previous_parent) {
            let c = String::from(parent.block());
            self.connect_stmt(&pp, &c)?;
        }
        let c = self.idx(child)?;
        match parent {
            Parent::Next(b) => {
                let b = self.idx(b)?;
                self.blocks.attach_after(c, b)?;
            }
            Parent::Slot(b, name) => {
                let b = self.idx(b)?;
                self.blocks.put_statement(c, b, name)?;
            }
        }
        Ok(())
    }

    /// `input.connect(child.outputConnection)`.
    fn connect_value(&mut self, parent: &str, input: &str, child: &str) -> Result<(), Thrown> {
        if parent == child {
            return Err(Thrown::Error("Attempted to connect a block to itself.".into()));
        }
        let slot = self.conns(parent).input(input);
        let Some(output) = self.conns(child).output else {
            return Err(Thrown::Error("Target connection is null.".into()));
        };
        match slot {
            Some(InputConn::Value(boolean)) => {
                if boolean
                    && !matches!(
                        output,
                        super::catalog::Output::Boolean | super::catalog::Output::Any
                    )
                {
                    return Err(Thrown::Error(alloc::format!(
                        "Connection checks failed. Input \"{input}\" connection on \"{}\" block (id=\"{parent}\") expected Boolean, found {}",
                        self.opcode(parent),
                        output_check(output)
                    )));
                }
            }
            _ => return Err(Thrown::Error("Attempt to connect incompatible types.".into())),
        }
        let p = self.idx(parent)?;
        let c = self.idx(child)?;
        if let Owner::Input(op, n) = self.blocks.owner(c) {
            if op == p
                && self.blocks.get(p).and_then(|b| b.inputs.get(n)).is_some_and(|i| i.name == input)
            {
                return Ok(());
            }
        }
        if self.inside(child, parent) {
            return Err(Thrown::Cycle);
        }
        if self.blocks.owner(c) != Owner::Root {
            self.disconnect(child);
        }
        let (c, p) = (self.idx(child)?, self.idx(parent)?);
        self.blocks.put_value(c, p, input, self.policy)?;
        Ok(())
    }

    /// ScratchWorld's `disconnectAndCleanupShadows`: the input's shadow goes, a block in it is
    /// unplugged to the workspace.
    fn clear_input(&mut self, parent: &str, input: &str) -> Result<(), Thrown> {
        let p = self.idx(parent)?;
        let Some(inp) = self.blocks.get(p).and_then(|b| b.input(input)) else { return Ok(()) };
        let value = inp.value.clone();
        match value {
            Some(crate::scratch::project::InputValue::Block(v))
                if !self.blocks.get(v).is_some_and(|b| b.shadow) =>
            {
                let id = self.id(v);
                self.disconnect(&id);
            }
            _ => {}
        }
        if self.dispose {
            let p = self.idx(parent)?;
            let mut ids = crate::scratch::project::edit::IdGen::new(0);
            self.blocks.set_input_shadow(p, input, None, &mut ids)?;
        }
        Ok(())
    }
}

/// Why the placement stopped, with the code ScratchWorld reports.
fn thrown_error(t: Thrown, cycle_message: &str) -> ActError {
    match t {
        Thrown::Error(m) => ActError::new(Code::Error, m),
        Thrown::Mismatch(m) => ActError::new(Code::ConnectionMismatch, m),
        Thrown::Invalid(m) => ActError::new(Code::InvalidArg, m),
        Thrown::Cycle => ActError::new(Code::InvalidArg, cycle_message),
    }
}

/// The placement kinds.
const KINDS: [&str; 5] = ["stack_before", "stack_after", "statement_into", "value_into", "wrap"];

/// `connect_blocks {sourceBlockIndex, targetBlockIndex, placement: {kind, inputName?}}`.
pub(crate) fn connect_blocks(s: &mut Session, args: &Map<String, Value>) -> Outcome {
    let src_arg = block_arg(s, args, "sourceBlockIndex", "sourceBlockId")?;
    let tgt_arg = block_arg(s, args, "targetBlockIndex", "targetBlockId")?;
    let placement = match args.get("placement") {
        Some(p) if truthy(p) => p.clone(),
        _ => Value::Object(Map::new()),
    };
    let (kind, input_name) = match &placement {
        Value::Object(o) => (o.get("kind").cloned(), o.get("inputName").cloned()),
        _ => (None, None),
    };
    let kind_ok = matches!(&placement, Value::Object(_)) && kind.as_ref().is_some_and(truthy);
    if !kind_ok {
        return Err(ActError::new(Code::InvalidArg, "'placement.kind' is required").into());
    }
    let kind_str = kind.as_ref().and_then(Value::as_str).unwrap_or("");
    let needs_input = kind_str == "statement_into" || kind_str == "value_into";
    if needs_input && !input_name.as_ref().is_some_and(truthy) {
        return Err(ActError::new(
            Code::InvalidArg,
            "'inputName' is required when kind is 'statement_into' or 'value_into'",
        )
        .into());
    }
    let map = s.index_map()?;
    let src = resolve(&map, &src_arg, |k| alloc::format!("Source block not found at index {k}"))?;
    let tgt = resolve(&map, &tgt_arg, |k| alloc::format!("Target block not found at index {k}"))?;
    let (skey, tkey) = match s.config.index {
        IndexMode::Index => ("sourceBlockIndex", "targetBlockIndex"),
        IndexMode::Id => ("sourceBlockId", "targetBlockId"),
    };
    let mut executed = Map::new();
    executed.insert(skey.into(), src.echo.clone());
    executed.insert(tkey.into(), tgt.echo.clone());
    executed.insert("placement".into(), placement.clone());
    let fail = |error: ActError| Failed { error, executed: Some(executed.clone()) };
    let blocks = &s.project.targets[s.editing].blocks;
    if blocks.index_of(&src.id).is_none() {
        return Err(fail(ActError::new(
            Code::NotFound,
            alloc::format!("Source not found: {}", src.id),
        )));
    }
    if blocks.index_of(&tgt.id).is_none() {
        return Err(fail(ActError::new(
            Code::NotFound,
            alloc::format!("Target not found: {}", tgt.id),
        )));
    }
    if src.id == tgt.id {
        return Err(fail(ActError::new(Code::InvalidArg, "Source and target are the same")));
    }
    if !KINDS.contains(&kind_str) {
        let shown = kind.as_ref().map(value_string).unwrap_or_default();
        return Err(fail(ActError::new(
            Code::InvalidArg,
            alloc::format!("Unknown placement.kind: {shown}"),
        )));
    }
    // A non-string input name never matches an input (`getInput` compares with `==`).
    let name = input_name.as_ref().map(value_string);
    let compat = s.config.mode == ObserveMode::Compat;
    // Work on a copy: a refused cycle leaves the workspace as it was.
    let mut work = s.project.targets[s.editing].blocks.clone();
    let mut ws = Ws {
        blocks: &mut work,
        policy: if compat { ShadowPolicy::Dispose } else { ShadowPolicy::Keep },
        dispose: compat,
    };
    let result = match kind_str {
        "stack_after" => stack_after(&mut ws, &src.id, &tgt.id),
        "stack_before" => stack_before(&mut ws, &src.id, &tgt.id),
        "statement_into" => {
            statement_into(&mut ws, &src.id, &tgt.id, name.as_deref().unwrap_or("SUBSTACK"))
        }
        "value_into" => value_into(&mut ws, &src.id, &tgt.id, name.as_deref().unwrap_or("")),
        _ => wrap(
            &mut ws,
            &src.id,
            &tgt.id,
            name.as_deref().filter(|n| !n.is_empty()).unwrap_or("SUBSTACK"),
        ),
    };
    let cycle_message = match kind_str {
        "value_into" | "wrap" => "Target is within source hierarchy",
        _ => "Target is within source stack",
    };
    match result {
        Ok(data) => {
            s.project.targets[s.editing].blocks = work;
            Ok(Done { data, executed, structural: true })
        }
        Err(Thrown::Error(m)) => {
            // The editor threw part-way: what it did before stays done.
            s.project.targets[s.editing].blocks = work;
            Err(fail(ActError::new(Code::Error, m)))
        }
        Err(t) => Err(fail(thrown_error(t, cycle_message))),
    }
}

fn data(pairs: &[(&str, &str)]) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("connected".into(), Value::Bool(true));
    for (k, v) in pairs {
        m.insert((*k).into(), Value::String((*v).into()));
    }
    m
}

/// `stack_after`: the source and everything below it go under the target; the target's old
/// next block follows the source, and the rest of the source's stack follows that stack's end.
fn stack_after(ws: &mut Ws<'_>, src: &str, tgt: &str) -> Result<Map<String, Value>, Thrown> {
    require(ws.conns(src).previous, "Source needs previousConnection (a stack-capable block)")?;
    if ws.in_stack(src, tgt) || ws.inside(src, tgt) {
        return Err(Thrown::Invalid("Target is within source stack".into()));
    }
    require(ws.conns(tgt).next, "Target needs nextConnection")?;
    let next = ws.next_of(tgt);
    if next.is_some() {
        require(ws.conns(src).next, "Cannot wire source->next (missing connections)")?;
    }
    if ws.prev_connected(src) {
        ws.disconnect(src);
    }
    if let Some(n) = ws.next_of(tgt) {
        ws.disconnect(&n);
    }
    ws.connect_stmt(&Parent::Next(tgt.into()), src)?;
    if let Some(n) = next {
        ws.connect_stmt(&Parent::Next(src.into()), &n)?;
    }
    Ok(data(&[("kind", "stack_after"), ("sourceId", src), ("targetId", tgt)]))
}

/// `stack_before`: the source goes between the target and the block above it; before the
/// first block of a C-slot it goes into the slot (reported as `statement_into`).
fn stack_before(ws: &mut Ws<'_>, src: &str, tgt: &str) -> Result<Map<String, Value>, Thrown> {
    require(ws.conns(src).next, "Source needs nextConnection (a stack-capable block)")?;
    if ws.in_stack(src, tgt) || ws.inside(src, tgt) {
        return Err(Thrown::Invalid("Target is within source stack".into()));
    }
    if let Some((parent, input)) = ws.stmt_parent_if_first(tgt) {
        require(
            ws.conns(src).previous,
            "Source must be a statement block (has previousConnection)",
        )?;
        let tail = ws.last_of_stack(src);
        require(
            ws.conns(&tail).next && ws.conns(tgt).previous,
            "Cannot chain existing stack after source",
        )?;
        ws.disconnect(tgt);
        ws.connect_stmt(&Parent::Slot(parent.clone(), input.clone()), src)?;
        ws.connect_stmt(&Parent::Next(tail), tgt)?;
        let mut m = data(&[("kind", "statement_into"), ("inputName", &input), ("sourceId", src)]);
        m.insert("targetId".into(), Value::String(parent));
        return Ok(m);
    }
    let prev = match ws.prev_target(tgt) {
        Some(Parent::Next(p)) if ws.owner(tgt) != Owner::Root => Some(p),
        _ => None,
    };
    require(ws.conns(tgt).previous, "Target missing previousConnection")?;
    if let Some(p) = &prev {
        require(
            ws.conns(p).next && ws.conns(src).previous,
            "Cannot wire prev->source (missing connections)",
        )?;
    }
    if ws.prev_connected(src) {
        ws.disconnect(src);
    }
    if ws.prev_connected(tgt) {
        ws.disconnect(tgt);
    }
    if let Some(p) = prev {
        ws.connect_stmt(&Parent::Next(p), src)?;
    }
    ws.connect_stmt(&Parent::Next(src.into()), tgt)?;
    Ok(data(&[("kind", "stack_before"), ("sourceId", src), ("targetId", tgt)]))
}

/// `statement_into`: the source stack goes first in the C-slot; the slot's old stack follows
/// the source's last block.
fn statement_into(
    ws: &mut Ws<'_>,
    src: &str,
    tgt: &str,
    name: &str,
) -> Result<Map<String, Value>, Thrown> {
    require(
        ws.conns(tgt).input(name).is_some(),
        &alloc::format!("Target has no statement input '{name}'"),
    )?;
    require(ws.conns(src).previous, "Source must be a statement block (has previousConnection)")?;
    if ws.in_stack(src, tgt) || ws.inside(src, tgt) {
        return Err(Thrown::Invalid("Target is within source stack".into()));
    }
    let tail = ws.last_of_stack(src);
    let slot = Parent::Slot(tgt.into(), name.into());
    let existing = slot_content(ws, tgt, name);
    if let Some(first) = &existing {
        let first_prev = ws.conns(first).previous && !is_shadow(ws, first);
        require(ws.conns(&tail).next && first_prev, "Cannot chain existing stack after source")?;
    }
    if ws.prev_connected(src) {
        ws.disconnect(src);
    }
    match existing {
        Some(first) => {
            ws.disconnect(&first);
            ws.connect_stmt(&slot, src)?;
            ws.connect_stmt(&Parent::Next(tail), &first)?;
        }
        None => ws.connect_stmt(&slot, src)?,
    }
    Ok(data(&[
        ("kind", "statement_into"),
        ("inputName", name),
        ("sourceId", src),
        ("targetId", tgt),
    ]))
}

/// The block an input holds (a shadow included), as `input.connection.targetBlock()`.
fn slot_content(ws: &Ws<'_>, parent: &str, name: &str) -> Option<String> {
    let i = ws.blocks.index_of(parent)?;
    let input = ws.blocks.get(i)?.input(name)?;
    match input.value {
        Some(crate::scratch::project::InputValue::Block(c)) => Some(ws.id(c)),
        _ => None,
    }
}

fn is_shadow(ws: &Ws<'_>, id: &str) -> bool {
    ws.blocks.index_of(id).and_then(|i| ws.blocks.get(i)).is_some_and(|b| b.shadow)
}

/// `value_into`: the reporter goes into the input; ScratchWorld first disposes the input's
/// shadow and unplugs a reporter already there.
fn value_into(
    ws: &mut Ws<'_>,
    src: &str,
    tgt: &str,
    name: &str,
) -> Result<Map<String, Value>, Thrown> {
    require(
        ws.conns(tgt).input(name).is_some(),
        &alloc::format!("Target has no value input '{name}'"),
    )?;
    require(
        ws.conns(src).output.is_some(),
        "Source must be a reporter/predicate (has outputConnection)",
    )?;
    if ws.is_ancestor(src, tgt) {
        return Err(Thrown::Invalid("Target is within source hierarchy".into()));
    }
    // gobo's nesting limit, checked before the input is cleared so a refusal changes nothing.
    let (s, t) = (ws.idx(src)?, ws.idx(tgt)?);
    if nesting::depth_of(ws.blocks, t) + 1 + nesting::height(ws.blocks, s, true) > MAX_NESTING {
        let id = String::from(src);
        return Err(Thrown::from(EditError::TooDeep { id, limit: MAX_NESTING }));
    }
    ws.clear_input(tgt, name)?;
    ws.connect_value(tgt, name, src)?;
    Ok(data(&[("kind", "value_into"), ("inputName", name), ("sourceId", src), ("targetId", tgt)]))
}

/// `wrap`: the whole stack holding the target (from its first block) goes into the C-block's
/// slot; the C-block stays where it is.
fn wrap(ws: &mut Ws<'_>, src: &str, tgt: &str, name: &str) -> Result<Map<String, Value>, Thrown> {
    require(
        ws.conns(src).input(name).is_some(),
        &alloc::format!("Source C-block has no statement input '{name}'"),
    )?;
    let top = ws.top_of_stack(tgt);
    if ws.is_ancestor(src, &top) || ws.inside(&top, src) {
        return Err(Thrown::Invalid("Target is within source hierarchy".into()));
    }
    require(ws.conns(&top).previous, "Target stack has no previousConnection")?;
    ws.connect_stmt(&Parent::Slot(src.into(), name.into()), &top)?;
    Ok(data(&[("kind", "wrap"), ("substack", name), ("wrappedTopId", &top), ("sourceId", src)]))
}
