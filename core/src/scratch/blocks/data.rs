//! Data blocks (`data_*`): variables are handled inline by the executor; this module holds
//! the list blocks with scratch-vm's index rules, the 200,000-item limit and the run budgets
//! ([`budget`](crate::scratch::vm::budget)), and `item` over one list (which the VM's
//! executor and its register tier both call).

use alloc::string::String;
use alloc::vec::Vec;

use crate::scratch::blocks::operators::{text_len, text_units};
use crate::scratch::image::{Slot, Sop};
use crate::scratch::value::cast::{self, to_list_index, ListIndex};
use crate::scratch::value::Value;
use crate::scratch::vm::budget::{item_bytes, list_bytes, Charge};
use crate::scratch::vm::random::Mulberry32;
use crate::scratch::vm::Vm;

/// `data_itemoflist` over one list (the VM's executor and its register tier both call it;
/// reading an item spends no budget).
pub(crate) fn item(l: &[Value], index: &Value, rng: &mut Mulberry32) -> Value {
    match to_list_index(index, l.len(), false, || rng.next_f64()) {
        ListIndex::At(i) => l[i - 1].clone(),
        _ => Value::empty(),
    }
}

/// `data_addtolist`: appends unless the list holds `limit` items or the list bytes would
/// pass their budget.
pub(crate) fn add(l: &mut Vec<Value>, item: Value, limit: usize, c: &mut impl Charge) {
    if l.len() < limit && c.list_grow(item_bytes(&item)) {
        l.push(item);
    }
}

/// `data_deleteoflist` at an index already resolved (`to_list_index(.., len, true, ..)`);
/// moving the items after it is work.
pub(crate) fn delete(l: &mut Vec<Value>, at: ListIndex, c: &mut impl Charge) {
    match at {
        ListIndex::Invalid => {}
        ListIndex::All => clear(l, c),
        ListIndex::At(i) => {
            if !c.spend(l.len() - i) {
                return;
            }
            let gone = item_bytes(&l.remove(i - 1));
            c.list_shrink(gone);
        }
    }
}

/// `data_deletealloflist`.
pub(crate) fn clear(l: &mut Vec<Value>, c: &mut impl Charge) {
    let gone = list_bytes(l);
    l.clear();
    c.list_shrink(gone);
}

/// `data_insertatlist` at an index already resolved (`to_list_index(.., len + 1, false,
/// ..)`); moving the items after it is work, and an item pushed past `limit` falls off.
pub(crate) fn insert(
    l: &mut Vec<Value>,
    item: Value,
    at: ListIndex,
    limit: usize,
    c: &mut impl Charge,
) {
    if let ListIndex::At(i) = at {
        if i > limit || !c.spend(l.len() + 1 - i) || !c.list_grow(item_bytes(&item)) {
            return;
        }
        l.insert(i - 1, item);
        if l.len() > limit {
            if let Some(v) = l.pop() {
                c.list_shrink(item_bytes(&v));
            }
        }
    }
}

/// `data_replaceitemoflist` at an index already resolved (`to_list_index(.., len, false,
/// ..)`).
pub(crate) fn replace(l: &mut [Value], item: Value, at: ListIndex, c: &mut impl Charge) {
    if let ListIndex::At(i) = at {
        let old = item_bytes(&l[i - 1]);
        c.list_shrink(old);
        if !c.list_grow(item_bytes(&item)) {
            c.list_restore(old);
            return;
        }
        l[i - 1] = item;
    }
}

