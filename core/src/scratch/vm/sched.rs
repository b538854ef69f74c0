//! The sequencer: one virtual frame ([`Vm::step_frame`]), the passes over the thread list
//! with their count budgets (refvm P4/P5), `stepThread`, hats (`startHats` with scratch-vm's
//! restart rules), stop all / stop for target, and promise resolution.

use crate::scratch::value::case;
use alloc::rc::Rc;
use alloc::vec::Vec;

use super::fast::{LoopExit, Shape};
use super::hooks::Blocks;
use super::io::{dom_key_to_scratch, mouse_scratch, scenario_key_to_dom, Input};
use super::thread::{Status, Thread};
use super::{Active, FrameEvents, Vm};
use crate::scratch::image::{Hat, Sop, StmtId};
use crate::scratch::value::Value;

/// Which hats to start.
#[derive(Clone, Copy, Debug)]
pub(crate) enum HatSel<'a> {
    Flag,
    Key(&'a str),
    SpriteClicked,
    StageClicked,
    Broadcast(&'a str),
    Backdrop(&'a str),
    GreaterThan,
    Touching,
    StartAsClone,
    MakeyKey,
    MakeyCode,
    VideoMotion,
}

impl HatSel<'_> {
    fn matches(&self, h: &Hat) -> bool {
        match (self, h) {
            (HatSel::Flag, Hat::Flag)
            | (HatSel::SpriteClicked, Hat::SpriteClicked)
            | (HatSel::StageClicked, Hat::StageClicked)
            | (HatSel::GreaterThan, Hat::GreaterThan)
            | (HatSel::Touching, Hat::Touching)
            | (HatSel::StartAsClone, Hat::StartAsClone)
            | (HatSel::MakeyKey, Hat::MakeyKey)
            | (HatSel::MakeyCode, Hat::MakeyCode)
            | (HatSel::VideoMotion, Hat::VideoMotion) => true,
            (HatSel::Key(k), Hat::Key(h))
            | (HatSel::Broadcast(k), Hat::Broadcast(h))
            | (HatSel::Backdrop(k), Hat::Backdrop(h)) => eq_upper(k, h),
            _ => false,
        }
    }

    fn restarts(&self) -> bool {
        matches!(
            self,
            HatSel::Flag
                | HatSel::SpriteClicked
                | HatSel::StageClicked
                | HatSel::Broadcast(_)
                | HatSel::Backdrop(_)
        )
    }

    fn edge(&self) -> bool {
        matches!(
            self,
            HatSel::GreaterThan
                | HatSel::Touching
                | HatSel::MakeyKey
                | HatSel::MakeyCode
                | HatSel::VideoMotion
        )
    }
}

/// The edge-activated hats in the order `runtime._step` starts them (the order of
/// `runtime._hats`: the core packages', then extensions' as they were loaded; gobo puts
/// Makey Makey before video sensing, whatever the project's extension order).
pub(crate) const EDGE_HATS: [(Hat, HatSel<'static>); 5] = [
    (Hat::Touching, HatSel::Touching),
    (Hat::GreaterThan, HatSel::GreaterThan),
    (Hat::MakeyKey, HatSel::MakeyKey),
    (Hat::MakeyCode, HatSel::MakeyCode),
    (Hat::VideoMotion, HatSel::VideoMotion),
];

/// `a.toUpperCase() === b` where `b` is already upper-cased.
fn eq_upper(a: &str, b: &str) -> bool {
    if a.is_ascii() {
        a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x.to_ascii_uppercase() == y)
    } else {
        case::to_upper(a) == b
    }
}

impl Vm {
    /// Advance one virtual frame: apply `inputs`, fire due timeouts, step the runtime.
    /// After a budget ran out ([`Vm::stopped`]) it does nothing: the frame in which it ran
    /// out is abandoned and not counted.
    pub fn step_frame(&mut self, inputs: &[Input]) {
        if self.halted() {
            return;
        }
        self.new_frame_work();
        self.now_ms = (self.frame as f64) * 1000.0 / f64::from(self.cfg.fps.max(1));
        self.events.clear();
        for i in inputs {
            self.apply(i);
        }
        self.fire_timeouts();
        self.fire_drag_timer();
        self.fire_makey_timers();
        self.resume_speakers();
        self.fire_sounds();
        self.step();
        if self.halted() {
            return;
        }
        self.draw_frame();
        self.frame += 1;
    }

    /// The events captured during the last frame.
    pub fn events(&self) -> &FrameEvents {
        &self.events
    }

    fn apply(&mut self, input: &Input) {
        match input {
            Input::GreenFlag => self.green_flag(),
            Input::StopAll => self.stop_all(),
            Input::FlagSprite(name) => {
                if let Some(t) = self.sprite_by_name(name) {
                    self.start_hats(HatSel::Flag, Some(t));
                }
            }
            Input::KeyDown(k) | Input::KeyUp(k) => {
                let down = matches!(input, Input::KeyDown(_));
                let key = dom_key_to_scratch(scenario_key_to_dom(k));
                if key.is_empty() {
                    return;
                }
                let idx = self.io.keys.iter().position(|p| **p == *key);
                if down {
                    self.start_hats(HatSel::Key(&key), None);
                    self.start_hats(HatSel::Key("any"), None);
                    self.key_pressed(&key);
                    if idx.is_none() {
                        self.io.keys.push(Rc::from(key.as_str()));
                    }
                } else if let Some(i) = idx {
                    self.io.keys.remove(i);
                }
            }
            Input::MouseMove(x, y) => {
                self.gui_mouse_move((*x, *y));
                self.io.pos = (*x, *y);
                self.post_mouse(None, false);
            }
            Input::MouseDown(x, y) | Input::MouseUp(x, y) => {
                let pos = (x.unwrap_or(self.io.pos.0), y.unwrap_or(self.io.pos.1));
                if pos != self.io.pos {
                    // The pointer moves there first (with the button as it was).
                    self.gui_mouse_move(pos);
                }
                self.io.pos = pos;
                let down = matches!(input, Input::MouseDown(..));
                let dragged = if down {
                    self.gui_mouse_down();
                    false
                } else {
                    self.gui_mouse_up()
                };
                self.post_mouse(Some(down), dragged);
            }
            Input::MouseFlag(down) => self.io.mouse_down = *down,
            Input::Click(name) => {
                let t = if name == "Stage" || name == "_stage_" {
                    Some(self.stage)
                } else {
                    self.sprite_by_name(name)
                };
                if let Some(t) = t {
                    self.activate_click_hats(t);
                }
            }
            Input::Broadcast(m) => {
                self.start_hats(HatSel::Broadcast(m), None);
            }
            Input::Answer(text) => self.answered(text),
            Input::Turbo(on) => self.cfg.turbo = *on,
            Input::SetVariable { sprite, name, value } => {
                if let Some(slot) = self.slot_by_name(sprite.as_deref(), name, false) {
                    if let Some(v) = self.var_mut_at(slot) {
                        *v = super::lit_value(value);
                    }
                }
            }
            Input::SetList { sprite, name, items } => {
                if let Some((inst, k)) = self.slot_by_name(sprite.as_deref(), name, true) {
                    if let Some(l) =
                        self.insts.get_mut(inst as usize).and_then(|i| i.lists.get_mut(k))
                    {
                        let new: Vec<Value> = items.iter().map(super::lit_value).collect();
                        let (old, add) =
                            (super::budget::list_bytes(l), super::budget::list_bytes(&new));
                        *l = new;
                        self.list_shrink(old);
                        self.list_grow(add);
                    }
                }
            }
            Input::SetSprite { sprite, x, y, direction } => {
                if let Some(t) = self.sprite_by_name(sprite) {
                    if x.is_some() || y.is_some() {
                        let i = &self.insts[t as usize];
                        let (nx, ny) = (x.unwrap_or(i.x), y.unwrap_or(i.y));
                        let undefined =
                            [x.is_none() && i.undefined[0], y.is_none() && i.undefined[1]];
                        self.set_xy_js(t, nx, ny, undefined);
                    }
                    if let Some(d) = direction {
                        self.set_direction(t, *d);
                    }
                }
            }
        }
    }

    /// The instance and index of the variable (or list) named `name` as seen from a sprite's
    /// original (`None`: the stage): its own first, then the stage's.
    fn slot_by_name(&self, sprite: Option<&str>, name: &str, list: bool) -> Option<(u32, usize)> {
        let t = match sprite {
            None => self.stage,
            Some(s) => self.sprite_by_name(s)?,
        };
        let find = |inst: u32| {
            let ti = self.insts.get(inst as usize)?.sprite as usize;
            let target = self.img.targets.get(ti)?;
            let k = if list {
                target.lists.iter().position(|l| l.0 == name)
            } else {
                target.vars.iter().position(|v| v.0 == name)
            };
            k.map(|k| (inst, k))
        };
        find(t).or_else(|| if t == self.stage { None } else { find(self.stage) })
    }

    fn var_mut_at(&mut self, (inst, k): (u32, usize)) -> Option<&mut Value> {
        self.insts.get_mut(inst as usize)?.vars.get_mut(k)
    }

    /// `Mouse.postData`; `was_dragged`: the release ends a GUI drag (no click hats).
    fn post_mouse(&mut self, down: Option<bool>, was_dragged: bool) {
        let nz = |v: f64| if v == 0.0 || v.is_nan() { f64::MIN_POSITIVE * f64::EPSILON } else { v };
        let cx = nz(self.io.pos.0 + 240.0);
        let cy = nz(180.0 - self.io.pos.1);
        if self.io.client != (cx, cy) || matches!(self.io.mouse_x, Value::Undefined) {
            self.render_changed();
        }
        self.io.client = (cx, cy);
        self.io.mouse_x = Value::Num(mouse_scratch(cx, 480.0, 480.0, -240.0, 240.0));
        self.io.mouse_y = Value::Num(mouse_scratch(cy, -360.0, 360.0, -180.0, 180.0));
        if let Some(d) = down {
            let prev = self.io.mouse_down;
            self.io.mouse_down = d;
            if prev == d || was_dragged {
                return;
            }
            if !(cx > 0.0 && cx < 480.0 && cy > 0.0 && cy < 360.0) {
                return;
            }
            // Without skins (no renderer) every click hits the stage.
            let target = if self.renders() { self.pick(cx, cy) } else { self.stage };
            let draggable = self.insts[target as usize].draggable;
            if (draggable && !d) || (!draggable && d) {
                self.activate_click_hats(target);
            }
        }
    }

    fn activate_click_hats(&mut self, t: u32) {
        self.start_hats(HatSel::SpriteClicked, Some(t));
        self.start_hats(HatSel::StageClicked, Some(t));
    }

    /// `runtime.greenFlag()`.
    pub(crate) fn green_flag(&mut self) {
        self.stop_all();
        // PROJECT_START: the answer resets.
        self.io.answer = Rc::from("");
        self.timer_start = self.current_msecs;
        for i in 0..self.targets.len() {
            let t = self.targets[i] as usize;
            for e in &mut self.insts[t].edge {
                *e = None;
            }
            self.clear_effects(t as u32);
            // PROJECT_START: `_clearEffectsForAllTargets`.
            self.clear_sound_effects(t as u32);
        }
        self.start_hats(HatSel::Flag, None);
    }

    /// `runtime.stopAll()`.
    pub(crate) fn stop_all(&mut self) {
        // PROJECT_STOP_ALL: bubbles cleared, questions dropped, the last bubble timeout cleared.
        for i in 0..self.targets.len() {
            let t = self.targets[i] as usize;
            if let Some(b) = &mut self.insts[t].bubble {
                b.text = Rc::from("");
            }
        }
        self.questions.clear();
        self.events.questions.push(None);
        self.makey.stop_all();
        if let Some(last) = self.timeouts.iter().map(|t| t.seq).max() {
            if last == self.last_bubble_timeout {
                self.timeouts.retain(|t| t.seq != last);
            }
        }
        // PROJECT_STOP_ALL: `stopAllSounds`, `_clearEffectsForAllTargets`.
        self.stop_all_sounds();
        let targets = core::mem::take(&mut self.targets);
        let mut keep = Vec::with_capacity(targets.len());
        for t in targets {
            self.clear_sound_effects(t);
            self.clear_effects(t);
            if self.insts[t as usize].original {
                keep.push(t);
            } else {
                self.dispose_clone(t);
            }
        }
        self.targets = keep;
        if self.active != Active::None {
            let th = self.th();
            th.killed = true;
            th.retire();
        }
        if self.in_pass && self.orphans.is_none() {
            self.orphans = Some(core::mem::take(&mut self.threads));
        } else {
            self.threads.clear();
        }
    }

    /// Remove a clone from the stage (`RenderedTarget.dispose`).
    pub(crate) fn dispose_clone(&mut self, t: u32) {
        self.clone_count = self.clone_count.saturating_sub(1);
        self.stop_for_target(t, None);
        self.stop_waiting_sounds(t, true);
        self.exec.retain(|&x| x != t);
        self.targets.retain(|&x| x != t);
        self.render_changed();
        let inst = &mut self.insts[t as usize];
        if inst.visible {
            self.redraw = true;
        }
        inst.alive = false;
        inst.vars.clear();
        let freed: usize = inst.lists.iter().map(|l| super::budget::list_bytes(l)).sum();
        inst.lists.clear();
        self.list_shrink(freed);
        self.free_insts.push(t);
    }

    /// `runtime.stopForTarget(target, exception)`.
    pub(crate) fn stop_for_target(&mut self, t: u32, except: Option<u64>) {
        // STOP_FOR_TARGET: the target's waited-on sounds stop, its questions are dropped.
        self.stop_waiting_sounds(t, false);
        let asking = self.questions.front().is_some_and(|q| q.target == t);
        self.questions.retain(|q| q.target != t);
        if asking {
            self.say_event(t, false, Value::empty());
            if self.questions.is_empty() {
                self.events.questions.push(None);
            } else {
                self.ask_next_question();
            }
        }
        let active_serial = self.active_serial();
        for th in self.threads.iter_mut() {
            if Some(th.serial) == except || th.target != t {
                continue;
            }
            th.killed = true;
            th.retire();
        }
        if let (Some(s), Some(d)) = (active_serial, self.detached.as_mut()) {
            if d.serial == s && d.target == t && Some(s) != except {
                d.killed = true;
                d.retire();
            }
        }
        if let Some(o) = self.orphans.as_mut() {
            // The active thread of a pass over an orphaned list is still reachable there.
            if let Active::Pass(i) = self.active {
                if let Some(th) = o.get_mut(i) {
                    if th.target == t && Some(th.serial) != except {
                        th.killed = true;
                        th.retire();
                    }
                }
            }
        }
    }

    fn active_serial(&self) -> Option<u64> {
        match self.active {
            Active::None => None,
            Active::Detached => self.detached.as_ref().map(|t| t.serial),
            Active::Pass(i) => match &self.orphans {
                Some(o) => o.get(i).map(|t| t.serial),
                None => self.threads.get(i).map(|t| t.serial),
            },
            Active::Hat(i) => self.threads.get(i).map(|t| t.serial),
        }
    }

    /// The thread being stepped.
    #[inline]
    pub(crate) fn th(&mut self) -> &mut Thread {
        // The common case first: a pass over the thread list itself.
        if let (Active::Pass(i), None) = (self.active, &self.orphans) {
            if i < self.threads.len() {
                return &mut self.threads[i];
            }
        }
        self.th_other()
    }

    /// `util.yield()`.
    pub(crate) fn yield_now(&mut self) {
        self.th().status = Status::Yield;
    }

    /// `util.yieldTick()`.
    pub(crate) fn yield_tick(&mut self) {
        self.th().status = Status::YieldTick;
    }

    /// [`Vm::th`] for every other case (orphans, hats, detached, none).
    fn th_other(&mut self) -> &mut Thread {
        let t = match self.active {
            Active::Pass(i) => match &mut self.orphans {
                Some(o) => o.get_mut(i),
                None => self.threads.get_mut(i),
            },
            Active::Hat(i) => self.threads.get_mut(i),
            Active::Detached | Active::None => self.detached.as_mut(),
        };
        match t {
            Some(t) => t,
            // Only reachable if a block runs with no thread: a dead spare absorbs it.
            None => &mut self.spare,
        }
    }

    /// `runtime.startHats`: start (or restart) matching scripts; returns the serials started.
    pub(crate) fn start_hats(&mut self, sel: HatSel<'_>, only: Option<u32>) -> Vec<u64> {
        if let HatSel::Broadcast(name) = sel {
            self.events.broadcasts.push(Rc::from(name));
        }
        let img = self.img.clone();
        let mut started: Vec<usize> = Vec::new();
        // The targets in reverse execution order (a snapshot), or just `only` (no allocation:
        // clicks start hats this way every time).
        let list: Vec<u32> = match only {
            Some(_) => Vec::new(),
            None => self.exec.iter().rev().copied().collect(),
        };
        for t in only.into_iter().chain(list) {
            let Some(inst) = self.insts.get(t as usize) else { continue };
            if !inst.alive {
                continue;
            }
            let sprite = inst.sprite as usize;
            for script in &img.targets[sprite].scripts {
                if !sel.matches(&script.hat) {
                    continue;
                }
                let top = script.top;
                let existing = self.threads.iter().position(|th| th.target == t && th.top == top);
                if sel.restarts() {
                    if let Some(i) = existing {
                        let serial = self.new_serial();
                        let fresh = Thread::new(serial, t, top);
                        let old = core::mem::replace(&mut self.threads[i], fresh);
                        if self.orphans.is_none() && self.active == Active::Pass(i) {
                            self.detached = Some(old);
                            self.active = Active::Detached;
                        }
                        started.push(i);
                        continue;
                    }
                } else if self
                    .threads
                    .iter()
                    .any(|th| th.target == t && th.top == top && th.status != Status::Done)
                {
                    continue;
                }
                if !self.thread_fits() {
                    break;
                }
                let serial = self.new_serial();
                self.threads.push(Thread::new(serial, t, top));
                started.push(self.threads.len() - 1);
            }
        }
        let serials: Vec<u64> = started.iter().map(|&i| self.threads[i].serial).collect();
        for &i in &started {
            if sel.edge() {
                let saved = self.active;
                self.active = Active::Hat(i);
                let top = self.threads[i].top;
                self.run_edge_hat(top, i);
                self.active = saved;
            }
            let th = &mut self.threads[i];
            let next = th.peek().and_then(|s| img.stmts.get(s as usize)).and_then(|s| s.next);
            if th.frames.is_empty() {
                continue;
            }
            th.reuse(next);
        }
        serials
    }

    /// Evaluate an edge-activated hat's predicate and retire the thread unless it fired.
    fn run_edge_hat(&mut self, top: StmtId, i: usize) {
        let img = self.img.clone();
        let t = self.threads[i].target;
        let value = match &img.stmts[top as usize].op {
            Sop::HatGreater(option) => {
                let a = img.args[img.stmts[top as usize].args as usize];
                let v = crate::scratch::value::cast::to_number(&self.eval(a, t));
                match option.as_str() {
                    "timer" => self.project_timer() > v,
                    _ => false,
                }
            }
            Sop::HatTouching => {
                let a = img.args.get(img.stmts[top as usize].args as usize).copied();
                match a {
                    Some(a) => {
                        let v = self.eval(a, t);
                        self.touching_object(t, &v)
                    }
                    None => false,
                }
            }
            Sop::HatMakeyKey | Sop::HatMakeyCode | Sop::HatVideoMotion => {
                let a = img.args.get(img.stmts[top as usize].args as usize).copied();
                let v = match a {
                    Some(a) => self.eval(a, t),
                    None => Value::Undefined,
                };
                match img.stmts[top as usize].op {
                    Sop::HatMakeyKey => self.hat_makey_key(&v),
                    Sop::HatMakeyCode => self.hat_makey_code(&v),
                    _ => Self::hat_video_motion(&v),
                }
            }
            _ => false,
        };
        let script = img.targets[self.insts[t as usize].sprite as usize]
            .scripts
            .iter()
            .position(|s| s.top == top);
        let Some(si) = script else { return };
        let Some(slot) = self.insts[t as usize].edge.get_mut(si) else { return };
        let old = slot.replace(value);
        let fired = match old {
            Some(o) => !o && value,
            None => value,
        };
        if !fired {
            self.threads[i].retire();
        }
    }

    pub(crate) fn new_serial(&mut self) -> u64 {
        let s = self.next_serial;
        self.next_serial += 1;
        s
    }

    /// Project timer in seconds.
    pub(crate) fn project_timer(&self) -> f64 {
        (self.current_msecs - self.timer_start) / 1000.0
    }

    /// `runtime._step()`.
    fn step(&mut self) {
        self.threads.retain(|t| !t.killed);
        for (k, (_, sel)) in EDGE_HATS.iter().enumerate() {
            if self.edge_hats[k] {
                self.start_hats(*sel, None);
            }
        }
        self.redraw = false;
        self.step_threads();
    }

    /// `sequencer.stepThreads()` with the count budgets.
    fn step_threads(&mut self) {
        self.current_msecs = self.now_ms;
        self.ticks = 0;
        self.warp_expired = false;
        let mut num_active: usize = usize::MAX;
        let mut ran_first_tick = false;
        // Monitor threads are pushed after the threads present at the start of the step and
        // finish in the first pass (`_pushMonitors`); they keep that pass going even alone.
        let monitors_at = (!self.img.monitors.is_empty()).then_some(self.threads.len());
        loop {
            if (self.threads.is_empty() && (ran_first_tick || monitors_at.is_none()))
                || num_active == 0
            {
                break;
            }
            if self.warp_expired {
                break;
            }
            if self.ticks >= self.cfg.ticks_per_frame {
                break;
            }
            self.ticks += 1;
            if !self.cfg.turbo && self.redraw {
                break;
            }
            num_active = 0;
            let mut stopped = false;
            self.in_pass = true;
            let mut i = 0;
            loop {
                let len = match &self.orphans {
                    Some(o) => o.len(),
                    None => self.threads.len(),
                };
                if !ran_first_tick && Some(i) == monitors_at && self.orphans.is_none() {
                    self.run_monitors();
                }
                if i >= len {
                    break;
                }
                self.active = Active::Pass(i);
                let th = self.th();
                if th.is_finished() {
                    stopped = true;
                    i += 1;
                    continue;
                }
                if th.status == Status::YieldTick && !ran_first_tick {
                    th.status = Status::Running;
                }
                if matches!(th.status, Status::Running | Status::Yield) {
                    self.step_thread();
                    self.th().warp_timer = None;
                    if self.halted() {
                        break;
                    }
                }
                let th = self.th();
                if th.status == Status::Running {
                    num_active += 1;
                }
                if th.is_finished() {
                    stopped = true;
                }
                self.detached = None;
                i += 1;
            }
            self.active = Active::None;
            self.in_pass = false;
            self.orphans = None;
            ran_first_tick = true;
            if stopped {
                self.threads.retain(|t| !t.is_finished());
            }
        }
    }

    /// The monitor threads of one frame: each visible monitor's reporter on its target.
    fn run_monitors(&mut self) {
        let img = self.img.clone();
        let saved = core::mem::replace(&mut self.active, Active::None);
        for (k, m) in img.monitors.iter().enumerate() {
            let v = self.eval(m.expr, m.target);
            if let Some(slot) = self.monitor_values.get_mut(k) {
                *slot = v;
            }
        }
        self.active = saved;
    }

    /// One warp-timer check (P5): true when the budget is exhausted.
    pub(crate) fn warp_expired_check(&mut self) -> bool {
        let limit = self.cfg.warp_checks;
        let th = self.th();
        let n = th.warp_timer.get_or_insert(0);
        *n = n.saturating_add(1);
        if *n > limit {
            self.warp_expired = true;
            true
        } else {
            false
        }
    }

    /// `sequencer.stepThread(thread)` for the active thread.
    fn step_thread(&mut self) {
        let img = self.img.clone();
        let th = self.th();
        if th.peek().is_none() {
            th.pop();
            if th.frames.is_empty() {
                th.status = Status::Done;
                return;
            }
        }
        while let Some(cur) = self.th().peek() {
            let th = self.th();
            let mut is_warp = th.frames.last().is_some_and(|f| f.warp);
            if is_warp && th.warp_timer.is_none() {
                th.warp_timer = Some(0);
            }
            let target = th.target;
            // A region counts its own block operations, this loop block included.
            match self.run_tier(cur, is_warp) {
                Some(LoopExit::Yield) => return,
                Some(LoopExit::Done) => {}
                None => {
                    self.block_ops += 1;
                    match self.shapes.get(cur as usize) {
                        Some(Shape::Loop) => {
                            if self.run_loop(&img, cur, is_warp) == LoopExit::Yield {
                                return;
                            }
                        }
                        Some(Shape::Branch) => self.run_branch(&img, cur, target),
                        _ => self.execute_in(&img, cur, target),
                    }
                }
            }
            if self.halted() {
                return;
            }
            let th = self.th();
            match th.status {
                Status::Yield => {
                    th.status = Status::Running;
                    if is_warp && !self.warp_expired_check() {
                        continue;
                    }
                    return;
                }
                Status::PromiseWait | Status::YieldTick => return,
                _ => {}
            }
            if th.peek() == Some(cur) {
                let next = img.stmts[cur as usize].next;
                th.reuse(next);
            }
            while self.th().peek().is_none() {
                let th = self.th();
                th.pop();
                if th.frames.is_empty() {
                    th.status = Status::Done;
                    return;
                }
                let (is_loop, warp) =
                    th.frames.last().map_or((false, false), |f| (f.is_loop, f.warp));
                is_warp = warp;
                if is_loop {
                    if !is_warp || self.warp_expired_check() {
                        return;
                    }
                    break;
                }
                let th = self.th();
                let next = th.peek().and_then(|s| img.stmts.get(s as usize)).and_then(|s| s.next);
                th.reuse(next);
            }
        }
    }

    /// `sequencer.stepToBranch`.
    pub(crate) fn step_to_branch(&mut self, cur: StmtId, branch: usize, is_loop: bool) {
        let b = self.img.stmts[cur as usize].branch[branch];
        let th = self.th();
        if let Some(f) = th.frames.last_mut() {
            f.is_loop = is_loop;
        }
        th.push(b);
    }

    /// Resolve the promise a thread waits on (ask answered, say-for-secs over).
    pub(crate) fn resolve_promise(&mut self, serial: u64) {
        let img = self.img.clone();
        let Some(th) = self.threads.iter_mut().find(|t| t.serial == serial && !t.killed) else {
            return;
        };
        if th.status == Status::Done {
            return;
        }
        th.status = Status::Running;
        // The promise was the block's last operation: move past it as execute.js does.
        let mut next;
        loop {
            let popped = match th.pop() {
                None => None,
                Some(None) => return,
                Some(Some(s)) => Some(s),
            };
            next = popped.and_then(|s| img.stmts.get(s as usize)).and_then(|s| s.next);
            if next.is_some() {
                break;
            }
            match th.frames.last() {
                Some(f) if !f.is_loop => continue,
                _ => break,
            }
        }
        th.push(next);
    }

    /// Fire due virtual timeouts (due ≤ now, by due then creation).
    fn fire_timeouts(&mut self) {
        loop {
            let now = self.now_ms;
            let best = self
                .timeouts
                .iter()
                .enumerate()
                .filter(|(_, t)| t.due <= now)
                .min_by(|a, b| a.1.due.total_cmp(&b.1.due).then(a.1.seq.cmp(&b.1.seq)))
                .map(|(i, _)| i);
            let Some(i) = best else { return };
            let t = self.timeouts.remove(i);
            if self.last_bubble_timeout == t.seq {
                self.last_bubble_timeout = 0;
            }
            let usage =
                self.insts.get(t.target as usize).and_then(|x| x.bubble.as_ref()).map(|b| b.usage);
            if usage == Some(t.usage) && self.insts[t.target as usize].alive {
                self.update_bubble(t.target, t.think, &Value::empty());
            }
            self.resolve_promise(t.thread);
        }
    }

    /// Mark a thread as waiting on a promise.
    pub(crate) fn promise_wait(&mut self) {
        let th = self.th();
        if th.status == Status::Running {
            th.status = Status::PromiseWait;
        }
    }
}
