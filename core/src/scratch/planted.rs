//! The differential fuzzer's self-test switch: one semantic rule made wrong on purpose, so a
//! test can check that `benches/src/diff` finds and reports the divergence.
//!
//! The wrong rule (`operator_mod` as JavaScript's truncating `%` instead of scratch-vm's
//! floored modulo) is compiled in only with the crate feature `planted-divergence`, which only
//! the benches' tests enable; without it [`set`] does nothing and the rule costs nothing.

#[cfg(feature = "planted-divergence")]
static ON: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(false);

/// Turns the planted divergence on or off; returns whether this build has it (the feature).
pub fn set(on: bool) -> bool {
    #[cfg(feature = "planted-divergence")]
    {
        ON.store(on, core::sync::atomic::Ordering::Relaxed);
        true
    }
    #[cfg(not(feature = "planted-divergence"))]
    {
        let _ = on;
        false
    }
}

/// Whether the planted divergence is on.
#[cfg(feature = "planted-divergence")]
#[inline]
pub(crate) fn on() -> bool {
    ON.load(core::sync::atomic::Ordering::Relaxed)
}
