//! `modify` with `path: "blocks"`: block records set or deleted verbatim, in `project.json`
//! form, then the map put in a given order. The target's blocks are written out, changed as
//! JSON and read back by the loader, so the result obeys the loader's rules (every reference
//! resolves, a forest, no cycle) or the edit fails.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::error::{LoadError, Path};
use super::super::json::Json;
use super::super::load_blocks::load_blocks;
use super::super::model::Project;
use super::super::refs::Report;
use super::super::save;
use super::super::validate::Pointer;
use super::error::{ErrorCode, PatchError};

/// The target's blocks as `(id, record)` pairs in file order.
pub(crate) fn records_of(project: &Project, t: usize) -> Vec<(String, Json)> {
    match save::blocks(&project.targets[t].blocks) {
        Json::Object(pairs) => pairs,
        _ => Vec::new(),
    }
}

pub(crate) fn apply_records(
    project: &mut Project,
    t: usize,
    edit: usize,
    records: &[(String, Option<Json>)],
    order: Option<&[String]>,
) -> Result<(), PatchError> {
    let at = Pointer::root().index(edit);
    let err = |code, p: Pointer, m: String| PatchError::new(code, Some(edit), p.into_string(), m);
    let mut pairs = records_of(project, t);
    for (id, rec) in records {
        let pos = pairs.iter().position(|(k, _)| k == id);
        match (pos, rec) {
            (Some(p), Some(r)) => pairs[p].1 = r.clone(),
            (None, Some(r)) => pairs.push((id.clone(), r.clone())),
            (Some(p), None) => {
                pairs.remove(p);
            }
            (None, None) => {
                return Err(err(
                    ErrorCode::UnknownBlock,
                    at.key("value").key(id),
                    format!("no block {id:?} to delete"),
                ));
            }
        }
    }
    if let Some(order) = order {
        let mut sorted: Vec<(String, Json)> = Vec::with_capacity(pairs.len());
        for id in order {
            let Some(p) = pairs.iter().position(|(k, _)| k == id) else {
                return Err(err(
                    ErrorCode::Schema,
                    at.key("order"),
                    format!("order names {id:?}, which is not a block"),
                ));
            };
            sorted.push(pairs.swap_remove(p));
        }
        if !pairs.is_empty() {
            return Err(err(
                ErrorCode::Schema,
                at.key("order"),
                format!("order leaves out {} blocks", pairs.len()),
            ));
        }
        pairs = sorted;
    }
    let path = Path::ROOT;
    let mut report = Report { repair: false, warnings: Vec::new() };
    let blocks = load_blocks(Json::Object(pairs), &path, &mut report).map_err(|e| {
        let code = match e {
            LoadError::DanglingBlock { .. } => ErrorCode::UnknownBlock,
            LoadError::SharedBlock { .. } => ErrorCode::BadLink,
            LoadError::Cycle { .. } => ErrorCode::Cycle,
            _ => ErrorCode::Schema,
        };
        err(code, at.clone().key("value"), format!("{e}"))
    })?;
    project.targets[t].blocks = blocks;
    Ok(())
}
