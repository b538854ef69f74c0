//! Direct reading of the common shape of a model's action list, without building the general
//! JSON tree of [`super::pyjson`]: `[{"action": "moveTo", "x": 120, "y": 80}, ...]` with flat
//! objects whose values are strings without escapes, numbers, `true`, `false` or `null`. It
//! gives exactly what [`super::pyjson::parse_bytes`] followed by
//! [`super::actions::Actions::from_value`] gives, and declines (returns `false`) on anything
//! else: escapes and control characters in strings, `NaN`/`Infinity`, ints beyond `i64`,
//! nested values, a repeated `action`/`x`/`y` key, a byte-order mark, bytes that are not UTF-8,
//! a syntax error, too many actions. The caller then takes the general path, which produces the
//! exact value or error.

use alloc::string::String;

use super::actions::{Action, Actions, Coord, Kind, MAX_ACTIONS};
use super::pyjson::PyValue;

/// A scalar value read by the fast path.
enum Scalar<'a> {
    Str(&'a str),
    Int(i64),
    Float(f64),
    Bool(bool),
    Null,
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    #[inline(always)]
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.i += 1;
        }
    }

    #[inline(always)]
    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// Whether the text continues with `word` (then skipped).
    #[inline(always)]
    fn word<const N: usize>(&mut self, word: &[u8; N]) -> bool {
        match self.s.get(self.i..self.i + N) {
            Some(b) if b == word => {
                self.i += N;
                true
            }
            _ => false,
        }
    }

    /// A string without escapes or control characters, after its opening quote. The text is
    /// not checked as UTF-8 beforehand: bytes past ASCII are only valid inside strings, and
    /// each string is checked here.
    fn string(&mut self) -> Option<&'a str> {
        let start = self.i;
        let rest = self.s.get(start..)?;
        let len = rest.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        if rest.get(len) != Some(&b'"') {
            return None;
        }
        self.i = start + len + 1;
        core::str::from_utf8(rest.get(..len)?).ok()
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.i += 1;
        }
    }

    /// A number as Python's `json` scans it (the same grammar as the general reader).
    fn number(&mut self) -> Option<Scalar<'a>> {
        let start = self.i;
        let negative = self.eat(b'-');
        // The int part's value, accumulated while scanning (None past i64: a BigInt).
        let mut value: Option<i64> = Some(0);
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => {
                while let Some(d @ b'0'..=b'9') = self.peek() {
                    let d = i64::from(d - b'0');
                    value = value.and_then(|v| v.checked_mul(10)).and_then(|v| {
                        if negative {
                            v.checked_sub(d)
                        } else {
                            v.checked_add(d)
                        }
                    });
                    self.i += 1;
                }
            }
            _ => return None,
        }
        let mut float = false;
        if self.peek() == Some(b'.') && matches!(self.s.get(self.i + 1), Some(b'0'..=b'9')) {
            self.i += 1;
            self.digits();
            float = true;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            let mut j = self.i + 1;
            if matches!(self.s.get(j), Some(b'+' | b'-')) {
                j += 1;
            }
            if matches!(self.s.get(j), Some(b'0'..=b'9')) {
                self.i = j;
                self.digits();
                float = true;
            }
        }
        if float {
            let lit = core::str::from_utf8(self.s.get(start..self.i)?).ok()?;
            return lit.parse::<f64>().ok().map(Scalar::Float);
        }
        // An int beyond i64 is a BigInt in the general reader: decline.
        value.map(Scalar::Int)
    }

    fn literal(&mut self, word: &[u8]) -> bool {
        if self.s.get(self.i..self.i + word.len()) == Some(word) {
            self.i += word.len();
            true
        } else {
            false
        }
    }

    fn scalar(&mut self) -> Option<Scalar<'a>> {
        match self.peek()? {
            b'"' => {
                self.i += 1;
                // The action names, compared with their closing quote, before any scanning.
                let name = match self.peek() {
                    Some(b'm') if self.word(b"moveTo\"") => "moveTo",
                    Some(b'm') if self.word(b"mouseDown\"") => "mouseDown",
                    Some(b'm') if self.word(b"mouseUp\"") => "mouseUp",
                    Some(b'c') if self.word(b"click\"") => "click",
                    _ => return self.string().map(Scalar::Str),
                };
                Some(Scalar::Str(name))
            }
            b'-' | b'0'..=b'9' => self.number(),
            b't' if self.literal(b"true") => Some(Scalar::Bool(true)),
            b'f' if self.literal(b"false") => Some(Scalar::Bool(false)),
            b'n' if self.literal(b"null") => Some(Scalar::Null),
            _ => None,
        }
    }
}

