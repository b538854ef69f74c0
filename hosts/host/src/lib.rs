//! std adapters shared by gobo's hosts (CLI, HTTP server, Python package): `.sb3` and `.sb2`
//! archives (read, deterministic repack), applying patches to project files,
//! asset decoding into the program image's costume skins, compiling project files, runs with
//! their trace lines, the repair toolkit's calls (scenarios, oracles, the Bug Forge), judging suites on files held in memory, stage PNGs, PNG output, DrawingBench canvases, and
//! parallel batch runs (resumable over files, or in memory). Hosts adapt I/O; no semantics
//! live here.

pub mod batch;
pub mod cost;
pub mod costume;
mod costume_svg;
pub mod drawing;
pub mod edit;
pub mod evidence;
pub mod judge;
pub mod png;
pub mod project;
pub mod repair;
pub mod run;
pub mod sb3;
pub mod skins;
pub mod stage;
pub mod xlogo_rows;
