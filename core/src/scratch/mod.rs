//! Scratch 3: project model and loader, compiler to a program image, the VM and its observations.

pub mod diff;
pub mod project;
pub mod value;
