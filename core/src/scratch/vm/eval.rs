//! Reporter evaluation: walks a compiled expression tree (depth bounded at compile time and
//! checked when the VM starts) and dispatches to the block families.

use crate::scratch::image::{Expr, ExprId, Rop};
use crate::scratch::value::Value;

use super::Vm;

impl Vm {
    /// Evaluate reporter `e` for instance `t`.
    pub(crate) fn eval(&mut self, e: ExprId, t: u32) -> Value {
        let img = self.img.clone();
        match &img.exprs[e as usize] {
            Expr::Const(k) => self.consts[*k as usize].clone(),
            Expr::Var(slot) => self.var(t, *slot),
            Expr::Param(_, i) => {
                let v = self.th().param(*i).cloned();
                v.unwrap_or(Value::Num(0.0))
            }
            Expr::Op(op, start, n) => {
                let args = &img.args[*start as usize..*start as usize + *n as usize];
                self.eval_op(op, args, t)
            }
        }
    }

    /// `Cast.toNumber` of reporter `e`, without building values for literals, variables and
    /// arithmetic (the common number-only case).
    pub(crate) fn num(&mut self, e: ExprId, t: u32) -> f64 {
        let img = self.img.clone();
        match &img.exprs[e as usize] {
            Expr::Const(k) => self.consts_num[*k as usize],
            Expr::Var(slot) => match self.var_ref(t, *slot) {
                Some(Value::Num(n)) if !n.is_nan() => *n,
                Some(v) => crate::scratch::value::cast::to_number(v),
                None => 0.0,
            },
            Expr::Op(op @ (Rop::Add | Rop::Sub | Rop::Mul | Rop::Div | Rop::Mod), start, 2) => {
                let a = img.args[*start as usize];
                let b = img.args[*start as usize + 1];
                let x = self.num(a, t);
                let y = self.num(b, t);
                let r = crate::scratch::blocks::operators::arith_num(op, x, y);
                if r.is_nan() {
                    0.0
                } else {
                    r
                }
            }
            _ => crate::scratch::value::cast::to_number(&self.eval(e, t)),
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

    /// Evaluate input `k` of a reporter or statement (`undefined` when absent).
    #[inline]
    pub(crate) fn arg(&mut self, args: &[ExprId], k: usize, t: u32) -> Value {
        match args.get(k) {
            Some(&e) => self.eval(e, t),
            None => Value::Undefined,
        }
    }

    fn eval_op(&mut self, op: &Rop, args: &[ExprId], t: u32) -> Value {
        use crate::scratch::blocks::operators as o;
        match op {
            Rop::Unimplemented => {
                for k in 0..args.len() {
                    self.arg(args, k, t);
                }
                Value::Undefined
            }
            Rop::Add | Rop::Sub | Rop::Mul | Rop::Div | Rop::Mod => {
                let a = self.num_arg(args, 0, t);
                let b = self.num_arg(args, 1, t);
                Value::Num(o::arith_num(op, a, b))
            }
            Rop::Gt | Rop::Lt | Rop::Eq => {
                let a = self.arg(args, 0, t);
                let b = self.arg(args, 1, t);
                o::compare(op, &a, &b)
            }
            Rop::And | Rop::Or => {
                let a = self.arg(args, 0, t);
                let b = self.arg(args, 1, t);
                o::logic(op, &a, &b)
            }
            Rop::Not => {
                let a = self.arg(args, 0, t);
                Value::Bool(!crate::scratch::value::cast::to_bool(&a))
            }
            Rop::Random => {
                let a = self.arg(args, 0, t);
                let b = self.arg(args, 1, t);
                o::random(&a, &b, &mut self.rng)
            }
            Rop::Join => {
                let a = self.arg(args, 0, t);
                let b = self.arg(args, 1, t);
                o::join(&a, &b, self.cfg.max_string_len)
            }
            Rop::LetterOf => {
                let a = self.arg(args, 0, t);
                let b = self.arg(args, 1, t);
                o::letter_of(&a, &b)
            }
            Rop::Length => {
                let a = self.arg(args, 0, t);
                o::length(&a)
            }
            Rop::Contains => {
                let a = self.arg(args, 0, t);
                let b = self.arg(args, 1, t);
                o::contains(&a, &b)
            }
            Rop::Round => {
                let a = self.arg(args, 0, t);
                Value::Num(super::io::js_round(crate::scratch::value::cast::to_number(&a)))
            }
            Rop::MathOp(f) => {
                let a = self.arg(args, 0, t);
                o::mathop(*f, &a)
            }
            Rop::ListContents(s) => self.list_contents(t, *s),
            Rop::ItemOfList(s) => {
                let i = self.arg(args, 0, t);
                self.item_of_list(t, *s, &i)
            }
            Rop::ItemNumOfList(s) => {
                let i = self.arg(args, 0, t);
                self.item_num_of_list(t, *s, &i)
            }
            Rop::LengthOfList(s) => Value::Num(self.list(t, *s).len() as f64),
            Rop::ListContains(s) => {
                let i = self.arg(args, 0, t);
                self.list_contains(t, *s, &i)
            }
            Rop::Counter => Value::Num(self.counter),
            _ => self.eval_sensing(op, args, t),
        }
    }
}
