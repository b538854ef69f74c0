//! The Scratch VM: a deterministic port of scratch-vm 5.0.300's runtime and sequencer over a
//! compiled [`Image`].
//!
//! The host owns time and input: [`Vm::step_frame`] advances exactly one virtual frame
//! (`frame * 1000 / fps` ms) after applying that frame's [`Input`]s, like the reference
//! harness's `oracle.step`. Work per frame is bounded by *counts* ([`Config`]), never by a
//! clock, and runaway programs halt on the memory and work budgets of [`budget`]. Submodules: [`sched`] (sequencer and hats), [`fast`] (fused forms of common shapes),
//! [`thread`], [`target`], [`sprite`] (a target's state changes: position, direction,
//! visibility, bubbles, layers), [`random`], [`io`] (keyboard, mouse, questions, timeouts),
//! [`eval`] (reporters), [`observe`], [`trig`] (a memo of sine and cosine), [`sound`],
//! [`drag`], [`makey`] (the Makey Makey extension's state), and the renderer's side:
//! [`drawable`] (per-target caches and the touching queries), [`touch_color`] and [`scene`]
//! (what `crate::scratch::render` draws).
//!
//! Block semantics live in `crate::scratch::blocks`, above this module: the VM reaches them
//! only through `hooks::Blocks`, which that module implements.

pub mod budget;
pub mod drag;
pub mod drawable;
pub mod eval;
pub mod fast;
pub mod hooks;
pub mod io;
pub mod makey;
pub mod observe;
pub mod random;
pub mod scene;
pub mod sched;
pub mod sound;
pub mod sprite;
pub mod target;
pub mod thread;
#[cfg(feature = "tier")]
mod tier;
pub mod touch_color;
pub mod touch_memo;
pub mod trig;

use alloc::collections::VecDeque;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::scratch::image::{Hat, Image, Lit, Slot, IMAGE_VERSION};
use crate::scratch::value::Value;
pub use budget::{Stop, StopReason};
pub use io::Input;
pub use observe::Observation;
use random::Mulberry32;
use target::{Instance, RotationStyle};
use thread::Thread;