#[inline(always)]
fn coord(out: &mut Actions, v: Scalar<'_>) -> Coord {
    match v {
        Scalar::Int(i) => Coord::Int(i),
        Scalar::Float(f) => Coord::Float(f),
        Scalar::Bool(b) => Coord::Bool(b),
        Scalar::Str(s) => Coord::Raw(push(out, PyValue::Str(String::from(s)))),
        Scalar::Null => Coord::Raw(push(out, PyValue::Null)),
    }
}

fn push(out: &mut Actions, v: PyValue) -> u32 {
    out.extras.push(v);
    (out.extras.len() - 1) as u32
}

fn kind(out: &mut Actions, v: Scalar<'_>) -> Kind {
    match v {
        Scalar::Str("moveTo") => Kind::MoveTo,
        Scalar::Str("click") => Kind::Click,
        Scalar::Str("mouseDown") => Kind::MouseDown,
        Scalar::Str("mouseUp") => Kind::MouseUp,
        Scalar::Str(s) => Kind::Other(push(out, PyValue::Str(String::from(s)))),
        Scalar::Int(i) => Kind::Other(push(out, PyValue::Int(i))),
        Scalar::Float(f) => Kind::Other(push(out, PyValue::Float(f))),
        Scalar::Bool(b) => Kind::Other(push(out, PyValue::Bool(b))),
        Scalar::Null => Kind::Other(push(out, PyValue::Null)),
    }
}

/// One object, after its `{`.
fn object(r: &mut Reader<'_>, out: &mut Actions) -> Option<Action> {
    let mut action = Action { kind: Kind::Missing, x: None, y: None };
    let mut seen = 0u8;
    r.ws();
    if r.eat(b'}') {
        return Some(action);
    }
    loop {
        if !r.eat(b'"') {
            return None;
        }
        // The three keys read, compared with their closing quote; any other key is skipped.
        let bit = if r.word(b"action\"") {
            1
        } else if r.word(b"x\"") {
            2
        } else if r.word(b"y\"") {
            4
        } else {
            r.string()?;
            0
        };
        r.ws();
        if !r.eat(b':') {
            return None;
        }
        r.ws();
        let value = r.scalar()?;
        if seen & bit != 0 {
            return None;
        }
        seen |= bit;
        match bit {
            1 => action.kind = kind(out, value),
            2 => action.x = Some(coord(out, value)),
            4 => action.y = Some(coord(out, value)),
            _ => {}
        }
        r.ws();
        if r.eat(b'}') {
            return Some(action);
        }
        if !r.eat(b',') {
            return None;
        }
        r.ws();
    }
}

/// Reads `raw` into `out` (cleared first) if it has the common shape; `false` otherwise, with
/// `out` in an unspecified state.
pub(crate) fn read(raw: &[u8], out: &mut Actions) -> bool {
    out.list.clear();
    out.extras.clear();
    let mut r = Reader { s: raw, i: 0 };
    r.ws();
    if !r.eat(b'[') {
        return false;
    }
    r.ws();
    if !r.eat(b']') {
        loop {
            if !r.eat(b'{') {
                return false;
            }
            let Some(action) = object(&mut r, out) else { return false };
            if out.list.len() >= MAX_ACTIONS {
                return false;
            }
            out.list.push(action);
            r.ws();
            if r.eat(b']') {
                break;
            }
            if !r.eat(b',') {
                return false;
            }
            r.ws();
        }
    }
    r.ws();
    r.i == raw.len()
}

#[cfg(test)]
mod tests {
    use super::read;
    use crate::drawing::actions::Actions;

    /// Whenever the fast path accepts a text, it gives what the general reader gives
    /// (compared as debug text, so that NaN equals NaN).
    fn agrees(raw: &str) -> bool {
        agrees_bytes(raw.as_bytes())
    }

