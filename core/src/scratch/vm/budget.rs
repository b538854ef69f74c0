//! Run budgets: what stops a runaway Scratch program before it exhausts the machine. The
//! limits live in [`Config`](super::Config) (string length, total list bytes, call depth,
//! thread count, a memory ceiling, size-proportional work per frame); exceeding one halts the run with
//! a [`Stop`] naming the reason, the frame and the sprite. The checks sit where strings,
//! lists, stacks and the thread list grow; none of them allocates.
//!
//! Semantics of a halt: the frame in which a budget ran out is abandoned, as scratch-vm's
//! step is when a block throws (JavaScript's `RangeError: Invalid string length` propagates
//! out of `runtime._step()`; the reference harness then prints no line for that frame and
//! exits with an error). Later [`Vm::step_frame`](super::Vm::step_frame) calls do nothing.

use alloc::rc::Rc;
use core::fmt;
use core::mem::size_of;

use crate::scratch::value::Value;
use crate::scratch::vm::thread::{Frame, Thread};
use crate::scratch::vm::Vm;

/// V8's `String::kMaxLength` on 64-bit hosts: the longest JavaScript string, in UTF-16 code
/// units (`2^29 - 24`). A longer `join` throws `RangeError: Invalid string length`.
pub const JS_MAX_STRING_LEN: usize = (1 << 29) - 24;

/// Growth (in accounted bytes) between two scans of the whole memory estimate (or an eighth
/// of `max_memory`, when less).
const SCAN_EVERY: usize = 8 << 20;

/// Which budget of [`Config`](super::Config) ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StopReason {
    /// A string would exceed `max_string_len` UTF-16 code units (JavaScript's own limit by
    /// default: the reference throws a `RangeError` at the same block).
    StringLength,
    /// The items of all lists would exceed `max_list_bytes`.
    ListBytes,
    /// A thread's stack would exceed `max_call_depth` frames (custom blocks calling themselves
    /// without a base case).
    CallDepth,
    /// The thread list would exceed `max_threads`.
    Threads,
    /// The estimated memory of the run would exceed `max_memory` bytes.
    Memory,
    /// Size-proportional work in one frame (bytes of strings built or scanned, list items
    /// scanned, moved or copied) would exceed `max_frame_work` units.
    Work,
}

impl StopReason {
    /// The name used in traces and JSON (`string_length`, `list_bytes`, `call_depth`,
    /// `threads`, `memory`, `work`).
    pub fn name(self) -> &'static str {
        match self {
            StopReason::StringLength => "string_length",
            StopReason::ListBytes => "list_bytes",
            StopReason::CallDepth => "call_depth",
            StopReason::Threads => "threads",
            StopReason::Memory => "memory",
            StopReason::Work => "work",
        }
    }

    fn what(self) -> &'static str {
        match self {
            StopReason::StringLength => "a string would be longer than",
            StopReason::ListBytes => "the lists would hold more than",
            StopReason::CallDepth => "a script's stack would be deeper than",
            StopReason::Threads => "more scripts would run at once than",
            StopReason::Memory => "the run would use more memory than",
            StopReason::Work => "a frame would do more string and list work than",
        }
    }

    fn unit(self) -> &'static str {
        match self {
            StopReason::StringLength => "characters (UTF-16 code units)",
            StopReason::ListBytes | StopReason::Memory => "bytes",
            StopReason::CallDepth => "frames",
            StopReason::Threads => "threads",
            StopReason::Work => "units",
        }
    }
}

/// Why and where a run halted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    /// The budget that ran out.
    pub reason: StopReason,
    /// The limit in force (the [`Config`](super::Config) field's value).
    pub limit: u64,
    /// The frame abandoned (frames `0..frame` completed).
    pub frame: u64,
    /// The sprite (or `Stage`) whose script was running, when one was.
    pub target: Option<Rc<str>>,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stopped in frame {}: ", self.frame)?;
        if let Some(t) = &self.target {
            write!(f, "in {t:?}, ")?;
        }
        write!(
            f,
            "{} {} {} ({})",
            self.reason.what(),
            self.limit,
            self.reason.unit(),
            self.reason.name()
        )
    }
}

impl core::error::Error for Stop {}

