//! Scenario files from arbitrary bytes: the parser never panics, and what it accepts is
//! consistent: every event's action name is one it knows, and frame lookups stay in file order.
#![no_main]

use gobo::scratch::scenario::Scenario;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(sc) = Scenario::parse(data) else {
        return;
    };
    for (frame, _, _) in &sc.events {
        let at: Vec<_> = sc.at(*frame).collect();
        assert!(!at.is_empty() && at.iter().all(|e| e.0 == *frame));
        assert_eq!(sc.pending_after(*frame), sc.events.iter().any(|e| e.0 > *frame));
    }
});
