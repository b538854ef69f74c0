//! What a suite needs to know about a project before running it, read straight from its
//! `project.json`: target names, variables, lists, costumes and block opcodes. Validation uses
//! the names; static checks (`opcode`, `block_count`) are answered from the opcode counts.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde_json::Value as Json;

/// One target (the stage or a sprite) as declared in `project.json`.
#[derive(Debug, Clone, Default)]
pub struct TargetFacts {
    pub name: String,
    pub is_stage: bool,
    pub variables: Vec<String>,
    pub lists: Vec<String>,
    pub costumes: Vec<String>,
    /// Non-shadow blocks per opcode.
    pub opcodes: BTreeMap<String, u32>,
}

/// The declared shape of a project.
#[derive(Debug, Clone, Default)]
pub struct ProjectFacts {
    /// Targets in `project.json` order (the stage is usually first).
    pub targets: Vec<TargetFacts>,
}

/// A `project.json` too malformed to read names from.
#[derive(Debug, Clone, PartialEq)]
pub struct FactsError {
    /// JSON path inside `project.json`.
    pub path: String,
    pub message: &'static str,
}

impl fmt::Display for FactsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "project.json {}: {}", self.path, self.message)
    }
}

impl core::error::Error for FactsError {}

impl ProjectFacts {
    /// Reads the facts from a parsed `project.json`.
    pub fn from_project_json(project: &Json) -> Result<ProjectFacts, FactsError> {
        let err = |path: String, message| FactsError { path, message };
        let targets = project
            .get("targets")
            .and_then(Json::as_array)
            .ok_or_else(|| err(String::from("targets"), "expected an array of targets"))?;
        let mut out = Vec::with_capacity(targets.len());
        for (i, t) in targets.iter().enumerate() {
            let path = alloc::format!("targets[{i}]");
            let name = t
                .get("name")
                .and_then(Json::as_str)
                .ok_or_else(|| err(alloc::format!("{path}.name"), "expected a string"))?;
            let mut facts = TargetFacts {
                name: String::from(name),
                is_stage: t.get("isStage").and_then(Json::as_bool).unwrap_or(false),
                ..TargetFacts::default()
            };
            facts.variables = declared_names(t.get("variables"));
            facts.lists = declared_names(t.get("lists"));
            if let Some(costumes) = t.get("costumes").and_then(Json::as_array) {
                for c in costumes {
                    let n = c.get("name").and_then(Json::as_str).unwrap_or("");
                    facts.costumes.push(String::from(n));
                }
            }
            if let Some(blocks) = t.get("blocks").and_then(Json::as_object) {
                for block in blocks.values() {
                    let Some(op) = block.get("opcode").and_then(Json::as_str) else { continue };
                    if block.get("shadow").and_then(Json::as_bool) == Some(true) {
                        continue;
                    }
                    *facts.opcodes.entry(String::from(op)).or_insert(0) += 1;
                }
            }
            out.push(facts);
        }
        Ok(ProjectFacts { targets: out })
    }

    /// Parses `project.json` text and reads its facts.
    pub fn from_project_text(text: &str) -> Result<ProjectFacts, FactsError> {
        let json: Json = serde_json::from_str(text)
            .map_err(|_| FactsError { path: String::new(), message: "not JSON" })?;
        ProjectFacts::from_project_json(&json)
    }

    pub fn stage(&self) -> Option<&TargetFacts> {
        self.targets.iter().find(|t| t.is_stage)
    }

    pub fn sprite(&self, name: &str) -> Option<&TargetFacts> {
        self.targets.iter().find(|t| !t.is_stage && t.name == name)
    }

    /// Sprite names, comma-separated, for error messages.
    pub fn sprite_names(&self) -> String {
        join(self.targets.iter().filter(|t| !t.is_stage).map(|t| t.name.as_str()))
    }
}

/// `{id: [name, ...]}` → names, in id order (deterministic).
fn declared_names(v: Option<&Json>) -> Vec<String> {
    let Some(map) = v.and_then(Json::as_object) else { return Vec::new() };
    let mut names: Vec<String> =
        map.values().filter_map(|d| d.get(0).and_then(Json::as_str).map(String::from)).collect();
    names.sort();
    names.dedup();
    names
}

pub(crate) fn join<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for (i, n) in names.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(n);
    }
    out
}
