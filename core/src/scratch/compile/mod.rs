//! The compiler: a loaded [`Project`] → a self-contained program [`Image`].
//!
//! Scripts are compiled with an explicit work list (no recursion over `next` chains or
//! C-block nesting); reporter nesting is compiled recursively up to [`MAX_EXPR_DEPTH`] and
//! refused beyond it with a typed error. Variables and lists are resolved to slots the way
//! scratch-vm's `lookupOrCreateVariable` does (by id in the target, then the stage, then by
//! name, else created on the target). Opcodes without an implementation compile to
//! `Unimplemented` (inputs still evaluated, as scratch-vm does) and are listed in
//! [`Image::warnings`]. The opcode table lives in the `table` submodule.

mod monitors;
mod order;
mod table;

use crate::clamp::clamp;
use crate::scratch::value::case;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use super::image::ops::SoundFx;
use super::image::{Expr, ExprId, Hat, Image, Lit, Proc, Rop, Script, Slot, Sop, Stmt, StmtId};
use super::image::{TargetImage, IMAGE_VERSION};
use super::project::{
    Block, BlockIdx, Blocks, Input, InputValue, Literal, Num, Primitive, PrimitiveKind, Project,
    Target,
};
use super::value::number::js_number_to_string;
use table::{classify, Kind};

/// Deepest reporter nesting the compiler accepts.
pub const MAX_EXPR_DEPTH: usize = 200;

/// Why a project could not be compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompileError {
    /// Reporters nested deeper than [`MAX_EXPR_DEPTH`].
    TooDeep {
        /// Target name.
        target: String,
        /// Id of the block where the limit was hit.
        block: String,
    },
    /// More blocks, inputs or literals than the image's 32-bit indices hold.
    TooLarge,
    /// The project has no stage.
    NoStage,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::TooDeep { target, block } => write!(
                f,
                "reporters nested deeper than {MAX_EXPR_DEPTH} in target {target:?} at block {block:?}"
            ),
            CompileError::TooLarge => f.write_str("project too large for the program image"),
            CompileError::NoStage => f.write_str("project has no stage"),
        }
    }
}

impl core::error::Error for CompileError {}

/// Compile a project into a program image.
pub fn compile(project: &Project) -> Result<Image, CompileError> {
    let stage = project.targets.iter().position(|t| t.is_stage).ok_or(CompileError::NoStage)?;
    let mut c = Compiler {
        img: Image {
            version: IMAGE_VERSION,
            targets: Vec::new(),
            stage: stage as u32,
            layer_order: Vec::new(),
            stmts: Vec::new(),
            exprs: Vec::new(),
            args: Vec::new(),
            consts: Vec::new(),
            broadcasts: Vec::new(),
            procs: Vec::new(),
            warnings: Vec::new(),
            load_uid_calls: project.load_uid_calls(),
            hoists: Vec::new(),
            stmt_hoists: Vec::new(),
            registers: 0,
            monitors: Vec::new(),
            skins: Vec::new(),
        },
        warnings: BTreeSet::new(),
        stage,
        ids: project
            .targets
            .iter()
            .map(|t| {
                [
                    t.variables.iter().map(|v| v.id.clone()).collect(),
                    t.lists.iter().map(|l| l.id.clone()).collect(),
                    t.broadcasts.iter().map(|b| b.id.clone()).collect(),
                ]
            })
            .collect(),
    };
    for b in &project.targets[stage].broadcasts {
        c.img.broadcasts.push(b.name.clone());
    }
    for t in &project.targets {
        c.img.targets.push(target_header(t));
    }
    for (ti, t) in project.targets.iter().enumerate() {
        c.compile_target(ti, t)?;
    }
    c.compile_monitors(project)?;
    // Execution order: stable sort by layerOrder (missing: keep file position).
    let mut order: Vec<(f64, usize)> = project
        .targets
        .iter()
        .enumerate()
        .map(|(i, t)| (t.layer_order.map_or(i as f64, Num::as_f64), i))
        .collect();
    order.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(core::cmp::Ordering::Equal));
    c.img.layer_order = order.iter().map(|&(_, i)| i as u32).collect();
    c.img.warnings = c.warnings.into_iter().collect();
    c.img.stmt_hoists.sort_unstable();
    Ok(c.img)
}

