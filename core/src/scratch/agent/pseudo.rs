//! ScratchWorld's block pseudocode (`get_blocks_pseudocode.js`), line for line: scripts in
//! run order, `#n [top] opcode` for a script's first block, fields as `- field NAME: <JSON>`
//! with `{choices: ...}`, inputs as `- input NAME: <value> (<shadow opcode>)` or a nested
//! block one level deeper, C-slots as `- SUBSTACK:`, a blank line after each script.
//!
//! In `compat` only catalog blocks get indices; others are skipped (in a stack: with their
//! inputs and C-slots, the walk goes on below them) or, in an input, shown by their first
//! field's value. In `full` every non-shadow block gets an index and every C-slot a line.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

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
    let mut r =
        Renderer { ctx, tb: ctx.tb(), mode, index, out: String::new(), entries: Vec::new() };
    for top in r.tb.scripts() {
        let node = Node::Block(top);
        if !r.indexed(node) {
            continue;
        }
        r.block(node, 0, None, true);
        r.stack(r.tb.next(node), 0, None);
        // The blank line that ends a script.
        r.out.push('\n');
    }
    // ScratchWorld joins its lines with newlines: no newline after the last (blank) one.
    r.out.pop();
    (r.out, r.entries)
}

/// A block id as id mode prints it: bare when it is plain, else as a JSON string.
pub fn id_token(id: &str) -> String {
    let plain = !id.is_empty() && id.chars().all(|c| c.is_ascii_graphic() && c != '"' && c != '\\');
    if plain {
        alloc::format!("@{id}")
    } else {
        alloc::format!("@{}", super::jsval::json_string(id))
    }
}

impl Renderer<'_, '_> {
    fn indexed(&self, n: Node) -> bool {
        let opcode = self.tb.opcode(n);
        match self.mode {
            ObserveMode::Compat => catalog::in_catalog(opcode),
            ObserveMode::Full => !opcode.is_empty() && !self.tb.is_shadow(n),
        }
    }

    fn line(&mut self, depth: u32, text: core::fmt::Arguments<'_>) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
        let _ = self.out.write_fmt(text);
        self.out.push('\n');
    }

    /// Walk a stack: indexed blocks are printed, others skipped with their inputs.
    fn stack(&mut self, mut cur: Option<Node>, depth: u32, parent: Option<u32>) {
        while let Some(n) = cur {
            if self.indexed(n) {
                self.block(n, depth, parent, false);
            }
            cur = self.tb.next(n);
        }
    }

