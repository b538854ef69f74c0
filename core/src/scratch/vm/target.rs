//! Running targets: the stage, sprites and clones with the state the trace reports
//! (position, direction, size, costume, visibility, effects, layer, variables, lists, bubble).

use alloc::rc::Rc;
use alloc::vec::Vec;

use crate::scratch::value::Value;

/// Rotation styles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RotationStyle {
    /// "all around"
    AllAround,
    /// "left-right"
    LeftRight,
    /// "don't rotate"
    DontRotate,
}

impl RotationStyle {
    /// Parse scratch-vm's name (None for anything else).
    pub fn parse(s: &str) -> Option<RotationStyle> {
        match s {
            "all around" => Some(RotationStyle::AllAround),
            "left-right" => Some(RotationStyle::LeftRight),
            "don't rotate" => Some(RotationStyle::DontRotate),
            _ => None,
        }
    }

    /// scratch-vm's name.
    pub fn name(self) -> &'static str {
        match self {
            RotationStyle::AllAround => "all around",
            RotationStyle::LeftRight => "left-right",
            RotationStyle::DontRotate => "don't rotate",
        }
    }
}

/// A speech bubble (looks custom state).
#[derive(Clone, Debug, PartialEq)]
pub struct Bubble {
    /// "say" or "think".
    pub think: bool,
    /// Formatted text ("" when no bubble).
    pub text: Rc<str>,
    /// Changes whenever the bubble is updated (scratch-vm's `usageId`).
    pub usage: u64,
}

impl Instance {
    /// The x (`k` 0) or y (`k` 1) position as scratch-vm holds it: a number (NaN included)
    /// or `undefined`.
    pub fn coordinate(&self, k: usize) -> Value {
        let (v, undefined) =
            if k == 0 { (self.x, self.undefined[0]) } else { (self.y, self.undefined[1]) };
        if undefined {
            Value::Undefined
        } else {
            Value::Num(v)
        }
    }
}

/// One running target.
#[derive(Clone, Debug)]
pub struct Instance {
    /// Index of its sprite (or the stage) in the image.
    pub sprite: u32,
    /// Original (not a clone).
    pub original: bool,
    /// Clone serial per sprite (0 for originals).
    pub serial: u32,
    /// Still on the stage (clones are removed when deleted).
    pub alive: bool,
    /// x position (NaN when it is not a number: JavaScript's `NaN` or `undefined`, told
    /// apart by [`Instance::undefined`]).
    pub x: f64,
    /// y position (likewise).
    pub y: f64,
    /// Whether x and y are JavaScript `undefined` rather than a number (`go to
    /// (mouse-pointer)` before the first mouse event, `go to` a sprite in that state); the
    /// coordinate then holds NaN, which every computation treats as JavaScript treats
    /// `undefined` in arithmetic. Only [`Instance::x`]'s reporters and the trace tell them
    /// apart.
    pub undefined: [bool; 2],
    /// Direction.
    pub direction: f64,
    /// Size in percent.
    pub size: f64,
    /// Costume index.
    pub costume: u32,
    /// Visible.
    pub visible: bool,
    /// Draggable.
    pub draggable: bool,
    /// Being dragged with the mouse (`RenderedTarget.dragging`): blocks do not move it.
    pub dragging: bool,
    /// Rotation style.
    pub rotation: RotationStyle,
    /// Graphic effects in key order.
    pub effects: [f64; 7],
    /// Volume.
    pub volume: f64,
    /// Sound effects: pitch, pan (`Scratch.sound` custom state).
    pub sound_fx: [f64; 2],
    /// Tempo (stage).
    pub tempo: f64,
    /// Music instrument, 0-based (`Scratch.music` custom state; clones copy it).
    pub instrument: f64,
    /// Variables by slot (globals on the stage).
    pub vars: Vec<Value>,
    /// Lists by slot.
    pub lists: Vec<Vec<Value>>,
    /// Speech bubble, once the target has said anything.
    pub bubble: Option<Bubble>,
    /// Pen state, once a pen block ran on this target (clones copy it).
    pub pen: Option<crate::scratch::pen::PenState>,
    /// Previous values of edge-activated hats, by script index.
    pub edge: Vec<Option<bool>>,
    /// Cached renderer state (transform, hull, bounds) when the image has skins.
    pub draw: super::drawable::DrawCache,
}
