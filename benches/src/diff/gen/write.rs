//! [`ProjectDef`] → `project.json` text, costume assets and a scenario ([`Program`]), with
//! unique block ids, shadows where the editor puts them, menus filled from the project's own
//! names, and the stored-string rule of the module documentation.

use std::fmt::Write;

use super::ops::{
    Fld, In, Menu, Reporter, Scope, Stack, REPORTERS, SPRITE_HATS, STACK, STAGE_HATS, STOPS,
};
use super::{
    Block, EventDef, Expr, ProcDef, Profile, ProjectDef, ScriptDef, SpriteDef, ANSWERS, KEYS,
    MAX_DEPTH, MAX_EVENTS, MAX_SCRIPTS, MAX_SPRITES, MAX_STACK, MESSAGES, NUMBERS, STRINGS,
};

/// A generated program, ready to be packed and run.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// The `project.json` text.
    pub project_json: String,
    /// Costume assets by `md5ext`.
    pub assets: Vec<(String, &'static [u8])>,
    /// The scenario, in the reference harness's format (`{"frames","seed","events"}`).
    pub scenario_json: String,
    pub frames: u64,
    pub seed: u32,
    /// Passes over the threads per frame.
    pub ticks_per_frame: u32,
    /// Warp-timer checks before a warp thread yields.
    pub warp_checks: u32,
    pub turbo: bool,
}

/// Costume art: name, SVG, rotation centre.
const COSTUMES: [(&str, &[u8], [i32; 2]); 3] = [
    (
        "c1",
        b"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"30\" viewBox=\"0 0 40 30\"><rect width=\"40\" height=\"30\" fill=\"#3a3\"/></svg>",
        [20, 15],
    ),
    (
        "c2",
        b"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"12\" height=\"48\" viewBox=\"0 0 12 48\"><rect width=\"12\" height=\"48\" fill=\"#a33\"/></svg>",
        [6, 24],
    ),
    (
        "c3",
        b"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"60\" height=\"8\" viewBox=\"0 0 60 8\"><rect width=\"60\" height=\"8\" fill=\"#33a\"/></svg>",
        [10, 4],
    ),
];

const BACKDROPS: [(&str, &[u8]); 2] = [
    (
        "b1",
        b"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"480\" height=\"360\" viewBox=\"0 0 480 360\"><rect width=\"480\" height=\"360\" fill=\"#fff\"/></svg>",
    ),
    (
        "b2",
        b"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"480\" height=\"360\" viewBox=\"0 0 480 360\"><rect width=\"480\" height=\"360\" fill=\"#113\"/><rect x=\"200\" y=\"140\" width=\"80\" height=\"80\" fill=\"#f00\"/></svg>",
    ),
];

const COLOURS: [&str; 5] = ["#ff0000", "#33aa33", "#ffffff", "#113", "#000000"];

fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| String::from("\"\""))
}

/// `String(n)` of JavaScript for the literals (integers plainly, others shortest).
fn num_text(n: f64) -> String {
    gobo::scratch::value::number::js_number_to_string(n)
}

fn md5ext(bytes: &[u8]) -> String {
    format!("{}.svg", gobo::md5::hex(bytes))
}

/// A custom block's signature in one sprite.
#[derive(Clone)]
struct Proc {
    code: String,
    /// `(id, name, boolean)` per argument.
    args: Vec<(String, String, bool)>,
    warp: bool,
}

struct Writer<'a> {
    out: String,
    next_id: u32,
    prefix: String,
    sprite: Option<usize>,
    sprites: usize,
    /// Arguments of the custom block being written.
    params: Option<&'a [(String, String, bool)]>,
    procs: &'a [Proc],
    costumes: Vec<&'static str>,
    stack_ops: Vec<&'static Stack>,
    reporters: Vec<&'static Reporter>,
    booleans: Vec<&'static Reporter>,
    /// Writing a value that will be stored (variable, list item, custom block argument).
    stored: bool,
    /// Writing an operand of `join` inside a stored value: no stored text may be read.
    plain: bool,
}

