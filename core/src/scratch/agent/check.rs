//! The validation every composite action's result passes: before an editing action the
//! session keeps what the action may change (the editing target, the stage, the editing
//! index, the id generator); after it, the structural validator
//! ([`validate_targets`](crate::scratch::project::validate::validate_targets)) checks the
//! blocks of the targets the action touched, and an action that introduced an error finding
//! is undone and refused with `INVALID_RESULT`. The actions themselves are not here.
//!
//! Incremental on purpose: the editing target and the stage, or every target when the stage's
//! variables, lists or messages changed (references from other sprites see them). The
//! project-wide checks (sprite names, layers, costumes, sounds, monitors) are left out, since
//! no action changes what they look at. Only on the rare failing path is the state before
//! the action validated too, so a project that already had errors can still be edited: only
//! errors the action introduced refuse it (the block-edit and JSON patch rule).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write as _;

use serde_json::json;

use super::args::{ActError, Code};
use super::session::{Finish, Session};
use crate::scratch::project::edit::IdGen;
use crate::scratch::project::validate::{
    has_errors, introduced, validate_targets, Finding, Severity,
};
use crate::scratch::project::Target;

/// The APIs that can change the project (`done`, `failed` and unknown ones cannot).
const EDITING: &[&str] = &[
    "select_sprite",
    "select_stage",
    "add_variable",
    "add_list",
    "add_block",
    "connect_blocks",
    "detach_blocks",
    "set_block_field",
    "delete_block",
];

/// What an action may change, kept to undo it.
pub(crate) struct Undo {
    editing: usize,
    ids: IdGen,
    finished: Option<Finish>,
    /// `(index, target)`: the editing target, then the stage when it is another target.
    targets: Vec<(usize, Target)>,
}

/// Whether `api` can change the project (and so is checked after it runs).
pub(crate) fn edits(api: &str) -> bool {
    EDITING.contains(&api)
}

/// The undo point before an editing action. (Kept out of line, as is [`check`], so that
/// profiles show the check's cost apart from the action's.)
#[inline(never)]
pub(crate) fn save(s: &Session) -> Undo {
    let stage = s.project.stage_index();
    let mut targets = Vec::with_capacity(2);
    for t in [s.editing, stage] {
        if targets.iter().all(|(i, _)| *i != t) {
            if let Some(target) = s.project.targets.get(t) {
                targets.push((t, target.clone()));
            }
        }
    }
    Undo { editing: s.editing, ids: s.ids, finished: s.finished, targets }
}

/// Checks the project an action produced: `Ok` keeps it; `Err` has put back the state of
/// `undo` and says which errors the action introduced, and which warnings.
#[inline(never)]
pub(crate) fn check(s: &mut Session, api: &str, mut undo: Undo) -> Result<(), ActError> {
    let stage = s.project.stage_index();
    let stage_changed = undo.targets.iter().any(|(t, old)| {
        *t == stage
            && s.project.targets.get(stage).is_none_or(|now| {
                now.variables != old.variables
                    || now.lists != old.lists
                    || now.broadcasts != old.broadcasts
            })
    });
    let scope: Vec<usize> = if stage_changed {
        (0..s.project.targets.len()).collect()
    } else {
        undo.targets.iter().map(|(t, _)| *t).collect()
    };
    let after = validate_targets(&s.project, &scope);
    if !has_errors(&after) {
        return Ok(());
    }
    // Rare: compare with the state before, which the undo point holds.
    swap(s, &mut undo.targets);
    let before = validate_targets(&s.project, &scope);
    let new = introduced(&before, &after, Severity::Error);
    if new.is_empty() {
        swap(s, &mut undo.targets);
        return Ok(());
    }
    s.editing = undo.editing;
    s.ids = undo.ids;
    s.finished = undo.finished;
    let mut findings = new;
    findings.extend(introduced(&before, &after, Severity::Warning));
    Err(refusal(api, findings))
}

/// Exchanges the saved targets with the project's.
fn swap(s: &mut Session, saved: &mut [(usize, Target)]) {
    for (t, target) in saved.iter_mut() {
        if let Some(now) = s.project.targets.get_mut(*t) {
            core::mem::swap(now, target);
        }
    }
}

/// The `INVALID_RESULT` error: the action, then each finding's code and path in the message;
/// `details` has `{action, findings}` with the findings as `gobo validate --json` lists them.
pub(crate) fn refusal(api: &str, findings: Vec<Finding>) -> ActError {
    let mut message = String::new();
    let _ = write!(message, "{api} would leave the project invalid, so it was not applied:");
    for f in findings.iter().filter(|f| f.severity == Severity::Error) {
        let _ = write!(message, " {} at {} ({});", f.code, f.path, f.message);
    }
    message.pop();
    let details = json!({"action": api, "findings": findings});
    ActError { code: Code::InvalidResult, message, details: Some(details) }
}

