//! JSON paths built on the stack while walking a document, rendered to `$.tiles[3].walls`
//! only when an error needs them (so the happy path never allocates for them).

use alloc::string::String;
use core::fmt::Write;

/// One step from the document root to the value being read.
#[derive(Debug, Clone, Copy)]
pub(crate) enum JsonPath<'a> {
    Root,
    Key(&'a JsonPath<'a>, &'a str),
    Index(&'a JsonPath<'a>, usize),
}

impl<'a> JsonPath<'a> {
    pub(crate) fn key(&'a self, key: &'a str) -> JsonPath<'a> {
        JsonPath::Key(self, key)
    }

    pub(crate) fn index(&'a self, index: usize) -> JsonPath<'a> {
        JsonPath::Index(self, index)
    }

    /// Renders the path as `$`, `$.goal[0].specs`, ...
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        self.write_to(&mut out);
        out
    }

    fn write_to(&self, out: &mut String) {
        match self {
            JsonPath::Root => out.push('$'),
            JsonPath::Key(parent, key) => {
                parent.write_to(out);
                out.push('.');
                out.push_str(key);
            }
            JsonPath::Index(parent, index) => {
                parent.write_to(out);
                let _ = write!(out, "[{index}]");
            }
        }
    }
}
