//! The kit application: boots from a program image, advances one virtual frame per call to
//! [`App::step`] (the firmware calls it from its 30 fps timer; virtual time is the frame count)
//! and draws the current screen onto any `DrawTarget`. Firmware and host tests run this same
//! code, so a host rendering of frame N is the kit's display at frame N, pixel for pixel.
//!
//! `App<'_, P>` plays the programs `P` can load ([`Program`]): [`AnyProgram`] by default, one
//! player in a firmware build.

use alloc::string::{String, ToString};

use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;

use super::input::{Buttons, KeyMapper, Keys};
use super::program::{AnyProgram, BootError, Program, Shown};
use super::screen;
use super::Kit;
use crate::image;

#[derive(Debug)]
enum Mode<P> {
    Error { title: &'static str, message: String },
    Diagnostics { held: u8 },
    Playing(P),
}

/// The kit application state.
#[derive(Debug)]
pub struct App<'img, P = AnyProgram> {
    kit: &'static Kit,
    image: &'img [u8],
    mapper: KeyMapper,
    frame: u32,
    mode: Mode<P>,
}

impl<'img> App<'img> {
    /// Boots from `image` able to play every kind of program; a rejected image gives the error
    /// screen, never a panic.
    pub fn boot(kit: &'static Kit, image: &'img [u8]) -> Self {
        Self::boot_as(kit, image)
    }
}

impl<'img, P: Program> App<'img, P> {
    /// Boots from `image` able to play what `P` plays (an image of another kind shows
    /// `cannot play`); a rejected image gives the error screen, never a panic.
    pub fn boot_as(kit: &'static Kit, image: &'img [u8]) -> Self {
        let mode = Self::load(kit, image);
        Self { kit, image, mapper: KeyMapper::new(kit.buttons), frame: 0, mode }
    }

    fn load(kit: &'static Kit, bytes: &[u8]) -> Mode<P> {
        let loaded =
            image::decode(bytes).map_err(BootError::Image).and_then(|img| P::load(kit, &img));
        match loaded {
            Ok(program) => Mode::Playing(program),
            Err(e) => Mode::Error { title: e.title(), message: e.to_string() },
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

    /// The program being played, if one is.
    pub fn program(&self) -> Option<&P> {
        match &self.mode {
            Mode::Playing(p) => Some(p),
            _ => None,
        }
    }

    /// Whether the picture can no longer change without a button press (the error and
    /// diagnostics screens are static; a played run has reached its end).
    pub fn finished(&self) -> bool {
        match &self.mode {
            Mode::Error { .. } | Mode::Diagnostics { .. } => true,
            Mode::Playing(p) => p.finished(),
        }
    }

    /// What the display shows now.
    pub fn shown(&self) -> Shown {
        match &self.mode {
            Mode::Error { .. } => Shown::Error,
            Mode::Diagnostics { held } => Shown::Diagnostics { held: *held },
            Mode::Playing(p) => p.shown(),
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
        let changed = match &mut self.mode {
            Mode::Diagnostics { .. } if chord_now => {
                self.mode = Self::load(self.kit, self.image);
                true
            }
            Mode::Diagnostics { held } => core::mem::replace(held, keys.held) != keys.held,
            _ if chord_now => {
                self.mode = Mode::Diagnostics { held: keys.held };
                true
            }
            Mode::Error { .. } => false,
            Mode::Playing(p) => p.step_frame(keys),
        };
        self.frame == 1 || changed
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
            Mode::Playing(p) => p.draw(&mut target),
        }
    }
}
