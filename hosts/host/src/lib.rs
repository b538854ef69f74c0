//! std adapters shared by gobo's hosts (CLI, HTTP server, Python): `.sb3` archives, asset
//! decoding into the program image's costume skins, loading a project from a path or bytes,
//! runs with their trace lines, stage pictures, test-suite jobs, PNG output and parallel batch
//! runs (resumable over files, or in memory). Hosts adapt I/O; no semantics live here.

pub mod batch;
pub mod costume;
mod costume_svg;
pub mod png;
pub mod project;
pub mod render;
pub mod run;
pub mod sb3;
pub mod skins;
pub mod suite;
