//! DrawingBench episodes: the paper's multi-turn protocol ("Turn 1: initial attempt →
//! evaluation → feedback; Turn 2: improvement based on feedback → re-evaluation; skip Turn 2 if
//! Turn 1 score ≥ 0.9"), generalised to up to `max_turns` turns and a `stop_at` threshold.
//!
//! Each turn's actions are a complete new attempt, scored alone on a fresh canvas: that is
//! what the published experiments did (every one of the 308 recorded turn evaluations is the
//! evaluator run on that turn's actions only). A turn runs only while the previous turn
//! scored below `stop_at` and fewer than `max_turns` turns ran; turns given after the episode
//! stopped are counted as ignored, never scored. A turn the evaluator cannot score (the
//! reference's exception, too many actions) keeps `score: null` and counts as 0 for the
//! protocol. Format of the episode document and row: `docs/drawing.md` ("Episodes").
//!
//! Reading files, writing PNGs and running rows in parallel are the hosts' part.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde_json::{Map, Value};

use super::batch::{eval_json, task_of};
use super::feedback::RETRY_BELOW;
use super::task::{Criteria, Task};
use super::ui::UiConfig;
use super::Profile;

/// The paper's number of turns.
pub const DEFAULT_MAX_TURNS: u32 = 2;
/// The most turns an episode may have.
pub const MAX_TURNS: u32 = 100;

/// How an episode runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpisodeConfig {
    /// Most turns that run (1..=[`MAX_TURNS`]; default 2).
    pub max_turns: u32,
    /// A turn scoring at least this ends the episode (0..=1; default 0.9).
    pub stop_at: f64,
    /// The scoring profile.
    pub profile: Profile,
}

impl Default for EpisodeConfig {
    fn default() -> Self {
        EpisodeConfig {
            max_turns: DEFAULT_MAX_TURNS,
            stop_at: RETRY_BELOW,
            profile: Profile::default(),
        }
    }
}

impl EpisodeConfig {
    /// Checks the bounds; `Err` names the field.
    pub fn check(&self) -> Result<(), EpisodeError> {
        if !(1..=MAX_TURNS).contains(&self.max_turns) {
            return Err(EpisodeError::field("max_turns", "a whole number from 1 to 100"));
        }
        if !(self.stop_at.is_finite() && (0.0..=1.0).contains(&self.stop_at)) {
            return Err(EpisodeError::field("stop_at", "a number from 0 to 1"));
        }
        Ok(())
    }
}

/// Why an episode document cannot be run.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum EpisodeError {
    /// A field is missing or has the wrong type; `path` is a JSON path.
    Field {
        /// Where.
        path: String,
        /// What was expected there.
        expected: &'static str,
    },
    /// The task cannot be found or read.
    Task(String),
}

impl EpisodeError {
    fn field(path: impl Into<String>, expected: &'static str) -> EpisodeError {
        EpisodeError::Field { path: path.into(), expected }
    }
}

impl fmt::Display for EpisodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpisodeError::Field { path, expected } => write!(f, "`{path}` must be {expected}"),
            EpisodeError::Task(why) => write!(f, "task: {why}"),
        }
    }
}

impl core::error::Error for EpisodeError {}

/// One turn as given: the model's raw text and the caller's own figures for it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TurnInput {
    /// The model's raw action text.
    pub raw: Vec<u8>,
    /// `tokens` and `latency_ms` as given, copied into the turn's row.
    pub passthrough: Map<String, Value>,
}

/// Why an episode ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// A turn reached `stop_at`.
    Threshold,
    /// `max_turns` turns ran.
    MaxTurns,
}

impl Stop {
    /// `threshold` or `max_turns`.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Threshold => "threshold",
            Stop::MaxTurns => "max_turns",
        }
    }
}

/// One turn that ran.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnResult {
    /// 1-based.
    pub turn: u32,
    /// The profile's score (`None` when the evaluator could not score the text).
    pub score: Option<f64>,
    /// The `gobo draw eval` row of the turn's text.
    pub row: Map<String, Value>,
}

/// An episode's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Episode {
    /// The configuration it ran under.
    pub config: EpisodeConfig,
    /// The turns that ran, in order.
    pub turns: Vec<TurnResult>,
    /// Turns given after the episode stopped (not scored).
    pub ignored: usize,
    /// Why it ended, or `None` when it waits for another turn.
    pub stop: Option<Stop>,
}

