//! Extension blocks that need a camera or a network service (`videoSensing_*`,
//! `text2speech_*`, `translate_*`): what they do when there is none, which is always the case
//! for gobo. Each follows what scratch-vm 5.0.300 does in that situation (docs/scratch-blocks.md).
//!
//! - Video sensing without camera frames: `analyzeFrame` sets motion amount and direction to
//!   -1 for the stage and every sprite, so `video [motion|direction] on [sprite|stage]` reports
//!   -1 and `when video motion > (n)` is `-1 > n` (edge-activated). Turning the video on or off
//!   and its transparency change nothing observable.
//! - Text to speech without the synthesis service: the request fails, its promise resolves, and
//!   the thread goes on after the block, in the next frame (an offline browser). Voice and
//!   language only choose the request.
//! - Translate without the translation service: digits-only words come back as they are, any
//!   other request fails and reports the empty string. scratch-vm reports both through a
//!   promise (the thread resumes a frame later); gobo reports them at once. The viewer's
//!   language is English.

use crate::scratch::image::{ExprId, Rop};
use crate::scratch::value::cast::{to_number, to_str_value};
use crate::scratch::value::Value;
use crate::scratch::vm::Vm;

/// `whenMotionGreaterThan` with no camera: `-1 > Number(REFERENCE)` (a NaN reference is false,
/// as `Cast.toNumber`'s 0 would be).
pub(crate) fn motion_greater_than(reference: &Value) -> bool {
    -1.0 > to_number(reference)
}

impl Vm {
    pub(crate) fn eval_offline(&mut self, op: &Rop, args: &[ExprId], t: u32) -> Value {
        match op {
            Rop::VideoOn => {
                self.arg(args, 0, t);
                self.arg(args, 1, t);
                Value::Num(-1.0)
            }
            Rop::Translate => {
                let words = self.arg(args, 0, t);
                self.arg(args, 1, t);
                let text = to_str_value(&words);
                if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
                    words
                } else {
                    Value::empty()
                }
            }
            _ => Value::str("English"),
        }
    }

    /// `text2speech_speakAndWait`: wait for the failed request, i.e. until the next frame.
    pub(crate) fn exec_speak(&mut self, args: &[ExprId], t: u32) {
        self.arg(args, 0, t);
        let serial = self.th().serial;
        self.promise_wait();
        self.speech.push(serial);
    }

    /// Resume the threads that spoke during the last frame.
    pub(crate) fn resolve_speech(&mut self) {
        if self.speech.is_empty() {
            return;
        }
        let waiting = core::mem::take(&mut self.speech);
        for serial in waiting {
            self.resolve_promise(serial);
        }
    }
}
