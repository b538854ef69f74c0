//! The runner's mechanics on a small simulated project (a `Subject` written here): which inputs
//! reach the project and when, direct writes, answer rules, budgets, seeds and reports.

use gobo::scratch::suite::{
    load_suite, run_case, run_suite, Action, SayEvent, SeedReport, Snapshot, SpriteObs, Stability,
    Subject, SuiteReport,
};
use gobo::scratch::value::Value;

/// A toy project: a sprite "Cat" whose x follows direct writes and right-arrow presses; it asks
/// "What is A + B?" (A = seed, B = 4) when the green flag is clicked and says the answer.
struct Toy {
    seed: u64,
    frame: u64,
    log: Vec<(u64, Action)>,
    queued: Vec<Action>,
    x: f64,
    score: Value,
    running: bool,
    asking: bool,
    ask_now: bool,
    said: Option<String>,
}

impl Toy {
    fn new(seed: u64) -> Toy {
        Toy {
            seed,
            frame: 0,
            log: Vec::new(),
            queued: Vec::new(),
            x: 0.0,
            score: Value::Num(0.0),
            running: false,
            asking: false,
            ask_now: false,
            said: None,
        }
    }
}

impl Subject for Toy {
    /// The toy runs no blocks.
    fn block_ops(&self) -> u64 {
        0
    }

    fn act(&mut self, action: &Action) -> Result<(), String> {
        self.queued.push(action.clone());
        Ok(())
    }

    fn step(&mut self, out: &mut Snapshot) -> Result<(), String> {
        for a in std::mem::take(&mut self.queued) {
            match &a {
                Action::GreenFlag => {
                    self.running = true;
                    self.ask_now = true;
                }
                Action::StopAll => self.running = false,
                Action::KeyDown(k) if k == "right arrow" => self.x += 10.0,
                Action::SetVariable { name, value, .. } if name == "score" => {
                    self.score = value.clone()
                }
                Action::SetSprite { x: Some(x), .. } => self.x = *x,
                Action::Answer(t) if self.asking => {
                    self.asking = false;
                    self.said = Some(format!("you said {t}"));
                }
                _ => {}
            }
            self.log.push((self.frame, a));
        }
        *out = Snapshot {
            threads: u32::from(self.running),
            vars: vec![("score".into(), self.score.clone())],
            sprites: vec![SpriteObs {
                name: "Cat".into(),
                x: self.x,
                visible: true,
                size: 100.0,
                ..SpriteObs::default()
            }],
            ..Snapshot::default()
        };
        if self.ask_now {
            self.ask_now = false;
            self.asking = true;
            out.questions.push(Some(String::new()));
            out.says.push(SayEvent {
                target: "Cat".into(),
                think: false,
                text: format!("What is {} + 4?", self.seed),
            });
        }
        if let Some(t) = self.said.take() {
            out.says.push(SayEvent { target: "Cat".into(), think: false, text: t });
        }
        self.frame += 1;
        Ok(())
    }
}

const PROJECT: &str = r#"{"targets": [
 {"isStage": true, "name": "Stage", "variables": {"v1": ["score", 0]}, "lists": {}, "costumes": [{"name": "b"}],
  "blocks": {"a": {"opcode": "event_whenflagclicked"}, "s": {"opcode": "math_number", "shadow": true}}},
 {"isStage": false, "name": "Cat", "variables": {}, "lists": {}, "costumes": [{"name": "c"}],
  "blocks": {"b": {"opcode": "motion_changexby"}, "c": {"opcode": "motion_changexby"}}}]}"#;

fn run(suite: &str, seed: u64) -> (Vec<(u64, Action)>, gobo::scratch::suite::CaseVerdict) {
    let (suite, facts) = load_suite(suite, PROJECT).unwrap_or_else(|e| panic!("{e}"));
    let mut toy = Toy::new(seed);
    let v = run_case(&suite.cases[0], suite.fps, &facts, &mut toy);
    (toy.log, v)
}

#[test]
fn inputs_arrive_at_the_right_frames() {
    let (log, v) = run(
        r#"{"tests": [{"name": "t", "steps": [
            {"do": "green_flag"},
            {"do": "key_press", "key": "right arrow", "hold": 0.1, "at_frame": 2},
            {"do": "mouse_move", "x": 1, "y": 2, "at": 0.5},
            {"do": "click", "sprite": "Stage"},
            {"do": "broadcast", "message": "go"},
            {"wait": {"frames": 1}},
            {"expect": {"sprite": "Cat", "x": 10}}]}]}"#,
        0,
    );
    assert!(v.passed, "{:?}", v.reason);
    let frames: Vec<(u64, String)> = log.iter().map(|(f, a)| (*f, format!("{a:?}"))).collect();
    let want: Vec<(u64, String)> = vec![
        (0, "GreenFlag".into()),
        (2, "KeyDown(\"right arrow\")".into()),
        (5, "KeyUp(\"right arrow\")".into()),
        (15, "MouseMove { x: 1.0, y: 2.0 }".into()),
        (15, "Click(\"Stage\")".into()),
        (15, "Broadcast(\"go\")".into()),
    ];
    assert_eq!(frames, want);
    assert_eq!(v.frames, 16);
}

#[test]
fn direct_writes_reach_the_project() {
    let (_, v) = run(
        r#"{"tests": [{"name": "t", "steps": [
            {"do": "green_flag"},
            {"do": "set_variable", "variable": "score", "value": "41"},
            {"do": "set_sprite", "sprite": "Cat", "x": -7},
            {"wait": {"frames": 1}},
            {"expect": {"variable": "score", "equals": 41}},
            {"expect": {"sprite": "Cat", "x": -7}}]}]}"#,
        0,
    );
    assert!(v.passed, "{:?}", v.reason);
}