fn lit_of(l: &Literal) -> Lit {
    match l {
        Literal::Number(n) => Lit::Num(n.as_f64()),
        Literal::Text(s) => Lit::Str(s.clone()),
        Literal::Bool(b) => Lit::Bool(*b),
        Literal::Null => Lit::Undefined,
    }
}

fn lit_text(l: &Literal) -> String {
    match l {
        Literal::Number(n) => js_number_to_string(n.as_f64()),
        Literal::Text(s) => s.clone(),
        Literal::Bool(b) => b.to_string(),
        Literal::Null => String::from("null"),
    }
}

fn num_or(n: Option<Num>, d: f64) -> f64 {
    n.map_or(d, Num::as_f64)
}

/// A sound's length at playback rate 1 in seconds: `sampleCount / rate` (0 if unknown).
fn sound_secs(s: &crate::scratch::project::Sound) -> f64 {
    let n = num_or(s.sample_count, 0.0);
    let r = num_or(s.rate, 0.0);
    if r > 0.0 && n.is_finite() {
        n / r
    } else {
        0.0
    }
}

fn target_header(t: &Target) -> TargetImage {
    TargetImage {
        name: t.name.clone(),
        is_stage: t.is_stage,
        vars: t.variables.iter().map(|v| (v.name.clone(), lit_of(&v.value))).collect(),
        lists: t
            .lists
            .iter()
            .map(|l| (l.name.clone(), l.items.iter().map(lit_of).collect()))
            .collect(),
        costumes: t.costumes.iter().map(|c| c.name.clone()).collect(),
        costume_skins: alloc::vec![None; t.costumes.len()],
        sounds: t.sounds.iter().map(|s| s.name.clone()).collect(),
        sound_secs: t.sounds.iter().map(sound_secs).collect(),
        x: num_or(t.x, 0.0),
        y: num_or(t.y, 0.0),
        size: num_or(t.size, 100.0),
        direction: num_or(t.direction, 90.0),
        visible: t.visible.unwrap_or(true),
        draggable: t.draggable.unwrap_or(false),
        rotation_style: t.rotation_style.clone().unwrap_or_else(|| String::from("all around")),
        costume: {
            let n = num_or(t.current_costume, 0.0);
            let max = t.costumes.len().saturating_sub(1) as f64;
            if n.is_finite() {
                clamp(libm::round(n), 0.0, max) as u32
            } else {
                0
            }
        },
        volume: num_or(t.volume, 100.0),
        tempo: num_or(t.tempo, 60.0),
        scripts: Vec::new(),
    }
}

/// JavaScript object key order: array-index keys ascending, then the rest in insertion order.
fn js_key_order(blocks: &Blocks) -> Vec<BlockIdx> {
    let mut ints: Vec<(u32, BlockIdx)> = Vec::new();
    let mut rest = Vec::new();
    for (i, b) in blocks.iter() {
        match array_index(&b.id) {
            Some(n) => ints.push((n, i)),
            None => rest.push(i),
        }
    }
    ints.sort_by_key(|p| p.0);
    ints.into_iter().map(|p| p.1).chain(rest).collect()
}

fn array_index(id: &str) -> Option<u32> {
    if id.is_empty()
        || (id.len() > 1 && id.starts_with('0'))
        || !id.bytes().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    id.parse::<u32>().ok().filter(|&n| n != u32::MAX)
}

struct Compiler {
    img: Image,
    warnings: BTreeSet<String>,
    stage: usize,
    /// Per target: variable ids, list ids, broadcast ids (by slot).
    ids: Vec<[Vec<String>; 3]>,
}

