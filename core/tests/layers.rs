//! The Scratch runtime's three layers point one way: `scratch/render` (the renderer) knows
//! neither the VM nor blocks, `scratch/vm` (state and services) knows the renderer but calls
//! blocks only through its own `vm::hooks::Blocks` trait, and `scratch/blocks` may use both.
//! This test reads the sources and fails on any `use`/path or method call against that
//! direction, naming the file and what it reaches for.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, bottom first.
const LAYERS: [&str; 3] = ["render", "vm", "blocks"];

/// A source file's code without comments, string literals' contents or its unit tests.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]") {
        Some(i) => &text[..i],
        None => text,
    };
    let mut out = String::new();
    for line in text.lines() {
        let mut s = String::new();
        let mut in_str = false;
        let mut prev = ' ';
        for c in line.chars() {
            if in_str {
                if c == '"' && prev != '\\' {
                    in_str = false;
                    s.push('"');
                }
            } else if c == '"' {
                in_str = true;
                s.push('"');
            } else if c == '/' && prev == '/' {
                s.pop();
                break;
            } else {
                s.push(c);
            }
            prev = c;
        }
        out.push_str(&s);
        out.push('\n');
    }
    out
}

/// Every `.rs` file of a layer: (file name, code).
fn files(layer: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/scratch").join(layer);
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "rs") {
            let name = format!("{layer}/{}", p.file_name().unwrap().to_string_lossy());
            out.push((name, code(&std::fs::read_to_string(&p).unwrap())));
        }
    }
    out.sort();
    out
}

/// Names of the functions a layer defines (`fn name`).
fn defined(files: &[(String, String)]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (_, src) in files {
        let mut rest = src.as_str();
        while let Some(i) = rest.find("fn ") {
            let before = rest[..i].chars().last();
            rest = &rest[i + 3..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let name: String =
                rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// The methods a file calls on the VM: `self.name(`, `vm.name(` and `Self::name(`.
fn calls(src: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for recv in ["self.", "vm.", "Self::", "Vm::"] {
        let mut rest = src;
        while let Some(i) = rest.find(recv) {
            let before = rest[..i].chars().last();
            rest = &rest[i + recv.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                continue;
            }
            let name: String =
                rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if rest[name.len()..].starts_with('(') && !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

#[test]
fn scratch_layers_point_one_way() {
    let layers: Vec<Vec<(String, String)>> = LAYERS.iter().map(|l| files(l)).collect();
    let defs: Vec<BTreeSet<String>> = layers.iter().map(|f| defined(f)).collect();
    let mut faults: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (k, files) in layers.iter().enumerate() {
        let below: BTreeSet<&String> = defs[..=k].iter().flatten().collect();
        for (name, src) in files {
            let mut fault = |what: String| faults.entry(name.clone()).or_default().push(what);
            // Paths into a higher layer.
            for higher in &LAYERS[k + 1..] {
                if src.contains(&format!("scratch::{higher}")) {
                    fault(format!("names crate::scratch::{higher}"));
                }
            }
            // The renderer does not know the VM's types.
            if k == 0 {
                for ty in ["Vm", "Instance"] {
                    let hit = src.match_indices(ty).any(|(i, _)| {
                        let b = src[..i].chars().last();
                        let a = src[i + ty.len()..].chars().next();
                        !b.is_some_and(|c| c.is_alphanumeric() || c == '_')
                            && !a.is_some_and(|c| c.is_alphanumeric() || c == '_')
                    });
                    if hit {
                        fault(format!("names the VM type {ty}"));
                    }
                }
            }
            // Methods defined only above this layer.
            for m in calls(src) {
                if !below.contains(&m) && defs[k + 1..].iter().any(|d| d.contains(&m)) {
                    fault(format!("calls {m}, defined only above"));
                }
            }
        }
    }
    let n: usize = layers.iter().map(Vec::len).sum();
    println!("checked {n} files in scratch/{{render,vm,blocks}}");
    assert!(faults.is_empty(), "dependencies against render <- vm <- blocks: {faults:#?}");
}

#[test]
fn the_check_sees_a_call_against_the_direction() {
    let vm_src = code("impl Vm { fn step(&mut self) { self.exec_motion(1); } } // self.x()");
    assert_eq!(calls(&vm_src), BTreeSet::from(["exec_motion".to_string()]));
    let blocks = vec![("blocks/motion.rs".to_string(), code("fn exec_motion() {}"))];
    assert!(defined(&blocks).contains("exec_motion"));
    assert!(!code("let s = \"crate::scratch::blocks\";").contains("scratch::blocks"));
}
