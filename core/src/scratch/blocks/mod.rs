//! Block semantics, one module per family, as `impl Vm` methods; each follows the matching
//! `scratch-vm/src/blocks/scratch3_*.js` (or `extensions/scratch3_*`) file. This module
//! dispatches to them: it implements the VM's `Blocks` (statements in `execute_in`,
//! reporters in `eval_op`, hat predicates and the runtime events the packages listen to),
//! the only way the VM calls into this layer.
//!
//! What a block may touch: the VM's state and services (`crate::scratch::vm`: variables and
//! lists, threads and hats, a target's state changes in `vm::sprite`, the renderer's queries
//! in `vm::drawable`, sounds, input) and the renderer (`crate::scratch::render`). Nothing
//! below this layer calls a block function by name.

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

use crate::scratch::image::{ExprId, Image, Rop, Sop, StmtId};
use crate::scratch::value::cast::to_bool;
use crate::scratch::value::Value;
use crate::scratch::vm::hooks::Blocks;
use crate::scratch::vm::Vm;

impl Blocks for Vm {
    fn execute_in(&mut self, img: &Image, cur: StmtId, t: u32) {
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

    fn motion_leaf(&mut self, op: &Sop, args: &[ExprId], t: u32) {
        self.exec_motion(op, args, t);
    }

    fn eval_op(&mut self, img: &Image, op: &Rop, args: &[ExprId], t: u32) -> Value {
        use crate::scratch::blocks::operators as o;
        match op {
            Rop::Unimplemented => {
                for k in 0..args.len() {
                    self.arg_in(img, args, k, t);
                }
                Value::Undefined
            }
            Rop::Add | Rop::Sub | Rop::Mul | Rop::Div | Rop::Mod => {
                let a = self.num_arg_in(img, args, 0, t);
                let b = self.num_arg_in(img, args, 1, t);
                Value::Num(o::arith_num(op, a, b))
            }
            Rop::Gt | Rop::Lt | Rop::Eq => {
                let a = self.arg_in(img, args, 0, t);
                let b = self.arg_in(img, args, 1, t);
                o::compare(op, &a, &b)
            }
            Rop::And | Rop::Or => {
                let a = self.arg_in(img, args, 0, t);
                let b = self.arg_in(img, args, 1, t);
                o::logic(op, &a, &b)
            }
            Rop::Not => {
                let a = self.arg_in(img, args, 0, t);
                Value::Bool(!crate::scratch::value::cast::to_bool(&a))
            }
            Rop::Random => {
                let a = self.arg_in(img, args, 0, t);
                let b = self.arg_in(img, args, 1, t);
                o::random(&a, &b, &mut self.rng)
            }
            Rop::Join => {
                let a = self.arg_in(img, args, 0, t);
                let b = self.arg_in(img, args, 1, t);
                self.join(&a, &b)
            }
            // Scanning a string is work in proportion to its length (`Vm::spend`).
            Rop::LetterOf => {
                let a = self.arg_in(img, args, 0, t);
                let b = self.arg_in(img, args, 1, t);
                o::letter_of_charged(&a, &b, self)
            }
            Rop::Length => {
                let a = self.arg_in(img, args, 0, t);
                o::length_charged(&a, self)
            }
            Rop::Contains => {
                let a = self.arg_in(img, args, 0, t);
                let b = self.arg_in(img, args, 1, t);
                o::contains_charged(&a, &b, self)
            }
            Rop::Round => {
                let a = self.arg_in(img, args, 0, t);
                Value::Num(crate::scratch::vm::io::js_round(
                    crate::scratch::value::cast::to_number(&a),
                ))
            }
            Rop::MathOp(f) => {
                let a = self.arg_in(img, args, 0, t);
                o::mathop(*f, &a)
            }
            Rop::ListContents(s) => self.list_contents(t, *s),
            Rop::ItemOfList(s) => {
                let i = self.arg_in(img, args, 0, t);
                self.item_of_list(t, *s, &i)
            }
            Rop::ItemNumOfList(s) => {
                let i = self.arg_in(img, args, 0, t);
                self.item_num_of_list(t, *s, &i)
            }
            Rop::LengthOfList(s) => Value::Num(self.list(t, *s).len() as f64),
            Rop::ListContains(s) => {
                let i = self.arg_in(img, args, 0, t);
                self.list_contains(t, *s, &i)
            }
            Rop::Counter => Value::Num(self.counter),
            Rop::Tempo => self.tempo(),
            Rop::VideoOn | Rop::Translate | Rop::ViewerLanguage => self.eval_offline(op, args, t),
            _ => self.eval_sensing(op, args, t),
        }
    }

    fn arith_num(op: &Rop, x: f64, y: f64) -> f64 {
        operators::arith_num(op, x, y)
    }

    fn hat_makey_key(&self, key: &Value) -> bool {
        self.makey_key_hat(key)
    }

    fn hat_makey_code(&mut self, seq: &Value) -> bool {
        self.makey_code_hat(seq)
    }

    fn hat_video_motion(reference: &Value) -> bool {
        offline::motion_greater_than(reference)
    }

    fn key_pressed(&mut self, key: &str) {
        self.makey_key_pressed(key);
    }

    fn fire_makey_timers(&mut self) {
        self.makey_fire_timers();
    }

    fn resume_speakers(&mut self) {
        self.resolve_speech();
    }

    fn answered(&mut self, text: &str) {
        self.answer(text);
    }

    fn ask_next_question(&mut self) {
        self.ask_next();
    }

    fn target_moved(&mut self, t: u32, old_x: f64, old_y: f64) {
        self.pen_moved(t, old_x, old_y);
    }
}

impl Vm {
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
}
