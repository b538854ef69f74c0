//! `gobo probe` and `gobo verify` on hand-made candidates of the forge corpus's clicker
//! (`tests-support/forge-corpus/clicker`) with the suite `fixtures/signals/clicker.suite.json`
//! (three clicks make `clicks` 3 and `level` 2): the gold program, a buggy one (a click adds
//! 0 and the level-up sets 1), a half fix (the click repaired, the level-up not), and a patch
//! that breaks loading. Each gets the expected escalation level and failing stage.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const SUITE: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/signals/clicker.suite.json");
const GOLD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests-support/forge-corpus/clicker");

/// An edit of the clicker's `project.json`.
#[derive(Clone, Copy)]
enum Edit {
    /// Sets the number literal of `block`'s `VALUE` input.
    Literal(&'static str, &'static str),
    /// Replaces the whole file by text that is not JSON.
    Garble,
}

/// Cob7 is `change clicks by 1` (the click handler); a bug makes it add 0.
const CLICK_BROKEN: Edit = Edit::Literal("Cob7", "0");
/// Cob15 is `set level to 2` (after the third click); a bug makes it set 1.
const LEVEL_BROKEN: Edit = Edit::Literal("Cob15", "1");

/// The clicker with `edits` applied to its `project.json`, as a project folder.
fn candidate(name: &str, edits: &[Edit]) -> PathBuf {
    let gold = root().join("tests-support/forge-corpus/clicker");
    let dir = std::env::temp_dir().join(format!("gobo-signals-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("assets")).unwrap();
    for e in fs::read_dir(gold.join("assets")).unwrap().flatten() {
        fs::copy(e.path(), dir.join("assets").join(e.file_name())).unwrap();
    }
    let mut doc: Value =
        serde_json::from_str(&fs::read_to_string(gold.join("project.json")).unwrap()).unwrap();
    let mut text = None;
    for e in edits {
        match *e {
            Edit::Literal(block, value) => {
                let targets = doc["targets"].as_array_mut().unwrap();
                let t = targets.iter_mut().find(|t| t["blocks"].get(block).is_some()).unwrap();
                t["blocks"][block]["inputs"]["VALUE"][1][1] = Value::from(value);
            }
            Edit::Garble => text = Some(String::from("{\"targets\": [")),
        }
    }
    let text = text.unwrap_or_else(|| serde_json::to_string(&doc).unwrap());
    fs::write(dir.join("project.json"), text).unwrap();
    dir
}

fn gobo(args: &[&str], paths: &[&Path]) -> (i32, Value, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gobo"));
    cmd.args(args.iter().take(1));
    for p in paths {
        cmd.arg(p);
    }
    cmd.args(args.iter().skip(1));
    let out = cmd.output().expect("gobo runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = serde_json::from_str(text.trim()).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), json, String::from_utf8_lossy(&out.stderr).into_owned())
}

fn probe(buggy: &Path) -> Value {
    let args = ["probe", "--gold", GOLD, "--suite", SUITE, "--json"];
    let (code, json, err) = gobo(&args, &[buggy]);
    assert_eq!(code, 0, "probe: {err}");
    json
}

fn verify(candidate: &Path, level: &str) -> (i32, Value) {
    let args = ["verify", "--suite", SUITE, "--level", level, "--json"];
    let (code, json, err) = gobo(&args, &[candidate]);
    assert!(code == 0 || code == 1, "verify: {err}");
    (code, json)
}

fn stages(v: &Value) -> Vec<(String, bool)> {
    v["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["stage"].as_str().unwrap().to_string(), s["passed"].as_bool().unwrap()))
        .collect()
}

fn st(list: &[(&str, bool)]) -> Vec<(String, bool)> {
    list.iter().map(|(s, p)| (s.to_string(), *p)).collect()
}

#[test]
fn gold_probes_at_level_zero_and_verifies_at_every_level() {
    let gold = candidate("gold", &[]);
    let p = probe(&gold);
    assert_eq!(p["gold_pass_rate"], 1.0);
    assert_eq!(p["buggy_pass_rate"], 1.0);
    assert_eq!(p["pass_gap"], 0.0);
    assert_eq!(p["mismatch_rate"], 0.0);
    assert_eq!(p["first_divergence"], Value::Null);
    assert_eq!(p["level"], 0);
    assert_eq!(p["plan"], "text-min");
    assert!(p["work"]["frames"].as_u64().unwrap() > 0 && p["work"]["runs"] == 4, "{p}");
    assert!(p["time"]["wall_ms"].as_f64().unwrap() > 0.0, "{p}");
    for (level, expect) in [
        ("0", st(&[("static", true)])),
        ("1", st(&[("static", true), ("smoke", true)])),
        ("2", st(&[("static", true), ("smoke", true), ("full", true)])),
    ] {
        let (code, v) = verify(&gold, level);
        assert_eq!((code, stages(&v)), (0, expect), "level {level}: {v}");
        assert_eq!(v["failed_stage"], Value::Null);
    }
}

#[test]
fn buggy_program_diverges_early_and_fails_the_smoke_stage() {
    let buggy = candidate("buggy", &[CLICK_BROKEN, LEVEL_BROKEN]);
    let p = probe(&buggy);
    assert_eq!(p["gold_pass_rate"], 1.0);
    assert_eq!(p["buggy_pass_rate"], 0.0);
    assert_eq!(p["pass_gap"], 1.0);
    let d = &p["first_divergence"];
    // The first click lands at 1 s (frame 30): `clicks` stays 0 from the next frame on.
    assert_eq!(d["signal"], "vars:clicks", "{p}");
    assert!(d["frame"].as_u64().unwrap() <= 90, "{p}");
    assert_eq!(p["flags"]["early"], true);
    assert_eq!(p["flags"]["unstable"], false);
    assert!(p["mismatch_rate"].as_f64().unwrap() > 0.0);
    assert!(p["level"].as_u64().unwrap() >= 1);
    let (code, v) = verify(&buggy, "0");
    assert_eq!((code, stages(&v)), (0, st(&[("static", true)])), "{v}");
    let (code, v) = verify(&buggy, "2");
    assert_eq!((code, stages(&v)), (1, st(&[("static", true), ("smoke", false)])), "{v}");
    assert_eq!(v["failed_stage"], "smoke");
    let reason = v["stages"][1]["reason"].as_str().unwrap();
    assert!(reason.contains("three clicks") && reason.contains("clicks"), "{reason}");
}

#[test]
fn half_fix_diverges_late_at_a_lower_level_and_still_fails() {
    // The click is repaired, the level-up is not: `level` differs only after the third click
    // (3.5 s, frame 105), so the divergence is not early and the state mismatch is narrow.
    let half = candidate("half", &[LEVEL_BROKEN]);
    let p = probe(&half);
    assert_eq!(p["pass_gap"], 1.0);
    let d = &p["first_divergence"];
    assert_eq!(d["signal"], "vars:level", "{p}");
    assert!(d["frame"].as_u64().unwrap() > 90, "{p}");
    assert_eq!(p["flags"]["early"], false);
    assert_eq!(p["level"], 0, "{p}");
    let buggy = probe(&candidate("buggy2", &[CLICK_BROKEN, LEVEL_BROKEN]));
    assert!(p["mismatch_rate"].as_f64() < buggy["mismatch_rate"].as_f64(), "{p} {buggy}");
    let (code, v) = verify(&half, "1");
    assert_eq!((code, stages(&v)), (1, st(&[("static", true), ("smoke", false)])), "{v}");
    assert!(v["stages"][1]["reason"].as_str().unwrap().contains("level"), "{v}");
}

#[test]
fn a_patch_that_breaks_loading_fails_the_static_stage() {
    let broken = candidate("broken", &[Edit::Garble]);
    for level in ["0", "2"] {
        let (code, v) = verify(&broken, level);
        assert_eq!((code, stages(&v)), (1, st(&[("static", false)])), "{v}");
        assert_eq!(v["failed_stage"], "static");
        assert!(v["stages"][0]["reason"].as_str().unwrap().starts_with("load"), "{v}");
    }
    // A probe needs a buggy program that loads: bad input.
    let args = ["probe", "--gold", GOLD, "--suite", SUITE];
    let (code, _, err) = gobo(&args, &[&broken]);
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("gobo probe: "), "{err}");
}

#[test]
fn bad_suites_and_levels_are_bad_input() {
    let gold = candidate("gold-bad", &[]);
    let junk = gold.join("junk.json");
    fs::write(&junk, "{\"version\": 1, \"tests\": 3}").unwrap();
    let (code, _, err) = gobo(&["verify", "--suite", junk.to_str().unwrap()], &[&gold]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = gobo(&["verify", "--suite", SUITE, "--level", "3"], &[&gold]);
    assert_eq!(code, 2, "{err}");
    let args = ["probe", "--gold", gold.to_str().unwrap(), "--suite", SUITE, "--frames", "100000"];
    let (code, _, err) = gobo(&args, &[&gold]);
    assert_eq!((code, err.contains("frames")), (2, true), "{err}");
}

#[test]
fn hooks_of_the_clicker() {
    let (code, json, err) = gobo(&["hooks", "--json"], &[Path::new(GOLD)]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<(String, String, Vec<String>)> = json["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let writes = h["writes"].as_array().unwrap();
            (
                h["sprite"].as_str().unwrap().to_string(),
                h["trigger"].as_str().unwrap().to_string(),
                writes.iter().map(|w| w.as_str().unwrap().to_string()).collect(),
            )
        })
        .collect();
    let row = |s: &str, t: &str, w: &[&str]| {
        (s.to_string(), t.to_string(), w.iter().map(|x| x.to_string()).collect::<Vec<_>>())
    };
    assert!(
        rows.contains(&row("Cookie", "green_flag", &["costume", "vars:clicks", "vars:level"])),
        "{json}"
    );
    assert!(
        rows.contains(&row("Cookie", "click:Cookie", &["costume", "vars:clicks", "vars:level"])),
        "{json}"
    );
}
