//! A target's scripts in scratchblocks 3 syntax (the text form of the scratchblocks library,
//! scratch-www's forum renderer and tools such as LitterBox): one line per stack block,
//! `end` closing C-blocks, `(...)` reporters and number slots, `<...>` Boolean slots,
//! `[...]` text, `[value v]` fields, `(value v)` menus, `(name :: variables)` variable
//! reporters, `define ...` and `... :: custom` for custom blocks, a blank line between scripts.
//!
//! Every block of the target is written, in the order scripts run; blocks scratchblocks does
//! not know are written as their opcode with their inputs and a `:: extension` override.

use alloc::string::String;
use alloc::vec::Vec;

use super::catalog::{self, Output, Shape};
use super::menus;
use super::view::{Node, TargetBlocks};
use super::Ctx;

/// The English scratchblocks spec of an opcode, with `{NAME}` for its inputs and fields.
fn template(opcode: &str) -> Option<&'static str> {
    Some(match opcode {
        "control_start_as_clone" => "when I start as a clone",
        "control_repeat" => "repeat {TIMES}",
        "control_repeat_until" => "repeat until {CONDITION}",
        "control_forever" => "forever",
        "control_wait" => "wait {DURATION} seconds",
        "control_wait_until" => "wait until {CONDITION}",
        "control_if" | "control_if_else" => "if {CONDITION} then",
        "control_stop" => "stop {STOP_OPTION}",
        "control_create_clone_of" => "create clone of {CLONE_OPTION}",
        "control_delete_this_clone" => "delete this clone",
        "data_setvariableto" => "set {VARIABLE} to {VALUE}",
        "data_changevariableby" => "change {VARIABLE} by {VALUE}",
        "data_showvariable" => "show variable {VARIABLE}",
        "data_hidevariable" => "hide variable {VARIABLE}",
        "data_addtolist" => "add {ITEM} to {LIST}",
        "data_deleteoflist" => "delete {INDEX} of {LIST}",
        "data_deletealloflist" => "delete all of {LIST}",
        "data_insertatlist" => "insert {ITEM} at {INDEX} of {LIST}",
        "data_replaceitemoflist" => "replace item {INDEX} of {LIST} with {ITEM}",
        "data_itemoflist" => "item {INDEX} of {LIST}",
        "data_itemnumoflist" => "item # of {ITEM} in {LIST}",
        "data_lengthoflist" => "length of {LIST}",
        "data_listcontainsitem" => "{LIST} contains {ITEM}?",
        "data_showlist" => "show list {LIST}",
        "data_hidelist" => "hide list {LIST}",
        "event_whenflagclicked" => "when flag clicked",
        "event_whenkeypressed" => "when {KEY_OPTION} key pressed",
        "event_whenthisspriteclicked" => "when this sprite clicked",
        "event_whenstageclicked" => "when stage clicked",
        "event_whenbackdropswitchesto" => "when backdrop switches to {BACKDROP}",
        "event_whengreaterthan" => "when {WHENGREATERTHANMENU} > {VALUE}",
        "event_whenbroadcastreceived" => "when I receive {BROADCAST_OPTION}",
        "event_broadcast" => "broadcast {BROADCAST_INPUT}",
        "event_broadcastandwait" => "broadcast {BROADCAST_INPUT} and wait",
        "looks_say" => "say {MESSAGE}",
        "looks_sayforsecs" => "say {MESSAGE} for {SECS} seconds",
        "looks_think" => "think {MESSAGE}",
        "looks_thinkforsecs" => "think {MESSAGE} for {SECS} seconds",
        "looks_show" => "show",
        "looks_hide" => "hide",
        "looks_switchcostumeto" => "switch costume to {COSTUME}",
        "looks_nextcostume" => "next costume",
        "looks_switchbackdropto" => "switch backdrop to {BACKDROP}",
        "looks_switchbackdroptoandwait" => "switch backdrop to {BACKDROP} and wait",
        "looks_nextbackdrop" => "next backdrop",
        "looks_changeeffectby" => "change {EFFECT} effect by {CHANGE}",
        "looks_seteffectto" => "set {EFFECT} effect to {VALUE}",
        "looks_cleargraphiceffects" => "clear graphic effects",
        "looks_changesizeby" => "change size by {CHANGE}",
        "looks_setsizeto" => "set size to {SIZE} %",
        "looks_gotofrontback" => "go to {FRONT_BACK} layer",
        "looks_goforwardbackwardlayers" => "go {FORWARD_BACKWARD} {NUM} layers",
        "looks_size" => "size",
        "looks_costumenumbername" => "costume {NUMBER_NAME}",
        "looks_backdropnumbername" => "backdrop {NUMBER_NAME}",
        "motion_movesteps" => "move {STEPS} steps",
        "motion_gotoxy" => "go to x: {X} y: {Y}",
        "motion_goto" => "go to {TO}",
        "motion_turnright" => "turn cw {DEGREES} degrees",
        "motion_turnleft" => "turn ccw {DEGREES} degrees",
        "motion_pointindirection" => "point in direction {DIRECTION}",
        "motion_pointtowards" => "point towards {TOWARDS}",
        "motion_glidesecstoxy" => "glide {SECS} secs to x: {X} y: {Y}",
        "motion_glideto" => "glide {SECS} secs to {TO}",
        "motion_ifonedgebounce" => "if on edge, bounce",
        "motion_setrotationstyle" => "set rotation style {STYLE}",
        "motion_changexby" => "change x by {DX}",
        "motion_setx" => "set x to {X}",
        "motion_changeyby" => "change y by {DY}",
        "motion_sety" => "set y to {Y}",
        "motion_xposition" => "x position",
        "motion_yposition" => "y position",
        "motion_direction" => "direction",
        "operator_add" => "{NUM1} + {NUM2}",
        "operator_subtract" => "{NUM1} - {NUM2}",
        "operator_multiply" => "{NUM1} * {NUM2}",
        "operator_divide" => "{NUM1} / {NUM2}",
        "operator_random" => "pick random {FROM} to {TO}",
        "operator_mod" => "{NUM1} mod {NUM2}",
        "operator_round" => "round {NUM}",
        "operator_mathop" => "{OPERATOR} of {NUM}",
        "operator_join" => "join {STRING1} {STRING2}",
        "operator_letter_of" => "letter {LETTER} of {STRING}",
        "operator_length" => "length of {STRING}",
        "operator_lt" => "{OPERAND1} < {OPERAND2}",
        "operator_equals" => "{OPERAND1} = {OPERAND2}",
        "operator_gt" => "{OPERAND1} > {OPERAND2}",
        "operator_and" => "{OPERAND1} and {OPERAND2}",
        "operator_or" => "{OPERAND1} or {OPERAND2}",
        "operator_not" => "not {OPERAND}",
        "operator_contains" => "{STRING1} contains {STRING2}?",
        "sensing_resettimer" => "reset timer",
        "sensing_setdragmode" => "set drag mode {DRAG_MODE}",
        "sensing_askandwait" => "ask {QUESTION} and wait",
        "sensing_timer" => "timer",
        "sensing_mousex" => "mouse x",
        "sensing_mousey" => "mouse y",
        "sensing_dayssince2000" => "days since 2000",
        "sensing_current" => "current {CURRENTMENU}",
        "sensing_mousedown" => "mouse down?",
        "sensing_keypressed" => "key {KEY_OPTION} pressed?",
        "sensing_touchingobject" => "touching {TOUCHINGOBJECTMENU}?",
        "sensing_touchingcolor" => "touching color {COLOR}?",
        "sensing_coloristouchingcolor" => "color {COLOR} is touching {COLOR2}?",
        "sensing_distanceto" => "distance to {DISTANCETOMENU}",
        "sensing_of" => "{PROPERTY} of {OBJECT}",
        "sensing_loudness" => "loudness",
        "sensing_answer" => "answer",
        "sensing_username" => "username",
        "sound_play" => "start sound {SOUND_MENU}",
        "sound_playuntildone" => "play sound {SOUND_MENU} until done",
        "sound_stopallsounds" => "stop all sounds",
        "sound_seteffectto" => "set {EFFECT} effect to {VALUE}",
        "sound_changeeffectby" => "change {EFFECT} effect by {VALUE}",
        "sound_cleareffects" => "clear sound effects",
        "sound_setvolumeto" => "set volume to {VOLUME} %",
        "sound_changevolumeby" => "change volume by {VOLUME}",
        "sound_volume" => "volume",
        "pen_clear" => "erase all",
        "pen_stamp" => "stamp",
        "pen_penDown" => "pen down",
        "pen_penUp" => "pen up",
        "pen_setPenColorToColor" => "set pen color to {COLOR}",
        "pen_changePenColorParamBy" => "change pen {COLOR_PARAM} by {VALUE}",
        "pen_setPenColorParamTo" => "set pen {COLOR_PARAM} to {VALUE}",
        "pen_changePenSizeBy" => "change pen size by {SIZE}",
        "pen_setPenSizeTo" => "set pen size to {SIZE}",
        "pen_setPenShadeToNumber" => "set pen shade to {SHADE}",
        "pen_changePenShadeBy" => "change pen shade by {SHADE}",
        "pen_setPenHueToNumber" => "set pen color to {HUE}",
        "pen_changePenHueBy" => "change pen color by {HUE}",
        "music_restForBeats" => "rest for {BEATS} beats",
        "music_setTempo" => "set tempo to {TEMPO}",
        "music_changeTempo" => "change tempo by {TEMPO}",
        "music_getTempo" => "tempo",
        _ => return None,
    })
}

