//! The app loop shared by every board: boot `gobo::kit::App` from the embedded image, then per
//! frame tick sample the buttons, step the app, and redraw and log when the picture changed.

use core::fmt;

use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use gobo::kit::{App, Buttons, Kit, Program};

use crate::clock;
use crate::heap::PeakHeap;

/// Frames stepped at most per loop iteration when drawing fell behind the clock.
const MAX_CATCH_UP: u32 = 8;

/// What a board provides to the app loop.
pub trait Board {
    /// The display's draw target (a framebuffer or the panel itself).
    type Display: DrawTarget;

    /// The buttons pressed now.
    fn buttons(&mut self) -> Buttons;

    /// The target the app draws the next picture onto.
    fn display(&mut self) -> &mut Self::Display;

    /// Shows what was drawn (sends a framebuffer to the panel; nothing for direct drawing).
    fn flush(&mut self);

    /// Writes one log line (semihosting under QEMU; nothing on boards without a host link).
    fn log(&mut self, line: fmt::Arguments<'_>);
}

/// Runs the kit forever: boots from `image` with the player `P`, then steps one frame per clock
/// tick.
pub fn run<P, B>(board: &mut B, kit: &'static Kit, image: &[u8], heap: &PeakHeap) -> !
where
    P: Program,
    B: Board,
    <B::Display as DrawTarget>::Color: From<Rgb888>,
{
    board.log(format_args!("gobo-kit: boot kit={} image={} bytes", kit.id, image.len()));
    let mut app = App::<P>::boot_as(kit, image);
    if let Some(message) = app.error_message() {
        board.log(format_args!("gobo-kit: rejected: {message}"));
    }
    let mut seen = clock::ticks();
    let mut last_buttons = Buttons::NONE;
    loop {
        let now = clock::wait_for_tick(seen);
        let due = now.wrapping_sub(seen).min(MAX_CATCH_UP);
        seen = now;
        let mut changed = false;
        for _ in 0..due {
            let buttons = board.buttons();
            changed |= app.step(buttons);
            if buttons != last_buttons {
                // Logged so a host can replay the same samples on the same frames.
                board.log(format_args!(
                    "gobo-kit: frame={} buttons={:02x}",
                    app.frame(),
                    buttons.0
                ));
                last_buttons = buttons;
            }
        }
        if changed {
            if app.draw(board.display()).is_err() {
                board.log(format_args!("gobo-kit: display error"));
            }
            board.flush();
            board.log(format_args!(
                "gobo-kit: frame={} shown={} heap_peak={} heap_size={}",
                app.frame(),
                app.shown(),
                heap.peak(),
                heap.size()
            ));
        }
    }
}
