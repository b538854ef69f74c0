//! `gobo record` end to end on the forge corpus's costume animation: the number of frames
//! written, the animated PNG's frame count read back, the side-by-side width with --gold,
//! keyframes and contact sheet, and byte-identical output on a second run.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const PROJECT: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests-support/forge-corpus/animation");
const GOLD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests-support/forge-corpus/dance");

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobo-record-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

fn record(dir: &Path, extra: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_gobo"))
        .args(["record", PROJECT, "--frames", "60", "--every", "6", "--json", "-o"])
        .arg(dir)
        .args(extra)
        .output()
        .expect("gobo runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    serde_json::from_slice(&out.stdout).expect("JSON manifest")
}

/// (width, height, frames of the animation control chunk, frames decoded).
fn png_info(path: &Path) -> (u32, u32, u32, u32) {
    let bytes = fs::read(path).unwrap();
    let mut reader = png::Decoder::new(bytes.as_slice()).read_info().unwrap();
    let (w, h) = (reader.info().width, reader.info().height);
    let declared = reader.info().animation_control().map_or(1, |a| a.num_frames);
    let mut buf = vec![0; reader.output_buffer_size()];
    let mut decoded = 0;
    while reader.next_frame(&mut buf).is_ok() {
        decoded += 1;
    }
    (w, h, declared, decoded)
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), fs::read(e.path()).unwrap()))
        .collect();
    v.sort();
    v
}

#[test]
fn frames_keyframes_sheet_and_animation() {
    let dir = out_dir("one");
    let m = record(&dir, &[]);
    // Frames 0, 6, ..., 54.
    assert_eq!(m["samples"].as_array().unwrap().len(), 10, "{m}");
    let pngs = files(&dir).iter().filter(|(n, _)| n.starts_with("frame-")).count();
    assert_eq!(pngs, 10);
    assert_eq!(png_info(&dir.join("frame-00054.png")), (480, 360, 1, 1));
    assert_eq!(png_info(&dir.join("clip.png")), (480, 360, 10, 10));
    let keys = m["keyframes"].as_array().unwrap();
    assert!(!keys.is_empty() && keys.len() <= 4 && keys[0] == 0, "{m}");
    // Two keyframes or fewer: one row of half-size pictures.
    let (w, h, _, _) = png_info(&dir.join("sheet.png"));
    assert_eq!(
        (w, h),
        if keys.len() <= 2 {
            (240 * keys.len() as u32 + 8 * (keys.len() as u32 - 1), 180)
        } else {
            (488, 368)
        }
    );
    assert_eq!(m["work"]["images"], 12);
    assert!(m["work"]["image_bytes"].as_u64().unwrap() > 0);
    assert!(m["time"]["wall_ms"].as_f64().unwrap() > 0.0);
    let manifest: Value =
        serde_json::from_slice(&fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["samples"], m["samples"]);
    // The same run again: the same bytes.
    let again = out_dir("two");
    record(&again, &[]);
    assert_eq!(files(&dir), files(&again));
}

#[test]
fn gold_and_candidate_side_by_side() {
    let dir = out_dir("vs");
    let m = record(&dir, &["--gold", GOLD]);
    assert_eq!((m["width"].as_u64(), m["side_by_side"].as_bool()), (Some(968), Some(true)));
    assert_eq!(png_info(&dir.join("frame-00000.png")), (968, 360, 1, 1));
    assert_eq!(png_info(&dir.join("clip.png")), (968, 360, 10, 10));
}

#[test]
fn absurd_parameters_are_bad_input() {
    let dir = out_dir("bad");
    for extra in [["--every", "0"], ["--frames", "100000000"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_gobo"))
            .args(["record", PROJECT, "-o"])
            .arg(&dir)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
    }
}
