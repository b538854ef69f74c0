//! The block layer as the VM calls it. scratch-vm's runtime knows its block packages only
//! through what they register (primitives, hat predicates, listeners of runtime events);
//! `Blocks` is that registration here: `crate::scratch::blocks` implements it for `Vm`,
//! and the VM's modules call blocks only through it, so the dependencies point one way
//! (render ← vm ← blocks; see `crate::scratch`).

use crate::scratch::image::{ExprId, Image, Rop, Sop, StmtId};
use crate::scratch::value::Value;

/// What the runtime asks of the block packages.
pub(crate) trait Blocks {
    /// scratch-vm's `execute(sequencer, thread)` for the active thread's top block `cur`:
    /// evaluate the block's inputs, then run it (`t` is the thread's target, `img` is
    /// `self.img`).
    fn execute_in(&mut self, img: &Image, cur: StmtId, t: u32);
    /// A motion statement other than the glides, run straight from a fused loop
    /// (`super::fast`): what `execute_in` would do with it.
    fn motion_leaf(&mut self, op: &Sop, args: &[ExprId], t: u32);
    /// The value of reporter `op` with inputs `args` for target `t`.
    fn eval_op(&mut self, img: &Image, op: &Rop, args: &[ExprId], t: u32) -> Value;
    /// `+ - * / mod` on numbers (`operator_add` and its kin).
    fn arith_num(op: &Rop, x: f64, y: f64) -> f64;
    /// `makeymakey_whenMakeyKeyPressed`'s predicate.
    fn hat_makey_key(&self, key: &Value) -> bool;
    /// `makeymakey_whenCodePressed`'s predicate (registers the sequence).
    fn hat_makey_code(&mut self, seq: &Value) -> bool;
    /// `videoSensing_whenMotionGreaterThan`'s predicate (no camera).
    fn hat_video_motion(reference: &Value) -> bool;
    /// `KEY_PRESSED` (a Scratch key name): the Makey Makey key buffer.
    fn key_pressed(&mut self, key: &str);
    /// The Makey Makey sequence timeouts due by now.
    fn fire_makey_timers(&mut self);
    /// Resume the threads that spoke (text to speech) during the last frame.
    fn resume_speakers(&mut self);
    /// `ANSWER`: the sensing package takes the answer to the question shown.
    fn answered(&mut self, text: &str);
    /// The sensing package shows the next question of its queue.
    fn ask_next_question(&mut self);
    /// `EVENT_TARGET_MOVED` (a non-dragging move from `old_x`, `old_y`): the pen draws.
    fn target_moved(&mut self, t: u32, old_x: f64, old_y: f64);
}
