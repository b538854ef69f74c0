//! `observe_profile [RUNS]`: the `edit/observe_100_blocks` bench's observation (compat, `#n`
//! indices, the sprite with one 100-block script) `RUNS` times (default 1,000) and nothing
//! else, for `valgrind --tool=callgrind`. Instructions per observation: collect with
//! `--toggle-collect='gobo::scratch::agent::observe::observe'` (the observation) or
//! `--toggle-collect='observe_profile::observe_and_drop'` (and dropping it, as the bench
//! does), then divide the total by RUNS (docs/performance.md, "Edit layer").

use gobo::scratch::agent::{observe, IndexMode, ObserveMode};
use gobo::scratch::project::Project;
use gobo_benches::edit::hundred_blocks;

/// One observation, made and dropped.
#[inline(never)]
fn observe_and_drop(p: &Project) -> usize {
    let o = observe(p, Some("Big"), ObserveMode::Compat, IndexMode::Index);
    o.map_or(0, |o| o.blocks.len())
}

fn main() -> Result<(), String> {
    let runs: u32 =
        std::env::args().nth(1).map_or(Ok(1000), |r| r.parse()).map_err(|e| format!("{e}"))?;
    let p = hundred_blocks();
    let mut indexed = 0;
    for _ in 0..runs {
        indexed = observe_and_drop(std::hint::black_box(&p));
    }
    if indexed != 100 {
        return Err(format!("{indexed} blocks indexed, not 100"));
    }
    println!("{runs} observations of 100 blocks");
    Ok(())
}
