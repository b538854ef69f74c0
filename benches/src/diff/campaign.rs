//! A differential-fuzzing campaign: programs `start..start+count` of a seed are generated, run
//! in gobo and in the reference, and compared frame by frame (then the end line). A divergence
//! is minimized and written out as a small project with both traces; a program gobo or the
//! reference cannot finish within the limits is counted as inconclusive with its reason.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use gobo::scratch::diff::{diff_traces, DiffOptions};

use super::gen::{Profile, ProjectDef};
use super::oracle::{Answer, Oracle, Reference};
use super::{minimize, ours, program_def};

/// What a campaign does.
#[derive(Debug, Clone)]
pub struct Options {
    pub seed: u64,
    /// Index of the first program.
    pub start: u64,
    pub count: u64,
    pub profile: Profile,
    pub oracle: Oracle,
    /// `../shared`.
    pub shared: PathBuf,
    /// Report folder (created): `report.jsonl`, `summary.json`, one folder per divergence.
    pub out: PathBuf,
    /// Minimize divergences.
    pub minimize: bool,
    /// Reference runs allowed per minimization.
    pub minimize_runs: u64,
    /// Traces longer than this (bytes, gobo's) are not sent to the reference.
    pub max_trace_bytes: usize,
}

/// The reference's trace lines and gobo's.
pub type TracePair = (Vec<String>, Vec<String>);

/// Where two traces first differ.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    pub frame: u64,
    /// Field path, e.g. `sprites[S0#0].x`, or `end` for the end line.
    pub path: String,
    /// The reference's value.
    pub reference: String,
    /// gobo's value.
    pub gobo: String,
}

/// Why a program could not be compared.
#[derive(Debug, Clone, PartialEq)]
pub enum Inconclusive {
    /// gobo refused or failed to run it (a generator bug if it ever happens).
    Gobo(String),
    /// The reference threw.
    Reference(String),
    /// The reference did not answer in time.
    Timeout,
    /// gobo's trace was longer than the limit.
    TooLarge,
}

impl Inconclusive {
    pub fn kind(&self) -> &'static str {
        match self {
            Inconclusive::Gobo(_) => "gobo-error",
            Inconclusive::Reference(_) => "reference-error",
            Inconclusive::Timeout => "reference-timeout",
            Inconclusive::TooLarge => "trace-too-large",
        }
    }
}

/// The outcome of one program.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Same,
    Diverged(Divergence),
    Inconclusive(Inconclusive),
}

/// Counts of a campaign.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    pub tried: u64,
    pub same: u64,
    pub diverged: u64,
    pub inconclusive: Vec<(String, u64)>,
    pub seconds: f64,
    /// Reference runs made while minimizing.
    pub minimizer_runs: u64,
}

/// Compares the reference's trace lines with gobo's.
pub fn compare(reference: &[String], ours: &[String]) -> Option<Divergence> {
    if reference == ours {
        return None;
    }
    let frames = |t: &[String]| -> String {
        t.iter().filter(|l| !l.starts_with("{\"end\"")).cloned().collect::<Vec<_>>().join("\n")
    };
    if let Ok(report) = diff_traces(&frames(reference), &frames(ours), &DiffOptions::default()) {
        if let Some(d) = report.first {
            return Some(Divergence { frame: d.frame, path: d.path, reference: d.a, gobo: d.b });
        }
    }
    let end =
        |t: &[String]| t.iter().find(|l| l.starts_with("{\"end\"")).cloned().unwrap_or_default();
    let (re, oe) = (end(reference), end(ours));
    if re != oe {
        let frame = ours.len().saturating_sub(1) as u64;
        return Some(Divergence { frame, path: String::from("end"), reference: re, gobo: oe });
    }
    // Same values, different text (number formatting, key order): the first line that differs.
    let i = reference
        .iter()
        .zip(ours)
        .position(|(a, b)| a != b)
        .unwrap_or(reference.len().min(ours.len()));
    Some(Divergence {
        frame: i as u64,
        path: String::from("line"),
        reference: reference.get(i).cloned().unwrap_or_default(),
        gobo: ours.get(i).cloned().unwrap_or_default(),
    })
}

/// Runs one program in gobo and in the reference (the `.sb3` is written to `scratch`).
pub fn check(
    def: &ProjectDef,
    profile: Profile,
    reference: &mut Reference,
    scratch: &Path,
    max_trace_bytes: usize,
) -> (Verdict, Option<TracePair>) {
    let program = def.program(profile);
    let sb3 = match ours::pack(&program) {
        Ok(b) => b,
        Err(e) => return (Verdict::Inconclusive(Inconclusive::Gobo(e)), None),
    };
    let ours = match ours::trace(&sb3, &program) {
        Ok(t) => t,
        Err(e) => return (Verdict::Inconclusive(Inconclusive::Gobo(e)), None),
    };
    if ours.iter().map(String::len).sum::<usize>() > max_trace_bytes {
        return (Verdict::Inconclusive(Inconclusive::TooLarge), None);
    }
    if let Err(e) = fs::write(scratch, &sb3) {
        return (Verdict::Inconclusive(Inconclusive::Gobo(e.to_string())), None);
    }
    match reference.run(scratch, &program) {
        Answer::Trace(theirs) => match compare(&theirs, &ours) {
            None => (Verdict::Same, None),
            Some(d) => (Verdict::Diverged(d), Some((theirs, ours))),
        },
        Answer::Error(e) => (Verdict::Inconclusive(Inconclusive::Reference(e)), None),
        Answer::Timeout => (Verdict::Inconclusive(Inconclusive::Timeout), None),
    }
}

