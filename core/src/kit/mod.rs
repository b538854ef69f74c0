//! Classroom kits: what each supported board offers (display, buttons, flash and RAM budgets)
//! and the display-agnostic kit application that firmware and host tests share: boot from a
//! program image, step one virtual frame per timer tick, draw the frame onto any
//! embedded-graphics `DrawTarget`.
//!
//! What lives here: the kit descriptions ([`Kit`], [`KITS`]), button-to-key mapping
//! ([`input`]), the screens the kit draws itself (error and diagnostics, [`screen`]) and the
//! application state machine ([`app`]). What does not: hardware drivers (in `firmware/`) and the
//! program semantics (in the subsystem modules).

pub mod app;
pub mod drawing;
pub mod input;
pub mod pack;
pub mod playback;
pub mod program;
pub mod scratch;
pub mod screen;
pub mod xlogo;

use crate::image::ProgramKind;

pub use app::App;
pub use input::{Buttons, KeyMapper, Keys};
pub use program::{AnyProgram, BootError, Program, Shown};

/// Colour depth of a kit's display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorDepth {
    /// 4-bit greyscale (16 levels), two pixels per byte.
    Gray4,
    /// 16-bit RGB 5-6-5.
    Rgb565,
}

impl ColorDepth {
    /// Bits stored per pixel in a framebuffer of this depth.
    pub fn bits_per_pixel(self) -> u32 {
        match self {
            Self::Gray4 => 4,
            Self::Rgb565 => 16,
        }
    }
}

/// A kit's display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DisplaySpec {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Colour depth.
    pub depth: ColorDepth,
}

/// A classroom kit: a board, its display and buttons, and what a program image may use of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kit {
    /// Identifier used on the command line (`gobo pack --kit ID`).
    pub id: &'static str,
    /// Human-readable board name.
    pub name: &'static str,
    /// The attached display.
    pub display: DisplaySpec,
    /// Flash the board has for firmware plus image, in bytes.
    pub flash_bytes: u32,
    /// Flash each firmware build takes (code, fonts, tables), rounded up from the release sizes
    /// measured in `docs/firmware.md`; the rest of [`Kit::flash_bytes`] is that build's image
    /// budget.
    pub firmware_flash: FirmwareFlash,
    /// RAM the board has, in bytes.
    pub ram_bytes: u32,
    /// Size of the fixed heap the firmware gives the program, in bytes.
    pub heap_bytes: u32,
    /// The buttons the kit has, as they are named on the board.
    pub buttons: Buttons,
}

/// Flash taken by a kit's firmware builds: a build embeds one image and links only the player
/// for its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FirmwareFlash {
    /// The build with the XLogo player.
    pub xlogo: u32,
    /// The build with the Scratch VM and stage renderer.
    pub scratch: u32,
    /// The build with the drawing player (action parser, replay, rasterizer).
    pub drawing: u32,
}

impl Kit {
    /// Bytes of flash left for a program image of `kind` (the firmware that plays it takes
    /// the rest).
    pub fn image_budget(&self, kind: ProgramKind) -> u32 {
        let firmware = match kind {
            ProgramKind::Scratch => self.firmware_flash.scratch,
            ProgramKind::XLogo => self.firmware_flash.xlogo,
            ProgramKind::Drawing => self.firmware_flash.drawing,
        };
        self.flash_bytes.saturating_sub(firmware)
    }
}

/// The emulated kit: TI Stellaris LM3S6965 evaluation board as QEMU's `lm3s6965evb` machine,
/// with its SSD0323 128x64 greyscale OLED on SSI0 and its five-button gamepad.
pub const LM3S6965: Kit = Kit {
    id: "lm3s6965",
    name: "Stellaris LM3S6965 EVB (QEMU lm3s6965evb)",
    display: DisplaySpec { width: 128, height: 64, depth: ColorDepth::Gray4 },
    flash_bytes: 256 * 1024,
    firmware_flash: FirmwareFlash { xlogo: 128 * 1024, scratch: 228 * 1024, drawing: 96 * 1024 },
    ram_bytes: 64 * 1024,
    heap_bytes: 44 * 1024,
    buttons: Buttons::GAMEPAD,
};

/// The real kit: Adafruit CLUE (nRF52840) with its 240x240 ST7789 colour display and buttons
/// A and B. Flash counts from the application start after the UF2 bootloader's SoftDevice area
/// (0x26000) to the bootloader (0xED000).
pub const CLUE: Kit = Kit {
    id: "clue",
    name: "Adafruit CLUE (nRF52840)",
    display: DisplaySpec { width: 240, height: 240, depth: ColorDepth::Rgb565 },
    flash_bytes: 0xED000 - 0x26000,
    firmware_flash: FirmwareFlash { xlogo: 128 * 1024, scratch: 228 * 1024, drawing: 96 * 1024 },
    ram_bytes: 256 * 1024,
    heap_bytes: 160 * 1024,
    buttons: Buttons::AB,
};

/// Every supported kit, in documentation order.
pub const KITS: [Kit; 2] = [LM3S6965, CLUE];

/// The kit with identifier `id`.
pub fn kit_by_id(id: &str) -> Option<&'static Kit> {
    KITS.iter().find(|k| k.id == id)
}