/// Characters scratchblocks reads as syntax inside labels and menus.
fn escape_label(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '[' | ']' | '(' | ')' | '<' | '>' | '\\' | '@' | ':' | '{' | '}' | '◂' | '▸' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Text between `[` and `]`: `]` and `\` escaped, no line breaks, a trailing ` v` and a
/// colour-like text kept as text.
fn escape_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    if is_hex_colour(s) {
        out.push('\\');
    }
    let n = s.chars().count();
    for (i, c) in s.chars().enumerate() {
        match c {
            '\n' | '\r' => out.push(' '),
            ']' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            'v' if i + 1 == n && s.ends_with(" v") => out.push_str("\\v"),
            c => out.push(c),
        }
    }
    out
}

fn is_hex_colour(s: &str) -> bool {
    let Some(hex) = s.strip_prefix('#') else { return false };
    matches!(hex.len(), 3 | 6 | 8) && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

struct Writer<'c, 'p> {
    ctx: &'c Ctx<'p>,
    tb: TargetBlocks<'p>,
    out: String,
}

/// The editing target's scripts in scratchblocks syntax.
pub fn render(ctx: &Ctx<'_>) -> String {
    let mut w = Writer { ctx, tb: ctx.tb(), out: String::new() };
    let mut first = true;
    for top in w.tb.scripts() {
        if !first {
            w.out.push('\n');
        }
        first = false;
        let node = Node::Block(top);
        if w.is_reporter(node) {
            let r = w.reporter(node);
            w.out.push_str(&r);
            w.out.push('\n');
        } else {
            w.stack(Some(node), 0);
        }
    }
    w.out
}

impl Writer<'_, '_> {
    fn shape(&self, n: Node) -> Option<Shape> {
        let opcode = self.tb.opcode(n);
        catalog::spec(opcode).map(|s| s.shape).or_else(|| catalog::extra_shape(opcode))
    }

    fn is_reporter(&self, n: Node) -> bool {
        matches!(self.shape(n), Some(Shape::Reporter(_)))
    }

    fn is_boolean(&self, n: Node) -> bool {
        matches!(self.shape(n), Some(Shape::Reporter(Output::Boolean)))
    }

    fn line(&mut self, depth: usize, text: &str) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn stack(&mut self, mut cur: Option<Node>, depth: usize) {
        while let Some(n) = cur {
            let Node::Block(b) = n else { break };
            let opcode = self.tb.opcode(n);
            let text = self.label(n);
            self.line(depth, &text);
            let c_slots: &[&str] = match opcode {
                "control_if_else" => &["SUBSTACK", "SUBSTACK2"],
                "control_repeat"
                | "control_repeat_until"
                | "control_forever"
                | "control_if"
                | "control_for_each"
                | "control_while" => &["SUBSTACK"],
                _ => &[],
            };
            for (k, slot) in c_slots.iter().enumerate() {
                if k > 0 {
                    self.line(depth, "else");
                }
                self.stack(self.tb.branch(b, slot), depth + 1);
            }
            if !c_slots.is_empty() {
                self.line(depth, "end");
            }
            cur = self.tb.next(n);
        }
    }

    /// A reporter or Boolean block with its brackets.
    fn reporter(&self, n: Node) -> String {
        let opcode = self.tb.opcode(n);
        let fields = self.tb.fields(n);
        let field = |name: &str| {
            fields.iter().find(|f| f.name == name).map(|f| f.value.string()).unwrap_or_default()
        };
        match opcode {
            "data_variable" => {
                return alloc::format!("({} :: variables)", escape_label(&field("VARIABLE")))
            }
            "data_listcontents" => {
                return alloc::format!("({} :: list)", escape_label(&field("LIST")))
            }
            "argument_reporter_string_number" => {
                return alloc::format!("({} :: custom-arg)", escape_label(&field("VALUE")));
            }
            "argument_reporter_boolean" => {
                return alloc::format!("<{} :: custom-arg>", escape_label(&field("VALUE")))
            }
            _ => {}
        }
        let body = self.label(n);
        if self.is_boolean(n) {
            alloc::format!("<{body}>")
        } else {
            alloc::format!("({body})")
        }
    }

    /// A block's text without brackets.
    fn label(&self, n: Node) -> String {
        let opcode = self.tb.opcode(n);
        if opcode == "procedures_definition" {
            return self.definition(n);
        }
        if opcode == "procedures_call" {
            return self.call(n);
        }
        let Some(t) = template(opcode) else { return self.unknown(n) };
        let mut out = String::new();
        let mut rest = t;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let close = rest[open..].find('}').map_or(rest.len(), |c| open + c);
            out.push_str(&self.slot(n, &rest[open + 1..close]));
            rest = rest.get(close + 1..).unwrap_or("");
        }
        out.push_str(rest);
        out
    }

    /// The text of input or field `name` of `n`.
    fn slot(&self, n: Node, name: &str) -> String {
        if let Some(f) = self.tb.fields(n).into_iter().find(|f| f.name == name) {
            let value = f.value.string();
            return alloc::format!("[{} v]", escape_label(&self.display(n, name, &value)));
        }
        let boolean = catalog::spec(self.tb.opcode(n))
            .and_then(|s| s.input(name))
            .is_some_and(|i| i == catalog::InputSlot::Value { boolean: true });
        let Node::Block(b) = n else { return String::from("()") };
        let child =
            self.tb.blocks.get(b).and_then(|blk| blk.inputs.iter().position(|i| i.name == name));
        let child = child.and_then(|k| self.tb.input_child(b, k));
        match child {
            None if boolean => String::from("<>"),
            None => String::from("()"),
            Some(c) if self.tb.is_shadow(c) => self.shadow(c),
            Some(c) => self.reporter(c),
        }
    }

    /// The display text the editor shows for `value` in field `field` of `n`.
    fn display(&self, n: Node, field: &str, value: &str) -> String {
        menus::options(self.ctx, n, field)
            .and_then(|opts| {
                opts.into_iter().find(|(_, v)| v.as_deref() == Some(value)).map(|(d, _)| d)
            })
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| String::from(value))
    }

    fn shadow(&self, n: Node) -> String {
        let opcode = self.tb.opcode(n);
        let Some(f) = self.tb.fields(n).into_iter().next() else { return String::from("()") };
        let value = f.value.string();
        match opcode {
            "math_number"
            | "math_positive_number"
            | "math_whole_number"
            | "math_integer"
            | "math_angle" => {
                if value.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'e' | b'.' | b'-')) {
                    alloc::format!("({value})")
                } else {
                    alloc::format!("[{}]", escape_string(&value))
                }
            }
            "text" => alloc::format!("[{}]", escape_string(&value)),
            "colour_picker" if is_hex_colour(&value) => alloc::format!("[{value}]"),
            "colour_picker" => alloc::format!("[{}]", escape_string(&value)),
            _ => {
                let shown = self.display(n, f.name, &value);
                alloc::format!("({} v)", escape_label(&shown))
            }
        }
    }

    /// `define` with the prototype's arguments.
    fn definition(&self, n: Node) -> String {
        let Node::Block(b) = n else { return String::from("define") };
        let proto =
            self.tb.blocks.get(b).and_then(|blk| blk.input("custom_block")).and_then(|i| match &i
                .value
            {
                Some(crate::scratch::project::InputValue::Block(p)) => Some(*p),
                _ => None,
            });
        let Some(proto) = proto.and_then(|p| self.tb.blocks.get(p)) else {
            return String::from("define");
        };
        let m = proto.mutation.as_ref();
        let code = m.and_then(|m| m.proccode.as_deref()).unwrap_or("");
        let names: Vec<String> = m.and_then(|m| m.argument_names.clone()).unwrap_or_default();
        let mut names = names.into_iter();
        let text = proc_text(code, |kind| {
            let name = escape_label(&names.next().unwrap_or_default());
            if kind == 'b' {
                alloc::format!("<{name}>")
            } else {
                alloc::format!("({name})")
            }
        });
        alloc::format!("define {text}")
    }

    /// A custom block call, its arguments in signature order.
    fn call(&self, n: Node) -> String {
        let Node::Block(b) = n else { return String::new() };
        let Some(blk) = self.tb.blocks.get(b) else { return String::new() };
        let m = blk.mutation.as_ref();
        let code = m.and_then(|m| m.proccode.as_deref()).unwrap_or("");
        let ids: Vec<String> = m.and_then(|m| m.argument_ids.clone()).unwrap_or_default();
        let mut ids = ids.into_iter();
        let text = proc_text(code, |kind| {
            let id = ids.next().unwrap_or_default();
            let k = blk.inputs.iter().position(|i| i.name == id);
            match k.and_then(|k| self.tb.input_child(b, k)) {
                Some(c) if self.tb.is_shadow(c) => self.shadow(c),
                Some(c) => self.reporter(c),
                None if kind == 'b' => String::from("<>"),
                None => String::from("()"),
            }
        });
        alloc::format!("{text} :: custom")
    }

    /// A block scratchblocks does not know: its opcode, fields and inputs.
    fn unknown(&self, n: Node) -> String {
        let mut out = escape_label(self.tb.opcode(n));
        for f in self.tb.fields(n) {
            out.push(' ');
            out.push_str(&alloc::format!("[{} v]", escape_label(&f.value.string())));
        }
        if let Node::Block(b) = n {
            for (k, input) in self.tb.inputs(n) {
                if input.name.starts_with("SUBSTACK") {
                    continue;
                }
                out.push(' ');
                match self.tb.input_child(b, k) {
                    Some(c) if self.tb.is_shadow(c) => out.push_str(&self.shadow(c)),
                    Some(c) => out.push_str(&self.reporter(c)),
                    None => out.push_str("()"),
                }
            }
        }
        out.push_str(" :: extension");
        out
    }
}

/// A custom block signature with each `%s`/`%n`/`%b` replaced by `arg(kind)` and its label
/// text escaped.
fn proc_text(code: &str, mut arg: impl FnMut(char) -> String) -> String {
    let mut out = String::new();
    let mut label = String::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' {
            if let Some(&k) = chars.peek() {
                if matches!(k, 's' | 'n' | 'b') {
                    chars.next();
                    out.push_str(&escape_label(&label));
                    label.clear();
                    out.push_str(&arg(k));
                    continue;
                }
            }
        }
        label.push(c);
    }
    out.push_str(&escape_label(&label));
    out
}
