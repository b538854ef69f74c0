//! A seeded generator of number-heavy Scratch projects for the register tier's differential
//! test: nested loops (`repeat`, `repeat until`, `while`, `for each`, `forever`), `if`s,
//! variables (global and sprite-local), lists, arithmetic, `mod` by literals, rounding,
//! `mathop`, comparisons, logic, `join`, `letter of`, `length`, random draws, a warp and a
//! plain custom block with a parameter, and now and then a block the tier does not run
//! (`say`, `wait 0`, a motion block) so compiled and interpreted loops meet. Literals and
//! initial values include NaN, ±Infinity, -0, huge and tiny numbers and numeric strings.

use serde_json::{json, Map, Value as Json};

/// xorshift64*: the generator's only randomness.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Number literals as typed into a block (Scratch keeps the text).
const NUMS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "-7",
    "10",
    "0.5",
    "-2.5",
    "100",
    "1e308",
    "-1e308",
    "5e-324",
    "1e-7",
    "1e21",
    "123456789012345680000",
    "9007199254740993",
    "0.1",
    "-0",
    "360",
    "4294967296",
];
/// Text literals.
const STRS: &[&str] = &[
    "",
    "0",
    "1.5",
    "-7",
    "abc",
    "Infinity",
    "-Infinity",
    "NaN",
    "0x1f",
    " 3 ",
    "1e3",
    "-0",
    "true",
    "A",
    "12",
    "0.1",
    "  ",
    "ß",
];
/// Initial variable values (JSON).
fn initial(rng: &mut Rng) -> Json {
    match rng.below(12) {
        0 => json!(0),
        1 => json!(1.5),
        2 => json!(-3),
        3 => json!(1e308),
        4 => json!(5e-324),
        5 => json!(-0.0),
        6 => json!(123456789),
        _ => json!(STRS[rng.below(STRS.len())]),
    }
}

const GLOBALS: &[&str] = &["a", "b", "c", "i", "j"];
const LOCALS: &[&str] = &["x", "y"];

/// One target's blocks under construction.
struct Blocks {
    map: Map<String, Json>,
    n: u32,
    prefix: &'static str,
    /// Variables and lists this target may use: (name, id).
    vars: Vec<(String, String)>,
    lists: Vec<(String, String)>,
    /// Inside the custom block's definition (its parameter is valid).
    in_proc: bool,
}

impl Blocks {
    fn id(&mut self) -> String {
        self.n += 1;
        format!("{}{}", self.prefix, self.n)
    }

    fn add(&mut self, id: &str, opcode: &str, inputs: Json, fields: Json) {
        self.map.insert(
            id.to_string(),
            json!({"opcode": opcode, "next": null, "parent": null, "inputs": inputs,
                   "fields": fields, "shadow": false, "topLevel": false}),
        );
    }

    fn var(&mut self, rng: &mut Rng) -> (String, String) {
        self.vars[rng.below(self.vars.len())].clone()
    }

    fn list(&mut self, rng: &mut Rng) -> (String, String) {
        self.lists[rng.below(self.lists.len())].clone()
    }

