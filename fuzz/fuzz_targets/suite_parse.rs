//! Test suites from arbitrary text: the suite parser and validator (against a small project)
//! and the suite's own regular-expression engine never panic; regex matching is bounded.
#![no_main]

use gobo::scratch::suite::{load_suite, parse_suite, regex::Regex};
use libfuzzer_sys::fuzz_target;

const PROJECT: &str = r#"{"targets":[{"isStage":true,"name":"Stage","variables":{"v":["score",0]},"lists":{"l":["items",[]]},"broadcasts":{"b":"go"},"blocks":{},"costumes":[{"name":"backdrop1"}],"sounds":[]},{"isStage":false,"name":"Cat","variables":{},"lists":{},"broadcasts":{},"blocks":{},"costumes":[{"name":"c1"}],"sounds":[],"x":0,"y":0}],"monitors":[],"extensions":[],"meta":{"semver":"3.0.0"}}"#;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_suite(text);
    let _ = load_suite(text, PROJECT);
    // Regex: the first line is the pattern, the rest the subject.
    let (pattern, subject) = text.split_once('\n').unwrap_or((text, ""));
    if let Ok(re) = Regex::new(pattern, pattern.len() % 2 == 0) {
        let _ = re.is_match(subject);
    }
});
