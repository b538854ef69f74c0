//! Program images from arbitrary bytes: the envelope (magic, version, kind, length, CRC-32)
//! and, behind a valid envelope, a Scratch payload that `Vm::new` must check or refuse before
//! anything runs. Whatever it accepts runs a few frames without panicking. The raw postcard
//! payload is also tried without an envelope, so the fuzzer need not forge checksums.
#![no_main]

use gobo::image::{decode, ProgramKind};
use gobo::scratch::image::Image;
use gobo::scratch::vm::{Config, Input, Vm};
use libfuzzer_sys::fuzz_target;

fn run(image: Image) {
    let cfg = Config {
        ticks_per_frame: 20,
        warp_checks: 200,
        max_clones: 10,
        max_list_len: 100,
        max_string_len: 1000,
        ..Config::default()
    };
    if let Ok(mut vm) = Vm::new(image, cfg) {
        for f in 0..5 {
            let inputs: &[Input] = if f == 0 { &[Input::GreenFlag] } else { &[] };
            vm.step_frame(inputs);
            let _ = vm.observe();
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(image) = decode(data) {
        if let Ok(program) = image.payload_as::<Image>(ProgramKind::Scratch) {
            run(program);
        }
    }
    if let Ok((program, _)) = postcard::take_from_bytes::<Image>(data) {
        run(program);
    }
});
