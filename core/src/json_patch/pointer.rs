//! JSON Pointers (RFC 6901): parsing `"/a~1b/0"` into reference tokens, and the array-index
//! rule (`0` or digits without a leading zero; `-` is the end, for `add` only).

use alloc::string::String;
use alloc::vec::Vec;

/// Why a pointer is malformed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointerError {
    /// A non-empty pointer must start with `/`.
    NoLeadingSlash,
    /// `~` must be followed by `0` or `1`.
    BadEscape,
}

/// The reference tokens of a pointer; `""` (the whole document) has none.
pub fn parse(text: &str) -> Result<Vec<String>, PointerError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = text.strip_prefix('/') else {
        return Err(PointerError::NoLeadingSlash);
    };
    rest.split('/').map(unescape).collect()
}

fn unescape(token: &str) -> Result<String, PointerError> {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return Err(PointerError::BadEscape),
            }
        } else {
            out.push(c);
        }
    }
    Ok(out)
}

/// Escapes one token (`~` → `~0`, `/` → `~1`).
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// An array index token: `0`, or digits not starting with `0`; `None` otherwise (`-`,
/// `01`, `1e0`, `-1`...). Indices beyond `usize` are `None`.
pub fn array_index(token: &str) -> Option<usize> {
    let b = token.as_bytes();
    let ok = !b.is_empty() && b.iter().all(u8::is_ascii_digit) && (b.len() == 1 || b[0] != b'0');
    if ok {
        token.parse().ok()
    } else {
        None
    }
}