impl<'a> Writer<'a> {
    fn id(&mut self) -> String {
        self.next_id += 1;
        format!("{}{}", self.prefix, self.next_id)
    }

    #[allow(clippy::too_many_arguments)]
    fn block(
        &mut self,
        id: &str,
        opcode: &str,
        parent: Option<&str>,
        next: Option<&str>,
        inputs: &str,
        fields: &str,
        shadow: bool,
        extra: &str,
    ) {
        if !self.out.is_empty() {
            self.out.push(',');
        }
        let p = parent.map_or("null".to_string(), q);
        let n = next.map_or("null".to_string(), q);
        let top = parent.is_none();
        let _ = write!(
            self.out,
            "{}:{{\"opcode\":{},\"next\":{n},\"parent\":{p},\"inputs\":{{{inputs}}},\"fields\":{{{fields}}},\"shadow\":{shadow},\"topLevel\":{top}{}{extra}}}",
            q(id),
            q(opcode),
            if top { ",\"x\":0,\"y\":0" } else { "" }
        );
    }

    fn vars(&self) -> Vec<(String, String)> {
        let mut v =
            vec![("g0".to_string(), "gv0".to_string()), ("g1".to_string(), "gv1".to_string())];
        if let Some(k) = self.sprite {
            v.push(("v".to_string(), format!("s{k}v")));
        }
        v
    }

    fn lists(&self) -> Vec<(String, String)> {
        let mut v = vec![("gl".to_string(), "gl0".to_string())];
        if let Some(k) = self.sprite {
            v.push(("l".to_string(), format!("s{k}l")));
        }
        v
    }

    fn var_field(&self, pick: u8, list: bool) -> String {
        let all = if list { self.lists() } else { self.vars() };
        let (name, id) = &all[usize::from(pick) % all.len()];
        format!("{}:[{},{}]", q(if list { "LIST" } else { "VARIABLE" }), q(name), q(id))
    }

    fn sprite_names(&self) -> Vec<String> {
        (0..self.sprites).map(|k| format!("S{k}")).collect()
    }

    fn menu_value(&self, menu: Menu, pick: u8) -> String {
        let pick = usize::from(pick);
        match menu {
            Menu::Targets(special) => {
                let mut all: Vec<String> = special.iter().map(|s| s.to_string()).collect();
                all.extend(self.sprite_names());
                all[pick % all.len()].clone()
            }
            Menu::Costume => {
                let mut all: Vec<&str> = self.costumes.clone();
                all.push("zz");
                all[pick % all.len()].to_string()
            }
            Menu::Backdrop => {
                let all =
                    ["b1", "b2", "next backdrop", "previous backdrop", "random backdrop", "b3"];
                all[pick % all.len()].to_string()
            }
            Menu::Key => KEYS[pick % KEYS.len()].to_string(),
            Menu::OfObject => {
                let mut all = vec!["_stage_".to_string()];
                all.extend(self.sprite_names());
                all[pick % all.len()].clone()
            }
            Menu::PenParam => {
                ["color", "saturation", "brightness", "transparency"][pick % 4].to_string()
            }
            Menu::Fixed(values) => values[pick % values.len()].to_string(),
        }
    }

    /// A literal for a number or text slot.
    fn literal(&self, e: Option<&Expr>, text_slot: bool) -> String {
        match e {
            Some(Expr::Num(i)) => num_text(NUMBERS[usize::from(*i) % NUMBERS.len()]),
            Some(Expr::Str(i)) => STRINGS[usize::from(*i) % STRINGS.len()].to_string(),
            Some(Expr::Int(n)) => n.to_string(),
            _ if text_slot => String::from("a"),
            _ => String::from("1"),
        }
    }

