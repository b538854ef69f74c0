//! Sensing blocks (`sensing_*`) that need no geometry: ask/answer with its question queue,
//! keys, mouse, timer, dates from the virtual epoch, `of`, and the geometry reporters'
//! stand-ins (touching is false until the stage geometry exists).
#![allow(clippy::collapsible_match)] // arms mirror scratch-vm's block functions one to one

use alloc::rc::Rc;

use crate::scratch::image::{ExprId, Rop, Sop};
use crate::scratch::value::cast::{self, to_str_value};
use crate::scratch::value::Value;
use crate::scratch::vm::io::{key_arg_to_scratch, Question};
use crate::scratch::vm::Vm;

/// Days since 1970-01-01 → (year, month 1-12, day 1-31).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

impl Vm {
    pub(crate) fn exec_sensing(&mut self, op: &Sop, args: &[u32], t: u32) {
        match op {
            Sop::AskAndWait => {
                let q = to_str_value(&self.arg(args, 0, t));
                let asked = !self.questions.is_empty();
                let inst = &self.insts[t as usize];
                let bubble = inst.visible && t != self.stage;
                let serial = self.th().serial;
                self.questions.push_back(Question { text: q, thread: serial, target: t, bubble });
                if !asked {
                    self.ask_next();
                }
                self.promise_wait();
            }
            Sop::ResetTimer => self.timer_start = self.current_msecs,
            Sop::SetDragMode(d) => {
                if t != self.stage {
                    self.insts[t as usize].draggable = *d;
                }
            }
            _ => {}
        }
    }

    /// `_askNextQuestion`.
    pub(crate) fn ask_next(&mut self) {
        let Some(q) = self.questions.front().cloned() else { return };
        if q.bubble {
            self.say_event(q.target, false, Value::Str(q.text.clone()));
            self.events.questions.push(Some(Rc::from("")));
        } else {
            self.events.questions.push(Some(q.text));
        }
    }

    /// `_onAnswer`.
    pub(crate) fn answer(&mut self, text: &str) {
        self.io.answer = Rc::from(text);
        if let Some(q) = self.questions.pop_front() {
            if q.bubble {
                self.say_event(q.target, false, Value::empty());
            }
            self.resolve_promise(q.thread);
            self.ask_next();
        }
    }

    /// Virtual calendar time in ms since 1970 (`new Date()`: a Date holds whole ms).
    fn date_ms(&self) -> f64 {
        libm::trunc(self.cfg.epoch_ms + self.now_ms)
    }

