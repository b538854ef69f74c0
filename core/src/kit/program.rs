//! The programs a kit plays: the [`Program`] trait every player implements (load from a checked
//! image, step a frame with the kit's keys, draw), and [`AnyProgram`], which plays every kind.
//!
//! A firmware build embeds one image, so it links only the player of that image's kind
//! (`App<'_, scratch::Player>`, say): a Cortex-M3's 256 KiB of flash holds the Scratch VM or
//! the XLogo emulator with its JSON loader, not both. Hosts use [`AnyProgram`].

use alloc::boxed::Box;
use core::fmt;

use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;

use super::drawing::{self, DrawingProgram};
use super::input::Keys;
use super::playback::PlayerState;
use super::xlogo::{self, PlayError, XLogoProgram};
use super::{scratch, Kit};
use crate::image::{Image, ImageError, ProgramKind};
use crate::scratch::vm::VmError;

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
    /// A Scratch project running.
    Scratch {
        /// Threads running (0 once the project only waits for keys).
        threads: u32,
    },
    /// A drawing being played.
    Drawing(PlayerState),
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Error => f.write_str("error"),
            Self::Diagnostics { held } => write!(f, "diagnostics keys={held:02x}"),
            Self::XLogo(state) => write!(f, "xlogo {state}"),
            Self::Scratch { threads } => write!(f, "scratch threads={threads}"),
            Self::Drawing(state) => write!(f, "drawing {state}"),
        }
    }
}

/// Why the kit shows its error screen.
#[derive(Debug, Clone, PartialEq)]
pub enum BootError {
    /// The image envelope or payload was rejected.
    Image(ImageError),
    /// The image is valid but this build cannot play its kind of program.
    Unsupported(ProgramKind),
    /// The XLogo program in the image cannot be played.
    Play(PlayError),
    /// The Scratch project in the image cannot be run.
    Scratch(VmError),
    /// The drawing in the image cannot be played.
    Drawing(drawing::PlayError),
}

impl BootError {
    /// The error screen's title: `image rejected` for a bad image, else `cannot play`.
    pub fn title(&self) -> &'static str {
        match self {
            Self::Image(_) => "image rejected",
            Self::Unsupported(_) | Self::Play(_) | Self::Scratch(_) | Self::Drawing(_) => {
                "cannot play"
            }
        }
    }
}

impl fmt::Display for BootError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Image(e) => e.fmt(f),
            Self::Unsupported(kind) => write!(f, "{kind} programs cannot be played by this build"),
            Self::Play(e) => e.fmt(f),
            Self::Scratch(e) => e.fmt(f),
            Self::Drawing(e) => e.fmt(f),
        }
    }
}

/// A program a kit plays.
pub trait Program: Sized {
    /// Loads the program from a checked image (`Unsupported` for a kind this player does not
    /// play).
    fn load(kit: &'static Kit, image: &Image<'_>) -> Result<Self, BootError>;
    /// Advances one frame with this frame's keys; returns whether the picture changed.
    fn step_frame(&mut self, keys: Keys) -> bool;
    /// What the display shows.
    fn shown(&self) -> Shown;
    /// Whether the picture can no longer change without a key.
    fn finished(&self) -> bool;
    /// Draws the program's screen.
    fn draw<D>(&self, target: &mut D) -> Result<(), D::Error>
    where
        D: DrawTarget<Color = Rgb888>;
}

impl Program for xlogo::Player {
    fn load(_kit: &'static Kit, image: &Image<'_>) -> Result<Self, BootError> {
        if image.kind != ProgramKind::XLogo {
            return Err(BootError::Unsupported(image.kind));
        }
        let program: XLogoProgram =
            image.payload_as(ProgramKind::XLogo).map_err(BootError::Image)?;
        xlogo::Player::new(&program).map_err(BootError::Play)
    }

    fn step_frame(&mut self, keys: Keys) -> bool {
        let before = self.state();
        xlogo::Player::step_frame(self, keys);
        self.state() != before
    }

    fn shown(&self) -> Shown {
        Shown::XLogo(self.state())
    }

    fn finished(&self) -> bool {
        self.state().done
    }

