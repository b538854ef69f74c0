//! `gobo::scratch::value::jsmath` is correctly rounded: `tests/fixtures/js_sin_cos.txt` holds
//! arguments (degrees −720..720 by ½° as radians, pseudo-random values up to ±10^6 and tiny
//! ones) with the correctly rounded sin / cos (mpmath at 200 bits); every one must match bit
//! for bit. (Chromium's glibc-derived sin/cos agree with these on all but 13 of the 3,731.)

use gobo::scratch::value::jsmath::{atan2, cos, sin};

/// The rows of a fixture: each a list of doubles written as hexadecimal bit patterns.
fn rows(name: &str) -> Vec<Vec<f64>> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name);
    let text = std::fs::read_to_string(path).expect("fixture");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            line.split(' ')
                .map(|h| f64::from_bits(u64::from_str_radix(h, 16).expect("hex")))
                .collect()
        })
        .collect()
}

/// Asserts that no row differs (listing the first 20 that do).
fn assert_none_differ(n: usize, bad: &[String]) {
    assert!(
        bad.is_empty(),
        "{} of {n} differ:\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

#[test]
fn sin_and_cos_match_the_browser_bit_for_bit() {
    let rows = rows("js_sin_cos.txt");
    let mut bad = Vec::new();
    for v in &rows {
        if sin(v[0]).to_bits() != v[1].to_bits() || cos(v[0]).to_bits() != v[2].to_bits() {
            bad.push(format!(
                "x={:e}: sin {:e} vs {:e}, cos {:e} vs {:e}",
                v[0],
                sin(v[0]),
                v[1],
                cos(v[0]),
                v[2]
            ));
        }
    }
    assert!(rows.len() > 3000);
    assert_none_differ(rows.len(), &bad);
}

#[test]
fn atan2_is_correctly_rounded() {
    let rows = rows("js_atan2.txt");
    let mut bad = Vec::new();
    for v in &rows {
        let a = atan2(v[0], v[1]);
        if a.to_bits() != v[2].to_bits() {
            bad.push(format!("atan2({:e}, {:e}) = {:e}, expected {:e}", v[0], v[1], a, v[2]));
        }
    }
    assert!(rows.len() > 600);
    assert_none_differ(rows.len(), &bad);
}
