//! A composite-mode session: a project held in memory, the target being edited, and the 11
//! ScratchWorld actions applied one per step, each answered with ScratchWorld's response
//! envelope (plus gobo's step counters). A [`Session`] is plain data: clone it to fork, turn
//! it into bytes ([`Session::to_bytes`]) to park it.
//!
//! The actions themselves live in `actions` (targets, variables, new blocks, detach,
//! delete), `connect` (the five placements) and `fields` (`set_block_field`).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::args::{ActError, Code};
use super::observe::{observe_ctx, IndexMode, Observation, ObserveMode};
use super::view::{self, Node, TargetBlocks};
use super::{actions, check, connect, fields, Ctx};
use crate::scratch::project::edit::IdGen;
use crate::scratch::project::{BlockForm, Project};

/// What the agent learns from a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Feedback {
    /// The whole envelope.
    #[default]
    Full,
    /// Only the step counters and the next observation, as ScratchWorld's agents see it.
    ObservationOnly,
}

/// How a session behaves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SessionConfig {
    /// `compat`: ScratchWorld's observation and action semantics; `full`: every block visible
    /// and editor semantics where ScratchWorld departs from the editor (`docs/composite.md`).
    pub mode: ObserveMode,
    /// `index` (`#n` and `*BlockIndex` arguments) or `id` (`@id` and `*BlockId` arguments).
    pub index: IndexMode,
    /// Seeds the ids of new blocks, variables and messages.
    pub seed: u64,
    /// Actions before the episode ends (0: no limit). ScratchWorld runs 50.
    pub max_steps: u32,
    /// Named in every response's `meta`.
    pub session_id: String,
    /// Add the observation after the action to every response.
    pub observe_each: bool,
    /// What a response tells.
    pub feedback: Feedback,
    /// Resolve indices against a fresh observation before every action, as ScratchWorld's
    /// client does (it observes before every turn). When false, indices come from the last
    /// [`Session::observe`], and the edits that renumber blocks invalidate it (`INVALID_STATE`
    /// until the next observation), as ScratchWorld's server does.
    pub auto_observe: bool,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            mode: ObserveMode::Compat,
            index: IndexMode::Index,
            seed: 0,
            max_steps: 50,
            session_id: String::from("s-1"),
            observe_each: false,
            feedback: Feedback::Full,
            auto_observe: true,
        }
    }
}

/// How an episode ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finish {
    /// The agent called `done`.
    Done,
    /// The agent called `failed`.
    Failed,
    /// The step limit was reached.
    StepLimit,
}

/// An action as requested or as executed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionEcho {
    /// The API name.
    pub api: String,
    /// Its arguments.
    pub args: Value,
}

/// `meta` of a response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// The session's id.
    pub session_id: String,
    /// Steps used, this one included.
    pub step: u32,
    /// Steps left (`null` without a limit).
    pub steps_left: Option<u32>,
    /// Virtual time the action took: always 0 (hosts that time calls report wall time apart).
    pub duration_ms: u32,
}

/// The response to one action: ScratchWorld's envelope, with gobo's `done`, step counters and
/// optional observation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActResult {
    /// Whether the action did what it was asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub success: Option<bool>,
    /// The action as sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_action: Option<ActionEcho>,
    /// The action as carried out (arguments as the server read them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub executed_action: Option<ActionEcho>,
    /// What the action reports.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ActError>,
    /// Session and step counters.
    pub meta: Meta,
    /// Whether the episode is over (done, failed or out of steps).
    pub done: bool,
    /// The observation after the action, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observation: Option<Observation>,
}

impl ActResult {
    /// Whether the action succeeded (false when feedback is withheld).
    pub fn ok(&self) -> bool {
        self.success == Some(true)
    }

    /// The error code, if it failed.
    pub fn code(&self) -> Option<Code> {
        self.error.as_ref().map(|e| e.code)
    }