#[cfg(test)]
mod tests {
    //! The check is wired with a test-only hook (`Session::sabotage`) that breaks the project
    //! after an action, the way a bug in an action would; `tests/agent_session.rs` has the
    //! refusal an action can provoke by itself (deleting a custom block definition in use).

    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use serde_json::{json, Value};

    use super::super::args::Code;
    use super::super::session::{Feedback, Session, SessionConfig};
    use crate::scratch::project::{self, Field, Literal, Project};

    /// Stage with variable `score`; sprite `Cat`: flag hat `h` → move `m`; sprite `Dog`.
    /// `extra` blocks go into Cat.
    fn project(extra: Value) -> Project {
        let costume =
            json!([{"name": "c", "assetId": "a", "md5ext": "a.svg", "dataFormat": "svg"}]);
        let mut cat = json!({
            "h": {"opcode": "event_whenflagclicked", "next": "m", "parent": null, "inputs": {},
                  "fields": {}, "shadow": false, "topLevel": true, "x": 0, "y": 0},
            "m": {"opcode": "motion_movesteps", "next": null, "parent": "h",
                  "inputs": {"STEPS": [1, [4, "10"]]}, "fields": {}, "shadow": false, "topLevel": false}
        });
        if let (Value::Object(c), Value::Object(e)) = (&mut cat, extra) {
            c.extend(e);
        }
        let target = |stage: bool, name: &str, blocks: Value, vars: Value| {
            json!({"isStage": stage, "name": name, "variables": vars, "lists": {}, "broadcasts": {},
                   "blocks": blocks, "costumes": costume, "sounds": []})
        };
        let doc = json!({"targets": [
            target(true, "Stage", json!({}), json!({"v1": ["score", 0]})),
            target(false, "Cat", cat, json!({})),
            target(false, "Dog", json!({}), json!({})),
        ], "monitors": [], "extensions": [], "meta": {"semver": "3.0.0"}});
        project::load(doc.to_string().as_bytes()).expect("the fixture loads")
    }

    fn session(p: Project, feedback: Feedback) -> Session {
        Session::new(p, SessionConfig { feedback, ..SessionConfig::default() }).expect("session")
    }

    /// Cat's flag hat becomes its own next block (a cycle), whatever target is edited.
    fn cycle(p: &mut Project, _editing: usize) {
        if let Some(h) = p.targets[1].blocks.index_of("h") {
            if let Some(b) = p.targets[1].blocks.get_mut(h) {
                b.next = Some(h);
            }
        }
    }

    /// The editing target's flag hat (if it has one) names a variable that does not exist.
    fn unknown_variable(p: &mut Project, editing: usize) {
        let blocks = &mut p.targets[editing].blocks;
        if let Some(h) = blocks.index_of("h") {
            let field = Field {
                name: "VARIABLE".into(),
                value: Literal::Text("ghost".into()),
                id: Some("nope".into()),
                has_id_slot: true,
            };
            let _ = blocks.set_field(h, field);
        }
    }

    /// An opcode gobo does not know: a warning only.
    fn unknown_opcode(p: &mut Project, t: usize) {
        if let Some(m) = p.targets[t].blocks.index_of("m") {
            let _ = p.targets[t].blocks.set_opcode(m, "foo_bar");
        }
    }

    fn bytes(s: &Session) -> Vec<u8> {
        project::save(s.project())
    }

    fn codes(details: &Value) -> Vec<String> {
        details["findings"]
            .as_array()
            .map(|a| a.iter().map(|f| f["code"].as_str().unwrap_or("").into()).collect())
            .unwrap_or_default()
    }

