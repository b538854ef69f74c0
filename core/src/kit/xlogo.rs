//! XLogo-Mini on a kit: the program-image payload (kind 2) that carries a task and the code to
//! run on it, as the JSON and code texts the XLogo loaders read.

use alloc::string::String;

use serde::{Deserialize, Serialize};

/// Payload of an XLogo program image: the task document and the code, both as text, so the kit
/// runs exactly the loader and emulator the hosts run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct XLogoProgram {
    /// The task JSON (the XLogo task format).
    pub task: String,
    /// The code: a JSON AST (`{"run":[...]}`) or the Python-style text.
    pub code: String,
}
