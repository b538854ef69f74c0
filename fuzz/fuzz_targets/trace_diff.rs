//! The trace differ on two arbitrary traces (the input split at its first NUL byte): never
//! panics; a trace that parses is identical to itself.
#![no_main]

use gobo::scratch::diff::{diff_traces, DiffOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (a, b) = match data.iter().position(|&c| c == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, data),
    };
    let (Ok(a), Ok(b)) = (std::str::from_utf8(a), std::str::from_utf8(b)) else {
        return;
    };
    let opts = DiffOptions::default();
    let _ = diff_traces(a, b, &opts);
    if let Ok(report) = diff_traces(a, a, &opts) {
        assert!(report.identical(), "a trace differs from itself: {report:?}");
    }
});
