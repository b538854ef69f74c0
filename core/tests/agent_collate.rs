//! gobo's name orders against the browser's, side by side: 3,000 random names over ASCII and
//! the Latin-1 letters, sorted by node's `Intl.Collator([], {sensitivity: 'base', numeric:
//! true})` (scratch-gui's variable menus) and `localeCompare` (ScratchWorld's variable header),
//! must sort the same way with `agent::collate`. Skips visibly without node.

#[path = "../../tests-support/reference.rs"]
mod reference;

use std::cmp::Ordering;
use std::io::Write;
use std::process::{Command, Stdio};

use gobo::scratch::agent::collate;

/// mulberry32, so the names are the same on every run.
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_add(0x6d2b_79f5);
        let mut t = self.0;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        t ^ (t >> 14)
    }
}

fn names() -> Vec<String> {
    let alphabet: Vec<char> = (' '..='~')
        .chain("àáâãäåçèéêëìíîïñòóôõöøùúûüýÿÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖØÙÚÛÜÝðÐ".chars())
        .chain("aabbeezz0012".chars())
        .collect();
    let mut rng = Rng(7);
    (0..3000)
        .map(|_| {
            let len = 1 + rng.next() as usize % 6;
            (0..len).map(|_| alphabet[rng.next() as usize % alphabet.len()]).collect()
        })
        .collect()
}

/// Sorts `names` in node with `compare` (a JavaScript expression over `a` and `b`).
fn node_sort(names: &[String], compare: &str) -> Option<Vec<String>> {
    let script = format!(
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{{const v=JSON.parse(s);const c=new Intl.Collator([],{{sensitivity:'base',numeric:true}});v.sort((a,b)=>{compare});console.log(JSON.stringify(v));}});"
    );
    let mut child = Command::new("node")
        .args(["-e", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(serde_json::to_string(names).ok()?.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    out.status.success().then(|| serde_json::from_slice(&out.stdout).ok())?
}

fn check(compare_js: &str, ours: fn(&str, &str) -> Ordering) {
    let names = names();
    let Some(expected) = node_sort(&names, compare_js) else {
        reference::skipped("agent_collate::check", "node is not available");
        return;
    };
    reference::ran("agent_collate::check");
    let mut got = names.clone();
    got.sort_by(|a, b| ours(a, b));
    let first = got.iter().zip(&expected).position(|(a, b)| a != b);
    if let Some(i) = first {
        panic!(
            "orders differ at {i}: gobo {:?}, node {:?}",
            &got[i.saturating_sub(2)..i + 3],
            &expected[i.saturating_sub(2)..i + 3]
        );
    }
}

#[test]
fn variable_menu_order_matches_intl_collator() {
    check("c.compare(a,b)", collate::base_numeric);
}

#[test]
fn header_order_matches_locale_compare() {
    check("a.localeCompare(b)", collate::locale_compare);
}

#[test]
fn default_sort_is_code_unit_order() {
    check("a<b?-1:a>b?1:0", collate::code_units);
}