/// Per-target compile context.
struct Ctx<'a> {
    ti: usize,
    t: &'a Target,
    /// Block → compiled statement.
    stmt_of: Vec<Option<StmtId>>,
    /// Procedure of the definition a block belongs to, per work item.
    work: Vec<(BlockIdx, StmtId, Option<u32>)>,
    /// First proc index of this target.
    proc_base: usize,
}

impl Compiler {
    fn compile_target(&mut self, ti: usize, t: &Target) -> Result<(), CompileError> {
        let order = js_key_order(&t.blocks);
        let mut cx = Ctx {
            ti,
            t,
            stmt_of: vec![None; t.blocks.len()],
            work: Vec::new(),
            proc_base: self.img.procs.len(),
        };
        // Procedures: prototypes (first per proccode), then definitions.
        for &bi in &order {
            let Some(b) = t.blocks.get(bi) else { continue };
            if b.opcode != "procedures_prototype" {
                continue;
            }
            let Some(m) = &b.mutation else { continue };
            let Some(code) = &m.proccode else { continue };
            if self.find_proc(&cx, code).is_some() {
                continue;
            }
            let names = m.argument_names.clone().unwrap_or_default();
            let mut defaults: Vec<Lit> = m
                .argument_defaults
                .as_ref()
                .map(|d| d.iter().map(lit_of).collect())
                .unwrap_or_default();
            defaults.resize(names.len(), Lit::Undefined);
            self.img.procs.push(Proc {
                target: ti as u32,
                proccode: code.clone(),
                param_names: names,
                defaults,
                definition: None,
                warp: false,
            });
        }
        let mut defs: Vec<(BlockIdx, u32, bool)> = Vec::new();
        for &bi in &order {
            let Some(b) = t.blocks.get(bi) else { continue };
            if b.opcode != "procedures_definition" {
                continue;
            }
            let proto =
                b.input("custom_block").and_then(|i| i.value.as_ref()).and_then(|v| match v {
                    InputValue::Block(p) => t.blocks.get(*p),
                    InputValue::Primitive(_) => None,
                });
            let Some(m) = proto.and_then(|p| p.mutation.as_ref()) else { continue };
            let Some(code) = &m.proccode else { continue };
            if let Some(p) = self.find_proc(&cx, code) {
                if self.img.procs[p as usize].definition.is_none() && !defs.iter().any(|d| d.1 == p)
                {
                    defs.push((bi, p, m.warp));
                }
            }
        }
        for (bi, p, warp) in defs {
            let sid = self.alloc_stmt(&mut cx, bi, Some(p))?;
            let proc = &mut self.img.procs[p as usize];
            proc.definition = Some(sid);
            proc.warp = warp;
        }
        // Scripts started by hats, in script order.
        for &bi in &order {
            let Some(b) = t.blocks.get(bi) else { continue };
            if !b.top_level {
                continue;
            }
            let hat = match b.opcode.as_str() {
                "event_whenflagclicked" => Hat::Flag,
                "event_whenkeypressed" => Hat::Key(field_upper(b, "KEY_OPTION")),
                "event_whenthisspriteclicked" => Hat::SpriteClicked,
                "event_whenstageclicked" => Hat::StageClicked,
                "event_whenbroadcastreceived" => Hat::Broadcast(field_upper(b, "BROADCAST_OPTION")),
                "event_whenbackdropswitchesto" => Hat::Backdrop(field_upper(b, "BACKDROP")),
                "event_whengreaterthan" => Hat::GreaterThan,
                "event_whentouchingobject" => Hat::Touching,
                "control_start_as_clone" => Hat::StartAsClone,
                "makeymakey_whenMakeyKeyPressed" => Hat::MakeyKey,
                "makeymakey_whenCodePressed" => Hat::MakeyCode,
                "videoSensing_whenMotionGreaterThan" => Hat::VideoMotion,
                _ => continue,
            };
            let top = self.alloc_stmt(&mut cx, bi, None)?;
            self.img.targets[ti].scripts.push(Script { hat, top });
        }
        self.drain(&mut cx)
    }

