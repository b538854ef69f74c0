//! VM-level tests: program-image round trip, determinism (same run twice → same bytes), bad
//! images and projects give typed errors, budgets are resumable, deep user recursion does not
//! touch the Rust stack, and block families behave as scratch-vm's on small projects written
//! here.

use gobo::scratch::compile::compile;
use gobo::scratch::image::{Image, IMAGE_VERSION};
use gobo::scratch::project::{load, LoadError, MAX_NESTING};
use gobo::scratch::scenario::Scenario;
use gobo::scratch::trace::run_frames;
use gobo::scratch::vm::{Config, Input, Vm, VmError};

fn golden(name: &str) -> Vec<u8> {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/scratch")
        .join(name)
        .join("project.json");
    std::fs::read(p).expect("golden project")
}

fn image_of(json: &[u8]) -> Image {
    compile(&load(json).expect("load")).expect("compile")
}

fn trace_of(img: Image, frames: u64) -> String {
    let mut vm = Vm::new(img, Config::default()).expect("vm");
    let mut out = String::new();
    run_frames(&mut vm, &Scenario::green_flag(), frames, false, &mut |l| {
        out.push_str(l);
        out.push('\n');
    });
    out
}

const GOLDENS: [&str; 10] = [
    "clones",
    "control",
    "events",
    "input_order",
    "lists",
    "monitors",
    "operators",
    "procedures",
    "random",
    "sensing",
];

#[test]
fn image_round_trips_through_postcard() {
    for g in GOLDENS {
        let img = image_of(&golden(g));
        let bytes = postcard::to_allocvec(&img).expect("serialize");
        let back: Image = postcard::from_bytes(&bytes).expect("deserialize");
        assert_eq!(back, img, "{g}");
        assert_eq!(trace_of(back, 30), trace_of(img, 30), "{g}: same trace after round trip");
    }
}

#[test]
fn same_run_twice_gives_identical_bytes() {
    for g in GOLDENS {
        let a = trace_of(image_of(&golden(g)), 60);
        let b = trace_of(image_of(&golden(g)), 60);
        assert_eq!(a, b, "{g}");
    }
}

#[test]
fn wrong_image_version_is_refused() {
    let mut img = image_of(&golden("control"));
    img.version = IMAGE_VERSION + 1;
    assert_eq!(Vm::new(img, Config::default()).err(), Some(VmError::Version(IMAGE_VERSION + 1)));
}

#[test]
fn corrupted_images_are_refused_not_panicking() {
    let base = image_of(&golden("procedures"));
    let bytes = postcard::to_allocvec(&base).expect("serialize");
    // Flip every byte in turn: deserialization or VM creation must fail cleanly, or the
    // image must run without panicking.
    for i in 0..bytes.len() {
        let mut b = bytes.clone();
        b[i] ^= 0x5a;
        let Ok(img) = postcard::from_bytes::<Image>(&b) else { continue };
        if let Ok(mut vm) =
            Vm::new(img, Config { ticks_per_frame: 20, warp_checks: 1000, ..Config::default() })
        {
            vm.step_frame(&[Input::GreenFlag]);
            vm.step_frame(&[]);
        }
    }
}

/// A project with one sprite whose blocks are given as JSON text.
fn sprite_project(blocks: &str, vars: &str, lists: &str) -> Vec<u8> {
    format!(
        r#"{{"targets":[
            {{"isStage":true,"name":"Stage","variables":{{}},"lists":{{}},"broadcasts":{{}},"blocks":{{}},"costumes":[{{"name":"b","assetId":"a","md5ext":"a.svg","dataFormat":"svg","rotationCenterX":0,"rotationCenterY":0}}],"sounds":[]}},
            {{"isStage":false,"name":"S","variables":{vars},"lists":{lists},"broadcasts":{{}},"blocks":{blocks},"costumes":[{{"name":"c","assetId":"a","md5ext":"a.svg","dataFormat":"svg","rotationCenterX":0,"rotationCenterY":0}}],"sounds":[],"x":0,"y":0,"visible":true}}
        ],"monitors":[],"extensions":[],"meta":{{"semver":"3.0.0"}}}}"#
    )
    .into_bytes()
}