/// The VM's budget state.
#[derive(Clone, Debug, Default)]
pub(crate) struct Budget {
    /// Accounted bytes of every list item of every live target ([`item_bytes`]).
    pub list_bytes: usize,
    /// Accounted growth since the last memory scan.
    since_scan: usize,
    /// Work spent in this frame.
    work: u64,
    /// Set when a budget ran out.
    pub halt: Option<Stop>,
}

impl Budget {
    /// Add `units` of work; true when the frame's work is then over `max`.
    #[inline]
    fn add_work(&mut self, units: usize, max: u64) -> bool {
        self.work = self.work.saturating_add(units as u64);
        self.work > max
    }

    /// Add `add` list bytes unless the total would exceed `max` (then false, unchanged).
    fn add_list_bytes(&mut self, add: usize, max: usize) -> bool {
        let total = self.list_bytes.saturating_add(add);
        if total > max {
            return false;
        }
        self.list_bytes = total;
        true
    }

    /// Account `bytes` of growth; true when the whole memory estimate is due for a
    /// comparison with `max_memory` (every [`SCAN_EVERY`] bytes, or an eighth of it).
    fn scan_due(&mut self, bytes: usize, max_memory: usize) -> bool {
        self.since_scan = self.since_scan.saturating_add(bytes);
        if self.since_scan < SCAN_EVERY.min(max_memory / 8) {
            return false;
        }
        self.since_scan = 0;
        true
    }
}

/// What the size-proportional blocks (strings built or scanned, list changes and scans)
/// charge, implemented by the VM and by the register tier's [`Meter`], so both halt at the
/// same block for the same reason. Every method returns false when the run is (then)
/// halted; the block then does what the VM's does after a halt (leaves its list unchanged,
/// reports the empty value).
pub(crate) trait Charge {
    /// [`Vm::spend`].
    fn spend(&mut self, units: usize) -> bool;
    /// [`Vm::list_grow`].
    fn list_grow(&mut self, add: usize) -> bool;
    /// [`Vm::list_shrink`].
    fn list_shrink(&mut self, removed: usize);
    /// Account `bytes` of list items again that [`Charge::list_shrink`] just released,
    /// without a check (a replacement that did not fit puts the old item's bytes back).
    fn list_restore(&mut self, bytes: usize);
    /// [`Vm::string_fits`], with the units counted by `units` only when needed.
    fn string_fits(&mut self, bytes: usize, units: &dyn Fn() -> usize) -> bool;
}

impl Charge for Vm {
    fn spend(&mut self, units: usize) -> bool {
        Vm::spend(self, units)
    }
    fn list_grow(&mut self, add: usize) -> bool {
        Vm::list_grow(self, add)
    }
    fn list_shrink(&mut self, removed: usize) {
        Vm::list_shrink(self, removed);
    }
    fn list_restore(&mut self, bytes: usize) {
        self.budget.list_bytes += bytes;
    }
    fn string_fits(&mut self, bytes: usize, units: &dyn Fn() -> usize) -> bool {
        Vm::string_fits(self, bytes, |_| units())
    }
}

#[cfg(feature = "tier")]
/// The limits a [`Meter`] checks (the budget fields of [`Config`](super::Config)).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub max_string_len: usize,
    pub max_list_bytes: usize,
    pub max_memory: usize,
    pub max_frame_work: u64,
}

#[cfg(feature = "tier")]
/// The budgets as the register tier charges them while a region runs: the VM's [`Budget`]
/// itself, with the memory estimate split in what the region cannot change (`fixed`,
/// measured when it is entered, its variables moved out) and what it can (list bytes, the
/// VM's `join` buffer, the strings its variable registers hold, counted by the region).
/// A budget that runs out is `tripped`; the VM halts with it when the region returns.
#[derive(Debug)]
pub(crate) struct Meter<'a> {
    pub budget: &'a mut Budget,
    pub lim: Limits,
    /// The join buffer (`Vm::text_buf`).
    pub text: &'a mut alloc::string::String,
    /// Accounted bytes the region cannot change.
    pub fixed: usize,
    /// The budget that ran out, and its limit.
    pub tripped: Option<(StopReason, u64)>,
}