#[test]
fn computed_answers_follow_the_question() {
    let suite = r#"{"tests": [{"name": "t", "answers": [{"compute": "sum", "delay": 0.1}], "steps": [
        {"do": "green_flag"},
        {"wait": {"until": {"says": {"regex": "^you said \\d+$"}}, "timeout": 1}},
        {"expect": {"says": "you said 9"}},
        {"expect": {"asked": {"contains": "5 + 4"}}}]}]}"#;
    let (log, v) = run(suite, 5);
    assert!(v.passed, "{:?}", v.reason);
    // Asked in frame 0; answered at the start of frame 1 + 3 frames of delay.
    assert!(
        log.iter().any(|(f, a)| *f == 4 && matches!(a, Action::Answer(t) if t == "9")),
        "{log:?}"
    );
    let (_, v) = run(suite, 6);
    assert_eq!(
        v.reason.as_deref(),
        Some("step 3: expected some sprite to say or think 'you said 9' at 0.17 s; the project said 'you said 10' at 0.13 s (and 1 earlier texts)")
    );
}

#[test]
fn an_answer_without_a_question_fails() {
    let (_, v) = run(r#"{"tests": [{"name": "t", "steps": [{"do": "answer", "text": "x"}]}]}"#, 0);
    assert_eq!(
        v.reason.as_deref(),
        Some("step 1: answer 'x' given at 0 s but no question is pending")
    );
}

#[test]
fn waits_time_out_and_budgets_run_out() {
    let (_, v) = run(
        r#"{"tests": [{"name": "t", "steps": [{"do": "green_flag"},
            {"wait": {"until": {"variable": "score", "equals": 1}, "timeout": 0.5}}]}]}"#,
        0,
    );
    assert_eq!(
        v.reason.as_deref(),
        Some("step 2: expected variable score to be 1 within 0.5 s (by 0.5 s); it is 0")
    );
    let (_, v) = run(
        r#"{"tests": [{"name": "t", "steps": [{"do": "green_flag"},
            {"wait": {"until": {"variable": "score", "equals": 1}, "timeout": 0.5, "required": false}},
            {"expect": {"running": true}}]}]}"#,
        0,
    );
    assert!(v.passed, "{:?}", v.reason);
    let (_, v) = run(r#"{"tests": [{"name": "t", "timeout": 1, "steps": [{"wait": 5}]}]}"#, 0);
    assert_eq!(v.reason.as_deref(), Some("step 1: the case ran out of its 1 s budget"));
    assert_eq!(v.frames, 30);
    // A wait that outlives the case's budget says what it was waiting for.
    let (_, v) = run(
        r#"{"tests": [{"name": "t", "timeout": 1, "steps": [{"do": "green_flag"},
            {"wait": {"until": {"variable": "score", "equals": 1}, "timeout": 600}}]}]}"#,
        0,
    );
    assert_eq!(
        v.reason.as_deref(),
        Some(
            "step 2: the case ran out of its 1 s budget, waiting for variable score to be 1; \
             it is 0"
        )
    );
    assert_eq!(v.frames, 30);
}

#[test]
fn static_checks_count_non_shadow_blocks() {
    let (_, v) = run(
        r#"{"tests": [{"name": "t", "steps": [
            {"expect": {"block_count": 3}},
            {"expect": {"block_count": 2, "sprite": "Cat", "opcode": "motion_changexby"}},
            {"expect": {"opcode": "math_number", "present": false}},
            {"expect": {"opcode": "event_whenflagclicked", "sprite": "Cat", "present": false}}]}]}"#,
        0,
    );
    assert!(v.passed, "{:?}", v.reason);
}

#[test]
fn seeds_give_pass_rates_and_stability() {
    // Case "nine" passes only under seed 5; "any" always passes.
    let text = r#"{"tests": [
        {"name": "nine", "answers": [{"compute": "sum"}], "steps": [{"do": "green_flag"},
            {"wait": {"until": {"says": "you said 9"}, "timeout": 0.2}}]},
        {"name": "any", "answers": [{"compute": "sum"}], "steps": [{"do": "green_flag"},
            {"wait": {"until": {"says": {"contains": "you said"}}, "timeout": 0.2}}]}]}"#;
    let (suite, facts) = load_suite(text, PROJECT).unwrap_or_else(|e| panic!("{e}"));
    let seeds: Vec<u64> = (1..=10).collect();
    let runs: Vec<SuiteReport> = seeds
        .iter()
        .map(|&s| SuiteReport {
            cases: run_suite(&suite, &facts, s, |seed| Ok::<Toy, String>(Toy::new(seed))),
        })
        .collect();
    assert_eq!(runs[4].passed_tests(), 2);
    assert_eq!(runs[0].passed_tests(), 1);
    assert!((runs[0].partial_success_rate() - 0.5).abs() < 1e-12);
    let report = SeedReport::new(&seeds, &runs, Stability::default());
    assert_eq!(report.cases[0].passes, 1);
    assert!((report.cases[0].pass_rate - 0.1).abs() < 1e-12);
    assert!(!report.cases[0].passed && report.cases[0].stable);
    assert!(report.cases[1].passed && report.cases[1].stable);
    assert!(!report.success());
    let json = report.to_json();
    assert_eq!(json["passed_tests"], 1);
    assert_eq!(json["details"][0]["first_failure"]["seed"], 1);
    let lenient = SeedReport::new(&seeds, &runs, Stability { theta_pass: 0.05, theta_fail: 0.0 });
    assert!(lenient.success());
    // A project that cannot start fails every case with the reason.
    let failed = run_suite(&suite, &facts, 1, |_| Err::<Toy, String>("bad archive".into()));
    assert_eq!(failed[0].reason.as_deref(), Some("the project could not start: bad archive"));
}
