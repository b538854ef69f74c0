//! Bad `project.json` input: every case returns a typed [`LoadError`] naming the place, quickly,
//! and never panics; deep but legitimate scripts load.

use gobo::scratch::project::{self, LoadError};

/// A project with one stage whose `blocks` map is `blocks` (JSON text).
fn with_blocks(blocks: &str) -> String {
    format!(r#"{{"targets":[{{"isStage":true,"name":"Stage","blocks":{blocks}}}]}}"#)
}

fn err(json: &str) -> LoadError {
    match project::load(json.as_bytes()) {
        Ok(_) => panic!("loaded: {json}"),
        Err(e) => e,
    }
}

fn assert_path(e: &LoadError, want: &str) {
    let path = match e {
        LoadError::Type { path, .. }
        | LoadError::Missing { path, .. }
        | LoadError::Invalid { path, .. }
        | LoadError::OutOfRange { path, .. }
        | LoadError::DanglingBlock { path, .. }
        | LoadError::SharedBlock { path, .. }
        | LoadError::Cycle { path, .. }
        | LoadError::TooLarge { path, .. } => path,
        other => panic!("no path in {other:?}"),
    };
    assert_eq!(path, want, "{e}");
}

#[test]
fn invalid_json_reports_line_and_column() {
    let e = err("{\n  \"targets\": [,]\n}");
    let LoadError::Json { line, column, .. } = e else { panic!("{e:?}") };
    assert_eq!((line, column), (2, 15));
    assert!(matches!(err(""), LoadError::Json { .. }));
    assert!(matches!(err("{\"targets\": [] "), LoadError::Json { .. }));
    assert!(matches!(err("\u{feff}{}"), LoadError::Json { .. }));
}

#[test]
fn wrong_types_name_the_path() {
    assert_path(&err(r#"{"targets": {}}"#), "targets");
    assert_path(&err("[]"), "$");
    assert_path(&err(r#"{"targets":[{"isStage":"yes","name":"Stage"}]}"#), "targets[0].isStage");
    assert_path(
        &err(r#"{"targets":[{"isStage":true,"name":"S","variables":{"v":["x",{}]}}]}"#),
        "targets[0].variables.v[1]",
    );
    assert_path(
        &err(r#"{"targets":[{"isStage":true,"name":"S","lists":{"l":["x","y"]}}]}"#),
        "targets[0].lists.l[1]",
    );
    let e = err(&with_blocks(r#"{"a":{"opcode":"x","inputs":{"N":[9,[4,"1"]]}}}"#));
    assert_path(&e, "targets[0].blocks.a.inputs.N[0]");
    let e = err(&with_blocks(r#"{"a":{"opcode":"x","inputs":{"N":[1,[99,"1"]]}}}"#));
    assert_path(&e, "targets[0].blocks.a.inputs.N[1][0]");
    let e = err(&with_blocks(r#"{"a":{"opcode":"x","inputs":{"N":[1,true]}}}"#));
    assert_path(&e, "targets[0].blocks.a.inputs.N[1]");
    let e = err(&with_blocks(r#"{"a b":{"opcode":7}}"#));
    assert_path(&e, r#"targets[0].blocks["a b"].opcode"#);
    let e = err(&with_blocks(r#"{"a":{"next":null}}"#));
    assert!(matches!(e, LoadError::Missing { key: "opcode", .. }), "{e}");
    let e = err(&with_blocks(r#"{"a":[12,"v"]}"#));
    assert_path(&e, "targets[0].blocks.a");
    let bad_mutation = r#"{"a":{"opcode":"procedures_call","mutation":{"argumentids":"[1,"}}}"#;
    assert_path(&err(&with_blocks(bad_mutation)), "targets[0].blocks.a.mutation.argumentids");
}

#[test]
fn stage_count_is_checked() {
    let e = err(r#"{"targets":[{"isStage":false,"name":"A"}]}"#);
    assert_path(&e, "targets");
    let two = r#"{"targets":[{"isStage":true,"name":"A"},{"isStage":true,"name":"B"}]}"#;
    assert_path(&err(two), "targets");
}

#[test]
fn dangling_references_are_named() {
    let e = err(&with_blocks(r#"{"a":{"opcode":"x","next":"gone"}}"#));
    assert_eq!(
        e,
        LoadError::DanglingBlock { path: "targets[0].blocks.a.next".into(), id: "gone".into() }
    );
    let e = err(&with_blocks(
        r#"{"a":{"opcode":"x","inputs":{"I":[3,"b","gone"]}},"b":{"opcode":"y"}}"#,
    ));
    assert_path(&e, "targets[0].blocks.a.inputs.I[2]");
    let e = err(&with_blocks(r#"{"a":{"opcode":"x","parent":"gone"}}"#));
    assert_path(&e, "targets[0].blocks.a.parent");
}

#[test]
fn cycles_and_shared_children_are_refused() {
    let cases = [
        r#"{"a":{"opcode":"x","next":"a"}}"#,
        r#"{"r":{"opcode":"x","next":null},"a":{"opcode":"x","next":"b"},"b":{"opcode":"x","next":"a"}}"#,
        r#"{"a":{"opcode":"x","inputs":{"I":[2,"b"]}},"b":{"opcode":"x","next":"a"}}"#,
        r#"{"a":{"opcode":"x","parent":"b"},"b":{"opcode":"x","parent":"a"}}"#,
    ];
    for case in cases {
        let e = err(&with_blocks(case));
        assert!(matches!(e, LoadError::Cycle { .. }), "{case}: {e}");
        assert_path(&e, "targets[0].blocks");
    }
    let shared = r#"{"a":{"opcode":"x","next":"c"},"b":{"opcode":"x","inputs":{"I":[2,"c"]}},"c":{"opcode":"x"}}"#;
    let e = err(&with_blocks(shared));
    assert!(matches!(&e, LoadError::SharedBlock { id, .. } if id == "c"), "{e}");
    assert_path(&e, "targets[0].blocks.b.inputs.I[1]");
}

#[test]
fn absurd_numbers_are_refused() {
    let e = err(r#"{"targets":[{"isStage":true,"name":"S","x":1e999}]}"#);
    assert!(matches!(e, LoadError::Json { .. }), "{e}");
    let e = err(r#"{"targets":[{"isStage":true,"name":"S","currentCostume":-1}]}"#);
    assert_eq!(e, LoadError::OutOfRange { path: "targets[0].currentCostume".into(), value: -1.0 });
    let costume = r#"{"targets":[{"isStage":true,"name":"S","costumes":[{"name":"c","bitmapResolution":0}]}]}"#;
    assert_path(&err(costume), "targets[0].costumes[0].bitmapResolution");
    let sound =
        r#"{"targets":[{"isStage":true,"name":"S","sounds":[{"name":"s","sampleCount":1e300}]}]}"#;
    assert_path(&err(sound), "targets[0].sounds[0].sampleCount");
    // A big but representable literal is a legitimate (float) value.
    let ok = r#"{"targets":[{"isStage":true,"name":"S","variables":{"v":["v",123456789012345678901234567890]}}]}"#;
    assert!(project::load(ok.as_bytes()).is_ok());
}

#[test]
fn deep_json_nesting_is_an_error_not_a_stack_overflow() {
    let depth = 1_000_000;
    let mut text = String::with_capacity(depth * 2 + 20);
    text.push_str(r#"{"targets":"#);
    text.extend(std::iter::repeat_n('[', depth));
    text.extend(std::iter::repeat_n(']', depth));
    text.push('}');
    let e = err(&text);
    let LoadError::Json { message, .. } = e else { panic!("{e:?}") };
    assert!(message.contains("recursion limit"), "{message}");
}

/// A stage whose blocks form one chain of `n` blocks, linked by `next` or by a C-block input.
fn chain(n: usize, by_input: bool) -> String {
    let mut blocks = String::with_capacity(n * 64);
    blocks.push('{');
    for i in 0..n {
        if i > 0 {
            blocks.push(',');
        }
        let link = if i + 1 == n {
            String::new()
        } else if by_input {
            format!(r#","inputs":{{"SUBSTACK":[2,"{}"]}}"#, i + 1)
        } else {
            format!(r#","next":"{}""#, i + 1)
        };
        let parent = if i == 0 { String::new() } else { format!(r#","parent":"{}""#, i - 1) };
        blocks.push_str(&format!(r#""{i}":{{"opcode":"control_forever"{link}{parent}}}"#));
    }
    blocks.push('}');
    with_blocks(&blocks)
}

const MAX: usize = project::MAX_NESTING;

#[test]
fn million_deep_scripts_load_without_recursion() {
    // A long `next` chain loads; a million blocks nested through C-block inputs are refused
    // (nesting limit) after linking them without recursion.
    let text = chain(100_000, false);
    let p = project::load(text.as_bytes()).expect("long chain loads");
    assert_eq!(p.targets[0].blocks.len(), 100_000);
    let e = err(&chain(1_000_000, true));
    let want = format!("block \"{}\" is nested more than {} inputs deep", MAX + 1, MAX);
    assert!(matches!(e, LoadError::TooDeep { .. }) && e.to_string().contains(&want), "{e}");
    let p = project::load(chain(MAX + 1, true).as_bytes()).expect("the limit loads");
    assert_eq!(p.targets[0].blocks.len(), MAX + 1);
}

#[test]
fn million_long_cycle_is_found() {
    // Close the chain into a loop: the last block's next goes back to the first.
    let n = 1_000_000;
    let text = chain(n, false).replacen(
        &format!(r#""{}":{{"opcode":"control_forever""#, n - 1),
        &format!(r#""{}":{{"opcode":"control_forever","next":"0""#, n - 1),
        1,
    );
    let e = err(&text);
    assert!(matches!(e, LoadError::Cycle { .. }), "{e}");
}

#[test]
fn repair_mode_drops_broken_references_and_warns() {
    let options = project::LoadOptions { repair_references: true };
    let broken = with_blocks(
        r#"{"a":{"opcode":"x","next":"gone","inputs":{"I":[3,"b","missing"]}},
            "b":{"opcode":"y","parent":"a"},
            "c":{"opcode":"x","next":"b"},
            "d":{"opcode":"x","next":"e","parent":"e"},"e":{"opcode":"x","next":"d","parent":"d"}}"#,
    );
    let p = project::load_with(broken.as_bytes(), &options).expect("repaired");
    let blocks = &p.targets[0].blocks;
    let get = |id: &str| blocks.get(blocks.index_of(id).unwrap()).unwrap();
    assert_eq!(get("a").next, None);
    assert_eq!(get("a").inputs[0].shadow, None);
    // `b` keeps its first owner (a's input); c's `next` to it is dropped.
    assert!(get("a").inputs[0].value.is_some());
    assert_eq!(get("c").next, None);
    let kinds: Vec<&str> = p
        .warnings
        .iter()
        .map(|w| match w {
            LoadError::DanglingBlock { .. } => "dangling",
            LoadError::SharedBlock { .. } => "shared",
            LoadError::Cycle { .. } => "cycle",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["dangling", "dangling", "shared", "cycle", "cycle"]);
    // The repaired project is a forest: it loads strictly after saving.
    let saved = project::save(&p);
    let strict = project::load(&saved).expect("repaired project loads strictly");
    assert!(strict.warnings.is_empty());
    // The same input fails strictly.
    assert!(project::load(broken.as_bytes()).is_err());
}
