//! Project model tests: load → save → load gives an equal model and save is byte-stable, for
//! every fixture under `tests/fixtures/scratch/`, every golden `project.json` under `tests/golden/scratch/` and every `project.json` of `../shared/refvm`;
//! plus what the loader keeps (ids, literal types, order, unknown keys).

#[path = "../../tests-support/reference.rs"]
mod reference;

use std::path::{Path, PathBuf};

use gobo::scratch::project::{
    self, BlockForm, InputKind, InputValue, Literal, Num, Primitive, PrimitiveKind, Project,
};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scratch")
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/scratch")
}

fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("GOBO_SHARED") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    dir.is_dir().then_some(dir)
}

fn load_file(path: &Path) -> Project {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    project::load(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Round-trips one file; returns a message on failure.
fn round_trip(path: &Path) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let first = project::load(&bytes).map_err(|e| format!("load: {e}"))?;
    let saved = project::save(&first);
    let second = project::load(&saved).map_err(|e| format!("reload: {e}"))?;
    if first != second {
        return Err("load → save → load changed the model".into());
    }
    if project::save(&second) != saved {
        return Err("save → load → save is not byte-stable".into());
    }
    Ok(())
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

#[test]
fn round_trip_every_own_fixture() {
    let mut files = Vec::new();
    json_files(&fixtures_dir(), &mut files);
    let mut goldens = Vec::new();
    json_files(&golden_dir(), &mut goldens);
    files.extend(goldens.into_iter().filter(|f| f.ends_with("project.json")));
    assert!(files.len() > 8, "fixtures missing: {files:?}");
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| round_trip(f).err().map(|e| format!("{}: {e}", f.display())))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("round-tripped {} fixtures", files.len());
}

#[test]
fn round_trip_shared_refvm_projects() {
    let Some(shared) = shared_dir() else {
        reference::skipped(
            "scratch_project::round_trip_shared_refvm_projects",
            "../shared is absent",
        );
        return;
    };
    reference::ran("scratch_project::round_trip_shared_refvm_projects");
    let mut files = Vec::new();
    json_files(&shared.join("refvm/bench"), &mut files);
    files.retain(|f| f.file_name().is_some_and(|n| n == "project.json"));
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| round_trip(f).err().map(|e| format!("{}: {e}", f.display())))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("round-tripped {} shared project.json files", files.len());
}

#[test]
fn kitchen_sink_keeps_ids_types_and_order() {
    let p = load_file(&fixtures_dir().join("kitchen_sink.json"));
    assert_eq!(p.targets.len(), 2);
    let stage = p.stage().expect("stage");
    assert_eq!(stage.name, "Stage");
    // Variables keep id, name and literal type.
    let ids: Vec<&str> = stage.variables.iter().map(|v| v.id.as_str()).collect();
    assert_eq!(ids, ["g1", "g2", "cl"]);
    assert_eq!(stage.variables[0].value, Literal::Number(Num::Int(0)));
    assert_eq!(stage.variables[1].value, Literal::Text("10".into()));
    assert_eq!(stage.variables[2].is_cloud, Some(true));
    assert_eq!(
        stage.lists[0].items,
        [
            Literal::Number(Num::Int(1)),
            Literal::Text("two".into()),
            Literal::Number(Num::Float(3.5)),
            Literal::Bool(true)
        ]
    );
    // Same variable name, different ids in different targets.
    let sprite = &p.targets[1];
    assert_eq!(sprite.variables[0].name, "score");
    assert_eq!(sprite.variables[0].id, "s1");
    // Blocks: file order, resolved references.
    let ids: Vec<&str> = stage.blocks.as_slice().iter().map(|b| b.id.as_str()).collect();
    assert_eq!(ids, ["flag", "set", "bc", "loose", "lonelist"]);
    let flag = stage.blocks.index_of("flag").unwrap();
    let set = stage.blocks.index_of("set").unwrap();
    assert_eq!(stage.blocks.get(flag).unwrap().next, Some(set));
    assert_eq!(stage.blocks.get(set).unwrap().parent, Some(flag));
    let value = stage.blocks.get(set).unwrap().input("VALUE").unwrap();
    assert_eq!(value.kind, InputKind::Shadow);
    assert_eq!(
        value.value,
        Some(InputValue::Primitive(Primitive::Literal {
            kind: PrimitiveKind::Text,
            value: Literal::Text("10".into())
        }))
    );
    // Top-level variable reporter, expanded like scratch-vm.
    let loose = stage.blocks.get(stage.blocks.index_of("loose").unwrap()).unwrap();
    assert_eq!(loose.opcode, "data_variable");
    assert_eq!(loose.form, BlockForm::Primitive(PrimitiveKind::Variable));
    assert!(loose.top_level);
    assert_eq!(loose.x, Some(Num::Int(300)));
    assert_eq!(loose.field("VARIABLE").unwrap().id.as_deref(), Some("g1"));
    let tops: Vec<&str> = stage.blocks.top_level().map(|(_, b)| b.id.as_str()).collect();
    assert_eq!(tops, ["flag", "loose", "lonelist"]);
    // Obscured input: block over a shadow.
    let call = sprite.blocks.get(sprite.blocks.index_of("call").unwrap()).unwrap();
    let arg2 = call.input("arg2").unwrap();
    assert_eq!(arg2.kind, InputKind::Obscured);
    assert_eq!(arg2.value, Some(InputValue::Block(sprite.blocks.index_of("join").unwrap())));
    // Mutations: JSON strings parsed, warp in both forms.
    let m = call.mutation.as_ref().unwrap();
    assert_eq!(m.proccode.as_deref(), Some("jump %n times %s"));
    assert_eq!(m.argument_ids.as_deref(), Some(&["arg1".to_string(), "arg2".into()][..]));
    assert!(!m.warp);
    let proto = sprite.blocks.get(sprite.blocks.index_of("proto").unwrap()).unwrap();
    let pm = proto.mutation.as_ref().unwrap();
    assert!(pm.warp);
    assert_eq!(
        pm.argument_defaults.as_deref(),
        Some(&[Literal::Number(Num::Int(1)), Literal::Text(String::new())][..])
    );
    // Unknown keys are kept.
    assert!(stage.extra.iter().any(|(k, _)| k == "futureKey"));
    let ext = sprite.blocks.get(sprite.blocks.index_of("ext").unwrap()).unwrap();
    assert_eq!(ext.extra.len(), 1);
    assert_eq!(p.meta.as_ref().unwrap().extra.len(), 1);
    assert_eq!(p.extensions, ["pen"]);
    assert_eq!(p.monitors.len(), 2);
    assert_eq!(sprite.costumes[1].rotation_center_x, Some(Num::Float(46.5)));
    assert_eq!(stage.sounds[0].sample_count, Some(Num::Int(1123)));
}

#[test]
fn saved_text_keeps_literal_forms() {
    let p = load_file(&fixtures_dir().join("kitchen_sink.json"));
    let text = String::from_utf8(project::save(&p)).unwrap();
    assert!(text.contains(r#""VALUE":[1,[10,"10"]]"#), "{text}");
    assert!(text.contains(r#""g1":["score",0]"#));
    assert!(text.contains(r#""loose":[12,"score","g1",300,40.25]"#));
    assert!(text.contains(r#""argumentids":"[\"arg1\",\"arg2\"]""#));
    assert!(text.contains(r#""STOP_OPTION":["this script",null]"#));
    assert!(text.contains(r#""VALUE":["s"]"#));
}
