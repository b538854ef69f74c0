//! The order in which a block's inputs are evaluated. scratch-vm runs every input of a block
//! before the block itself, in the order of the block's `inputs` object (execute.js
//! `BlockCached`: JavaScript property order of the inputs as loaded from `project.json`,
//! branches and `custom_block` left out), while gobo's block implementations read their input
//! slots in the canonical order of the opcode table. Where the two orders differ for inputs
//! that compute something (a random draw makes the difference observable), or where an input
//! has no slot but runs anyway (an input the opcode does not know, a call argument filled by a
//! reporter with no implementation), the compiler emits a [`Hoist`]: the inputs run in
//! scratch-vm's order into registers, and the slots read the registers.

use alloc::string::String;
use alloc::vec::Vec;

use super::table::{classify, Kind};
use super::{array_index, CompileError, Compiler, Ctx};
use crate::scratch::image::{Expr, ExprId, Hoist};
use crate::scratch::project::{Block, Input, InputValue};

/// A block's inputs in the order scratch-vm evaluates them: JavaScript property order (array
/// index names ascending, then the rest in file order), without branches (`SUBSTACK*`),
/// `custom_block` and empty slots.
pub(super) fn eval_order(b: &Block) -> Vec<&Input> {
    let keep = |i: &&Input| {
        !i.name.starts_with("SUBSTACK") && i.name != "custom_block" && i.value.is_some()
    };
    let mut ints: Vec<(u32, &Input)> = Vec::new();
    let mut rest: Vec<&Input> = Vec::new();
    for input in b.inputs.iter().filter(keep) {
        match array_index(&input.name) {
            Some(n) => ints.push((n, input)),
            None => rest.push(input),
        }
    }
    ints.sort_by_key(|p| p.0);
    ints.into_iter().map(|p| p.1).chain(rest).collect()
}

/// Whether the block filling `input` has no implementation and is not a one-field "shadow"
/// block, so scratch-vm never assigns its value to the parent's arguments (a procedure call
/// then uses the parameter's default). Hats plugged into an input are skipped the same way.
pub(super) fn reports_nothing(cx: &Ctx<'_>, input: &Input) -> bool {
    let Some(InputValue::Block(bi)) = &input.value else { return false };
    let Some(b) = cx.t.blocks.get(*bi) else { return false };
    match classify(&b.opcode) {
        Kind::Reporter(..) | Kind::Stmt(..) => false,
        Kind::Hat => true,
        Kind::Unknown => {
            let inputs = b.inputs.iter().filter(|i| !i.name.starts_with("SUBSTACK")).count();
            !(b.fields.len() == 1 && inputs == 0)
        }
    }
}

impl Compiler {
    /// Whether evaluating `e` can do something observable or order-dependent (anything but a
    /// literal, a variable, a parameter or a register).
    fn computes(&self, e: ExprId) -> bool {
        matches!(self.img.exprs.get(e as usize), Some(Expr::Op(..) | Expr::Hoisted(..)))
    }

    /// Make block `b`'s input slots (`slots[k]` compiled from input `names[k]`) evaluate in
    /// scratch-vm's order. Returns the hoist to run before the block reads its slots, if one
    /// is needed; the hoisted slots are rewritten to read registers.
    pub(super) fn hoist(
        &mut self,
        cx: &mut Ctx<'_>,
        b: &Block,
        names: &[String],
        slots: &mut [ExprId],
        proc: Option<u32>,
        depth: usize,
    ) -> Result<Option<u32>, CompileError> {
        // (slot, reporter) for every input that computes, in evaluation order.
        let mut seq: Vec<(Option<usize>, ExprId)> = Vec::new();
        for input in eval_order(b) {
            match names.iter().position(|n| *n == input.name) {
                Some(k) => match slots.get(k) {
                    Some(&e) if self.computes(e) => seq.push((Some(k), e)),
                    _ => {}
                },
                None => {
                    if matches!(input.value, Some(InputValue::Block(_))) {
                        let e = self.input_value(cx, input, proc, depth)?;
                        if self.computes(e) {
                            seq.push((None, e));
                        }
                    }
                }
            }
        }
        let in_slot_order =
            seq.windows(2).all(|w| matches!((w[0].0, w[1].0), (Some(a), Some(b)) if a < b));
        if seq.iter().all(|s| s.0.is_some()) && in_slot_order {
            return Ok(None);
        }
        let mut pre = Vec::with_capacity(seq.len());
        for (slot, e) in seq {
            let r = self.img.registers;
            self.img.registers = r.checked_add(1).ok_or(CompileError::TooLarge)?;
            pre.push((e, r));
            if let Some(k) = slot {
                let reg = self.push_expr(Expr::Reg(r))?;
                if let Some(s) = slots.get_mut(k) {
                    *s = reg;
                }
            }
        }
        let h = u32::try_from(self.img.hoists.len()).map_err(|_| CompileError::TooLarge)?;
        self.img.hoists.push(Hoist { pre });
        Ok(Some(h))
    }
}
