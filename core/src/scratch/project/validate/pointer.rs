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
