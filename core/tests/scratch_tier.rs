//! Register-tier differential tests: with `Config::tier` on and off, every Scratch project in
//! the repository (goldens, examples, fixtures, bench workloads) and a few hundred generated
//! number-heavy projects (`tier_gen`) give identical frames: every trace line (which tags
//! NaN, ±Infinity, -0 and tells strings from numbers), every variable and list item, and the
//! number of random draws, under several warp-check and pass budgets (so warp loops run out of
//! checks inside nested loops and resume from rebuilt frames). The block operations
//! (`Vm::block_ops`) are compared after every frame too, and counted on a hand-made script with
//! the tier, the fused forms and the general path.

mod tier_gen;

use std::path::{Path, PathBuf};

use gobo::scratch::compile::compile;
use gobo::scratch::project::load;
use gobo::scratch::scenario::Scenario;
use gobo::scratch::trace::frame_line;
use gobo::scratch::value::Value;
use gobo::scratch::vm::{Config, Input, Vm};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every project file in `dir` (`*/project.json`, `*.project.json`, `*.json` projects).
fn files_in(dir: &str) -> Vec<(String, PathBuf, Option<PathBuf>)> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(root().join(dir)) else { return out };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        let name = format!("{dir}/{}", p.file_name().unwrap_or_default().to_string_lossy());
        if p.join("project.json").is_file() {
            let sc = p.join("scenario.json");
            out.push((name, p.join("project.json"), sc.is_file().then_some(sc)));
        } else if p.extension().is_some_and(|e| e == "json")
            && !p.ends_with("workloads.json")
            && std::fs::read(&p).is_ok_and(|b| load(&b).is_ok())
        {
            out.push((name, p, None));
        }
    }
    out
}

fn projects() -> Vec<(String, PathBuf, Option<PathBuf>)> {
    [
        "core/tests/golden/scratch",
        "examples/scratch",
        "core/tests/fixtures/scratch",
        "benches/workloads/scratch",
    ]
    .iter()
    .flat_map(|d| files_in(d))
    .collect()
}

/// A value exactly (NaN payloads are not observable in JavaScript, so every NaN is one).
fn exact(v: &Value) -> String {
    match v {
        Value::Num(n) if n.is_nan() => "NaN".into(),
        Value::Num(n) => format!("n{:016x}", n.to_bits()),
        Value::Str(s) => format!("s{s:?}"),
        Value::Bool(b) => format!("b{b}"),
        Value::Undefined => "u".into(),
    }
}

/// Every variable and list item of every target, exactly.
fn state(vm: &Vm) -> String {
    let o = vm.observe();
    let mut out = String::new();
    let mut vars = |name: &str, vs: &[(std::rc::Rc<str>, Value)]| {
        for (n, v) in vs {
            out.push_str(&format!("{name}.{n}={} ", exact(v)));
        }
    };
    vars("stage", &o.globals);
    for s in &o.sprites {
        vars(&format!("{}#{}", s.name, s.clone), &s.vars);
    }
    let mut lists = |name: &str, ls: &[(std::rc::Rc<str>, Vec<Value>)]| {
        for (n, items) in ls {
            let items: Vec<String> = items.iter().map(exact).collect();
            out.push_str(&format!("{name}.{n}=[{}] ", items.join(",")));
        }
    };
    lists("stage", &o.global_lists);
    for s in &o.sprites {
        lists(&format!("{}#{}", s.name, s.clone), &s.lists);
    }
    out
}

/// Each frame's trace line and exact state, the random draws, and the regions compiled.
fn run(project: &[u8], sc: &Scenario, cfg: Config, frames: u64) -> (Vec<String>, u64, usize) {
    let img = compile(&load(project).expect("load")).expect("compile");
    let mut vm = Vm::new(img, cfg).expect("vm");
    let regions = vm.tier_regions();
    let mut lines = Vec::new();
    let mut inputs = Vec::new();
    for f in 0..frames {
        inputs.clear();
        inputs.extend(sc.at(f).map(|(_, _, i)| i.clone()));
        vm.step_frame(&inputs);
        lines.push(frame_line(&vm.observe(), &[]));
        lines.push(format!("{} block_ops={}", state(&vm), vm.block_ops()));
    }
    (lines, vm.random_calls(), regions)
}

fn compare(name: &str, bytes: &[u8], sc: &Scenario, cfg: &Config, frames: u64) -> usize {
    let off = run(bytes, sc, Config { tier: false, ..cfg.clone() }, frames);
    let on = run(bytes, sc, cfg.clone(), frames);
    if let Some(i) = off.0.iter().zip(&on.0).position(|(a, b)| a != b) {
        panic!(
            "{name} (warp checks {}, passes {}): frame {} differs\ninterpreter: {}\ntier:        {}",
            cfg.warp_checks,
            cfg.ticks_per_frame,
            i / 2,
            off.0[i],
            on.0[i]
        );
    }
    assert_eq!(off.0.len(), on.0.len(), "{name}: frame count");
    assert_eq!(off.1, on.1, "{name}: random draws");
    assert_eq!(off.2, 0, "{name}: tier off compiles nothing");
    on.2
}