    /// The input array for slot `slot` (`None`: leave the input out).
    fn input(&mut self, slot: In, e: Option<&Expr>, parent: &str, depth: u32) -> Option<String> {
        let (code, text_slot) = match slot {
            In::Num(_) => (4, false),
            In::Whole(_) => (6, false),
            In::Text(_) => (10, true),
            In::Colour(_) => (9, false),
            In::Bool(_) => {
                return self.boolean(e, parent, depth).map(|id| format!("[2,{}]", q(&id)))
            }
            In::Menu(_, op, field, menu) => {
                let pick = menu_pick(e);
                let m = self.id();
                let value = self.menu_value(menu, pick);
                let fields = format!("{}:[{},null]", q(field), q(&value));
                self.block(&m, op, Some(parent), None, "", &fields, true, "");
                return Some(match e {
                    Some(Expr::Rep(..)) => {
                        let r = self.reporter(e, parent, depth, false);
                        format!("[3,{},{}]", q(&r), q(&m))
                    }
                    _ => format!("[1,{}]", q(&m)),
                });
            }
        };
        let shadow = if code == 9 {
            let pick = match e {
                Some(Expr::Num(i) | Expr::Str(i)) => usize::from(*i),
                _ => 0,
            };
            format!("[9,{}]", q(COLOURS[pick % COLOURS.len()]))
        } else {
            format!("[{code},{}]", q(&self.literal(e, text_slot)))
        };
        match e {
            Some(Expr::Rep(..) | Expr::Var(_) | Expr::List(_) | Expr::Param(_))
                if depth < MAX_DEPTH =>
            {
                match self.value_block(e, parent, depth) {
                    Some(v) => Some(format!("[3,{v},{shadow}]")),
                    None => Some(format!("[1,{shadow}]")),
                }
            }
            _ => Some(format!("[1,{shadow}]")),
        }
    }

    /// A reporter (or variable/list primitive) filling a slot: the input's second element.
    fn value_block(&mut self, e: Option<&Expr>, parent: &str, depth: u32) -> Option<String> {
        match e {
            Some(Expr::Var(i)) if !self.plain => {
                let all = self.vars();
                let (name, id) = &all[usize::from(*i) % all.len()];
                Some(format!("[12,{},{}]", q(name), q(id)))
            }
            Some(Expr::List(i)) if !self.plain && !self.stored => {
                let all = self.lists();
                let (name, id) = &all[usize::from(*i) % all.len()];
                Some(format!("[13,{},{}]", q(name), q(id)))
            }
            Some(Expr::Param(i)) if !self.plain => Some(q(&self.param(*i, parent, false))),
            Some(Expr::Rep(..)) => Some(q(&self.reporter(e, parent, depth, false))),
            _ => None,
        }
    }

    /// An argument reporter (of the custom block being written, or a stray one).
    fn param(&mut self, pick: u8, parent: &str, boolean: bool) -> String {
        let id = self.id();
        let name = match self.params {
            Some(args) if !args.is_empty() => {
                let fitting: Vec<&(String, String, bool)> =
                    args.iter().filter(|a| a.2 == boolean).collect();
                match fitting.get(usize::from(pick) % fitting.len().max(1)) {
                    Some(a) => a.1.clone(),
                    None => String::from("nope"),
                }
            }
            _ => String::from("nope"),
        };
        let opcode =
            if boolean { "argument_reporter_boolean" } else { "argument_reporter_string_number" };
        let fields = format!("\"VALUE\":[{},null]", q(&name));
        self.block(&id, opcode, Some(parent), None, "", &fields, false, "");
        id
    }

    /// A boolean reporter for a boolean slot (`None`: the slot stays empty).
    fn boolean(&mut self, e: Option<&Expr>, parent: &str, depth: u32) -> Option<String> {
        match e {
            Some(Expr::Rep(..)) if depth < MAX_DEPTH => Some(self.reporter(e, parent, depth, true)),
            Some(Expr::Param(i)) if !self.plain => Some(self.param(*i, parent, true)),
            _ => None,
        }
    }

