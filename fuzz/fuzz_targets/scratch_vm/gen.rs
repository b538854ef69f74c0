//! Arbitrary structured Scratch projects written out as `project.json` text: a stage and up
//! to three sprites, two global variables and a list, two broadcasts, a warp and a non-warp
//! custom block per sprite, scripts of implemented blocks with nested reporters.

use std::fmt::Write;

use libfuzzer_sys::arbitrary::{self, Arbitrary};

pub const MAX_SPRITES: usize = 3;
const MAX_SCRIPTS: usize = 4;
const MAX_STACK: usize = 8;
const MAX_DEPTH: u32 = 4;

pub const MESSAGES: [&str; 2] = ["go", "stop"];
pub const STRINGS: [&str; 8] = ["", "0", "1.5", "-7", "abc", "Infinity", "0x1f", " 3 "];
const NUMBERS: [f64; 8] = [0.0, 1.0, -1.0, 2.5, 10.0, 100.0, 1e6, -0.5];

#[derive(Arbitrary, Debug)]
pub struct ProjectDef {
    pub stage: Vec<ScriptDef>,
    pub sprites: Vec<SpriteDef>,
}

#[derive(Arbitrary, Debug)]
pub struct SpriteDef {
    pub x: i8,
    pub y: i8,
    pub scripts: Vec<ScriptDef>,
    /// Bodies of the custom blocks `warp %n` (run without screen refresh) and `step %n`.
    pub procs: [Vec<Block>; 2],
}

#[derive(Arbitrary, Debug)]
pub struct ScriptDef {
    pub hat: u8,
    pub body: Vec<Block>,
}

#[derive(Arbitrary, Debug)]
pub struct Block {
    pub op: u8,
    pub args: Vec<Expr>,
    pub field: u8,
    pub branches: Vec<Vec<Block>>,
}

#[derive(Arbitrary, Debug)]
pub enum Expr {
    Num(u8),
    Str(u8),
    Int(i16),
    Var(bool),
    List,
    Param,
    Rep(u8, Vec<Expr>),
}

