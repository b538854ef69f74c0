//! A [`Subject`] over gobo's Scratch VM: suite inputs become VM inputs applied at the start of
//! the next frame, and each frame's [`Observation`] becomes the runner's [`Snapshot`].
//! Direct writes (`set_variable`, `set_list`, `set_sprite`) become the VM's direct-write
//! inputs, applied at the start of the frame like the others.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::observe::{SayEvent, Snapshot, SpriteObs};
use super::run::{Action, Subject};
use crate::scratch::image::{Image, Lit};
use crate::scratch::value::cast::to_str_value;
use crate::scratch::value::Value;
use crate::scratch::vm::{Config, Input, Observation, Vm};

/// The VM running one case.
#[derive(Debug)]
pub struct VmSubject {
    vm: Vm,
    pending: Vec<Input>,
}

impl VmSubject {
    /// A fresh VM for `img` at `fps` with block randomness seeded by `seed` (low 32 bits).
    pub fn new(img: Image, fps: u32, seed: u64) -> Result<VmSubject, String> {
        let cfg = Config { fps, seed: seed as u32, ..Config::default() };
        let vm = Vm::new(img, cfg).map_err(|e| e.to_string())?;
        Ok(VmSubject { vm, pending: Vec::new() })
    }
}

impl Subject for VmSubject {
    fn act(&mut self, action: &Action) -> Result<(), String> {
        let input = match action {
            Action::GreenFlag => Input::GreenFlag,
            Action::StopAll => Input::StopAll,
            Action::KeyDown(k) => Input::KeyDown(k.clone()),
            Action::KeyUp(k) => Input::KeyUp(k.clone()),
            Action::MouseMove { x, y } => Input::MouseMove(*x, *y),
            Action::MouseDown { pos } => Input::MouseDown(pos.map(|p| p.0), pos.map(|p| p.1)),
            Action::MouseUp { pos } => Input::MouseUp(pos.map(|p| p.0), pos.map(|p| p.1)),
            Action::FlagSprite(s) => Input::FlagSprite(s.clone()),
            Action::MouseFlag { down, pos } => {
                if let Some((x, y)) = pos {
                    self.pending.push(Input::MouseMove(*x, *y));
                }
                Input::MouseFlag(*down)
            }
            Action::Click(s) => Input::Click(s.clone()),
            Action::Broadcast(m) => Input::Broadcast(m.clone()),
            Action::Answer(t) => Input::Answer(t.clone()),
            Action::SetVariable { sprite, name, value } => {
                Input::SetVariable { sprite: sprite.clone(), name: name.clone(), value: lit(value) }
            }
            Action::SetList { sprite, name, items } => Input::SetList {
                sprite: sprite.clone(),
                name: name.clone(),
                items: items.iter().map(lit).collect(),
            },
            Action::SetSprite { sprite, x, y, direction } => {
                Input::SetSprite { sprite: sprite.clone(), x: *x, y: *y, direction: *direction }
            }
        };
        self.pending.push(input);
        Ok(())
    }

    fn block_ops(&self) -> u64 {
        self.vm.block_ops()
    }

    fn step(&mut self, out: &mut Snapshot) -> Result<(), String> {
        self.vm.step_frame(&self.pending);
        self.pending.clear();
        fill(&self.vm.observe(), out);
        Ok(())
    }

    fn initial(&self) -> Option<Snapshot> {
        Some(self.snapshot())
    }
}

fn lit(v: &Value) -> Lit {
    match v {
        Value::Num(n) => Lit::Num(*n),
        Value::Str(s) => Lit::Str(String::from(&**s)),
        Value::Bool(b) => Lit::Bool(*b),
        Value::Undefined => Lit::Undefined,
    }
}

fn fill(o: &Observation, out: &mut Snapshot) {
    out.threads = u32::try_from(o.threads).unwrap_or(u32::MAX);
    out.backdrop = o.stage.costume;
    out.backdrop_name = o.stage.costume_name.as_deref().unwrap_or("").to_string();
    out.stage_effects = o.stage.effects;
    out.vars = o.globals.iter().map(|(n, v)| (n.to_string(), v.clone())).collect();
    out.lists = o.global_lists.iter().map(|(n, v)| (n.to_string(), v.clone())).collect();
    out.sprites = o
        .sprites
        .iter()
        .map(|s| SpriteObs {
            name: s.name.to_string(),
            clone: s.clone,
            x: s.x,
            y: s.y,
            dir: s.dir,
            size: s.size,
            costume: s.costume,
            costume_name: s.costume_name.as_deref().unwrap_or("").to_string(),
            visible: s.visible,
            layer: s.layer as f64,
            effects: s.effects,
            vars: s.vars.iter().map(|(n, v)| (n.to_string(), v.clone())).collect(),
            lists: s.lists.iter().map(|(n, v)| (n.to_string(), v.clone())).collect(),
        })
        .collect();
    out.says = o
        .events
        .says
        .iter()
        .map(|e| SayEvent {
            target: e.target.to_string(),
            think: e.think,
            text: to_str_value(&e.text).to_string(),
        })
        .collect();
    out.questions = o.events.questions.iter().map(|q| q.as_deref().map(String::from)).collect();
    out.broadcasts = o.events.broadcasts.iter().map(|b| b.to_string()).collect();
}

impl VmSubject {
    /// The state after the last frame run (no events), as a [`Snapshot`]: what a case's final
    /// expectations see.
    pub fn snapshot(&self) -> Snapshot {
        let mut out = Snapshot::default();
        fill(&self.vm.observe(), &mut out);
        out.says.clear();
        out.questions.clear();
        out.broadcasts.clear();
        out
    }

    /// Frames run so far.
    pub fn frames(&self) -> u64 {
        self.vm.frame()
    }
}
