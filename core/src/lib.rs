//! gobo: a deterministic, allocation-light engine that runs and judges programs written in
//! visual programming environments: Scratch 3 projects ([`scratch`]), XLogo-Mini turtle-grid
//! tasks ([`xlogo`]) and DrawingBench mouse-driven drawing canvases ([`drawing`]).
//!
//! The crate is `#![no_std]` with `alloc` and has no `std` feature: it never reads a clock, a
//! file or a socket. Hosts (the `gobo` CLI, the HTTP server, classroom-kit firmware) own time,
//! input and output and drive the core through plain values.
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

mod clamp;
pub mod drawing;
pub mod image;
pub mod kit;
pub mod md5;
pub mod nesting;
pub mod scratch;
pub mod xlogo;