/// Runs the protocol over `turns` (turn 1 first).
pub fn run(
    turns: &[TurnInput],
    criteria: &Criteria,
    ui: &UiConfig,
    config: EpisodeConfig,
) -> Episode {
    let mut out = Episode { config, turns: Vec::new(), ignored: 0, stop: None };
    for (k, input) in turns.iter().enumerate() {
        if out.stop.is_some() {
            out.ignored += 1;
            continue;
        }
        let mut row = eval_json(&input.raw, criteria, ui, config.profile);
        let score = row.get("score").and_then(Value::as_f64);
        for (key, v) in &input.passthrough {
            row.insert(key.clone(), v.clone());
        }
        let turn = u32::try_from(k + 1).unwrap_or(u32::MAX);
        if score.unwrap_or(0.0) >= config.stop_at {
            out.stop = Some(Stop::Threshold);
        } else if turn >= config.max_turns {
            out.stop = Some(Stop::MaxTurns);
        }
        out.turns.push(TurnResult { turn, score, row });
    }
    out
}

impl Episode {
    /// Whether the model gets another turn.
    pub fn needs_next_turn(&self) -> bool {
        self.stop.is_none()
    }

    /// The score of the last turn that ran (the paper's "final" score; `None` before any
    /// turn or when that turn was not scored).
    pub fn final_score(&self) -> Option<f64> {
        self.turns.last().and_then(|t| t.score)
    }

    /// The episode row (`docs/drawing.md`, "Episodes"): `{profile, max_turns, stop_at, turns,
    /// turns_run, turns_ignored, first_score, final_score, stopped, needs_next_turn,
    /// next_turn, feedback_text}`; each turn is `{turn, …the draw eval row}`.
    pub fn to_json(&self) -> Map<String, Value> {
        let turns: Vec<Value> = self
            .turns
            .iter()
            .map(|t| {
                let mut m = Map::new();
                m.insert("turn".into(), Value::from(t.turn));
                for (k, v) in &t.row {
                    m.insert(k.clone(), v.clone());
                }
                Value::Object(m)
            })
            .collect();
        let opt = |s: Option<f64>| s.map_or(Value::Null, Value::from);
        let mut m = Map::new();
        m.insert("profile".into(), Value::from(self.config.profile.name()));
        m.insert("max_turns".into(), Value::from(self.config.max_turns));
        m.insert("stop_at".into(), Value::from(self.config.stop_at));
        m.insert("turns_run".into(), Value::from(self.turns.len()));
        m.insert("turns_ignored".into(), Value::from(self.ignored));
        m.insert("first_score".into(), opt(self.turns.first().and_then(|t| t.score)));
        m.insert("final_score".into(), opt(self.final_score()));
        m.insert("stopped".into(), self.stop.map_or(Value::Null, |s| Value::from(s.name())));
        m.insert("needs_next_turn".into(), Value::from(self.needs_next_turn()));
        m.insert(
            "next_turn".into(),
            if self.needs_next_turn() { Value::from(self.turns.len() + 1) } else { Value::Null },
        );
        m.insert(
            "feedback_text".into(),
            self.turns
                .last()
                .and_then(|t| t.row.get("feedback_recon_text"))
                .cloned()
                .unwrap_or(Value::Null),
        );
        m.insert("turns".into(), Value::Array(turns));
        m
    }
}

/// A parsed episode document: the task, the turns and the configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct EpisodeDoc {
    /// The task.
    pub task: Task,
    /// The turns given.
    pub turns: Vec<TurnInput>,
    /// The configuration (the document's fields over the host's defaults).
    pub config: EpisodeConfig,
    /// Fields copied into the row: `id`, `task_index`, `model`, and `category` / `difficulty`
    /// (the document's, else the task's when it has them).
    pub echo: Map<String, Value>,
}

const DOC_KEYS: [&str; 11] = [
    "id",
    "task",
    "task_index",
    "turns",
    "max_turns",
    "stop_at",
    "profile",
    "model",
    "category",
    "difficulty",
    "task_id",
];

const TURN: &str = "a string, an action list or {actions_raw | actions, tokens?, latency_ms?}";

fn turn_input(v: &Value, k: usize) -> Result<TurnInput, EpisodeError> {
    let path = |key: &str| alloc::format!("turns[{k}]{key}");
    match v {
        Value::String(s) => Ok(TurnInput { raw: s.clone().into_bytes(), passthrough: Map::new() }),
        Value::Array(_) => {
            Ok(TurnInput { raw: v.to_string().into_bytes(), passthrough: Map::new() })
        }
        Value::Object(m) => {
            let mut t = TurnInput::default();
            for (key, value) in m {
                match key.as_str() {
                    "actions_raw" | "actions" => {}
                    "tokens" | "latency_ms" => {
                        t.passthrough.insert(key.clone(), value.clone());
                    }
                    _ => return Err(EpisodeError::field(path(""), TURN)),
                }
            }
            t.raw = match (m.get("actions_raw"), m.get("actions")) {
                (Some(Value::String(s)), _) => s.clone().into_bytes(),
                (Some(_), _) => return Err(EpisodeError::field(path(".actions_raw"), "a string")),
                (None, Some(v)) => v.to_string().into_bytes(),
                (None, None) => {
                    return Err(EpisodeError::field(path(".actions_raw"), "given (or `actions`)"))
                }
            };
            Ok(t)
        }
        _ => Err(EpisodeError::field(path(""), TURN)),
    }
}

