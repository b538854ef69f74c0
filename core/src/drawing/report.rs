//! `draw report`: the DrawingBench paper's tables from result rows — overall first- and
//! final-turn scores (Table 3: mean, standard deviation, median, perfect count and rate), the
//! same by difficulty (Table 4), by category (Tables 5 and 13) and by model (Table 12), the
//! improvement distribution (Table 6), error and warning types on the first and the final turn
//! (Table 7) and action counts. Rows are episode rows ([`super::episode`]) or `draw eval` rows
//! (an episode of one turn). Plain rows in, a report out; reading files is the hosts' part.
//!
//! Definitions (`docs/drawing.md`, "Reports"): "perfect" is a score ≥ 0.9; the final score is
//! the last turn's; an unscored turn counts as 0; the standard deviation is the population's;
//! the median of an even count is the mean of the two middle scores.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write;

use serde::Serialize;
use serde_json::Value;

use super::task::Task;

/// A score at least this is "perfect" (the paper's Key Observations).
pub const PERFECT: f64 = 0.9;

/// The name of a missing category, difficulty or model.
pub const UNKNOWN: &str = "unknown";

/// The paper's difficulty order.
const DIFFICULTIES: [&str; 4] = ["easy", "medium", "hard", "very_hard"];

/// One turn's figures as the report reads them.
#[derive(Debug, Clone, Default, PartialEq)]
struct TurnFacts {
    score: f64,
    scored: bool,
    /// `errors[].type` then `warnings[].type`.
    issues: Vec<String>,
    actions: Option<f64>,
    segments: Option<f64>,
}

fn turn_facts(row: &Value) -> TurnFacts {
    let score = row.get("score").and_then(Value::as_f64);
    let mut issues = Vec::new();
    for key in ["errors", "warnings"] {
        for item in row.get(key).and_then(Value::as_array).into_iter().flatten() {
            if let Some(t) = item.get("type").and_then(Value::as_str) {
                issues.push(String::from(t));
            }
        }
    }
    TurnFacts {
        score: score.unwrap_or(0.0),
        scored: score.is_some() && super::batch::scored(row),
        issues,
        actions: row.pointer("/evaluation_rest/total_actions").and_then(Value::as_f64),
        segments: row.pointer("/metrics/drawing_segments").and_then(Value::as_f64),
    }
}

/// Statistics of one turn position over a group.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Stats {
    /// Mean score.
    pub mean: f64,
    /// Population standard deviation.
    pub sd: f64,
    /// Median score.
    pub median: f64,
    /// Episodes scoring ≥ 0.9.
    pub perfect: usize,
    /// `perfect / episodes`.
    pub perfect_rate: f64,
}

fn stats(scores: &[f64]) -> Stats {
    let n = scores.len();
    if n == 0 {
        return Stats { mean: 0.0, sd: 0.0, median: 0.0, perfect: 0, perfect_rate: 0.0 };
    }
    let mean = scores.iter().sum::<f64>() / n as f64;
    let var = scores.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / n as f64;
    let mut sorted = scores.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = n / 2;
    let median = match (sorted.get(mid), mid.checked_sub(1).and_then(|i| sorted.get(i))) {
        (Some(&hi), Some(&lo)) if n.is_multiple_of(2) => (lo + hi) / 2.0,
        (Some(&m), _) => m,
        _ => 0.0,
    };
    let perfect = scores.iter().filter(|&&s| s >= PERFECT).count();
    Stats { mean, sd: libm::sqrt(var), median, perfect, perfect_rate: perfect as f64 / n as f64 }
}

/// One group's table row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    /// The group's name (a difficulty, category or model; `overall` for all).
    pub name: String,
    /// Episodes in the group.
    pub episodes: usize,
    /// Episodes in which more than one turn ran.
    pub retried: usize,
    /// The first turn.
    pub first: Stats,
    /// The final turn (the last that ran).
    #[serde(rename = "final")]
    pub last: Stats,
    /// `final.mean − first.mean`.
    pub improvement: f64,
}

