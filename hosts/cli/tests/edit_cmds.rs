//! The project-editing commands end to end: `gobo validate`, `gobo patch apply|invert|diff`,
//! `gobo json-patch`, `gobo edit-distance`: exit codes, JSON shapes, written files.

use std::path::PathBuf;
use std::process::{Command, Output};

fn gobo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gobo"))
}

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

fn base() -> PathBuf {
    repo("core/tests/fixtures/edit/base.json")
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobo-edit-cmds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn json(out: &Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn validate_reports_findings_and_exit_codes() {
    // No assets beside the fixture: with the asset check, two missing costumes.
    let out = gobo().arg("validate").arg(base()).arg("--json").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["valid"], false);
    assert_eq!(v["errors"], 2);
    assert_eq!(v["findings"][0]["code"], "MISSING_ASSET");
    assert_eq!(v["findings"][0]["path"], "/targets/0/costumes/0");
    assert_eq!(v["findings"][0]["severity"], "error");
    let out = gobo().arg("validate").arg(base()).arg("--no-assets").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).contains("0 errors, 0 warnings"));
    let bad = tmp("bad.json");
    std::fs::write(&bad, b"{\"targets\": 3}").unwrap();
    let out = gobo().arg("validate").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("gobo: "));
}