    fn find_proc(&self, cx: &Ctx<'_>, code: &str) -> Option<u32> {
        self.img.procs[cx.proc_base..]
            .iter()
            .position(|p| p.proccode == code)
            .map(|i| (i + cx.proc_base) as u32)
    }

    fn alloc_stmt(
        &mut self,
        cx: &mut Ctx<'_>,
        bi: BlockIdx,
        proc: Option<u32>,
    ) -> Result<StmtId, CompileError> {
        if let Some(Some(s)) = cx.stmt_of.get(bi.get()) {
            return Ok(*s);
        }
        let id = u32::try_from(self.img.stmts.len()).map_err(|_| CompileError::TooLarge)?;
        self.img.stmts.push(Stmt {
            op: Sop::Hat,
            args: 0,
            nargs: 0,
            next: None,
            branch: [None, None],
        });
        if let Some(slot) = cx.stmt_of.get_mut(bi.get()) {
            *slot = Some(id);
        }
        cx.work.push((bi, id, proc));
        Ok(id)
    }

    fn drain(&mut self, cx: &mut Ctx<'_>) -> Result<(), CompileError> {
        while let Some((bi, sid, proc)) = cx.work.pop() {
            let Some(b) = cx.t.blocks.get(bi) else { continue };
            let (op, inputs) = self.stmt_op(cx, b);
            let mut ids = Vec::with_capacity(inputs.len());
            let mut names: Vec<String> = Vec::with_capacity(inputs.len());
            for name in &inputs {
                ids.push(self.input_expr(cx, b, name, proc, 0)?);
                names.push(String::from(*name));
            }
            if op == Sop::Unimplemented {
                for input in &b.inputs {
                    if !input.name.starts_with("SUBSTACK") && input.name != "custom_block" {
                        ids.push(self.input_value(cx, input, proc, 0)?);
                        names.push(input.name.clone());
                    }
                }
            }
            // Calls: one input per present parameter.
            let op = match op {
                Sop::Call { proc: Some(p), code, .. } => {
                    let n = self.img.procs[p as usize].param_names.len();
                    let arg_ids: Vec<String> = b
                        .mutation
                        .as_ref()
                        .and_then(|m| m.argument_ids.clone())
                        .or_else(|| self.proto_ids(cx, p))
                        .unwrap_or_default();
                    let mut present = Vec::with_capacity(n);
                    for k in 0..n {
                        let input = arg_ids.get(k).and_then(|id| b.input(id));
                        // An argument whose reporter has no implementation is never assigned
                        // (execute.js), so the call takes the default; its inputs still run
                        // (hoisted below).
                        let has = input
                            .is_some_and(|i| i.value.is_some() && !order::reports_nothing(cx, i));
                        present.push(has);
                        if has {
                            let name = arg_ids[k].clone();
                            ids.push(self.input_expr(cx, b, &name, proc, 0)?);
                            names.push(name);
                        }
                    }
                    Sop::Call { proc: Some(p), code, present }
                }
                other => other,
            };
            if !op.is_hat() {
                if let Some(h) = self.hoist(cx, b, &names, &mut ids, proc, 0)? {
                    self.img.stmt_hoists.push((sid, h));
                }
            }
            let args = self.push_args(&ids)?;
            let next = match b.next {
                Some(n) => Some(self.alloc_stmt(cx, n, proc)?),
                None => None,
            };
            let mut branch = [None, None];
            for (k, name) in ["SUBSTACK", "SUBSTACK2"].iter().enumerate() {
                if let Some(InputValue::Block(sb)) = b.input(name).and_then(|i| i.value.as_ref()) {
                    branch[k] = Some(self.alloc_stmt(cx, *sb, proc)?);
                }
            }
            let s = &mut self.img.stmts[sid as usize];
            s.op = op;
            s.args = args.0;
            s.nargs = args.1;
            s.next = next;
            s.branch = branch;
        }
        Ok(())
    }