/// How much episodes improved from the first to the final turn (Table 6), on scores rounded
/// to thousandths: `worse` (< 0), `none` (0), `small` (0.001–0.050), `medium` (0.051–0.099),
/// `large` (≥ 0.100).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Improvement {
    /// The final score is lower.
    pub worse: usize,
    /// No change.
    pub none: usize,
    /// Up by at most 0.05.
    pub small: usize,
    /// Up by more than 0.05 and less than 0.10.
    pub medium: usize,
    /// Up by 0.10 or more.
    pub large: usize,
}

/// How often an error or warning type occurs on the first and on the final turn (Table 7).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IssueCount {
    /// `SYNTAX_ERROR`, `COORDINATE_ERROR`, `LOGIC_ERROR`, `EFFICIENCY_WARNING`, ….
    #[serde(rename = "type")]
    pub kind: String,
    /// Occurrences on first turns.
    pub first: usize,
    /// Occurrences on final turns.
    #[serde(rename = "final")]
    pub last: usize,
}

/// Mean action and segment counts of one turn position (rows of profile `drawingbench-1.0`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Actions {
    /// Turns with counts.
    pub turns: usize,
    /// Mean `evaluation_rest.total_actions`.
    pub mean_actions: f64,
    /// Mean `metrics.drawing_segments`.
    pub mean_segments: f64,
}

/// The report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Rows read (episodes plus error rows).
    pub rows: usize,
    /// Rows with an `error` (the row could not be evaluated): not in any table.
    pub error_rows: usize,
    /// Turns that ran but were not scored (counted as 0).
    pub unscored_turns: usize,
    /// The perfect-score threshold (0.9).
    pub perfect_at: f64,
    /// Every episode.
    pub overall: Group,
    /// By difficulty (easy, medium, hard, very_hard, then others by name).
    pub by_difficulty: Vec<Group>,
    /// By category (most episodes first, then by name).
    pub by_category: Vec<Group>,
    /// By `model` (only when some row names one).
    pub by_model: Vec<Group>,
    /// Table 6.
    pub improvement: Improvement,
    /// Table 7, by type name.
    pub issues: Vec<IssueCount>,
    /// Action counts on the first turn.
    pub actions_first: Actions,
    /// Action counts on the final turn.
    pub actions_final: Actions,
}

#[derive(Debug, Default)]
struct Acc {
    first: Vec<f64>,
    last: Vec<f64>,
    retried: usize,
}

impl Acc {
    fn add(&mut self, first: f64, last: f64, retried: bool) {
        self.first.push(first);
        self.last.push(last);
        self.retried += usize::from(retried);
    }

    fn group(&self, name: &str) -> Group {
        let (first, last) = (stats(&self.first), stats(&self.last));
        Group {
            name: String::from(name),
            episodes: self.first.len(),
            retried: self.retried,
            first,
            last,
            improvement: last.mean - first.mean,
        }
    }
}

#[derive(Debug, Default)]
struct ActionAcc {
    turns: usize,
    actions: f64,
    segments: f64,
}

impl ActionAcc {
    fn add(&mut self, t: &TurnFacts) {
        if let (Some(a), Some(s)) = (t.actions, t.segments) {
            self.turns += 1;
            self.actions += a;
            self.segments += s;
        }
    }

    fn finish(&self) -> Actions {
        let n = self.turns.max(1) as f64;
        Actions {
            turns: self.turns,
            mean_actions: self.actions / n,
            mean_segments: self.segments / n,
        }
    }
}

