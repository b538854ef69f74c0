//! The one exit-code rule of every command (README, "Exit codes"): 0 = it worked and, for
//! judging commands (`test`, `test --batch`, `conform`, `xlogo eval`, `draw eval`, their
//! batches, `diff-trace`), everything passed; 1 = it ran and some verdict is a failure; 2 = bad
//! input, usage or I/O error, with the message on stderr once as `gobo <command>: <why>`.

use std::process::ExitCode;

/// Some verdict is a failure.
pub const FAILED: u8 = 1;
/// Bad input, usage or I/O.
pub const BAD_INPUT: u8 = 2;

/// 0 when nothing failed, else 1.
pub fn verdict(failed: usize) -> ExitCode {
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(FAILED)
    }
}

/// Prints `gobo <command>: <why>` and returns 2.
pub fn bad_input(command: &str, why: impl std::fmt::Display) -> ExitCode {
    eprintln!("gobo {command}: {why}");
    ExitCode::from(BAD_INPUT)
}

/// A batch's closing line on stderr: rows, how many ran now, passed and failed.
pub fn batch_summary(command: &str, report: &gobo_host::batch::BatchReport, failed: usize) {
    eprintln!(
        "gobo {command}: {} rows ({} evaluated now, {} kept from an earlier run): {} passed, {failed} failed",
        report.rows,
        report.ran,
        report.skipped,
        report.rows - failed
    );
}
