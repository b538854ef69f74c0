//! Scratch on a kit: the player that runs a compiled project ([`crate::scratch::image::Image`],
//! program-image kind 1) on the kit's buttons and draws its stage on the display, and the kit's
//! limits for the VM.
//!
//! The player clicks the green flag on the first frame (a flashed kit starts its project the
//! way the player's autostart does), turns the kit's keys into key presses and releases
//! (`up arrow`, `down arrow`, `left arrow`, `right arrow`, `space`) and the green-flag gesture
//! into green-flag clicks, and steps the VM one virtual frame per kit frame. The stage keeps
//! its 4:3 shape: it is the largest 4:3 rectangle the display holds, centred, with black bars.

use alloc::string::String;
use alloc::vec::Vec;

use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::primitives::Rectangle;

use super::input::Keys;
use super::{DisplaySpec, Kit};
use crate::scratch::image::{Image, SkinBitmap};
use crate::scratch::render;
use crate::scratch::vm::drag::DragStyle;
use crate::scratch::vm::sound::AudioMode;
use crate::scratch::vm::{Config, Input, Vm, VmError};

/// The kit keys and the Scratch key each one presses, in [`Keys`] bit order.
const KEY_NAMES: [(u8, &str); 5] = [
    (Keys::UP, "up arrow"),
    (Keys::DOWN, "down arrow"),
    (Keys::LEFT, "left arrow"),
    (Keys::RIGHT, "right arrow"),
    (Keys::SPACE, "space"),
];

/// The stage's place on a display: the largest 4:3 rectangle that fits, centred.
pub fn stage_area(display: DisplaySpec) -> Rectangle {
    let (w, h) = (display.width, display.height);
    let size = if w * 3 >= h * 4 { Size::new(h * 4 / 3, h) } else { Size::new(w, w * 3 / 4) };
    let left = (w - size.width) / 2;
    let top = (h - size.height) / 2;
    Rectangle::new(Point::new(left as i32, top as i32), size)
}

/// Slots of the VM's sine/cosine memo on a kit (24 bytes each: 1.5 KiB).
pub const TRIG_MEMO_SLOTS: u32 = 64;

/// The pen layer's size on `kit`: the stage's size on the display, halved until its pixels
/// (4 bytes each) take at most half the kit's heap. The renderer scales it to the stage.
pub fn pen_size(kit: &Kit) -> (u32, u32) {
    let area = stage_area(kit.display).size;
    let (mut w, mut h) = (area.width.max(1), area.height.max(1));
    while u64::from(w) * u64::from(h) * 4 > u64::from(kit.heap_bytes / 2) && w > 1 && h > 1 {
        (w, h) = (w / 2, h / 2);
    }
    (w, h)
}

/// The VM's budgets on `kit`: the reference's frame rate and work budgets per frame, a
/// browser player's sound timing, no mouse dragging (kits have no mouse), clone, list and
/// string limits scaled to the kit's heap so that a runaway project stops at a limit instead of
/// exhausting memory (clones: one per 2 KiB of heap, at most scratch-vm's 300; list items: one
/// per 16 bytes; strings: a sixteenth of the heap; list bytes: a quarter; call depth and
/// threads: one per 256 bytes; the memory ceiling: half the heap), and a sine/cosine memo of
/// [`TRIG_MEMO_SLOTS`] slots instead of the desktop's 96 KiB.
pub fn config(kit: &Kit) -> Config {
    let heap = kit.heap_bytes as usize;
    Config {
        max_clones: (heap / 2048).min(300) as u32,
        max_list_len: heap / 16,
        max_string_len: heap / 16,
        max_list_bytes: heap / 4,
        max_call_depth: heap / 256,
        max_threads: heap / 256,
        max_memory: heap / 2,
        audio: AudioMode::Timed,
        drag: DragStyle::None,
        trig_memo: TRIG_MEMO_SLOTS,
        ..Config::default()
    }
}

/// A Scratch project running on a kit.
#[derive(Debug)]
pub struct Player {
    vm: Vm,
    area: Rectangle,
    held: u8,
    /// Bubble usage marks after the last frame, to notice a changed bubble.
    bubbles: u64,
    changed: bool,
}

/// Why a Scratch image cannot be played.
pub type PlayError = VmError;

impl Player {
    /// Prepares `image` for `kit`: the VM with the kit's budgets and its pen layer at
    /// [`pen_size`].
    pub fn new(image: Image, kit: &Kit) -> Result<Self, PlayError> {
        let area = stage_area(kit.display);
        let mut vm = Vm::new(image, config(kit))?;
        let (w, h) = pen_size(kit);
        vm.set_pen_layer_size(w, h);
        Ok(Self { vm, area, held: 0, bubbles: 0, changed: true })
    }

    /// The running VM (positions, variables, threads).
    pub fn vm(&self) -> &Vm {
        &self.vm
    }

    /// Frames the VM has run.
    pub fn frame(&self) -> u64 {
        self.vm.frame()
    }

    /// Whether the last frame changed the picture (something visible moved or changed, the
    /// pen drew, a bubble changed; the first frame always does).
    pub fn changed(&self) -> bool {
        self.changed
    }

