//! gobo's JSON Patch profile for `project.json` (EcoScratch's repair format, SPEC §3.5): the
//! patch extracted from a model's raw reply, normalized, held to a budget, applied with
//! [`crate::json_patch`], and the result loaded and validated. A failure names its stage:
//! `extract` (no JSON found), `schema` (not a patch), `budget` (too many operations), `apply`
//! (an operation failed: its index and RFC 6902 reason), `validate` (the result does not load,
//! or has validation errors the project did not have).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::json::Json;
use super::load::{load_json_with, LoadOptions};
use super::patch::PostCheck;
use super::validate::{introduced, validate_with, Context, Finding, Severity};
use crate::json_patch::{self, pointer, Limits};

/// Which normalization steps run (all by default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Normalize {
    /// Drop members other than `op`, `path`, `from`, `value`.
    pub drop_unknown: bool,
    /// Lower-case `op`.
    pub lowercase_op: bool,
    /// Prefix a missing leading `/` to `path` and `from`.
    pub leading_slash: bool,
    /// Resolve `/targets/@<name>/...` to the target's index.
    pub target_names: bool,
}

impl Default for Normalize {
    fn default() -> Self {
        Normalize {
            drop_unknown: true,
            lowercase_op: true,
            leading_slash: true,
            target_names: true,
        }
    }
}

/// The profile's settings.
#[derive(Clone, Copy)]
pub struct Profile<'a> {
    /// Most operations (`test` counts); default 100.
    pub budget: usize,
    /// Normalization steps.
    pub normalize: Normalize,
    /// Validation of the result.
    pub check: PostCheck,
    /// Which asset files exist (`None`: not checked).
    pub asset_present: Option<&'a dyn Fn(&str) -> bool>,
}

impl Default for Profile<'_> {
    fn default() -> Self {
        Profile {
            budget: 100,
            normalize: Normalize::default(),
            check: PostCheck::NewErrors,
            asset_present: None,
        }
    }
}

impl core::fmt::Debug for Profile<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Profile")
            .field("budget", &self.budget)
            .field("normalize", &self.normalize)
            .field("check", &self.check)
            .finish()
    }
}

/// Where a JSON Patch failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// No JSON patch found in the text.
    Extract,
    /// Not an array of operation objects.
    Schema,
    /// More operations than the budget.
    Budget,
    /// An operation failed.
    Apply,
    /// The result does not load or fails validation.
    Validate,
}

/// A failed JSON Patch: the stage, the operation, the pointer, a code and a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// The stage.
    pub stage: Stage,
    /// The operation's index, when one is to blame.
    pub index: Option<usize>,
    /// The pointer involved (in the patch's terms).
    pub path: String,
    /// A short code (`no_such_path`, `test_failed`, `LOAD`, `INVALID_RESULT`...).
    pub code: String,
    /// What is wrong.
    pub message: String,
    /// For `validate`: the new error findings.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<Finding>,
}

impl core::fmt::Display for Failure {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let stage = match self.stage {
            Stage::Extract => "extract",
            Stage::Schema => "schema",
            Stage::Budget => "budget",
            Stage::Apply => "apply",
            Stage::Validate => "validate",
        };
        write!(f, "{stage}")?;
        if let Some(i) = self.index {
            write!(f, ", operation {i}")?;
        }
        if !self.path.is_empty() {
            write!(f, " ({})", self.path)?;
        }
        write!(f, ": {}: {}", self.code, self.message)
    }
}

impl core::error::Error for Failure {}

fn fail(stage: Stage, index: Option<usize>, code: &str, message: String) -> Failure {
    Failure { stage, index, path: String::new(), code: code.into(), message, findings: Vec::new() }
}

/// One normalization applied to one operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The operation's index.
    pub index: usize,
    /// `drop_unknown`, `lowercase_op`, `leading_slash` or `target_name`.
    pub step: &'static str,
    /// What changed.
    pub detail: String,
}

/// A patched project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// Operations applied.
    pub ops: usize,
    /// Normalizations made.
    pub normalized: Vec<Step>,
    /// Findings of the result's validation (warnings, and errors it had before).
    pub findings: Vec<Finding>,
    /// The patched `project.json` (key order kept; not re-serialized through the model).
    #[serde(skip)]
    pub project_json: Vec<u8>,
}

/// Finds the patch in a model's reply: the whole text if it is JSON; else the last fenced
/// block marked `json` that parses; else the last fenced block that parses; else the first
/// top-level JSON array in the text.
pub fn extract(text: &[u8]) -> Result<Json, Failure> {
    let Ok(text) = core::str::from_utf8(text) else {
        return Err(fail(Stage::Extract, None, "not_utf8", "the reply is not UTF-8 text".into()));
    };
    if let Ok(j) = Json::parse(text.trim().as_bytes()) {
        return Ok(j);
    }
    let mut fenced: Vec<(bool, &str)> = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let line_end = after.find('\n').unwrap_or(after.len());
        let lang = after[..line_end].trim();
        let body = after.get(line_end + 1..).unwrap_or("");
        let Some(close) = body.find("```") else { break };
        fenced.push((lang.eq_ignore_ascii_case("json"), &body[..close]));
        rest = &body[close + 3..];
    }
    for want_json in [true, false] {
        for (is_json, body) in fenced.iter().rev() {
            if *is_json == want_json || !want_json {
                if let Ok(j) = Json::parse(body.trim().as_bytes()) {
                    return Ok(j);
                }
            }
        }
    }
    for (i, _) in text.match_indices('[') {
        let mut stream = serde_json::Deserializer::from_str(&text[i..]).into_iter::<Json>();
        if let Some(Ok(j @ Json::Array(_))) = stream.next() {
            return Ok(j);
        }
    }
    Err(fail(Stage::Extract, None, "no_json", "no JSON patch found in the text".into()))
}

