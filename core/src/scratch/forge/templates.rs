//! Scenario templates (SPEC §2.5, Algorithm 2 `SCENARIOINSTANTIATE`): each template, given a
//! project's [`Metadata`], becomes zero or more test-suite cases without expectations
//! (`docs/test-suite.md`), deduplicated. Every step carries an explicit `at_frame` and is an
//! instant input, so the oracle can place a checkpoint assertion at any frame between them;
//! every case ends with the mark `end` at frame H (the tick budget).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;
use serde_json::{json, Value as Json};

use super::meta::Metadata;

/// A template of the library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Template {
    /// Green flag; run to H.
    Flag,
    /// Green flag; at 1 s press the key for 0.5 s; again every second, 5 times (one case per
    /// key).
    FlagKey,
    /// Green flag; every extracted key in turn, 0.5 s each, twice round.
    FlagKeys,
    /// Green flag; click the sprite at 1, 2 and 3 s (one case per clickable sprite).
    FlagClick,
    /// Green flag; at 1 s broadcast the message (one case per received message).
    FlagBroadcast,
    /// Green flag; answer every question from `["1", "hello", "yes"]` cycled.
    FlagAnswers,
    /// Green flag; sweep the mouse across the stage and press it in the middle.
    FlagMouse,
    /// Green flag; at 1 s set a life counter to 0 (one case per counter).
    FlagDrive,
}

impl Template {
    /// Every template, in library order.
    pub const ALL: [Template; 8] = [
        Template::Flag,
        Template::FlagKey,
        Template::FlagKeys,
        Template::FlagClick,
        Template::FlagBroadcast,
        Template::FlagAnswers,
        Template::FlagMouse,
        Template::FlagDrive,
    ];

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Template::Flag => "flag",
            Template::FlagKey => "flag_key",
            Template::FlagKeys => "flag_keys",
            Template::FlagClick => "flag_click",
            Template::FlagBroadcast => "flag_broadcast",
            Template::FlagAnswers => "flag_answers",
            Template::FlagMouse => "flag_mouse",
            Template::FlagDrive => "flag_drive",
        }
    }

    /// The template with this name.
    pub fn from_name(name: &str) -> Option<Template> {
        Template::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// How templates are instantiated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScenarioConfig {
    /// Templates to use.
    pub templates: Vec<Template>,
    /// Frames per second (Scratch: 30).
    pub fps: u32,
    /// The tick budget H: every case runs this many frames.
    pub frames: u64,
    /// Most cases kept (the first ones in template order).
    pub max_cases: usize,
}

impl Default for ScenarioConfig {
    fn default() -> Self {
        ScenarioConfig { templates: Template::ALL.to_vec(), fps: 30, frames: 2000, max_cases: 12 }
    }
}

/// Longest tick budget accepted (one virtual hour at 30 fps): larger ones are clamped.
pub const MAX_FRAMES: u64 = 108_000;

/// The instantiated cases with the metadata they came from (`POST /v1/scenarios/instantiate`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scenarios {
    /// What the templates were given.
    pub meta: Metadata,
    /// Frames per second and tick budget of the cases.
    pub fps: u32,
    /// The tick budget H.
    pub frames: u64,
    /// Suite v1 cases without expectations.
    pub cases: Vec<Json>,
}

impl Scenarios {
    /// The cases as a runnable suite v1 document.
    pub fn suite(&self, name: &str) -> Json {
        json!({"version": 1, "name": name, "fps": self.fps, "tests": self.cases})
    }
}

struct Builder {
    fps: u64,
    frames: u64,
    steps: Vec<(u64, Json)>,
}

impl Builder {
    fn sec(&self, s: f64) -> u64 {
        // Whole frames; the templates' times are multiples of 1/30 s at 30 fps.
        libm::round(s * self.fps as f64) as u64
    }

    fn at(&mut self, frame: u64, mut step: Json) {
        if frame >= self.frames {
            return;
        }
        if let Json::Object(m) = &mut step {
            m.insert(String::from("at_frame"), json!(frame));
        }
        self.steps.push((frame, step));
    }

    fn case(mut self, name: String, answers: Option<Json>) -> Json {
        self.steps.sort_by_key(|(f, _)| *f);
        let mut steps: Vec<Json> = self.steps.into_iter().map(|(_, s)| s).collect();
        steps.push(json!({"at_frame": self.frames, "mark": "end"}));
        let timeout = libm::ceil(self.frames as f64 / self.fps as f64) + 1.0;
        let mut case = json!({"name": name, "timeout": timeout, "steps": steps});
        if let (Some(a), Json::Object(m)) = (answers, &mut case) {
            m.insert(String::from("answers"), a);
        }
        case
    }
}

