//! Block semantics, one module per family, as `impl Vm` methods called by `Vm::execute_in`
//! (statements) and by the reporter evaluator. Each follows the matching
//! `scratch-vm/src/blocks/scratch3_*.js` file.

pub mod control;
pub mod data;
pub mod events;
pub mod looks;
pub mod makeymakey;
pub mod motion;
pub mod music;
pub mod offline;
pub mod operators;
pub mod pen;
pub mod procedures;
pub mod sensing;

use crate::scratch::image::{Image, Sop, StmtId};
use crate::scratch::value::cast::{to_bool, to_number};
use crate::scratch::vm::Vm;

impl Vm {
    /// scratch-vm's `execute(sequencer, thread)` for the active thread's top block `cur`:
    /// evaluate the block's inputs, then run it (`t` is the thread's target, `img` is
    /// `self.img`).
    pub(crate) fn execute_in(&mut self, img: &Image, cur: StmtId, t: u32) {
        let s = &img.stmts[cur as usize];
        let args = &img.args[s.args as usize..s.args as usize + s.nargs as usize];
        if !img.stmt_hoists.is_empty() {
            if let Ok(i) = img.stmt_hoists.binary_search_by_key(&cur, |p| p.0) {
                self.run_hoist(img, img.stmt_hoists[i].1, t);
            }
        }
        match &s.op {
            Sop::Hat
            | Sop::HatGreater(_)
            | Sop::HatTouching
            | Sop::HatMakeyKey
            | Sop::HatMakeyCode
            | Sop::HatVideoMotion => {}
            Sop::Unimplemented | Sop::Nop => {
                for k in 0..args.len() {
                    self.arg_in(img, args, k, t);
                }
            }
            Sop::Repeat => {
                let n = self.num_arg_in(img, args, 0, t);
                self.repeat(cur, n);
            }
            Sop::Forever => self.step_to_branch(cur, 0, true),
            Sop::If => {
                if to_bool(&self.arg_in(img, args, 0, t)) {
                    self.step_to_branch(cur, 0, false);
                }
            }
            Sop::IfElse => {
                let b = if to_bool(&self.arg_in(img, args, 0, t)) { 0 } else { 1 };
                self.step_to_branch(cur, b, false);
            }
            Sop::RepeatUntil => {
                if !to_bool(&self.arg_in(img, args, 0, t)) {
                    self.step_to_branch(cur, 0, true);
                }
            }
            Sop::While => {
                if to_bool(&self.arg_in(img, args, 0, t)) {
                    self.step_to_branch(cur, 0, true);
                }
            }
            Sop::WaitUntil => {
                if !to_bool(&self.arg_in(img, args, 0, t)) {
                    self.yield_now();
                }
            }
            Sop::SetVar(slot) => {
                let v = self.arg_in(img, args, 0, t);
                if let Some(x) = self.var_mut(t, *slot) {
                    *x = v;
                }
            }
            Sop::ChangeVar(slot) => {
                let d = self.num_arg_in(img, args, 0, t);
                self.change_var(t, *slot, d);
            }
            op => self.execute_other(op, cur, args, t),
        }
    }

    fn execute_other(&mut self, op: &Sop, cur: StmtId, args: &[u32], t: u32) {
        match op {
            Sop::Wait
            | Sop::ForEach(_)
            | Sop::Stop(_)
            | Sop::CreateClone
            | Sop::DeleteClone
            | Sop::AllAtOnce
            | Sop::IncrCounter
            | Sop::ClearCounter => self.exec_control(op, cur, args, t),
            Sop::AddToList(_)
            | Sop::DeleteOfList(_)
            | Sop::DeleteAllOfList(_)
            | Sop::InsertAtList(_)
            | Sop::ReplaceItemOfList(_) => self.exec_data(op, args, t),
            Sop::Broadcast | Sop::BroadcastAndWait => self.exec_events(op, args, t),
            Sop::Call { .. } => self.exec_call(op, args, t),
            Sop::PlaySound(wait) => {
                let menu = self.arg(args, 0, t);
                self.play_sound(t, &menu, *wait);
            }
            Sop::StopAllSounds => self.stop_all_sounds(),
            Sop::SoundEffect { change, fx } => {
                let v = self.arg(args, 0, t);
                self.update_sound_effect(t, *fx, &v, *change);
            }
            Sop::ClearSoundEffects => self.clear_sound_effects(t),
            Sop::Pen(p) => self.exec_pen(*p, args, t),
            Sop::Music(m) => self.exec_music(*m, args, t),
            Sop::Speak => self.exec_speak(args, t),
            Sop::AskAndWait | Sop::ResetTimer | Sop::SetDragMode(_) => {
                self.exec_sensing(op, args, t)
            }
            Sop::MoveSteps
            | Sop::TurnRight
            | Sop::TurnLeft
            | Sop::GoTo
            | Sop::GoToXY
            | Sop::GlideTo
            | Sop::GlideSecsToXY
            | Sop::PointInDirection
            | Sop::PointTowards
            | Sop::ChangeX
            | Sop::SetX
            | Sop::ChangeY
            | Sop::SetY
            | Sop::IfOnEdgeBounce
            | Sop::SetRotationStyle(_) => self.exec_motion(op, args, t),
            _ => self.exec_looks(op, args, t),
        }
    }

    /// `data_changevariableby` with the amount already cast.
    #[inline]
    pub(crate) fn change_var(&mut self, t: u32, slot: crate::scratch::image::Slot, d: f64) {
        if let Some(x) = self.var_mut(t, slot) {
            match x {
                crate::scratch::value::Value::Num(n) if !n.is_nan() => *n += d,
                _ => *x = crate::scratch::value::Value::Num(to_number(x) + d),
            }
        }
    }

    /// `util.yield()`.
    pub(crate) fn yield_now(&mut self) {
        self.th().status = crate::scratch::vm::thread::Status::Yield;
    }

    /// `util.yieldTick()`.
    pub(crate) fn yield_tick(&mut self) {
        self.th().status = crate::scratch::vm::thread::Status::YieldTick;
    }
}
