//! JSON Pointers (RFC 6901) into `project.json`, built segment by segment with `~0`/`~1`
//! escaping.

use alloc::string::String;
use core::fmt::Write;

/// A JSON Pointer under construction, e.g. `/targets/1/blocks/a~1b`; the root is `""`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pointer(String);

impl Pointer {
    /// The whole document.
    pub fn root() -> Pointer {
        Pointer(String::new())
    }

    /// `/targets/<t>`.
    pub fn target(t: usize) -> Pointer {
        Pointer::root().key("targets").index(t)
    }

    /// `/targets/<t>/blocks/<id>`.
    pub fn block(t: usize, id: &str) -> Pointer {
        Pointer::target(t).key("blocks").key(id)
    }

    /// Appends an object key, escaping `~` as `~0` and `/` as `~1`.
    pub fn key(mut self, key: &str) -> Pointer {
        self.0.push('/');
        for c in key.chars() {
            match c {
                '~' => self.0.push_str("~0"),
                '/' => self.0.push_str("~1"),
                c => self.0.push(c),
            }
        }
        self
    }

    /// Appends an array index.
    pub fn index(mut self, i: usize) -> Pointer {
        // Writing to a String cannot fail.
        let _ = write!(self.0, "/{i}");
        self
    }

    /// The pointer text.
    pub fn into_string(self) -> String {
        self.0
    }
}

/// Converts a loader path (`targets[1].blocks["a b"].inputs.VALUE[1]`, see
/// [`LoadError`](super::super::LoadError)) to a JSON Pointer; `$` is the root.
pub(crate) fn from_load_path(path: &str) -> String {
    let mut p = Pointer::root();
    let mut rest = path.trim_start_matches('$');
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("[\"") {
            // A quoted key: Rust debug escaping, read back up to the closing `"]`.
            let mut key = String::new();
            let mut chars = r.char_indices();
            let mut end = r.len();
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, e)) = chars.next() {
                            key.push(match e {
                                'n' => '\n',
                                't' => '\t',
                                'r' => '\r',
                                '0' => '\0',
                                other => other,
                            });
                        }
                    }
                    '"' => {
                        end = i;
                        break;
                    }
                    c => key.push(c),
                }
            }
            p = p.key(&key);
            rest = r.get(end + 2..).unwrap_or("");
        } else if let Some(r) = rest.strip_prefix('[') {
            let close = r.find(']').unwrap_or(r.len());
            p = match r[..close].parse::<usize>() {
                Ok(i) => p.index(i),
                Err(_) => p.key(&r[..close]),
            };
            rest = r.get(close + 1..).unwrap_or("");
        } else {
            let r = rest.strip_prefix('.').unwrap_or(rest);
            let end = r.find(['.', '[']).unwrap_or(r.len());
            p = p.key(&r[..end]);
            rest = &r[end..];
        }
    }
    p.into_string()
}

#[cfg(test)]
mod tests {
    use super::from_load_path;

    #[test]
    fn load_paths_become_pointers() {
        assert_eq!(from_load_path("$"), "");
        assert_eq!(
            from_load_path("targets[1].blocks[\"a b\"].inputs.VALUE[1]"),
            "/targets/1/blocks/a b/inputs/VALUE/1"
        );
        assert_eq!(
            from_load_path("targets[0].blocks[\"x/y~\"].next"),
            "/targets/0/blocks/x~1y~0/next"
        );
        assert_eq!(
            from_load_path("targets[0].blocks[\"q\\\"]\"].next"),
            "/targets/0/blocks/q\"]/next"
        );
    }
}
