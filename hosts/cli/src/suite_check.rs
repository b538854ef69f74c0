//! `gobo suite-check SUITE --pass GOLD... --fail NEG...`: suite adequacy (docs/test-suite.md,
//! "Adequacy"): does the suite pass every reference solution and fail every known-wrong program
//! on every seed, and which cases separate them. The verdict is the core's
//! (`gobo::scratch::suite::Adequacy`) through `gobo_host::judge::check_suite`; this module reads
//! files and prints. Exit 0 when adequate, 1 when not, 2 on bad input.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use gobo::scratch::suite::Adequacy;
use gobo_host::judge::{check_suite, parse_seeds, NamedProject};
use gobo_host::sb3::ProjectFiles;

#[derive(Debug, Args)]
pub struct SuiteCheckArgs {
    /// The test suite (JSON, docs/test-suite.md).
    suite: PathBuf,
    /// Reference solutions the suite must pass (.sb3, folder or project.json).
    #[arg(long = "pass", value_name = "GOLD", num_args = 1.., required = true)]
    golds: Vec<PathBuf>,
    /// Known-wrong programs the suite must fail.
    #[arg(long = "fail", value_name = "NEG", num_args = 1.., required = true)]
    negatives: Vec<PathBuf>,
    /// Run under seeds: `R` (1..=R) or `A..B` (inclusive); default: the suite's own seed.
    #[arg(long)]
    seeds: Option<String>,
    /// Print the verdict as one JSON object on one line.
    #[arg(long)]
    json: bool,
    /// Print the JSON verdict indented (implies --json).
    #[arg(long)]
    pretty: bool,
}

fn load(paths: &[PathBuf]) -> Result<Vec<(String, ProjectFiles)>, String> {
    paths
        .iter()
        .map(|p| Ok((p.display().to_string(), crate::project_input::load_files(p)?)))
        .collect()
}

pub fn run(args: SuiteCheckArgs) -> ExitCode {
    let bad = |e: String| crate::exit::bad_input("suite-check", e);
    let suite = match std::fs::read_to_string(&args.suite) {
        Ok(s) => s,
        Err(e) => return bad(format!("{}: {e}", args.suite.display())),
    };
    let seeds = match args.seeds.as_deref().map(parse_seeds).transpose() {
        Ok(s) => s,
        Err(e) => return bad(e.to_string()),
    };
    let (golds, negatives) = match (load(&args.golds), load(&args.negatives)) {
        (Ok(g), Ok(n)) => (g, n),
        (Err(e), _) | (_, Err(e)) => return bad(e),
    };
    let result =
        check_suite(&suite, &as_named(&golds), &as_named(&negatives), seeds.as_deref(), None);
    let (adequacy, warnings) = match result {
        Ok(r) => r,
        Err(e) => {
            return bad(format!("{} (suite {}): {}", e.program, args.suite.display(), e.error))
        }
    };
    for (program, warning) in &warnings {
        eprintln!("gobo: warning: {program}: {warning}");
    }
    if args.json || args.pretty {
        match serde_json::to_value(&adequacy) {
            Ok(v) => crate::json_out::print(&v, args.pretty),
            Err(e) => return bad(format!("cannot encode the verdict: {e}")),
        }
    } else {
        print!("{}", text(&adequacy));
    }
    crate::exit::verdict(usize::from(!adequacy.adequate))
}

fn as_named(ps: &[(String, ProjectFiles)]) -> Vec<NamedProject<'_>> {
    ps.iter().map(|(name, files)| NamedProject { name, files }).collect()
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        String::from("-")
    } else {
        names.join(", ")
    }
}

fn text(a: &Adequacy) -> String {
    let mut out = String::new();
    for g in &a.golds {
        if g.passed {
            out.push_str(&format!("GOLD PASS   {}\n", g.name));
        } else {
            out.push_str(&format!("GOLD FAIL   {}\n", g.name));
            for f in &g.failures {
                out.push_str(&format!("            {} (seed {}): {}\n", f.case, f.seed, f.reason));
            }
        }
    }
    for n in &a.negatives {
        if n.caught {
            out.push_str(&format!("NEG  CAUGHT {} by {}\n", n.name, list(&n.by)));
        } else {
            out.push_str(&format!(
                "NEG  MISSED {} (failed on {}/{} seeds)\n",
                n.name,
                n.caught_seeds,
                a.seeds.len()
            ));
        }
    }
    out.push_str("cases:\n");
    for c in &a.cases {
        let tag = if c.separating {
            "separating"
        } else if !c.passes_golds {
            "fails gold"
        } else {
            "no catch"
        };
        out.push_str(&format!("  {tag:<10}  {}: catches {}", c.name, list(&c.catches)));
        if !c.flaky_on.is_empty() {
            out.push_str(&format!("; on some seeds only: {}", list(&c.flaky_on)));
        }
        if !c.fails_golds.is_empty() {
            out.push_str(&format!("; fails gold {}", list(&c.fails_golds)));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "{}: golds passed {}/{}, negatives caught {}/{} (seeds {})\n",
        if a.adequate { "adequate" } else { "NOT adequate" },
        a.golds_passed,
        a.golds_total,
        a.negatives_caught,
        a.negatives_total,
        a.seeds.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
    ));
    out
}
