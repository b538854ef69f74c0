//! `gobo patch apply|invert` and `gobo json-patch` end to end: apply-then-invert giving back the
//! same project.json on every example project, deterministic `.sb3` repacks, typed failures
//! naming the edit, and exit codes 0 (applied), 1 (the patch does not apply), 2 (bad input).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn gobo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gobo"))
}

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobo-patch-cmds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn run(args: &[&Path]) -> Output {
    let out = gobo().args(args).output().unwrap();
    assert!(out.status.code().is_some(), "gobo was killed");
    out
}

fn ok(out: &Output) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn json(out: &Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A patch for a project: a new variable, a new block after the first sprite's first hat, the
/// rest of that script removed, the hat moved.
fn patch_for(project: &serde_json::Value) -> Option<String> {
    let targets = project["targets"].as_array()?;
    for t in targets.iter().filter(|t| t["isStage"] == false) {
        let blocks = t["blocks"].as_object()?;
        let Some((hat, block)) =
            blocks.iter().find(|(_, b)| b["topLevel"] == true && b["next"].is_string())
        else {
            continue;
        };
        let name = t["name"].as_str()?;
        let next = block["next"].as_str()?;
        return Some(format!(
            r#"[{{"op":"add","sprite_id":"{name}","variable":{{"name":"gobo patch test","value":7}}}},
            {{"op":"add","sprite_id":"{name}","block":{{"opcode":"looks_say","id":"gobo-new","inputs":{{"MESSAGE":"patched"}}}},"link":{{"after":"{hat}"}}}},
            {{"op":"remove","sprite_id":"{name}","block_id":"{next}","mode":"stack"}},
            {{"op":"modify","sprite_id":"{name}","block_id":"{hat}","path":"position","value":{{"x":5,"y":-5}}}}]"#
        ));
    }
    None
}

#[test]
fn apply_then_invert_gives_back_the_same_project_json_on_every_example() {
    let mut checked = 0;
    for entry in std::fs::read_dir(repo("examples/scratch")).unwrap() {
        let project = entry.unwrap().path().join("project.json");
        let Ok(bytes) = std::fs::read(&project) else { continue };
        let name = project.parent().unwrap().file_name().unwrap().to_string_lossy().to_string();
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let patch_text = patch_for(&value).unwrap_or_else(|| panic!("{name}: no script"));
        let patch = tmp(&format!("{name}.patch.json"));
        std::fs::write(&patch, patch_text).unwrap();
        // The empty patch gives the project as gobo writes it, the reference for the round trip.
        let empty = tmp(&format!("{name}.empty.json"));
        std::fs::write(&empty, "[]").unwrap();
        let normal = tmp(&format!("{name}.normal.json"));
        ok(&run(&["patch".as_ref(), "apply".as_ref(), &project, &empty, "-o".as_ref(), &normal]));
        let patched = tmp(&format!("{name}.patched.json"));
        let out = run(&[
            "patch".as_ref(),
            "apply".as_ref(),
            &project,
            &patch,
            "-o".as_ref(),
            &patched,
            "--json".as_ref(),
        ]);
        ok(&out);
        let report = json(&out);
        assert_eq!((report["ok"].clone(), report["edits"].clone()), (true.into(), 4.into()));
        assert_eq!(report["created"][1]["id"], "gobo-new", "{name}: {report}");
        let after: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&patched).unwrap()).unwrap();
        assert!(after.to_string().contains("gobo patch test"), "{name}");
        assert_ne!(std::fs::read(&patched).unwrap(), std::fs::read(&normal).unwrap());
        let out = run(&["patch".as_ref(), "invert".as_ref(), &project, &patch]);
        ok(&out);
        let inverse = tmp(&format!("{name}.inverse.json"));
        std::fs::write(&inverse, &out.stdout).unwrap();
        let back = tmp(&format!("{name}.back.json"));
        ok(&run(&["patch".as_ref(), "apply".as_ref(), &patched, &inverse, "-o".as_ref(), &back]));
        assert_eq!(
            String::from_utf8(std::fs::read(&back).unwrap()).unwrap(),
            String::from_utf8(std::fs::read(&normal).unwrap()).unwrap(),
            "{name}: apply then invert"
        );
        checked += 1;
    }
    assert!(checked >= 4, "{checked} examples");
}

