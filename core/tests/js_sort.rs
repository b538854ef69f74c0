//! `value::sort::js_sort` against orders recorded from Node's V8 (`scripts/js-sort-cases.js`):
//! the comparator scratch-vm's sb2 loader sorts targets with, on keys where some are missing
//! (NaN comparisons) and many are equal, at lengths that exercise binary insertion, run merging
//! and galloping.

use gobo::scratch::value::sort::js_sort;
use serde_json::Value;

#[test]
fn orders_match_v8() {
    let text = include_str!("fixtures/js_sort_cases.json");
    let doc: Value = serde_json::from_str(text).expect("cases");
    let cases = doc["cases"].as_array().expect("cases array");
    assert!(cases.len() > 50);
    for (n, case) in cases.iter().enumerate() {
        let keys: Vec<f64> = case["keys"]
            .as_array()
            .expect("keys")
            .iter()
            .map(|k| k.as_f64().unwrap_or(f64::NAN))
            .collect();
        let want: Vec<usize> = case["order"]
            .as_array()
            .expect("order")
            .iter()
            .map(|i| i.as_u64().unwrap() as usize)
            .collect();
        let mut got: Vec<usize> = (0..keys.len()).collect();
        js_sort(&mut got, |&a, &b| keys[a] - keys[b]);
        assert_eq!(got, want, "case {n} ({} keys)", keys.len());
    }
}