    /// Keeps only the step counters and the observation ([`Feedback::ObservationOnly`]).
    fn withhold(&mut self) {
        self.success = None;
        self.requested_action = None;
        self.executed_action = None;
        self.data = None;
        self.error = None;
    }
}

/// Why a session cannot be made or restored.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SessionError {
    /// The project has no targets.
    NoTargets,
    /// Saved session bytes that do not decode.
    BadState(String),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::NoTargets => write!(f, "the project has no targets"),
            SessionError::BadState(why) => write!(f, "saved session: {why}"),
        }
    }
}

impl core::error::Error for SessionError {}

/// What a successful action reports back to the dispatcher.
pub(crate) struct Done {
    pub data: Map<String, Value>,
    pub executed: Map<String, Value>,
    /// Whether the edit renumbers blocks (invalidates the cached observation).
    pub structural: bool,
}

/// A failed action with the arguments it was read as.
pub(crate) struct Failed {
    pub error: ActError,
    pub executed: Option<Map<String, Value>>,
}

impl From<ActError> for Failed {
    fn from(error: ActError) -> Self {
        Failed { error, executed: None }
    }
}

pub(crate) type Outcome = Result<Done, Failed>;

/// A composite-mode session.
#[derive(Debug, Clone)]
pub struct Session {
    pub(crate) project: Project,
    pub(crate) editing: usize,
    pub(crate) config: SessionConfig,
    pub(crate) ids: IdGen,
    step: u32,
    pub(crate) finished: Option<Finish>,
    pub(crate) cache: Option<Observation>,
    /// Breaks the project after an action, to test the check that refuses invalid results.
    #[cfg(test)]
    pub(crate) sabotage: Option<fn(&mut Project, usize)>,
}

/// The saved form of a session.
#[derive(Serialize, Deserialize)]
struct Saved {
    project_json: String,
    editing: u32,
    config: SessionConfig,
    ids: IdGen,
    step: u32,
    finished: Option<Finish>,
    cache: Option<Observation>,
}

impl Session {
    /// Opens `project` as ScratchWorld's editor holds it after loading: compressed primitives
    /// become blocks, top-level ones run last, broadcast messages no block names are gone,
    /// and the first sprite is being edited.
    pub fn new(mut project: Project, config: SessionConfig) -> Result<Session, SessionError> {
        if project.targets.is_empty() {
            return Err(SessionError::NoTargets);
        }
        for t in &mut project.targets {
            let blocks = &mut t.blocks;
            blocks.expand_primitives(|b, parent, input, shadow| {
                TargetBlocks::new(b).id(Node::Prim { parent, input, shadow })
            });
            let tops: Vec<String> = TargetBlocks::new(blocks)
                .scripts()
                .into_iter()
                .filter_map(|i| blocks.get(i))
                .filter(|b| matches!(b.form, BlockForm::Primitive(_)))
                .map(|b| b.id.clone())
                .collect();
            for id in tops {
                if let Some(i) = blocks.index_of(&id) {
                    let last = blocks.len() - 1;
                    blocks.reorder(i, last);
                }
            }
        }
        let editing = view::first_editing_target(&project);
        let mut s = Session {
            project,
            editing,
            ids: IdGen::new(config.seed),
            config,
            step: 0,
            finished: None,
            #[cfg(test)]
            sabotage: None,
            cache: None,
        };
        s.workspace_update();
        Ok(s)
    }

    /// The project as it stands.
    pub fn project(&self) -> &Project {
        &self.project
    }

    /// The session's configuration.
    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// The index of the target being edited.
    pub fn editing(&self) -> usize {
        self.editing
    }

    /// Steps used so far.
    pub fn step(&self) -> u32 {
        self.step
    }

    /// How the episode ended, if it has.
    pub fn finished(&self) -> Option<Finish> {
        self.finished
    }

