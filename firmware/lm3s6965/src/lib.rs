//! Drivers of the emulated kit (QEMU `lm3s6965evb`): registers, the SSD0323 OLED on SSI0 and
//! the gamepad. The firmware binary (`main.rs`) and the on-chip tests use them.
#![no_std]

pub mod gamepad;
pub mod oled;
pub mod regs;
