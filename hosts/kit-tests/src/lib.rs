//! Harness for the classroom-kit tests: builds the emulated-kit firmware around a program image,
//! boots it in QEMU (`lm3s6965evb`, under `timeout`), reads its semihosting log, and drives it
//! over QMP (gamepad keys, `screendump` of the OLED). Tests skip cleanly where QEMU or the
//! `thumbv7m-none-eabi` target is missing.

pub mod firmware;
pub mod qemu;
pub mod screen;
