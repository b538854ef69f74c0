//! Per-frame observations: every field of the reference trace line, read from the VM after
//! a frame (see `docs/trace.md`).

use alloc::rc::Rc;
use alloc::vec::Vec;

use super::target::Bubble;
use super::{FrameEvents, Vm};
use crate::scratch::value::Value;

/// Variables as (name, value) in declaration order.
pub type NamedValues = Vec<(Rc<str>, Value)>;
/// Lists as (name, items) in declaration order.
pub type NamedLists = Vec<(Rc<str>, Vec<Value>)>;

/// The stage's part of an observation.
#[derive(Clone, Debug)]
pub struct StageObs {
    /// Backdrop index.
    pub costume: u32,
    /// Backdrop name.
    pub costume_name: Option<Rc<str>>,
    /// Effects in key order.
    pub effects: [f64; 7],
    /// Volume.
    pub volume: f64,
    /// Tempo.
    pub tempo: f64,
}

/// One sprite (original or clone) in `runtime.targets` order.
#[derive(Clone, Debug)]
pub struct SpriteObs {
    /// Sprite name.
    pub name: Rc<str>,
    /// 0 for the original, else the clone's creation serial within its sprite.
    pub clone: u32,
    /// x (NaN when not a number).
    pub x: f64,
    /// y (NaN when not a number).
    pub y: f64,
    /// Whether x, y are JavaScript `undefined` (they hold NaN then; `Instance::undefined`).
    pub undefined: [bool; 2],
    /// Direction.
    pub dir: f64,
    /// Size.
    pub size: f64,
    /// Costume index.
    pub costume: u32,
    /// Costume name.
    pub costume_name: Option<Rc<str>>,
    /// Visible.
    pub visible: bool,
    /// Index in the execution (layer) order; the stage is 0.
    pub layer: i64,
    /// Rotation style name.
    pub rot: &'static str,
    /// Draggable.
    pub drag: bool,
    /// Effects in key order.
    pub effects: [f64; 7],
    /// Volume.
    pub volume: f64,
    /// Speech bubble, if showing text.
    pub bubble: Option<Bubble>,
    /// Local variables (name, value) in declaration order.
    pub vars: Vec<(Rc<str>, Value)>,
    /// Local lists.
    pub lists: Vec<(Rc<str>, Vec<Value>)>,
}

/// Everything the reference trace reports after a frame.
#[derive(Clone, Debug)]
pub struct Observation {
    /// Frame index.
    pub f: u64,
    /// Virtual ms of the frame.
    pub t: f64,
    /// Project timer in seconds.
    pub timer: f64,
    /// Threads in the thread list.
    pub threads: usize,
    /// Redraw requested during the frame's step.
    pub redraw: bool,
    /// Clone counter.
    pub clones: u32,
    /// Events of the frame.
    pub events: FrameEvents,
    /// The current answer.
    pub answer: Rc<str>,
    /// The stage.
    pub stage: StageObs,
    /// Global variables.
    pub globals: Vec<(Rc<str>, Value)>,
    /// Global lists.
    pub global_lists: Vec<(Rc<str>, Vec<Value>)>,
    /// Sprites in `runtime.targets` order.
    pub sprites: Vec<SpriteObs>,
}

impl Vm {
    fn vars_of(&self, inst: u32) -> (NamedValues, NamedLists) {
        let i = &self.insts[inst as usize];
        let decl = &self.img.targets[i.sprite as usize];
        let vars = decl
            .vars
            .iter()
            .zip(&i.vars)
            .map(|((n, _), v)| (Rc::from(n.as_str()), v.clone()))
            .collect();
        let lists = decl
            .lists
            .iter()
            .zip(&i.lists)
            .map(|((n, _), v)| (Rc::from(n.as_str()), v.clone()))
            .collect();
        (vars, lists)
    }

    fn costume_name(&self, inst: u32) -> Option<Rc<str>> {
        let c = self.insts[inst as usize].costume as usize;
        self.costumes(inst).get(c).map(|s| Rc::from(s.as_str()))
    }

    /// The observation after the last frame.
    pub fn observe(&self) -> Observation {
        let st = &self.insts[self.stage as usize];
        let (globals, global_lists) = self.vars_of(self.stage);
        let mut sprites = Vec::new();
        for &t in &self.targets {
            if t == self.stage {
                continue;
            }
            let i = &self.insts[t as usize];
            let (vars, lists) = self.vars_of(t);
            sprites.push(SpriteObs {
                name: self.name_of(t),
                clone: i.serial,
                x: i.x,
                y: i.y,
                undefined: i.undefined,
                dir: i.direction,
                size: i.size,
                costume: i.costume,
                costume_name: self.costume_name(t),
                visible: i.visible,
                layer: self.exec.iter().position(|&x| x == t).map_or(-1, |p| p as i64),
                rot: i.rotation.name(),
                drag: i.draggable,
                effects: i.effects,
                volume: i.volume,
                bubble: i.bubble.clone().filter(|b| !b.text.is_empty()),
                vars,
                lists,
            });
        }
        Observation {
            f: self.frame.saturating_sub(1),
            t: self.now_ms,
            timer: self.project_timer(),
            threads: self.threads.len(),
            redraw: self.redraw,
            clones: self.clone_count,
            events: self.events.clone(),
            answer: self.io.answer.clone(),
            stage: StageObs {
                costume: st.costume,
                costume_name: self.costume_name(self.stage),
                effects: st.effects,
                volume: st.volume,
                tempo: st.tempo,
            },
            globals,
            global_lists,
            sprites,
        }
    }
}