    /// Writes a reporter block and returns its id.
    fn reporter(&mut self, e: Option<&Expr>, parent: &str, depth: u32, want_bool: bool) -> String {
        let Some(Expr::Rep(op, field, args)) = e else {
            unreachable!("reporter() is called with Expr::Rep");
        };
        let table = if want_bool { &self.booleans } else { &self.reporters };
        let mut rep = *table[usize::from(*op) % table.len()];
        // A stored value never reads a list's contents (a list holding its own contents grows
        // exponentially); nor does a join operand there read stored text.
        let reads_storage = matches!(
            rep.opcode,
            "data_listcontents" | "data_itemoflist" | "sensing_of" | "data_itemnumoflist"
        );
        if (self.stored && rep.opcode == "data_listcontents") || (self.plain && reads_storage) {
            rep = **self.reporters.iter().find(|r| r.opcode == "operator_length").expect("length");
        }
        let id = self.id();
        let was_plain = self.plain;
        if rep.opcode == "operator_join" && self.stored {
            self.plain = true;
        }
        let mut inputs = String::new();
        let mut object_pick = None;
        for (k, slot) in rep.inputs.iter().enumerate() {
            let arg = args.get(k);
            if let In::Menu(..) = slot {
                object_pick = Some(menu_pick(arg));
            }
            if let Some(v) = self.input(*slot, arg, &id, depth + 1) {
                push(&mut inputs, slot_name(*slot), &v);
            }
        }
        self.plain = was_plain;
        let fields = self.fields(rep.fields, *field, object_pick);
        self.block(&id, rep.opcode, Some(parent), None, &inputs, &fields, false, "");
        id
    }

    fn fields(&self, fields: &[Fld], pick: u8, object_pick: Option<u8>) -> String {
        let mut out = String::new();
        for f in fields {
            let (name, value) = match f {
                Fld::Var => {
                    push(&mut out, "", &self.var_field(pick, false));
                    continue;
                }
                Fld::List => {
                    push(&mut out, "", &self.var_field(pick, true));
                    continue;
                }
                Fld::Fixed(name, values) => {
                    (*name, values[usize::from(pick) % values.len()].to_string())
                }
                Fld::OfProperty => {
                    let object = self.menu_value(Menu::OfObject, object_pick.unwrap_or(0));
                    let props: &[&str] = if object == "_stage_" {
                        &["backdrop #", "backdrop name", "volume", "g0", "g1", "nothing"]
                    } else {
                        &[
                            "x position",
                            "y position",
                            "direction",
                            "costume #",
                            "costume name",
                            "size",
                            "volume",
                            "v",
                            "g0",
                        ]
                    };
                    ("PROPERTY", props[usize::from(pick) % props.len()].to_string())
                }
            };
            let entry = format!("{}:[{},null]", q(name), q(&value));
            push(&mut out, "", &entry);
        }
        out
    }

