//! ScratchWorld's block pseudocode (`get_blocks_pseudocode.js`), line for line: scripts in
//! run order, `#n [top] opcode` for a script's first block, fields as `- field NAME: <JSON>`
//! with `{choices: ...}`, inputs as `- input NAME: <value> (<shadow opcode>)` or a nested
//! block one level deeper, C-slots as `- SUBSTACK:`, a blank line after each script.
//!
//! In `compat` only catalog blocks get indices; others are skipped (in a stack: with their
//! inputs and C-slots, the walk goes on below them) or, in an input, shown by their first
//! field's value. In `full` every non-shadow block gets an index and every C-slot a line.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::catalog::{self, Arg};
use super::menus;
use super::observe::{IndexEntry, IndexMode, ObserveMode};
use super::view::{Node, TargetBlocks};
use super::Ctx;

/// Inputs printed even when the block has no such input.
fn expected_inputs(opcode: &str) -> &'static [&'static str] {
    match opcode {
        "control_repeat_until" | "control_wait_until" | "control_if" | "control_if_else" => {
            &["CONDITION"]
        }
        "operator_and" | "operator_or" => &["OPERAND1", "OPERAND2"],
        "operator_not" => &["OPERAND"],
        _ => &[],
    }
}

/// C-slots printed even when empty (compat).
fn expected_branches(opcode: &str) -> &'static [&'static str] {
    match opcode {
        "control_forever" | "control_if" => &["SUBSTACK"],
        "control_if_else" => &["SUBSTACK", "SUBSTACK2"],
        _ => &[],
    }
}

struct Renderer<'c, 'p> {
    ctx: &'c Ctx<'p>,
    tb: TargetBlocks<'p>,
    mode: ObserveMode,
    index: IndexMode,
    out: String,
    entries: Vec<IndexEntry>,
}

/// Render the editing target's pseudocode and its index map.
pub fn render(ctx: &Ctx<'_>, mode: ObserveMode, index: IndexMode) -> (String, Vec<IndexEntry>) {
    let tb = ctx.tb();
    let mut r = Renderer {
        ctx,
        tb,
        mode,
        index,
        out: String::with_capacity(64 * tb.blocks.len()),
        // Rarely more entries than blocks (shadows get none; it grows if need be).
        entries: Vec::with_capacity(tb.blocks.len()),
    };
    for top in r.tb.scripts() {
        let node = Node::Block(top);
        let Some(known) = r.indexed(node) else { continue };
        r.block(node, known, 0, None, true);
        r.stack(r.tb.next(node), 0, None);
        // The blank line that ends a script.
        r.out.push('\n');
    }
    // ScratchWorld joins its lines with newlines: no newline after the last (blank) one.
    r.out.pop();
    (r.out, r.entries)
}

/// A block id as id mode prints it, appended to `out`: bare when it is plain, else as a JSON
/// string.
fn write_id_token(out: &mut String, id: &str) {
    let plain = !id.is_empty() && id.chars().all(|c| c.is_ascii_graphic() && c != '"' && c != '\\');
    out.push('@');
    if plain {
        out.push_str(id);
    } else {
        super::jsval::write_json_string(out, id);
    }
}

/// `n` appended to `out` in decimal.
fn write_u32(out: &mut String, mut n: u32) {
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[start..].iter().map(|&d| char::from(d)));
}