    /// The parameter ids of a procedure's prototype (calls written without `argumentids`).
    fn proto_ids(&self, cx: &Ctx<'_>, p: u32) -> Option<Vec<String>> {
        let code = &self.img.procs[p as usize].proccode;
        cx.t.blocks.iter().find_map(|(_, b)| {
            let m = b.mutation.as_ref()?;
            (b.opcode == "procedures_prototype" && m.proccode.as_ref() == Some(code))
                .then(|| m.argument_ids.clone())
                .flatten()
        })
    }

    fn push_args(&mut self, ids: &[ExprId]) -> Result<(u32, u16), CompileError> {
        let start = u32::try_from(self.img.args.len()).map_err(|_| CompileError::TooLarge)?;
        let n = u16::try_from(ids.len()).map_err(|_| CompileError::TooLarge)?;
        self.img.args.extend_from_slice(ids);
        Ok((start, n))
    }

    fn push_expr(&mut self, e: Expr) -> Result<ExprId, CompileError> {
        let id = u32::try_from(self.img.exprs.len()).map_err(|_| CompileError::TooLarge)?;
        self.img.exprs.push(e);
        Ok(id)
    }

    fn konst(&mut self, l: Lit) -> Result<ExprId, CompileError> {
        let k = u32::try_from(self.img.consts.len()).map_err(|_| CompileError::TooLarge)?;
        self.img.consts.push(l);
        self.push_expr(Expr::Const(k))
    }

    /// The statement operation of a block and the names of its inputs, in stored order.
    fn stmt_op(&mut self, cx: &mut Ctx<'_>, b: &Block) -> (Sop, Vec<&'static str>) {
        match classify(&b.opcode) {
            Kind::Stmt(op, inputs) => (self.resolve_stmt(cx, b, op), inputs.to_vec()),
            Kind::Hat => match b.opcode.as_str() {
                "event_whengreaterthan" => (
                    Sop::HatGreater(case::to_lower(&field_text(b, "WHENGREATERTHANMENU"))),
                    vec!["VALUE"],
                ),
                "event_whentouchingobject" => (Sop::HatTouching, vec!["TOUCHINGOBJECTMENU"]),
                "makeymakey_whenMakeyKeyPressed" => (Sop::HatMakeyKey, vec!["KEY"]),
                "makeymakey_whenCodePressed" => (Sop::HatMakeyCode, vec!["SEQUENCE"]),
                "videoSensing_whenMotionGreaterThan" => (Sop::HatVideoMotion, vec!["REFERENCE"]),
                _ => (Sop::Hat, Vec::new()),
            },
            Kind::Reporter(..) | Kind::Unknown => {
                self.warnings.insert(format!("unimplemented block: {}", b.opcode));
                (Sop::Unimplemented, Vec::new())
            }
        }
    }

