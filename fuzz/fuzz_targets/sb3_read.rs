//! `.sb3` reader: never panics on any bytes, within small limits; what reads writes back to an
//! archive that reads to the same files.
#![no_main]

use gobo_host::sb3::{self, Limits};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = Limits { max_entries: 64, max_entry_bytes: 1 << 20, max_total_bytes: 4 << 20 };
    let Ok(files) = sb3::read_sb3(data, &limits) else {
        return;
    };
    let _ = sb3::check_assets(&files);
    let archive = match sb3::write_sb3(&files) {
        Ok(a) => a,
        Err(e) => panic!("read files do not write: {e}"),
    };
    match sb3::read_sb3(&archive, &limits) {
        Ok(back) => assert_eq!(back, files, "write → read changed the files"),
        Err(e) => panic!("a written archive does not read: {e}"),
    }
});