#[test]
fn tier_equals_interpreter_on_every_project() {
    let budgets = [(1_000_000, 1000), (1, 1000), (7, 3), (1000, 1)];
    let mut runs = 0;
    let mut with_regions = Vec::new();
    for (name, path, scenario) in projects() {
        let bytes = std::fs::read(&path).expect("project");
        let sc = match &scenario {
            Some(p) => Scenario::parse(&std::fs::read(p).expect("scenario")).expect("scenario"),
            None => Scenario::green_flag(),
        };
        for (warp_checks, ticks) in budgets {
            let cfg = Config { warp_checks, ticks_per_frame: ticks, ..Config::default() };
            if compare(&name, &bytes, &sc, &cfg, 45) > 0 {
                with_regions.push(name.clone());
            }
            runs += 1;
        }
    }
    assert!(runs >= 4 * 20, "only {runs} runs: projects missing?");
    for want in ["loop1m_warp", "warp7_1m", "loop100k_nowarp"] {
        assert!(with_regions.iter().any(|n| n.contains(want)), "{want} has no region");
    }
}

/// Every loop of the compute workloads runs in the tier, those with `join`, `letter of` and
/// list changes (which the run budgets charge) included.
#[test]
fn every_loop_of_the_compute_workloads_compiles() {
    use gobo::scratch::image::Sop;
    for name in [
        "warp7_1m",
        "loop1m_warp",
        "sort_bubble_warp",
        "sort_insertion_warp",
        "primes_warp",
        "collatz_warp",
        "strings_warp",
        "compute_nowarp",
    ] {
        let path = root().join(format!("benches/workloads/scratch/{name}.project.json"));
        let img = compile(&load(&std::fs::read(path).expect("workload")).expect("load"))
            .expect("compile");
        let loops = img
            .stmts
            .iter()
            .filter(|s| {
                matches!(
                    s.op,
                    Sop::Repeat | Sop::Forever | Sop::While | Sop::RepeatUntil | Sop::ForEach(_)
                )
            })
            .count();
        let vm = Vm::new(img, Config::default()).expect("vm");
        assert!(loops > 0, "{name}: no loop");
        assert_eq!(vm.tier_regions(), loops, "{name}: loops left to the interpreter");
    }
}

#[test]
fn tier_equals_interpreter_on_generated_projects() {
    let mut regions = 0;
    let mut seeds = 0;
    for seed in 0..400u64 {
        let json = tier_gen::project(seed);
        let mut rng = tier_gen::Rng::new(seed ^ 0xABCD);
        let warp_checks = [1, 2, 5, 17, 100, 1000][rng.below(6)];
        let ticks = [1, 2, 3, 10, 50][rng.below(5)];
        let cfg = Config {
            warp_checks,
            ticks_per_frame: ticks,
            seed: seed as u32,
            max_list_len: 40,
            max_string_len: 300,
            turbo: rng.below(4) == 0,
            ..Config::default()
        };
        // The flag, and once more later (restarts scripts mid-loop).
        let mut sc = Scenario::green_flag();
        sc.events.push((12, "flag".to_string(), Input::GreenFlag));
        regions += compare(&format!("seed {seed}:\n{json}\n"), json.as_bytes(), &sc, &cfg, 24);
        seeds += 1;
    }
    assert_eq!(seeds, 400);
    // The generator must actually exercise the tier.
    assert!(regions > 400, "only {regions} regions compiled over {seeds} projects");
}

#[test]
fn tier_keeps_warp_budget_and_yields_inside_nested_loops() {
    // A warp procedure with a loop in a loop in an `if`, cut by the warp budget at every
    // check: each frame resumes from the rebuilt frames.
    let json = tier_gen::project(7);
    let bytes = json.as_bytes();
    for warp_checks in [1, 2, 3] {
        let cfg = Config { warp_checks, ticks_per_frame: 2, ..Config::default() };
        compare("seed 7", bytes, &Scenario::green_flag(), &cfg, 60);
    }
}