/// Writes a divergence's files: the project (`.sb3` and `project.json`), the scenario and
/// both traces.
pub fn write_case(
    dir: &Path,
    def: &ProjectDef,
    profile: Profile,
    traces: Option<&TracePair>,
) -> std::io::Result<()> {
    fs::create_dir_all(dir)?;
    let p = def.program(profile);
    if let Ok(sb3) = ours::pack(&p) {
        fs::write(dir.join("project.sb3"), sb3)?;
    }
    fs::write(dir.join("project.json"), &p.project_json)?;
    let scenario = format!(
        "{}\n",
        p.scenario_json.trim_end_matches('}').to_string()
            + &format!(
                ",\"ticksPerFrame\":{},\"warpChecks\":{},\"turbo\":{}}}",
                p.ticks_per_frame, p.warp_checks, p.turbo
            )
    );
    fs::write(dir.join("scenario.json"), scenario)?;
    fs::write(dir.join("def.txt"), format!("{def:#?}\n"))?;
    if let Some((theirs, ours)) = traces {
        fs::write(dir.join("reference.jsonl"), theirs.join("\n") + "\n")?;
        fs::write(dir.join("gobo.jsonl"), ours.join("\n") + "\n")?;
    }
    Ok(())
}

/// Runs a campaign (programs `start..start+count` of `seed`); `progress` is called after every
/// program with the counts so far.
pub fn run(opts: &Options, progress: impl FnMut(&Summary)) -> Result<Summary, String> {
    let defs = (opts.start..opts.start + opts.count).map(|i| (i, program_def(opts.seed, i)));
    run_defs(opts, defs, progress)
}

/// Runs a campaign over the given numbered programs (`start` and `count` of `opts` unused).
pub fn run_defs(
    opts: &Options,
    defs: impl IntoIterator<Item = (u64, ProjectDef)>,
    mut progress: impl FnMut(&Summary),
) -> Result<Summary, String> {
    fs::create_dir_all(&opts.out).map_err(|e| format!("{}: {e}", opts.out.display()))?;
    let scratch = opts.out.join("current.sb3");
    let report_path = opts.out.join("report.jsonl");
    let mut report = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&report_path)
        .map_err(|e| format!("{}: {e}", report_path.display()))?;
    let mut reference = Reference::new(opts.oracle, &opts.shared);
    let started = Instant::now();
    let mut s = Summary::default();
    for (index, def) in defs {
        let (verdict, traces) =
            check(&def, opts.profile, &mut reference, &scratch, opts.max_trace_bytes);
        s.tried += 1;
        match &verdict {
            Verdict::Same => s.same += 1,
            Verdict::Diverged(d) => {
                s.diverged += 1;
                let dir = opts.out.join(format!("divergence-{}-{index}", opts.seed));
                let _ = write_case(&dir.join("original"), &def, opts.profile, traces.as_ref());
                let mut line = serde_json::json!({
                    "seed": opts.seed, "index": index, "oracle": opts.oracle.name(),
                    "frame": d.frame, "path": d.path, "reference": d.reference, "gobo": d.gobo,
                    "size": def.size(), "dir": dir,
                });
                if opts.minimize {
                    let (small, runs) = minimize::minimize(&def, opts.minimize_runs, |candidate| {
                        matches!(
                            check(
                                candidate,
                                opts.profile,
                                &mut reference,
                                &scratch,
                                opts.max_trace_bytes
                            )
                            .0,
                            Verdict::Diverged(_)
                        )
                    });
                    s.minimizer_runs += runs;
                    let (v, t) =
                        check(&small, opts.profile, &mut reference, &scratch, opts.max_trace_bytes);
                    let _ = write_case(&dir.join("minimized"), &small, opts.profile, t.as_ref());
                    if let Verdict::Diverged(m) = v {
                        line["minimized"] = serde_json::json!({
                            "size": small.size(), "frame": m.frame, "path": m.path,
                            "reference": m.reference, "gobo": m.gobo,
                        });
                    }
                }
                let _ = writeln!(report, "{line}");
            }
            Verdict::Inconclusive(why) => {
                let kind = why.kind();
                match s.inconclusive.iter_mut().find(|(k, _)| k == kind) {
                    Some(slot) => slot.1 += 1,
                    None => s.inconclusive.push((kind.to_string(), 1)),
                }
                let detail = match why {
                    Inconclusive::Gobo(e) | Inconclusive::Reference(e) => e.clone(),
                    _ => String::new(),
                };
                let line = serde_json::json!({
                    "seed": opts.seed, "index": index, "oracle": opts.oracle.name(),
                    "inconclusive": kind, "detail": detail,
                });
                let _ = writeln!(report, "{line}");
            }
        }
        s.seconds = started.elapsed().as_secs_f64();
        progress(&s);
    }
    let _ = fs::remove_file(&scratch);
    Ok(s)
}