    /// Writes a stack; returns its first block's id.
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
        let op = *self.stack_ops[usize::from(b.op) % self.stack_ops.len()];
        let mut inputs = String::new();
        let mut extra = String::new();
        let stores = matches!(
            op.opcode,
            "data_setvariableto"
                | "data_addtolist"
                | "data_insertatlist"
                | "data_replaceitemoflist"
        );
        for (k, slot) in op.inputs.iter().enumerate() {
            let storing = stores && matches!(slot_name(*slot), "VALUE" | "ITEM");
            self.stored = storing;
            if let Some(v) = self.input(*slot, b.args.get(k), id, 0) {
                push(&mut inputs, slot_name(*slot), &v);
            }
            self.stored = false;
        }
        for k in 0..usize::from(op.branches) {
            let body = if depth < MAX_DEPTH { b.branches.get(k).map(Vec::as_slice) } else { None };
            if let Some(first) = body.and_then(|body| self.stack(body, id, depth + 1)) {
                let name = if k == 0 { "SUBSTACK" } else { "SUBSTACK2" };
                push(&mut inputs, name, &format!("[2,{}]", q(&first)));
            }
        }
        let mut fields = self.fields(op.fields, b.field, None);
        match op.opcode {
            "event_broadcast" | "event_broadcastandwait" => {
                let msg = MESSAGES[usize::from(b.field) % MESSAGES.len()];
                let prim = format!("[11,{},{}]", q(msg), q(&format!("m_{}", msg.to_lowercase())));
                let v = match b.args.first() {
                    Some(e @ Expr::Rep(..)) => {
                        let r = self.reporter(Some(e), id, 0, false);
                        format!("[3,{},{prim}]", q(&r))
                    }
                    _ => format!("[1,{prim}]"),
                };
                push(&mut inputs, "BROADCAST_INPUT", &v);
            }
            "control_stop" => {
                let option = STOPS[usize::from(b.field) % STOPS.len()];
                let has_next = option == "other scripts in sprite";
                extra = format!(
                    ",\"mutation\":{{\"tagName\":\"mutation\",\"children\":[],\"hasnext\":\"{has_next}\"}}"
                );
            }
            "procedures_call" => {
                let procs = self.procs;
                let Some(p) = procs.get(usize::from(b.field) % procs.len().max(1)) else {
                    // A sprite without custom blocks (or the stage) calls one that is missing.
                    extra = ",\"mutation\":{\"tagName\":\"mutation\",\"children\":[],\"proccode\":\"missing %s\",\"argumentids\":\"[\\\"zz\\\"]\",\"warp\":\"false\"}".to_string();
                    self.block(id, op.opcode, Some(parent), next, &inputs, &fields, false, &extra);
                    return;
                };
                inputs.clear();
                fields.clear();
                for (k, (aid, _, boolean)) in p.args.iter().enumerate() {
                    let slot = if *boolean { In::Bool("A") } else { In::Text("A") };
                    self.stored = true;
                    if let Some(v) = self.input(slot, b.args.get(k), id, 0) {
                        push(&mut inputs, aid, &v);
                    }
                    self.stored = false;
                }
                let ids: Vec<String> = p.args.iter().map(|a| q(&a.0)).collect();
                let ids = q(&format!("[{}]", ids.join(",")));
                extra = format!(
                    ",\"mutation\":{{\"tagName\":\"mutation\",\"children\":[],\"proccode\":{},\"argumentids\":{ids},\"warp\":\"{}\"}}",
                    q(&p.code),
                    p.warp
                );
            }
            _ => {}
        }
        self.block(id, op.opcode, Some(parent), next, &inputs, &fields, false, &extra);
    }

    fn script(&mut self, s: &ScriptDef) {
        let hats = if self.sprite.is_some() { SPRITE_HATS } else { STAGE_HATS };
        let hat = hats[usize::from(s.hat) % hats.len()];
        let id = self.id();
        let first = self.stack(&s.body, &id, 0);
        let mut inputs = String::new();
        let fields = match hat {
            "event_whenbroadcastreceived" => {
                let m = MESSAGES[usize::from(s.arg) % MESSAGES.len()];
                format!("\"BROADCAST_OPTION\":[{},{}]", q(m), q(&format!("m_{}", m.to_lowercase())))
            }
            "event_whenkeypressed" => {
                format!("\"KEY_OPTION\":[{},null]", q(KEYS[usize::from(s.arg) % KEYS.len()]))
            }
            "event_whenbackdropswitchesto" => {
                format!("\"BACKDROP\":[{},null]", q(["b1", "b2"][usize::from(s.arg) % 2]))
            }
            "event_whengreaterthan" => {
                let v = ["0.1", "0.5", "1", "-1"][usize::from(s.arg) % 4];
                inputs = format!("\"VALUE\":[1,[4,{}]]", q(v));
                let menu = ["TIMER", "LOUDNESS"][usize::from(s.arg / 4) % 2];
                format!("\"WHENGREATERTHANMENU\":[{},null]", q(menu))
            }
            _ => String::new(),
        };
        self.block(&id, hat, None, first.as_deref(), &inputs, &fields, false, "");
    }

    fn procedure(&mut self, p: &'a Proc, body: &[Block]) {
        let def = self.id();
        let proto = self.id();
        self.params = Some(&p.args);
        let first = self.stack(body, &def, 0);
        self.params = None;
        let ids: Vec<String> = p.args.iter().map(|a| q(&a.0)).collect();
        let names: Vec<String> = p.args.iter().map(|a| q(&a.1)).collect();
        let defaults: Vec<String> =
            p.args.iter().map(|a| q(if a.2 { "false" } else { "" })).collect();
        let extra = format!(
            ",\"mutation\":{{\"tagName\":\"mutation\",\"children\":[],\"proccode\":{},\"argumentids\":{},\"argumentnames\":{},\"argumentdefaults\":{},\"warp\":\"{}\"}}",
            q(&p.code),
            q(&format!("[{}]", ids.join(","))),
            q(&format!("[{}]", names.join(","))),
            q(&format!("[{}]", defaults.join(","))),
            p.warp
        );
        self.block(&proto, "procedures_prototype", Some(&def), None, "", "", true, &extra);
        let inputs = format!("\"custom_block\":[1,{}]", q(&proto));
        self.block(&def, "procedures_definition", None, first.as_deref(), &inputs, "", false, "");
    }
}