/// Accumulates rows into a [`Report`] (hosts stream files through it).
#[derive(Debug, Default)]
pub struct ReportBuilder {
    rows: usize,
    error_rows: usize,
    unscored: usize,
    overall: Acc,
    difficulty: BTreeMap<String, Acc>,
    category: BTreeMap<String, Acc>,
    model: BTreeMap<String, Acc>,
    improvement: Improvement,
    issues: BTreeMap<String, (usize, usize)>,
    actions_first: ActionAcc,
    actions_final: ActionAcc,
}

fn label(row: &Value, key: &str, task: Option<&Task>) -> String {
    match row.get(key) {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        _ => {
            let own = task.map(|t| if key == "category" { &t.category } else { &t.difficulty });
            match own {
                Some(s) if !s.is_empty() => s.clone(),
                _ => String::from(UNKNOWN),
            }
        }
    }
}

impl ReportBuilder {
    /// An empty builder.
    pub fn new() -> ReportBuilder {
        ReportBuilder::default()
    }

    /// Adds one row; `tasks` (the dataset, possibly empty) names the category and difficulty
    /// of rows that carry only a `task_index`.
    pub fn add(&mut self, row: &Value, tasks: &[Task]) {
        self.rows += 1;
        if row.get("error").is_some_and(|e| !e.is_null()) {
            self.error_rows += 1;
            return;
        }
        let turns: Vec<TurnFacts> = match row.get("turns").and_then(Value::as_array) {
            Some(ts) => ts.iter().map(turn_facts).collect(),
            None => alloc::vec![turn_facts(row)],
        };
        let (Some(first), Some(last)) = (turns.first(), turns.last()) else {
            self.error_rows += 1;
            return;
        };
        self.unscored += turns.iter().filter(|t| !t.scored).count();
        let task = row
            .get("task_index")
            .and_then(Value::as_u64)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| tasks.get(i));
        let retried = turns.len() > 1;
        self.overall.add(first.score, last.score, retried);
        for (map, key) in [(&mut self.difficulty, "difficulty"), (&mut self.category, "category")] {
            map.entry(label(row, key, task)).or_default().add(first.score, last.score, retried);
        }
        if let Some(m) = row.get("model").filter(|m| !m.is_null()) {
            let name = m.as_str().map_or_else(|| m.to_string(), String::from);
            self.model.entry(name).or_default().add(first.score, last.score, retried);
        }
        let milli = |s: f64| libm::round(s * 1000.0) as i64;
        let d = milli(last.score) - milli(first.score);
        let i = &mut self.improvement;
        match d {
            d if d < 0 => i.worse += 1,
            0 => i.none += 1,
            1..=50 => i.small += 1,
            51..=99 => i.medium += 1,
            _ => i.large += 1,
        }
        for t in &first.issues {
            self.issues.entry(t.clone()).or_default().0 += 1;
        }
        for t in &last.issues {
            self.issues.entry(t.clone()).or_default().1 += 1;
        }
        self.actions_first.add(first);
        self.actions_final.add(last);
    }

    /// The report.
    pub fn finish(&self) -> Report {
        let mut by_difficulty: Vec<Group> = Vec::new();
        for d in DIFFICULTIES {
            if let Some(acc) = self.difficulty.get(d) {
                by_difficulty.push(acc.group(d));
            }
        }
        for (name, acc) in &self.difficulty {
            if !DIFFICULTIES.contains(&name.as_str()) {
                by_difficulty.push(acc.group(name));
            }
        }
        let mut by_category: Vec<Group> = self.category.iter().map(|(n, a)| a.group(n)).collect();
        by_category.sort_by(|a, b| b.episodes.cmp(&a.episodes).then_with(|| a.name.cmp(&b.name)));
        Report {
            rows: self.rows,
            error_rows: self.error_rows,
            unscored_turns: self.unscored,
            perfect_at: PERFECT,
            overall: self.overall.group("overall"),
            by_difficulty,
            by_category,
            by_model: self.model.iter().map(|(n, a)| a.group(n)).collect(),
            improvement: self.improvement,
            issues: self
                .issues
                .iter()
                .map(|(k, &(first, last))| IssueCount { kind: k.clone(), first, last })
                .collect(),
            actions_first: self.actions_first.finish(),
            actions_final: self.actions_final.finish(),
        }
    }
}