/// Normalizes operations (each change reported), resolving target names against `doc`.
pub fn normalize(patch: Json, doc: &Json, opts: &Normalize) -> Result<(Json, Vec<Step>), Failure> {
    let Json::Array(items) = patch else {
        return Err(fail(
            Stage::Schema,
            None,
            "not_a_patch",
            format!("a patch is an array of operations, not {}", patch.type_name()),
        ));
    };
    let mut steps = Vec::new();
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let Json::Object(mut pairs) = item else {
            return Err(fail(
                Stage::Schema,
                Some(i),
                "not_a_patch",
                format!("an operation is an object, not {}", item.type_name()),
            ));
        };
        if opts.drop_unknown {
            let before = pairs.len();
            let dropped: Vec<String> = pairs
                .iter()
                .map(|(k, _)| k.clone())
                .filter(|k| !matches!(k.as_str(), "op" | "path" | "from" | "value"))
                .collect();
            pairs.retain(|(k, _)| matches!(k.as_str(), "op" | "path" | "from" | "value"));
            if pairs.len() != before {
                steps.push(Step { index: i, step: "drop_unknown", detail: dropped.join(",") });
            }
        }
        for (k, v) in pairs.iter_mut() {
            match (k.as_str(), v) {
                ("op", Json::String(op))
                    if opts.lowercase_op && op.chars().any(|c| c.is_ascii_uppercase()) =>
                {
                    let lower = op.to_ascii_lowercase();
                    steps.push(Step {
                        index: i,
                        step: "lowercase_op",
                        detail: format!("{op} -> {lower}"),
                    });
                    *op = lower;
                }
                ("path" | "from", Json::String(p)) => {
                    if opts.leading_slash && !p.is_empty() && !p.starts_with('/') {
                        steps.push(Step {
                            index: i,
                            step: "leading_slash",
                            detail: format!("{p} -> /{p}"),
                        });
                        p.insert(0, '/');
                    }
                    if opts.target_names {
                        if let Some(resolved) = resolve_target(p, doc) {
                            steps.push(Step {
                                index: i,
                                step: "target_name",
                                detail: format!("{p} -> {resolved}"),
                            });
                            *p = resolved;
                        }
                    }
                }
                _ => {}
            }
        }
        out.push(Json::Object(pairs));
    }
    Ok((Json::Array(out), steps))
}

/// `/targets/@<name>/rest` → `/targets/<index>/rest`, if a target has that name.
fn resolve_target(p: &str, doc: &Json) -> Option<String> {
    let rest = p.strip_prefix("/targets/@")?;
    let (token, tail) = match rest.find('/') {
        Some(s) => (&rest[..s], &rest[s..]),
        None => (rest, ""),
    };
    let name = pointer::parse(&format!("/{token}")).ok()?.pop()?;
    let Some(Json::Array(targets)) = doc.get("targets") else { return None };
    let index = targets.iter().position(|t| match (t.get("name"), t.get("isStage")) {
        (Some(Json::String(n)), _) if *n == name => true,
        (_, Some(Json::Bool(true))) => name == "_stage_",
        _ => false,
    })?;
    Some(format!("/targets/{index}{tail}"))
}

/// Applies a JSON Patch given as raw text (a model's reply, or a patch file) to
/// `project.json` bytes under the profile.
pub fn apply_text(
    project_json: &[u8],
    patch_text: &[u8],
    profile: &Profile<'_>,
) -> Result<Outcome, Failure> {
    let patch = extract(patch_text)?;
    let mut doc = Json::parse(project_json).map_err(|e| {
        fail(Stage::Validate, None, "LOAD", format!("project.json is not JSON: {e}"))
    })?;
    let (patch, normalized) = normalize(patch, &doc, &profile.normalize)?;
    let ops = json_patch::parse_ops(&patch, &Limits::default()).map_err(|e| {
        let mut f = fail(Stage::Schema, e.index, e.kind.code(), e.message.clone());
        f.path = e.path;
        f
    })?;
    if ops.len() > profile.budget {
        return Err(fail(
            Stage::Budget,
            None,
            "over_budget",
            format!("{} operations, the budget is {}", ops.len(), profile.budget),
        ));
    }
    let cx = Context { asset_present: profile.asset_present, max_findings: 0 };
    let repair = LoadOptions { repair_references: true };
    let before = match profile.check {
        PostCheck::NewErrors => match load_json_with(doc.clone(), &repair) {
            Ok(p) => validate_with(&p, &cx),
            Err(_) => Vec::new(),
        },
        _ => Vec::new(),
    };
    json_patch::apply(&mut doc, &ops, &Limits::default()).map_err(|e| {
        let mut f = fail(Stage::Apply, e.index, e.kind.code(), e.message.clone());
        f.path = e.path;
        f
    })?;
    let bytes = doc.to_bytes();
    let project = load_json_with(doc, &repair).map_err(|e| {
        fail(Stage::Validate, None, "LOAD", format!("the patched project does not load: {e}"))
    })?;
    let findings =
        if profile.check == PostCheck::Off { Vec::new() } else { validate_with(&project, &cx) };
    let new = introduced(&before, &findings, Severity::Error);
    if !new.is_empty() && profile.check != PostCheck::Off {
        let mut f = fail(
            Stage::Validate,
            None,
            "INVALID_RESULT",
            format!("the patched project has {} new validation errors", new.len()),
        );
        f.findings = new;
        return Err(f);
    }
    Ok(Outcome { ops: ops.len(), normalized, findings, project_json: bytes })
}
