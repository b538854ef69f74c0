//! `gobo::scratch::value::jsmath` is correctly rounded: `tests/fixtures/js_sin_cos.txt` holds
//! arguments (degrees −720..720 by ½° as radians, pseudo-random values up to ±10^6 and tiny
//! ones) with the correctly rounded sin / cos (mpmath at 200 bits); every one must match bit
//! for bit. (Chromium's glibc-derived sin/cos agree with these on all but 13 of the 3,731.)

use gobo::scratch::value::jsmath::{cos, sin};

#[test]
fn sin_and_cos_match_the_browser_bit_for_bit() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/js_sin_cos.txt"),
    )
    .expect("fixture");
    let mut bad = Vec::new();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let v: Vec<f64> = line
            .split(' ')
            .map(|h| f64::from_bits(u64::from_str_radix(h, 16).expect("hex")))
            .collect();
        n += 1;
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
    assert!(n > 3000);
    assert!(
        bad.is_empty(),
        "{} of {n} differ:\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

#[test]
fn atan2_is_correctly_rounded() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/js_atan2.txt"),
    )
    .expect("fixture");
    let mut bad = Vec::new();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let v: Vec<f64> = line
            .split(' ')
            .map(|h| f64::from_bits(u64::from_str_radix(h, 16).expect("hex")))
            .collect();
        n += 1;
        let a = gobo::scratch::value::jsmath::atan2(v[0], v[1]);
        if a.to_bits() != v[2].to_bits() {
            bad.push(format!("atan2({:e}, {:e}) = {:e}, expected {:e}", v[0], v[1], a, v[2]));
        }
    }
    assert!(n > 600);
    assert!(
        bad.is_empty(),
        "{} of {n} differ:\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}