#[cfg(feature = "tier")]
impl Meter<'_> {
    /// Whether the run is halted (before or while the region runs).
    #[inline]
    pub(crate) fn halted(&self) -> bool {
        self.tripped.is_some() || self.budget.halt.is_some()
    }

    fn trip(&mut self, reason: StopReason, limit: u64) {
        if !self.halted() {
            self.tripped = Some((reason, limit));
        }
    }

    /// Account `bytes` of growth when that does not make a memory scan due (true); false
    /// leaves everything as it was (the caller takes the full path).
    #[inline]
    pub(crate) fn grow_quiet(&mut self, bytes: usize) -> bool {
        let since = self.budget.since_scan.saturating_add(bytes);
        if self.halted() || since >= SCAN_EVERY.min(self.lim.max_memory / 8) {
            return false;
        }
        self.budget.since_scan = since;
        true
    }

    /// [`Vm::grow`], with `live` the bytes the region's variable registers hold now.
    fn grow(&mut self, bytes: usize, live: &dyn Fn() -> usize) -> bool {
        if self.budget.scan_due(bytes, self.lim.max_memory) {
            let estimate = self.fixed + self.budget.list_bytes + self.text.capacity() + live();
            if estimate > self.lim.max_memory {
                self.trip(StopReason::Memory, self.lim.max_memory as u64);
            }
        }
        !self.halted()
    }
}

#[cfg(feature = "tier")]
/// A [`Meter`] with the view of the region's variable registers its memory scans need.
pub(crate) struct Metered<'m, 'a> {
    pub meter: &'m mut Meter<'a>,
    /// Bytes of the strings the region's variables hold now.
    pub live: &'m dyn Fn() -> usize,
}

#[cfg(feature = "tier")]
impl Charge for Metered<'_, '_> {
    fn spend(&mut self, units: usize) -> bool {
        let m = &mut *self.meter;
        if m.budget.add_work(units, m.lim.max_frame_work) {
            m.trip(StopReason::Work, m.lim.max_frame_work);
        }
        !m.halted()
    }
    fn list_grow(&mut self, add: usize) -> bool {
        let m = &mut *self.meter;
        if !m.budget.add_list_bytes(add, m.lim.max_list_bytes) {
            m.trip(StopReason::ListBytes, m.lim.max_list_bytes as u64);
            return false;
        }
        m.grow(add, self.live)
    }
    fn list_shrink(&mut self, removed: usize) {
        self.meter.budget.list_bytes = self.meter.budget.list_bytes.saturating_sub(removed);
    }
    fn list_restore(&mut self, bytes: usize) {
        self.meter.budget.list_bytes += bytes;
    }
    fn string_fits(&mut self, bytes: usize, units: &dyn Fn() -> usize) -> bool {
        let m = &mut *self.meter;
        let max = m.lim.max_string_len;
        if bytes > max && units() > max {
            m.trip(StopReason::StringLength, max as u64);
            return false;
        }
        self.spend(bytes) && self.meter.grow(bytes, self.live)
    }
}

/// Accounted bytes of one list item: the value plus its string's bytes (a string shared by
/// several items is counted for each, as each is a separate item to the program).
#[inline]
pub(crate) fn item_bytes(v: &Value) -> usize {
    size_of::<Value>() + if let Value::Str(s) = v { s.len() } else { 0 }
}

/// Accounted bytes of a list's items.
pub(crate) fn list_bytes(l: &[Value]) -> usize {
    l.iter().map(item_bytes).sum()
}

fn thread_bytes(t: &Thread) -> usize {
    size_of::<Thread>()
        + t.frames.capacity() * size_of::<Frame>()
        + t.params.capacity() * size_of::<Value>()
}

impl Vm {
    /// Why the run halted, if a budget ran out (see [`Stop`]).
    pub fn stopped(&self) -> Option<&Stop> {
        self.budget.halt.as_ref()
    }

    /// Whether a budget ran out.
    #[inline]
    pub(crate) fn halted(&self) -> bool {
        self.budget.halt.is_some()
    }

    /// The memory the run accounts against `max_memory`: list items, strings held by
    /// variables and monitors, thread stacks and procedure parameters. Strings count their
    /// UTF-8 bytes; shared strings count once per holder.
    pub fn memory_estimate(&self) -> usize {
        let vars: usize = self
            .insts
            .iter()
            .flat_map(|i| i.vars.iter())
            .chain(&self.monitor_values)
            .chain(&self.regs)
            .map(item_bytes)
            .sum();
        let threads: usize = self.threads.iter().map(thread_bytes).sum();
        self.budget.list_bytes + vars + threads + self.text_buf.capacity()
    }