#[test]
fn reporter_nesting_beyond_the_limit_is_a_typed_error() {
    // A chain of 5,000 nested `join` reporters under one `say`.
    let mut blocks = String::from(
        r#"{"h":{"opcode":"event_whenflagclicked","next":"s","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0},"s":{"opcode":"looks_say","next":null,"parent":"h","inputs":{"MESSAGE":[3,"j0",[10,""]]},"fields":{},"shadow":false,"topLevel":false}"#,
    );
    let n = 5000;
    for i in 0..n {
        let parent = if i == 0 { "s".to_string() } else { format!("j{}", i - 1) };
        let inner = if i + 1 < n {
            format!(r#"[3,"j{}",[10,""]]"#, i + 1)
        } else {
            r#"[1,[10,"x"]]"#.to_string()
        };
        blocks.push_str(&format!(
            r#","j{i}":{{"opcode":"operator_join","next":null,"parent":"{parent}","inputs":{{"STRING1":{inner},"STRING2":[1,[10,"y"]]}},"fields":{{}},"shadow":false,"topLevel":false}}"#
        ));
    }
    blocks.push('}');
    // The loader refuses it before anything walks the chain: nesting is limited to
    // `MAX_NESTING` inputs (docs/scratch-project.md); the first block past the limit is named.
    match load(&sprite_project(&blocks, "{}", "{}")) {
        Err(LoadError::TooDeep { path, id, limit }) => {
            assert_eq!((path.as_str(), limit), ("targets[1].blocks", MAX_NESTING));
            assert_eq!(id, format!("j{MAX_NESTING}"));
        }
        other => panic!("expected TooDeep, got {other:?}"),
    }
}

#[test]
fn deep_user_recursion_stays_off_the_rust_stack() {
    // define f: change n by 1; if n < 100000 then f  (run without screen refresh)
    let blocks = r#"{
      "h":{"opcode":"event_whenflagclicked","next":"c0","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0},
      "c0":{"opcode":"procedures_call","next":null,"parent":"h","inputs":{},"fields":{},"shadow":false,"topLevel":false,"mutation":{"tagName":"mutation","children":[],"proccode":"f","argumentids":"[]","warp":"true"}},
      "d":{"opcode":"procedures_definition","next":"ch","parent":null,"inputs":{"custom_block":[1,"p"]},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":200},
      "p":{"opcode":"procedures_prototype","next":null,"parent":"d","inputs":{},"fields":{},"shadow":true,"topLevel":false,"mutation":{"tagName":"mutation","children":[],"proccode":"f","argumentids":"[]","argumentnames":"[]","argumentdefaults":"[]","warp":"true"}},
      "ch":{"opcode":"data_changevariableby","next":"if","parent":"d","inputs":{"VALUE":[1,[4,"1"]]},"fields":{"VARIABLE":["n","vn"]},"shadow":false,"topLevel":false},
      "if":{"opcode":"control_if","next":null,"parent":"ch","inputs":{"CONDITION":[2,"lt"],"SUBSTACK":[2,"c1"]},"fields":{},"shadow":false,"topLevel":false},
      "lt":{"opcode":"operator_lt","next":null,"parent":"if","inputs":{"OPERAND1":[3,[12,"n","vn"],[10,""]],"OPERAND2":[1,[10,"100000"]]},"fields":{},"shadow":false,"topLevel":false},
      "c1":{"opcode":"procedures_call","next":null,"parent":"if","inputs":{},"fields":{},"shadow":false,"topLevel":false,"mutation":{"tagName":"mutation","children":[],"proccode":"f","argumentids":"[]","warp":"true"}}
    }"#;
    let img = image_of(&sprite_project(blocks, r#"{"vn":["n",0]}"#, "{}"));
    let mut vm = Vm::new(img, Config::default()).expect("vm");
    vm.step_frame(&[Input::GreenFlag]);
    for _ in 0..10 {
        vm.step_frame(&[]);
    }
    let o = vm.observe();
    let n = o.sprites[0].vars.iter().find(|(k, _)| &**k == "n").map(|(_, v)| v.clone());
    assert!(matches!(n, Some(gobo::scratch::value::Value::Num(x)) if x == 100000.0), "{n:?}");
}

#[test]
fn exhausted_frame_budget_resumes_next_frame() {
    // forever { change n by 1 } with 3 passes per frame and no redraw: 3 per frame.
    let blocks = r#"{
      "h":{"opcode":"event_whenflagclicked","next":"f","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0},
      "f":{"opcode":"control_forever","next":null,"parent":"h","inputs":{"SUBSTACK":[2,"ch"]},"fields":{},"shadow":false,"topLevel":false},
      "ch":{"opcode":"data_changevariableby","next":null,"parent":"f","inputs":{"VALUE":[1,[4,"1"]]},"fields":{"VARIABLE":["n","vn"]},"shadow":false,"topLevel":false}
    }"#;
    let img = image_of(&sprite_project(blocks, r#"{"vn":["n",0]}"#, "{}"));
    let mut vm = Vm::new(img, Config { ticks_per_frame: 3, ..Config::default() }).expect("vm");
    vm.step_frame(&[Input::GreenFlag]);
    vm.step_frame(&[]);
    let o = vm.observe();
    let n = o.sprites[0].vars[0].1.clone();
    assert!(matches!(n, gobo::scratch::value::Value::Num(x) if x == 6.0), "{n:?}");
    assert_eq!(o.threads, 1);
}

/// Direct writes (the benchmark-script `variable.value = v`, `list.value = items`,
/// `target.setXY`, `target.setDirection`) apply at the start of the frame they are given in.
#[test]
fn direct_writes_set_variables_lists_and_poses() {
    use gobo::scratch::image::Lit;
    use gobo::scratch::value::Value;
    let project = r#"{"targets":[
        {"isStage":true,"name":"Stage","variables":{"g":["shared",1],"o":["only stage",2]},"lists":{"gl":["items",[1,2]]},"broadcasts":{},"blocks":{},"costumes":[{"name":"b","assetId":"a","md5ext":"a.svg","dataFormat":"svg","rotationCenterX":0,"rotationCenterY":0}],"sounds":[]},
        {"isStage":false,"name":"S","variables":{"l":["shared",3]},"lists":{"ll":["items",[]]},"broadcasts":{},"blocks":{},"costumes":[{"name":"c","assetId":"a","md5ext":"a.svg","dataFormat":"svg","rotationCenterX":0,"rotationCenterY":0}],"sounds":[],"x":5,"y":6,"direction":90,"visible":true}
    ],"monitors":[],"extensions":[],"meta":{"semver":"3.0.0"}}"#;
    let mut vm = Vm::new(image_of(project.as_bytes()), Config::default()).expect("vm");
    let s = |v: &str| Lit::Str(v.into());
    let set_var = |sprite: Option<&str>, name: &str, value: Lit| Input::SetVariable {
        sprite: sprite.map(String::from),
        name: name.into(),
        value,
    };
    vm.step_frame(&[
        set_var(None, "shared", s("stage")),
        set_var(Some("S"), "shared", Lit::Num(7.0)),
        // The sprite has no "only stage": the write reaches the stage's.
        set_var(Some("S"), "only stage", Lit::Bool(true)),
        set_var(None, "missing", Lit::Num(1.0)),
        set_var(Some("Nobody"), "shared", Lit::Num(1.0)),
        Input::SetList { sprite: None, name: "items".into(), items: vec![s("a")] },
        Input::SetList { sprite: Some("S".into()), name: "items".into(), items: vec![] },
        Input::SetSprite { sprite: "S".into(), x: Some(-30.0), y: None, direction: Some(200.0) },
    ]);
    let o = vm.observe();
    let text = |v: &Value| format!("{v:?}");
    let globals: Vec<(String, String)> =
        o.globals.iter().map(|(n, v)| (n.to_string(), text(v))).collect();
    assert_eq!(
        globals,
        [
            ("shared".to_string(), "Str(\"stage\")".to_string()),
            ("only stage".to_string(), "Bool(true)".to_string())
        ]
    );
    assert_eq!(format!("{:?}", o.global_lists[0].1), "[Str(\"a\")]");
    let sprite = &o.sprites[0];
    assert_eq!(text(&sprite.vars[0].1), "Num(7.0)");
    assert!(sprite.lists[0].1.is_empty());
    assert_eq!((sprite.x, sprite.y, sprite.dir), (-30.0, 6.0, -160.0));
    // A non-finite direction is ignored, as `setDirection` ignores it.
    vm.step_frame(&[Input::SetSprite {
        sprite: "S".into(),
        x: None,
        y: Some(1.5),
        direction: Some(f64::NAN),
    }]);
    let o = vm.observe();
    assert_eq!((o.sprites[0].x, o.sprites[0].y, o.sprites[0].dir), (-30.0, 1.5, -160.0));
}

/// `contents of list` obeys the string budget like `join`: a list that keeps adding its own
/// contents to itself doubles its text every iteration and would otherwise exhaust memory within
/// a few dozen iterations (found by the scratch_vm fuzz target). As JavaScript's `Array.join`
/// throws `RangeError` past its string limit, the run halts when the contents would be longer
/// than `max_string_len`.
#[test]
fn list_contents_is_bounded_by_the_string_budget() {
    // when flag clicked: forever { add (contents of L) to L }, L starting as ["ab"].
    let blocks = r#"{
      "h":{"opcode":"event_whenflagclicked","next":"f","parent":null,"inputs":{},"fields":{},"shadow":false,"topLevel":true,"x":0,"y":0},
      "f":{"opcode":"control_forever","next":null,"parent":"h","inputs":{"SUBSTACK":[2,"a"]},"fields":{},"shadow":false,"topLevel":false},
      "a":{"opcode":"data_addtolist","next":null,"parent":"f","inputs":{"ITEM":[3,[13,"L","lL"],[10,""]]},"fields":{"LIST":["L","lL"]},"shadow":false,"topLevel":false}
    }"#;
    let img = image_of(&sprite_project(blocks, "{}", r#"{"lL":["L",["ab"]]}"#));
    let max = 1000;
    let cfg = Config { ticks_per_frame: 5, max_string_len: max, ..Config::default() };
    let mut vm = Vm::new(img, cfg).expect("vm");
    vm.step_frame(&[Input::GreenFlag]);
    let o = vm.observe();
    let items = &o.sprites[0].lists[0].1;
    let lens: Vec<usize> = items.iter().map(|v| v.to_string().len()).collect();
    // Item k (from 0) is the text of items 0..k: "ab", "ab", "ab ab", "ab ab ab ab", ...
    assert_eq!(lens, [2, 2, 5, 11, 23, 47]);
    for _ in 0..3 {
        vm.step_frame(&[]);
    }
    let stop = vm.stopped().expect("halted on the string budget");
    assert_eq!(stop.reason, gobo::scratch::vm::StopReason::StringLength);
    assert_eq!(stop.limit, max as u64);
    // 5 more items reach 767 characters; the next contents (1535) would pass the limit.
    assert_eq!((stop.frame, vm.frame()), (1, 1));
    let o = vm.observe();
    let lens: Vec<usize> = o.sprites[0].lists[0].1.iter().map(|v| v.to_string().len()).collect();
    assert_eq!(lens.last(), Some(&767), "{lens:?}");
}
