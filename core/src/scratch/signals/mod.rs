//! Repair-loop signals (SPEC §3.2–3.3, `docs/signals.md`): the runtime probe that compares a
//! buggy program with its gold reference on a short schedule and condenses the difference
//! into an escalation level ([`probe()`]), and staged verification of a candidate fix
//! (static checks, a smoke run, the full suite; [`verify()`]).
//!
//! Every result carries the engine work it took ([`Work`]: deterministic counters). Wall and
//! CPU time are the host's business (`gobo_host::cost`): the core never reads a clock.
//! What does not live here: recording runs (`scratch::oracle`), running suites
//! (`scratch::suite`), loading archives and decoding assets (the host passes a compiler).

mod probe;
mod verify;

pub use crate::scratch::oracle::Work;
pub use probe::{probe, CaseProbe, Divergence, Flags, Probe, ProbeConfig, MAX_PROBE_FRAMES};
pub use verify::{verify, Stage, StageReport, Verification, VerifyConfig};

use alloc::string::String;

/// Why a probe or a verification could not run (bad input, not a verdict).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SignalsError {
    /// The suite document is not a suite (JSON path inside), or does not fit the gold project.
    Suite(String),
    /// A parameter is out of range (which one inside).
    Config(String),
    /// The gold project cannot be read.
    Gold(String),
}

impl core::fmt::Display for SignalsError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SignalsError::Suite(e) => write!(f, "suite: {e}"),
            SignalsError::Config(e) => write!(f, "configuration: {e}"),
            SignalsError::Gold(e) => write!(f, "gold project: {e}"),
        }
    }
}

impl core::error::Error for SignalsError {}
