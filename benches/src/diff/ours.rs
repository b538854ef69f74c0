//! gobo's side of a differential run: a generated [`Program`] packed as `.sb3` bytes (the same
//! bytes the references load) and run the way `gobo run` runs a project, with the reference
//! harnesses' settings (no audio engine, nothing drags), giving the trace lines.

use gobo::scratch::scenario::Scenario;
use gobo::scratch::trace::{end_line, run_frames};
use gobo::scratch::vm::sound::AudioMode;
use gobo::scratch::vm::{Config, Vm};
use gobo_host::project::compile_files;
use gobo_host::sb3::{read_bytes, write_sb3, Limits, ProjectFiles};

use super::gen::Program;

/// The program as an `.sb3` archive (deterministic bytes).
pub fn pack(p: &Program) -> Result<Vec<u8>, String> {
    let mut files =
        ProjectFiles { project_json: p.project_json.clone().into_bytes(), ..Default::default() };
    for (name, bytes) in &p.assets {
        files.assets.insert(name.clone(), bytes.to_vec());
    }
    write_sb3(&files).map_err(|e| e.to_string())
}

/// The virtual machine settings of a program (those of the reference harnesses).
pub fn config(p: &Program) -> Config {
    Config {
        seed: p.seed,
        fps: 30,
        ticks_per_frame: p.ticks_per_frame,
        warp_checks: p.warp_checks,
        turbo: p.turbo,
        audio: AudioMode::None,
        drag: gobo::scratch::vm::drag::DragStyle::None,
        ..Config::default()
    }
}

/// Runs the packed program in gobo: the frame lines, then the end line.
pub fn trace(sb3: &[u8], p: &Program) -> Result<Vec<String>, String> {
    let files = read_bytes(sb3, &Limits::default()).map_err(|e| e.to_string())?;
    let compiled = compile_files(&files).map_err(|e| e.to_string())?;
    let scenario = Scenario::parse(p.scenario_json.as_bytes()).map_err(|e| e.to_string())?;
    let mut vm = Vm::new(compiled.image, config(p)).map_err(|e| e.to_string())?;
    let mut lines = Vec::new();
    run_frames(&mut vm, &scenario, p.frames, false, &mut |l| lines.push(l.to_string()));
    lines.push(end_line(&vm));
    Ok(lines)
}
