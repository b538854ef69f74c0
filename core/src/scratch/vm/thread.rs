//! Threads: scratch-vm's `Thread` with its stack of frames, mirrored one to one (a frame per
//! pushed block, `isLoop`, `warpMode`, the block's execution context), plus the parameter
//! values of running procedure calls.

use alloc::vec::Vec;

use crate::scratch::image::StmtId;
use crate::scratch::value::Value;

/// Thread status, as scratch-vm's `Thread.STATUS_*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Running.
    Running,
    /// Waiting for a promise (ask, say for secs).
    PromiseWait,
    /// Yielded for this tick.
    Yield,
    /// Yielded until the next frame.
    YieldTick,
    /// Finished.
    Done,
}

/// Per-block execution state (`util.stackFrame`).
#[derive(Clone, Debug, Default)]
pub enum Ctx {
    /// Nothing stored yet.
    #[default]
    None,
    /// `repeat`'s loop counter or `for each`'s index.
    Counter(f64),
    /// A stack timer (`wait`): start ms and duration ms.
    Timer(f64, f64),
    /// A glide: timer start, duration, start x/y, end x/y.
    Glide([f64; 6]),
    /// A procedure call that has started.
    Executed,
    /// Broadcast-and-wait / switch-backdrop-and-wait: the threads started (by serial).
    Started(Vec<u64>),
    /// Broadcast-and-wait found no message.
    NoMessage,
}

/// One stack frame.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The block (None is scratch-vm's `null` entry: an empty branch or finished stack).
    pub block: Option<StmtId>,
    /// Set by loops starting their branch.
    pub is_loop: bool,
    /// Run without screen refresh.
    pub warp: bool,
    /// The block's execution context.
    pub ctx: Ctx,
    /// Start of this frame's procedure parameters in [`Thread::params`], when it holds any.
    pub params: Option<u32>,
}

/// A thread.
#[derive(Clone, Debug)]
pub struct Thread {
    /// Unique serial (identity for broadcast-and-wait and promise resolution).
    pub serial: u64,
    /// The target (instance index) running it.
    pub target: u32,
    /// The hat statement it started from.
    pub top: StmtId,
    /// The stack.
    pub frames: Vec<Frame>,
    /// Status.
    pub status: Status,
    /// Stopped by another script or a clone deletion.
    pub killed: bool,
    /// Warp-check counter while a warp timer exists (P5).
    pub warp_timer: Option<u32>,
    /// Parameter values of running calls (frames point into it).
    pub params: Vec<Value>,
    /// Context handed out when the stack is empty (never read back).
    spare: Ctx,
}

impl Thread {
    /// A thread with its top block pushed.
    pub fn new(serial: u64, target: u32, top: StmtId) -> Thread {
        let mut t = Thread {
            serial,
            target,
            top,
            frames: Vec::new(),
            status: Status::Running,
            killed: false,
            warp_timer: None,
            params: Vec::new(),
            spare: Ctx::None,
        };
        t.push(Some(top));
        t
    }

    /// `pushStack`: a new frame inheriting the warp mode of the frame below.
    pub fn push(&mut self, block: Option<StmtId>) {
        let warp = self.frames.last().is_some_and(|f| f.warp);
        self.frames.push(Frame { block, is_loop: false, warp, ctx: Ctx::None, params: None });
    }

    /// `popStack`.
    pub fn pop(&mut self) -> Option<Option<StmtId>> {
        let f = self.frames.pop()?;
        if let Some(base) = f.params {
            self.params.truncate(base as usize);
        }
        Some(f.block)
    }

    /// `peekStack`.
    #[inline]
    pub fn peek(&self) -> Option<StmtId> {
        self.frames.last().and_then(|f| f.block)
    }

    /// `reuseStackForNextBlock`: same frame, state reset, warp mode kept.
    pub fn reuse(&mut self, block: Option<StmtId>) {
        if let Some(f) = self.frames.last_mut() {
            f.block = block;
            f.is_loop = false;
            f.ctx = Ctx::None;
            if let Some(base) = f.params.take() {
                self.params.truncate(base as usize);
            }
        }
    }

    /// `retireThread`.
    pub fn retire(&mut self) {
        self.frames.clear();
        self.params.clear();
        self.status = Status::Done;
    }

    /// Stack empty or done.
    #[inline]
    pub fn is_finished(&self) -> bool {
        self.frames.is_empty() || self.status == Status::Done
    }

    /// The top frame's context.
    pub fn ctx(&mut self) -> &mut Ctx {
        match self.frames.last_mut() {
            Some(f) => &mut f.ctx,
            None => &mut self.spare,
        }
    }

    /// The value of parameter `index` of the innermost running call (`null` → None).
    pub fn param(&self, index: u32) -> Option<&Value> {
        let f = self.frames.iter().rev().find(|f| f.params.is_some())?;
        let base = f.params? as usize;
        self.params.get(base + index as usize)
    }
}
