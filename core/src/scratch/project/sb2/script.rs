//! Scratch 2 scripts → blocks, as scratch-vm's `parseScripts` / `parseBlockList` /
//! `parseBlock` build them: positional arguments become inputs (with shadow blocks) and
//! fields by the [`super::specmap`] table; custom block definitions get a prototype and calls
//! get arguments from their proc code; block comments attach by flattened block index.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::jsval::{self, at, is_object, is_str, to_string};
use super::specmap::{self, Arg, InputName};
use super::{CommentBlock, Loader, Parent, VmBlock, VmComment, VmField};
use crate::scratch::project::error::{LoadError, Path};
use crate::scratch::project::json::Json;
use crate::scratch::value::number::js_trim;

/// Scratch 3's workspace is larger: script positions are scaled by these.
pub(super) const WORKSPACE_X_SCALE: f64 = 1.5;
pub(super) const WORKSPACE_Y_SCALE: f64 = 2.2;

/// The target whose scripts are being read.
pub(super) struct TargetCx<'c> {
    pub(super) id: &'c str,
    pub(super) top_level: bool,
    /// The target's comments (`None` while reading a monitor's block).
    pub(super) comments: Option<&'c mut Vec<VmComment>>,
    /// Whether blocks may name broadcasts (monitors may not: scratch-vm passes no updater).
    pub(super) broadcasts: bool,
}

/// A block as the file writes it: an array (or a string, or an object with index keys, which
/// JavaScript indexes the same way), or a monitor's `[cmd, param]`.
#[derive(Clone, Copy)]
pub(super) enum Src<'a> {
    Json(&'a Json),
    Monitor { cmd: &'a Json, param: Option<&'a Json> },
}

impl<'a> Src<'a> {
    fn at(&self, i: usize, path: &Path) -> Result<Option<Cow<'a, Json>>, LoadError> {
        match *self {
            Src::Json(v) => at(v, i).map_err(|()| {
                path.invalid("indexes half of a surrogate pair, which a string cannot hold")
            }),
            Src::Monitor { cmd, param } => Ok(match i {
                0 => Some(Cow::Borrowed(cmd)),
                1 => param.map(Cow::Borrowed),
                _ => None,
            }),
        }
    }
}

