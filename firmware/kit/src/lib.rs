//! gobo-kit: the board-independent part of gobo's classroom-kit firmware. A board crate brings
//! its display, buttons and log ([`run::Board`]); this crate brings the heap with a high-water
//! mark ([`heap`]), the 30 fps frame clock ([`clock`]) and the app loop ([`run`]) that steps
//! `gobo::kit::App` once per frame and draws it onto the board's `DrawTarget`.
#![no_std]

pub mod clock;
pub mod heap;
pub mod run;

pub use run::{run, Board};
