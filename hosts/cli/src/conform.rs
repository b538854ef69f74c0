//! `gobo conform`: run scratch-vm's execute-fixture protocol (SAY `plan N` / `pass` / `fail` /
//! `end`) on `.sb3` and `.sb2` files and folders (recursively). One line per fixture, then
//! `N passed, N failed`. Exit 0 when every fixture passed, 1 when some failed (an unreadable
//! file fails), 2 when a path is missing or no fixture was found.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::conform::run_fixture;
use gobo::scratch::vm::sound::AudioMode;
use gobo::scratch::vm::Config;

/// Arguments of `gobo conform`.
#[derive(Debug, Args)]
pub struct ConformArgs {
    /// `.sb3`/`.sb2` files or folders holding them.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Frames before a fixture that has not ended counts as timed out.
    #[arg(long, default_value_t = 300)]
    pub max_frames: u64,
    /// Frames per second of the virtual clock.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(30..=60))]
    pub fps: u32,
}

fn collect(p: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = match std::fs::read_dir(p) {
            Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
            Err(e) => return Err(format!("{}: {e}", p.display())),
        };
        entries.sort();
        for e in entries {
            collect(&e, out)?;
        }
    } else if !p.exists() {
        return Err(format!("{}: no such file or folder", p.display()));
    } else if p
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sb3") || e.eq_ignore_ascii_case("sb2"))
    {
        out.push(p.to_path_buf());
    }
    Ok(())
}

/// The verdict line for one fixture and whether it passed.
pub fn check_one(path: &Path, cfg: &Config, max_frames: u64) -> (String, bool) {
    let name = path.display();
    let img = match crate::project_input::load_image(path) {
        Ok(i) => i,
        Err(e) => return (format!("FAIL {name}: {e}"), false),
    };
    match run_fixture(img, cfg.clone(), max_frames) {
        Err(e) => (format!("FAIL {name}: {e}"), false),
        Ok(o) => {
            let plan = o.plan.map_or_else(|| "?".to_string(), |p| p.to_string());
            let mut detail = format!("{}/{plan}", o.pass);
            if !o.failures.is_empty() {
                detail.push_str(&format!(", fail {}: {}", o.failures.len(), o.failures.join("; ")));
            }
            if !o.ended {
                detail.push_str(", no end");
            }
            if o.timed_out {
                detail.push_str(", timeout");
            }
            let ok = o.ok();
            (format!("{} {name} ({detail})", if ok { "ok  " } else { "FAIL" }), ok)
        }
    }
}

/// Run the subcommand.
pub fn run(a: ConformArgs) -> ExitCode {
    let mut files = Vec::new();
    for p in &a.paths {
        if let Err(e) = collect(p, &mut files) {
            return crate::exit::bad_input("conform", e);
        }
    }
    if files.is_empty() {
        let paths: Vec<String> = a.paths.iter().map(|p| p.display().to_string()).collect();
        return crate::exit::bad_input(
            "conform",
            format!("no .sb3 or .sb2 fixture found in {}", paths.join(", ")),
        );
    }
    // The reference harness has no audio engine and no GUI (nothing drags).
    let cfg = Config {
        fps: a.fps,
        audio: AudioMode::None,
        drag: gobo::scratch::vm::drag::DragStyle::None,
        ..Config::default()
    };
    let (mut passed, mut failed) = (0u32, 0u32);
    for f in &files {
        let (line, verdict) = check_one(f, &cfg, a.max_frames);
        println!("{line}");
        if verdict {
            passed += 1;
        } else {
            failed += 1;
        }
    }
    println!("{passed} passed, {failed} failed");
    crate::exit::verdict(failed as usize)
}