    fn agrees_bytes(raw: &[u8]) -> bool {
        let general = alloc::format!("{:?}", Actions::parse_via_json(raw));
        let mut fast = Actions::default();
        let taken = read(raw, &mut fast);
        if taken {
            assert_eq!(alloc::format!("{:?}", Ok::<_, ()>(fast)), general, "{raw:?}");
        }
        assert_eq!(alloc::format!("{:?}", Actions::parse(raw)), general, "{raw:?}");
        taken
    }

    #[test]
    fn common_shapes_take_the_fast_path_and_agree() {
        for raw in [
            "[]",
            " \\n[ ]\\t",
            r#"[{"action": "moveTo", "x": 120, "y": 80}, {"action": "click"}]"#,
            r#"[{"action":"mouseDown","x":-0,"y":1.5e2},{"action":"mouseUp","x":1.0,"y":-0.0}]"#,
            r#"[{"x": 3, "action": "drag", "note": "ü", "y": null}, {}]"#,
            r#"[{"action": 5, "x": true, "y": "12"}, {"action": null, "x": 1E400}]"#,
            r#"[{"action": "click", "x": 9223372036854775807, "y": -9223372036854775808}]"#,
            r#"[{"action": "moveTo", "x": 1, "y": 2, "x2": 3, "x2": "again"}]"#,
            r#"[{"actions":1,"action":"moveTox","xy":2,"x":"mouseUp","y":"click","yx":"moveTo"}]"#,
            r#"[{"action":"mouse","x":"mouseDown"},{"action":"clic"},{"action":"mouseUpp"}]"#,
            r#"[{"action":"mouseDown"},{"action":"mouseUp"},{"action":"click","":""}]"#,
            r#"[{"action": "ünïcode", "x": "日本", "y": "moveTo "}]"#,
        ] {
            let raw = raw.replace("\\n", "\n").replace("\\t", "\t");
            assert!(agrees(&raw), "{raw:?} should take the fast path");
        }
    }

    #[test]
    fn unusual_texts_fall_back_and_agree() {
        for raw in [
            "",
            "{}",
            "[1]",
            "\u{feff}[]",
            r#"[{"action": "mo\u0076eTo"}]"#,
            r#"[{"action": "moveTo", "x": NaN}]"#,
            r#"[{"action": "moveTo", "x": 92233720368547758070}]"#,
            r#"[{"action": ["moveTo"]}]"#,
            r#"[{"action": "click", "action": "moveTo"}]"#,
            r#"[{"x": 1, "x": 2}]"#,
            r#"[{"action": "click", "x": 1.}]"#,
            r#"[{"action": "click", "x": 01}]"#,
            r#"[{"action": "click"},]"#,
            r#"[{"action": "click"}] x"#,
            "[{\"action\": \"cl\nick\"}]",
            r#"[{"action": "click", "x": {"v": 1}}]"#,
            r#"[{"action": "click", "x": -}]"#,
            r#"[{"action": "moveTo", "x": 1, "note": [1]}]"#,
        ] {
            assert!(!agrees(raw), "{raw:?} should fall back");
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_fall_back_and_agree() {
        for raw in [
            &b"[{\"action\": \"\xff\"}]"[..],
            b"[{\"act\xc3\": 1}]",
            b"[{\"action\": \"click\", \"x\": \"\xc3\"}]",
            b"[\xff]",
            b"[{\"action\": \"moveTo\"}]\xc3\xa9",
            b"\xef\xbb\xbf[]",
        ] {
            assert!(!agrees_bytes(raw), "{raw:?} should fall back");
        }
        assert!(agrees_bytes("[{\"action\": \"é\", \"é\": \"ü\"}]".as_bytes()));
    }

    #[test]
    fn every_prefix_of_a_sequence_agrees() {
        let raw = r#" [ {"action": "moveTo", "x": 100, "y": 25.5}, {"action": "click", "note": false},
            {"action": "mouseDown", "x": 300, "y": 200}, {"action": "mouseUp", "x": 4e2, "y": -1} ] "#;
        for end in 0..=raw.len() {
            if let Some(prefix) = raw.get(..end) {
                agrees(prefix);
            }
        }
    }
}
