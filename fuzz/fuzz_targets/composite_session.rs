//! Composite sessions from arbitrary bytes: the first byte picks the mode, then every 4 bytes
//! are one of the 11 actions with its indices, names and values drawn from them. No action
//! panics; after each the project validates with no error; a refused invalid result used no
//! step and is the one refusal an action may provoke (UNKNOWN_PROCEDURE), not an action bug.
#![no_main]

use gobo::scratch::agent::{catalog::CATALOG, Code, ObserveMode, Session, SessionConfig};
use gobo::scratch::project::load;
use gobo::scratch::project::validate::{has_errors, validate};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

const BASE: &[u8] = include_bytes!("../../core/tests/fixtures/agent/quirks.json");
const KINDS: &[&str] = &["stack_before", "stack_after", "statement_into", "value_into", "wrap"];
const SLOTS: &[&str] = &["SUBSTACK", "SUBSTACK2", "CONDITION", "STEPS", "MESSAGE", "VARIABLE"];
const SCOPES: &[&str] = &["sprite", "all", "local"];
const NAMES: &[&str] = &["Cat", "Dog", "Stage", "score", "speed", "", "x"];
const VALUES: &[&str] = &["10", "-1.5", "space", "random position", "Apple", "message1"];

fn pick(table: &[&'static str], byte: u8) -> &'static str {
    table[usize::from(byte) % table.len()]
}

fn action(b: &[u8]) -> (&'static str, Value) {
    let (i, j) = (i64::from(b[1] % 40) - 1, i64::from(b[2] % 40) - 1);
    let (name, slot, value) = (pick(NAMES, b[3]), pick(SLOTS, b[2]), pick(VALUES, b[3]));
    let (scope, op) = (pick(SCOPES, b[1]), CATALOG[usize::from(b[1]) % CATALOG.len()].opcode);
    let place = json!({"kind": pick(KINDS, b[3]), "inputName": slot});
    let creation = json!({"variableName": name, "listName": name});
    match b[0] % 21 {
        0 | 1 => ("select_sprite", json!({"name": name})),
        2 => ("select_stage", json!({})),
        3 => ("add_variable", json!({"name": name, "scope": scope})),
        4 => ("add_list", json!({"name": name, "scope": scope})),
        5..=7 => ("add_block", json!({"blockType": op, "creation": creation})),
        8..=11 => (
            "connect_blocks",
            json!({"sourceBlockIndex": i, "targetBlockIndex": j, "placement": place}),
        ),
        12 | 13 => ("detach_blocks", json!({"blockIndex": i})),
        14..=16 => ("set_block_field", json!({"blockIndex": i, "fieldName": slot, "value": value})),
        17 | 18 => ("delete_block", json!({"blockIndex": i})),
        19 => ("done", json!({})),
        _ => ("failed", json!({})),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let mode = if mode % 2 == 0 { ObserveMode::Compat } else { ObserveMode::Full };
    let config = SessionConfig { mode, max_steps: 0, ..SessionConfig::default() };
    let mut session =
        Session::new(load(BASE).expect("the fixture loads"), config).expect("a session");
    for chunk in rest.chunks_exact(4).take(64) {
        let (api, args) = action(chunk);
        let (step, r) = (session.step(), session.act(&json!({"api": api, "args": args})));
        if let Some(d) = r.error.filter(|e| e.code == Code::InvalidResult).and_then(|e| e.details) {
            let errors =
                d["findings"].as_array().into_iter().flatten().filter(|f| f["severity"] == "error");
            let bug = errors.into_iter().any(|f| f["code"] != "UNKNOWN_PROCEDURE");
            assert!(!bug && session.step() == step, "an action bug caught by the check: {d}");
        }
        let findings = validate(session.project());
        assert!(!has_errors(&findings), "after {api} {args}: {findings:?}");
    }
});
