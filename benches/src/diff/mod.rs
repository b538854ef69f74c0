//! Differential fuzzing against scratch-vm: random valid projects ([`gen`]) run in gobo
//! ([`ours`]) and in a reference ([`oracle`]: scratch-vm 5.0.300 in Node, or with the real
//! renderer in headless Chromium), traces compared with gobo's trace diff, and every divergence
//! minimized to a small project ([`minimize`]). The campaign loop, its counts and its report
//! are in [`campaign`]; `scripts/diff-fuzz.sh N` runs it (`docs/conformance.md`).

pub mod campaign;
pub mod gen;
pub mod minimize;
pub mod oracle;
pub mod ours;

use arbitrary::{Arbitrary, Unstructured};

/// Turns the core's planted divergence (`gobo::scratch::planted`) on or off; `false` when the
/// build does not have it.
pub fn plant(on: bool) -> bool {
    gobo::scratch::planted::set(on)
}

use gen::ProjectDef;

/// The program numbered `index` of the campaign seeded `seed`: `arbitrary` reading bytes of a
/// splitmix64 stream (between 256 bytes and 4 KiB, so programs range from tiny to busy).
pub fn program_def(seed: u64, index: u64) -> ProjectDef {
    let mut state = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let len = 256 + (next() % 3840) as usize;
    let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
    let mut u = Unstructured::new(&bytes);
    ProjectDef::arbitrary(&mut u).unwrap_or_else(|_| ProjectDef {
        stage: Vec::new(),
        sprites: Vec::new(),
        events: Vec::new(),
        frames: 0,
        seed: 0,
        budget: 0,
    })
}
