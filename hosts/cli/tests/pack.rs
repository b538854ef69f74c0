//! `gobo pack` end to end: writes decodable XLogo, Scratch and drawing images (the checked-in
//! kit samples `firmware/images/ball.bin` and `drawing.bin` are exactly what packing their
//! sources gives), shrinks costumes that do not fit, refuses what it cannot pack without
//! writing anything, and names the kits.

use std::path::PathBuf;
use std::process::Command;

fn gobo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gobo"))
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../core/tests/fixtures/kit").join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobo-pack-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn packs_an_xlogo_task_for_each_kit() {
    for kit in ["lm3s6965", "clue"] {
        let out = scratch(&format!("square-{kit}.bin"));
        let run = gobo()
            .args(["pack", "--kit", kit, "--code"])
            .arg(fixture("square-code.py"))
            .arg(fixture("square-task.json"))
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let bytes = std::fs::read(&out).unwrap();
        let img = gobo::image::decode(&bytes).unwrap();
        assert_eq!(img.kind, gobo::image::ProgramKind::XLogo);
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(stdout.contains(&format!("{} bytes of", bytes.len())), "{stdout}");
    }
}

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

#[test]
fn packs_the_scratch_sample_as_checked_in() {
    let out = scratch("ball.bin");
    let run = gobo()
        .args(["pack", "--kit", "lm3s6965", "-o"])
        .arg(&out)
        .arg(repo("firmware/images/src/ball"))
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(gobo::image::decode(&bytes).unwrap().kind, gobo::image::ProgramKind::Scratch);
    let checked_in = std::fs::read(repo("firmware/images/ball.bin")).unwrap();
    assert!(bytes == checked_in, "firmware/images/ball.bin is stale: repack it (docs/firmware.md)");
}

#[test]
fn shrinks_costumes_until_a_scratch_project_fits() {
    // A striped 480x360 backdrop: 240x180 RGBA pixels on the CLUE (172,800 bytes) do not fit
    // the 160 KiB heap; half the resolution does.
    let dir = scratch("striped");
    std::fs::create_dir_all(&dir).unwrap();
    let sample = repo("firmware/images/src/ball");
    for f in ["project.json", "ball.svg"] {
        std::fs::copy(sample.join(f), dir.join(f)).unwrap();
    }
    let stripes: String = (0..48)
        .map(|i| {
            format!(r##"<rect x="{}" width="5" height="360" fill="#{:02x}4d8f"/>"##, i * 10, i * 5)
        })
        .collect();
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360">{stripes}</svg>"#
    );
    std::fs::write(dir.join("backdrop.svg"), svg).unwrap();
    let out = scratch("striped.bin");
    let run = gobo().args(["pack", "--kit", "clue", "-o"]).arg(&out).arg(&dir).output().unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(stdout.contains("costumes at 1/2 of the display's resolution to fit"), "{stdout}");

    // On the emulated kit the full-resolution backdrop (85x64 RGBA pixels, 21,760 bytes) fits the
    // flash but not the 44 KiB heap beside the pen layer of the same size; half the resolution
    // fits.
    let run = gobo().args(["pack", "--kit", "lm3s6965", "-o"]).arg(&out).arg(&dir).output();
    let run = run.unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(stdout.contains("costumes at 1/2 of the display's resolution to fit"), "{stdout}");
}

#[test]
fn packs_the_drawing_sample_as_checked_in_and_scores_it_for_a_task() {
    let out = scratch("drawing.bin");
    let source = repo("firmware/images/src/house-actions.json");
    let run = gobo()
        .args(["pack", "--kind", "drawing", "--kit", "lm3s6965", "-o"])
        .arg(&out)
        .arg(&source)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let bytes = std::fs::read(&out).unwrap();
    let checked_in = std::fs::read(repo("firmware/images/drawing.bin")).unwrap();
    assert!(
        bytes == checked_in,
        "firmware/images/drawing.bin is stale: repack it (docs/firmware.md)"
    );

    // With a task the kind is implied and the image carries the drawingbench-1.0 score.
    let run = gobo()
        .args(["pack", "--kit", "clue", "--task"])
        .arg(repo("examples/drawing/red-circle.task.json"))
        .arg(repo("examples/drawing/red_circle.json"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let bytes = std::fs::read(&out).unwrap();
    let img = gobo::image::decode(&bytes).unwrap();
    let program: gobo::kit::drawing::DrawingProgram<'_> =
        img.payload_as(gobo::image::ProgramKind::Drawing).unwrap();
    let eval = gobo()
        .args(["draw", "eval", "--task"])
        .arg(repo("examples/drawing/red-circle.task.json"))
        .arg(repo("examples/drawing/red_circle.json"))
        .output()
        .unwrap();
    let row: serde_json::Value = serde_json::from_slice(&eval.stdout).unwrap();
    assert_eq!(program.score, row["score"].as_f64());
    assert!(program.score.is_some());
}

#[test]
fn refuses_malformed_actions_unknown_kits_and_bad_code_without_writing() {
    let out = scratch("refused.bin");
    let _ = std::fs::remove_file(&out);
    let actions = scratch("not-a-list.json");
    std::fs::write(&actions, r#"{"action": "click"}"#).unwrap();
    let run = gobo()
        .args(["pack", "--kind", "drawing", "--kit", "clue", "-o"])
        .arg(&out)
        .arg(&actions)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(err.trim(), "gobo pack: actions: actions must be a JSON list, found dict");

    let run = gobo().args(["pack", "t.json", "--kit", "arduino", "-o"]).arg(&out).output().unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("kits: lm3s6965, clue"));

    let bad = scratch("bad.py");
    std::fs::write(&bad, "def run():\n    fly()\n").unwrap();
    let run = gobo()
        .args(["pack", "--kit", "lm3s6965", "--code"])
        .arg(&bad)
        .arg(fixture("square-task.json"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).starts_with("gobo pack: code: "));
    assert!(!out.exists(), "nothing may be written on refusal");
}
