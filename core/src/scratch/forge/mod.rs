//! The repair-benchmark toolkit's front half (SPEC §2.4–2.5, `docs/bug-forge.md`): project
//! metadata and scenario templates; the Bug Forge's operators, site ranking and
//! inject-and-validate loop build on them and on differential oracles
//! ([`crate::scratch::oracle`]).

pub mod catalog;
pub mod hooks;
pub mod inject;
pub mod meta;
pub mod sites;
pub mod templates;
pub(crate) mod walk;

pub use catalog::{Operator, Pattern};
pub use hooks::{hooks, Hook};
pub use inject::{
    applicable, forge, inject, Bug, BugRecord, Build, ForgeConfig, ForgeError, ForgeOutcome, Trial,
};
pub use meta::{extract, Metadata};
pub use sites::{sites, sites_of, Site};
pub use templates::{
    instantiate, parse_templates, ScenarioConfig, Scenarios, Template, MAX_FRAMES,
};