#[test]
fn failures_name_the_edit_and_exit_1() {
    let project = repo("examples/scratch/timing/project.json");
    let patch = tmp("unknown-block.json");
    std::fs::write(
        &patch,
        r#"[{"op":"add","sprite_id":"Ball","variable":{"name":"v"}},{"op":"remove","sprite_id":"Ball","block_id":"no-such-block"}]"#,
    )
    .unwrap();
    let out = run(&["patch".as_ref(), "apply".as_ref(), &project, &patch]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("gobo: ") && err.contains("edit 1: UNKNOWN_BLOCK"), "{err}");
    let out = run(&["patch".as_ref(), "apply".as_ref(), &project, &patch, "--json".as_ref()]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["ok"], false);
    assert_eq!(v["stage"], "apply");
    assert_eq!(v["error"]["code"], "UNKNOWN_BLOCK");
    assert_eq!(v["error"]["index"], 1);
    let out = run(&["patch".as_ref(), "invert".as_ref(), &project, &patch]);
    assert_eq!(out.status.code(), Some(1));
    // Not a patch: a schema failure; a project that cannot be read: bad input.
    std::fs::write(&patch, "{\"op\": 3}").unwrap();
    let v = json(&run(&["patch".as_ref(), "apply".as_ref(), &project, &patch, "--json".as_ref()]));
    assert_eq!(
        (v["stage"].as_str(), v["error"]["code"].as_str()),
        (Some("schema"), Some("SCHEMA"))
    );
    let out = run(&["patch".as_ref(), "apply".as_ref(), "no/such/project.sb3".as_ref(), &patch]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

#[test]
fn json_patch_format_and_deterministic_sb3_repack() {
    let project = repo("examples/scratch/timing/project.json");
    let patch = tmp("reply.txt");
    std::fs::write(
        &patch,
        "The fix:\n```json\n[{\"op\":\"add\",\"path\":\"/targets/@Ball/variables/gv\",\"value\":[\"g\",1]}]\n```\n",
    )
    .unwrap();
    let (a, b) = (tmp("a.sb3"), tmp("b.sb3"));
    for out in [&a, &b] {
        let o = run(&[
            "patch".as_ref(),
            "apply".as_ref(),
            &project,
            &patch,
            "--format".as_ref(),
            "json-patch".as_ref(),
            "-o".as_ref(),
            out,
            "--json".as_ref(),
        ]);
        ok(&o);
        let v = json(&o);
        assert_eq!(v["normalized"][0]["step"], "target_name");
        assert_eq!(v["output"]["sha256"].as_str().unwrap().len(), 64);
    }
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(bytes, std::fs::read(&b).unwrap(), "same inputs, same archive");
    assert_eq!(&bytes[..2], b"PK");
    let out = run(&["validate".as_ref(), &a, "--json".as_ref()]);
    assert_ne!(out.status.code(), Some(2), "the repack loads");
    // A failing operation: stage apply, its index and RFC 6902 reason; exit 1.
    std::fs::write(&patch, r#"[{"op":"remove","path":"/targets/9"}]"#).unwrap();
    let args: [&Path; 7] = [
        "patch".as_ref(),
        "apply".as_ref(),
        &project,
        &patch,
        "--format".as_ref(),
        "json-patch".as_ref(),
        "--json".as_ref(),
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!((v["stage"].as_str(), v["error"]["index"].as_u64()), (Some("apply"), Some(0)));
    assert_eq!(v["error"]["code"], "out_of_bounds");
}

#[test]
fn generic_json_patch_command() {
    let (doc, patch) = (tmp("doc.json"), tmp("ops.json"));
    std::fs::write(&doc, r#"{"b":1,"a/b":[1,2]}"#).unwrap();
    std::fs::write(
        &patch,
        r#"[{"op":"add","path":"/a~1b/-","value":3},{"op":"move","from":"/b","path":"/c"},{"op":"test","path":"/c","value":1}]"#,
    )
    .unwrap();
    let out = run(&["json-patch".as_ref(), &doc, &patch]);
    ok(&out);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), r#"{"a/b":[1,2,3],"c":1}"#);
    std::fs::write(&patch, r#"[{"op":"test","path":"/b","value":2}]"#).unwrap();
    let out = run(&["json-patch".as_ref(), &doc, &patch]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("test_failed"));
    std::fs::write(&patch, "not json").unwrap();
    assert_eq!(run(&["json-patch".as_ref(), &doc, &patch]).status.code(), Some(2));
}

#[test]
fn diff_gives_a_patch_from_broken_to_fixed() {
    for name in ["keys", "quiz", "timing"] {
        let broken = repo(&format!("examples/scratch/{name}/broken.json"));
        let fixed = repo(&format!("examples/scratch/{name}/project.json"));
        let out = run(&["patch".as_ref(), "diff".as_ref(), &broken, &fixed]);
        ok(&out);
        let patch = tmp(&format!("{name}.diff.json"));
        std::fs::write(&patch, &out.stdout).unwrap();
        let patched = tmp(&format!("{name}.fixed.json"));
        ok(&run(&["patch".as_ref(), "apply".as_ref(), &broken, &patch, "-o".as_ref(), &patched]));
        let scripts = |path: &Path| -> Vec<serde_json::Value> {
            let v: serde_json::Value =
                serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
            let targets = v["targets"].as_array().unwrap().iter();
            targets.map(|t| serde_json::json!([t["blocks"], t["variables"], t["lists"]])).collect()
        };
        // The fixed project as gobo writes it (the empty patch), to compare like with like.
        let empty = tmp(&format!("{name}.fixed-empty.json"));
        std::fs::write(&empty, "[]").unwrap();
        let normal = tmp(&format!("{name}.fixed-normal.json"));
        ok(&run(&["patch".as_ref(), "apply".as_ref(), &fixed, &empty, "-o".as_ref(), &normal]));
        assert_eq!(scripts(&patched), scripts(&normal), "{name}");
        let atoms =
            json(&run(&["patch".as_ref(), "diff".as_ref(), &broken, &fixed, "--atoms".as_ref()]));
        assert!(!atoms.as_array().unwrap().is_empty(), "{name}");
    }
}
