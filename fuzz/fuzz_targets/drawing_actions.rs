//! Fuzzes the Python-compatible JSON reader and the action parser: any bytes give a value, a
//! typed error, or an action list; parsed values print (Python repr) without panicking.
#![no_main]

use gobo::drawing::actions::Actions;
use gobo::drawing::{pyfmt, pyjson};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(v) = pyjson::parse_bytes(data) {
        let _ = pyfmt::py_repr(&v);
    }
    if let Ok(actions) = Actions::parse(data) {
        for a in &actions.list {
            for c in [a.x, a.y].into_iter().flatten() {
                let _ = actions.coord_str(c);
                let _ = actions.py_float(c);
            }
        }
    }
});