/// A stack block: opcode, inputs (name, is boolean), field, number of branches.
struct StackOp(&'static str, &'static [&'static str], Field, u8);

#[derive(Clone, Copy)]
enum Field {
    None,
    Var,
    List,
    Effect,
    FrontBack,
    Stop,
}

const STACK: &[StackOp] = &[
    StackOp("motion_movesteps", &["STEPS"], Field::None, 0),
    StackOp("motion_turnright", &["DEGREES"], Field::None, 0),
    StackOp("motion_gotoxy", &["X", "Y"], Field::None, 0),
    StackOp("motion_changexby", &["DX"], Field::None, 0),
    StackOp("motion_sety", &["Y"], Field::None, 0),
    StackOp("motion_pointindirection", &["DIRECTION"], Field::None, 0),
    StackOp("motion_ifonedgebounce", &[], Field::None, 0),
    StackOp("motion_glidesecstoxy", &["SECS", "X", "Y"], Field::None, 0),
    StackOp("looks_say", &["MESSAGE"], Field::None, 0),
    StackOp("looks_thinkforsecs", &["MESSAGE", "SECS"], Field::None, 0),
    StackOp("looks_changesizeby", &["CHANGE"], Field::None, 0),
    StackOp("looks_show", &[], Field::None, 0),
    StackOp("looks_hide", &[], Field::None, 0),
    StackOp("looks_changeeffectby", &["CHANGE"], Field::Effect, 0),
    StackOp("looks_gotofrontback", &[], Field::FrontBack, 0),
    StackOp("looks_nextcostume", &[], Field::None, 0),
    StackOp("data_setvariableto", &["VALUE"], Field::Var, 0),
    StackOp("data_changevariableby", &["VALUE"], Field::Var, 0),
    StackOp("data_addtolist", &["ITEM"], Field::List, 0),
    StackOp("data_deleteoflist", &["INDEX"], Field::List, 0),
    StackOp("data_insertatlist", &["ITEM", "INDEX"], Field::List, 0),
    StackOp("data_replaceitemoflist", &["INDEX", "ITEM"], Field::List, 0),
    StackOp("data_deletealloflist", &[], Field::List, 0),
    StackOp("control_wait", &["DURATION"], Field::None, 0),
    StackOp("control_repeat", &["TIMES"], Field::None, 1),
    StackOp("control_forever", &[], Field::None, 1),
    StackOp("control_if", &["?CONDITION"], Field::None, 1),
    StackOp("control_if_else", &["?CONDITION"], Field::None, 2),
    StackOp("control_repeat_until", &["?CONDITION"], Field::None, 1),
    StackOp("control_wait_until", &["?CONDITION"], Field::None, 0),
    StackOp("control_stop", &[], Field::Stop, 0),
    StackOp("control_create_clone_of", &[], Field::None, 0),
    StackOp("control_delete_this_clone", &[], Field::None, 0),
    StackOp("event_broadcast", &[], Field::None, 0),
    StackOp("event_broadcastandwait", &[], Field::None, 0),
    StackOp("sensing_askandwait", &["QUESTION"], Field::None, 0),
    StackOp("sensing_resettimer", &[], Field::None, 0),
    StackOp("pen_penDown", &[], Field::None, 0),
    StackOp("procedures_call", &["NUM"], Field::None, 0),
];

const REPORTERS: &[(&str, &[&str])] = &[
    ("operator_add", &["NUM1", "NUM2"]),
    ("operator_subtract", &["NUM1", "NUM2"]),
    ("operator_multiply", &["NUM1", "NUM2"]),
    ("operator_divide", &["NUM1", "NUM2"]),
    ("operator_mod", &["NUM1", "NUM2"]),
    ("operator_random", &["FROM", "TO"]),
    ("operator_round", &["NUM"]),
    ("operator_mathop", &["NUM"]),
    ("operator_lt", &["OPERAND1", "OPERAND2"]),
    ("operator_gt", &["OPERAND1", "OPERAND2"]),
    ("operator_equals", &["OPERAND1", "OPERAND2"]),
    ("operator_and", &["?OPERAND1", "?OPERAND2"]),
    ("operator_or", &["?OPERAND1", "?OPERAND2"]),
    ("operator_not", &["?OPERAND"]),
    ("operator_join", &["STRING1", "STRING2"]),
    ("operator_letter_of", &["LETTER", "STRING"]),
    ("operator_length", &["STRING"]),
    ("operator_contains", &["STRING1", "STRING2"]),
    ("data_itemoflist", &["INDEX"]),
    ("data_lengthoflist", &[]),
    ("data_listcontainsitem", &["ITEM"]),
    ("sensing_timer", &[]),
    ("sensing_answer", &[]),
    ("motion_xposition", &[]),
    ("motion_direction", &[]),
    ("looks_size", &[]),
    ("sensing_mousex", &[]),
    ("sensing_keypressed", &[]),
    ("sensing_touchingobject", &[]),
];

const MATHOPS: [&str; 14] = [
    "abs", "floor", "ceiling", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "ln", "log",
    "e ^", "10 ^",
];
const EFFECTS: [&str; 7] =
    ["COLOR", "FISHEYE", "WHIRL", "PIXELATE", "MOSAIC", "BRIGHTNESS", "GHOST"];
const STOPS: [&str; 3] = ["all", "this script", "other scripts in sprite"];

/// Writes blocks of one target into a JSON object body.
struct Writer {
    out: String,
    next_id: u32,
    sprite: bool,
    /// Inside a custom-block definition (its parameter reporter is valid).
    in_proc: bool,
}

impl Writer {
    fn id(&mut self) -> String {
        self.next_id += 1;
        format!("b{}", self.next_id)
    }

    fn block(
        &mut self,
        id: &str,
        opcode: &str,
        parent: Option<&str>,
        next: Option<&str>,
        body: &str,
    ) {
        if !self.out.is_empty() {
            self.out.push(',');
        }
        let p = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
        let n = next.map_or("null".to_string(), |n| format!("\"{n}\""));
        let top = parent.is_none();
        let _ = write!(
            self.out,
            "\"{id}\":{{\"opcode\":\"{opcode}\",\"next\":{n},\"parent\":{p},\"shadow\":false,\"topLevel\":{top}{}{body}}}",
            if top { ",\"x\":0,\"y\":0" } else { "" }
        );
    }

    /// An input value: `[1, literal]` or `[3, reporter id, shadow]`.
    fn expr(&mut self, e: Option<&Expr>, parent: &str, depth: u32, boolean: bool) -> String {
        let lit = |s: String| if boolean { "null".to_string() } else { format!("[1,{s}]") };
        match e {
            None | Some(Expr::Num(_)) | Some(Expr::Str(_)) | Some(Expr::Int(_)) if boolean => {
                "null".to_string()
            }
            None => lit("[4,\"0\"]".into()),
            Some(Expr::Num(i)) => {
                lit(format!("[4,\"{}\"]", NUMBERS[usize::from(*i) % NUMBERS.len()]))
            }
            Some(Expr::Str(i)) => {
                lit(format!("[10,\"{}\"]", STRINGS[usize::from(*i) % STRINGS.len()]))
            }
            Some(Expr::Int(n)) => lit(format!("[4,\"{n}\"]")),
            Some(Expr::Var(b)) => {
                let (name, id) = if *b { ("v0", "var0") } else { ("v1", "var1") };
                format!("[3,[12,\"{name}\",\"{id}\"],[10,\"\"]]")
            }
            Some(Expr::List) => "[3,[13,\"l0\",\"list0\"],[10,\"\"]]".to_string(),
            Some(Expr::Param) if self.in_proc => {
                let id = self.id();
                self.block(
                    &id,
                    "argument_reporter_string_number",
                    Some(parent),
                    None,
                    ",\"inputs\":{},\"fields\":{\"VALUE\":[\"n\",null]}",
                );
                format!("[3,\"{id}\",[10,\"\"]]")
            }
            Some(Expr::Param) => lit("[10,\"p\"]".into()),
            Some(Expr::Rep(op, args)) => {
                if depth >= MAX_DEPTH {
                    return lit("[4,\"1\"]".into());
                }
                let id = self.id();
                let (opcode, names) = REPORTERS[usize::from(*op) % REPORTERS.len()];
                let mut inputs = String::new();
                for (k, name) in names.iter().enumerate() {
                    let (b, name) = match name.strip_prefix('?') {
                        Some(n) => (true, n),
                        None => (false, *name),
                    };
                    let v = self.expr(args.get(k), &id, depth + 1, b);
                    if v != "null" {
                        let _ = write!(
                            inputs,
                            "{}\"{name}\":{v}",
                            if inputs.is_empty() { "" } else { "," }
                        );
                    }
                }
                let fields = match opcode {
                    "operator_mathop" => format!(
                        "\"OPERATOR\":[\"{}\",null]",
                        MATHOPS[usize::from(*op) % MATHOPS.len()]
                    ),
                    "data_itemoflist" | "data_lengthoflist" | "data_listcontainsitem" => {
                        "\"LIST\":[\"l0\",\"list0\"]".to_string()
                    }
                    _ => String::new(),
                };
                let menu = match opcode {
                    "sensing_keypressed" => Some(("KEY_OPTION", "sensing_keyoptions", "space")),
                    "sensing_touchingobject" => {
                        Some(("TOUCHINGOBJECTMENU", "sensing_touchingobjectmenu", "_edge_"))
                    }
                    _ => None,
                };
                if let Some((input, menu_op, value)) = menu {
                    let m = self.id();
                    self.block(&m, menu_op, Some(&id), None, &format!(",\"inputs\":{{}},\"fields\":{{\"{input}\":[\"{value}\",null]}},\"shadow\":true"));
                    inputs = format!("\"{input}\":[1,\"{m}\"]");
                }
                self.block(
                    &id,
                    opcode,
                    Some(parent),
                    None,
                    &format!(",\"inputs\":{{{inputs}}},\"fields\":{{{fields}}}"),
                );
                format!("[3,\"{id}\",[10,\"\"]]")
            }
        }
    }

    /// Writes a stack; returns the id of its first block.
    fn stack(&mut self, blocks: &[Block], parent: &str, depth: u32) -> Option<String> {
        let blocks = &blocks[..blocks.len().min(MAX_STACK)];
        let ids: Vec<String> = blocks.iter().map(|_| self.id()).collect();
        for (k, b) in blocks.iter().enumerate() {
            let parent = if k == 0 { parent.to_string() } else { ids[k - 1].clone() };
            self.stmt(b, &ids[k], &parent, ids.get(k + 1).map(String::as_str), depth);
        }
        ids.into_iter().next()
    }

    fn stmt(&mut self, b: &Block, id: &str, parent: &str, next: Option<&str>, depth: u32) {
        let StackOp(opcode, names, field, branches) = &STACK[usize::from(b.op) % STACK.len()];
        let mut inputs = String::new();
        let push = |inputs: &mut String, name: &str, v: String| {
            if v != "null" {
                let _ =
                    write!(inputs, "{}\"{name}\":{v}", if inputs.is_empty() { "" } else { "," });
            }
        };
        for (k, name) in names.iter().enumerate() {
            let (boolean, name) = match name.strip_prefix('?') {
                Some(n) => (true, n),
                None => (false, *name),
            };
            let v = self.expr(b.args.get(k), id, 0, boolean);
            push(&mut inputs, name, v);
        }
        for k in 0..usize::from(*branches) {
            let body = if depth < MAX_DEPTH { b.branches.get(k).map(Vec::as_slice) } else { None };
            if let Some(first) = body.and_then(|body| self.stack(body, id, depth + 1)) {
                push(
                    &mut inputs,
                    if k == 0 { "SUBSTACK" } else { "SUBSTACK2" },
                    format!("[2,\"{first}\"]"),
                );
            }
        }
        let msg = MESSAGES[usize::from(b.field) % 2];
        let mut extra = String::new();
        match *opcode {
            "event_broadcast" | "event_broadcastandwait" => {
                push(&mut inputs, "BROADCAST_INPUT", format!("[1,[11,\"{msg}\",\"m{msg}\"]]"));
            }
            "control_create_clone_of" => {
                let m = self.id();
                let target = if b.field % 2 == 0 || !self.sprite {
                    "_myself_".to_string()
                } else {
                    format!("S{}", b.field % 3)
                };
                self.block(&m, "control_create_clone_of_menu", Some(id), None, &format!(",\"inputs\":{{}},\"fields\":{{\"CLONE_OPTION\":[\"{target}\",null]}},\"shadow\":true"));
                push(&mut inputs, "CLONE_OPTION", format!("[1,\"{m}\"]"));
            }
            "control_stop" => {
                extra =
                    ",\"mutation\":{\"tagName\":\"mutation\",\"children\":[],\"hasnext\":\"false\"}"
                        .into()
            }
            "procedures_call" => {
                let code = if b.field % 2 == 0 { "warp %n" } else { "step %n" };
                let aid = if b.field % 2 == 0 { "aw" } else { "as" };
                inputs = inputs.replace("\"NUM\"", &format!("\"{aid}\""));
                extra = format!(",\"mutation\":{{\"tagName\":\"mutation\",\"children\":[],\"proccode\":\"{code}\",\"argumentids\":\"[\\\"{aid}\\\"]\",\"warp\":\"{}\"}}", b.field % 2 == 0);
            }
            _ => {}
        }
        let fields = match field {
            Field::None => String::new(),
            Field::Var => format!("\"VARIABLE\":[\"v{0}\",\"var{0}\"]", b.field % 2),
            Field::List => "\"LIST\":[\"l0\",\"list0\"]".to_string(),
            Field::Effect => format!("\"EFFECT\":[\"{}\",null]", EFFECTS[usize::from(b.field) % 7]),
            Field::FrontBack => format!(
                "\"FRONT_BACK\":[\"{}\",null]",
                if b.field % 2 == 0 { "front" } else { "back" }
            ),
            Field::Stop => {
                format!("\"STOP_OPTION\":[\"{}\",null]", STOPS[usize::from(b.field) % 3])
            }
        };
        self.block(
            id,
            opcode,
            Some(parent),
            next,
            &format!(",\"inputs\":{{{inputs}}},\"fields\":{{{fields}}}{extra}"),
        );
    }

    fn script(&mut self, s: &ScriptDef) {
        let hats: &[&str] = if self.sprite {
            &[
                "event_whenflagclicked",
                "event_whenbroadcastreceived",
                "event_whenkeypressed",
                "control_start_as_clone",
                "event_whenthisspriteclicked",
            ]
        } else {
            &[
                "event_whenflagclicked",
                "event_whenbroadcastreceived",
                "event_whenkeypressed",
                "event_whenstageclicked",
            ]
        };
        let hat = hats[usize::from(s.hat) % hats.len()];
        let id = self.id();
        let first = self.stack(&s.body, &id, 0);
        let fields = match hat {
            "event_whenbroadcastreceived" => {
                let m = MESSAGES[usize::from(s.hat / 8) % 2];
                format!("\"BROADCAST_OPTION\":[\"{m}\",\"m{m}\"]")
            }
            "event_whenkeypressed" => "\"KEY_OPTION\":[\"space\",null]".to_string(),
            _ => String::new(),
        };
        self.block(
            &id,
            hat,
            None,
            first.as_deref(),
            &format!(",\"inputs\":{{}},\"fields\":{{{fields}}}"),
        );
    }

    fn procedure(&mut self, body: &[Block], warp: bool) {
        let (code, aid) = if warp { ("warp %n", "aw") } else { ("step %n", "as") };
        let def = self.id();
        let proto = self.id();
        self.in_proc = true;
        let first = self.stack(body, &def, 0);
        self.in_proc = false;
        self.block(&proto, "procedures_prototype", Some(&def), None, &format!(
            ",\"inputs\":{{}},\"fields\":{{}},\"shadow\":true,\"mutation\":{{\"tagName\":\"mutation\",\"children\":[],\"proccode\":\"{code}\",\"argumentids\":\"[\\\"{aid}\\\"]\",\"argumentnames\":\"[\\\"n\\\"]\",\"argumentdefaults\":\"[\\\"\\\"]\",\"warp\":\"{warp}\"}}"
        ));
        self.block(
            &def,
            "procedures_definition",
            None,
            first.as_deref(),
            &format!(",\"inputs\":{{\"custom_block\":[1,\"{proto}\"]}},\"fields\":{{}}"),
        );
    }
}

fn target(
    name: &str,
    sprite: Option<&SpriteDef>,
    stage_scripts: &[ScriptDef],
    layer: usize,
) -> String {
    let mut w = Writer { out: String::new(), next_id: 0, sprite: sprite.is_some(), in_proc: false };
    let scripts = sprite.map_or(stage_scripts, |s| &s.scripts);
    for s in scripts.iter().take(MAX_SCRIPTS) {
        w.script(s);
    }
    if let Some(s) = sprite {
        w.procedure(&s.procs[0], true);
        w.procedure(&s.procs[1], false);
    }
    let costumes = "\"costumes\":[{\"name\":\"c1\",\"assetId\":\"a\",\"md5ext\":\"a.svg\",\"dataFormat\":\"svg\",\"rotationCenterX\":10,\"rotationCenterY\":10},{\"name\":\"c2\",\"assetId\":\"b\",\"md5ext\":\"b.svg\",\"dataFormat\":\"svg\",\"rotationCenterX\":5,\"rotationCenterY\":5}],\"sounds\":[]";
    match sprite {
        None => format!(
            "{{\"isStage\":true,\"name\":\"{name}\",\"variables\":{{\"var0\":[\"v0\",0],\"var1\":[\"v1\",\"\"]}},\"lists\":{{\"list0\":[\"l0\",[]]}},\"broadcasts\":{{\"mgo\":\"go\",\"mstop\":\"stop\"}},\"blocks\":{{{}}},\"comments\":{{}},\"currentCostume\":0,{costumes},\"volume\":100,\"layerOrder\":0,\"tempo\":60,\"videoTransparency\":50,\"videoState\":\"off\",\"textToSpeechLanguage\":null}}",
            w.out
        ),
        Some(s) => format!(
            "{{\"isStage\":false,\"name\":\"{name}\",\"variables\":{{}},\"lists\":{{}},\"broadcasts\":{{}},\"blocks\":{{{}}},\"comments\":{{}},\"currentCostume\":0,{costumes},\"volume\":100,\"layerOrder\":{layer},\"visible\":true,\"x\":{},\"y\":{},\"size\":100,\"direction\":90,\"draggable\":false,\"rotationStyle\":\"all around\"}}",
            w.out, s.x, s.y
        ),
    }
}

/// The project as `project.json` text.
pub fn project_json(p: &ProjectDef) -> String {
    let mut targets = vec![target("Stage", None, &p.stage, 0)];
    for (k, s) in p.sprites.iter().take(MAX_SPRITES).enumerate() {
        targets.push(target(&format!("S{k}"), Some(s), &[], k + 1));
    }
    format!(
        "{{\"targets\":[{}],\"monitors\":[],\"extensions\":[\"pen\"],\"meta\":{{\"semver\":\"3.0.0\",\"vm\":\"0.2.0\",\"agent\":\"fuzz\"}}}}",
        targets.join(",")
    )
}