    /// An input: a literal, a variable or a reporter block.
    fn expr(&mut self, rng: &mut Rng, depth: u32) -> Json {
        let leaf = depth >= 3 || rng.chance(35);
        if leaf {
            return match rng.below(6) {
                0 | 1 => json!([1, [4, NUMS[rng.below(NUMS.len())]]]),
                2 => json!([1, [10, STRS[rng.below(STRS.len())]]]),
                3 if self.in_proc => {
                    let id = self.id();
                    self.add(
                        &id,
                        "argument_reporter_string_number",
                        json!({}),
                        json!({"VALUE": ["n", null]}),
                    );
                    json!([3, id, [10, ""]])
                }
                _ => {
                    let (name, vid) = self.var(rng);
                    json!([3, [12, name, vid], [10, ""]])
                }
            };
        }
        let id = self.id();
        const BIN: &[(&str, &str, &str)] = &[
            ("operator_add", "NUM1", "NUM2"),
            ("operator_subtract", "NUM1", "NUM2"),
            ("operator_multiply", "NUM1", "NUM2"),
            ("operator_divide", "NUM1", "NUM2"),
            ("operator_mod", "NUM1", "NUM2"),
            ("operator_lt", "OPERAND1", "OPERAND2"),
            ("operator_gt", "OPERAND1", "OPERAND2"),
            ("operator_equals", "OPERAND1", "OPERAND2"),
            ("operator_and", "OPERAND1", "OPERAND2"),
            ("operator_or", "OPERAND1", "OPERAND2"),
            ("operator_join", "STRING1", "STRING2"),
            ("operator_letter_of", "LETTER", "STRING"),
            ("operator_contains", "STRING1", "STRING2"),
            ("operator_random", "FROM", "TO"),
        ];
        let k = rng.below(BIN.len() + 10);
        if k < BIN.len() {
            let (op, a, b) = BIN[k];
            let x = self.expr(rng, depth + 1);
            // `mod` mostly by a literal (the tier's multiplication path).
            let y = if op == "operator_mod" && rng.chance(70) {
                json!([1, [4, pick(rng, &["7", "-7", "3", "1", "10", "0", "2.5", "360", "-1"])]])
            } else {
                self.expr(rng, depth + 1)
            };
            self.add(&id, op, json!({a: x, b: y}), json!({}));
        } else {
            match k - BIN.len() {
                0 => {
                    let x = self.expr(rng, depth + 1);
                    self.add(&id, "operator_round", json!({"NUM": x}), json!({}));
                }
                1 => {
                    const OPS: &[&str] = &[
                        "abs", "floor", "ceiling", "sqrt", "sin", "cos", "tan", "asin", "acos",
                        "atan", "ln", "log", "e ^", "10 ^",
                    ];
                    let x = self.expr(rng, depth + 1);
                    self.add(
                        &id,
                        "operator_mathop",
                        json!({"NUM": x}),
                        json!({"OPERATOR": [OPS[rng.below(OPS.len())], null]}),
                    );
                }
                2 => {
                    let x = self.expr(rng, depth + 1);
                    self.add(&id, "operator_not", json!({"OPERAND": x}), json!({}));
                }
                3 => {
                    let x = self.expr(rng, depth + 1);
                    self.add(&id, "operator_length", json!({"STRING": x}), json!({}));
                }
                4 | 5 => {
                    let (name, lid) = self.list(rng);
                    let x = self.expr(rng, depth + 1);
                    self.add(
                        &id,
                        "data_itemoflist",
                        json!({"INDEX": x}),
                        json!({"LIST": [name, lid]}),
                    );
                }
                6 => {
                    let (name, lid) = self.list(rng);
                    self.add(&id, "data_lengthoflist", json!({}), json!({"LIST": [name, lid]}));
                }
                7 => {
                    let (name, lid) = self.list(rng);
                    let x = self.expr(rng, depth + 1);
                    self.add(
                        &id,
                        "data_itemnumoflist",
                        json!({"ITEM": x}),
                        json!({"LIST": [name, lid]}),
                    );
                }
                8 => {
                    let (name, lid) = self.list(rng);
                    let x = self.expr(rng, depth + 1);
                    self.add(
                        &id,
                        "data_listcontainsitem",
                        json!({"ITEM": x}),
                        json!({"LIST": [name, lid]}),
                    );
                }
                _ => {
                    // A reporter the tier does not run: the loop around it stays interpreted.
                    self.add(&id, "motion_xposition", json!({}), json!({}));
                }
            }
        }
        json!([3, id, [10, ""]])
    }

    /// A stack of `len` statements; returns the first id.
    fn stack(&mut self, rng: &mut Rng, len: usize, depth: u32) -> Option<String> {
        let ids: Vec<String> = (0..len).map(|_| self.stmt(rng, depth)).collect();
        for w in ids.windows(2) {
            self.map[&w[0]]["next"] = json!(w[1]);
            self.map[&w[1]]["parent"] = json!(w[0]);
        }
        ids.into_iter().next()
    }

    fn substack(&mut self, rng: &mut Rng, depth: u32) -> Json {
        let len = 1 + rng.below(3);
        match self.stack(rng, len, depth + 1) {
            Some(first) => json!([2, first]),
            None => json!(null),
        }
    }