/// Budgets and limits of one run. Defaults equal the reference harness's.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Frames per second of the virtual clock (30, or 60).
    pub fps: u32,
    /// Passes over the thread list per frame (refvm P4, default 1000).
    pub ticks_per_frame: u32,
    /// Warp-timer checks before "run without screen refresh" yields (refvm P5, default 1e6).
    pub warp_checks: u32,
    /// Turbo mode.
    pub turbo: bool,
    /// Seed of block randomness.
    pub seed: u32,
    /// Calendar time of virtual ms 0, in ms since 1970 (UTC), for `current` and `days since 2000`.
    pub epoch_ms: f64,
    /// Most clones at once (scratch-vm: 300).
    pub max_clones: u32,
    /// Most items in a list (scratch-vm: 200,000; a longer list ignores the addition).
    pub max_list_len: usize,
    /// Longest string, in UTF-16 code units as JavaScript counts (`join` and list contents);
    /// default V8's limit [`budget::JS_MAX_STRING_LEN`] (`2^29 - 24`). A longer string halts
    /// the run ([`budget::StopReason::StringLength`]), where scratch-vm throws `RangeError`.
    pub max_string_len: usize,
    /// Most bytes held by the items of all lists together (each item: the value's size plus
    /// its string's UTF-8 bytes); more halts the run ([`budget::StopReason::ListBytes`]).
    /// Default 512 MiB. scratch-vm has no such limit (a browser tab runs out of memory).
    pub max_list_bytes: usize,
    /// Most frames on one thread's stack (custom-block calls nest one frame each); more halts
    /// the run ([`budget::StopReason::CallDepth`]). Default 1,000,000.
    pub max_call_depth: usize,
    /// Most threads at once; more halts the run ([`budget::StopReason::Threads`]). Default
    /// 100,000.
    pub max_threads: usize,
    /// Ceiling of [`Vm::memory_estimate`] (lists, strings in variables, thread stacks),
    /// checked every 8 MiB of growth (or every eighth of the ceiling, when less); more halts the run ([`budget::StopReason::Memory`]).
    /// Default 1 GiB.
    pub max_memory: usize,
    /// Size-proportional work of one frame, in units (one per byte of string built or
    /// scanned and per list item scanned, moved or copied); more halts the run
    /// ([`budget::StopReason::Work`]). Default 2^31 (well under a second of copying).
    /// Number-only scripts spend none.
    pub max_frame_work: u64,
    /// Run common shapes (loops and `if`s over plain blocks) inline, see [`fast`]. Observable
    /// behaviour is the same either way; `false` sends every block through the general
    /// path, which the differential tests compare against.
    pub fuse: bool,
    /// Run loops whose blocks are all variables, lists, operators, `if`s and loops through
    /// the register tier (`vm::tier`, built with the cargo feature `tier`, on by default).
    /// Observable behaviour is the same either way; `false` leaves every loop to the
    /// interpreter, which the differential tests compare against.
    pub tier: bool,
    /// Keep each drawable's position-free transform and its hull bounds between queries
    /// (`vm::drawable`), and recent sines and cosines ([`trig`]). Observable behaviour is the
    /// same either way; `false` recomputes them on every query, which the differential tests
    /// compare against.
    pub geometry_cache: bool,
    /// Keep touching answers (touching a sprite, the edge, the mouse, a colour, colour
    /// touching colour) per asker until the render state changes ([`touch_memo`]): a script
    /// polling a query while nothing moves costs a lookup. Observable behaviour is the same
    /// either way; `false` computes every query, which the differential tests compare against.
    pub touch_memo: bool,
    /// Slots of the per-VM memo of `Math.sin`/`Math.cos` ([`trig`]; 24 bytes each, allocated
    /// when a move or transform first needs one; 0: no memo). Observable behaviour is the same
    /// for any size.
    pub trig_memo: u32,
    /// The audio engine modelled: [`sound::AudioMode::Timed`] (the browser, default) or
    /// [`sound::AudioMode::None`] (the reference harnesses: `play sound until done` does not
    /// wait).
    pub audio: sound::AudioMode,
    /// How mouse events drag sprites: [`drag::DragStyle::Player`] (the browser's player,
    /// default), `Editor`, or `None` (the reference harnesses: no GUI, nothing drags).
    pub drag: drag::DragStyle,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            fps: 30,
            ticks_per_frame: 1000,
            warp_checks: 1_000_000,
            turbo: false,
            seed: 1,
            epoch_ms: 1_577_836_800_000.0,
            max_clones: 300,
            max_list_len: 200_000,
            max_string_len: budget::JS_MAX_STRING_LEN,
            max_list_bytes: 512 << 20,
            max_call_depth: 1_000_000,
            max_threads: 100_000,
            max_memory: 1 << 30,
            max_frame_work: 1 << 31,
            fuse: true,
            tier: true,
            geometry_cache: true,
            touch_memo: true,
            trig_memo: trig::DEFAULT_SLOTS,
            audio: sound::AudioMode::Timed,
            drag: drag::DragStyle::Player,
        }
    }
}

/// Why a VM could not be created.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VmError {
    /// The image was written by another layout version.
    Version(u32),
    /// The image is inconsistent (an index out of range).
    BadImage(&'static str),
    /// A skin (costume pixels) of the image is malformed.
    BadSkin {
        /// Index into `Image::skins`.
        skin: u32,
        /// What is wrong.
        fault: crate::scratch::image::SkinFault,
    },
}

impl fmt::Display for VmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VmError::Version(v) => write!(f, "program image version {v}, expected {IMAGE_VERSION}"),
            VmError::BadImage(what) => write!(f, "inconsistent program image: {what}"),
            VmError::BadSkin { skin, fault } => {
                write!(f, "inconsistent program image: skin {skin}: {fault}")
            }
        }
    }
}

impl core::error::Error for VmError {}

/// Where the thread being stepped lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Active {
    /// No thread is running.
    None,
    /// Index in the list the current pass iterates.
    Pass(usize),
    /// Replaced in the list by a restart; still finishing its step.
    Detached,
    /// A freshly started thread running its hat (index in `threads`).
    Hat(usize),
}

/// A say/think event of this frame (`SAY`).
#[derive(Clone, Debug)]
pub struct SayEvent {
    /// Target name.
    pub target: Rc<str>,
    /// "think" when true, else "say".
    pub think: bool,
    /// The raw value said.
    pub text: Value,
}

