//! Makey Makey extension hats (`makeymakey_*`), after scratch-vm's
//! `extensions/scratch3_makeymakey`: both are edge-activated hats checked every frame.
//!
//! - `when [KEY] key pressed` is true while the key is down *and* the extension's
//!   `frameToggle` is set. scratch-vm flips that flag with a `setInterval` of one frame period
//!   started when the project loads; on gobo's virtual clock it flips once at the start of
//!   every frame, so it is set during odd frames (frame 0 is the first) and a held key
//!   starts the script every other frame.
//! - `when [SEQUENCE] pressed` compares the last key presses (the first word of the Scratch
//!   key name, upper-cased; at most 100 kept) with the sequence once the hat has been
//!   checked at least once (that registers it). A match sets the sequence's `completed`
//!   flag and a 100 ms timeout clears it again. Stop all (also the green flag) empties the
//!   key buffer.

use crate::scratch::value::case;
use alloc::rc::Rc;
use alloc::string::String;

use crate::scratch::value::cast::to_str_value;
use crate::scratch::value::Value;
use crate::scratch::vm::io::key_arg_to_scratch;
use crate::scratch::vm::makey::Sequence;
use crate::scratch::vm::Vm;

/// `KEY_BUFFER_LENGTH`.
const KEY_BUFFER: usize = 100;
/// `SEQUENCE_HAT_TIMEOUT` in ms.
const SEQUENCE_TIMEOUT: f64 = 100.0;

/// Scratch key names of the menu's key ids (`SCRATCH_KEY_NAME`).
fn menu_key(v: &Value) -> Option<&'static str> {
    let Value::Str(s) = v else { return None };
    Some(match &**s {
        "SPACE" => "space",
        "LEFT" => "left arrow",
        "UP" => "up arrow",
        "RIGHT" => "right arrow",
        "DOWN" => "down arrow",
        _ => return None,
    })
}

impl Vm {
    /// `keyPressed(key)` on `KEY_PRESSED` (every key-down post, `key` a Scratch key name).
    pub(crate) fn makey_key_pressed(&mut self, key: &str) {
        if !self.makey.codes {
            return;
        }
        let first = case::to_upper(key.split(' ').next().unwrap_or(""));
        let m = &mut self.makey;
        m.buffer.push_back(Rc::from(first.as_str()));
        if m.buffer.len() > KEY_BUFFER {
            m.buffer.pop_front();
        }
        let due = self.now_ms + SEQUENCE_TIMEOUT;
        for (i, s) in m.sequences.iter_mut().enumerate() {
            let n = s.keys.len();
            if m.buffer.len() < n {
                continue;
            }
            let tail = m.buffer.iter().skip(m.buffer.len() - n);
            if tail.zip(&s.keys).all(|(b, k)| **b == **k) {
                s.completed = true;
                m.timers.push((due, i));
            }
        }
    }

    /// Fire the due sequence timeouts (with the frame's other timeouts).
    pub(crate) fn makey_fire_timers(&mut self) {
        let now = self.now_ms;
        let m = &mut self.makey;
        if m.timers.is_empty() {
            return;
        }
        for &(due, i) in &m.timers {
            if due <= now {
                if let Some(s) = m.sequences.get_mut(i) {
                    s.completed = false;
                }
            }
        }
        m.timers.retain(|t| t.0 > now);
    }

    /// `whenMakeyKeyPressed`: the key is down and the frame toggle is set.
    pub(crate) fn makey_key_hat(&self, key: &Value) -> bool {
        let down = match menu_key(key) {
            Some(name) => self.io.keys.iter().any(|p| **p == *name),
            None if matches!(key, Value::Str(s) if &**s == "any") => !self.io.keys.is_empty(),
            None => {
                let k = key_arg_to_scratch(key);
                self.io.keys.iter().any(|p| **p == *k)
            }
        };
        down && self.frame % 2 == 1
    }

    /// `whenCodePressed`: registers the sequence, then reports whether it was just completed.
    pub(crate) fn makey_code_hat(&mut self, seq: &Value) -> bool {
        let text = case::to_upper(&to_str_value(seq));
        if text.split(' ').nth(1).is_none() {
            return false;
        }
        let m = &mut self.makey;
        if let Some(s) = m.sequences.iter().find(|s| s.text == text) {
            return s.completed;
        }
        let keys = text.split(' ').map(String::from).collect();
        m.sequences.push(Sequence { text, keys, completed: false });
        false
    }
}