    #[test]
    fn a_broken_block_forest_is_refused_and_undone() {
        let mut s = session(project(json!({})), Feedback::Full);
        let clean = s.clone();
        let before = bytes(&s);
        s.sabotage = Some(cycle);
        let r = s
            .act_call("add_block", json!({"blockType": "looks_say"}).as_object().cloned().unwrap());
        assert_eq!(r.code(), Some(Code::InvalidResult), "{r:?}");
        assert_eq!(r.success, Some(false));
        let e = r.error.unwrap();
        assert!(
            e.message.starts_with("add_block would leave the project invalid"),
            "{}",
            e.message
        );
        assert!(e.message.contains(": CYCLE at /targets/1/blocks/h ("), "{}", e.message);
        let details = e.details.unwrap();
        assert_eq!(details["action"], "add_block");
        assert_eq!(codes(&details)[0], "CYCLE");
        assert!(details["findings"][0]["path"].as_str().unwrap().starts_with("/targets/1/blocks/"));
        // Unchanged: the project, the step counter, the id generator.
        assert_eq!(bytes(&s), before);
        assert_eq!((s.step(), r.meta.step), (0, 0));
        assert_eq!(s.ids, clean.ids);
        // Without the fault the same action makes the same block as a session that never
        // saw the refusal.
        s.sabotage = None;
        let mut fresh = clean;
        let args = json!({"blockType": "looks_say"}).as_object().cloned().unwrap();
        let (a, b) = (s.act_call("add_block", args.clone()), fresh.act_call("add_block", args));
        assert!(a.ok() && b.ok(), "{a:?}");
        assert_eq!(a.data, b.data);
        assert_eq!(bytes(&s), bytes(&fresh));
        assert_eq!(s.step(), 1);
    }

    #[test]
    fn stage_and_selection_changes_are_undone_too() {
        let mut s = session(project(json!({})), Feedback::Full);
        let before = bytes(&s);
        s.sabotage = Some(unknown_variable);
        let args = json!({"name": "lives", "scope": "all"}).as_object().cloned().unwrap();
        let r = s.act_call("add_variable", args);
        assert_eq!(r.code(), Some(Code::InvalidResult), "{r:?}");
        assert_eq!(
            codes(r.error.as_ref().unwrap().details.as_ref().unwrap()),
            ["UNKNOWN_VARIABLE"]
        );
        assert_eq!(bytes(&s), before, "the new global variable is gone");
        // select_sprite changes the editing target; a fault in Cat (the target edited
        // before) undoes the selection.
        s.sabotage = Some(cycle);
        let r = s.act_call("select_sprite", json!({"name": "Dog"}).as_object().cloned().unwrap());
        assert_eq!(r.code(), Some(Code::InvalidResult), "{r:?}");
        assert_eq!(s.editing(), 1);
        assert_eq!(bytes(&s), before);
        s.sabotage = None;
        assert!(s
            .act_call("select_sprite", json!({"name": "Dog"}).as_object().cloned().unwrap())
            .ok());
        assert_eq!(s.editing(), 2);
    }

    #[test]
    fn errors_the_project_had_do_not_refuse() {
        // A call of a procedure Cat does not define: UNKNOWN_PROCEDURE before any action.
        let call = json!({"c": {"opcode": "procedures_call", "next": null, "parent": null,
            "inputs": {}, "fields": {}, "shadow": false, "topLevel": true, "x": 0, "y": 0,
            "mutation": {"tagName": "mutation", "children": [], "proccode": "jump",
                "argumentids": "[]", "warp": "false"}}});
        let mut s = session(project(call), Feedback::Full);
        let r = s
            .act_call("add_block", json!({"blockType": "looks_say"}).as_object().cloned().unwrap());
        assert!(r.ok(), "{r:?}");
        // A new error still refuses, and only the new one is listed.
        s.sabotage = Some(cycle);
        let r = s
            .act_call("add_block", json!({"blockType": "looks_say"}).as_object().cloned().unwrap());
        assert_eq!(r.code(), Some(Code::InvalidResult), "{r:?}");
        let details = r.error.unwrap().details.unwrap();
        assert!(!codes(&details).iter().any(|c| c == "UNKNOWN_PROCEDURE"), "{details}");
    }

    #[test]
    fn warnings_never_refuse() {
        let mut s = session(project(json!({})), Feedback::Full);
        s.sabotage = Some(unknown_opcode);
        let r = s
            .act_call("add_block", json!({"blockType": "looks_say"}).as_object().cloned().unwrap());
        assert!(r.ok(), "{r:?}");
        assert_eq!(s.step(), 1);
    }

    #[test]
    fn refusals_withheld_by_feedback_still_leave_the_session() {
        let mut s = session(project(json!({})), Feedback::ObservationOnly);
        let before = bytes(&s);
        s.sabotage = Some(cycle);
        let r = s
            .act_call("add_block", json!({"blockType": "looks_say"}).as_object().cloned().unwrap());
        assert_eq!((r.success, r.error.is_none()), (None, true));
        assert!(r.observation.is_some());
        assert_eq!((s.step(), bytes(&s)), (0, before));
    }
}
