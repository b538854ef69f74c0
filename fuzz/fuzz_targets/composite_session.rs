//! Composite sessions from arbitrary bytes: the first byte picks the mode, then every 4 bytes
//! are one of the 11 actions with its indices, names and values drawn from them. No action
//! panics, and after each the session's project validates with no error.
#![no_main]

use gobo::scratch::agent::{catalog::CATALOG, ObserveMode, Session, SessionConfig};
use gobo::scratch::project::load;
use gobo::scratch::project::validate::{validate, Severity};
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
        session.act(&json!({"api": api, "args": args}));
        let findings = validate(session.project());
        let errors: Vec<_> = findings.iter().filter(|f| f.severity == Severity::Error).collect();
        assert!(errors.is_empty(), "after {api} {args}: {errors:?}");
    }
});
