//! The connections the editor gives a block of the model (scratch-blocks' previous, next and
//! output connections, and its inputs with their type checks), which decide what
//! `connect_blocks` can join. Catalog and shadow blocks take them from [`super::catalog`];
//! `control_stop` has a next connection only with its `hasnext` mutation; other opcodes use
//! [`catalog::extra_shape`], else what the model shows (a block filling a value input is a
//! reporter, anything else a stack block; its inputs are the ones it has).

use alloc::string::String;
use alloc::vec::Vec;

use super::catalog::{self, Output, Shape};
use crate::scratch::project::edit::Owner;
use crate::scratch::project::{Block, BlockIdx, Blocks};

/// The kind of an input connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputConn {
    /// A value input; `true` when it only takes Boolean reporters.
    Value(bool),
    /// A statement input (C-slot).
    Statement,
}

/// A block's connections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conns {
    /// Previous connection.
    pub previous: bool,
    /// Next connection.
    pub next: bool,
    /// Output connection and its check.
    pub output: Option<Output>,
    /// Inputs with connections, in the editor's order.
    pub inputs: Vec<(String, InputConn)>,
}

impl Conns {
    /// The input named `name`.
    pub fn input(&self, name: &str) -> Option<InputConn> {
        self.inputs.iter().find(|(n, _)| n == name).map(|(_, c)| *c)
    }

    /// The first statement input (a C-block's `SUBSTACK`).
    pub fn first_statement(&self) -> Option<&str> {
        self.inputs.iter().find(|(_, c)| *c == InputConn::Statement).map(|(n, _)| n.as_str())
    }
}

fn has_next_mutation(b: &Block) -> bool {
    b.mutation.as_ref().and_then(|m| m.has_next) == Some(true)
}

/// The connections of block `idx`.
pub fn conns(blocks: &Blocks, idx: BlockIdx) -> Conns {
    let Some(b) = blocks.get(idx) else {
        return Conns { previous: false, next: false, output: None, inputs: Vec::new() };
    };
    if let Some(spec) = catalog::spec(&b.opcode) {
        let inputs = spec
            .args
            .iter()
            .filter_map(|a| match a {
                catalog::Arg::Value(n, boolean) => {
                    Some((String::from(*n), InputConn::Value(*boolean)))
                }
                catalog::Arg::Statement(n) => Some((String::from(*n), InputConn::Statement)),
                catalog::Arg::Field(..) => None,
            })
            .collect();
        let mut c = from_shape(spec.shape, inputs);
        if b.opcode == "control_stop" {
            c.next = has_next_mutation(b);
        }
        return c;
    }
    let inputs: Vec<(String, InputConn)> = b
        .inputs
        .iter()
        .map(|i| {
            let statement =
                i.name.starts_with("SUBSTACK") || catalog::extra_statement(&b.opcode, &i.name);
            (i.name.clone(), if statement { InputConn::Statement } else { InputConn::Value(false) })
        })
        .collect();
    let shape = catalog::extra_shape(&b.opcode).unwrap_or_else(|| match blocks.owner(idx) {
        Owner::Input(p, n) => {
            let slot = blocks.get(p).and_then(|pb| pb.inputs.get(n));
            if slot.is_some_and(|s| s.name.starts_with("SUBSTACK")) {
                Shape::Stack
            } else {
                Shape::Reporter(Output::Any)
            }
        }
        _ => Shape::Stack,
    });
    from_shape(shape, inputs)
}

fn from_shape(shape: Shape, inputs: Vec<(String, InputConn)>) -> Conns {
    let (previous, next, output) = match shape {
        Shape::Hat => (false, true, None),
        Shape::Stack => (true, true, None),
        Shape::Cap => (true, false, None),
        Shape::Reporter(o) => (false, false, Some(o)),
    };
    Conns { previous, next, output, inputs }
}

/// The check scratch-blocks writes for an output (`"Number"`...), for messages.
pub fn output_check(o: Output) -> &'static str {
    match o {
        Output::Any => "null",
        Output::Number => "Number",
        Output::String => "String",
        Output::Boolean => "Boolean",
    }
}
