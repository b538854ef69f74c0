//! `gobo`: the command-line host. Each subcommand lives in its own module and only adapts I/O
//! (files, arguments, exit codes) to the core library; no semantics live here.

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

mod act;
mod bench;
mod conform;
mod convert;
mod diff_trace;
mod draw;
mod draw_protocol;
mod edit_distance;
mod exit;
mod forge;
mod heap;
mod hooks;
mod json_out;
mod json_patch;
mod lint;
mod observe;
mod oracle;
mod pack;
mod patch;
mod probe;
mod project_input;
mod record;
mod render;
mod run;
mod scenarios;
mod serve;
mod suite_check;
mod test;
mod validate;
mod verify;
mod xlogo;
mod xlogo_analysis;

#[derive(Debug, Parser)]
#[command(
    name = "gobo",
    version,
    about = "Run and judge Scratch 3 (and 2), XLogo-Mini and DrawingBench programs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the program-image format version and the crate version.
    Version,
    /// Compare two traces: first divergent frame and field, per-signal discrepancy, drift.
    DiffTrace(diff_trace::DiffTraceArgs),
    /// Pack a program into a program image for a classroom kit, checking its budgets.
    Pack(pack::PackArgs),
    /// XLogo-Mini: evaluate code against tasks, print prompts, render pictures.
    Xlogo(xlogo::XlogoArgs),
    /// DrawingBench: score action sequences (one file or a batch), run multi-turn episodes, report the paper's tables, render to PNG.
    Draw(draw::DrawArgs),
    /// Run a Scratch project on the virtual clock and write its trace (docs/trace.md).
    Run(run::RunArgs),
    /// Run a Scratch project and write PNGs of its stage at chosen frames (docs/stage.md).
    Render(render::RenderArgs),
    /// Run scratch-vm's execute fixtures (SAY plan/pass/fail/end) on .sb3/.sb2 files and folders.
    Conform(conform::ConformArgs),
    /// Write a project (.sb3, .sb2, a folder or project.json) as an .sb3 archive.
    Convert(convert::ConvertArgs),
    /// Run a Scratch test suite on a project and print per-case verdicts (docs/test-suite.md).
    Test(test::TestArgs),
    /// Suite adequacy: passes every gold, fails every known-wrong program, which cases separate (docs/test-suite.md).
    SuiteCheck(suite_check::SuiteCheckArgs),
    /// Check a Scratch project's structure: blocks, references, custom blocks, assets (docs/patches.md).
    Validate(validate::ValidateArgs),
    /// Apply or invert a block-edit or JSON patch on a Scratch project (docs/patches.md).
    Patch(patch::PatchArgs),
    /// ScratchEval's edit distance d_edit of a candidate fix to the gold fix (docs/patches.md).
    EditDistance(edit_distance::EditDistanceArgs),
    /// Apply an RFC 6902 JSON Patch to any JSON document (docs/patches.md).
    JsonPatch(json_patch::JsonPatchArgs),
    /// Print what a ScratchWorld composite-mode agent sees of a project (docs/observation.md).
    Observe(observe::ObserveArgs),
    /// Serve the HTTP API for agent harnesses, with durable jobs and a viewer (docs/server.md).
    Serve(serve::ServeArgs),
    /// Replay a ScratchWorld composite-mode trajectory on a project and write the result (docs/composite.md).
    Act(act::ActArgs),
    /// Scenario templates instantiated on a project: keys, clicks, messages (docs/bug-forge.md).
    Scenarios(scenarios::ScenariosArgs),
    /// Synthesize a test suite separating a gold from a buggy project (docs/oracles.md).
    Oracle(oracle::OracleArgs),
    /// Inject one validated bug into a project, or a batch of projects (docs/bug-forge.md).
    Forge(forge::ForgeArgs),
    /// Run a benchmark's tasks as gobo suites over a folder of agent outputs and print its metrics.
    Bench(bench::BenchArgs),
    /// Probe a buggy project against its gold one: pass gap, mismatch, divergence, level (docs/signals.md).
    Probe(probe::ProbeArgs),
    /// Verify a candidate fix in stages: static, smoke run, full suite (docs/signals.md).
    Verify(verify::VerifyArgs),
    /// Record stage frames, keyframes, a contact sheet and an animated PNG of a run (docs/evidence.md).
    Record(record::RecordArgs),
    /// Every hat script with its canonical trigger and the state it writes (docs/signals.md).
    Hooks(hooks::HooksArgs),
    /// Binding and barrier findings of a project, or of a patch given its base (docs/lint.md).
    Lint(lint::LintArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    match cli.command {
        Command::Version => {
            println!("gobo {}", env!("CARGO_PKG_VERSION"));
            println!("program image format {}", gobo::image::FORMAT_VERSION);
            ExitCode::SUCCESS
        }
        Command::DiffTrace(args) => diff_trace::run(args),
        Command::Pack(args) => pack::run(args),
        Command::Xlogo(args) => xlogo::run(args),
        Command::Draw(args) => draw::run(args),
        Command::Run(args) => run::run(args),
        Command::Render(args) => render::run(args),
        Command::Conform(args) => conform::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Test(args) => test::run(args),
        Command::SuiteCheck(args) => suite_check::run(args),
        Command::Validate(args) => validate::run(args),
        Command::Patch(args) => patch::run(args),
        Command::EditDistance(args) => edit_distance::run(args),
        Command::JsonPatch(args) => json_patch::run(args),
        Command::Observe(args) => observe::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Act(args) => act::run(args),
        Command::Scenarios(args) => scenarios::run(args),
        Command::Oracle(args) => oracle::run(args),
        Command::Forge(args) => forge::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Probe(args) => probe::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Record(args) => record::run(args),
        Command::Hooks(args) => hooks::run(args),
        Command::Lint(args) => lint::run(args),
    }
}

/// A command line clap refused: help and version print as clap prints them; an error (a value
/// that does not parse, `--frames 18446744073709551616`, an unknown flag) goes to stderr once
/// as `gobo <command>: <clap's message naming the flag>` (with clap's tip and usage lines),
/// exit 2.
fn usage_error(e: clap::Error) -> ExitCode {
    let text = e.render().to_string();
    let Some(message) = text.strip_prefix("error: ") else {
        e.exit();
    };
    let command = std::env::args()
        .nth(1)
        .filter(|name| Cli::command().find_subcommand(name).is_some())
        .map_or_else(String::new, |name| format!(" {name}"));
    eprint!("gobo{command}: {message}");
    ExitCode::from(exit::BAD_INPUT)
}
