//! `gobo::scratch::lint` on small hand-written projects: each rule fires on the project made to
//! show it, names the right block, and stays silent on the near miss next to it.

use gobo::scratch::lint::{lint, Code, LintReport, Severity};
use gobo::scratch::project::{load, Project};

/// A project with a stage (global `score` = id `s`, `done` = id `d`, message `go` = id `m`) and a
/// sprite `Cat`; `cat_vars` and the two block maps are spliced in as JSON.
fn project(cat_vars: &str, stage_blocks: &str, cat_blocks: &str) -> Project {
    project_with(cat_vars, stage_blocks, cat_blocks, "")
}

/// [`project`] with more targets (`extra`, starting with a comma) after Cat.
fn project_with(cat_vars: &str, stage_blocks: &str, cat_blocks: &str, extra: &str) -> Project {
    let json = format!(
        r#"{{"targets": [
          {{"isStage": true, "name": "Stage", "variables": {{"s": ["score", 0], "d": ["done", 0]}},
            "lists": {{}}, "broadcasts": {{"m": "go"}}, "blocks": {{{stage_blocks}}},
            "costumes": [], "sounds": []}},
          {{"isStage": false, "name": "Cat", "variables": {{{cat_vars}}}, "lists": {{}},
            "broadcasts": {{}}, "blocks": {{{cat_blocks}}}, "costumes": [], "sounds": []}}{extra}],
          "meta": {{"semver": "3.0.0"}}}}"#
    );
    load(json.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

fn block(id: &str, opcode: &str, parent: Option<&str>, next: Option<&str>, rest: &str) -> String {
    let q = |o: Option<&str>| o.map_or_else(|| "null".to_string(), |s| format!("\"{s}\""));
    let top = parent.is_none();
    let xy = if top { r#", "x": 0, "y": 0"# } else { "" };
    format!(
        r#""{id}": {{"opcode": "{opcode}", "parent": {}, "next": {}, "shadow": false,
            "topLevel": {top}{xy}, {rest}}}"#,
        q(parent),
        q(next)
    )
}

const NO_IO: &str = r#""inputs": {}, "fields": {}"#;

fn set_var(id: &str, parent: &str, next: Option<&str>, name: &str, var: &str) -> String {
    let rest = format!(
        r#""inputs": {{"VALUE": [1, [10, "5"]]}}, "fields": {{"VARIABLE": ["{name}", "{var}"]}}"#
    );
    block(id, "data_setvariableto", Some(parent), next, &rest)
}

fn codes(r: &LintReport) -> Vec<(&'static str, String)> {
    r.findings.iter().map(|f| (f.code.name(), f.block.clone().unwrap_or_default())).collect()
}

fn flag_script(body: &[String]) -> String {
    let mut all = vec![block("h", "event_whenflagclicked", None, Some("a"), NO_IO)];
    all.extend(body.iter().cloned());
    all.join(",")
}

#[test]
fn a_clean_project_has_no_findings() {
    let p = project("", "", &flag_script(&[set_var("a", "h", None, "score", "s")]));
    let r = lint(&p, None);
    assert!(r.clean(), "{:?}", r.findings);
    assert!(!r.patch_rules);
    let same = lint(&p, Some(&p));
    assert!(same.clean() && same.patch_rules, "{:?}", same.findings);
}

#[test]
fn dangling_ids_say_how_the_vm_binds_them() {
    let p = project(
        "",
        "",
        &flag_script(&[
            set_var("a", "h", Some("b"), "score", "gone"),
            set_var("b", "a", None, "ghost", "zz"),
        ]),
    );
    let r = lint(&p, None);
    assert_eq!(codes(&r), [("binding.dangling", "a".into()), ("binding.dangling", "b".into())]);
    assert_eq!(r.errors, 2);
    assert_eq!(r.findings[0].severity, Severity::Error);
    assert!(r.findings[0].message.contains("by name to the global variable \"score\""));
    assert!(r.findings[1].message.contains("creates a new empty variable \"ghost\""));
}

