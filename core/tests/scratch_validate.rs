//! Structural validation (`gobo::scratch::project::validate`): every project fixture and
//! golden (and `../shared/refvm`'s projects) validates without errors; hand-made damage is
//! found with the right code and JSON Pointer; one test per check family.

use std::path::{Path, PathBuf};

use gobo::scratch::project::validate::{self, Finding, Severity};
use gobo::scratch::project::{self, LoadOptions};

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            json_files(&p, out);
        } else if p.file_name().is_some_and(|n| n == "project.json")
            || p.parent().is_some_and(|d| d.ends_with("scratch"))
                && p.extension().is_some_and(|e| e == "json")
        {
            out.push(p);
        }
    }
}

fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("GOBO_SHARED") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    dir.is_dir().then_some(dir)
}

fn errors_of(path: &Path) -> Option<Vec<Finding>> {
    let bytes = std::fs::read(path).ok()?;
    let p = project::load_with(&bytes, &LoadOptions { repair_references: true }).ok()?;
    Some(validate::validate(&p).into_iter().filter(|f| f.severity == Severity::Error).collect())
}

#[test]
fn own_fixtures_have_no_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in
        ["tests/fixtures", "tests/golden", "../examples/scratch", "../hosts/cli/tests/fixtures"]
    {
        json_files(&root.join(d), &mut files);
    }
    let mut report = Vec::new();
    let mut checked = 0;
    for f in &files {
        let Some(errors) = errors_of(f) else { continue };
        checked += 1;
        for e in errors {
            report.push(format!("{}: {e}", f.display()));
        }
    }
    println!("validated {checked} projects");
    assert!(checked > 20, "fixtures missing ({checked})");
    assert!(report.is_empty(), "{}", report.join("\n"));
}

const BASE: &str = include_str!("fixtures/edit/base.json");

/// The base fixture with `change` applied to its JSON, loaded (repairing references), validated.
fn findings_after(change: impl FnOnce(&mut serde_json::Value)) -> Vec<Finding> {
    let mut v: serde_json::Value = serde_json::from_str(BASE).unwrap();
    change(&mut v);
    let bytes = serde_json::to_vec(&v).unwrap();
    let p = project::load_with(&bytes, &LoadOptions { repair_references: true }).expect("loads");
    validate::validate(&p)
}

fn has(findings: &[Finding], code: &str, path: &str, severity: Severity) -> bool {
    findings.iter().any(|f| f.code == code && f.path == path && f.severity == severity)
}

fn cat(v: &mut serde_json::Value) -> &mut serde_json::Value {
    &mut v["targets"][1]["blocks"]
}

#[test]
fn base_fixture_is_clean() {
    let f = findings_after(|_| {});
    assert!(f.is_empty(), "{f:#?}");
}

#[test]
fn forest_damage() {
    let f = findings_after(|v| cat(v)["l2"]["next"] = "l".into());
    assert!(
        has(&f, "CYCLE", "/targets/1/blocks/l/next", Severity::Error)
            || f.iter().any(|x| x.code == "CYCLE"),
        "{f:#?}"
    );
    let f = findings_after(|v| cat(v)["l"]["next"] = "a".into());
    assert!(f.iter().any(|x| x.code == "SHARED_BLOCK" && x.severity == Severity::Error), "{f:#?}");
    let f = findings_after(|v| cat(v)["l"]["next"] = "nope".into());
    assert!(has(&f, "DANGLING_REFERENCE", "/targets/1/blocks/l/next", Severity::Error), "{f:#?}");
}

#[test]
fn parent_top_level_and_shadow_flags() {
    let f = findings_after(|v| cat(v)["a"]["parent"] = "l".into());
    assert!(has(&f, "PARENT_MISMATCH", "/targets/1/blocks/a/parent", Severity::Warning), "{f:#?}");
    let f = findings_after(|v| cat(v)["a"]["topLevel"] = true.into());
    assert!(has(&f, "TOP_LEVEL_CHILD", "/targets/1/blocks/a/topLevel", Severity::Error), "{f:#?}");
    let f = findings_after(|v| cat(v)["l"]["topLevel"] = false.into());
    assert!(has(&f, "ORPHAN_BLOCK", "/targets/1/blocks/l/topLevel", Severity::Warning), "{f:#?}");
    let f = findings_after(|v| {
        cat(v)["l"].as_object_mut().unwrap().remove("x");
    });
    assert!(has(&f, "MISSING_POSITION", "/targets/1/blocks/l", Severity::Warning), "{f:#?}");
    let f = findings_after(|v| cat(v)["l2"]["shadow"] = true.into());
    assert!(has(&f, "SHADOW_MISUSE", "/targets/1/blocks/l/next", Severity::Error), "{f:#?}");
    let f = findings_after(|v| cat(v)["g"]["inputs"]["TO"] = serde_json::json!([2, "gm"]));
    assert!(has(&f, "INPUT_KIND", "/targets/1/blocks/g/inputs/TO", Severity::Warning), "{f:#?}");
    let f = findings_after(|v| {
        cat(v)["e"]["inputs"]["MESSAGE"] = serde_json::json!([3, "r", "l2"]);
        cat(v)["l"]["next"] = serde_json::Value::Null;
    });
    assert!(
        has(&f, "SHADOW_MISUSE", "/targets/1/blocks/e/inputs/MESSAGE/2", Severity::Error),
        "{f:#?}"
    );
}