    /// Halt the run: `reason` ran out at `limit`.
    pub(crate) fn halt(&mut self, reason: StopReason, limit: u64) {
        if self.budget.halt.is_some() {
            return;
        }
        let target = self.thread_target().map(|t| self.name_of(t));
        self.budget.halt = Some(Stop { reason, limit, frame: self.frame, target });
        // Ends the passes of this frame at once.
        self.warp_expired = true;
    }

    fn thread_target(&self) -> Option<u32> {
        match self.active {
            super::Active::None => None,
            super::Active::Detached => self.detached.as_ref().map(|t| t.target),
            super::Active::Pass(i) => match &self.orphans {
                Some(o) => o.get(i).map(|t| t.target),
                None => self.threads.get(i).map(|t| t.target),
            },
            super::Active::Hat(i) => self.threads.get(i).map(|t| t.target),
        }
    }

    /// Account `bytes` of growth; every [`SCAN_EVERY`] bytes the whole estimate is compared
    /// with `max_memory`. Returns false (and halts) when over.
    pub(crate) fn grow(&mut self, bytes: usize) -> bool {
        if !self.budget.scan_due(bytes, self.cfg.max_memory) {
            return !self.halted();
        }
        if self.memory_estimate() > self.cfg.max_memory {
            self.halt(StopReason::Memory, self.cfg.max_memory as u64);
        }
        !self.halted()
    }

    /// A new frame: its work budget is full again.
    pub(crate) fn new_frame_work(&mut self) {
        self.budget.work = 0;
    }

    /// Spend `units` of size-proportional work. Returns false (and halts) when over budget.
    #[inline]
    pub(crate) fn spend(&mut self, units: usize) -> bool {
        if self.budget.add_work(units, self.cfg.max_frame_work) {
            self.halt(StopReason::Work, self.cfg.max_frame_work);
        }
        !self.halted()
    }

    /// Account list items added (`add > 0`) or removed. Returns false (and halts) when the
    /// total would exceed `max_list_bytes` (the caller then leaves the list unchanged).
    pub(crate) fn list_grow(&mut self, add: usize) -> bool {
        if !self.budget.add_list_bytes(add, self.cfg.max_list_bytes) {
            self.halt(StopReason::ListBytes, self.cfg.max_list_bytes as u64);
            return false;
        }
        self.grow(add)
    }

    /// Account list items removed.
    pub(crate) fn list_shrink(&mut self, removed: usize) {
        self.budget.list_bytes = self.budget.list_bytes.saturating_sub(removed);
    }

    /// Whether a string of `bytes` UTF-8 bytes (at most) and `units(self)` UTF-16 code units
    /// fits `max_string_len` (JavaScript measures UTF-16); halts when it does not. Counts the
    /// units only when the bytes (never fewer than the units) are over the limit. Then spends
    /// and accounts `bytes` ([`Vm::spend`], [`Vm::grow`]): the string is about to be built.
    pub(crate) fn string_fits(&mut self, bytes: usize, units: impl FnOnce(&Vm) -> usize) -> bool {
        let max = self.cfg.max_string_len;
        if bytes > max && units(self) > max {
            self.halt(StopReason::StringLength, max as u64);
            return false;
        }
        self.spend(bytes) && self.grow(bytes)
    }

    /// A procedure call is about to push a frame on a thread `depth` frames deep.
    pub(crate) fn call_fits(&mut self, depth: usize, params: usize) -> bool {
        if depth >= self.cfg.max_call_depth {
            self.halt(StopReason::CallDepth, self.cfg.max_call_depth as u64);
            return false;
        }
        self.grow(size_of::<Frame>() + params * size_of::<Value>())
    }

    /// A thread is about to be added to the thread list.
    pub(crate) fn thread_fits(&mut self) -> bool {
        if self.threads.len() >= self.cfg.max_threads {
            self.halt(StopReason::Threads, self.cfg.max_threads as u64);
            return false;
        }
        self.grow(size_of::<Thread>())
    }
}
