//! The one JSON style of every command that prints JSON (README, "Exit codes"): one compact
//! document on one line by default, indented with `--pretty` (which implies `--json` where a
//! command also has human text).

use std::io::Write;

/// Prints `value` on stdout, compact on one line or indented. A closed stdout (`| head`) is
/// not worth a panic and is ignored.
pub fn print(value: &serde_json::Value, pretty: bool) {
    let text =
        if pretty { serde_json::to_string_pretty(value) } else { serde_json::to_string(value) };
    // Serialising a `serde_json::Value` cannot fail (its keys are strings); say so if it does.
    let text = text.unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}
