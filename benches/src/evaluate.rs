//! The evaluation workloads on the shared material (`../shared`, never copied into the repo):
//! the 85 REAL XLogo tasks with their reference solutions, and DrawingBench's 308 recorded
//! turns with their tasks' criteria. Both gobo and the Python references evaluate the same
//! inputs. The Python references start from already-parsed objects (dicts and lists); gobo is
//! measured both ways: `run` starts from JSON text (parsing task and code, or actions, every
//! time: the host's path), `run_parsed` from parsed JSON values like the references (for XLogo
//! it still builds the task and world from the value every time, as `execute` does).

use std::path::Path;

use gobo::drawing::actions::Actions;
use gobo::drawing::task::{dataset_from_json, Criteria};
use gobo::drawing::ui::UiConfig;
use gobo::xlogo::{code_json, evaluate_bytes, evaluate_program, load, CodeInput, World};
use serde_json::Value;

/// The name of the XLogo workload in the comparison table.
pub const XLOGO_REAL: &str = "xlogo_real";
/// The name of the DrawingBench workload in the comparison table.
pub const DRAWINGBENCH_RECORDED: &str = "drawingbench_recorded";

/// XLogo evaluations: task JSON text and reference-solution JSON text.
#[derive(Debug, Clone)]
pub struct XlogoCases {
    pub cases: Vec<(Vec<u8>, Vec<u8>)>,
    /// The same, parsed.
    pub values: Vec<(Value, Value)>,
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

impl XlogoCases {
    /// Reads `<shared>/xlogo/real_tasks.jsonl`.
    pub fn load(shared: &Path) -> Result<XlogoCases, String> {
        let path = shared.join("xlogo").join("real_tasks.jsonl");
        let text = read(&path)?;
        let mut cases = Vec::new();
        let mut values = Vec::new();
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let row: Value = serde_json::from_str(line)
                .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?;
            let (Some(task), Some(code)) = (row.get("task"), row.get("reference_code")) else {
                return Err(format!(
                    "{} line {}: needs task and reference_code",
                    path.display(),
                    n + 1
                ));
            };
            cases.push((task.to_string().into_bytes(), code.to_string().into_bytes()));
            values.push((task.clone(), code.clone()));
        }
        Ok(XlogoCases { cases, values })
    }

    /// Like [`XlogoCases::run`], from parsed JSON values.
    pub fn run_parsed(&self) -> Result<usize, String> {
        let mut ok = 0;
        for (task, code) in &self.values {
            let task = load::task_from_value(task).map_err(|e| e.to_string())?;
            let world = World::new(&task);
            let program = code_json::parse_value(code).map_err(|e| e.to_string())?;
            ok += usize::from(evaluate_program(&world, &program).success());
        }
        Ok(ok)
    }

    /// Evaluates every case once; returns how many reference solutions succeed.
    pub fn run(&self) -> Result<usize, String> {
        let mut ok = 0;
        for (task, code) in &self.cases {
            let verdict = evaluate_bytes(task, CodeInput::Json(code)).map_err(|e| e.to_string())?;
            ok += usize::from(verdict.success());
        }
        Ok(ok)
    }
}

/// DrawingBench evaluations: raw action JSON text, the task's criteria, the recorded score.
#[derive(Debug, Clone)]
pub struct DrawingCases {
    pub ui: UiConfig,
    pub cases: Vec<(Vec<u8>, Criteria, Option<f64>)>,
    /// The actions parsed (`None` where the text is not a list of actions: those cases are
    /// judged from the text in [`DrawingCases::run_parsed`] too).
    pub parsed: Vec<Option<Actions>>,
}

impl DrawingCases {
    /// Reads `<shared>/drawingbench/{recorded_batch_results_all_all,dataset_consolidated,UI_CONFIG}.json`.
    /// Records and tasks pair up by position (three task ids occur twice).
    pub fn load(shared: &Path) -> Result<DrawingCases, String> {
        let dir = shared.join("drawingbench");
        let ui = UiConfig::from_json(&read(&dir.join("UI_CONFIG.json"))?)
            .map_err(|e| format!("UI_CONFIG.json: {e}"))?;
        let tasks = dataset_from_json(&read(&dir.join("dataset_consolidated.json"))?)
            .map_err(|e| format!("dataset_consolidated.json: {e}"))?;
        let recorded: Value =
            serde_json::from_str(&read(&dir.join("recorded_batch_results_all_all.json"))?)
                .map_err(|e| format!("recorded_batch_results_all_all.json: {e}"))?;
        let records = recorded.as_array().ok_or("recorded results: not a list")?;
        if records.len() != tasks.len() {
            return Err(format!("{} records but {} tasks", records.len(), tasks.len()));
        }
        let mut cases = Vec::new();
        for (rec, task) in records.iter().zip(&tasks) {
            let turns =
                rec.get("results").and_then(Value::as_array).ok_or("record without results")?;
            for turn in turns {
                let actions = turn.get("actions").ok_or("turn without actions")?;
                let score =
                    turn.get("evaluation").and_then(|e| e.get("score")).and_then(Value::as_f64);
                cases.push((actions.to_string().into_bytes(), task.criteria.clone(), score));
            }
        }
        let parsed = cases.iter().map(|(raw, _, _)| Actions::parse(raw).ok()).collect();
        Ok(DrawingCases { ui, cases, parsed })
    }

    /// Like [`DrawingCases::run`], from parsed actions.
    pub fn run_parsed(&self) -> Result<usize, String> {
        let mut same = 0;
        for ((raw, criteria, recorded), actions) in self.cases.iter().zip(&self.parsed) {
            let score = match actions {
                Some(a) => {
                    gobo::drawing::reference::evaluate(a, criteria, &self.ui).ok().map(|e| e.score)
                }
                None => gobo::drawing::judge(raw, criteria, &self.ui)
                    .map_err(|e| e.to_string())?
                    .score(),
            };
            same += usize::from(score == *recorded);
        }
        Ok(same)
    }

    /// Evaluates every case once; returns how many scores equal the recorded ones.
    pub fn run(&self) -> Result<usize, String> {
        let mut same = 0;
        for (raw, criteria, recorded) in &self.cases {
            let verdict =
                gobo::drawing::judge(raw, criteria, &self.ui).map_err(|e| e.to_string())?;
            same += usize::from(verdict.score() == *recorded);
        }
        Ok(same)
    }
}