/// A sprite whose green-flag script is `repeat (3) { change v by 1; if v > 1 { change w by 1 } }`
/// then `say (v)`, with `warp` making it a warp custom block's body instead.
fn counted_project(warp: bool) -> String {
    let var = |name: &str| serde_json::json!([name, format!("v_{name}")]);
    let mut blocks = serde_json::json!({
        "rep": {"opcode": "control_repeat", "next": "say", "parent": "top",
                "inputs": {"TIMES": [1, [6, "3"]], "SUBSTACK": [2, "chv"]}, "fields": {},
                "shadow": false, "topLevel": false},
        "chv": {"opcode": "data_changevariableby", "next": "if", "parent": "rep",
                "inputs": {"VALUE": [1, [4, "1"]]}, "fields": {"VARIABLE": var("v")},
                "shadow": false, "topLevel": false},
        "if": {"opcode": "control_if", "next": null, "parent": "chv",
               "inputs": {"CONDITION": [2, "gt"], "SUBSTACK": [2, "chw"]}, "fields": {},
               "shadow": false, "topLevel": false},
        "getv": {"opcode": "data_variable", "next": null, "parent": "gt", "inputs": {},
                 "fields": {"VARIABLE": var("v")}, "shadow": false, "topLevel": false},
        "gt": {"opcode": "operator_gt", "next": null, "parent": "if",
               "inputs": {"OPERAND1": [3, "getv", [10, ""]], "OPERAND2": [1, [10, "1"]]},
               "fields": {}, "shadow": false, "topLevel": false},
        "chw": {"opcode": "data_changevariableby", "next": null, "parent": "if",
                "inputs": {"VALUE": [1, [4, "1"]]}, "fields": {"VARIABLE": var("w")},
                "shadow": false, "topLevel": false},
        "say": {"opcode": "looks_say", "next": null, "parent": "rep",
                "inputs": {"MESSAGE": [1, [10, "done"]]}, "fields": {},
                "shadow": false, "topLevel": false}
    });
    let b = blocks.as_object_mut().expect("blocks");
    let hat = |next: &str| {
        serde_json::json!({"opcode": "event_whenflagclicked", "next": next, "parent": null,
                           "inputs": {}, "fields": {}, "shadow": false, "topLevel": true,
                           "x": 0, "y": 0})
    };
    if warp {
        let proto = serde_json::json!({"opcode": "procedures_prototype", "next": null,
            "parent": "def", "inputs": {}, "fields": {}, "shadow": true, "topLevel": false,
            "mutation": {"tagName": "mutation", "children": [], "proccode": "count",
                         "argumentids": "[]", "argumentnames": "[]",
                         "argumentdefaults": "[]", "warp": "true"}});
        b.insert("proto".into(), proto);
        b.insert(
            "def".into(),
            serde_json::json!({"opcode": "procedures_definition",
            "next": "rep", "parent": null, "inputs": {"custom_block": [1, "proto"]},
            "fields": {}, "shadow": false, "topLevel": true, "x": 0, "y": 300}),
        );
        b["rep"]["parent"] = "def".into();
        b.insert("top".into(), hat("call"));
        b.insert(
            "call".into(),
            serde_json::json!({"opcode": "procedures_call", "next": null,
            "parent": "top", "inputs": {}, "fields": {}, "shadow": false, "topLevel": false,
            "mutation": {"tagName": "mutation", "children": [], "proccode": "count",
                         "argumentids": "[]", "warp": "true"}}),
        );
    } else {
        b.insert("top".into(), hat("rep"));
    }
    let costume = serde_json::json!([{"name": "c1", "bitmapResolution": 1, "dataFormat": "svg",
        "assetId": "00000000000000000000000000000000",
        "md5ext": "00000000000000000000000000000000.svg",
        "rotationCenterX": 0, "rotationCenterY": 0}]);
    serde_json::json!({
        "targets": [
            {"isStage": true, "name": "Stage", "variables": {"v_v": ["v", 0], "v_w": ["w", 0]},
             "lists": {}, "broadcasts": {}, "blocks": {}, "comments": {}, "currentCostume": 0,
             "costumes": costume, "sounds": [], "volume": 100, "layerOrder": 0, "tempo": 60},
            {"isStage": false, "name": "Counter", "variables": {}, "lists": {}, "broadcasts": {},
             "blocks": blocks, "comments": {}, "currentCostume": 0, "costumes": costume,
             "sounds": [], "volume": 100, "layerOrder": 1, "visible": true, "x": 0, "y": 0,
             "size": 100, "direction": 90, "draggable": false, "rotationStyle": "all around"}
        ],
        "monitors": [], "extensions": [], "meta": {"semver": "3.0.0", "vm": "5.0.300"}
    })
    .to_string()
}

/// Block operations are scratch-vm's `execute()` calls on stack blocks: the `repeat (3)` four
/// times (three iterations and the test that ends it), each `change` and `if` once per
/// iteration, the inner `change` twice, `say` once: 13; inside a warp custom block two more,
/// the call and the definition block it steps to (`stepToProcedure` pushes it and
/// `stepThread` executes it). The same with the register tier, the fused forms and the
/// general path.
#[test]
fn block_ops_count_each_executed_block_in_every_tier() {
    for (warp, want) in [(false, 13), (true, 15)] {
        let json = counted_project(warp);
        let modes = [
            ("tier", Config::default()),
            ("fused", Config { tier: false, ..Config::default() }),
            ("general", Config { tier: false, fuse: false, ..Config::default() }),
        ];
        for (mode, cfg) in modes {
            let img = compile(&load(json.as_bytes()).expect("load")).expect("compile");
            let mut vm = Vm::new(img, cfg).expect("vm");
            if mode == "tier" {
                assert_eq!(vm.tier_regions(), 1, "the repeat compiles");
            }
            vm.step_frame(&[Input::GreenFlag]);
            for _ in 0..10 {
                vm.step_frame(&[]);
            }
            let o = vm.observe();
            let v = o.globals.iter().find(|(n, _)| &**n == "w").map(|(_, v)| v.clone());
            assert!(matches!(v, Some(Value::Num(n)) if n == 2.0), "{mode}: the script ran");
            assert_eq!(vm.block_ops(), want, "{mode}, warp {warp}");
        }
    }
}