/// The menu entry an input's expression chooses.
fn menu_pick(e: Option<&Expr>) -> u8 {
    match e {
        Some(Expr::Num(i) | Expr::Str(i) | Expr::Var(i) | Expr::List(i) | Expr::Param(i)) => *i,
        Some(Expr::Int(n)) => n.to_le_bytes()[0],
        Some(Expr::Rep(op, _, _)) => *op,
        None => 0,
    }
}

fn slot_name(slot: In) -> &'static str {
    match slot {
        In::Num(n) | In::Whole(n) | In::Text(n) | In::Bool(n) | In::Colour(n) => n,
        In::Menu(n, ..) => n,
    }
}

/// Appends `"name":value` (or a ready `"name":value` when `name` is empty) to a JSON body.
fn push(out: &mut String, name: &str, value: &str) {
    if !out.is_empty() {
        out.push(',');
    }
    if name.is_empty() {
        out.push_str(value);
    } else {
        let _ = write!(out, "{}:{value}", q(name));
    }
}

fn procs_of(s: &SpriteDef, k: usize) -> Vec<Proc> {
    s.procs
        .iter()
        .take(2)
        .enumerate()
        .map(|(j, p): (usize, &ProcDef)| {
            let count = usize::from(p.kinds & 3).min(2);
            let args: Vec<(String, String, bool)> = (0..count)
                .map(|a| {
                    let boolean = p.kinds & (4 << a) != 0;
                    (format!("s{k}p{j}a{a}"), format!("arg{a}"), boolean)
                })
                .collect();
            let mut code = format!("p{j}");
            for a in &args {
                code.push_str(if a.2 { " %b" } else { " %s" });
            }
            Proc { code, args, warp: p.warp }
        })
        .collect()
}