    fn draw<D>(&self, target: &mut D) -> Result<(), D::Error>
    where
        D: DrawTarget<Color = Rgb888>,
    {
        xlogo::Player::draw(self, target)
    }
}

impl Program for scratch::Player {
    fn load(kit: &'static Kit, image: &Image<'_>) -> Result<Self, BootError> {
        if image.kind != ProgramKind::Scratch {
            return Err(BootError::Unsupported(image.kind));
        }
        let program = image.payload_as(ProgramKind::Scratch).map_err(BootError::Image)?;
        scratch::Player::new(program, kit).map_err(BootError::Scratch)
    }

    fn step_frame(&mut self, keys: Keys) -> bool {
        scratch::Player::step_frame(self, keys);
        self.changed()
    }

    fn shown(&self) -> Shown {
        Shown::Scratch { threads: u32::try_from(self.vm().thread_count()).unwrap_or(u32::MAX) }
    }

    fn finished(&self) -> bool {
        false
    }

    fn draw<D>(&self, target: &mut D) -> Result<(), D::Error>
    where
        D: DrawTarget<Color = Rgb888>,
    {
        scratch::Player::draw(self, target)
    }
}

impl Program for drawing::Player {
    fn load(kit: &'static Kit, image: &Image<'_>) -> Result<Self, BootError> {
        if image.kind != ProgramKind::Drawing {
            return Err(BootError::Unsupported(image.kind));
        }
        let program: DrawingProgram<'_> =
            image.payload_as(ProgramKind::Drawing).map_err(BootError::Image)?;
        drawing::Player::new(&program, kit.display).map_err(BootError::Drawing)
    }

    fn step_frame(&mut self, keys: Keys) -> bool {
        drawing::Player::step_frame(self, keys)
    }

    fn shown(&self) -> Shown {
        Shown::Drawing(self.state())
    }

    fn finished(&self) -> bool {
        self.state().done
    }

    fn draw<D>(&self, target: &mut D) -> Result<(), D::Error>
    where
        D: DrawTarget<Color = Rgb888>,
    {
        drawing::Player::draw(self, target)
    }
}

/// Every kind of program (what hosts play; a firmware build links only its image's kind).
#[derive(Debug)]
pub enum AnyProgram {
    /// An XLogo run.
    XLogo(Box<xlogo::Player>),
    /// A Scratch project.
    Scratch(Box<scratch::Player>),
    /// A drawing.
    Drawing(Box<drawing::Player>),
}

impl Program for AnyProgram {
    fn load(kit: &'static Kit, image: &Image<'_>) -> Result<Self, BootError> {
        match image.kind {
            ProgramKind::XLogo => Ok(Self::XLogo(Box::new(Program::load(kit, image)?))),
            ProgramKind::Scratch => Ok(Self::Scratch(Box::new(Program::load(kit, image)?))),
            ProgramKind::Drawing => Ok(Self::Drawing(Box::new(Program::load(kit, image)?))),
        }
    }

    fn step_frame(&mut self, keys: Keys) -> bool {
        match self {
            Self::XLogo(p) => Program::step_frame(&mut **p, keys),
            Self::Scratch(p) => Program::step_frame(&mut **p, keys),
            Self::Drawing(p) => Program::step_frame(&mut **p, keys),
        }
    }

    fn shown(&self) -> Shown {
        match self {
            Self::XLogo(p) => Program::shown(&**p),
            Self::Scratch(p) => Program::shown(&**p),
            Self::Drawing(p) => Program::shown(&**p),
        }
    }

    fn finished(&self) -> bool {
        match self {
            Self::XLogo(p) => Program::finished(&**p),
            Self::Scratch(p) => Program::finished(&**p),
            Self::Drawing(p) => Program::finished(&**p),
        }
    }

    fn draw<D>(&self, target: &mut D) -> Result<(), D::Error>
    where
        D: DrawTarget<Color = Rgb888>,
    {
        match self {
            Self::XLogo(p) => Program::draw(&**p, target),
            Self::Scratch(p) => Program::draw(&**p, target),
            Self::Drawing(p) => Program::draw(&**p, target),
        }
    }
}
