//! XLogo batch rows on a host's worker threads: the core's `eval_row_with` with one
//! [`TaskCache`] per thread, so the rows a thread evaluates load a shared task once. Used by
//! `gobo xlogo eval --batch`, the server's XLogo batch jobs and `gobo.xlogo.evaluate_batch`.

use std::cell::RefCell;

use gobo::xlogo::batch::{eval_row_with, TaskCache};
use serde_json::Value;

thread_local! {
    static TASKS: RefCell<TaskCache> = RefCell::new(TaskCache::new());
}

/// One output row for one input row `{"id", "task", "code"}` (the same row as
/// `gobo::xlogo::batch::eval_row`).
pub fn xlogo_row(input: &Value) -> Value {
    TASKS.with(|tasks| match tasks.try_borrow_mut() {
        Ok(mut cache) => eval_row_with(input, &mut cache),
        // Re-entered on this thread (not done today): evaluate without the cache.
        Err(_) => gobo::xlogo::batch::eval_row(input),
    })
}