/// Instantiates the templates on `meta`.
pub fn instantiate(meta: &Metadata, cfg: &ScenarioConfig) -> Scenarios {
    let fps = u64::from(cfg.fps.max(1));
    let frames = cfg.frames.clamp(1, MAX_FRAMES);
    let new = || {
        let mut b = Builder { fps, frames, steps: Vec::new() };
        b.at(0, json!({"do": "green_flag"}));
        b
    };
    let mut cases: Vec<Json> = Vec::new();
    let mut push = |case: Json| {
        let same = |c: &Json| {
            c.get("steps") == case.get("steps") && c.get("answers") == case.get("answers")
        };
        if !cases.iter().any(same) {
            cases.push(case);
        }
    };
    let mut templates = cfg.templates.clone();
    templates.sort();
    templates.dedup();
    for t in templates {
        match t {
            Template::Flag => push(new().case(String::from("flag"), None)),
            Template::FlagKey => {
                for k in &meta.keys {
                    let mut b = new();
                    for i in 0..5 {
                        let down = b.sec(1.0 + i as f64);
                        b.at(down, json!({"do": "key_down", "key": k}));
                        b.at(down + b.sec(0.5), json!({"do": "key_up", "key": k}));
                    }
                    push(b.case(format!("flag_key({k})"), None));
                }
            }
            Template::FlagKeys if meta.keys.len() > 1 => {
                let mut b = new();
                let n = meta.keys.len() * 2;
                for i in 0..n {
                    let k = &meta.keys[i % meta.keys.len()];
                    let down = b.sec(1.0 + 0.5 * i as f64);
                    b.at(down, json!({"do": "key_down", "key": k}));
                    b.at(down + b.sec(0.5) - 1, json!({"do": "key_up", "key": k}));
                }
                push(b.case(String::from("flag_keys"), None));
            }
            Template::FlagClick => {
                for s in &meta.clickable {
                    let mut b = new();
                    for i in 1..=3 {
                        let at = b.sec(i as f64);
                        b.at(at, json!({"do": "click", "sprite": s}));
                    }
                    push(b.case(format!("flag_click({s})"), None));
                }
            }
            Template::FlagBroadcast => {
                for m in &meta.messages {
                    let mut b = new();
                    let at = b.sec(1.0);
                    b.at(at, json!({"do": "broadcast", "message": m}));
                    push(b.case(format!("flag_broadcast({m})"), None));
                }
            }
            Template::FlagAnswers if meta.asks => {
                let rules: Vec<Json> =
                    (0..12).map(|i| json!(["1", "hello", "yes"][i % 3])).collect();
                push(new().case(String::from("flag_answers"), Some(Json::Array(rules))));
            }
            Template::FlagMouse if meta.mouse => {
                let mut b = new();
                for i in 0..=24u32 {
                    let x = -240.0 + 20.0 * f64::from(i);
                    let y = 180.0 - 15.0 * f64::from(i);
                    let at = b.sec(1.0) + 3 * u64::from(i);
                    b.at(at, json!({"do": "mouse_move", "x": x, "y": y}));
                }
                let down = b.sec(2.0) + 75;
                b.at(down, json!({"do": "mouse_down", "x": 0, "y": 0}));
                b.at(down + 3, json!({"do": "mouse_up", "x": 0, "y": 0}));
                push(b.case(String::from("flag_mouse"), None));
            }
            Template::FlagDrive => {
                for [sprite, var] in &meta.counters {
                    let mut b = new();
                    let at = b.sec(1.0);
                    let mut step = json!({"do": "set_variable", "variable": var, "value": 0});
                    if sprite != "Stage" {
                        step["sprite"] = json!(sprite);
                    }
                    b.at(at, step);
                    push(b.case(format!("flag_drive({var}=0)"), None));
                }
            }
            _ => {}
        }
    }
    cases.truncate(cfg.max_cases.max(1));
    Scenarios { meta: meta.clone(), fps: fps as u32, frames, cases }
}

/// Parses a comma-separated template list (`flag,flag_key`).
pub fn parse_templates(text: &str) -> Result<Vec<Template>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            Template::from_name(s).ok_or_else(|| {
                let names: Vec<&str> = Template::ALL.iter().map(|t| t.name()).collect();
                format!("unknown template '{s}' (known: {})", names.join(", "))
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .and_then(|v| if v.is_empty() { Err("no template named".to_string()) } else { Ok(v) })
}
