//! Malformed suites give typed errors naming the JSON path, and nothing panics: a table of
//! broken documents, each with the path and kind of error expected. Every mismatch is listed.

use gobo::scratch::suite::{load_suite, parse_suite, LoadError, SuiteErrorKind};

const PROJECT: &str = include_str!("../../examples/scratch/keys/project.json");

/// Wraps steps into a one-case suite.
fn with_steps(steps: &str) -> String {
    format!(r#"{{"tests": [{{"name": "a", "steps": [{{"do": "green_flag"}}, {steps}]}}]}}"#)
}

#[derive(Debug)]
enum Want {
    Json,
    Missing,
    WrongType,
    UnknownField,
    UnknownKind,
    BadValue,
    BadRegex,
    Unknown(&'static str),
    UnknownMark,
    Duplicate,
}

fn matches(kind: &SuiteErrorKind, want: &Want) -> bool {
    match (kind, want) {
        (SuiteErrorKind::InvalidJson(_), Want::Json)
        | (SuiteErrorKind::Missing, Want::Missing)
        | (SuiteErrorKind::WrongType { .. }, Want::WrongType)
        | (SuiteErrorKind::UnknownField, Want::UnknownField)
        | (SuiteErrorKind::UnknownKind { .. }, Want::UnknownKind)
        | (SuiteErrorKind::BadValue(_), Want::BadValue)
        | (SuiteErrorKind::BadRegex(_), Want::BadRegex)
        | (SuiteErrorKind::UnknownMark(_), Want::UnknownMark)
        | (SuiteErrorKind::DuplicateCase(_), Want::Duplicate) => true,
        (SuiteErrorKind::Unknown { what, .. }, Want::Unknown(w)) => what == w,
        _ => false,
    }
}

#[test]
fn malformed_suites_name_the_path() {
    let table: Vec<(String, &str, Want)> = vec![
        ("{".into(), "", Want::Json),
        ("[]".into(), "", Want::WrongType),
        ("{}".into(), "tests", Want::Missing),
        (r#"{"tests": {}}"#.into(), "tests", Want::WrongType),
        (r#"{"tests": [], "version": 2}"#.into(), "version", Want::BadValue),
        (r#"{"tests": [], "fps": 0}"#.into(), "fps", Want::BadValue),
        (r#"{"tests": [], "colour": 1}"#.into(), "colour", Want::UnknownField),
        (r#"{"tests": [{"steps": []}]}"#.into(), "tests[0].name", Want::Missing),
        (r#"{"tests": [{"name": 3, "steps": []}]}"#.into(), "tests[0].name", Want::WrongType),
        (r#"{"tests": [{"name": "", "steps": []}]}"#.into(), "tests[0].name", Want::BadValue),
        (r#"{"tests": [{"name": "a"}]}"#.into(), "tests[0].steps", Want::Missing),
        (r#"{"tests": [{"name": "a", "steps": [], "timeout": -1}]}"#.into(), "tests[0].timeout", Want::BadValue),
        (r#"{"tests": [{"name": "a", "steps": []}, {"name": "a", "steps": []}]}"#.into(), "tests[1].name", Want::Duplicate),
        (with_steps(r#"{"jump": 1}"#), "tests[0].steps[1]", Want::UnknownKind),
        (with_steps(r#"{"do": "dance"}"#), "tests[0].steps[1].do", Want::UnknownKind),
        (with_steps(r#"{"do": 5}"#), "tests[0].steps[1].do", Want::WrongType),
        (with_steps(r#"{"do": "key_press"}"#), "tests[0].steps[1].key", Want::Missing),
        (with_steps(r#"{"do": "key_press", "key": "a", "hold": "long"}"#), "tests[0].steps[1].hold", Want::WrongType),
        (with_steps(r#"{"do": "mouse_move", "x": 1}"#), "tests[0].steps[1].y", Want::Missing),
        (with_steps(r#"{"do": "mouse_down", "x": 1}"#), "tests[0].steps[1].y", Want::Missing),
        (with_steps(r#"{"do": "click"}"#), "tests[0].steps[1].sprite", Want::Missing),
        (with_steps(r#"{"do": "click", "sprite": []}"#), "tests[0].steps[1].sprite", Want::BadValue),
        (with_steps(r#"{"do": "set_variable", "variable": "score", "value": [1]}"#), "tests[0].steps[1].value", Want::WrongType),
        (with_steps(r#"{"do": "set_sprite", "sprite": "Cat"}"#), "tests[0].steps[1].x", Want::Missing),
        (with_steps(r#"{"do": "set_list", "list": "l", "items": 3}"#), "tests[0].steps[1].items", Want::WrongType),
        (with_steps(r#"{"do": "set_list", "list": "l", "items": [1, [2]]}"#), "tests[0].steps[1].items[1]", Want::WrongType),
        (with_steps(r#"{"do": "green_flag", "at": -2}"#), "tests[0].steps[1].at", Want::BadValue),
        (with_steps(r#"{"wait": "soon"}"#), "tests[0].steps[1].wait", Want::WrongType),
        (with_steps(r#"{"wait": {"hours": 1}}"#), "tests[0].steps[1].wait", Want::UnknownKind),
        (with_steps(r#"{"wait": {"until": {"running": false}, "timeout": 1e9}}"#), "tests[0].steps[1].wait.timeout", Want::BadValue),
        (with_steps(r#"{"expect": {}}"#), "tests[0].steps[1].expect", Want::UnknownKind),
        // A sprite check with nothing to compare says so (and points at exists).
        (with_steps(r#"{"expect": {"sprite": "Cat"}}"#), "tests[0].steps[1].expect.sprite", Want::BadValue),
        (with_steps(r#"{"expect": {"sprite": "Cat", "x": "far"}}"#), "tests[0].steps[1].expect.x", Want::WrongType),
        (with_steps(r#"{"expect": {"sprite": "Cat", "x": {"min": 5, "max": 1}}}"#), "tests[0].steps[1].expect.x.max", Want::BadValue),
        (with_steps(r#"{"expect": {"sprite": "Cat", "x": 1, "colour": "red"}}"#), "tests[0].steps[1].expect.colour", Want::UnknownField),
        (with_steps(r#"{"expect": {"sprite": "Cat", "effects": {"blur": 1}}}"#), "tests[0].steps[1].expect.effects.blur", Want::UnknownField),
        (with_steps(r#"{"expect": {"sprite": "Cat", "clone": "some", "x": 1}}"#), "tests[0].steps[1].expect.clone", Want::UnknownKind),
        (with_steps(r#"{"expect": {"variable": "score"}}"#), "tests[0].steps[1].expect.equals", Want::Missing),
        (with_steps(r#"{"expect": {"variable": "score", "tolerance": 1, "min": 0}}"#), "tests[0].steps[1].expect.tolerance", Want::BadValue),
        (with_steps(r#"{"expect": {"says": {"regex": "(a"}}}"#), "tests[0].steps[1].expect.says.regex", Want::BadRegex),
        (with_steps(r#"{"expect": {"says": {"regex": "a**"}}}"#), "tests[0].steps[1].expect.says.regex", Want::BadRegex),
        (with_steps(r#"{"expect": {"says": {"like": "a"}}}"#), "tests[0].steps[1].expect.says", Want::UnknownKind),
        (with_steps(r#"{"expect": {"says": "a", "kind": "shout"}}"#), "tests[0].steps[1].expect.kind", Want::UnknownKind),
        (with_steps(r#"{"expect": {"says_in_order": []}}"#), "tests[0].steps[1].expect.says_in_order", Want::BadValue),
        (with_steps(r#"{"expect": {"says_in_order": ["a", {"regex": "["}]}}"#), "tests[0].steps[1].expect.says_in_order[1].regex", Want::BadRegex),
        (with_steps(r#"{"expect": {"monotonic": {"sprite": "Cat", "property": "x"}, "order": "up"}}"#), "tests[0].steps[1].expect.order", Want::UnknownKind),
        (with_steps(r#"{"expect": {"monotonic": {"sprite": "Cat", "property": "speed"}, "order": "increasing"}}"#), "tests[0].steps[1].expect.monotonic.property", Want::UnknownKind),
        (with_steps(r#"{"expect": {"extent": {"variable": "score"}}}"#), "tests[0].steps[1].expect.min", Want::Missing),
        (with_steps(r#"{"expect": {"interval": {"from": {"running": true}}, "seconds": 1}}"#), "tests[0].steps[1].expect.interval.to", Want::Missing),
        (with_steps(r#"{"expect": {"not": {"all": [{"running": true}, {"variable": 3}]}}}"#), "tests[0].steps[1].expect.not.all[1].variable", Want::WrongType),
        (with_steps(r#"{"expect": {"moved": "Cat"}}"#), "tests[0].steps[1].expect.at_least", Want::Missing),
        (with_steps(r#"{"expect": {"backdrop": 0}}"#), "tests[0].steps[1].expect.backdrop", Want::BadValue),
        (r#"{"tests": [{"name": "a", "steps": [], "answers": [{"compute": "sqrt"}]}]}"#.into(), "tests[0].answers[0].compute", Want::UnknownKind),
        (r#"{"tests": [{"name": "a", "steps": [], "answers": [{"nth": 1}]}]}"#.into(), "tests[0].answers[0].text", Want::Missing),
        (r#"{"tests": [{"name": "a", "steps": [], "answers": [{"text": "x", "nth": 0}]}]}"#.into(), "tests[0].answers[0].nth", Want::BadValue),
        (r#"{"tests": [{"name": "a", "steps": [], "answers": [{"text": "x", "when": {"regex": ")"}}]}]}"#.into(), "tests[0].answers[0].when.regex", Want::BadRegex),
        // Validation against the project (examples/scratch/keys).
        (with_steps(r#"{"expect": {"sprite": "Dog", "x": 1}}"#), "tests[0].steps[1].expect.sprite", Want::Unknown("sprite")),
        (with_steps(r#"{"do": "click", "sprite": ["Dog", "Puppy"]}"#), "tests[0].steps[1].sprite", Want::Unknown("sprite")),
        (with_steps(r#"{"do": "set_sprite", "sprite": "Cat", "x": 1, "dx": 2}"#), "tests[0].steps[1].dx", Want::UnknownField),
        (with_steps(r#"{"do": "mouse_move", "onto": "Cat", "dy": "up"}"#), "tests[0].steps[1].dy", Want::WrongType),
        (with_steps(r#"{"do": "green_flag", "sprite": "Dog"}"#), "tests[0].steps[1].sprite", Want::Unknown("sprite")),
        (with_steps(r#"{"do": "green_flag", "sprite": "Stage"}"#), "tests[0].steps[1].sprite", Want::Unknown("sprite")),
        (with_steps(r#"{"do": "mouse_down", "event": 0}"#), "tests[0].steps[1].event", Want::WrongType),
        (with_steps(r#"{"do": "mouse_up", "event": false, "x": 1}"#), "tests[0].steps[1].y", Want::Missing),
        (with_steps(r#"{"expect": {"variable": "lives", "equals": 3}}"#), "tests[0].steps[1].expect.variable", Want::Unknown("variable")),
        (with_steps(r#"{"expect": {"list": "score", "length": 1}}"#), "tests[0].steps[1].expect.list", Want::Unknown("list")),
        (with_steps(r#"{"expect": {"sprite": "Cat", "costume": "c9"}}"#), "tests[0].steps[1].expect.costume", Want::Unknown("costume")),
        (with_steps(r#"{"expect": {"sprite": "Cat", "costume": 3}}"#), "tests[0].steps[1].expect.costume", Want::BadValue),
        (with_steps(r#"{"expect": {"backdrop": "dusk"}}"#), "tests[0].steps[1].expect.backdrop", Want::Unknown("backdrop")),
        (with_steps(r#"{"expect": {"says": "hi", "sprite": "Dog"}}"#), "tests[0].steps[1].expect.sprite", Want::Unknown("sprite")),
        (with_steps(r#"{"wait": {"until": {"clones": "Dog", "count": 1}}}"#), "tests[0].steps[1].wait.until.clones", Want::Unknown("sprite")),
        (with_steps(r#"{"expect": {"changed": {"variable": "score"}, "from": "later"}}"#), "tests[0].steps[1].expect.from", Want::UnknownMark),
        (with_steps(r#"{"expect": {"moved": "Cat", "at_least": 1, "since": "nope"}}"#), "tests[0].steps[1].expect.since", Want::UnknownMark),
        (with_steps(r#"{"do": "set_variable", "variable": "lives", "value": 1}"#), "tests[0].steps[1].variable", Want::Unknown("variable")),
        (with_steps(r#"{"do": "set_list", "list": "lives", "items": []}"#), "tests[0].steps[1].list", Want::Unknown("list")),
        (with_steps(r#"{"expect": {"extent": {"list_length": "nope"}, "max": 1}}"#), "tests[0].steps[1].expect.extent.list_length", Want::Unknown("list")),
    ];
    let mut failures = Vec::new();
    for (i, (text, path, want)) in table.iter().enumerate() {
        match load_suite(text, PROJECT) {
            Err(LoadError::Suite(e)) if e.path == *path && matches(&e.kind, want) => {
                // The message names the path too.
                if !e.to_string().starts_with(if path.is_empty() { "(root)" } else { path }) {
                    failures.push(format!("#{i}: message does not start with the path: {e}"));
                }
            }
            Err(e) => failures.push(format!("#{i}: want {want:?} at {path}, got {e:?}")),
            Ok(_) => failures.push(format!("#{i}: want {want:?} at {path}, but the suite loaded")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases wrong:\n{}",
        failures.len(),
        table.len(),
        failures.join("\n")
    );
}

#[test]
fn the_examples_parse_and_validate() {
    for name in ["keys", "quiz", "timing"] {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/scratch").join(name);
        let read = |f: &str| {
            std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{name}/{f}: {e}"))
        };
        if let Err(e) = load_suite(&read("suite.json"), &read("project.json")) {
            panic!("{name}: {e}");
        }
    }
}

#[test]
fn sprite_alternatives_resolve_to_the_first_that_exists() {
    let text = with_steps(r#"{"do": "click", "sprite": ["Kitty", "Cat", "Pointer"]}"#);
    let (suite, _) = load_suite(&text, PROJECT).unwrap_or_else(|e| panic!("{e}"));
    let step = &suite.cases[0].steps[1];
    match &step.kind {
        gobo::scratch::suite::model::StepKind::Do(gobo::scratch::suite::model::Input::Click(r)) => {
            assert_eq!(r.resolved, "Cat")
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn garbage_never_panics() {
    // Every prefix of a valid suite is either valid or a typed error.
    let text = include_str!("../../examples/scratch/quiz/suite.json");
    for end in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
        let _ = parse_suite(&text[..end]);
    }
    // Deep nesting is refused by the JSON reader's recursion limit, not a stack overflow.
    let deep = format!(
        "{{\"tests\": [{{\"name\": \"a\", \"steps\": [{{\"expect\": {}true{}}}]}}]}}",
        "{\"not\": ".repeat(200),
        "}".repeat(200)
    );
    assert!(parse_suite(&deep).is_err());
}