    /// Fill in the field-dependent parts of a statement operation.
    fn resolve_stmt(&mut self, cx: &mut Ctx<'_>, b: &Block, op: Sop) -> Sop {
        match op {
            Sop::SetVar(_) => Sop::SetVar(self.var_slot(cx, b, false)),
            Sop::ChangeVar(_) => Sop::ChangeVar(self.var_slot(cx, b, false)),
            Sop::ForEach(_) => Sop::ForEach(self.var_slot(cx, b, false)),
            Sop::AddToList(_) => Sop::AddToList(self.var_slot(cx, b, true)),
            Sop::DeleteOfList(_) => Sop::DeleteOfList(self.var_slot(cx, b, true)),
            Sop::DeleteAllOfList(_) => Sop::DeleteAllOfList(self.var_slot(cx, b, true)),
            Sop::InsertAtList(_) => Sop::InsertAtList(self.var_slot(cx, b, true)),
            Sop::ReplaceItemOfList(_) => Sop::ReplaceItemOfList(self.var_slot(cx, b, true)),
            Sop::SetRotationStyle(_) => Sop::SetRotationStyle(field_text(b, "STYLE")),
            Sop::ChangeEffect(_) => Sop::ChangeEffect(case::to_lower(&field_text(b, "EFFECT"))),
            Sop::SetEffect(_) => Sop::SetEffect(case::to_lower(&field_text(b, "EFFECT"))),
            Sop::GoToFrontBack(_) => Sop::GoToFrontBack(field_text(b, "FRONT_BACK") == "front"),
            Sop::GoForwardBackward(_) => {
                Sop::GoForwardBackward(field_text(b, "FORWARD_BACKWARD") == "forward")
            }
            Sop::SoundEffect { change, .. } => Sop::SoundEffect {
                change,
                fx: match case::to_lower(&field_text(b, "EFFECT")).as_str() {
                    "pitch" => Some(SoundFx::Pitch),
                    "pan" => Some(SoundFx::Pan),
                    _ => None,
                },
            },
            Sop::SetDragMode(_) => Sop::SetDragMode(field_text(b, "DRAG_MODE") == "draggable"),
            Sop::Stop(_) => Sop::Stop(match field_text(b, "STOP_OPTION").as_str() {
                "all" => super::image::ops::StopKind::All,
                "this script" => super::image::ops::StopKind::ThisScript,
                "other scripts in sprite" | "other scripts in stage" => {
                    super::image::ops::StopKind::OtherScripts
                }
                _ => super::image::ops::StopKind::Nothing,
            }),
            Sop::Call { .. } => {
                let code = b.mutation.as_ref().and_then(|m| m.proccode.clone());
                let p = code.as_deref().and_then(|c| self.find_proc(cx, c));
                Sop::Call { proc: p, code: p.unwrap_or(u32::MAX), present: Vec::new() }
            }
            other => other,
        }
    }

    /// Resolve the `VARIABLE` (or `LIST`) field of a block to a slot.
    fn var_slot(&mut self, cx: &Ctx<'_>, b: &Block, list: bool) -> Slot {
        let f = b.field(if list { "LIST" } else { "VARIABLE" });
        let name = f.map(|f| lit_text(&f.value)).unwrap_or_default();
        let id = f.and_then(|f| f.id.clone()).unwrap_or_default();
        self.resolve_var(cx.ti, &id, &name, list)
    }

    fn resolve_var(&mut self, ti: usize, id: &str, name: &str, list: bool) -> Slot {
        let local = ti != self.stage;
        let mk = |i: usize, is_local: bool| {
            if is_local {
                Slot::Local(i as u32)
            } else {
                Slot::Global(i as u32)
            }
        };
        if let Some(i) = self.find_in(ti, id, name, list, true) {
            return mk(i, local);
        }
        if local {
            if let Some(i) = self.find_in(self.stage, id, name, list, true) {
                return mk(i, false);
            }
        }
        if let Some(i) = self.find_in(ti, id, name, list, false) {
            return mk(i, local);
        }
        if local {
            if let Some(i) = self.find_in(self.stage, id, name, list, false) {
                return mk(i, false);
            }
        }
        // Not found: scratch-vm creates it on the running target.
        let t = &mut self.img.targets[ti];
        let i = if list {
            t.lists.push((String::from(name), Vec::new()));
            t.lists.len() - 1
        } else {
            t.vars.push((String::from(name), Lit::Num(0.0)));
            t.vars.len() - 1
        };
        self.ids[ti][usize::from(list)].push(String::from(id));
        mk(i, local)
    }

