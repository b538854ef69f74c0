//! `gobo pack` end to end: writes a decodable XLogo image, refuses what it cannot pack without
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

#[test]
fn refuses_scratch_unknown_kits_and_bad_code_without_writing() {
    let out = scratch("refused.bin");
    let _ = std::fs::remove_file(&out);
    let run = gobo().args(["pack", "game.sb3", "--kit", "clue", "-o"]).arg(&out).output().unwrap();
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("cannot pack scratch programs: "), "{err}");

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
