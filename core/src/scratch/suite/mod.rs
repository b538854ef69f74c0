//! Scratch test suites (`docs/test-suite.md`): the declarative format benchmark authors use to
//! drive a project (green flag, keys, mouse, clicks, answers, direct writes) and check what it
//! does, its parser with JSON-path errors, validation against a project, and the runner that
//! turns per-frame observations into verdicts and reports.
//!
//! Nothing here reads files or clocks: the host passes the suite text and the project, and the
//! runner drives whatever implements [`Subject`] (the VM, or a recorded trace through
//! [`TraceSubject`]) one virtual frame at a time.

mod adequacy;
mod answer;
mod describe;
mod error;
mod eval;
mod facts;
mod json;
mod live;
pub mod model;
mod observe;
mod parse;
mod parse_check;
pub mod regex;
mod replay;
mod report;
mod run;
mod series;
mod validate;

pub use adequacy::{Adequacy, CaseAdequacy, Failure, GoldVerdict, NegativeVerdict, ProgramRuns};
pub use answer::{answer_text, numbers_in};
pub use error::{SuiteError, SuiteErrorKind};
pub use facts::{FactsError, ProjectFacts, TargetFacts};
pub use live::VmSubject;
pub use observe::{SayEvent, Snapshot, SpriteObs};
pub use parse::{parse_suite, parse_suite_json, FORMAT_VERSION};
pub use replay::TraceSubject;
pub use report::{CaseRates, SeedReport, Stability, SuiteReport};
pub use run::{run_case, run_suite, Action, CaseVerdict, Subject};
pub use validate::{validate, START_MARK};

/// Parses `suite_text` and validates it against `project_json` text.
pub fn load_suite(
    suite_text: &str,
    project_json: &str,
) -> Result<(model::Suite, ProjectFacts), LoadError> {
    let facts = ProjectFacts::from_project_text(project_json).map_err(LoadError::Project)?;
    let mut suite = parse_suite(suite_text).map_err(LoadError::Suite)?;
    validate(&mut suite, &facts).map_err(LoadError::Suite)?;
    Ok((suite, facts))
}

/// Why [`load_suite`] failed.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadError {
    Project(FactsError),
    Suite(SuiteError),
}

impl core::fmt::Display for LoadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LoadError::Project(e) => write!(f, "{e}"),
            LoadError::Suite(e) => write!(f, "suite {e}"),
        }
    }
}

impl core::error::Error for LoadError {}