    /// Search a target's variables (or lists) by id, or by name.
    fn find_in(&self, ti: usize, id: &str, name: &str, list: bool, by_id: bool) -> Option<usize> {
        if by_id {
            if id.is_empty() {
                return None;
            }
            return self.ids[ti][usize::from(list)].iter().position(|x| x == id);
        }
        let t = &self.img.targets[ti];
        if list {
            t.lists.iter().position(|l| l.0 == name)
        } else {
            t.vars.iter().position(|v| v.0 == name)
        }
    }

    /// The expression for input `name` of block `b`.
    fn input_expr(
        &mut self,
        cx: &mut Ctx<'_>,
        b: &Block,
        name: &str,
        proc: Option<u32>,
        depth: usize,
    ) -> Result<ExprId, CompileError> {
        let Some(input) = b.input(name) else {
            return self.konst(Lit::Undefined);
        };
        self.input_value(cx, input, proc, depth)
    }

    fn input_value(
        &mut self,
        cx: &mut Ctx<'_>,
        input: &Input,
        proc: Option<u32>,
        depth: usize,
    ) -> Result<ExprId, CompileError> {
        match &input.value {
            None => self.konst(Lit::Undefined),
            Some(InputValue::Primitive(p)) => self.primitive(cx, p),
            Some(InputValue::Block(bi)) => {
                let t = cx.t;
                match t.blocks.get(*bi) {
                    Some(rb) => self.reporter(cx, rb, proc, depth + 1),
                    None => self.konst(Lit::Undefined),
                }
            }
        }
    }

    fn primitive(&mut self, cx: &Ctx<'_>, p: &Primitive) -> Result<ExprId, CompileError> {
        match p {
            Primitive::Literal { value, .. } => self.konst(lit_of(value)),
            Primitive::Reference { kind, name, id } => match kind {
                PrimitiveKind::Variable => {
                    let s = self.resolve_var(cx.ti, id, name, false);
                    self.push_expr(Expr::Var(s))
                }
                PrimitiveKind::List => {
                    let s = self.resolve_var(cx.ti, id, name, true);
                    self.push_expr(Expr::Op(Rop::ListContents(s), 0, 0))
                }
                _ => {
                    let n = self.broadcast_name(id, name);
                    self.konst(Lit::Str(n))
                }
            },
        }
    }

    /// The stage's name for a broadcast menu reference: found by id when the menu has one
    /// (scratch-vm's `lookupBroadcastMsg`; an unknown id finds nothing, compiled as `""`,
    /// which matches no message), else the menu's own name (looked up by name at run time).
    fn broadcast_name(&mut self, id: &str, name: &str) -> String {
        if id.is_empty() {
            return String::from(name);
        }
        let stage = &self.ids[self.stage][2];
        match stage.iter().position(|x| x == id) {
            Some(i) => self.img.broadcasts.get(i).cloned().unwrap_or_default(),
            None => String::new(),
        }
    }

