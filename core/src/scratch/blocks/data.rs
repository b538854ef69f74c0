//! Data blocks (`data_*`): variables are handled inline by the executor; this module holds
//! the list blocks with scratch-vm's index rules and the 200,000-item limit, as functions over
//! one list (which the VM's executor and its register tier both call) and their `Vm` entry.

use alloc::string::String;
use alloc::vec::Vec;

use crate::scratch::blocks::operators::truncate_to;
use crate::scratch::image::{Slot, Sop};
use crate::scratch::value::cast::{self, to_list_index, ListIndex};
use crate::scratch::value::Value;
use crate::scratch::vm::random::Mulberry32;
use crate::scratch::vm::Vm;

/// `data_addtolist`: append unless the list holds `limit` items.
pub(crate) fn add(l: &mut Vec<Value>, item: Value, limit: usize) {
    if l.len() < limit {
        l.push(item);
    }
}

/// `data_deleteoflist`.
pub(crate) fn delete(l: &mut Vec<Value>, index: &Value, rng: &mut Mulberry32) {
    match to_list_index(index, l.len(), true, || rng.next_f64()) {
        ListIndex::Invalid => {}
        ListIndex::All => l.clear(),
        ListIndex::At(i) => {
            l.remove(i - 1);
        }
    }
}

/// `data_insertatlist`, keeping at most `limit` items.
pub(crate) fn insert(
    l: &mut Vec<Value>,
    item: Value,
    index: &Value,
    limit: usize,
    rng: &mut Mulberry32,
) {
    if let ListIndex::At(i) = to_list_index(index, l.len() + 1, false, || rng.next_f64()) {
        if i > limit {
            return;
        }
        l.insert(i - 1, item);
        if l.len() > limit {
            l.pop();
        }
    }
}

/// `data_replaceitemoflist`.
pub(crate) fn replace(l: &mut [Value], index: &Value, item: Value, rng: &mut Mulberry32) {
    if let ListIndex::At(i) = to_list_index(index, l.len(), false, || rng.next_f64()) {
        l[i - 1] = item;
    }
}

/// `data_itemoflist`.
pub(crate) fn item(l: &[Value], index: &Value, rng: &mut Mulberry32) -> Value {
    match to_list_index(index, l.len(), false, || rng.next_f64()) {
        ListIndex::At(i) => l[i - 1].clone(),
        _ => Value::empty(),
    }
}

/// `data_itemnumoflist`.
pub(crate) fn item_num(l: &[Value], item: &Value) -> Value {
    for (i, v) in l.iter().enumerate() {
        if cast::compare(v, item) == 0.0 {
            return Value::Num((i + 1) as f64);
        }
    }
    Value::Num(0.0)
}

/// `data_listcontainsitem`.
pub(crate) fn contains(l: &[Value], item: &Value) -> Value {
    Value::Bool(l.iter().any(|v| v.strict_eq(item) || cast::compare(v, item) == 0.0))
}

/// `data_listcontents`: items joined by spaces, or without when all are single letters;
/// bounded by the string budget `max` like `join`, so a list that holds its own contents
/// cannot grow without limit.
pub(crate) fn contents(l: &[Value], max: usize) -> Value {
    let single = l.iter().all(|v| matches!(v, Value::Str(x) if x.encode_utf16().count() == 1));
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

impl Vm {
    pub(crate) fn exec_data(&mut self, op: &Sop, args: &[u32], t: u32) {
        let limit = self.cfg.max_list_len;
        // A slot that names no list acts on an empty list nobody keeps (random indices still
        // draw as they would).
        let mut none = Vec::new();
        match op {
            Sop::AddToList(s) => {
                let item = self.arg(args, 0, t);
                add(self.list_mut(t, *s).unwrap_or(&mut none), item, limit);
            }
            Sop::DeleteOfList(s) => {
                let index = self.arg(args, 0, t);
                let (l, rng) = self.list_and_rng(t, *s);
                delete(l.unwrap_or(&mut none), &index, rng);
            }
            Sop::DeleteAllOfList(s) => {
                if let Some(l) = self.list_mut(t, *s) {
                    l.clear();
                }
            }
            Sop::InsertAtList(s) => {
                let item = self.arg(args, 0, t);
                let index = self.arg(args, 1, t);
                let (l, rng) = self.list_and_rng(t, *s);
                insert(l.unwrap_or(&mut none), item, &index, limit, rng);
            }
            Sop::ReplaceItemOfList(s) => {
                let index = self.arg(args, 0, t);
                let item = self.arg(args, 1, t);
                let (l, rng) = self.list_and_rng(t, *s);
                replace(l.unwrap_or(&mut none), &index, item, rng);
            }
            _ => {}
        }
    }

    /// A list slot as seen from `inst` and the block random generator, both mutable.
    fn list_and_rng(
        &mut self,
        inst: u32,
        slot: Slot,
    ) -> (Option<&mut Vec<Value>>, &mut Mulberry32) {
        let (i, k) = match slot {
            Slot::Local(k) => (inst, k),
            Slot::Global(k) => (self.stage, k),
        };
        let l = self.insts.get_mut(i as usize).and_then(|x| x.lists.get_mut(k as usize));
        (l, &mut self.rng)
    }

    /// `data_listcontents`.
    pub(crate) fn list_contents(&self, t: u32, s: Slot) -> Value {
        contents(self.list(t, s), self.cfg.max_string_len)
    }

    /// `data_itemoflist`.
    pub(crate) fn item_of_list(&mut self, t: u32, s: Slot, index: &Value) -> Value {
        let (i, k) = match s {
            Slot::Local(k) => (t, k),
            Slot::Global(k) => (self.stage, k),
        };
        let l = self.insts.get(i as usize).and_then(|x| x.lists.get(k as usize));
        item(l.map_or(&[], Vec::as_slice), index, &mut self.rng)
    }

    /// `data_itemnumoflist`.
    pub(crate) fn item_num_of_list(&self, t: u32, s: Slot, item: &Value) -> Value {
        item_num(self.list(t, s), item)
    }

    /// `data_listcontainsitem`.
    pub(crate) fn list_contains(&self, t: u32, s: Slot, item: &Value) -> Value {
        contains(self.list(t, s), item)
    }
}
