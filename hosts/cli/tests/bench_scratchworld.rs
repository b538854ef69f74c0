//! `gobo bench scratchworld`: a tiny benchmark of projects written here (a passing, a failing,
//! a broken and a missing task, a task without a suite, a stray file), its metrics, rows and
//! resume; and, when ScratchWorld's public repository is at hand, every compute golden project
//! judged on its suites.

use std::path::{Path, PathBuf};
use std::process::Command;

use gobo_host::sb3::{write_sb3, ProjectFiles};
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn gobo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gobo"))
}

fn sb3(project_json: &Path) -> Vec<u8> {
    let quiz = repo().join("examples/scratch/quiz");
    let mut files = ProjectFiles {
        project_json: std::fs::read(project_json).unwrap(),
        assets: Default::default(),
    };
    for e in std::fs::read_dir(quiz.join("assets")).unwrap() {
        let e = e.unwrap();
        files.assets.insert(e.file_name().into_string().unwrap(), std::fs::read(e.path()).unwrap());
    }
    write_sb3(&files).unwrap()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobo-bench-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const MANIFEST: &str = r#"{"version": 1, "source": "test", "tasks": [
 {"name": "t_pass", "category": "compute", "initial_project": "q.sb3", "flavours": {"compat": {"status": "complete", "suite": "compute/quiz.json"}}},
 {"name": "t_fail", "category": "compute", "initial_project": "q.sb3", "flavours": {"compat": {"status": "complete", "suite": "compute/quiz.json"}}},
 {"name": "t_broken", "category": "create", "initial_project": "q.sb3", "flavours": {"compat": {"status": "complete", "suite": "compute/quiz.json"}}},
 {"name": "t_missing", "category": "debug", "initial_project": "q.sb3", "flavours": {"compat": {"status": "complete", "suite": "compute/quiz.json"}}},
 {"name": "t_nosuite", "category": "extend", "initial_project": "q.sb3", "flavours": {"compat": {"status": "missing"}}}
]}"#;

fn run(projects: &Path, suites: &Path, out: &Path) -> (i32, Value) {
    let o = gobo()
        .args(["bench", "scratchworld", "--json", "--jobs", "2", "--projects"])
        .arg(projects)
        .arg("--suites")
        .arg(suites)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let stdout = String::from_utf8(o.stdout).unwrap();
    let doc = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: {stdout} {}", String::from_utf8_lossy(&o.stderr)));
    (o.status.code().unwrap(), doc)
}