/// Reads an episode document `{id?, task | task_index, turns: [...], max_turns?, stop_at?,
/// profile?, model?, category?, difficulty?}` (a task by index is looked up in `tasks`);
/// fields it omits take `defaults`.
pub fn read_doc(
    doc: &Value,
    tasks: &[Task],
    defaults: EpisodeConfig,
) -> Result<EpisodeDoc, EpisodeError> {
    let Value::Object(m) = doc else { return Err(EpisodeError::field("$", "an object")) };
    if let Some(k) = m.keys().find(|k| !DOC_KEYS.contains(&k.as_str())) {
        return Err(EpisodeError::Field {
            path: k.clone(),
            expected: "absent (unknown field; see docs/drawing.md, Episodes)",
        });
    }
    let task = task_of(doc, tasks).map_err(EpisodeError::Task)?;
    let list = match m.get("turns") {
        Some(Value::Array(list)) if !list.is_empty() => list,
        _ => return Err(EpisodeError::field("turns", "a list of at least one turn")),
    };
    let turns =
        list.iter().enumerate().map(|(k, v)| turn_input(v, k)).collect::<Result<Vec<_>, _>>()?;
    let mut config = defaults;
    if let Some(v) = m.get("max_turns") {
        config.max_turns = v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| EpisodeError::field("max_turns", "a whole number from 1 to 100"))?;
    }
    if let Some(v) = m.get("stop_at") {
        config.stop_at =
            v.as_f64().ok_or_else(|| EpisodeError::field("stop_at", "a number from 0 to 1"))?;
    }
    if let Some(v) = m.get("profile") {
        config.profile = v
            .as_str()
            .and_then(Profile::from_name)
            .ok_or_else(|| EpisodeError::field("profile", "drawingbench-1.0 or paper"))?;
    }
    config.check()?;
    let mut echo = Map::new();
    for key in ["id", "task_index", "model"] {
        if let Some(v) = m.get(key) {
            echo.insert(key.into(), v.clone());
        }
    }
    let task_id = m.get("task_id").cloned().unwrap_or_else(|| Value::from(task.id.as_str()));
    echo.insert("task_id".into(), task_id);
    for (key, own) in [("category", &task.category), ("difficulty", &task.difficulty)] {
        match m.get(key) {
            Some(Value::String(s)) => {
                echo.insert(key.into(), Value::from(s.as_str()));
            }
            Some(Value::Null) | None => {
                echo.insert(
                    key.into(),
                    if own.is_empty() { Value::Null } else { Value::from(own.as_str()) },
                );
            }
            Some(_) => return Err(EpisodeError::field(key, "a string")),
        }
    }
    Ok(EpisodeDoc { task, turns, config, echo })
}

impl EpisodeDoc {
    /// Runs the episode: the row of [`Episode::to_json`] after the echoed fields.
    pub fn run(&self, ui: &UiConfig) -> (Episode, Map<String, Value>) {
        let episode = run(&self.turns, &self.task.criteria, ui, self.config);
        let mut row = self.echo.clone();
        for (k, v) in episode.to_json() {
            row.insert(k, v);
        }
        (episode, row)
    }
}

/// The row of one episode document (`gobo draw episode`, its batch lines, `POST
/// /v1/draw/episode`), or `{id?, error}` when the document cannot be run.
pub fn episode_line(doc: &Value, tasks: &[Task], ui: &UiConfig, defaults: EpisodeConfig) -> Value {
    match read_doc(doc, tasks, defaults) {
        Ok(d) => Value::Object(d.run(ui).1),
        Err(e) => {
            let mut m = Map::new();
            if let Some(id) = doc.get("id") {
                m.insert("id".into(), id.clone());
            }
            m.insert("error".into(), Value::from(alloc::format!("{e}")));
            Value::Object(m)
        }
    }
}

/// Whether every turn of an episode row was scored (the exit code of `gobo draw episode`
/// follows it, as `gobo draw eval`'s follows [`super::batch::scored`]).
pub fn all_scored(row: &Value) -> bool {
    row.get("error").is_none_or(Value::is_null)
        && row
            .get("turns")
            .and_then(Value::as_array)
            .is_some_and(|ts| ts.iter().all(super::batch::scored))
}
