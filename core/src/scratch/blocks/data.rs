//! Data blocks (`data_*`): variables are handled inline by the executor; this module holds
//! the list blocks with scratch-vm's index rules and the 200,000-item limit.

use alloc::string::String;

use crate::scratch::blocks::operators::{text_len, text_units};
use crate::scratch::image::{Slot, Sop};
use crate::scratch::value::cast::{self, to_list_index, ListIndex};
use crate::scratch::value::Value;
use crate::scratch::vm::budget::{item_bytes, list_bytes};
use crate::scratch::vm::Vm;

impl Vm {
    pub(crate) fn exec_data(&mut self, op: &Sop, args: &[u32], t: u32) {
        let limit = self.cfg.max_list_len;
        match op {
            Sop::AddToList(s) => {
                let item = self.arg(args, 0, t);
                if self.list(t, *s).len() < limit && self.list_grow(item_bytes(&item)) {
                    if let Some(l) = self.list_mut(t, *s) {
                        l.push(item);
                    }
                }
            }
            Sop::DeleteOfList(s) => {
                let index = self.arg(args, 0, t);
                let len = self.list(t, *s).len();
                let rng = &mut self.rng;
                match to_list_index(&index, len, true, || rng.next_f64()) {
                    ListIndex::Invalid => {}
                    ListIndex::All => self.clear_list(t, *s),
                    ListIndex::At(i) => {
                        if !self.spend(len - i) {
                            return;
                        }
                        if let Some(l) = self.list_mut(t, *s) {
                            let gone = item_bytes(&l.remove(i - 1));
                            self.list_shrink(gone);
                        }
                    }
                }
            }
            Sop::DeleteAllOfList(s) => self.clear_list(t, *s),
            Sop::InsertAtList(s) => {
                let item = self.arg(args, 0, t);
                let index = self.arg(args, 1, t);
                let len = self.list(t, *s).len();
                let rng = &mut self.rng;
                if let ListIndex::At(i) = to_list_index(&index, len + 1, false, || rng.next_f64()) {
                    if i > limit || !self.spend(len + 1 - i) || !self.list_grow(item_bytes(&item)) {
                        return;
                    }
                    if let Some(l) = self.list_mut(t, *s) {
                        l.insert(i - 1, item);
                        let over = if l.len() > limit { l.pop() } else { None };
                        if let Some(v) = over {
                            self.list_shrink(item_bytes(&v));
                        }
                    }
                }
            }
            Sop::ReplaceItemOfList(s) => {
                let index = self.arg(args, 0, t);
                let item = self.arg(args, 1, t);
                let len = self.list(t, *s).len();
                let rng = &mut self.rng;
                if let ListIndex::At(i) = to_list_index(&index, len, false, || rng.next_f64()) {
                    let old = item_bytes(&self.list(t, *s)[i - 1]);
                    self.list_shrink(old);
                    if !self.list_grow(item_bytes(&item)) {
                        self.budget.list_bytes += old;
                        return;
                    }
                    if let Some(l) = self.list_mut(t, *s) {
                        l[i - 1] = item;
                    }
                }
            }
            _ => {}
        }
    }

    /// Empty a list (`delete all of`, `delete (all) of`).
    fn clear_list(&mut self, t: u32, s: Slot) {
        let Some(l) = self.list_mut(t, s) else { return };
        let gone = list_bytes(l);
        l.clear();
        self.list_shrink(gone);
    }

    /// `data_listcontents`: items joined by spaces, or without when all are single letters.
    /// A result longer than the string budget halts the run, as JavaScript's `Array.join`
    /// throws `RangeError` (so a list that keeps adding its own contents to itself stops).
    pub(crate) fn list_contents(&mut self, t: u32, s: Slot) -> Value {
        let l = self.list(t, s);
        let single = l.iter().all(|v| matches!(v, Value::Str(x) if x.encode_utf16().count() == 1));
        let sep = usize::from(!single && !l.is_empty());
        let bytes = l.iter().map(|v| text_len(v) + sep).sum::<usize>();
        let units = |vm: &Vm| {
            let l = vm.list(t, s);
            let n: usize = l
                .iter()
                .map(|v| sep + if matches!(v, Value::Undefined) { 0 } else { text_units(v) })
                .sum();
            n.saturating_sub(sep)
        };
        if !self.string_fits(bytes, units) {
            return Value::empty();
        }
        let l = self.list(t, s);
        let mut out = String::with_capacity(bytes);
        for (k, v) in l.iter().enumerate() {
            if k > 0 && !single {
                out.push(' ');
            }
            if !matches!(v, Value::Undefined) {
                cast::with_str(v, |x| out.push_str(x));
            }
        }
        Value::string(out)
    }

    /// `data_itemoflist`.
    pub(crate) fn item_of_list(&mut self, t: u32, s: Slot, index: &Value) -> Value {
        let len = self.list(t, s).len();
        let rng = &mut self.rng;
        match to_list_index(index, len, false, || rng.next_f64()) {
            ListIndex::At(i) => self.list(t, s)[i - 1].clone(),
            _ => Value::empty(),
        }
    }

    /// `data_itemnumoflist`.
    pub(crate) fn item_num_of_list(&mut self, t: u32, s: Slot, item: &Value) -> Value {
        if !self.spend(self.list(t, s).len()) {
            return Value::Num(0.0);
        }
        let l = self.list(t, s);
        for (i, v) in l.iter().enumerate() {
            if cast::compare(v, item) == 0.0 {
                return Value::Num((i + 1) as f64);
            }
        }
        Value::Num(0.0)
    }

    /// `data_listcontainsitem`.
    pub(crate) fn list_contains(&mut self, t: u32, s: Slot, item: &Value) -> Value {
        if !self.spend(self.list(t, s).len()) {
            return Value::Bool(false);
        }
        let l = self.list(t, s);
        Value::Bool(l.iter().any(|v| v.strict_eq(item) || cast::compare(v, item) == 0.0))
    }
}