    /// Compile a reporter block.
    fn reporter(
        &mut self,
        cx: &mut Ctx<'_>,
        b: &Block,
        proc: Option<u32>,
        depth: usize,
    ) -> Result<ExprId, CompileError> {
        if depth > MAX_EXPR_DEPTH {
            return Err(CompileError::TooDeep { target: cx.t.name.clone(), block: b.id.clone() });
        }
        let kind = classify(&b.opcode);
        match kind {
            Kind::Reporter(op, inputs) => {
                let op = match op {
                    Rop::ListContents(_) => Rop::ListContents(self.var_slot(cx, b, true)),
                    Rop::ItemOfList(_) => Rop::ItemOfList(self.var_slot(cx, b, true)),
                    Rop::ItemNumOfList(_) => Rop::ItemNumOfList(self.var_slot(cx, b, true)),
                    Rop::LengthOfList(_) => Rop::LengthOfList(self.var_slot(cx, b, true)),
                    Rop::ListContains(_) => Rop::ListContains(self.var_slot(cx, b, true)),
                    Rop::MathOp(_) => {
                        Rop::MathOp(table::math_fn(&case::to_lower(&field_text(b, "OPERATOR"))))
                    }
                    Rop::CostumeNumberName(_) => {
                        Rop::CostumeNumberName(field_text(b, "NUMBER_NAME") == "number")
                    }
                    Rop::BackdropNumberName(_) => {
                        Rop::BackdropNumberName(field_text(b, "NUMBER_NAME") == "number")
                    }
                    Rop::Current(_) => Rop::Current(case::to_lower(&field_text(b, "CURRENTMENU"))),
                    Rop::Of(_) => Rop::Of(field_text(b, "PROPERTY")),
                    other => other,
                };
                match (&op, b.opcode.as_str()) {
                    (_, "data_variable") => {
                        let s = self.var_slot(cx, b, false);
                        return self.push_expr(Expr::Var(s));
                    }
                    (_, "argument_reporter_string_number" | "argument_reporter_boolean") => {
                        let pname = field_text(b, "VALUE");
                        let found = proc.and_then(|p| {
                            self.img.procs[p as usize]
                                .param_names
                                .iter()
                                .rposition(|n| *n == pname)
                                .map(|i| (p, i as u32))
                        });
                        return match found {
                            Some((p, i)) => self.push_expr(Expr::Param(p, i)),
                            None => self.konst(Lit::Num(0.0)),
                        };
                    }
                    _ => {}
                }
                let mut ids = Vec::with_capacity(inputs.len());
                let mut names: Vec<String> = Vec::with_capacity(inputs.len());
                for name in inputs {
                    ids.push(self.input_expr(cx, b, name, proc, depth)?);
                    names.push(String::from(*name));
                }
                let h = self.hoist(cx, b, &names, &mut ids, proc, depth)?;
                let (start, n) = self.push_args(&ids)?;
                let body = self.push_expr(Expr::Op(op, start, n))?;
                match h {
                    Some(h) => self.push_expr(Expr::Hoisted(h, body)),
                    None => Ok(body),
                }
            }
            _ => {
                // No implementation. A block with exactly one field and no inputs reports
                // that field's value (scratch-vm's shadow rule); otherwise its inputs run and
                // it reports undefined.
                let non_branch: Vec<&Input> = b
                    .inputs
                    .iter()
                    .filter(|i| !i.name.starts_with("SUBSTACK") && i.name != "custom_block")
                    .collect();
                if b.fields.len() == 1 && non_branch.is_empty() {
                    if let Some(f) = b.fields.first() {
                        if b.opcode == "event_broadcast_menu" {
                            let id = f.id.clone().unwrap_or_default();
                            let n = self.broadcast_name(&id, &lit_text(&f.value));
                            return self.konst(Lit::Str(n));
                        }
                        return self.konst(lit_of(&f.value));
                    }
                }
                if !b.shadow || !b.fields.is_empty() || !non_branch.is_empty() {
                    self.warnings.insert(format!("unimplemented block: {}", b.opcode));
                }
                let mut ids = Vec::with_capacity(non_branch.len());
                let mut names: Vec<String> = Vec::with_capacity(non_branch.len());
                for input in non_branch {
                    ids.push(self.input_value(cx, input, proc, depth)?);
                    names.push(input.name.clone());
                }
                let h = self.hoist(cx, b, &names, &mut ids, proc, depth)?;
                let (start, n) = self.push_args(&ids)?;
                let body = self.push_expr(Expr::Op(Rop::Unimplemented, start, n))?;
                match h {
                    Some(h) => self.push_expr(Expr::Hoisted(h, body)),
                    None => Ok(body),
                }
            }
        }
    }
}

fn field_text(b: &Block, name: &str) -> String {
    b.field(name).map(|f| lit_text(&f.value)).unwrap_or_default()
}

fn field_upper(b: &Block, name: &str) -> String {
    case::to_upper(&field_text(b, name))
}
