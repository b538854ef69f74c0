//! `project.json` loader: never panics; whatever loads saves and reloads to an equal model,
//! and saving again gives the same bytes (differential save → load → save).
#![no_main]

use gobo::scratch::project;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(first) = project::load(data) else {
        return;
    };
    let saved = project::save(&first);
    let second = match project::load(&saved) {
        Ok(p) => p,
        Err(e) => panic!("a saved project does not reload: {e}"),
    };
    assert_eq!(first, second, "load → save → load changed the model");
    assert_eq!(project::save(&second), saved, "save → load → save is not stable");
});