/// Events captured during one frame.
#[derive(Clone, Debug, Default)]
pub struct FrameEvents {
    /// Broadcast names started (blocks or inputs).
    pub broadcasts: Vec<Rc<str>>,
    /// SAY events.
    pub says: Vec<SayEvent>,
    /// QUESTION events (`None` is `null`).
    pub questions: Vec<Option<Rc<str>>>,
}

impl FrameEvents {
    /// Empty every list, keeping their capacity (no allocation per frame once grown).
    pub(crate) fn clear(&mut self) {
        // Destructured so that a new kind of event cannot be forgotten here.
        let FrameEvents { broadcasts, says, questions } = self;
        broadcasts.clear();
        says.clear();
        questions.clear();
    }
}

/// The virtual machine.
#[derive(Debug)]
pub struct Vm {
    pub(crate) img: Rc<Image>,
    pub(crate) consts: Vec<Value>,
    /// `Cast.toNumber` of each constant, computed once.
    pub(crate) consts_num: Vec<f64>,
    pub(crate) cfg: Config,
    /// Target instances (slots of deleted clones are reused).
    pub(crate) insts: Vec<Instance>,
    pub(crate) free_insts: Vec<u32>,
    /// `runtime.targets`.
    pub(crate) targets: Vec<u32>,
    /// `runtime.executableTargets` (layer order).
    pub(crate) exec: Vec<u32>,
    pub(crate) stage: u32,
    pub(crate) threads: Vec<Thread>,
    pub(crate) orphans: Option<Vec<Thread>>,
    pub(crate) detached: Option<Thread>,
    pub(crate) active: Active,
    pub(crate) in_pass: bool,
    pub(crate) next_serial: u64,
    pub(crate) rng: Mulberry32,
    /// Frames stepped so far.
    pub(crate) frame: u64,
    /// Statement executions so far ([`Vm::block_ops`]).
    pub(crate) block_ops: u64,
    pub(crate) now_ms: f64,
    pub(crate) current_msecs: f64,
    pub(crate) timer_start: f64,
    pub(crate) redraw: bool,
    pub(crate) clone_count: u32,
    pub(crate) clone_serials: Vec<u32>,
    pub(crate) ticks: u32,
    pub(crate) warp_expired: bool,
    pub(crate) counter: f64,
    pub(crate) usage_seq: u64,
    pub(crate) io: io::Io,
    pub(crate) questions: VecDeque<io::Question>,
    pub(crate) timeouts: Vec<io::Timeout>,
    pub(crate) events: FrameEvents,
    /// Target names by image index.
    pub(crate) names: Vec<Rc<str>>,
    /// Sequence number of the most recent say/think-for-secs timeout (0: none).
    pub(crate) last_bubble_timeout: u64,
    pub(crate) timeout_seq: u64,
    /// Silhouette MIP level reached by each costume, by sprite then costume (level index + 1;
    /// 0: none yet). Only used when the image has skins.
    pub(crate) sil: Vec<Vec<u8>>,
    /// Reused list of instance ids for touching queries.
    pub(crate) scratch_ids: Vec<u32>,
    /// Work buffers of the touching queries and `pick` (reused: no allocation per query).
    pub(crate) touch: drawable::TouchScratch,
    /// A retired thread handed out if a block ever runs outside a thread.
    pub(crate) spare: Thread,
    /// Scratch buffer for building strings (`join`), reused so only results allocate.
    pub(crate) text_buf: String,
    /// [`fast::Shape`] of every statement.
    pub(crate) shapes: Vec<fast::Shape>,
    /// [`fast::Quick`] form of every statement.
    pub(crate) quicks: Vec<fast::Quick>,
    /// For each kind of edge-activated hat (in [`sched::EDGE_HATS`] order), whether any script
    /// starts with one (else its per-frame pass over every target finds nothing and is skipped).
    pub(crate) edge_hats: [bool; sched::EDGE_HATS.len()],
    /// Threads waiting in `speak and wait`, resumed at the start of the next frame.
    pub(crate) speech: Vec<u64>,
    /// The Makey Makey extension's key buffer and sequences.
    pub(crate) makey: makey::MakeyState,
    /// Registers written by hoisted input evaluations ([`crate::scratch::image::Hoist`]).
    pub(crate) regs: Vec<Value>,
    /// The value each visible monitor showed after the last frame (by image monitor index).
    pub(crate) monitor_values: Vec<Value>,
    /// The pen layer, allocated when a pen block first runs.
    pub(crate) pen_layer: Option<crate::scratch::pen::PenLayer>,
    /// Size of the pen layer to allocate.
    pub(crate) pen_size: [u32; 2],
    /// Sound players and sound waits ([`sound`]).
    pub(crate) sounds: sound::Sounds,
    /// Recent `Math.sin`/`Math.cos` results ([`trig`]).
    pub(crate) trig: trig::TrigMemo,
    /// Loops compiled to register code (`vm::tier`).
    #[cfg(feature = "tier")]
    pub(crate) tier: tier::Tier,
    /// Memory and work budgets ([`budget`]).
    pub(crate) budget: budget::Budget,
    /// Bumped by every change a touching answer depends on ([`touch_memo`]); starts at 1.
    pub(crate) render_epoch: u64,
    /// Touching answers by asker, query and render epoch ([`touch_memo`]).
    pub(crate) touch_memo: touch_memo::TouchMemo,
}

