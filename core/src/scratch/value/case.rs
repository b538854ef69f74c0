//! JavaScript's `toLowerCase` and `toUpperCase` (Unicode full case mapping, with the final-sigma
//! rule), equal to Rust's `str::to_lowercase` / `str::to_uppercase`, from compact run tables
//! that `core/build.rs` generates from the toolchain's own mapping. `core`'s tables take 25 KiB
//! of flash, these about a tenth of that, which is what lets the Scratch VM fit a small kit.

use alloc::string::String;

mod tables {
    include!(concat!(env!("OUT_DIR"), "/case_tables.rs"));
}

/// The run table's mapping of `c`, if a run covers it.
fn single(table: &[(u32, u32, i32, u32)], c: u32) -> Option<char> {
    let i = table.partition_point(|r| r.0 <= c).checked_sub(1)?;
    let &(first, last, delta, stride) = table.get(i)?;
    if c > last || !(c - first).is_multiple_of(stride) {
        return None;
    }
    char::from_u32(c.checked_add_signed(delta)?)
}

/// Pushes what `c` maps to under `table` / `multi`.
fn push_mapped(
    out: &mut String,
    c: char,
    table: &[(u32, u32, i32, u32)],
    multi: &[(u32, [char; 3])],
) {
    let code = c as u32;
    if let Ok(i) = multi.binary_search_by_key(&code, |m| m.0) {
        for &m in multi[i].1.iter().take_while(|&&m| m != '\0') {
            out.push(m);
        }
        return;
    }
    out.push(single(table, code).unwrap_or(c));
}

fn in_ranges(ranges: &[(u32, u32)], c: char) -> bool {
    let c = c as u32;
    let i = ranges.partition_point(|r| r.0 <= c);
    i > 0 && ranges[i - 1].1 >= c
}

/// Skips case-ignorable characters, then says whether the next one is cased.
fn case_ignorable_then_cased(mut chars: impl Iterator<Item = char>) -> bool {
    chars
        .find(|&c| !in_ranges(tables::CASE_IGNORABLE, c))
        .is_some_and(|c| in_ranges(tables::CASED, c))
}

/// `s.toLowerCase()`.
pub fn to_lower(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else if c == 'Σ' {
            // Σ is ς at the end of a word: after a cased letter and not before one.
            let after = &s[i + c.len_utf8()..];
            let word_final = case_ignorable_then_cased(s[..i].chars().rev())
                && !case_ignorable_then_cased(after.chars());
            out.push(if word_final { 'ς' } else { 'σ' });
        } else {
            push_mapped(&mut out, c, tables::LOWER, tables::LOWER_MULTI);
        }
    }
    out
}

/// `s.toUpperCase()`.
pub fn to_upper(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c.to_ascii_uppercase());
        } else {
            push_mapped(&mut out, c, tables::UPPER, tables::UPPER_MULTI);
        }
    }
    out
}