#[test]
fn scores_pass_fail_broken_missing_and_resumes() {
    let dir = temp("tiny");
    let (suites, projects) = (dir.join("suites"), dir.join("projects"));
    std::fs::create_dir_all(suites.join("compute")).unwrap();
    std::fs::create_dir_all(&projects).unwrap();
    std::fs::write(suites.join("manifest.json"), MANIFEST).unwrap();
    let quiz = repo().join("examples/scratch/quiz");
    std::fs::copy(quiz.join("suite.json"), suites.join("compute/quiz.json")).unwrap();
    std::fs::write(projects.join("t_pass.sb3"), sb3(&quiz.join("project.json"))).unwrap();
    std::fs::write(projects.join("t_fail.sb3"), sb3(&quiz.join("broken.json"))).unwrap();
    std::fs::write(projects.join("t_broken.sb3"), b"not a zip").unwrap();
    std::fs::write(projects.join("t_nosuite.sb3"), sb3(&quiz.join("project.json"))).unwrap();
    std::fs::write(projects.join("stray.sb3"), b"whatever").unwrap();
    std::fs::write(projects.join("notes.txt"), b"ignored").unwrap();

    let out = dir.join("rows.jsonl");
    let (code, doc) = run(&projects, &suites, &out);
    assert_eq!(code, 1, "{doc}");
    let all = &doc["overall"];
    assert_eq!(all["tasks"], 4, "{doc}");
    assert_eq!((all["solved"].as_u64(), all["judged"].as_u64()), (Some(1), Some(2)), "{doc}");
    assert_eq!((all["missing"].as_u64(), all["broken"].as_u64()), (Some(1), Some(1)), "{doc}");
    assert_eq!((all["no_suite"].as_u64(), doc["extra"].as_u64()), (Some(1), Some(1)), "{doc}");
    assert_eq!(all["sr"], 0.25);
    let compute = &doc["categories"][3];
    assert_eq!(
        (compute["category"].as_str(), compute["tasks"].as_u64()),
        (Some("compute"), Some(2))
    );
    assert_eq!(compute["sr"], 0.5);
    assert!(
        compute["psr"].as_f64().unwrap() >= 0.5 && compute["psr"].as_f64().unwrap() < 1.0,
        "{doc}"
    );

    let rows = std::fs::read_to_string(&out).unwrap();
    let parsed: Vec<Value> = rows.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let status: Vec<(&str, &str)> =
        parsed.iter().map(|r| (r["id"].as_str().unwrap(), r["status"].as_str().unwrap())).collect();
    assert_eq!(
        status,
        [
            ("t_pass", "judged"),
            ("t_fail", "judged"),
            ("t_broken", "broken"),
            ("t_missing", "missing"),
            ("t_nosuite", "no_suite"),
            ("extra:stray", "extra"),
        ]
    );
    // The failing task's row says which case failed and why.
    let failing = parsed[1]["details"].as_array().unwrap();
    assert!(
        failing.iter().any(|c| c["passed"] == false
            && c["reason"].as_str().is_some_and(|r| r.starts_with("step "))),
        "{failing:?}"
    );
    assert!(parsed[2]["error"].as_str().is_some(), "{:?}", parsed[2]);

    // An interrupted run (two rows and a half-written third) resumes without losing or
    // duplicating rows, and ends with the same file.
    let lines: Vec<&str> = rows.lines().collect();
    std::fs::write(&out, format!("{}\n{}\n{{\"id\": \"t_bro", lines[0], lines[1])).unwrap();
    let (code2, doc2) = run(&projects, &suites, &out);
    assert_eq!(code2, 1);
    assert_eq!(
        (doc2["resumed"].as_u64(), doc2["evaluated"].as_u64()),
        (Some(2), Some(4)),
        "{doc2}"
    );
    assert_eq!(doc2["overall"], doc["overall"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), rows);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_exit_2() {
    let o = gobo()
        .args(["bench", "scratchworld", "--projects", "/nonexistent/folder"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("gobo bench: "));
    let dir = temp("badmanifest");
    std::fs::write(dir.join("manifest.json"), "{\"version\": 2}").unwrap();
    let o = gobo()
        .args(["bench", "scratchworld", "--projects"])
        .arg(&dir)
        .arg("--suites")
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every suite with a status other than missing, run on the golden project the public
/// repository provides for its task (copied into a temporary folder as `<task>.sb3`).
#[test]
fn public_golden_projects_pass_their_suites() {
    let git_dir = std::env::var_os("GOBO_SCRATCHWORLD_REPO")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/.mirror/astarforbae+ScratchWorld/repo"));
    if !git_dir.exists() {
        println!("skipped: no ScratchWorld repository at {} (set $GOBO_SCRATCHWORLD_REPO to a clone's git dir)", git_dir.display());
        return;
    }
    let suites = repo().join("benchmarks/scratchworld");
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(suites.join("manifest.json")).unwrap())
            .unwrap();
    let dir = temp("golden");
    let mut copied = 0;
    for task in manifest["tasks"].as_array().unwrap() {
        let name = task["name"].as_str().unwrap();
        if task["flavours"]["compat"]["status"] == "missing" {
            continue;
        }
        let o = Command::new("git")
            .arg("--git-dir")
            .arg(&git_dir)
            .args(["show", &format!("HEAD:scratch-gui/static/{name}_golden.sb3")])
            .output()
            .unwrap();
        if o.status.success() {
            std::fs::write(dir.join(format!("{name}.sb3")), o.stdout).unwrap();
            copied += 1;
        }
    }
    for flavour in ["compat", "strict"] {
        let start = std::time::Instant::now();
        let o = gobo()
            .args(["bench", "scratchworld", "--json", "--flavour", flavour, "--projects"])
            .arg(&dir)
            .output()
            .unwrap();
        let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
        println!(
            "{flavour}: {copied} golden projects in {:.2} s: {doc}",
            start.elapsed().as_secs_f64()
        );
        let compute = &doc["categories"][3];
        assert_eq!(compute["tasks"], 25, "{doc}");
        assert_eq!(compute["solved"], 25, "{doc}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
