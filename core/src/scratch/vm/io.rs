//! Inputs from the host (keys, mouse, clicks, broadcasts, answers, flag, stop) and the
//! devices scratch-vm keeps for them: keyboard, mouse, the question queue and the virtual
//! `setTimeout` queue used by say/think-for-secs (refvm P6).

use crate::clamp::clamp;
use crate::scratch::value::case;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use crate::scratch::image::Lit;
use crate::scratch::value::Value;

/// One input applied at the start of a frame, in order (the scenario actions of refvm).
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// Click the green flag.
    GreenFlag,
    /// Click the stop sign.
    StopAll,
    /// Start one sprite's green-flag scripts only, as a benchmark script's
    /// `runtime.startHats('event_whenflagclicked', null, target)` does: the named sprite's
    /// original (not its clones), with no stop, no timer reset and no effects cleared; its
    /// running flag scripts restart. An unknown sprite starts nothing.
    FlagSprite(String),
    /// A key goes down (Scratch names: "space", "left arrow", "a", ...; or DOM names).
    KeyDown(String),
    /// A key goes up.
    KeyUp(String),
    /// The mouse moves to Scratch coordinates.
    MouseMove(f64, f64),
    /// The button goes down (optionally moving first).
    MouseDown(Option<f64>, Option<f64>),
    /// The button goes up (optionally moving first).
    MouseUp(Option<f64>, Option<f64>),
    /// A direct write of the mouse device's button flag (`mouse._isDown = down`), as a
    /// benchmark script does: `mouse down?` sees it; no event, so no click hats, no drag.
    MouseFlag(bool),
    /// Click a sprite by name (or "Stage").
    Click(String),
    /// Start the hats of a broadcast message.
    Broadcast(String),
    /// Answer the current question.
    Answer(String),
    /// Turn turbo mode on or off.
    Turbo(bool),
    /// A direct write, as a benchmark script does with `variable.value = v`: the variable
    /// named `name` as the target (the sprite's original, or the stage when `sprite` is
    /// `None`) sees it (`lookupVariableByNameAndType`: its own variables first, then the
    /// stage's) gets `value` as it is, with no cast. An unknown sprite or variable changes
    /// nothing.
    SetVariable {
        /// Sprite name (`None`: the stage).
        sprite: Option<String>,
        /// Variable name.
        name: String,
        /// The new value.
        value: Lit,
    },
    /// A direct write of a list (`list.value = items`), found like [`Input::SetVariable`].
    SetList {
        /// Sprite name (`None`: the stage).
        sprite: Option<String>,
        /// List name.
        name: String,
        /// The new items.
        items: Vec<Lit>,
    },
    /// A direct move/turn of a sprite's original, as `target.setXY(x, y)` and
    /// `target.setDirection(d)` do (same rules as the motion blocks: a missing coordinate
    /// keeps its value, a non-finite direction is ignored, the position is fenced like
    /// `setXY` once stage geometry is modelled).
    SetSprite {
        /// Sprite name.
        sprite: String,
        /// New x.
        x: Option<f64>,
        /// New y.
        y: Option<f64>,
        /// New direction.
        direction: Option<f64>,
    },
}

/// Keyboard and mouse state.
#[derive(Clone, Debug, Default)]
pub struct Io {
    /// Pressed keys as Scratch key names, in press order.
    pub keys: Vec<Rc<str>>,
    /// Mouse position (undefined until the first mouse event).
    pub mouse_x: Value,
    /// Mouse y.
    pub mouse_y: Value,
    /// Button down.
    pub mouse_down: bool,
    /// Last mouse position in Scratch coordinates (as the harness tracks it).
    pub pos: (f64, f64),
    /// Last mouse position in client (canvas) coordinates, as `getClientX/Y`.
    pub client: (f64, f64),
    /// Current answer.
    pub answer: Rc<str>,
    /// The GUI's mouse dragging.
    pub drag: super::drag::Drag,
}

/// A queued `ask`.
#[derive(Clone, Debug)]
pub struct Question {
    /// The question text.
    pub text: Rc<str>,
    /// Serial of the waiting thread.
    pub thread: u64,
    /// The asking instance.
    pub target: u32,
    /// Visible sprite when asked (shows a bubble).
    pub bubble: bool,
}

/// A virtual `setTimeout` (say/think for secs).
#[derive(Clone, Debug)]
pub struct Timeout {
    /// Due virtual ms.
    pub due: f64,
    /// Creation order.
    pub seq: u64,
    /// Instance whose bubble to clear.
    pub target: u32,
    /// Bubble usage id at start.
    pub usage: u64,
    /// think (true) or say.
    pub think: bool,
    /// Serial of the waiting thread.
    pub thread: u64,
}

/// DOM key names the harness sends for Scratch key names.
pub fn scenario_key_to_dom(k: &str) -> &str {
    match case::to_lower(k).as_str() {
        "space" => " ",
        "left arrow" => "ArrowLeft",
        "right arrow" => "ArrowRight",
        "up arrow" => "ArrowUp",
        "down arrow" => "ArrowDown",
        "enter" => "Enter",
        _ => k,
    }
}

/// scratch-vm `Keyboard._keyStringToScratchKey` ("" when ignored).
pub fn dom_key_to_scratch(k: &str) -> String {
    match k {
        " " => "space".into(),
        "ArrowLeft" | "Left" => "left arrow".into(),
        "ArrowUp" | "Up" => "up arrow".into(),
        "ArrowRight" | "Right" => "right arrow".into(),
        "ArrowDown" | "Down" => "down arrow".into(),
        "Enter" => "enter".into(),
        _ if k.encode_utf16().count() > 1 => String::new(),
        _ => case::to_upper(k),
    }
}

/// scratch-vm `Keyboard._keyArgToScratchKey` for the `key pressed?` reporter.
pub fn key_arg_to_scratch(v: &Value) -> String {
    if let Value::Num(n) = v {
        let n = *n;
        if (48.0..=90.0).contains(&n) && libm::trunc(n) == n {
            return char::from(n as u8).into();
        }
        match n as i64 {
            32 if n == 32.0 => return "space".into(),
            37 if n == 37.0 => return "left arrow".into(),
            38 if n == 38.0 => return "up arrow".into(),
            39 if n == 39.0 => return "right arrow".into(),
            40 if n == 40.0 => return "down arrow".into(),
            _ => {}
        }
    }
    let s = crate::scratch::value::cast::to_str_value(v);
    if matches!(
        &*s,
        "space" | "left arrow" | "up arrow" | "right arrow" | "down arrow" | "enter" | "any"
    ) {
        return String::from(&*s);
    }
    let first: String = s.chars().take(1).collect();
    if first == " " {
        return "space".into();
    }
    case::to_upper(&first)
}

/// JavaScript `Math.round`.
pub fn js_round(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let f = libm::floor(x);
    let r = if x - f >= 0.5 { f + 1.0 } else { f };
    if r == 0.0 && x < 0.0 {
        -0.0
    } else {
        r
    }
}

/// scratch-vm's mouse coordinate from a client coordinate, as the harness posts it.
pub fn mouse_scratch(client: f64, scale: f64, size: f64, lo: f64, hi: f64) -> f64 {
    js_round(clamp(scale * ((client / size) - 0.5), lo, hi))
}
