//! Observations (docs/observation.md): every project under `tests/fixtures/agent/` rendered in
//! each mode against its checked-in expectation (`<name>.<view>.txt`; `GOBO_BLESS=1` rewrites
//! them, and a changed expectation needs a reason in the commit), plus one assertion per
//! ScratchWorld quirk the renderer reproduces, each derived from ScratchWorld's
//! `get_blocks_pseudocode.js` and the editor code it calls.

use std::path::{Path, PathBuf};

use gobo::scratch::agent::{self, IndexMode, Observation, ObserveMode};
use gobo::scratch::project::{self, Project};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agent")
}

fn load(name: &str) -> Project {
    let path = dir().join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    project::load(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn obs(p: &Project, target: Option<&str>, mode: ObserveMode, index: IndexMode) -> Observation {
    agent::observe(p, target, mode, index).expect("observe")
}

/// The views each fixture is checked in.
fn views(p: &Project) -> Vec<(&'static str, String)> {
    let ctx = agent::Ctx::new(p, agent::find_target(p, None).unwrap());
    vec![
        ("compat", obs(p, None, ObserveMode::Compat, IndexMode::Index).text),
        ("full", obs(p, None, ObserveMode::Full, IndexMode::Id).text),
        ("stage", obs(p, Some("Stage"), ObserveMode::Compat, IndexMode::Index).text),
        ("sb", agent::scratchblocks::render(&ctx)),
    ]
}

#[test]
fn every_fixture_matches_its_expected_views() {
    let bless = std::env::var_os("GOBO_BLESS").is_some();
    let mut failures = Vec::new();
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir()).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    let mut seen = 0;
    for path in entries.iter().filter(|p| p.extension().is_some_and(|e| e == "json")) {
        let name = path.file_name().unwrap().to_str().unwrap();
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let p = load(name);
        for (view, text) in views(&p) {
            let expected = dir().join(format!("{stem}.{view}.txt"));
            if bless {
                std::fs::write(&expected, &text).unwrap();
                continue;
            }
            match std::fs::read_to_string(&expected) {
                Ok(e) if e == text => {}
                Ok(e) => failures
                    .push(format!("{stem}.{view}: differs\n--- expected\n{e}\n--- got\n{text}")),
                Err(err) => failures.push(format!("{}: {err}", expected.display())),
            }
            seen += 1;
        }
    }
    assert!(bless || seen >= 4, "no fixtures found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn has_line(text: &str, line: &str) {
    assert!(text.lines().any(|l| l == line), "missing line {line:?} in\n{text}");
}

#[test]
fn header_sections_follow_scratchworld_prompt() {
    let p = load("quirks.json");
    let o = obs(&p, None, ObserveMode::Compat, IndexMode::Index);
    assert!(o
        .text
        .starts_with("\n## Current Editing Target\nCat\n\n## Target Variables In Scope\n\n"));
    // Sprite variables first, then the stage's, all sorted with localeCompare (item10 before
    // item2); the referenced broadcast message counts as a variable; the unreferenced one is
    // gone (scratch-vm deletes it when the editor loads the workspace).
    has_line(
        &o.text,
        "name: Apple, scope: all; name: go, scope: all; name: item10, scope: sprite; name: item2, scope: sprite; name: score, scope: all; name: speed, scope: sprite",
    );
    assert!(!o.text.contains("unused"));
    has_line(&o.text, "Stage, Cat, Dog");
    assert!(o.text.ends_with("- field VARIABLE: \"v-speed\" {choices: {\"variables\":[\"Apple\",\"item10\",\"item2\",\"score\",\"speed\"]}}\n\n"));
    // On the stage, the stage's own variables are labelled `sprite`.
    let s = obs(&p, Some("Stage"), ObserveMode::Compat, IndexMode::Index);
    has_line(
        &s.text,
        "name: Apple, scope: sprite; name: go, scope: sprite; name: score, scope: sprite",
    );
    assert!(s.text.ends_with("## Blocks Pseudocode\n\n\n"), "an empty workspace: {:?}", s.text);
}

#[test]
fn compat_pseudocode_quirks() {
    let p = load("quirks.json");
    let t = obs(&p, None, ObserveMode::Compat, IndexMode::Index).text;
    // Scripts in JavaScript key order: the array-index id "5" runs (and prints) first.
    has_line(&t, "#1 [top] event_whenbroadcastreceived");
    // A custom block definition is not in the catalog: its script is skipped.
    assert!(!t.contains("procedures_definition") && !t.contains("motion_changeyby"));
    // A pen block inside a stack is skipped; the walk goes on below it.
    assert!(!t.contains("pen_penDown"));
    has_line(&t, "  #10 control_if");
    // Empty CONDITION and expected C-slots are printed; repeat's empty slot is not.
    has_line(&t, "  - input CONDITION:");
    has_line(&t, "  - SUBSTACK:");
    has_line(&t, "  - input TIMES: 3 (math_whole_number)");
    assert!(!t.contains("  - SUBSTACK:\n  #12"), "repeat prints no empty SUBSTACK");
    // A compressed variable in an input is a block of its own with an index; its field has
    // no dropdown in the editor, so the fallback table lists the names (code-unit order).
    has_line(&t, "    #9 data_variable");
    // A Boolean input filled by `and`, whose own operands are printed though absent.
    has_line(&t, "  - input OPERAND1:");
    // `stop` with a block below it only offers "other scripts in sprite".
    has_line(&t, "  - field STOP_OPTION: \"other scripts in sprite\" {choices: {\"stopoptionOptions\":[\"other scripts in sprite\"]}}");
    // Menus list the other sprites in runtime order.
    has_line(&t, "  - input TO: _random_ (motion_goto_menu) {choices: {\"toOptions\":[\"random position\",\"mouse-pointer\",\"Dog\"]}}");
    // The `of` property menu follows the object menu (the stage: its properties and variables).
    has_line(
        &t,
        "    - field PROPERTY: \"backdrop #\" {choices: {\"propertyOptions\":[\"backdrop #\",\"backdrop name\",\"volume\",\"Apple\",\"score\"]}}",
    );
    // Variable dropdowns: names in numeric collation order, then rename and delete.
    has_line(
        &t,
        "- field VARIABLE: \"item2\" {choices: {\"variableOptions\":[\"Apple\",\"item2\",\"item10\",\"score\",\"speed\",\"Rename variable\",\"Delete the \\\"item2\\\" variable\"]}}",
    );
    // An empty number keeps the space before its opcode; text shadows are quoted.
    has_line(&t, "- input NUM1:  (math_number)");
    has_line(&t, "- input VALUE: \"0\" (text)");
    // Falsy field values: 0 prints as "", an empty name prints the variable's id.
    has_line(&t, "- field FORWARD_BACKWARD: \"\" {choices: {\"forwardbackwardOptions\":[\"forward\",\"backward\"]}}");
    has_line(&t, "- field VARIABLE: \"v-speed\" {choices: {\"variables\":[\"Apple\",\"item10\",\"item2\",\"score\",\"speed\"]}}");
}

#[test]
fn full_mode_shows_hidden_blocks_and_ids() {
    let p = load("quirks.json");
    let o = obs(&p, None, ObserveMode::Full, IndexMode::Id);
    has_line(&o.text, "  @pen pen_penDown");
    has_line(&o.text, "@def [top] procedures_definition");
    has_line(&o.text, "- input custom_block: \"jump %s\" (procedures_prototype)");
    has_line(&o.text, "  - SUBSTACK:");
    // The inline primitive gets a stable synthetic id.
    has_line(&o.text, "    @mv-STEPS data_variable");
    assert!(o.blocks.iter().any(|e| e.id == "mv-STEPS" && e.opcode == "data_variable"));
}

#[test]
fn index_map_matches_the_text() {
    let p = load("quirks.json");
    let o = obs(&p, None, ObserveMode::Compat, IndexMode::Index);
    assert_eq!(o.blocks.len(), 18);
    for (k, e) in o.blocks.iter().enumerate() {
        assert_eq!(e.index as usize, k + 1);
        let head = format!(
            "{}#{} {}{}",
            "  ".repeat(e.depth as usize),
            e.index,
            if e.top { "[top] " } else { "" },
            e.opcode
        );
        has_line(&o.text, &head);
    }
    let forever = o.blocks.iter().find(|e| e.opcode == "control_forever").unwrap();
    let mv = o.blocks.iter().find(|e| e.opcode == "motion_movesteps").unwrap();
    assert_eq!(mv.parent, Some(forever.index));
    assert_eq!(o.id_at(8), Some("mv"));
    assert_eq!(o.id_at(0), None);
    assert_eq!(o.id_at(19), None);
    let json = serde_json::to_value(&o).unwrap();
    assert_eq!(json["target"], "Cat");
    assert_eq!(json["mode"], "compat");
    assert_eq!(json["variables"][0]["scope"], "all");
}

#[test]
fn targets_are_found_like_select_sprite() {
    let p = load("quirks.json");
    assert_eq!(agent::find_target(&p, None).unwrap(), 1);
    assert_eq!(agent::find_target(&p, Some("dog")).unwrap(), 2);
    assert_eq!(agent::find_target(&p, Some("stage")).unwrap(), 0);
    assert!(agent::find_target(&p, Some("Bird")).is_err());
}