/// `data_listcontents`: items joined by spaces, or without when all are single letters.
/// A result longer than the string budget halts the run, as JavaScript's `Array.join`
/// throws `RangeError` (so a list that keeps adding its own contents to itself stops).
pub(crate) fn contents(l: &[Value], c: &mut impl Charge) -> Value {
    let single = l.iter().all(|v| matches!(v, Value::Str(x) if x.encode_utf16().count() == 1));
    let sep = usize::from(!single && !l.is_empty());
    let bytes = l.iter().map(|v| text_len(v) + sep).sum::<usize>();
    let units = || {
        let n: usize = l
            .iter()
            .map(|v| sep + if matches!(v, Value::Undefined) { 0 } else { text_units(v) })
            .sum();
        n.saturating_sub(sep)
    };
    if !c.string_fits(bytes, &units) {
        return Value::empty();
    }
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

/// `data_itemnumoflist`: scanning the list is work.
pub(crate) fn item_num(l: &[Value], item: &Value, c: &mut impl Charge) -> Value {
    if !c.spend(l.len()) {
        return Value::Num(0.0);
    }
    for (i, v) in l.iter().enumerate() {
        if cast::compare(v, item) == 0.0 {
            return Value::Num((i + 1) as f64);
        }
    }
    Value::Num(0.0)
}

/// `data_listcontainsitem`: scanning the list is work.
pub(crate) fn list_has(l: &[Value], item: &Value, c: &mut impl Charge) -> Value {
    if !c.spend(l.len()) {
        return Value::Bool(false);
    }
    Value::Bool(l.iter().any(|v| v.strict_eq(item) || cast::compare(v, item) == 0.0))
}

impl Vm {
    /// Run `f` on list `s` of `t` (moved out meanwhile; an empty list when there is none)
    /// and the VM, which charges the budgets.
    fn with_list<R>(
        &mut self,
        t: u32,
        s: Slot,
        f: impl FnOnce(&mut Vec<Value>, &mut Vm) -> R,
    ) -> R {
        let mut l = self.list_mut(t, s).map(core::mem::take);
        let r = f(l.get_or_insert_with(Vec::new), self);
        if let (Some(l), Some(x)) = (l, self.list_mut(t, s)) {
            *x = l;
        }
        r
    }

    pub(crate) fn exec_data(&mut self, op: &Sop, args: &[u32], t: u32) {
        let limit = self.cfg.max_list_len;
        match op {
            Sop::AddToList(s) => {
                let item = self.arg(args, 0, t);
                self.with_list(t, *s, |l, vm| add(l, item, limit, vm));
            }
            Sop::DeleteOfList(s) => {
                let index = self.arg(args, 0, t);
                let len = self.list(t, *s).len();
                let rng = &mut self.rng;
                let at = to_list_index(&index, len, true, || rng.next_f64());
                self.with_list(t, *s, |l, vm| delete(l, at, vm));
            }
            Sop::DeleteAllOfList(s) => self.with_list(t, *s, clear),
            Sop::InsertAtList(s) => {
                let item = self.arg(args, 0, t);
                let index = self.arg(args, 1, t);
                let len = self.list(t, *s).len();
                let rng = &mut self.rng;
                let at = to_list_index(&index, len + 1, false, || rng.next_f64());
                self.with_list(t, *s, |l, vm| insert(l, item, at, limit, vm));
            }
            Sop::ReplaceItemOfList(s) => {
                let index = self.arg(args, 0, t);
                let item = self.arg(args, 1, t);
                let len = self.list(t, *s).len();
                let rng = &mut self.rng;
                let at = to_list_index(&index, len, false, || rng.next_f64());
                self.with_list(t, *s, |l, vm| replace(l, item, at, vm));
            }
            _ => {}
        }
    }

    /// `data_listcontents`.
    pub(crate) fn list_contents(&mut self, t: u32, s: Slot) -> Value {
        self.with_list(t, s, |l, vm| contents(l, vm))
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
    pub(crate) fn item_num_of_list(&mut self, t: u32, s: Slot, item: &Value) -> Value {
        self.with_list(t, s, |l, vm| item_num(l, item, vm))
    }

    /// `data_listcontainsitem`.
    pub(crate) fn list_contains(&mut self, t: u32, s: Slot, item: &Value) -> Value {
        self.with_list(t, s, |l, vm| list_has(l, item, vm))
    }
}
