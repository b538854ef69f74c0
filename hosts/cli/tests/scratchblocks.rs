//! `gobo observe --format scratchblocks` read back by the scratchblocks library itself: every
//! target of every project under `core/tests/fixtures/agent/`, `examples/scratch/` and (when
//! present) `../shared/refvm/fixtures/` must parse with no unrecognised block, into as many
//! scripts and blocks as the target has. Needs node and the library installed by
//! `npm install --prefix hosts/cli/tests/scratchblocks` (`.ci/run` does); skips visibly
//! without them.

#[path = "../../../tests-support/reference.rs"]
mod reference;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use gobo::scratch::project::{load_with, LoadOptions, Project};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn checker() -> PathBuf {
    repo().join("hosts/cli/tests/scratchblocks")
}

fn shared() -> Option<PathBuf> {
    let dir = std::env::var_os("GOBO_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("../shared"));
    dir.is_dir().then_some(dir)
}

fn node_ready() -> Result<(), String> {
    let node = Command::new("node").arg("--version").output();
    if !node.is_ok_and(|o| o.status.success()) {
        return Err("node is not installed".into());
    }
    if !checker().join("node_modules/scratchblocks/package.json").is_file() {
        return Err(
            "scratchblocks is not installed (npm install --prefix hosts/cli/tests/scratchblocks)"
                .into(),
        );
    }
    Ok(())
}

fn gobo(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_gobo")).args(args).output().expect("run gobo");
    assert!(out.status.success(), "gobo {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}

fn parse(text: &str) -> serde_json::Value {
    let mut child = Command::new("node")
        .arg(checker().join("parse.mjs"))
        .current_dir(checker())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node");
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "parse.mjs failed");
    serde_json::from_slice(&out.stdout).expect("parse.mjs output")
}

/// Blocks scratchblocks sees in a target: every non-shadow block (and compressed variable or
/// list reporter), plus, for each `define`, its outline and one argument per parameter.
fn expected_counts(p: &Project, target: usize) -> (usize, usize) {
    let blocks = &p.targets[target].blocks;
    let mut n = 0;
    for b in blocks.as_slice() {
        if !b.shadow {
            n += 1;
        }
        if b.opcode == "procedures_prototype" {
            let code = b.mutation.as_ref().and_then(|m| m.proccode.as_deref()).unwrap_or("");
            n += 1
                + code.matches("%s").count()
                + code.matches("%n").count()
                + code.matches("%b").count();
        }
        for i in &b.inputs {
            let inline = matches!(i.value, Some(gobo::scratch::project::InputValue::Primitive(_)));
            if inline && i.kind != gobo::scratch::project::InputKind::Shadow {
                n += 1;
            }
        }
    }
    (blocks.top_level().count(), n)
}

fn projects() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let add_dir = |dir: PathBuf, out: &mut Vec<PathBuf>, pick: &dyn Fn(&Path) -> bool| {
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else { continue };
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if pick(&p) {
                    out.push(p);
                }
            }
        }
    };
    add_dir(repo().join("core/tests/fixtures/agent"), &mut out, &|p| {
        p.extension().is_some_and(|e| e == "json")
    });
    add_dir(repo().join("examples/scratch"), &mut out, &|p| {
        p.file_name().is_some_and(|n| n == "project.json")
    });
    match shared() {
        Some(s) => add_dir(s.join("refvm/fixtures"), &mut out, &|p| {
            p.extension().is_some_and(|e| e == "sb3")
        }),
        None => println!("skipped: ../shared is absent; only the repository's projects are parsed"),
    }
    out.sort();
    out
}

#[test]
fn scratchblocks_library_parses_every_target() {
    if let Err(why) = node_ready() {
        reference::skipped(
            "scratchblocks::scratchblocks_library_parses_every_target",
            &why.to_string(),
        );
        return;
    }
    reference::ran("scratchblocks::scratchblocks_library_parses_every_target");
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in projects() {
        let files = gobo_host::sb3::load_path(&path).expect("load");
        let Ok(project) = load_with(&files.project_json, &LoadOptions { repair_references: true })
        else {
            continue;
        };
        let (mut text, mut scripts, mut blocks) = (String::new(), 0, 0);
        for (i, t) in project.targets.iter().enumerate() {
            let out = gobo(&[
                "observe",
                path.to_str().unwrap(),
                "--target",
                &t.name,
                "--format",
                "scratchblocks",
            ]);
            if !out.is_empty() {
                text.push_str(&out);
                text.push('\n');
            }
            let (s, b) = expected_counts(&project, i);
            scripts += s;
            blocks += b;
        }
        let got = parse(&text);
        let unknown = got["unknown"].as_array().map_or(0, Vec::len);
        if unknown > 0 || got["scripts"] != scripts || got["blocks"] != blocks {
            failures.push(format!(
                "{}: parsed {got}, expected {scripts} scripts and {blocks} blocks",
                path.display()
            ));
        }
        checked += 1;
    }
    assert!(checked >= 5, "too few projects found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
