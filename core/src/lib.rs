//! gobo: a deterministic, allocation-light engine that runs and judges programs written in
//! visual programming environments: Scratch 3 projects ([`scratch`]), XLogo-Mini turtle-grid
//! tasks ([`xlogo`]) and DrawingBench mouse-driven drawing canvases ([`drawing`]).
//!
//! The crate is `#![no_std]` with `alloc` and has no `std` feature: it never reads a clock, a
//! file or a socket. Hosts (the `gobo` CLI, the HTTP server, classroom-kit firmware) own time,
//! input and output and drive the core through plain values.
//!
//! Load a Scratch project, run it and read sprite state (a host reads the bytes of a
//! `project.json`; `gobo-host` reads `.sb3` archives and decodes costumes):
//!
//! ```
//! use gobo::scratch::{compile::compile, project::load, vm::{Config, Input, Vm}};
//!
//! // One sprite, "Cat": when the green flag is clicked, change x by 10.
//! let json = br#"{"targets": [
//!   {"isStage": true, "name": "Stage", "variables": {}, "lists": {}, "broadcasts": {},
//!    "blocks": {}, "costumes": [], "sounds": []},
//!   {"isStage": false, "name": "Cat", "variables": {}, "lists": {}, "broadcasts": {},
//!    "costumes": [], "sounds": [], "x": 0, "y": 0, "visible": true, "blocks": {
//!     "flag": {"opcode": "event_whenflagclicked", "next": "move", "parent": null,
//!              "inputs": {}, "fields": {}, "shadow": false, "topLevel": true, "x": 0, "y": 0},
//!     "move": {"opcode": "motion_changexby", "next": null, "parent": "flag",
//!              "inputs": {"DX": [1, [4, "10"]]}, "fields": {}, "shadow": false,
//!              "topLevel": false}}}],
//!  "monitors": [], "extensions": [], "meta": {"semver": "3.0.0"}}"#;
//! let project = load(json)?;
//! let mut vm = Vm::new(compile(&project)?, Config::default())?;
//! vm.step_frame(&[Input::GreenFlag]); // one frame of the virtual clock
//! let cat = &vm.observe().sprites[0];
//! assert_eq!((&*cat.name, cat.x, cat.y), ("Cat", 10.0, 0.0));
//! assert!(vm.stopped().is_none()); // no budget ran out
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! [`xlogo::evaluate_bytes`] judges XLogo-Mini code against a task and [`drawing::judge`]
//! scores a DrawingBench action list; `core/examples/` has a runnable program for each.
#![no_std]
#![forbid(unsafe_code)]

extern crate alloc;

pub mod bench;
mod clamp;
pub mod drawing;
pub mod image;
pub mod json_patch;
pub mod kit;
pub mod md5;
pub mod nesting;
pub mod scratch;
pub mod xlogo;