#[test]
fn an_id_of_another_sprites_local_is_dangling_here() {
    let dog = r#", {"isStage": false, "name": "Dog", "variables": {"dog1": ["speed", 0]},
        "lists": {}, "broadcasts": {}, "blocks": {}, "costumes": [], "sounds": []}"#;
    let p = project_with("", "", &flag_script(&[set_var("a", "h", None, "speed", "dog1")]), dog);
    let r = lint(&p, None);
    assert_eq!(codes(&r), [("binding.dangling", "a".into())]);
    assert!(r.findings[0].message.contains("variable of \"Dog\""), "{}", r.findings[0].message);
}

#[test]
fn a_renamed_reference_keeps_its_declaration() {
    let p = project("", "", &flag_script(&[set_var("a", "h", None, "lives", "s")]));
    let r = lint(&p, None);
    assert_eq!(codes(&r), [("binding.name_mismatch", "a".into())]);
    assert_eq!((r.errors, r.warnings), (0, 1));
    assert!(r.findings[0].message.contains("global variable \"score\""));
}

#[test]
fn shadowed_names_say_which_declaration_binds() {
    let p = project(
        r#""l": ["score", 0]"#,
        "",
        &flag_script(&[
            set_var("a", "h", Some("b"), "score", "l"),
            set_var("b", "a", None, "score", "s"),
        ]),
    );
    let r = lint(&p, None);
    assert_eq!(codes(&r), [("binding.shadowed", "a".into()), ("binding.shadowed", "b".into())]);
    assert!(r.findings[0].message.contains("binds the sprite-local variable"));
    assert!(r.findings[1].message.contains("binds the global variable"));
    // Unused, the pair is reported once, at the declaration.
    let unused = lint(&project(r#""l": ["score", 0]"#, "", ""), None);
    assert_eq!(codes(&unused), [("binding.shadowed", String::new())]);
}

#[test]
fn partial_rebind_names_the_blocks_left_behind() {
    let base = project(
        r#""v": ["lives", 3]"#,
        "",
        &flag_script(&[
            set_var("a", "h", Some("b"), "score", "s"),
            set_var("b", "a", None, "score", "s"),
        ]),
    );
    let half = project(
        r#""v": ["lives", 3]"#,
        "",
        &flag_script(&[
            set_var("a", "h", Some("b"), "lives", "v"),
            set_var("b", "a", None, "score", "s"),
        ]),
    );
    let r = lint(&half, Some(&base));
    assert_eq!(codes(&r), [("binding.partial_rebind", "b".into())]);
    assert!(r.findings[0].message.contains("to \"lives\" (block a)"), "{}", r.findings[0].message);
    let whole = project(
        r#""v": ["lives", 3]"#,
        "",
        &flag_script(&[
            set_var("a", "h", Some("b"), "lives", "v"),
            set_var("b", "a", None, "lives", "v"),
        ]),
    );
    assert!(lint(&whole, Some(&base)).clean());
}

/// The stage receives `go` and sets `score`; Cat runs `broadcast_block` then `after`.
fn barrier_project(cat: &[String]) -> Project {
    let stage = [
        block(
            "r",
            "event_whenbroadcastreceived",
            None,
            Some("rs"),
            r#""inputs": {}, "fields": {"BROADCAST_OPTION": ["go", "m"]}"#,
        ),
        set_var("rs", "r", None, "score", "s"),
    ]
    .join(",");
    project("", &stage, &flag_script(cat))
}

fn broadcast(id: &str, opcode: &str, next: &str) -> String {
    block(
        id,
        opcode,
        Some("h"),
        Some(next),
        r#""inputs": {"BROADCAST_INPUT": [1, [11, "go", "m"]]}, "fields": {}"#,
    )
}

fn say_score(id: &str, parent: &str) -> String {
    block(
        id,
        "looks_say",
        Some(parent),
        None,
        r#""inputs": {"MESSAGE": [3, [12, "score", "s"], [10, "hi"]]}, "fields": {}"#,
    )
}

#[test]
fn removing_a_barrier_whose_receivers_feed_a_later_read() {
    let base =
        barrier_project(&[broadcast("a", "event_broadcastandwait", "t"), say_score("t", "a")]);
    let patched = barrier_project(&[broadcast("a", "event_broadcast", "t"), say_score("t", "a")]);
    let r = lint(&patched, Some(&base));
    assert_eq!(codes(&r), [("barrier.removed", "a".into())]);
    assert!(r.findings[0].message.contains("write score"), "{}", r.findings[0].message);
    // A script that reads nothing the receivers write after it: no finding.
    let quiet = |op: &str| {
        barrier_project(&[
            broadcast("a", op, "t"),
            block("t", "looks_show", Some("a"), None, NO_IO),
        ])
    };
    assert!(lint(&quiet("event_broadcast"), Some(&quiet("event_broadcastandwait"))).clean());
}

#[test]
fn a_literal_wait_instead_of_the_barrier_is_a_delay_substitute() {
    let base =
        barrier_project(&[broadcast("a", "event_broadcastandwait", "t"), say_score("t", "a")]);
    let wait = block(
        "w",
        "control_wait",
        Some("a"),
        Some("t"),
        r#""inputs": {"DURATION": [1, [5, "0.5"]]}, "fields": {}"#,
    );
    let patched = barrier_project(&[
        broadcast("a", "event_broadcast", "w"),
        wait.clone(),
        say_score("t", "w"),
    ]);
    let r = lint(&patched, Some(&base));
    assert_eq!(
        codes(&r),
        [("barrier.delay_substitute", "a".into()), ("barrier.removed", "a".into())]
    );
    assert!(r.findings[0].message.contains("literal 'wait 0.5'"), "{}", r.findings[0].message);
    // The same wait after a plain broadcast that never was a barrier is an animation, not a lint.
    let plain = barrier_project(&[broadcast("a", "event_broadcast", "t"), say_score("t", "a")]);
    assert!(lint(&patched, Some(&plain)).clean(), "{:?}", lint(&patched, Some(&plain)).findings);
}

#[test]
fn a_polling_loop_after_a_broadcast_is_a_delay_substitute() {
    let base = barrier_project(&[broadcast("a", "event_broadcast", "t"), say_score("t", "a")]);
    let until = block(
        "u",
        "control_wait_until",
        Some("a"),
        Some("t"),
        r#""inputs": {"CONDITION": [2, "eq"]}, "fields": {}"#,
    );
    let eq = block(
        "eq",
        "operator_equals",
        Some("u"),
        None,
        r#""inputs": {"OPERAND1": [3, [12, "done", "d"], [10, ""]], "OPERAND2": [1, [10, "1"]]}, "fields": {}"#,
    );
    let patched =
        barrier_project(&[broadcast("a", "event_broadcast", "u"), until, eq, say_score("t", "u")]);
    let r = lint(&patched, Some(&base));
    assert_eq!(codes(&r), [("barrier.delay_substitute", "a".into())]);
    assert!(r.findings[0].message.contains("polls a flag"));
    // Linting the patched project against itself: the pair is not new.
    assert!(lint(&patched, Some(&patched)).clean());
}

#[test]
fn every_code_is_named_and_serialises_as_its_name() {
    let names: Vec<&str> = Code::ALL.iter().map(|c| c.name()).collect();
    assert_eq!(
        names,
        [
            "binding.dangling",
            "binding.name_mismatch",
            "binding.shadowed",
            "binding.partial_rebind",
            "barrier.delay_substitute",
            "barrier.removed"
        ]
    );
    let p = project("", "", &flag_script(&[set_var("a", "h", None, "lives", "s")]));
    let v = serde_json::to_value(lint(&p, None)).unwrap();
    assert_eq!(v["findings"][0]["code"], "binding.name_mismatch");
    assert_eq!(v["findings"][0]["severity"], "warning");
    assert_eq!(v["findings"][0]["target"], "Cat");
    assert_eq!(v["findings"][0]["block"], "a");
    assert_eq!(v["warnings"], 1);
}