fn target(def: &ProjectDef, k: Option<usize>, profile: Profile, layer: usize) -> String {
    let sprites = def.sprites.len().min(MAX_SPRITES);
    let scope_ok = |scope: Scope| match scope {
        Scope::Any => true,
        Scope::Sprite => k.is_some(),
        Scope::Stage => k.is_none(),
    };
    let profile_ok = |geometry_free: bool| profile == Profile::Full || geometry_free;
    let stack_ops: Vec<&'static Stack> =
        STACK.iter().filter(|s| scope_ok(s.scope) && profile_ok(s.geometry_free)).collect();
    let all: Vec<&'static Reporter> =
        REPORTERS.iter().filter(|r| scope_ok(r.scope) && profile_ok(r.geometry_free)).collect();
    let booleans: Vec<&'static Reporter> = all.iter().copied().filter(|r| r.boolean).collect();
    let sprite = k.map(|k| &def.sprites[k]);
    let look = sprite.map_or(0, |s| s.look);
    let costumes: Vec<usize> = match look % 4 {
        0 => vec![0, 1],
        1 => vec![1, 2],
        2 => vec![2, 0],
        _ => vec![0, 1, 2],
    };
    let procs = match (sprite, k) {
        (Some(s), Some(k)) => procs_of(s, k),
        _ => Vec::new(),
    };
    let mut w = Writer {
        out: String::new(),
        next_id: 0,
        prefix: match k {
            Some(k) => format!("s{k}b"),
            None => String::from("stb"),
        },
        sprite: k,
        sprites,
        params: None,
        procs: &procs,
        costumes: costumes.iter().map(|&c| COSTUMES[c].0).collect(),
        stack_ops,
        reporters: all,
        booleans,
        stored: false,
        plain: false,
    };
    let scripts = sprite.map_or(&def.stage, |s| &s.scripts);
    for s in scripts.iter().take(MAX_SCRIPTS) {
        w.script(s);
    }
    if let Some(s) = sprite {
        for (p, pd) in procs.iter().zip(&s.procs) {
            w.procedure(p, &pd.body);
        }
    }
    match (sprite, k) {
        (Some(s), Some(k)) => {
            let costume_json: Vec<String> = costumes
                .iter()
                .map(|&c| {
                    let (name, svg, [cx, cy]) = COSTUMES[c];
                    let m = md5ext(svg);
                    format!(
                        "{{\"name\":{},\"bitmapResolution\":1,\"dataFormat\":\"svg\",\"assetId\":{},\"md5ext\":{},\"rotationCenterX\":{cx},\"rotationCenterY\":{cy}}}",
                        q(name),
                        q(&m[..32]),
                        q(&m)
                    )
                })
                .collect();
            let dir = [90, -90, 45, 180, 0, 17][usize::from(s.look / 4) % 6];
            let size = [100, 50, 150, 100][usize::from(s.look / 16) % 4];
            let visible = s.look / 64 != 3;
            let style =
                ["all around", "left-right", "don't rotate", "all around"][usize::from(s.look % 4)];
            format!(
                "{{\"isStage\":false,\"name\":\"S{k}\",\"variables\":{{\"s{k}v\":[\"v\",5]}},\"lists\":{{\"s{k}l\":[\"l\",[]]}},\"broadcasts\":{{}},\"blocks\":{{{}}},\"comments\":{{}},\"currentCostume\":{},\"costumes\":[{}],\"sounds\":[],\"volume\":100,\"layerOrder\":{layer},\"visible\":{visible},\"x\":{},\"y\":{},\"size\":{size},\"direction\":{dir},\"draggable\":false,\"rotationStyle\":{}}}",
                w.out,
                usize::from(s.look / 8) % costumes.len(),
                costume_json.join(","),
                i32::from(s.x) * 2,
                i32::from(s.y),
                q(style)
            )
        }
        _ => {
            let backdrops: Vec<String> = BACKDROPS
                .iter()
                .map(|(name, svg)| {
                    let m = md5ext(svg);
                    format!(
                        "{{\"name\":{},\"bitmapResolution\":1,\"dataFormat\":\"svg\",\"assetId\":{},\"md5ext\":{},\"rotationCenterX\":240,\"rotationCenterY\":180}}",
                        q(name),
                        q(&m[..32]),
                        q(&m)
                    )
                })
                .collect();
            let broadcasts: Vec<String> = MESSAGES
                .iter()
                .map(|m| format!("{}:{}", q(&format!("m_{}", m.to_lowercase())), q(m)))
                .collect();
            format!(
                "{{\"isStage\":true,\"name\":\"Stage\",\"variables\":{{\"gv0\":[\"g0\",0],\"gv1\":[\"g1\",\"\"]}},\"lists\":{{\"gl0\":[\"gl\",[\"a\",1,\"2.5\"]]}},\"broadcasts\":{{{}}},\"blocks\":{{{}}},\"comments\":{{}},\"currentCostume\":0,\"costumes\":[{}],\"sounds\":[],\"volume\":100,\"layerOrder\":0,\"tempo\":60,\"videoTransparency\":50,\"videoState\":\"off\",\"textToSpeechLanguage\":null}}",
                broadcasts.join(","),
                w.out,
                backdrops.join(",")
            )
        }
    }
}

