//! Scratch 3: project model and loader, compiler to a program image, the VM and its observations.

pub mod agent;
pub mod blocks;
pub mod compile;
pub mod conform;
pub mod diff;
pub mod geom;
pub mod image;
pub mod pen;
pub mod project;
pub mod render;
pub mod scenario;
pub mod suite;
pub mod trace;
pub mod value;
pub mod vm;
