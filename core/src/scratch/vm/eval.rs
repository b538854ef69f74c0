//! Reporter evaluation: walks a compiled expression tree (depth bounded at compile time and
//! checked when the VM starts) and dispatches to the block families. The `_in` variants take
//! the program image by reference (the caller holds it), so hot paths do not touch its
//! reference count per reporter.

use crate::scratch::image::{Expr, ExprId, Image, Rop};
use crate::scratch::value::Value;

use super::hooks::Blocks;
use super::Vm;

impl Vm {
    /// Evaluate reporter `e` for instance `t`.
    pub(crate) fn eval(&mut self, e: ExprId, t: u32) -> Value {
        let img = self.img.clone();
        self.eval_in(&img, e, t)
    }

    /// [`Vm::eval`] with the image at hand (`img` is `self.img`).
    pub(crate) fn eval_in(&mut self, img: &Image, e: ExprId, t: u32) -> Value {
        match img.exprs.get(e as usize) {
            Some(Expr::Const(k)) => self.consts.get(*k as usize).cloned().unwrap_or_default(),
            Some(Expr::Var(slot)) => self.var(t, *slot),
            Some(Expr::Param(_, i)) => {
                let v = self.th().param(*i).cloned();
                v.unwrap_or(Value::Num(0.0))
            }
            Some(Expr::Op(op, start, n)) => {
                let args = img.args.get(*start as usize..*start as usize + *n as usize);
                self.eval_op(img, op, args.unwrap_or(&[]), t)
            }
            Some(Expr::Reg(r)) => self.regs.get(*r as usize).cloned().unwrap_or(Value::Undefined),
            Some(Expr::Hoisted(h, body)) => {
                self.run_hoist(img, *h, t);
                self.eval_in(img, *body, t)
            }
            None => Value::Undefined,
        }
    }

    /// Evaluate a hoist's inputs, in order, into their registers (`img` is `self.img`).
    pub(crate) fn run_hoist(&mut self, img: &Image, h: u32, t: u32) {
        let Some(hoist) = img.hoists.get(h as usize) else { return };
        for &(e, r) in &hoist.pre {
            let v = self.eval_in(img, e, t);
            if let Some(slot) = self.regs.get_mut(r as usize) {
                *slot = v;
            }
        }
    }

    /// `Cast.toNumber` of reporter `e`, without building values for literals, variables and
    /// arithmetic (the common number-only case).
    pub(crate) fn num(&mut self, e: ExprId, t: u32) -> f64 {
        let img = self.img.clone();
        self.num_in(&img, e, t)
    }

    /// [`Vm::num`] with the image at hand (`img` is `self.img`).
    pub(crate) fn num_in(&mut self, img: &Image, e: ExprId, t: u32) -> f64 {
        match img.exprs.get(e as usize) {
            Some(Expr::Const(k)) => self.consts_num.get(*k as usize).copied().unwrap_or(0.0),
            Some(Expr::Var(slot)) => match self.var_ref(t, *slot) {
                Some(Value::Num(n)) if !n.is_nan() => *n,
                Some(v) => crate::scratch::value::cast::to_number(v),
                None => 0.0,
            },
            Some(Expr::Op(Rop::Add | Rop::Sub | Rop::Mul | Rop::Div | Rop::Mod, _, 2)) => {
                let r = self.arith_in(img, e, t);
                if r.is_nan() {
                    0.0
                } else {
                    r
                }
            }
            _ => crate::scratch::value::cast::to_number(&self.eval_in(img, e, t)),
        }
    }

    /// The number an arithmetic reporter `e` (`+ - * / mod` with two inputs) reports, NaN
    /// included (what `eval` would wrap in a value); 0 for any other reporter.
    #[inline]
    pub(crate) fn arith_in(&mut self, img: &Image, e: ExprId, t: u32) -> f64 {
        let Some(Expr::Op(op, start, 2)) = img.exprs.get(e as usize) else { return 0.0 };
        let (a, b) = match img.args.get(*start as usize..*start as usize + 2) {
            Some(&[a, b]) => (a, b),
            _ => return 0.0,
        };
        let x = self.num_leaf(img, a, t);
        let y = self.num_leaf(img, b, t);
        Self::arith_num(op, x, y)
    }

    /// [`Vm::num_in`] with literals and variables handled in place (no call).
    #[inline(always)]
    fn num_leaf(&mut self, img: &Image, e: ExprId, t: u32) -> f64 {
        match img.exprs.get(e as usize) {
            Some(Expr::Const(k)) => self.consts_num.get(*k as usize).copied().unwrap_or(0.0),
            Some(Expr::Var(slot)) => match self.var_ref(t, *slot) {
                Some(Value::Num(n)) if !n.is_nan() => *n,
                Some(v) => crate::scratch::value::cast::to_number(v),
                None => 0.0,
            },
            _ => self.num_in(img, e, t),
        }
    }

    /// [`Vm::num`] of input `k` (0 when absent: `toNumber(undefined)`).
    #[inline]
    pub(crate) fn num_arg(&mut self, args: &[ExprId], k: usize, t: u32) -> f64 {
        match args.get(k) {
            Some(&e) => self.num(e, t),
            None => 0.0,
        }
    }

    /// [`Vm::num_arg`] with the image at hand.
    #[inline]
    pub(crate) fn num_arg_in(&mut self, img: &Image, args: &[ExprId], k: usize, t: u32) -> f64 {
        match args.get(k) {
            Some(&e) => self.num_in(img, e, t),
            None => 0.0,
        }
    }

    /// Evaluate input `k` of a reporter or statement (`undefined` when absent).
    #[inline]
    pub(crate) fn arg(&mut self, args: &[ExprId], k: usize, t: u32) -> Value {
        match args.get(k) {
            Some(&e) => self.eval(e, t),
            None => Value::Undefined,
        }
    }

    /// [`Vm::arg`] with the image at hand.
    #[inline]
    pub(crate) fn arg_in(&mut self, img: &Image, args: &[ExprId], k: usize, t: u32) -> Value {
        match args.get(k) {
            Some(&e) => self.eval_in(img, e, t),
            None => Value::Undefined,
        }
    }
}