fn event(e: &EventDef, frames: u64, sprites: usize, profile: Profile) -> Option<String> {
    let frame = 1 + u64::from(e.frame) % (frames - 1).max(1);
    let arg = usize::from(e.arg);
    let body = match e.kind % 10 {
        0 | 1 => format!("\"action\":\"key_down\",\"key\":{}", q(KEYS[arg % 3])),
        2 => format!("\"action\":\"key_up\",\"key\":{}", q(KEYS[arg % 3])),
        3 => format!("\"action\":\"broadcast\",\"message\":{}", q(MESSAGES[arg % MESSAGES.len()])),
        4 => format!("\"action\":\"answer\",\"text\":{}", q(ANSWERS[arg % ANSWERS.len()])),
        5 => {
            let name = if sprites == 0 || arg % (sprites + 1) == sprites {
                String::from("Stage")
            } else {
                format!("S{}", arg % (sprites + 1))
            };
            format!("\"action\":\"click_sprite\",\"name\":{}", q(&name))
        }
        6 | 7 => {
            let (x, y) = (i32::from(e.arg as i8) * 2, i32::from(e.frame as i8));
            format!("\"action\":\"mouse_move\",\"x\":{x},\"y\":{y}")
        }
        8 if profile == Profile::Full => {
            let action = if arg % 2 == 0 { "mouse_down" } else { "mouse_up" };
            format!("\"action\":\"{action}\"")
        }
        8 => return None,
        _ => String::from("\"action\":\"stop_all\""),
    };
    Some(format!("{{\"frame\":{frame},{body}}}"))
}

/// Writes a program.
pub(super) fn program(def: &ProjectDef, profile: Profile) -> Program {
    let sprites = def.sprites.len().min(MAX_SPRITES);
    let mut targets = vec![target(def, None, profile, 0)];
    for k in 0..sprites {
        targets.push(target(def, Some(k), profile, k + 1));
    }
    let extensions = "[\"pen\",\"music\"]";
    let project_json = format!(
        "{{\"targets\":[{}],\"monitors\":[],\"extensions\":{extensions},\"meta\":{{\"semver\":\"3.0.0\",\"vm\":\"5.0.300\",\"agent\":\"gobo diff-fuzz\"}}}}",
        targets.join(",")
    );
    let frames = def.frames();
    let mut events = vec![
        String::from("{\"frame\":0,\"action\":\"mouse_move\",\"x\":10,\"y\":-20}"),
        String::from("{\"frame\":0,\"action\":\"green_flag\"}"),
    ];
    events.extend(
        def.events.iter().take(MAX_EVENTS).filter_map(|e| event(e, frames, sprites, profile)),
    );
    let seed = u32::from(def.seed) + 1;
    let scenario_json =
        format!("{{\"frames\":{frames},\"seed\":{seed},\"events\":[{}]}}", events.join(","));
    let mut assets: Vec<(String, &'static [u8])> = Vec::new();
    for (_, svg, _) in COSTUMES {
        assets.push((md5ext(svg), svg));
    }
    for (_, svg) in BACKDROPS {
        assets.push((md5ext(svg), svg));
    }
    let (ticks_per_frame, warp_checks) = match def.budget % 4 {
        0 => (1, 50),
        1 => (10, 300),
        2 => (30, 100),
        _ => (100, 1000),
    };
    Program {
        project_json,
        assets,
        scenario_json,
        frames,
        seed,
        ticks_per_frame,
        warp_checks,
        turbo: def.budget / 4 % 8 == 7,
    }
}
