//! RFC 6902 JSON Patch from arbitrary bytes: the generic engine on a small document and gobo's
//! project.json profile (extraction from free text, normalization, budget, validation) never
//! panic and stay within their limits; a failing patch leaves the document unchanged.
#![no_main]

use gobo::json_patch::{apply_json, json_eq, Limits};
use gobo::scratch::project::json_patch::{apply_text, Profile};
use gobo::scratch::project::Json;
use libfuzzer_sys::fuzz_target;

const BASE: &[u8] = include_bytes!("../../core/tests/fixtures/edit/base.json");
const DOC: &[u8] = br#"{"a":[1,{"b":"c"}],"d~/e":{"f":null},"":true}"#;

fuzz_target!(|data: &[u8]| {
    if let Ok(patch) = Json::parse(data) {
        let original = Json::parse(DOC).expect("the document parses");
        let mut doc = original.clone();
        let limits = Limits { max_nodes: Some(10_000), ..Limits::default() };
        if apply_json(&mut doc, &patch, &limits).is_err() {
            assert!(json_eq(&doc, &original), "a failed patch changed the document");
        }
    }
    let _ = apply_text(BASE, data, &Profile::default());
});