    fn stmt(&mut self, rng: &mut Rng, depth: u32) -> String {
        let id = self.id();
        let nest = depth < 4;
        let k = rng.below(if nest { 24 } else { 14 });
        match k {
            0..=3 => {
                let (name, vid) = self.var(rng);
                let x = self.expr(rng, 0);
                self.add(
                    &id,
                    "data_setvariableto",
                    json!({"VALUE": x}),
                    json!({"VARIABLE": [name, vid]}),
                );
            }
            4..=6 => {
                let (name, vid) = self.var(rng);
                let x = if rng.chance(50) { json!([1, [4, "1"]]) } else { self.expr(rng, 0) };
                self.add(
                    &id,
                    "data_changevariableby",
                    json!({"VALUE": x}),
                    json!({"VARIABLE": [name, vid]}),
                );
            }
            7 => {
                let (name, lid) = self.list(rng);
                let x = self.expr(rng, 0);
                self.add(&id, "data_addtolist", json!({"ITEM": x}), json!({"LIST": [name, lid]}));
            }
            8 => {
                let (name, lid) = self.list(rng);
                let x = if rng.chance(20) {
                    json!([1, [10, pick(rng, &["all", "last", "random", "1"])]])
                } else {
                    self.expr(rng, 0)
                };
                self.add(
                    &id,
                    "data_deleteoflist",
                    json!({"INDEX": x}),
                    json!({"LIST": [name, lid]}),
                );
            }
            9 => {
                let (name, lid) = self.list(rng);
                let x = self.expr(rng, 0);
                let i = self.expr(rng, 0);
                self.add(
                    &id,
                    "data_insertatlist",
                    json!({"ITEM": x, "INDEX": i}),
                    json!({"LIST": [name, lid]}),
                );
            }
            10 => {
                let (name, lid) = self.list(rng);
                let i = self.expr(rng, 0);
                let x = self.expr(rng, 0);
                self.add(
                    &id,
                    "data_replaceitemoflist",
                    json!({"INDEX": i, "ITEM": x}),
                    json!({"LIST": [name, lid]}),
                );
            }
            11 => {
                let (name, lid) = self.list(rng);
                if rng.chance(30) {
                    self.add(&id, "data_deletealloflist", json!({}), json!({"LIST": [name, lid]}));
                } else {
                    self.add(&id, "control_incr_counter", json!({}), json!({}));
                }
            }
            12 => {
                // Blocks the tier does not run.
                match rng.below(3) {
                    0 => {
                        let x = self.expr(rng, 0);
                        self.add(&id, "looks_say", json!({"MESSAGE": x}), json!({}));
                    }
                    1 => {
                        self.add(&id, "control_wait", json!({"DURATION": [1, [5, "0"]]}), json!({}))
                    }
                    _ => {
                        let x = self.expr(rng, 0);
                        self.add(&id, "motion_changexby", json!({"DX": x}), json!({}));
                    }
                }
            }
            13 => {
                let x = self.expr(rng, 0);
                self.add(&id, "control_if", json!({"CONDITION": x}), json!({}));
            }
            14..=15 => {
                let x = self.expr(rng, 0);
                let a = self.substack(rng, depth);
                let b = self.substack(rng, depth);
                self.add(
                    &id,
                    "control_if_else",
                    json!({"CONDITION": x, "SUBSTACK": a, "SUBSTACK2": b}),
                    json!({}),
                );
            }
            16..=18 => {
                let times = if rng.chance(70) {
                    json!([1, [6, pick(rng, &["0", "1", "3", "5", "12", "-1", "2.5"])]])
                } else {
                    self.expr(rng, 1)
                };
                let body = self.substack(rng, depth);
                self.add(
                    &id,
                    "control_repeat",
                    json!({"TIMES": times, "SUBSTACK": body}),
                    json!({}),
                );
            }
            19 | 20 => {
                let op = if k == 19 { "control_repeat_until" } else { "control_while" };
                let x = self.expr(rng, 1);
                let body = self.substack(rng, depth);
                self.add(&id, op, json!({"CONDITION": x, "SUBSTACK": body}), json!({}));
            }
            21 => {
                let (name, vid) = self.var(rng);
                let x = if rng.chance(60) {
                    json!([1, [6, pick(rng, &["3", "0", "4.5", "10"])]])
                } else {
                    self.expr(rng, 1)
                };
                let body = self.substack(rng, depth);
                self.add(
                    &id,
                    "control_for_each",
                    json!({"VALUE": x, "SUBSTACK": body}),
                    json!({"VARIABLE": [name, vid]}),
                );
            }
            22 => {
                let body = self.substack(rng, depth);
                self.add(&id, "control_forever", json!({"SUBSTACK": body}), json!({}));
            }
            _ => {
                let x = self.expr(rng, 1);
                let code = if rng.chance(50) { "warp %s" } else { "plain %s" };
                self.add(&id, "procedures_call", json!({"arg0": x}), json!({}));
                self.map[&id]["mutation"] = json!({"tagName": "mutation", "children": [],
                    "proccode": code, "argumentids": "[\"arg0\"]", "warp": "false"});
            }
        }
        // Point children at their parent (scratch-vm ignores it; the loader may not).
        let inputs = self.map[&id]["inputs"].clone();
        if let Some(obj) = inputs.as_object() {
            for v in obj.values() {
                if let Some(child) = v.get(1).and_then(Json::as_str) {
                    if let Some(b) = self.map.get_mut(child) {
                        b["parent"] = json!(id);
                    }
                }
            }
        }
        id
    }