    /// Print one indexed block: its line, fields, inputs and (unless it fills an input) its
    /// C-slots.
    fn block(&mut self, n: Node, depth: u32, parent: Option<u32>, top: bool) -> u32 {
        let idx = self.entries.len() as u32 + 1;
        let id = self.tb.id(n);
        let opcode = self.tb.opcode(n);
        let label = match self.index {
            IndexMode::Index => alloc::format!("#{idx}"),
            IndexMode::Id => id_token(&id),
        };
        let top_tag = if top { " [top]" } else { "" };
        self.line(depth, format_args!("{label}{top_tag} {opcode}"));
        self.entries.push(IndexEntry { index: idx, id, opcode: opcode.into(), top, parent, depth });
        if self.mode == ObserveMode::Full {
            if let Some(code) = self.tb.proccode(n) {
                let code = super::jsval::json_string(code);
                self.line(depth, format_args!("- proccode: {code}"));
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
        for f in self.tb.fields(n) {
            // ScratchWorld prints `value || id || ''`.
            let shown = if f.value.truthy() {
                f.value.json()
            } else {
                super::jsval::json_string(f.id.filter(|id| !id.is_empty()).unwrap_or(""))
            };
            let choices = menus::choices(self.ctx, n, f.name);
            match choices {
                Some(c) => {
                    let c = menus::choices_json(&c);
                    self.line(depth, format_args!("- field {}: {shown} {{choices: {c}}}", f.name));
                }
                None => self.line(depth, format_args!("- field {}: {shown}", f.name)),
            }
        }
    }

    /// The value ScratchWorld shows for a block it does not index (`getShadowBlockValue`).
    fn shadow_value(&self, n: Node) -> Option<String> {
        let opcode = self.tb.opcode(n);
        let fields = self.tb.fields(n);
        // `field.value || field` then `.value`: the value itself, and nothing for `null`.
        let string = |f: &super::view::FieldView<'_>| match f.value {
            super::view::FieldValue::Lit(crate::scratch::project::Literal::Null) => None,
            v => Some(v.string()),
        };
        let value = |name: &str| fields.iter().find(|f| f.name == name).and_then(string);
        match opcode {
            "math_number"
            | "math_positive_number"
            | "math_integer"
            | "math_whole_number"
            | "math_angle" => value("NUM"),
            // A template literal: `null` prints as `"null"`.
            "text" => fields
                .iter()
                .find(|f| f.name == "TEXT")
                .map(|f| alloc::format!("\"{}\"", f.value.string())),
            "colour_picker" => value("COLOUR"),
            _ => fields.first().and_then(string),
        }
    }

    fn inputs(&mut self, n: Node, depth: u32, idx: u32) {
        let Node::Block(b) = n else { return };
        let opcode = self.tb.opcode(n);
        let mut names: Vec<(Option<usize>, &str)> = self
            .tb
            .inputs(n)
            .into_iter()
            .filter(|(_, i)| !i.name.starts_with("SUBSTACK"))
            .map(|(k, i)| (Some(k), i.name.as_str()))
            .collect();
        for e in expected_inputs(opcode) {
            if !names.iter().any(|(_, name)| name == e) {
                names.push((None, e));
            }
        }
        for (k, name) in names {
            let child = k.and_then(|k| self.tb.input_child(b, k));
            let Some(child) = child else {
                self.line(depth, format_args!("- input {name}:"));
                continue;
            };
            if self.indexed(child) {
                self.line(depth, format_args!("- input {name}:"));
                self.block(child, depth + 1, Some(idx), false);
                continue;
            }
            let child_opcode = self.tb.opcode(child);
            let mut text = match (self.shadow_value(child), self.mode) {
                (Some(v), _) => alloc::format!("- input {name}: {v} ({child_opcode})"),
                (None, ObserveMode::Full) if child_opcode == "procedures_prototype" => {
                    let code = self.tb.proccode(child).unwrap_or("");
                    alloc::format!(
                        "- input {name}: {} ({child_opcode})",
                        super::jsval::json_string(code)
                    )
                }
                (None, _) => alloc::format!("- input {name}: ({child_opcode})"),
            };
            let mut all: menus::Choices = Vec::new();
            for f in self.tb.fields(child) {
                for (key, values) in menus::choices(self.ctx, child, f.name).unwrap_or_default() {
                    // `Object.assign`: a repeated key keeps its place and takes the new list.
                    match all.iter_mut().find(|(k, _)| *k == key) {
                        Some(slot) => slot.1 = values,
                        None => all.push((key, values)),
                    }
                }
            }
            if !all.is_empty() {
                text.push_str(" {choices: ");
                text.push_str(&menus::choices_json(&all));
                text.push('}');
            }
            self.line(depth, format_args!("{text}"));
        }
    }

    fn branches(
        &mut self,
        b: crate::scratch::project::BlockIdx,
        opcode: &str,
        depth: u32,
        idx: u32,
    ) {
        let mut slots: Vec<&str> = alloc::vec!["SUBSTACK", "SUBSTACK2"];
        let expected: Vec<&str> = match self.mode {
            ObserveMode::Compat => expected_branches(opcode).to_vec(),
            ObserveMode::Full => {
                let from_spec = catalog::spec(opcode).map(|s| {
                    s.args
                        .iter()
                        .filter_map(|a| if let Arg::Statement(n) = a { Some(*n) } else { None })
                        .collect()
                });
                let mut v: Vec<&str> = from_spec.unwrap_or_default();
                if catalog::extra_statement(opcode, "SUBSTACK") {
                    v.push("SUBSTACK");
                }
                v
            }
        };
        slots.retain(|s| expected.contains(s) || self.tb.branch(b, s).is_some());
        for slot in slots {
            self.line(depth, format_args!("- {slot}:"));
            let first = self.tb.branch(b, slot);
            self.stack(first, depth + 1, Some(idx));
        }
    }
}