impl Renderer<'_, '_> {
    /// Whether `n` gets an index: `None` if not, else its opcode as the catalog spells it
    /// (`Some(None)`: an opcode outside the catalog, which only `full` mode indexes).
    fn indexed(&self, n: Node) -> Option<Option<&'static str>> {
        let opcode = self.tb.opcode(n);
        let known = || catalog::catalog(opcode).map(|s| s.opcode);
        match self.mode {
            ObserveMode::Compat => known().map(Some),
            ObserveMode::Full => (!opcode.is_empty() && !self.tb.is_shadow(n)).then(known),
        }
    }

    /// Start a line: its indentation and plain pieces (the caller ends it).
    fn open(&mut self, depth: u32, pieces: &[&str]) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
        for p in pieces {
            self.out.push_str(p);
        }
    }

    /// A whole line of plain pieces.
    fn line(&mut self, depth: u32, pieces: &[&str]) {
        self.open(depth, pieces);
        self.out.push('\n');
    }

    /// Walk a stack: indexed blocks are printed, others skipped with their inputs.
    fn stack(&mut self, mut cur: Option<Node>, depth: u32, parent: Option<u32>) {
        while let Some(n) = cur {
            if let Some(known) = self.indexed(n) {
                self.block(n, known, depth, parent, false);
            }
            cur = self.tb.next(n);
        }
    }

    /// Print one indexed block (`known`: its opcode from the catalog, if there): its line,
    /// fields, inputs and (unless it fills an input) its C-slots.
    fn block(
        &mut self,
        n: Node,
        known: Option<&'static str>,
        depth: u32,
        parent: Option<u32>,
        top: bool,
    ) -> u32 {
        let idx = self.entries.len() as u32 + 1;
        let id = self.tb.id(n);
        let opcode = self.tb.opcode(n);
        self.open(depth, &[]);
        match self.index {
            IndexMode::Index => {
                self.out.push('#');
                write_u32(&mut self.out, idx);
            }
            IndexMode::Id => write_id_token(&mut self.out, &id),
        }
        self.out.push_str(if top { " [top] " } else { " " });
        self.out.push_str(opcode);
        self.out.push('\n');
        let stored = known.map_or_else(|| Cow::Owned(opcode.into()), Cow::Borrowed);
        self.entries.push(IndexEntry { index: idx, id, opcode: stored, top, parent, depth });
        if self.mode == ObserveMode::Full {
            if let Some(code) = self.tb.proccode(n) {
                self.open(depth, &["- proccode: "]);
                super::jsval::write_json_string(&mut self.out, code);
                self.out.push('\n');
            }
        }
        self.fields(n, depth);
        self.inputs(n, depth, idx);
        if let Node::Block(b) = n {
            self.branches(b, opcode, depth, idx);
        }
        idx
    }

    fn fields(&mut self, n: Node, depth: u32) {
        for f in self.tb.fields_iter(n) {
            self.open(depth, &["- field ", f.name, ": "]);
            // ScratchWorld prints `value || id || ''`.
            if f.value.truthy() {
                f.value.write_json(&mut self.out);
            } else {
                let id = f.id.filter(|id| !id.is_empty()).unwrap_or("");
                super::jsval::write_json_string(&mut self.out, id);
            }
            if let Some(c) = menus::choices(self.ctx, n, f.name) {
                self.out.push_str(" {choices: ");
                menus::write_choices_json(&mut self.out, &c);
                self.out.push('}');
            }
            self.out.push('\n');
        }
    }

    /// Append the value ScratchWorld shows for a block it does not index
    /// (`getShadowBlockValue`) and a space after it; `false` when it shows none.
    fn shadow_value(&mut self, n: Node) -> bool {
        let opcode = self.tb.opcode(n);
        let name = match opcode {
            "math_number"
            | "math_positive_number"
            | "math_integer"
            | "math_whole_number"
            | "math_angle" => Some("NUM"),
            "text" => Some("TEXT"),
            "colour_picker" => Some("COLOUR"),
            _ => None,
        };
        let mut fields = self.tb.fields_iter(n);
        let field = match name {
            Some(name) => fields.find(|f| f.name == name),
            None => fields.next(),
        };
        let Some(f) = field else { return false };
        match f.value {
            // A template literal: `null` prints as `"null"`.
            _ if opcode == "text" => {
                self.out.push('"');
                f.value.write_string(&mut self.out);
                self.out.push('"');
            }
            // `field.value || field` then `.value`: the value itself, and nothing for `null`.
            super::view::FieldValue::Lit(crate::scratch::project::Literal::Null) => return false,
            v => v.write_string(&mut self.out),
        }
        self.out.push(' ');
        true
    }

    fn inputs(&mut self, n: Node, depth: u32, idx: u32) {
        let Node::Block(b) = n else { return };
        let opcode = self.tb.opcode(n);
        for (k, input) in self.tb.inputs_iter(n) {
            if !input.name.starts_with("SUBSTACK") {
                self.input(b, Some(k), &input.name, depth, idx);
            }
        }
        for e in expected_inputs(opcode) {
            let present = self
                .tb
                .inputs_iter(n)
                .any(|(_, i)| !i.name.starts_with("SUBSTACK") && i.name == *e);
            if !present {
                self.input(b, None, e, depth, idx);
            }
        }
    }

    /// Print input `name` (at position `k` of `b`'s inputs, `None`: absent).
    fn input(
        &mut self,
        b: crate::scratch::project::BlockIdx,
        k: Option<usize>,
        name: &str,
        depth: u32,
        idx: u32,
    ) {
        let child = k.and_then(|k| self.tb.input_child(b, k));
        let Some(child) = child else {
            self.line(depth, &["- input ", name, ":"]);
            return;
        };
        if let Some(known) = self.indexed(child) {
            self.line(depth, &["- input ", name, ":"]);
            self.block(child, known, depth + 1, Some(idx), false);
            return;
        }
        let child_opcode = self.tb.opcode(child);
        self.open(depth, &["- input ", name, ": "]);
        if !self.shadow_value(child)
            && self.mode == ObserveMode::Full
            && child_opcode == "procedures_prototype"
        {
            let code = self.tb.proccode(child).unwrap_or("");
            super::jsval::write_json_string(&mut self.out, code);
            self.out.push(' ');
        }
        self.out.push('(');
        self.out.push_str(child_opcode);
        self.out.push(')');
        let mut all: Option<menus::Choices> = None;
        for f in self.tb.fields_iter(child) {
            for (key, values) in menus::choices(self.ctx, child, f.name).unwrap_or_default() {
                let all = all.get_or_insert_with(Vec::new);
                // `Object.assign`: a repeated key keeps its place and takes the new list.
                match all.iter_mut().find(|(k, _)| *k == key) {
                    Some(slot) => slot.1 = values,
                    None => all.push((key, values)),
                }
            }
        }
        if let Some(all) = all.filter(|a| !a.is_empty()) {
            self.out.push_str(" {choices: ");
            menus::write_choices_json(&mut self.out, &all);
            self.out.push('}');
        }
        self.out.push('\n');
    }

    fn branches(
        &mut self,
        b: crate::scratch::project::BlockIdx,
        opcode: &str,
        depth: u32,
        idx: u32,
    ) {
        for slot in ["SUBSTACK", "SUBSTACK2"] {
            let expected = match self.mode {
                ObserveMode::Compat => expected_branches(opcode).contains(&slot),
                ObserveMode::Full => {
                    catalog::spec(opcode).is_some_and(|s| s.args.contains(&Arg::Statement(slot)))
                        || catalog::extra_statement(opcode, slot)
                }
            };
            let first = self.tb.branch(b, slot);
            if !expected && first.is_none() {
                continue;
            }
            self.line(depth, &["- ", slot, ":"]);
            self.stack(first, depth + 1, Some(idx));
        }
    }
}