impl Loader<'_> {
    /// `parseScripts`: every `[x, y, blocks]` script of a target, its blocks created in
    /// flattened order.
    pub(super) fn scripts(
        &mut self,
        cx: &mut TargetCx<'_>,
        scripts: &Json,
        path: &Path,
        out: &mut Vec<usize>,
    ) -> Result<(), LoadError> {
        let Json::Array(scripts) = scripts else {
            return Err(path.type_err("an array", scripts));
        };
        let mut comment_index = 0.0;
        for (i, script) in scripts.iter().enumerate() {
            let p = path.index(i);
            let (x, y, list) = match script {
                Json::Array(parts) if parts.len() >= 3 => (&parts[0], &parts[1], &parts[2]),
                _ => return Err(p.invalid("a script is [x, y, [blocks...]]")),
            };
            let (Json::Number(x), Json::Number(y)) = (x, y) else {
                return Err(p.invalid("a script's x and y must be numbers"));
            };
            let Json::Array(list) = list else {
                return Err(p.index(2).type_err("an array of blocks", list));
            };
            let stack = self.block_list(cx, list, &p.index(2), &mut comment_index, None)?;
            if let Some(&first) = stack.first() {
                let b = &mut self.blocks[first];
                b.xy = Some((x.as_f64() * WORKSPACE_X_SCALE, y.as_f64() * WORKSPACE_Y_SCALE));
                b.top_level = true;
                b.parent = Parent::Null;
            }
            self.flatten(&stack, out);
        }
        Ok(())
    }

    /// Blocks followed by the blocks made along with them, depth first (`flatten`).
    fn flatten(&self, list: &[usize], out: &mut Vec<usize>) {
        for &b in list {
            out.push(b);
            self.flatten(&self.blocks[b].children, out);
        }
    }

    /// `parseBlockList`: a stack; unknown blocks are left out and the rest chained.
    fn block_list(
        &mut self,
        cx: &mut TargetCx<'_>,
        list: &[Json],
        path: &Path,
        comment_index: &mut f64,
        expected: Option<&'static str>,
    ) -> Result<Vec<usize>, LoadError> {
        let mut out: Vec<usize> = Vec::new();
        for (i, item) in list.iter().enumerate() {
            let Some(b) =
                self.block(cx, Src::Json(item), &path.index(i), comment_index, expected)?
            else {
                continue;
            };
            if let Some(&prev) = out.last() {
                self.blocks[b].parent = Parent::Block(prev);
                self.blocks[prev].next = Some(b);
            }
            out.push(b);
        }
        Ok(out)
    }

    /// `parseBlock`: one block and the blocks in its inputs. `None` for a block scratch-vm
    /// does not know (it is left out, its comments become workspace comments).
    pub(super) fn block(
        &mut self,
        cx: &mut TargetCx<'_>,
        src: Src<'_>,
        path: &Path,
        comment_index: &mut f64,
        expected: Option<&'static str>,
    ) -> Result<Option<usize>, LoadError> {
        if let Src::Json(Json::Null) = src {
            return Err(path.invalid("a block cannot be null (scratch-vm fails on it)"));
        }
        let attached: Vec<usize> = match cx.comments.as_deref() {
            Some(comments) => comments
                .iter()
                .enumerate()
                .filter(|(_, c)| c.block == CommentBlock::Index(*comment_index))
                .map(|(i, _)| i)
                .collect(),
            None => Vec::new(),
        };
        let selector = src.at(0, path)?;
        let raw = match selector.as_deref() {
            Some(Json::String(s)) => Some(s.as_str()),
            _ => None,
        };
        let spec = if jsval::truthy(selector.as_deref()) {
            let key = to_string(selector.as_deref());
            if specmap::is_object_builtin(&key) {
                return Err(path.index(0).invalid(
                    "a block selector names a JavaScript built-in; scratch-vm fails on it",
                ));
            }
            let video = is_str(src.at(1, path)?.as_deref(), "video motion");
            specmap::lookup(&key, video)
        } else {
            None
        };
        let Some(spec) = spec else {
            // Unknown: left out, its comments sent to the workspace origin.
            if let Some(comments) = cx.comments.as_deref_mut() {
                for &c in &attached {
                    let c = &mut comments[c];
                    c.block = CommentBlock::None;
                    c.x = Json::Number(0.into());
                    c.y = Json::Number(0.into());
                }
            }
            *comment_index += 1.0;
            return Ok(None);
        };
        self.note_extension(spec.opcode);
        self.uid_calls += 1;
        let id = self.new_id('b');
        let this = self.add_block(VmBlock::new(id, spec.opcode));
        if let (Some(&last), Some(comments)) = (attached.last(), cx.comments.as_deref_mut()) {
            self.blocks[this].comment = Some(last);
            for &c in &attached {
                let c2 = &mut comments[c];
                if c == last {
                    c2.block = CommentBlock::Block(this);
                } else {
                    c2.block = CommentBlock::None;
                    c2.x = Json::Number(0.into());
                    c2.y = Json::Number(0.into());
                }
            }
        }
        *comment_index += 1.0;
        let proc_args;
        let args: &[Arg] = if raw == Some("call") {
            let code = src.at(1, path)?;
            let Some(Json::String(code)) = code.as_deref() else {
                return Err(path.index(1).invalid("a procedure call's proc code must be a string"));
            };
            // The first argument is the proc code itself.
            proc_args = core::iter::once(Arg::Skip).chain(procedure_args(code)).collect::<Vec<_>>();
            &proc_args
        } else {
            spec.args
        };
        for (i, &arg) in args.iter().enumerate() {
            let provided = src.at(i + 1, path)?;
            let p = path.index(i + 1);
            match arg {
                Arg::Input(op, name) => {
                    self.input(cx, this, op, name, provided.as_deref(), &p, comment_index)?
                }
                Arg::Field(name) => self.field(cx, this, name, provided.as_deref(), &p)?,
                Arg::Skip => {}
            }
        }
        self.special_cases(src, raw, this, path, expected)?;
        Ok(Some(this))
    }

    /// One input argument: the blocks that fill it, then its shadow.
    #[allow(clippy::too_many_arguments)]
    fn input(
        &mut self,
        cx: &mut TargetCx<'_>,
        this: usize,
        op: Option<&'static str>,
        name: InputName,
        provided: Option<&Json>,
        path: &Path,
        comment_index: &mut f64,
    ) -> Result<(), LoadError> {
        self.uid_calls += 1;
        let name = name.text();
        let slot = self.blocks[this].set_input(&name);
        let mut obscured = false;
        if let Some(v) = provided.filter(|v| is_object(Some(v))) {
            let first = at(v, 0).map_err(|()| path.invalid("not a block"))?;
            let inner = if is_object(first.as_deref()) {
                match v {
                    Json::Array(list) => self.block_list(cx, list, path, comment_index, op)?,
                    // An object has no `length`: an empty list.
                    _ => Vec::new(),
                }
            } else {
                self.block(cx, Src::Json(v), path, comment_index, op)?.into_iter().collect()
            };
            if let Some(&first) = inner.first() {
                self.blocks[first].parent = Parent::Block(this);
                self.blocks[this].inputs[slot].block = Some(first);
                self.blocks[this].children.extend(inner);
            }
            obscured = true;
        }
        let Some(op) = op else { return Ok(()) };
        if op == "boolean" || op == "substack" {
            return Ok(());
        }
        let mut value = provided.cloned();
        let mut field_name: &str = &name;
        let text = |s: &str| Some(Json::String(String::from(s)));
        match op {
            "math_number"
            | "math_whole_number"
            | "math_positive_number"
            | "math_integer"
            | "math_angle" => {
                field_name = "NUM";
                if obscured {
                    value = Some(Json::Number(10.into()));
                }
            }
            "text" => {
                field_name = "TEXT";
                if obscured {
                    value = text("");
                }
            }
            "colour_picker" => {
                value = Some(Json::String(jsval::decimal_to_hex(provided)));
                field_name = "COLOUR";
                if obscured {
                    value = text("#990000");
                }
            }
            "event_broadcast_menu" => {
                field_name = "BROADCAST_OPTION";
                if obscured {
                    value = text("");
                }
            }
            "sensing_of_object_menu" => {
                if obscured || is_str(provided, "Stage") {
                    value = text("_stage_");
                }
            }
            "note" => {
                if obscured {
                    value = Some(Json::Number(60.into()));
                }
            }
            _ => {
                if obscured {
                    value = text("");
                }
            }
        }
        let mut field = VmField { name: String::from(field_name), value, id: None };
        let broadcast = op == "event_broadcast_menu";
        if broadcast {
            if !cx.broadcasts {
                return Err(path.invalid("a monitor cannot watch a block with a broadcast"));
            }
            field.id = Some(self.message_id(field.value.as_ref(), path)?);
        }
        // The shadow's id is the `uid()` drawn for the input above.
        let shadow_id = self.new_id('b');
        let mut shadow = VmBlock::new(shadow_id, op);
        shadow.shadow = true;
        shadow.parent = Parent::Block(this);
        shadow.set_field(field);
        let s = self.add_block(shadow);
        if broadcast {
            self.broadcast_fields.push((s, 0));
        }
        let b = &mut self.blocks[this];
        b.children.push(s);
        b.inputs[slot].shadow = Some(s);
        if b.inputs[slot].block.is_none() {
            b.inputs[slot].block = Some(s);
        }
        Ok(())
    }

    /// One field argument.
    fn field(
        &mut self,
        cx: &mut TargetCx<'_>,
        this: usize,
        name: &'static str,
        provided: Option<&Json>,
        path: &Path,
    ) -> Result<(), LoadError> {
        let mut field = VmField { name: String::from(name), value: provided.cloned(), id: None };
        match name {
            "CURRENTMENU" => {
                let Some(Json::String(s)) = provided else {
                    return Err(path.invalid("a time-and-date menu value must be a string"));
                };
                let upper = if s == "day of week" {
                    String::from("DAYOFWEEK")
                } else {
                    crate::scratch::value::case::to_upper(s)
                };
                field.value = Some(Json::String(upper));
            }
            "VARIABLE" => field.id = Some(self.var_id(cx.id, cx.top_level, provided, false)),
            "LIST" => field.id = Some(self.var_id(cx.id, cx.top_level, provided, true)),
            "BROADCAST_OPTION" => {
                if !cx.broadcasts {
                    return Err(path.invalid("a monitor cannot watch a block with a broadcast"));
                }
                field.id = Some(self.message_id(provided, path)?);
            }
            _ => {}
        }
        let broadcast = name == "BROADCAST_OPTION";
        let index = self.blocks[this].set_field(field);
        if broadcast {
            self.broadcast_fields.push((this, index));
        }
        Ok(())
    }

    /// Menus Scratch 3 added, stop's mutation, custom block definitions and calls, and the
    /// shape of argument reporters.
    fn special_cases(
        &mut self,
        src: Src<'_>,
        raw: Option<&str>,
        this: usize,
        path: &Path,
        expected: Option<&'static str>,
    ) -> Result<(), LoadError> {
        let text = |s: &str| Some(Json::String(String::from(s)));
        let menu = match raw {
            Some("comeToFront") => Some(("FRONT_BACK", "front")),
            Some("goBackByLayers:") => Some(("FORWARD_BACKWARD", "backward")),
            Some("backgroundIndex" | "costumeIndex") => Some(("NUMBER_NAME", "number")),
            Some("sceneName" | "costumeName") => Some(("NUMBER_NAME", "name")),
            _ => None,
        };
        if let Some((name, value)) = menu {
            let field = VmField { name: String::from(name), value: text(value), id: None };
            self.blocks[this].set_field(field);
        }
        let pair = |k: &str, v: Json| (String::from(k), v);
        let s = |v: &str| Json::String(String::from(v));
        match raw {
            Some("stopScripts") => {
                let option = src.at(1, path)?;
                let o = option.as_deref();
                if is_str(o, "other scripts in sprite") || is_str(o, "other scripts in stage") {
                    self.blocks[this].mutation = Some(Json::Object(alloc::vec![
                        pair("tagName", s("mutation")),
                        pair("hasnext", s("true")),
                        pair("children", Json::Array(Vec::new())),
                    ]));
                }
            }
            Some("procDef") => {
                let Src::Json(Json::Array(_)) = src else {
                    return Err(path.invalid("a procedure definition must be an array"));
                };
                let code = src.at(1, path)?;
                let Some(Json::String(code)) = code.as_deref() else {
                    return Err(path.index(1).invalid("a proc code must be a string"));
                };
                let ids: Vec<Json> = procedure_args(code)
                    .iter()
                    .filter_map(|a| match a {
                        Arg::Input(_, name) => Some(s(&name.text())),
                        _ => None,
                    })
                    .collect();
                let mut m = alloc::vec![pair("tagName", s("mutation")), pair("proccode", s(code))];
                if let Some(names) = src.at(2, path)? {
                    m.push(pair("argumentnames", s(&jsval::stringify(&names))));
                }
                m.push(pair("argumentids", s(&jsval::stringify(&Json::Array(ids)))));
                if let Some(defaults) = src.at(3, path)? {
                    m.push(pair("argumentdefaults", s(&jsval::stringify(&defaults))));
                }
                match src.at(4, path)?.as_deref() {
                    None => {}
                    Some(w @ (Json::Bool(_) | Json::Null)) => m.push(pair("warp", w.clone())),
                    Some(w @ Json::String(t)) if t == "true" || t == "false" => {
                        m.push(pair("warp", w.clone()))
                    }
                    Some(_) => {
                        return Err(path.index(4).invalid("warp must be true or false"));
                    }
                }
                m.push(pair("children", Json::Array(Vec::new())));
                self.uid_calls += 1;
                let proto_id = self.new_id('b');
                let mut proto = VmBlock::new(proto_id, "procedures_prototype");
                proto.shadow = true;
                proto.parent = Parent::Undefined;
                proto.mutation = Some(Json::Object(m));
                let p = self.add_block(proto);
                let b = &mut self.blocks[this];
                let slot = b.set_input("custom_block");
                b.inputs[slot].block = Some(p);
                b.inputs[slot].shadow = Some(p);
                b.children = alloc::vec![p];
            }
            Some("call") => {
                let code = src.at(1, path)?;
                let code = match code.as_deref() {
                    Some(Json::String(c)) => c.clone(),
                    _ => String::new(),
                };
                let ids: Vec<Json> = procedure_args(&code)
                    .iter()
                    .filter_map(|a| match a {
                        Arg::Input(_, name) => Some(s(&name.text())),
                        _ => None,
                    })
                    .collect();
                self.blocks[this].mutation = Some(Json::Object(alloc::vec![
                    pair("tagName", s("mutation")),
                    pair("children", Json::Array(Vec::new())),
                    pair("proccode", s(&code)),
                    pair("argumentids", s(&jsval::stringify(&Json::Array(ids)))),
                ]));
            }
            Some("getParam") => {
                let code = src.at(2, path)?;
                let mut shape = match code.as_deref() {
                    Some(Json::String(c)) => Some(c.as_str()),
                    _ => None,
                };
                if expected == Some("boolean") && shape != Some("b") {
                    shape = Some("b");
                }
                match shape {
                    Some("r") => {
                        self.blocks[this].opcode = String::from("argument_reporter_string_number")
                    }
                    Some("b") => {
                        self.blocks[this].opcode = String::from("argument_reporter_boolean")
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// `parseProcedureArgMap`: the arguments of a proc code such as `"jump %n times %b"`, named
/// `input0`, `input1`... Parts are split before any character other than `\` that is followed
/// by `%n`, `%b` or `%s`; a part starting with `%` (after trimming) is an argument whose kind
/// is the next character.
pub(super) fn procedure_args(code: &str) -> Vec<Arg> {
    let chars: Vec<(usize, char)> = code.char_indices().collect();
    let mut starts = alloc::vec![0usize];
    for k in 1..chars.len() {
        let c = chars[k].1;
        let pct = chars.get(k + 1).map(|p| p.1) == Some('%');
        let kind = matches!(chars.get(k + 2).map(|p| p.1), Some('n' | 'b' | 's'));
        if c != '\\' && pct && kind {
            starts.push(chars[k].0);
        }
    }
    starts.push(code.len());
    let mut out = Vec::new();
    for w in starts.windows(2) {
        let part = js_trim(&code[w[0]..w[1]]);
        let Some(rest) = part.strip_prefix('%') else { continue };
        let op = match rest.chars().next() {
            Some('n') => Some("math_number"),
            Some('s') => Some("text"),
            Some('b') => Some("boolean"),
            _ => None,
        };
        out.push(Arg::Input(op, InputName::Numbered(out.len())));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(code: &str) -> Vec<Option<&'static str>> {
        procedure_args(code)
            .into_iter()
            .map(|a| match a {
                Arg::Input(op, _) => op,
                _ => unreachable!(),
            })
            .collect()
    }

    #[test]
    fn proc_codes() {
        assert_eq!(kinds("jump %n times %b"), [Some("math_number"), Some("boolean")]);
        assert_eq!(kinds("say %s"), [Some("text")]);
        assert_eq!(kinds("%n first"), [Some("math_number")]);
        // No character before `%` splits, so the part does not start with `%`.
        assert_eq!(kinds("abc%n"), Vec::<Option<&str>>::new());
        assert_eq!(kinds("a \\%n"), Vec::<Option<&str>>::new());
        assert_eq!(kinds("%x then %n"), [None, Some("math_number")]);
        assert_eq!(kinds("plain"), Vec::<Option<&str>>::new());
    }
}