    pub(crate) fn ctx(&self) -> Ctx<'_> {
        Ctx::live(&self.project, self.editing)
    }

    /// The observation of the current state, without touching the session.
    pub fn peek(&self) -> Observation {
        observe_ctx(&self.ctx(), self.config.mode, self.config.index)
    }

    /// Observes the current state; its index map is what the next action's indices mean.
    pub fn observe(&mut self) -> Observation {
        let o = self.peek();
        self.cache = Some(o.clone());
        o
    }

    /// As [`Session::observe`], also telling whether the session changed: `false` when the
    /// last observation is this one already, so the index map actions resolve against stays
    /// as it was (a host that logs state changes need not log this observation).
    pub fn observe_changed(&mut self) -> (Observation, bool) {
        let o = self.peek();
        let changed = self.cache.as_ref() != Some(&o);
        if changed {
            self.cache = Some(o.clone());
        }
        (o, changed)
    }

    /// The observation of target `target` (an index into the project's targets), as if it
    /// were being edited, without touching the session (the next action's indices still
    /// refer to the editing target). `None` when there is no such target.
    pub fn peek_target(&self, target: usize) -> Option<Observation> {
        (target < self.project.targets.len()).then(|| {
            observe_ctx(&Ctx::live(&self.project, target), self.config.mode, self.config.index)
        })
    }

    /// Replaces the project by an edited version of it, changed outside the session's
    /// actions (a block-edit or JSON patch): it is opened as [`Session::new`] opens a project;
    /// the target being edited stays the one of the same name when there is one; the step
    /// counter, the episode's end and the id generator carry on; the last observation's index
    /// map is dropped.
    pub fn replace_project(&mut self, project: Project) -> Result<(), SessionError> {
        let name = self.project.targets.get(self.editing).map(|t| t.name.clone());
        let fresh = Session::new(project, self.config.clone())?;
        let editing = name
            .and_then(|n| fresh.project.targets.iter().position(|t| t.name == n))
            .unwrap_or(fresh.editing);
        self.project = fresh.project;
        self.editing = editing;
        self.cache = None;
        Ok(())
    }

    /// What scratch-vm does whenever the editor reloads its workspace (selecting a target,
    /// adding a variable): the stage's broadcast messages that no block names are deleted.
    pub(crate) fn workspace_update(&mut self) {
        let live: Vec<String> =
            view::live_broadcasts(&self.project).into_iter().map(String::from).collect();
        let stage = self.project.stage_index();
        if let Some(t) = self.project.targets.get_mut(stage) {
            t.broadcasts.retain(|b| live.contains(&b.id));
        }
    }

    fn meta(&self) -> Meta {
        let left =
            (self.config.max_steps > 0).then(|| self.config.max_steps.saturating_sub(self.step));
        Meta {
            session_id: self.config.session_id.clone(),
            step: self.step,
            steps_left: left,
            duration_ms: 0,
        }
    }

    /// Applies one action, `{"api": ..., "args": {...}}`.
    pub fn act(&mut self, action: &Value) -> ActResult {
        let (api, args) = match action {
            Value::Object(o) => {
                let api = match o.get("api") {
                    Some(Value::String(s)) => super::args::py_strip(s).into(),
                    _ => String::new(),
                };
                let args = match o.get("args") {
                    Some(Value::Object(a)) => a.clone(),
                    _ => Map::new(),
                };
                (api, args)
            }
            _ => (String::new(), Map::new()),
        };
        self.act_call(&api, args)
    }

    /// Applies one action given as text (a line of a trajectory). Text that is not a JSON
    /// object uses up the step with `INVALID_ACTION_PLAN`, as an unparsable reply does in
    /// ScratchWorld.
    pub fn act_text(&mut self, line: &str) -> ActResult {
        match serde_json::from_str::<Value>(line) {
            Ok(v @ Value::Object(_)) => self.act(&v),
            _ => {
                let err = ActError::new(Code::InvalidActionPlan, "the action is not a JSON object");
                self.respond("", Map::new(), Err(err.into()))
            }
        }
    }

    /// Applies one action given as bytes; bytes that are not UTF-8 count as an unparsable reply.
    pub fn act_bytes(&mut self, line: &[u8]) -> ActResult {
        match core::str::from_utf8(line) {
            Ok(text) => self.act_text(text),
            Err(_) => {
                let err = ActError::new(Code::InvalidActionPlan, "the action is not UTF-8 text");
                self.respond("", Map::new(), Err(err.into()))
            }
        }
    }

    /// Applies API `api` with `args`.
    pub fn act_call(&mut self, api: &str, args: Map<String, Value>) -> ActResult {
        if let Some(f) = self.finished {
            let (code, why) = match f {
                Finish::StepLimit => (Code::StepLimit, "the episode has used all its steps"),
                _ => (Code::EpisodeDone, "the episode has ended"),
            };
            let requested = ActionEcho { api: api.into(), args: Value::Object(args) };
            return ActResult {
                success: Some(false),
                requested_action: Some(requested.clone()),
                executed_action: Some(requested),
                data: Some(Value::Object(Map::new())),
                error: Some(ActError::new(code, why)),
                meta: self.meta(),
                done: true,
                observation: None,
            };
        }
        let undo = check::edits(api).then(|| check::save(self));
        let outcome = self.dispatch(api, &args);
        #[cfg(test)]
        if let Some(broken) = self.sabotage {
            broken(&mut self.project, self.editing);
        }
        if let Some(undo) = undo {
            if let Err(error) = check::check(self, api, undo) {
                return self.refuse(api, args, error);
            }
        }
        self.respond(api, args, outcome)
    }

    /// The answer to an action whose result was invalid: the session is as it was before the
    /// action (the step is not used up), and the error names the findings.
    fn refuse(&mut self, api: &str, args: Map<String, Value>, error: ActError) -> ActResult {
        let executed = sanitize(api, &args, self.config.index);
        let wants = self.config.observe_each || self.config.feedback == Feedback::ObservationOnly;
        let observation = wants.then(|| self.observe());
        let requested = ActionEcho { api: api.into(), args: Value::Object(args) };
        let mut r = ActResult {
            success: Some(false),
            requested_action: Some(requested),
            executed_action: Some(ActionEcho { api: api.into(), args: Value::Object(executed) }),
            data: Some(Value::Object(Map::new())),
            error: Some(error),
            meta: self.meta(),
            done: self.finished.is_some(),
            observation,
        };
        if self.config.feedback == Feedback::ObservationOnly {
            r.withhold();
        }
        r
    }

    fn respond(&mut self, api: &str, args: Map<String, Value>, outcome: Outcome) -> ActResult {
        self.step = self.step.saturating_add(1);
        if self.config.max_steps > 0
            && self.step >= self.config.max_steps
            && self.finished.is_none()
        {
            self.finished = Some(Finish::StepLimit);
        }
        let executed_api = String::from(api);
        let (success, data, error, executed) = match outcome {
            Ok(d) => {
                if d.structural {
                    self.cache = None;
                }
                (true, d.data, None, d.executed)
            }
            Err(f) => {
                (false, Map::new(), Some(f.error), f.executed.unwrap_or_else(|| args.clone()))
            }
        };
        let executed = sanitize(&executed_api, &executed, self.config.index);
        let wants = self.config.observe_each || self.config.feedback == Feedback::ObservationOnly;
        let observation = wants.then(|| self.observe());
        let mut r = ActResult {
            success: Some(success),
            requested_action: Some(ActionEcho { api: api.into(), args: Value::Object(args) }),
            executed_action: Some(ActionEcho { api: executed_api, args: Value::Object(executed) }),
            data: Some(Value::Object(data)),
            error,
            meta: self.meta(),
            done: self.finished.is_some(),
            observation,
        };
        if self.config.feedback == Feedback::ObservationOnly {
            r.withhold();
        }
        r
    }

    /// The index map actions resolve against: a fresh observation (auto mode) or the last one.
    pub(crate) fn index_map(&mut self) -> Result<Observation, ActError> {
        if self.config.auto_observe {
            return Ok(self.observe());
        }
        self.cache.clone().ok_or_else(|| {
            ActError::new(
                Code::InvalidState,
                "No cached block data. Call get_blocks_pseudocode first.",
            )
        })
    }

    fn dispatch(&mut self, api: &str, args: &Map<String, Value>) -> Outcome {
        match api {
            "" => Err(ActError::new(Code::InvalidArg, "Missing 'api' field").into()),
            "select_sprite" => actions::select_sprite(self, args),
            "select_stage" => actions::select_stage(self),
            "add_variable" => actions::add_variable(self, args, false),
            "add_list" => actions::add_variable(self, args, true),
            "add_block" => actions::add_block(self, args),
            "connect_blocks" => connect::connect_blocks(self, args),
            "detach_blocks" => actions::detach_blocks(self, args),
            "set_block_field" => fields::set_block_field(self, args),
            "delete_block" => actions::delete_block(self, args),
            "done" | "failed" => {
                self.finished = Some(if api == "done" { Finish::Done } else { Finish::Failed });
                Ok(Done { data: Map::new(), executed: Map::new(), structural: false })
            }
            other => {
                Err(ActError::new(Code::Unsupported, alloc::format!("Unsupported api: {other}"))
                    .into())
            }
        }
    }

    /// The session as bytes (postcard): the project as `project.json`, the rest as is.
    pub fn to_bytes(&self) -> Vec<u8> {
        let saved = Saved {
            project_json: String::from_utf8(crate::scratch::project::save(&self.project))
                .unwrap_or_default(),
            editing: self.editing as u32,
            config: self.config.clone(),
            ids: self.ids,
            step: self.step,
            finished: self.finished,
            cache: self.cache.clone(),
        };
        postcard::to_allocvec(&saved).unwrap_or_default()
    }

    /// A session from [`Session::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Session, SessionError> {
        let saved: Saved = postcard::from_bytes(bytes)
            .map_err(|e| SessionError::BadState(alloc::format!("{e}")))?;
        let project = crate::scratch::project::load(saved.project_json.as_bytes())
            .map_err(|e| SessionError::BadState(alloc::format!("{e}")))?;
        let editing = saved.editing as usize;
        if editing >= project.targets.len() {
            return Err(SessionError::BadState("editing target out of range".into()));
        }
        Ok(Session {
            project,
            editing,
            config: saved.config,
            ids: saved.ids,
            step: saved.step,
            finished: saved.finished,
            #[cfg(test)]
            sabotage: None,
            cache: saved.cache,
        })
    }
}