    /// Runs one frame with this frame's keys: the green flag on the first frame and whenever
    /// the kit's green-flag gesture happens, key presses and releases as the keys change.
    pub fn step_frame(&mut self, keys: Keys) {
        let mut inputs: Vec<Input> = Vec::new();
        if self.vm.frame() == 0 || keys.green_flag {
            inputs.push(Input::GreenFlag);
        }
        let changed_keys = keys.held ^ self.held;
        for (bit, name) in KEY_NAMES {
            if changed_keys & bit != 0 {
                let name = String::from(name);
                inputs.push(if keys.held & bit != 0 {
                    Input::KeyDown(name)
                } else {
                    Input::KeyUp(name)
                });
            }
        }
        self.held = keys.held;
        let first = self.vm.frame() == 0;
        self.vm.step_frame(&inputs);
        let bubbles = self.bubble_marks();
        self.changed = first || self.vm.redraw || bubbles != self.bubbles;
        self.bubbles = bubbles;
    }

    /// A mark of every shown bubble (instance and usage), which changes whenever one does.
    fn bubble_marks(&self) -> u64 {
        let mut mark = 0u64;
        for (k, i) in self.vm.insts.iter().enumerate() {
            if let Some(b) = i.bubble.as_ref().filter(|_| i.alive && i.visible) {
                let v = (k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b.usage;
                mark = mark.wrapping_add(v.wrapping_mul(u64::from(b.think) + 1));
            }
        }
        mark
    }

    /// Draws the stage in its area of the display, black around it.
    pub fn draw<D>(&self, target: &mut D) -> Result<(), D::Error>
    where
        D: DrawTarget<Color = Rgb888>,
    {
        let full = target.bounding_box();
        if full.size != self.area.size {
            target.clear(Rgb888::BLACK)?;
        }
        render::render(&self.vm, &mut target.cropped(&self.area))
    }
}

/// Pixels per stage unit the stage has on `kit`'s display.
pub fn display_scale(kit: &Kit) -> f64 {
    f64::from(stage_area(kit.display).size.width) / 480.0
}

/// Converts every skin of `image` for `kit`'s display: one bitmap level at the display's scale
/// divided by `divisor` (1 keeps a pixel per display pixel at size 100 %), box-filtered from the
/// smallest level at least that fine, and a single pixel for a skin of one colour. Colours are
/// rounded to what an RGB565 display shows (the top 5, 6 and 5 bits, which keeps every answer of
/// `touching color`, since it compares the top 5, 5 and 4 bits); greyscale kits keep full
/// colour, which `touching color` needs, and convert when drawing. Sizes and rotation centres
/// in stage units stay, so positions, fencing and bounds keep their units.
pub fn fit_skins(image: &mut Image, kit: &Kit, divisor: u32) {
    let scale = display_scale(kit) / f64::from(divisor.max(1));
    let rgb565 = kit.display.depth == super::ColorDepth::Rgb565;
    for skin in &mut image.skins {
        let Some(source) = skin.levels.iter().find(|l| l.scale >= scale).or(skin.levels.last())
        else {
            continue;
        };
        let mut level = if let Some(px) = uniform(source) {
            SkinBitmap { scale, width: 1, height: 1, rgba: Vec::from(px) }
        } else {
            let w = (libm::ceil(skin.size[0] * scale) as u32).clamp(1, source.width);
            let h = (libm::ceil(skin.size[1] * scale) as u32).clamp(1, source.height);
            SkinBitmap { scale, width: w, height: h, rgba: box_filter(source, w, h) }
        };
        if rgb565 {
            for px in level.rgba.chunks_exact_mut(4) {
                px[0] &= 0xf8;
                px[1] &= 0xfc;
                px[2] &= 0xf8;
            }
        }
        skin.vector = false;
        skin.levels = alloc::vec![level];
    }
}

/// The one colour of a level whose pixels are all the same.
fn uniform(level: &SkinBitmap) -> Option<[u8; 4]> {
    let first: [u8; 4] = level.rgba.get(..4)?.try_into().ok()?;
    level.rgba.chunks_exact(4).all(|p| p == first).then_some(first)
}

/// `source` shrunk to `w × h` by averaging the source pixels each output pixel covers, weighted
/// by alpha (premultiplied), back to straight alpha.
fn box_filter(source: &SkinBitmap, w: u32, h: u32) -> Vec<u8> {
    let (sw, sh) = (source.width as usize, source.height as usize);
    let mut out = Vec::with_capacity(w as usize * h as usize * 4);
    for row in 0..h as usize {
        let (y0, y1) = (row * sh / h as usize, ((row + 1) * sh).div_ceil(h as usize).min(sh));
        for col in 0..w as usize {
            let (x0, x1) = (col * sw / w as usize, ((col + 1) * sw).div_ceil(w as usize).min(sw));
            let mut sum = [0u64; 4];
            let mut n = 0u64;
            for y in y0..y1 {
                for x in x0..x1 {
                    let i = (y * sw + x) * 4;
                    if let Some(p) = source.rgba.get(i..i + 4) {
                        let a = u64::from(p[3]);
                        for c in 0..3 {
                            sum[c] += u64::from(p[c]) * a;
                        }
                        sum[3] += a;
                        n += 1;
                    }
                }
            }
            let a = sum[3];
            let px = if a == 0 || n == 0 {
                [0; 4]
            } else {
                let c = |v: u64| ((v + a / 2) / a) as u8;
                [c(sum[0]), c(sum[1]), c(sum[2]), ((a + n / 2) / n) as u8]
            };
            out.extend_from_slice(&px);
        }
    }
    out
}
