//! `scratch::value::case` (JavaScript's `toLowerCase` / `toUpperCase` from compact tables)
//! against Rust's `str::to_lowercase` / `str::to_uppercase`: every character alone, every
//! character around a capital sigma (the final-sigma rule), and random strings mixing cased
//! letters, case-ignorable marks, sigmas and characters with multi-character mappings.

use gobo::scratch::value::case::{to_lower, to_upper};

fn all_chars() -> impl Iterator<Item = char> {
    (0..=0x10FFFFu32).filter_map(char::from_u32)
}

#[test]
fn every_character_maps_as_rust_maps_it() {
    let mut buf = String::new();
    for c in all_chars() {
        buf.clear();
        buf.push(c);
        assert_eq!(to_lower(&buf), buf.to_lowercase(), "lower U+{:04X}", c as u32);
        assert_eq!(to_upper(&buf), buf.to_uppercase(), "upper U+{:04X}", c as u32);
    }
}

#[test]
fn sigma_is_final_exactly_where_rust_says() {
    for c in all_chars() {
        for s in [format!("{c}Σ"), format!("A{c}Σ"), format!("AΣ{c}"), format!("AΣ{c}b")] {
            assert_eq!(to_lower(&s), s.to_lowercase(), "{s:?} (U+{:04X})", c as u32);
        }
    }
}

#[test]
fn random_strings_agree() {
    // Cased letters of several scripts, case-ignorable marks and punctuation, sigmas, spaces,
    // and characters whose mapping is several characters long.
    let alphabet: Vec<char> =
        "aZÄßİıΣσςΑΩάΐ\u{301}\u{345}'.:·ʰ  ǅﬀŉǰĞğДжⅫⓐ𐐀𐐨ᾳᾼ1_\u{200d}\u{e0001}".chars().collect();
    let mut seed = 0x9e37_79b9_u64;
    for _ in 0..200_000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let len = (seed % 9) as usize;
        let s: String =
            (0..len).map(|k| alphabet[((seed >> (8 + 5 * k)) as usize) % alphabet.len()]).collect();
        assert_eq!(to_lower(&s), s.to_lowercase(), "{s:?}");
        assert_eq!(to_upper(&s), s.to_uppercase(), "{s:?}");
    }
}
