//! `gobo verify CANDIDATE --suite S --level 0|1|2`: staged verification of a candidate fix
//! (`gobo::scratch::signals::verify`, docs/signals.md): static checks, a smoke run, the full
//! suite, stopping at the first failing stage. Exit 0 when every requested stage passed, 1
//! when one failed (a candidate whose `project.json` does not load fails the static stage), 2
//! when the candidate's files or the suite cannot be read.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::signals::VerifyConfig;
use gobo_host::cost::{Stopwatch, Timed};
use gobo_host::repair;

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The candidate project: an .sb3, a folder holding project.json, or a project.json file.
    candidate: PathBuf,
    /// The test suite (docs/test-suite.md).
    #[arg(long)]
    suite: PathBuf,
    /// 0: static checks; 1: and a smoke run; 2: and the full suite.
    #[arg(long, default_value_t = 2)]
    level: u8,
    /// Frame cap of each smoke case.
    #[arg(long, default_value_t = 300)]
    frames: u64,
    /// Seeds 1..=N of the full suite.
    #[arg(long, default_value_t = 5)]
    seeds: u32,
    /// Least pass rate of a case in the full suite.
    #[arg(long, default_value_t = 0.9)]
    theta_pass: f64,
    /// Print the verification as one JSON document.
    #[arg(long)]
    json: bool,
    /// Indent the JSON (implies --json).
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: VerifyArgs) -> ExitCode {
    let bad = |why: String| crate::exit::bad_input("verify", why);
    let watch = Stopwatch::start();
    let files = match crate::project_input::load_files(&args.candidate) {
        Ok(f) => f,
        Err(e) => return bad(e),
    };
    let suite = match crate::probe::read_json(&args.suite) {
        Ok(s) => s,
        Err(e) => return bad(e),
    };
    let cfg = VerifyConfig {
        level: args.level,
        smoke_frames: args.frames,
        seeds: args.seeds,
        theta_pass: args.theta_pass,
    };
    let v = match repair::verify(&files, &suite, &cfg) {
        Ok(v) => v,
        Err(e) => return bad(format!("{}: {e}", args.suite.display())),
    };
    if args.json || args.pretty {
        let timed = Timed { result: &v, time: watch.timing() };
        crate::json_out::print(&serde_json::to_value(timed).unwrap_or_default(), args.pretty);
    } else {
        for s in &v.stages {
            match &s.reason {
                None => println!("{}: passed", s.stage.name()),
                Some(r) => println!("{}: FAILED: {r}", s.stage.name()),
            }
        }
        println!("{}", if v.passed { "verified" } else { "not verified" });
    }
    crate::exit::verdict(usize::from(!v.passed))
}