/// The report of `rows` held in memory (the server's and Python's `report`).
pub fn report_of<'a>(rows: impl IntoIterator<Item = &'a Value>, tasks: &[Task]) -> Report {
    let mut b = ReportBuilder::new();
    for row in rows {
        b.add(row, tasks);
    }
    b.finish()
}

fn pct(rate: f64) -> String {
    format!("{:.1} %", rate * 100.0)
}

fn group_table(out: &mut String, title: &str, groups: &[Group]) {
    let _ = writeln!(
        out,
        "\n| {title} | episodes | T1 mean | final mean | improve | perfect T1 | perfect final |"
    );
    out.push_str("|---|---:|---:|---:|---:|---:|---:|\n");
    for g in groups {
        let _ = writeln!(
            out,
            "| {} | {} | {:.3} | {:.3} | {:+.3} | {} | {} |",
            g.name,
            g.episodes,
            g.first.mean,
            g.last.mean,
            g.improvement,
            g.first.perfect,
            g.last.perfect
        );
    }
}

impl Report {
    /// The report as JSON (`gobo draw report --json`, `POST /v1/draw/report`).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    /// The report as Markdown tables, laid out as the paper's.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let o = &self.overall;
        let _ = writeln!(
            out,
            "{} episodes ({} retried), {} error rows, {} unscored turns",
            o.episodes, o.retried, self.error_rows, self.unscored_turns
        );
        out.push_str("\n| metric | turn 1 | final | change |\n|---|---:|---:|---:|\n");
        let (f, l) = (&o.first, &o.last);
        let _ = writeln!(
            out,
            "| mean score | {:.3} | {:.3} | {:+.3} |",
            f.mean,
            l.mean,
            l.mean - f.mean
        );
        let _ =
            writeln!(out, "| std deviation | {:.3} | {:.3} | {:+.3} |", f.sd, l.sd, l.sd - f.sd);
        let _ = writeln!(
            out,
            "| perfect (≥ {}) | {}/{} | {}/{} | {:+} |",
            self.perfect_at,
            f.perfect,
            o.episodes,
            l.perfect,
            o.episodes,
            l.perfect as i64 - f.perfect as i64
        );
        let _ =
            writeln!(out, "| perfect rate | {} | {} | |", pct(f.perfect_rate), pct(l.perfect_rate));
        let _ = writeln!(
            out,
            "| median | {:.3} | {:.3} | {:+.3} |",
            f.median,
            l.median,
            l.median - f.median
        );
        group_table(&mut out, "difficulty", &self.by_difficulty);
        group_table(&mut out, "category", &self.by_category);
        if !self.by_model.is_empty() {
            group_table(&mut out, "model", &self.by_model);
        }
        let i = &self.improvement;
        let _ = writeln!(
            out,
            "\n| improvement | worse | none | small (≤ 0.05) | medium (< 0.10) | large (≥ 0.10) |\n|---|---:|---:|---:|---:|---:|\n| episodes | {} | {} | {} | {} | {} |",
            i.worse, i.none, i.small, i.medium, i.large
        );
        if !self.issues.is_empty() {
            out.push_str("\n| type | turn 1 | final |\n|---|---:|---:|\n");
            for c in &self.issues {
                let _ = writeln!(out, "| {} | {} | {} |", c.kind, c.first, c.last);
            }
        }
        let (a, b) = (&self.actions_first, &self.actions_final);
        if a.turns > 0 {
            let _ = writeln!(
                out,
                "\nactions per turn: {:.1} → {:.1}; drawing segments: {:.1} → {:.1}",
                a.mean_actions, b.mean_actions, a.mean_segments, b.mean_segments
            );
        }
        out
    }
}
