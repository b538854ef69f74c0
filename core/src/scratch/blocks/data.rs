//! Data blocks (`data_*`): variables are handled inline by the executor; this module holds
//! the list blocks with scratch-vm's index rules and the 200,000-item limit.

use alloc::string::String;

use crate::scratch::blocks::operators::truncate_to;
use crate::scratch::image::{Slot, Sop};
use crate::scratch::value::cast::{self, to_list_index, ListIndex};
use crate::scratch::value::Value;
use crate::scratch::vm::Vm;

impl Vm {
    pub(crate) fn exec_data(&mut self, op: &Sop, args: &[u32], t: u32) {
        let limit = self.cfg.max_list_len;
        match op {
            Sop::AddToList(s) => {
                let item = self.arg(args, 0, t);
                if let Some(l) = self.list_mut(t, *s) {
                    if l.len() < limit {
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
                    ListIndex::All => {
                        if let Some(l) = self.list_mut(t, *s) {
                            l.clear();
                        }
                    }
                    ListIndex::At(i) => {
                        if let Some(l) = self.list_mut(t, *s) {
                            l.remove(i - 1);
                        }
                    }
                }
            }
            Sop::DeleteAllOfList(s) => {
                if let Some(l) = self.list_mut(t, *s) {
                    l.clear();
                }
            }
            Sop::InsertAtList(s) => {
                let item = self.arg(args, 0, t);
                let index = self.arg(args, 1, t);
                let len = self.list(t, *s).len();
                let rng = &mut self.rng;
                if let ListIndex::At(i) = to_list_index(&index, len + 1, false, || rng.next_f64()) {
                    if i > limit {
                        return;
                    }
                    if let Some(l) = self.list_mut(t, *s) {
                        l.insert(i - 1, item);
                        if l.len() > limit {
                            l.pop();
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
                    if let Some(l) = self.list_mut(t, *s) {
                        l[i - 1] = item;
                    }
                }
            }
            _ => {}
        }
    }

    /// `data_listcontents`: items joined by spaces, or without when all are single letters;
    /// bounded by the string budget like `join`, so a list that holds its own contents cannot
    /// grow without limit.
    pub(crate) fn list_contents(&self, t: u32, s: Slot) -> Value {
        let l = self.list(t, s);
        let single = l.iter().all(|v| matches!(v, Value::Str(x) if x.encode_utf16().count() == 1));
        let max = self.cfg.max_string_len;
        let mut out = String::new();
        for (k, v) in l.iter().enumerate() {
            if k > 0 && !single {
                out.push(' ');
            }
            if !matches!(v, Value::Undefined) {
                cast::with_str(v, |x| out.push_str(x));
            }
            if truncate_to(&mut out, max) {
                break;
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
    pub(crate) fn item_num_of_list(&self, t: u32, s: Slot, item: &Value) -> Value {
        let l = self.list(t, s);
        for (i, v) in l.iter().enumerate() {
            if cast::compare(v, item) == 0.0 {
                return Value::Num((i + 1) as f64);
            }
        }
        Value::Num(0.0)
    }

    /// `data_listcontainsitem`.
    pub(crate) fn list_contains(&self, t: u32, s: Slot, item: &Value) -> Value {
        let l = self.list(t, s);
        Value::Bool(l.iter().any(|v| v.strict_eq(item) || cast::compare(v, item) == 0.0))
    }
}
