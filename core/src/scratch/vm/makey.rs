//! The Makey Makey extension's state, one per VM as scratch-vm has one extension instance:
//! the key buffer, the registered sequences and their timeouts. Its hats and listeners live
//! in `crate::scratch::blocks::makeymakey`.

use alloc::collections::VecDeque;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

/// A sequence registered by a `when code pressed` hat.
#[derive(Clone, Debug)]
pub(crate) struct Sequence {
    /// The upper-cased menu value (`"LEFT UP RIGHT"`).
    pub(crate) text: String,
    /// Its words.
    pub(crate) keys: Vec<String>,
    /// Matched within the last 100 ms.
    pub(crate) completed: bool,
}

/// The extension's state (one per VM, as scratch-vm has one extension instance).
#[derive(Clone, Debug, Default)]
pub struct MakeyState {
    /// Whether the project has a `when code pressed` hat (else no key buffer is kept).
    pub(crate) codes: bool,
    pub(crate) buffer: VecDeque<Rc<str>>,
    pub(crate) sequences: Vec<Sequence>,
    /// Pending timeouts clearing `completed`: due time (ms) and sequence index.
    pub(crate) timers: Vec<(f64, usize)>,
}

impl MakeyState {
    /// The state of a project with (`codes`) or without `when code pressed` hats.
    pub(crate) fn new(codes: bool) -> MakeyState {
        MakeyState { codes, ..MakeyState::default() }
    }

    /// `PROJECT_STOP_ALL`: the key buffer is emptied.
    pub(crate) fn stop_all(&mut self) {
        self.buffer.clear();
    }
}
