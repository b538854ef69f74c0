//! Reporter evaluation: walks a compiled expression tree (depth bounded at compile time and
//! checked when the VM starts) and dispatches to the block families. The `_in` variants take
//! the program image by reference (the caller holds it), so hot paths do not touch its
//! reference count per reporter.

use crate::scratch::image::{Expr, ExprId, Image, Rop};
use crate::scratch::value::Value;

use super::Vm;
use crate::scratch::blocks::operators as ops;
use alloc::string::String;

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
        crate::scratch::blocks::operators::arith_num(op, x, y)
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

    fn eval_op(&mut self, img: &Image, op: &Rop, args: &[ExprId], t: u32) -> Value {
        use crate::scratch::blocks::operators as o;
        match op {
            Rop::Unimplemented => {
                for k in 0..args.len() {
                    self.arg_in(img, args, k, t);
                }
                Value::Undefined
            }
            Rop::Add | Rop::Sub | Rop::Mul | Rop::Div | Rop::Mod => {
                let a = self.num_arg_in(img, args, 0, t);
                let b = self.num_arg_in(img, args, 1, t);
                Value::Num(o::arith_num(op, a, b))
            }
            Rop::Gt | Rop::Lt | Rop::Eq => {
                let a = self.arg_in(img, args, 0, t);
                let b = self.arg_in(img, args, 1, t);
                o::compare(op, &a, &b)
            }
            Rop::And | Rop::Or => {
                let a = self.arg_in(img, args, 0, t);
                let b = self.arg_in(img, args, 1, t);
                o::logic(op, &a, &b)
            }
            Rop::Not => {
                let a = self.arg_in(img, args, 0, t);
                Value::Bool(!crate::scratch::value::cast::to_bool(&a))
            }
            Rop::Random => {
                let a = self.arg_in(img, args, 0, t);
                let b = self.arg_in(img, args, 1, t);
                o::random(&a, &b, &mut self.rng)
            }
            Rop::Join => {
                let a = self.arg_in(img, args, 0, t);
                let b = self.arg_in(img, args, 1, t);
                self.join(&a, &b)
            }
            // Scanning a string is work in proportion to its length ([`Vm::spend`]).
            Rop::LetterOf => {
                let a = self.arg_in(img, args, 0, t);
                let b = self.arg_in(img, args, 1, t);
                if !self.spend(o::str_len(&b)) {
                    return Value::empty();
                }
                o::letter_of(&a, &b)
            }
            Rop::Length => {
                let a = self.arg_in(img, args, 0, t);
                if !self.spend(o::str_len(&a)) {
                    return Value::Num(0.0);
                }
                o::length(&a)
            }
            Rop::Contains => {
                let a = self.arg_in(img, args, 0, t);
                let b = self.arg_in(img, args, 1, t);
                if !self.spend(o::str_len(&a)) {
                    return Value::Bool(false);
                }
                o::contains(&a, &b)
            }
            Rop::Round => {
                let a = self.arg_in(img, args, 0, t);
                Value::Num(super::io::js_round(crate::scratch::value::cast::to_number(&a)))
            }
            Rop::MathOp(f) => {
                let a = self.arg_in(img, args, 0, t);
                o::mathop(*f, &a)
            }
            Rop::ListContents(s) => self.list_contents(t, *s),
            Rop::ItemOfList(s) => {
                let i = self.arg_in(img, args, 0, t);
                self.item_of_list(t, *s, &i)
            }
            Rop::ItemNumOfList(s) => {
                let i = self.arg_in(img, args, 0, t);
                self.item_num_of_list(t, *s, &i)
            }
            Rop::LengthOfList(s) => Value::Num(self.list(t, *s).len() as f64),
            Rop::ListContains(s) => {
                let i = self.arg_in(img, args, 0, t);
                self.list_contains(t, *s, &i)
            }
            Rop::Counter => Value::Num(self.counter),
            Rop::Tempo => self.tempo(),
            Rop::VideoOn | Rop::Translate | Rop::ViewerLanguage => self.eval_offline(op, args, t),
            _ => self.eval_sensing(op, args, t),
        }
    }
}

/// Strings built by `join` longer than this are not kept in the scratch buffer.
const TEXT_BUF_KEEP: usize = 1 << 16;

impl Vm {
    /// `operator_join` under the string budget ([`Config::max_string_len`]): a result longer
    /// than it halts the run (scratch-vm throws `RangeError: Invalid string length`).
    pub(crate) fn join(&mut self, a: &Value, b: &Value) -> Value {
        let bytes = ops::text_len(a) + ops::text_len(b);
        if !self.string_fits(bytes, |_| ops::text_units(a) + ops::text_units(b)) {
            return Value::empty();
        }
        let v = ops::join(&mut self.text_buf, a, b);
        if self.text_buf.capacity() > TEXT_BUF_KEEP {
            self.text_buf = String::new();
        }
        v
    }
}
