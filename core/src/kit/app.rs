//! The kit application: boots from a program image, advances one virtual frame per call to
//! [`App::step`] (the firmware calls it from its 30 fps timer; virtual time is the frame count)
//! and draws the current screen onto any `DrawTarget`. Firmware and host tests run this same
//! code, so a host rendering of frame N is the kit's display at frame N, pixel for pixel.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use core::fmt;

use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;

use super::input::{Buttons, KeyMapper, Keys};
use super::screen;
use super::xlogo::{PlayError, Player, PlayerState, XLogoProgram};
use super::Kit;
use crate::image::{self, ImageError, ProgramKind};

/// What the display shows; firmware logs it when it changes so tests know what to expect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// The error screen (the image was rejected or cannot be played).
    Error,
    /// The diagnostics screen with these keys held.
    Diagnostics {
        /// Held keys ([`Keys`] bits).
        held: u8,
    },
    /// An XLogo run being played.
    XLogo(PlayerState),
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Error => f.write_str("error"),
            Self::Diagnostics { held } => write!(f, "diagnostics keys={held:02x}"),
            Self::XLogo(state) => write!(f, "xlogo {state}"),
        }
    }
}

/// Why the kit shows its error screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BootError {
    /// The image envelope or payload was rejected.
    Image(ImageError),
    /// The image is valid but this build cannot play its kind of program.
    Unsupported(ProgramKind),
    /// The program in the image cannot be played.
    Play(PlayError),
}

impl fmt::Display for BootError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Image(e) => e.fmt(f),
            Self::Unsupported(kind) => write!(f, "{kind} programs cannot be played by this build"),
            Self::Play(e) => e.fmt(f),
        }
    }
}

#[derive(Debug)]
enum Mode {
    Error { title: &'static str, message: String },
    Diagnostics { held: u8 },
    XLogo(Box<Player>),
}

/// The kit application state.
#[derive(Debug)]
pub struct App<'img> {
    kit: &'static Kit,
    image: &'img [u8],
    mapper: KeyMapper,
    frame: u32,
    mode: Mode,
}

impl<'img> App<'img> {
    /// Boots from `image`; a rejected image gives the error screen, never a panic.
    pub fn boot(kit: &'static Kit, image: &'img [u8]) -> Self {
        let mode = Self::load(image);
        Self { kit, image, mapper: KeyMapper::new(kit.buttons), frame: 0, mode }
    }

    fn load(bytes: &[u8]) -> Mode {
        let error = match Self::play(bytes) {
            Ok(mode) => return mode,
            Err(e) => e,
        };
        let title = match error {
            BootError::Image(_) => "image rejected",
            BootError::Unsupported(_) | BootError::Play(_) => "cannot play",
        };
        Mode::Error { title, message: error.to_string() }
    }

    fn play(bytes: &[u8]) -> Result<Mode, BootError> {
        let img = image::decode(bytes).map_err(BootError::Image)?;
        match img.kind {
            ProgramKind::XLogo => {
                let program: XLogoProgram =
                    img.payload_as(ProgramKind::XLogo).map_err(BootError::Image)?;
                let player = Player::new(&program).map_err(BootError::Play)?;
                Ok(Mode::XLogo(Box::new(player)))
            }
            kind => Err(BootError::Unsupported(kind)),
        }
    }

    /// The kit this app runs on.
    pub fn kit(&self) -> &'static Kit {
        self.kit
    }

    /// Frames stepped since boot (virtual time).
    pub fn frame(&self) -> u32 {
        self.frame
    }

    /// The error message shown, if the error screen is up.
    pub fn error_message(&self) -> Option<&str> {
        match &self.mode {
            Mode::Error { message, .. } => Some(message),
            _ => None,
        }
    }

    /// Whether the picture can no longer change without a button press (the error and
    /// diagnostics screens are static; a played run has reached its end).
    pub fn finished(&self) -> bool {
        match &self.mode {
            Mode::Error { .. } | Mode::Diagnostics { .. } => true,
            Mode::XLogo(player) => player.state().done,
        }
    }

    /// What the display shows now.
    pub fn shown(&self) -> Shown {
        match &self.mode {
            Mode::Error { .. } => Shown::Error,
            Mode::Diagnostics { held } => Shown::Diagnostics { held: *held },
            Mode::XLogo(player) => Shown::XLogo(player.state()),
        }
    }

    /// Advances one frame with this frame's button sample; returns whether the picture changed.
    /// Pressing up and down together (gamepad kits) enters the diagnostics screen; pressing them
    /// together again leaves it and reboots the image.
    pub fn step(&mut self, buttons: Buttons) -> bool {
        self.frame = self.frame.wrapping_add(1);
        let keys = self.mapper.map(buttons);
        let chord = Keys::UP | Keys::DOWN;
        let chord_now = keys.held & chord == chord && keys.pressed & chord != 0;
        let before = self.shown();
        match &mut self.mode {
            Mode::Diagnostics { .. } if chord_now => self.mode = Self::load(self.image),
            Mode::Diagnostics { held } => *held = keys.held,
            _ if chord_now => self.mode = Mode::Diagnostics { held: keys.held },
            Mode::Error { .. } => {}
            Mode::XLogo(player) => player.step_frame(keys),
        }
        self.frame == 1 || self.shown() != before
    }

    /// Draws the current screen onto `target` (any colour a [`Rgb888`] converts into).
    pub fn draw<D>(&self, target: &mut D) -> Result<(), D::Error>
    where
        D: DrawTarget,
        D::Color: From<Rgb888>,
    {
        let mut target = target.color_converted::<Rgb888>();
        match &self.mode {
            Mode::Error { title, message } => screen::draw_error(&mut target, title, message),
            Mode::Diagnostics { held } => {
                screen::draw_diagnostics(&mut target, Keys { held: *held, ..Keys::default() })
            }
            Mode::XLogo(player) => player.draw(&mut target),
        }
    }
}
