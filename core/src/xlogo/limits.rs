//! Budgets and size limits of the XLogo subsystem, in one place. The reference has only the
//! action cap; the others bound what gobo accepts so that no input can exhaust memory or stack.

/// Primitive actions (`fd`, `bk`, `lt`, `rt`, `setpc`) a run may execute: the 100,001st crashes
/// with `EXCEED_MAX_CALLS`, exactly like the reference's `MAX_API_CALLS`.
pub const MAX_ACTIONS: u32 = 100_000;

/// Largest grid side (rows or columns) a task may have. The REAL tasks are at most 8 wide.
pub const MAX_GRID_SIDE: i64 = 64;

/// Largest task text (bytes) [`crate::xlogo::load::task_from_slice`] reads: a 64 x 64 task
/// with every cell described is far smaller; checked before parsing.
pub const MAX_TASK_BYTES: usize = 1 << 20;

/// Deepest nesting of `repeat` blocks accepted in code (both forms).
pub const MAX_CODE_DEPTH: usize = 64;

/// Most AST nodes (statements, including `repeat` blocks) accepted in one program.
pub const MAX_PROGRAM_NODES: usize = 100_000;
