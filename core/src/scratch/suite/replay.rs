//! A [`Subject`] that replays a recorded per-frame trace (refvm schema) instead of running a
//! VM, so a suite can judge a reference run; in strict mode every input the suite sends must
//! be the one the trace recorded at that frame. It also writes the refvm scenario matching the
//! inputs a run sent, which is how such traces are recorded.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{json, Value as Json};

use super::observe::Snapshot;
use super::run::{Action, Subject};

/// Replays trace frames in order (each read once, when the trace is loaded).
#[derive(Debug, Clone)]
pub struct TraceSubject {
    /// Each frame's observation and the refvm actions it recorded.
    frames: Vec<(Snapshot, Vec<String>)>,
    next: usize,
    pending: Vec<Action>,
    strict: bool,
    /// Every input sent, with the frame it applied to.
    pub applied: Vec<(u64, Action)>,
}

/// The refvm action name of an input (`None`: the reference scenario format has none).
pub fn refvm_action(a: &Action) -> Option<&'static str> {
    Some(match a {
        Action::GreenFlag => "green_flag",
        Action::StopAll => "stop_all",
        Action::KeyDown(_) => "key_down",
        Action::KeyUp(_) => "key_up",
        Action::MouseMove { .. } => "mouse_move",
        Action::MouseDown { .. } => "mouse_down",
        Action::MouseUp { .. } => "mouse_up",
        Action::Click(_) => "click_sprite",
        Action::Broadcast(_) => "broadcast",
        Action::Answer(_) => "answer",
        Action::SetVariable { .. }
        | Action::SetList { .. }
        | Action::SetSprite { .. }
        | Action::FlagSprite(_)
        | Action::MouseFlag { .. } => return None,
    })
}

impl TraceSubject {
    /// Reads a JSON-lines trace; `strict` checks the suite's inputs against the trace's.
    pub fn new(trace: &str, strict: bool) -> Result<TraceSubject, String> {
        let mut frames = Vec::new();
        for (n, line) in trace.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let v: Json =
                serde_json::from_str(line).map_err(|e| format!("trace line {}: {e}", n + 1))?;
            let Json::Object(map) = v else {
                return Err(format!("trace line {}: not an object", n + 1));
            };
            if map.contains_key("f") {
                let actions = map
                    .get("actions")
                    .and_then(Json::as_array)
                    .map(|a| a.iter().filter_map(Json::as_str).map(String::from).collect())
                    .unwrap_or_default();
                frames.push((Snapshot::from_trace_frame(&map), actions));
            }
        }
        Ok(TraceSubject { frames, next: 0, pending: Vec::new(), strict, applied: Vec::new() })
    }

    /// The refvm scenario (`{frames, seed, events}`) of the inputs sent so far.
    pub fn scenario(&self, seed: u64) -> Json {
        let events: Vec<Json> = self
            .applied
            .iter()
            .filter_map(|(f, a)| {
                let name = refvm_action(a)?;
                let mut e = json!({"frame": f, "action": name});
                let m = e.as_object_mut()?;
                match a {
                    Action::KeyDown(k) | Action::KeyUp(k) => {
                        m.insert("key".into(), Json::from(k.as_str()));
                    }
                    Action::MouseMove { x, y }
                    | Action::MouseDown { pos: Some((x, y)) }
                    | Action::MouseUp { pos: Some((x, y)) } => {
                        m.insert("x".into(), Json::from(*x));
                        m.insert("y".into(), Json::from(*y));
                    }
                    Action::Click(s) => {
                        m.insert("name".into(), Json::from(s.as_str()));
                    }
                    Action::Broadcast(s) => {
                        m.insert("message".into(), Json::from(s.as_str()));
                    }
                    Action::Answer(s) => {
                        m.insert("text".into(), Json::from(s.as_str()));
                    }
                    _ => {}
                }
                Some(e)
            })
            .collect();
        json!({"frames": self.next, "seed": seed, "events": events})
    }
}

impl Subject for TraceSubject {
    /// A recorded trace runs no blocks.
    fn block_ops(&self) -> u64 {
        0
    }

    fn act(&mut self, action: &Action) -> Result<(), String> {
        if self.strict && refvm_action(action).is_none() {
            return Err("a recorded trace cannot replay direct writes or inputs without an event"
                .to_string());
        }
        self.pending.push(action.clone());
        Ok(())
    }

    fn step(&mut self, out: &mut Snapshot) -> Result<(), String> {
        let frame = self.next as u64;
        let Some((snap, recorded)) = self.frames.get(self.next) else {
            return Err(format!("the trace ends after {} frames", self.frames.len()));
        };
        if self.strict {
            let sent: Vec<&str> = self.pending.iter().filter_map(refvm_action).collect();
            if sent.len() != recorded.len() || sent.iter().zip(recorded).any(|(a, b)| *a != b) {
                return Err(format!(
                    "the trace does not follow the suite at frame {frame}: the suite sends {sent:?}, the trace recorded {recorded:?}"
                ));
            }
        }
        for a in self.pending.drain(..) {
            self.applied.push((frame, a));
        }
        out.clone_from(snap);
        self.next += 1;
        Ok(())
    }
}
