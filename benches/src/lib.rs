//! gobo's benchmark support: the checked-in Scratch workloads ([`suite`]), gobo's own timings
//! of them ([`gobo_side`]), the reference runners driven as child processes ([`reference`]) and
//! the side-by-side table ([`table`]); and differential fuzzing against scratch-vm ([`diff`]).
//!
//! The criterion benches in `benches/benches/` (one file per phase: load, compile, run, render,
//! evaluate) and the `compare` binary (`benches/compare.sh`) share these definitions, so a
//! workload means the same thing in both. How figures are measured: `docs/performance.md`.

pub mod diff;
pub mod edit;
pub mod evaluate;
pub mod gobo_side;
pub mod reference;
pub mod scratch_vm;
pub mod suite;
pub mod table;

use std::path::{Path, PathBuf};

/// `benches/workloads/scratch` of this checkout.
pub fn scratch_workloads_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("workloads").join("scratch")
}

/// The material beside the checkout (`../shared`), or `$GOBO_SHARED`; `None` when absent.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("GOBO_SHARED") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    dir.is_dir().then_some(dir)
}
