//! The evaluation workloads on the shared material (`../shared`, never copied into the repo):
//! the 85 REAL XLogo tasks with their reference solutions, and DrawingBench's 308 recorded
//! turns with their tasks' criteria. Both gobo and the Python references evaluate the same
//! inputs; gobo starts from JSON text (it parses task and code / actions on every evaluation),
//! the Python references from already-parsed objects.

use std::path::Path;

use gobo::drawing::task::{dataset_from_json, Criteria};
use gobo::drawing::ui::UiConfig;
use gobo::xlogo::{evaluate_bytes, CodeInput};
use serde_json::Value;

/// The name of the XLogo workload in the comparison table.
pub const XLOGO_REAL: &str = "xlogo_real";
/// The name of the DrawingBench workload in the comparison table.
pub const DRAWINGBENCH_RECORDED: &str = "drawingbench_recorded";

/// XLogo evaluations: task JSON text and reference-solution JSON text.
#[derive(Debug, Clone)]
pub struct XlogoCases {
    pub cases: Vec<(Vec<u8>, Vec<u8>)>,
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
        }
        Ok(XlogoCases { cases })
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
        Ok(DrawingCases { ui, cases })
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