#[test]
fn references_by_id() {
    let f = findings_after(|v| {
        cat(v)["sv"]["fields"]["VARIABLE"] = serde_json::json!(["speed", "gone"])
    });
    assert!(
        has(&f, "UNKNOWN_VARIABLE", "/targets/1/blocks/sv/fields/VARIABLE", Severity::Error),
        "{f:#?}"
    );
    let f =
        findings_after(|v| cat(v)["sv"]["fields"]["VARIABLE"] = serde_json::json!(["items", "ls"]));
    assert!(
        has(&f, "WRONG_REFERENCE_KIND", "/targets/1/blocks/sv/fields/VARIABLE", Severity::Error),
        "{f:#?}"
    );
    let f =
        findings_after(|v| cat(v)["sv"]["fields"]["VARIABLE"] = serde_json::json!(["fast", "vl"]));
    assert!(
        has(&f, "REFERENCE_NAME", "/targets/1/blocks/sv/fields/VARIABLE", Severity::Warning),
        "{f:#?}"
    );
    let f = findings_after(|v| {
        cat(v)["r"]["inputs"]["NUM2"] = serde_json::json!([3, [12, "score", "zz"], [4, "2"]])
    });
    assert!(
        has(&f, "UNKNOWN_VARIABLE", "/targets/1/blocks/r/inputs/NUM2/1", Severity::Error),
        "{f:#?}"
    );
    let f = findings_after(|v| {
        cat(v)["b"] = serde_json::json!({"opcode":"event_whenbroadcastreceived","next":null,"parent":null,"inputs":{},"fields":{"BROADCAST_OPTION":["go","nope"]},"shadow":false,"topLevel":true,"x":0,"y":900});
    });
    assert!(
        has(
            &f,
            "UNKNOWN_BROADCAST",
            "/targets/1/blocks/b/fields/BROADCAST_OPTION",
            Severity::Error
        ),
        "{f:#?}"
    );
    let f =
        findings_after(|v| v["targets"][1]["variables"]["v2"] = serde_json::json!(["score", 1]));
    assert!(has(&f, "DUPLICATE_NAME", "/targets/1/variables/v2", Severity::Warning), "{f:#?}");
}

#[test]
fn opcodes_and_shapes() {
    let f = findings_after(|v| cat(v)["l2"]["opcode"] = "looks_nonsense".into());
    assert!(has(&f, "UNKNOWN_OPCODE", "/targets/1/blocks/l2/opcode", Severity::Warning), "{f:#?}");
    let f = findings_after(|v| cat(v)["l2"]["opcode"] = "pen_clear".into());
    assert!(
        has(&f, "EXTENSION_NOT_DECLARED", "/targets/1/blocks/l2/opcode", Severity::Warning),
        "{f:#?}"
    );
    let f = findings_after(|v| cat(v)["l2"]["opcode"] = "motion_xposition".into());
    assert!(has(&f, "SHAPE_MISMATCH", "/targets/1/blocks/l/next", Severity::Error), "{f:#?}");
    let f = findings_after(|v| cat(v)["d"]["opcode"] = "operator_add".into());
    assert!(
        has(&f, "SHAPE_MISMATCH", "/targets/1/blocks/c/inputs/SUBSTACK/1", Severity::Error),
        "{f:#?}"
    );
    let f = findings_after(|v| cat(v)["r"]["opcode"] = "looks_show".into());
    assert!(
        has(&f, "SHAPE_MISMATCH", "/targets/1/blocks/e/inputs/MESSAGE/1", Severity::Error),
        "{f:#?}"
    );
    let f = findings_after(|v| cat(v)["l"]["opcode"] = "control_forever".into());
    assert!(has(&f, "UNREACHABLE_BLOCK", "/targets/1/blocks/l/next", Severity::Warning), "{f:#?}");
}