    pub(crate) fn eval_sensing(&mut self, op: &Rop, args: &[ExprId], t: u32) -> Value {
        let i = &self.insts[t as usize];
        match op {
            // `limitPrecision(undefined)` is `undefined`.
            Rop::XPos if i.undefined[0] => Value::Undefined,
            Rop::YPos if i.undefined[1] => Value::Undefined,
            Rop::XPos => Value::Num(limit_precision(i.x)),
            Rop::YPos => Value::Num(limit_precision(i.y)),
            Rop::Direction => Value::Num(i.direction),
            Rop::Size => Value::Num(crate::scratch::vm::io::js_round(i.size)),
            Rop::Volume => Value::Num(i.volume),
            Rop::CostumeNumberName(num) => {
                let c = i.costume;
                if *num {
                    Value::Num(f64::from(c) + 1.0)
                } else {
                    Value::str(self.costumes(t).get(c as usize).map_or("", |s| s.as_str()))
                }
            }
            Rop::BackdropNumberName(num) => {
                let c = self.insts[self.stage as usize].costume;
                if *num {
                    Value::Num(f64::from(c) + 1.0)
                } else {
                    Value::str(self.costumes(self.stage).get(c as usize).map_or("", |s| s.as_str()))
                }
            }
            Rop::Answer => Value::Str(self.io.answer.clone()),
            Rop::KeyPressed => {
                let k = self.arg(args, 0, t);
                if matches!(&k, Value::Str(s) if &**s == "any") {
                    return Value::Bool(!self.io.keys.is_empty());
                }
                let key = key_arg_to_scratch(&k);
                Value::Bool(self.io.keys.iter().any(|p| **p == *key))
            }
            Rop::MouseDown => Value::Bool(self.io.mouse_down),
            Rop::MouseX => self.io.mouse_x.clone(),
            Rop::MouseY => self.io.mouse_y.clone(),
            Rop::Timer => Value::Num(self.project_timer()),
            Rop::Current(menu) => {
                let ms = self.date_ms();
                let days = libm::floor(ms / 86_400_000.0);
                let rem = ms - days * 86_400_000.0;
                let (y, m, d) = civil(days as i64);
                let v = match menu.as_str() {
                    "year" => y as f64,
                    "month" => m as f64,
                    "date" => d as f64,
                    "dayofweek" => ((days as i64 + 4).rem_euclid(7) + 1) as f64,
                    "hour" => libm::floor(rem / 3_600_000.0),
                    "minute" => libm::floor(rem / 60_000.0) % 60.0,
                    "second" => libm::floor(rem / 1000.0) % 60.0,
                    _ => 0.0,
                };
                Value::Num(v)
            }
            Rop::DaysSince2000 => Value::Num((self.date_ms() - 946_684_800_000.0) / 86_400_000.0),
            Rop::Username => Value::empty(),
            Rop::Loudness => Value::Num(-1.0),
            Rop::Loud => Value::Bool(false),
            Rop::Nothing => Value::Undefined,
            Rop::Of(prop) => {
                let obj = self.arg(args, 0, t);
                self.attribute_of(&obj, prop)
            }
            Rop::TouchingObject => {
                let v = self.arg(args, 0, t);
                Value::Bool(self.touching_object(t, &v))
            }
            Rop::TouchingColor => {
                let c = rgb_list(&self.arg(args, 0, t));
                Value::Bool(self.touching_color(t, c, None))
            }
            Rop::ColorTouchingColor => {
                let mask = rgb_list(&self.arg(args, 0, t));
                let c = rgb_list(&self.arg(args, 1, t));
                Value::Bool(self.touching_color(t, c, Some(mask)))
            }
            Rop::DistanceTo => {
                let m = self.arg(args, 0, t);
                if t == self.stage {
                    return Value::Num(10000.0);
                }
                let (tx, ty) = if matches!(&m, Value::Str(s) if &**s == "_mouse_") {
                    // `undefined` before the first mouse event: the distance is NaN.
                    (cast::js_number(&self.io.mouse_x), cast::js_number(&self.io.mouse_y))
                } else {
                    match self.sprite_by_name(&to_str_value(&m)) {
                        Some(o) => (self.insts[o as usize].x, self.insts[o as usize].y),
                        None => return Value::Num(10000.0),
                    }
                };
                let i = &self.insts[t as usize];
                let (dx, dy) = (i.x - tx, i.y - ty);
                Value::Num(libm::sqrt(dx * dx + dy * dy))
            }
            _ => Value::Undefined,
        }
    }

    /// `sensing_of`.
    fn attribute_of(&self, obj: &Value, prop: &str) -> Value {
        let target = if matches!(obj, Value::Str(s) if &**s == "_stage_") {
            Some(self.stage)
        } else {
            self.sprite_by_name(&to_str_value(obj))
        };
        let Some(a) = target else { return Value::Num(0.0) };
        let i = &self.insts[a as usize];
        let costume_name =
            || Value::str(self.costumes(a).get(i.costume as usize).map_or("", |s| s.as_str()));
        if a == self.stage {
            match prop {
                "background #" | "backdrop #" => return Value::Num(f64::from(i.costume) + 1.0),
                "backdrop name" => return costume_name(),
                "volume" => return Value::Num(i.volume),
                _ => {}
            }
        } else {
            match prop {
                "x position" => return i.coordinate(0),
                "y position" => return i.coordinate(1),
                "direction" => return Value::Num(i.direction),
                "costume #" => return Value::Num(f64::from(i.costume) + 1.0),
                "costume name" => return costume_name(),
                "size" => return Value::Num(i.size),
                "volume" => return Value::Num(i.volume),
                _ => {}
            }
        }
        let decls = &self.img.targets[i.sprite as usize].vars;
        match decls.iter().position(|(n, _)| n == prop) {
            Some(k) => i.vars.get(k).cloned().unwrap_or(Value::Num(0.0)),
            None => Value::Num(0.0),
        }
    }
}

/// `Cast.toRgbColorList`.
fn rgb_list(v: &Value) -> [u8; 3] {
    let c = crate::scratch::pen::color::to_rgb_color(v);
    [c.r as u8, c.g as u8, c.b as u8]
}

/// `limitPrecision` of the motion reporters.
fn limit_precision(c: f64) -> f64 {
    let r = crate::scratch::vm::io::js_round(c);
    if libm::fabs(c - r) < 1e-9 {
        r
    } else {
        c
    }
}
