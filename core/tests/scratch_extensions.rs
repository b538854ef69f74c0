//! Extension blocks the reference harness cannot run (text to speech and translate need a
//! network service; the harness even fails on them), checked against the behaviour gobo
//! documents for them (docs/scratch-blocks.md), plus: an opcode of a hardware extension is a
//! compile warning naming it and a no-op; the extension goldens survive the program image's
//! postcard round trip.

use gobo::scratch::compile::compile;
use gobo::scratch::image::Image;
use gobo::scratch::project::load;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::trace::run_frames;
use gobo::scratch::vm::{Config, Vm};
use serde_json::Value as Json;

fn fixture(name: &str) -> Vec<u8> {
    let p =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scratch").join(name);
    std::fs::read(p).expect("fixture")
}

fn image_of(json: &[u8]) -> Image {
    compile(&load(json).expect("load")).expect("compile")
}

/// The `log` list of the stage after each frame.
fn logs(img: Image, frames: u64) -> Vec<Json> {
    let mut vm = Vm::new(img, Config::default()).expect("vm");
    let mut out = Vec::new();
    run_frames(&mut vm, &Scenario::green_flag(), frames, false, &mut |l| {
        let line: Json = serde_json::from_str(l).expect("trace line");
        if line.get("f").is_some() {
            out.push(line["globals"]["lists"]["log"].clone());
        }
    });
    out
}

#[test]
fn speak_waits_one_frame_and_translate_reports_offline_results() {
    let img = image_of(&fixture("extensions_offline.json"));
    let logs = logs(img, 4);
    let t = |f: usize| format!("{}", f as f64 / 30.0);
    // Frame 0 logs "a", speaks and waits; frame 1 resumes, logs "b", speaks again (its
    // words from a reporter, evaluated once); frame 2 logs the rest.
    assert_eq!(logs[0], serde_json::json!(["a 0"]));
    assert_eq!(logs[1], serde_json::json!(["a 0", format!("b {}", t(1))]));
    let want = serde_json::json!([
        "a 0",
        format!("b {}", t(1)),
        format!("c {}", t(2)),
        "",
        "0042",
        7,
        "English",
        format!("d {}", t(2))
    ]);
    assert_eq!(logs[2], want);
    assert_eq!(logs[3], want);
}

#[test]
fn hardware_extension_opcode_is_a_named_warning_and_a_no_op() {
    let img = image_of(&fixture("extensions_offline.json"));
    assert_eq!(img.warnings, ["unimplemented block: wedo2_motorOn"]);
}

#[test]
fn extension_goldens_round_trip_through_postcard() {
    for g in ["music", "makeymakey", "video"] {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden/scratch")
            .join(g)
            .join("project.json");
        let img = image_of(&std::fs::read(p).expect("golden"));
        let bytes = postcard::to_allocvec(&img).expect("serialize");
        let back: Image = postcard::from_bytes(&bytes).expect("deserialize");
        assert_eq!(back, img, "{g}");
    }
}
