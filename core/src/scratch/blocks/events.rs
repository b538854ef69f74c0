//! Event blocks (`event_*`): broadcast and broadcast-and-wait with scratch-vm's rules for
//! finding the message and waiting on the threads it started. Hats are started by the
//! sequencer (`vm::sched`).

use crate::scratch::value::case;
use alloc::rc::Rc;
use alloc::vec::Vec;

use crate::scratch::image::Sop;
use crate::scratch::value::cast::to_str_value;
use crate::scratch::vm::sched::HatSel;
use crate::scratch::vm::thread::{Ctx, Status};
use crate::scratch::vm::Vm;

impl Vm {
    /// The stage's broadcast message named `name` (case-insensitive).
    fn lookup_broadcast(&self, name: &str) -> Option<Rc<str>> {
        if name.is_empty() {
            return None;
        }
        let lower = case::to_lower(name);
        self.img
            .broadcasts
            .iter()
            .find(|b| case::to_lower(b) == lower)
            .map(|b| Rc::from(b.as_str()))
    }

    pub(crate) fn exec_events(&mut self, op: &Sop, args: &[u32], t: u32) {
        let name = to_str_value(&self.arg(args, 0, t));
        match op {
            Sop::Broadcast => {
                if let Some(m) = self.lookup_broadcast(&name) {
                    self.start_hats(HatSel::Broadcast(&m), None);
                }
            }
            _ => {
                let started = match self.th().ctx() {
                    Ctx::Started(s) => Some(s.clone()),
                    _ => None,
                };
                let started = match started {
                    Some(s) => s,
                    None => {
                        let Some(m) = self.lookup_broadcast(&name) else { return };
                        let s = self.start_hats(HatSel::Broadcast(&m), None);
                        if s.is_empty() {
                            return;
                        }
                        *self.th().ctx() = Ctx::Started(s.clone());
                        s
                    }
                };
                self.wait_for_started(&started);
            }
        }
    }

    /// Yield while threads started by broadcast/backdrop-and-wait are still in the list.
    pub(crate) fn wait_for_started(&mut self, started: &[u64]) {
        let found: Vec<Option<&crate::scratch::vm::thread::Thread>> =
            started.iter().map(|s| self.threads.iter().find(|t| t.serial == *s)).collect();
        if !found.iter().any(Option::is_some) {
            return;
        }
        let all_waiting = found.iter().all(|t| match t {
            None => true,
            Some(t) => {
                matches!(t.status, Status::PromiseWait | Status::YieldTick)
                    || t.frames.is_empty()
                    || t.status == Status::Done
            }
        });
        if all_waiting {
            self.yield_tick();
        } else {
            self.yield_now();
        }
    }
}