    fn script(&mut self, rng: &mut Rng, y: i32) {
        let hat = self.id();
        self.add(&hat, "event_whenflagclicked", json!({}), json!({}));
        let len = 1 + rng.below(4);
        let first = self.stack(rng, len, 0);
        self.map[&hat]["topLevel"] = json!(true);
        self.map[&hat]["x"] = json!(0);
        self.map[&hat]["y"] = json!(y);
        if let Some(f) = first {
            self.map[&hat]["next"] = json!(f);
            self.map[&f]["parent"] = json!(hat);
        }
    }

    fn procedure(&mut self, rng: &mut Rng, code: &str, warp: bool, y: i32) {
        let def = self.id();
        let proto = self.id();
        self.in_proc = true;
        let len = 1 + rng.below(4);
        let first = self.stack(rng, len, 0);
        self.in_proc = false;
        self.add(&proto, "procedures_prototype", json!({}), json!({}));
        self.map[&proto]["shadow"] = json!(true);
        self.map[&proto]["parent"] = json!(def);
        self.map[&proto]["mutation"] = json!({"tagName": "mutation", "children": [],
            "proccode": code, "argumentids": "[\"arg0\"]", "argumentnames": "[\"n\"]",
            "argumentdefaults": "[\"\"]", "warp": if warp { "true" } else { "false" }});
        self.add(&def, "procedures_definition", json!({"custom_block": [1, proto]}), json!({}));
        self.map[&def]["topLevel"] = json!(true);
        self.map[&def]["x"] = json!(400);
        self.map[&def]["y"] = json!(y);
        if let Some(f) = first {
            self.map[&def]["next"] = json!(f);
            self.map[&f]["parent"] = json!(def);
        }
    }
}

fn pick(rng: &mut Rng, from: &[&str]) -> String {
    from[rng.below(from.len())].to_string()
}

fn list_items(rng: &mut Rng) -> Json {
    let n = rng.below(6);
    Json::Array((0..n).map(|_| initial(rng)).collect())
}

/// A project: the stage (global variables `a b c i j`, list `L`, one script) and a sprite
/// (locals `x y`, list `M`, scripts and the custom blocks `warp %s` and `plain %s`).
pub fn project(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut globals = Map::new();
    for g in GLOBALS {
        globals.insert(format!("v_{g}"), json!([g, initial(&mut rng)]));
    }
    let mut locals = Map::new();
    for l in LOCALS {
        locals.insert(format!("v_{l}"), json!([l, initial(&mut rng)]));
    }
    let gvars: Vec<(String, String)> =
        GLOBALS.iter().map(|g| (g.to_string(), format!("v_{g}"))).collect();
    let lvars: Vec<(String, String)> =
        LOCALS.iter().map(|l| (l.to_string(), format!("v_{l}"))).collect();
    let glist = ("L".to_string(), "l_L".to_string());
    let llist = ("M".to_string(), "l_M".to_string());

    let mut stage = Blocks {
        map: Map::new(),
        n: 0,
        prefix: "s",
        vars: gvars.clone(),
        lists: vec![glist.clone()],
        in_proc: false,
    };
    if rng.chance(60) {
        stage.script(&mut rng, 0);
    }
    let mut sprite = Blocks {
        map: Map::new(),
        n: 0,
        prefix: "p",
        vars: gvars.into_iter().chain(lvars).collect(),
        lists: vec![glist, llist],
        in_proc: false,
    };
    for k in 0..1 + rng.below(2) {
        sprite.script(&mut rng, 300 * k as i32);
    }
    sprite.procedure(&mut rng, "warp %s", true, 0);
    sprite.procedure(&mut rng, "plain %s", false, 600);
    let costume = json!({"name": "c", "assetId": "a", "md5ext": "a.svg", "dataFormat": "svg",
        "rotationCenterX": 1, "rotationCenterY": 1});
    let project = json!({
        "targets": [
            {"isStage": true, "name": "Stage", "variables": globals,
             "lists": {"l_L": ["L", list_items(&mut rng)]}, "broadcasts": {},
             "blocks": stage.map, "comments": {}, "currentCostume": 0, "costumes": [costume],
             "sounds": [], "volume": 100, "layerOrder": 0, "tempo": 60},
            {"isStage": false, "name": "Sprite", "variables": locals,
             "lists": {"l_M": ["M", list_items(&mut rng)]}, "broadcasts": {},
             "blocks": sprite.map, "comments": {}, "currentCostume": 0, "costumes": [costume],
             "sounds": [], "volume": 100, "layerOrder": 1, "visible": true, "x": 0, "y": 0,
             "size": 100, "direction": 90, "draggable": false, "rotationStyle": "all around"}
        ],
        "monitors": [], "extensions": [], "meta": {"semver": "3.0.0"}
    });
    project.to_string()
}
