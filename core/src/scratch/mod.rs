//! Scratch 3: project model and loader, compiler to a program image, the VM and its observations.
//!
//! Dependencies point one way, from the project model up: [`project`] → [`compile`] →
//! [`image`] → the runtime → [`trace`], [`suite`], [`diff`]; [`value`], [`geom`] and [`pen`] are
//! plain helpers below the runtime. The runtime has three layers, each using only those below
//! it (`core/tests/layers.rs` checks this):
//!
//! 1. [`render`]: scratch-render. Drawables, effects, texel sampling, the pen layer drawn, the
//!    colour queries' arithmetic; it draws a [`render::Scene`] and knows nothing of the VM.
//! 2. [`vm`]: the runtime's state and services. Targets and threads, the scheduler and hats,
//!    reporter evaluation, input, sounds, a target's state changes (`vm::sprite`), the
//!    renderer's per-target state and the touching queries (`vm::drawable`). It calls block
//!    semantics only through the trait it declares, `vm::hooks::Blocks`.
//! 3. [`blocks`]: block semantics, one file per family (`blocks/motion.rs` holds
//!    `motion_*`), which implement that trait and may use everything below.

pub mod agent;
pub mod blocks;
pub mod catalog;
pub mod compile;
pub mod conform;
pub mod diff;
pub mod forge;
pub mod geom;
pub mod image;
pub mod lint;
pub mod oracle;
pub mod pen;
pub mod planted;
pub mod project;
pub mod render;
pub mod scenario;
pub mod signals;
pub mod suite;
pub mod trace;
pub mod value;
pub mod vm;
