//! `act_profile [RUNS]`: the `edit/composite_connect_blocks` bench's action (`connect_blocks`,
//! `stack_after`, on a session of the `keys` example) and a `set_block_field` on the sprite
//! with one 100-block script, each `RUNS` times (default 1,000) on a fresh clone of the
//! session, then a full `validate` of each result, for `valgrind --tool=callgrind`. With
//! `callgrind_annotate --inclusive=yes`, the inclusive counts of `act_profile::act_once` (the
//! action, the check after it included), `gobo::scratch::agent::check::check` and
//! `check::save` (the check and its undo point) and `act_profile::validate_full` (what a full
//! validation would cost instead), divided by 2 × RUNS, give the check's share of an action
//! (docs/performance.md, "Edit layer").

use gobo::scratch::agent::{ActResult, Session, SessionConfig};
use gobo::scratch::project::validate::{validate, Finding};
use gobo::scratch::project::{load, Project};
use gobo_benches::edit::hundred_blocks;
use serde_json::{json, Value};

/// One action on a fresh clone of the session.
#[inline(never)]
fn act_once(s: &Session, action: &Value) -> (ActResult, Session) {
    let mut s = s.clone();
    (s.act(action), s)
}

/// The full validation of a project.
#[inline(never)]
fn validate_full(p: &Project) -> Vec<Finding> {
    validate(p)
}

fn main() -> Result<(), String> {
    let runs: u32 =
        std::env::args().nth(1).map_or(Ok(1000), |r| r.parse()).map_err(|e| format!("{e}"))?;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/scratch/keys/project.json");
    let keys = load(&std::fs::read(dir).map_err(|e| format!("{dir}: {e}"))?)
        .map_err(|e| format!("{e}"))?;
    let connect = json!({"api": "connect_blocks", "args": {"sourceBlockIndex": 13,
        "targetBlockIndex": 3, "placement": {"kind": "stack_after"}}});
    let field = json!({"api": "set_block_field", "args": {"blockIndex": 49,
        "fieldName": "STEPS", "value": "7"}});
    let cases = [(keys, connect), (hundred_blocks(), field)];
    for (project, action) in &cases {
        let session =
            Session::new(project.clone(), SessionConfig::default()).map_err(|e| format!("{e}"))?;
        for _ in 0..runs {
            let (r, after) = act_once(std::hint::black_box(&session), action);
            if !r.ok() {
                return Err(format!("{action}: {:?}", r.error));
            }
            std::hint::black_box(validate_full(after.project()));
        }
    }
    println!("{runs} × 2 composite actions, each validated in full afterwards");
    Ok(())
}