/// ScratchWorld's `_sanitize_executed_args`: only the catalog's argument names (in id mode,
/// the block id names instead of the indices).
fn sanitize(api: &str, args: &Map<String, Value>, index: IndexMode) -> Map<String, Value> {
    let (src, tgt, blk) = match index {
        IndexMode::Index => ("sourceBlockIndex", "targetBlockIndex", "blockIndex"),
        IndexMode::Id => ("sourceBlockId", "targetBlockId", "blockId"),
    };
    let keys: &[&str] = match api {
        "select_sprite" => &["name"],
        "add_variable" | "add_list" => &["name", "scope"],
        "add_block" => &["blockType", "creation"],
        "connect_blocks" => &[src, tgt, "placement"],
        "detach_blocks" | "delete_block" => &[blk],
        "set_block_field" => &[blk, "fieldName", "value"],
        _ => &[],
    };
    let nested = |k: &str| -> Option<&'static [&'static str]> {
        match (api, k) {
            ("add_block", "creation") => Some(&["variableName", "listName"]),
            ("connect_blocks", "placement") => Some(&["kind", "inputName"]),
            _ => None,
        }
    };
    let mut out = Map::new();
    for &k in keys {
        let Some(v) = args.get(k) else { continue };
        let v = match (nested(k), v) {
            (Some(sub), Value::Object(o)) => Value::Object(
                sub.iter()
                    .filter_map(|s| o.get(*s).map(|v| (String::from(*s), v.clone())))
                    .collect(),
            ),
            _ => v.clone(),
        };
        out.insert(k.into(), v);
    }
    out
}