pub(crate) fn lit_value(l: &Lit) -> Value {
    match l {
        Lit::Num(n) => Value::Num(*n),
        Lit::Str(s) => Value::str(s),
        Lit::Bool(b) => Value::Bool(*b),
        Lit::Undefined => Value::Undefined,
    }
}

impl Vm {
    /// A VM ready to run `img` (nothing runs until inputs such as the green flag arrive).
    pub fn new(img: Image, cfg: Config) -> Result<Vm, VmError> {
        if img.version != IMAGE_VERSION {
            return Err(VmError::Version(img.version));
        }
        check_image(&img)?;
        let consts: Vec<Value> = img.consts.iter().map(lit_value).collect();
        let consts_num: Vec<f64> =
            consts.iter().map(crate::scratch::value::cast::to_number).collect();
        let names = img.targets.iter().map(|t| Rc::from(t.name.as_str())).collect();
        let shapes = if cfg.fuse {
            fast::shapes(&img)
        } else {
            alloc::vec![fast::Shape::General; img.stmts.len()]
        };
        let quicks = if cfg.fuse {
            fast::quicks(&img, &consts_num)
        } else {
            alloc::vec![fast::Quick::None; img.stmts.len()]
        };
        let edge_hats = sched::EDGE_HATS
            .each_ref()
            .map(|(h, _)| img.targets.iter().any(|t| t.scripts.iter().any(|s| s.hat == *h)));
        let makey = makey::MakeyState::new(
            img.targets.iter().any(|t| t.scripts.iter().any(|s| s.hat == Hat::MakeyCode)),
        );
        #[cfg(feature = "tier")]
        let tier = tier::Tier::new(&img, &consts, &shapes, cfg.tier);
        let mut vm = Vm {
            #[cfg(feature = "tier")]
            tier,
            consts,
            consts_num,
            insts: Vec::new(),
            free_insts: Vec::new(),
            targets: Vec::new(),
            exec: Vec::new(),
            stage: img.stage,
            threads: Vec::new(),
            orphans: None,
            detached: None,
            active: Active::None,
            in_pass: false,
            next_serial: 1,
            rng: Mulberry32::new(cfg.seed),
            frame: 0,
            block_ops: 0,
            now_ms: 0.0,
            current_msecs: 0.0,
            timer_start: 0.0,
            redraw: false,
            clone_count: 0,
            clone_serials: alloc::vec![0; img.targets.len()],
            ticks: 0,
            warp_expired: false,
            counter: 0.0,
            usage_seq: 0,
            io: io::Io::default(),
            questions: VecDeque::new(),
            timeouts: Vec::new(),
            events: FrameEvents::default(),
            names,
            last_bubble_timeout: 0,
            timeout_seq: 0,
            spare: Thread::new(0, 0, 0),
            sil: img.targets.iter().map(|t| alloc::vec![0; t.costumes.len()]).collect(),
            scratch_ids: Vec::new(),
            touch: drawable::TouchScratch::default(),
            text_buf: String::new(),
            shapes,
            quicks,
            edge_hats,
            makey,
            speech: Vec::new(),
            regs: alloc::vec![Value::Undefined; img.registers as usize],
            monitor_values: alloc::vec![Value::Undefined; img.monitors.len()],
            pen_layer: None,
            pen_size: [480, 360],
            sounds: sound::Sounds::new(img.targets.iter().map(|t| t.sounds.len()), cfg.audio),
            trig: trig::TrigMemo::default(),
            budget: budget::Budget::default(),
            render_epoch: 1,
            touch_memo: touch_memo::TouchMemo::default(),
            cfg,
            img: Rc::new(img),
        };
        let img = vm.img.clone();
        for (i, t) in img.targets.iter().enumerate() {
            let n_scripts = t.scripts.len();
            vm.insts.push(Instance {
                sprite: i as u32,
                original: true,
                serial: 0,
                alive: true,
                x: t.x,
                y: t.y,
                undefined: [false; 2],
                // `sb3.parseScratchObject`: `MathUtil.wrapClamp(direction, -179, 180)`.
                direction: crate::clamp::wrap_clamp(t.direction, -179.0, 180.0),
                size: t.size,
                costume: t.costume,
                visible: t.visible,
                draggable: t.draggable,
                dragging: false,
                rotation: RotationStyle::parse(&t.rotation_style)
                    .unwrap_or(RotationStyle::AllAround),
                effects: [0.0; 7],
                volume: t.volume,
                sound_fx: [0.0; 2],
                tempo: t.tempo,
                instrument: 0.0,
                vars: t.vars.iter().map(|v| lit_value(&v.1)).collect(),
                lists: t.lists.iter().map(|l| l.1.iter().map(lit_value).collect()).collect(),
                bubble: None,
                pen: None,
                edge: alloc::vec![None; n_scripts],
                draw: drawable::DrawCache::default(),
            });
            vm.targets.push(i as u32);
        }
        vm.exec = img.layer_order.clone();
        let lists: usize =
            vm.insts.iter().flat_map(|i| &i.lists).map(|l| budget::list_bytes(l)).sum();
        vm.list_grow(lists);
        Ok(vm)
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// The program image.
    pub fn image(&self) -> &Image {
        &self.img
    }

    /// Frames stepped so far.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// Block operations so far: statement blocks the sequencer executed, counted as
    /// scratch-vm's `execute()` calls on stack blocks. A C block counts each time it is
    /// reached: `if` once, a loop once per test of its condition (a `repeat (3)` is 4
    /// operations, the last ending it), a `wait` once per step it is polled; a custom block
    /// call counts once, the definition block it steps to once, and its body's blocks each. Hats, edge-triggered hat predicates and
    /// monitors are not counted, nor are reporters (they are part of their block's
    /// operation). The count is the same with [`Config::fuse`] and [`Config::tier`] on or
    /// off (the register tier adds whole runs of blocks at its jumps), costs one addition
    /// per block, and never allocates.
    pub fn block_ops(&self) -> u64 {
        self.block_ops
    }

    /// Number of block random draws so far.
    pub fn random_calls(&self) -> u64 {
        self.rng.calls
    }

    /// scratch-vm `uid()` calls so far, counted as the reference harness counts them: those
    /// made while loading ([`Image::load_uid_calls`]), one per clone created (the `Target`
    /// constructor) and one per bubble update (`_updateBubble` sets a fresh `usageId`).
    pub fn uid_calls(&self) -> u64 {
        let clones: u64 = self.clone_serials.iter().map(|&n| u64::from(n)).sum();
        self.img.load_uid_calls + clones + self.usage_seq
    }

    /// Visible monitors with the value each showed in the last frame: (monitor id, value),
    /// in `project.json` order (`undefined` before the first frame).
    pub fn monitors(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.img.monitors.iter().map(|m| m.id.as_str()).zip(&self.monitor_values)
    }

    /// Non-monitor threads in the thread list (what the trace calls `threads`).
    pub fn thread_count(&self) -> usize {
        self.threads.len()
    }

    /// Loop statements the register tier compiled (0 when [`Config::tier`] is off or the
    /// cargo feature `tier` is not built).
    pub fn tier_regions(&self) -> usize {
        #[cfg(feature = "tier")]
        return self.tier.len();
        #[cfg(not(feature = "tier"))]
        0
    }

    /// Without the register tier no loop has a region.
    #[cfg(not(feature = "tier"))]
    #[inline(always)]
    pub(crate) fn run_tier(
        &mut self,
        _cur: crate::scratch::image::StmtId,
        _warp: bool,
    ) -> Option<fast::LoopExit> {
        None
    }

    /// Read a variable slot as seen from `inst`.
    #[inline]
    pub(crate) fn var(&self, inst: u32, slot: Slot) -> Value {
        let (i, k) = match slot {
            Slot::Local(k) => (inst, k),
            Slot::Global(k) => (self.stage, k),
        };
        match self.insts.get(i as usize).and_then(|t| t.vars.get(k as usize)) {
            Some(v) => v.clone(),
            None => Value::Undefined,
        }
    }

    /// A variable slot as seen from `inst`, by reference.
    #[inline]
    pub(crate) fn var_ref(&self, inst: u32, slot: Slot) -> Option<&Value> {
        let (i, k) = match slot {
            Slot::Local(k) => (inst, k),
            Slot::Global(k) => (self.stage, k),
        };
        self.insts.get(i as usize)?.vars.get(k as usize)
    }

    /// Mutable access to a variable slot as seen from `inst`.
    #[inline]
    pub(crate) fn var_mut(&mut self, inst: u32, slot: Slot) -> Option<&mut Value> {
        let (i, k) = match slot {
            Slot::Local(k) => (inst, k),
            Slot::Global(k) => (self.stage, k),
        };
        self.insts.get_mut(i as usize)?.vars.get_mut(k as usize)
    }

    /// `data_changevariableby` with the amount already cast.
    #[inline]
    pub(crate) fn change_var(&mut self, t: u32, slot: Slot, d: f64) {
        if let Some(x) = self.var_mut(t, slot) {
            match x {
                Value::Num(n) if !n.is_nan() => *n += d,
                _ => *x = Value::Num(crate::scratch::value::cast::to_number(x) + d),
            }
        }
    }

    /// Mutable access to a list slot as seen from `inst`.
    pub(crate) fn list_mut(&mut self, inst: u32, slot: Slot) -> Option<&mut Vec<Value>> {
        let (i, k) = match slot {
            Slot::Local(k) => (inst, k),
            Slot::Global(k) => (self.stage, k),
        };
        self.insts.get_mut(i as usize)?.lists.get_mut(k as usize)
    }

    /// A list slot as seen from `inst`.
    pub(crate) fn list(&self, inst: u32, slot: Slot) -> &[Value] {
        let (i, k) = match slot {
            Slot::Local(k) => (inst, k),
            Slot::Global(k) => (self.stage, k),
        };
        self.insts
            .get(i as usize)
            .and_then(|t| t.lists.get(k as usize))
            .map_or(&[], |l| l.as_slice())
    }

    /// The name of an instance's sprite.
    pub(crate) fn name_of(&self, inst: u32) -> Rc<str> {
        let s = self.insts.get(inst as usize).map_or(0, |t| t.sprite);
        self.names.get(s as usize).cloned().unwrap_or_else(|| Rc::from(""))
    }

    /// The first original sprite named `name` (`getSpriteTargetByName`).
    pub(crate) fn sprite_by_name(&self, name: &str) -> Option<u32> {
        self.targets.iter().copied().find(|&t| {
            let i = &self.insts[t as usize];
            i.sprite != self.stage && i.original && &*self.names[i.sprite as usize] == name
        })
    }

    /// Costume names of an instance's sprite.
    pub(crate) fn costumes(&self, inst: u32) -> &[String] {
        let s = self.insts.get(inst as usize).map_or(0, |t| t.sprite);
        self.img.targets.get(s as usize).map_or(&[], |t| t.costumes.as_slice())
    }
}

/// Check every index in the image once so the VM can trust them.
fn check_image(img: &Image) -> Result<(), VmError> {
    let nt = img.targets.len();
    if img.stage as usize >= nt {
        return Err(VmError::BadImage("stage index"));
    }
    if img.layer_order.iter().any(|&i| i as usize >= nt) {
        return Err(VmError::BadImage("layer order"));
    }
    let ns = img.stmts.len() as u32;
    let ne = img.exprs.len() as u32;
    let na = img.args.len();
    let ok_range =
        |start: u32, n: u16| (start as usize).checked_add(n as usize).is_some_and(|e| e <= na);
    for s in &img.stmts {
        if !ok_range(s.args, s.nargs) {
            return Err(VmError::BadImage("statement inputs"));
        }
        if s.next.is_some_and(|n| n >= ns) || s.branch.iter().flatten().any(|&b| b >= ns) {
            return Err(VmError::BadImage("statement link"));
        }
        if let crate::scratch::image::Sop::Call { proc: Some(p), .. } = &s.op {
            if *p as usize >= img.procs.len() {
                return Err(VmError::BadImage("procedure index"));
            }
        }
    }
    let mut depth: Vec<u16> = alloc::vec![0; img.exprs.len()];
    for (i, e) in img.exprs.iter().enumerate() {
        match e {
            crate::scratch::image::Expr::Const(k) if *k as usize >= img.consts.len() => {
                return Err(VmError::BadImage("constant index"))
            }
            crate::scratch::image::Expr::Op(_, start, n) => {
                if !ok_range(*start, *n) {
                    return Err(VmError::BadImage("reporter inputs"));
                }
                // Inputs must point backwards so evaluation depth is bounded by the arena.
                let args = &img.args[*start as usize..*start as usize + *n as usize];
                if args.iter().any(|&a| a >= i as u32) {
                    return Err(VmError::BadImage("reporter input order"));
                }
                let d = args.iter().map(|&a| depth[a as usize]).max().unwrap_or(0) + 1;
                if usize::from(d) > crate::scratch::compile::MAX_EXPR_DEPTH + 2 {
                    return Err(VmError::BadImage("reporter nesting"));
                }
                depth[i] = d;
            }
            crate::scratch::image::Expr::Reg(r) if *r >= img.registers => {
                return Err(VmError::BadImage("register"))
            }
            crate::scratch::image::Expr::Hoisted(h, body) => {
                let Some(hoist) = img.hoists.get(*h as usize) else {
                    return Err(VmError::BadImage("hoist index"));
                };
                // Like inputs, hoisted reporters and the body point backwards.
                let mut d = 0;
                for &e in hoist.pre.iter().map(|(e, _)| e).chain(core::iter::once(body)) {
                    if e >= i as u32 {
                        return Err(VmError::BadImage("hoist order"));
                    }
                    d = d.max(depth[e as usize]);
                }
                if usize::from(d) > crate::scratch::compile::MAX_EXPR_DEPTH + 2 {
                    return Err(VmError::BadImage("reporter nesting"));
                }
                depth[i] = d + 1;
            }
            _ => {}
        }
    }
    // Every register is written by some hoist (this also bounds the VM's register file).
    if img.registers as usize > img.hoists.iter().map(|h| h.pre.len()).sum::<usize>() {
        return Err(VmError::BadImage("registers"));
    }
    for h in &img.hoists {
        if h.pre.iter().any(|&(e, r)| e >= ne || r >= img.registers) {
            return Err(VmError::BadImage("hoist"));
        }
    }
    if img.monitors.iter().any(|m| m.target as usize >= nt || m.expr >= ne) {
        return Err(VmError::BadImage("monitor"));
    }
    if img.stmt_hoists.iter().any(|&(s, h)| s >= ns || h as usize >= img.hoists.len()) {
        return Err(VmError::BadImage("statement hoist"));
    }
    if img.args.iter().any(|&a| a >= ne) {
        return Err(VmError::BadImage("input index"));
    }
    for p in &img.procs {
        if p.definition.is_some_and(|d| d >= ns) || p.defaults.len() < p.param_names.len() {
            return Err(VmError::BadImage("procedure"));
        }
    }
    for t in &img.targets {
        if t.scripts.iter().any(|s| s.top >= ns) {
            return Err(VmError::BadImage("script"));
        }
        if t.costume_skins.len() != t.costumes.len()
            || t.costume_skins.iter().flatten().any(|&k| k as usize >= img.skins.len())
        {
            return Err(VmError::BadImage("costume skin"));
        }
    }
    for (k, skin) in img.skins.iter().enumerate() {
        skin.check().map_err(|fault| VmError::BadSkin { skin: k as u32, fault })?;
    }
    Ok(())
}