fn custom_blocks(v: &mut serde_json::Value, call_ids: &str, reporter: &str) {
    let blocks = cat(v);
    blocks["def"] = serde_json::json!({"opcode":"procedures_definition","next":"use","parent":null,"inputs":{"custom_block":[1,"proto"]},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":800});
    blocks["proto"] = serde_json::json!({"opcode":"procedures_prototype","next":null,"parent":"def","inputs":{"arg1":[1,"argr"]},"fields":{},"shadow":true,"topLevel":false,"mutation":{"tagName":"mutation","children":[],"proccode":"jump %s","argumentids":"[\"arg1\"]","argumentnames":"[\"height\"]","argumentdefaults":"[\"\"]","warp":"false"}});
    blocks["argr"] = serde_json::json!({"opcode":"argument_reporter_string_number","next":null,"parent":"proto","inputs":{},"fields":{"VALUE":["height",null]},"shadow":true,"topLevel":false});
    blocks["use"] = serde_json::json!({"opcode":"motion_changeyby","next":null,"parent":"def","inputs":{"DY":[3,"useArg",[4,"10"]]},"fields":{},"shadow":false,"topLevel":false});
    blocks["useArg"] = serde_json::json!({"opcode":"argument_reporter_string_number","next":null,"parent":"use","inputs":{},"fields":{"VALUE":[reporter,null]},"shadow":false,"topLevel":false});
    blocks["call"] = serde_json::json!({"opcode":"procedures_call","next":null,"parent":null,"inputs":{"arg1":[1,[10,"5"]]},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":1000,"mutation":{"tagName":"mutation","children":[],"proccode":"jump %s","argumentids":call_ids,"warp":"false"}});
}

#[test]
fn custom_blocks_against_their_prototype() {
    let f = findings_after(|v| custom_blocks(v, "[\"arg1\"]", "height"));
    assert!(f.is_empty(), "{f:#?}");
    let f = findings_after(|v| custom_blocks(v, "[\"argX\"]", "height"));
    assert!(
        has(&f, "CALL_MISMATCH", "/targets/1/blocks/call/mutation/argumentids", Severity::Error),
        "{f:#?}"
    );
    let f = findings_after(|v| custom_blocks(v, "[\"arg1\"]", "width"));
    assert!(
        has(&f, "UNKNOWN_ARGUMENT", "/targets/1/blocks/useArg/fields/VALUE", Severity::Warning),
        "{f:#?}"
    );
    let f = findings_after(|v| {
        custom_blocks(v, "[\"arg1\"]", "height");
        cat(v)["call"]["mutation"]["proccode"] = "fly %s".into();
    });
    assert!(
        has(&f, "UNKNOWN_PROCEDURE", "/targets/1/blocks/call/mutation/proccode", Severity::Error),
        "{f:#?}"
    );
    let f = findings_after(|v| {
        custom_blocks(v, "[\"arg1\"]", "height");
        cat(v)["proto"]["mutation"]["argumentnames"] = "[]".into();
    });
    assert!(
        has(
            &f,
            "PROTOTYPE_MISMATCH",
            "/targets/1/blocks/proto/mutation/argumentnames",
            Severity::Error
        ),
        "{f:#?}"
    );
}

#[test]
fn targets_costumes_assets_menus_monitors() {
    let f = findings_after(|v| v["targets"][1]["costumes"] = serde_json::json!([]));
    assert!(has(&f, "NO_COSTUMES", "/targets/1/costumes", Severity::Error), "{f:#?}");
    let f = findings_after(|v| v["targets"][1]["currentCostume"] = 3.into());
    assert!(has(&f, "COSTUME_INDEX", "/targets/1/currentCostume", Severity::Warning), "{f:#?}");
    let f = findings_after(|v| {
        let mut second = v["targets"][1].clone();
        second["blocks"] = serde_json::json!({});
        second["variables"] = serde_json::json!({});
        second["layerOrder"] = 2.into();
        v["targets"].as_array_mut().unwrap().push(second);
    });
    assert!(has(&f, "DUPLICATE_TARGET", "/targets/2/name", Severity::Error), "{f:#?}");
    let f = findings_after(|v| cat(v)["gm"]["fields"]["TO"] = serde_json::json!(["Dog", null]));
    assert!(
        has(&f, "UNKNOWN_MENU_VALUE", "/targets/1/blocks/gm/fields/TO", Severity::Warning),
        "{f:#?}"
    );
    let f = findings_after(|v| v["monitors"][0]["id"] = "nothing".into());
    assert!(has(&f, "DANGLING_MONITOR", "/monitors/0", Severity::Warning), "{f:#?}");
    // Assets: checked only when the caller says which exist.
    let p = project::load(BASE.as_bytes()).unwrap();
    let none = |_: &str| false;
    let cx = validate::Context { asset_present: Some(&none), max_findings: 0 };
    let f = validate::validate_with(&p, &cx);
    assert!(has(&f, "MISSING_ASSET", "/targets/0/costumes/0", Severity::Error), "{f:#?}");
    let cx = validate::Context { asset_present: Some(&none), max_findings: 1 };
    let f = validate::validate_with(&p, &cx);
    assert_eq!(f.len(), 2);
    assert_eq!(f[1].code, "TOO_MANY_FINDINGS");
}

#[test]
fn shared_refvm_projects_have_no_errors() {
    let Some(shared) = shared_dir() else {
        println!("skipped: ../shared is absent");
        return;
    };
    let mut files = Vec::new();
    json_files(&shared.join("refvm/bench"), &mut files);
    let mut report = Vec::new();
    for f in &files {
        for e in errors_of(f).unwrap_or_default() {
            report.push(format!("{}: {e}", f.display()));
        }
    }
    assert!(!files.is_empty(), "no shared projects found");
    assert!(report.is_empty(), "{}", report.join("\n"));
    println!("validated {} shared projects", files.len());
}
