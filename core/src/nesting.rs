//! How deeply a JSON text nests arrays and objects, found by one scan without parsing, so
//! that parsers can refuse over-deep input with their own limit and message before building
//! anything (serde_json's own limit, 128 levels, counts differently from the formats' limits).

/// The deepest nesting of `[`/`{` in `text` (brackets inside strings do not count). Stops
/// counting past `cap` (returns `cap + 1`).
pub fn json_nesting(text: &[u8], cap: usize) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let (mut in_str, mut escaped) = (false, false);
    for &b in text {
        if in_str {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    max = depth;
                    if max > cap {
                        return cap + 1;
                    }
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

#[cfg(test)]
mod tests {
    use super::json_nesting;

    #[test]
    fn counts_brackets_outside_strings() {
        assert_eq!(json_nesting(br#"{"a":[1,{"b":"[[[{"}]}"#, 100), 3);
        assert_eq!(json_nesting(br#""\"[""#, 100), 0);
        assert_eq!(json_nesting(b"[[[[", 2), 3);
    }
}
