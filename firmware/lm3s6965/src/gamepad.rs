//! The five-button gamepad: up, down, left, right on port E pins 0-3 and select on port F
//! pin 1, pulled up and reading low while pressed.
//!
//! QEMU's GPIO model clears input levels at reset, so a line reads low (pressed) until its
//! button first changes; a button therefore counts as pressed only after its line has been seen
//! high once. On the real board the pull-ups make every line high at boot.

use gobo::kit::Buttons;

use crate::regs::{self, *};

const PAD_E: u8 = 0x0F;
const PAD_F: u8 = 1 << 1;

/// The gamepad and the lines seen released since boot.
#[derive(Debug)]
pub struct Gamepad {
    armed: u8,
}

impl Gamepad {
    /// Configures the gamepad pins as pulled-up digital inputs.
    pub fn init() -> Self {
        regs::set_bits(SYSCTL_RCGC2, (1 << 4) | (1 << 5));
        for (port, pins) in [(GPIO_E, PAD_E), (GPIO_F, PAD_F)] {
            let pins = u32::from(pins);
            regs::write(port + GPIO_DIR, regs::read(port + GPIO_DIR) & !pins);
            regs::set_bits(port + GPIO_PUR, pins);
            regs::set_bits(port + GPIO_DEN, pins);
        }
        Self { armed: 0 }
    }

    /// The raw line levels: bits 0-3 up, down, left, right; bit 4 select (1 = high, released).
    pub fn levels(&self) -> u8 {
        let e = regs::read(regs::gpio_data(GPIO_E, PAD_E)) as u8 & PAD_E;
        let f = regs::read(regs::gpio_data(GPIO_F, PAD_F)) as u8 & PAD_F;
        e | (f << 3)
    }

    /// Whether every line has been seen released since boot.
    pub fn armed(&self) -> bool {
        self.armed == 0x1F
    }

    /// The buttons pressed now.
    pub fn buttons(&mut self) -> Buttons {
        let high = self.levels();
        self.armed |= high;
        // Buttons bits 0-4 are up, down, left, right, select: the same order as the levels.
        Buttons(!high & self.armed & 0x1F)
    }
}
