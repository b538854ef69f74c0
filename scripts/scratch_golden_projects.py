#!/usr/bin/env python3
"""Writes the project.json of every Scratch trace golden under core/tests/golden/scratch/.

The projects are small and hand-designed; this file is their source, written with a tiny
block-building vocabulary so that the JSON stays correct (ids, parents, shadows). Run by
scripts/regen-scratch-goldens.sh; the JSON it writes is checked in next to each trace.
No assets: every costume names a missing SVG, which the reference loads without storage.
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core", "tests", "golden", "scratch")

COSTUME = {"name": "c1", "bitmapResolution": 1, "dataFormat": "svg",
           "assetId": "00000000000000000000000000000000",
           "md5ext": "00000000000000000000000000000000.svg",
           "rotationCenterX": 0, "rotationCenterY": 0}


class B:
    """A block (statement or reporter) before it is placed in a target."""

    def __init__(self, opcode, inputs=None, fields=None, mutation=None, shadow=False):
        self.opcode, self.inputs, self.fields = opcode, inputs or {}, fields or {}
        self.mutation, self.shadow = mutation, shadow


class Var:
    """A variable reporter, written as a compressed [12, name, id] primitive."""

    def __init__(self, name):
        self.name = name


class ListRef:
    """A list reporter ([13, name, id])."""

    def __init__(self, name):
        self.name = name


class Menu:
    """A shadow menu block with one field."""

    def __init__(self, opcode, field, value):
        self.opcode, self.field, self.value = opcode, field, value


class Num:
    """A number literal written as a JSON number (`[4, 10]`) rather than a string."""

    def __init__(self, value):
        self.value = value


BOOLEAN_INPUTS = {"CONDITION", "OPERAND", "OPERAND1", "OPERAND2"}


class Target:
    def __init__(self, project, name, stage=False, **props):
        self.project, self.name, self.stage = project, name, stage
        self.variables, self.lists, self.blocks = {}, {}, {}
        self.props = props
        self.y = 0

    def _id(self, kind):
        self.project.counter += 1
        return "%s%s%d" % (self.name[:2], kind, self.project.counter)

    def var(self, name, value=0):
        self.variables[name] = ("v_%s_%s" % (self.name, name), value)

    def list(self, name, items=()):
        self.lists[name] = ("l_%s_%s" % (self.name, name), list(items))

    def _lookup(self, table, name):
        for t in (self, self.project.stage):
            if name in getattr(t, table):
                return getattr(t, table)[name][0]
        raise KeyError(name)

    def _input(self, name, value, parent):
        if isinstance(value, list):  # a substack
            return [2, self._stack(value, parent)] if value else [1, None]
        if isinstance(value, B):
            bid = self._place(value, parent, False)
            if name in BOOLEAN_INPUTS or value.shadow:
                return [2 if not value.shadow else 1, bid]
            return [3, bid, [10, ""]]
        if isinstance(value, Var):
            return [3, [12, value.name, self._lookup("variables", value.name)], [10, ""]]
        if isinstance(value, ListRef):
            return [3, [13, value.name, self._lookup("lists", value.name)], [10, ""]]
        if isinstance(value, Menu):
            sid = self._id("m")
            self.blocks[sid] = {"opcode": value.opcode, "next": None, "parent": parent, "inputs": {},
                                "fields": {value.field: [value.value, None]}, "shadow": True,
                                "topLevel": False}
            return [1, sid]
        if isinstance(value, Num):
            return [1, [4, value.value]]
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return [1, [4, repr(value) if isinstance(value, float) else str(value)]]
        return [1, [10, str(value)]]

    def _field(self, name, value):
        if name == "VARIABLE":
            return [value, self._lookup("variables", value)]
        if name == "LIST":
            return [value, self._lookup("lists", value)]
        if name == "BROADCAST_OPTION":
            return [value, self.project.broadcast_id(value)]
        return [value, None]

    def _place(self, block, parent, top):
        bid = self._id("b")
        entry = {"opcode": block.opcode, "next": None, "parent": parent, "inputs": {}, "fields": {},
                 "shadow": block.shadow, "topLevel": top}
        self.blocks[bid] = entry
        for name, value in block.inputs.items():
            if name == "BROADCAST_INPUT" and isinstance(value, str):
                entry["inputs"][name] = [1, [11, value, self.project.broadcast_id(value)]]
            else:
                entry["inputs"][name] = self._input(name, value, bid)
        for name, value in block.fields.items():
            entry["fields"][name] = self._field(name, value)
        if block.mutation is not None:
            entry["mutation"] = block.mutation
        return bid

    def _stack(self, blocks, parent, top=False):
        first = prev = None
        for i, block in enumerate(blocks):
            bid = self._place(block, prev if prev else parent, top and i == 0)
            if prev is None:
                first = bid
            else:
                self.blocks[prev]["next"] = bid
            prev = bid
        return first

    def script(self, *blocks):
        """A top-level script: a hat (or any block) followed by statements."""
        first = self._stack(list(blocks), None, True)
        self.blocks[first]["x"], self.blocks[first]["y"] = 0, self.y
        self.y += 100

    def define(self, proccode, argnames, body, warp=False):
        """A custom block definition; argument ids are derived from the names."""
        ids = ["a_%s" % n for n in argnames]
        self.project.procs[proccode] = (ids, warp)
        proto = B("procedures_prototype", shadow=True, mutation={
            "tagName": "mutation", "children": [], "proccode": proccode,
            "argumentids": json.dumps(ids), "argumentnames": json.dumps(argnames),
            "argumentdefaults": json.dumps(["" for _ in argnames]), "warp": json.dumps(warp)})
        for i, n in zip(ids, argnames):
            proto.inputs[i] = B("argument_reporter_string_number", fields={"VALUE": n}, shadow=True)
        self.script(B("procedures_definition", {"custom_block": proto}), *body)

    def json(self):
        t = {"isStage": self.stage, "name": self.name,
             "variables": {vid: [n, v] for n, (vid, v) in self.variables.items()},
             "lists": {lid: [n, items] for n, (lid, items) in self.lists.items()},
             "broadcasts": {}, "blocks": self.blocks, "comments": {}, "currentCostume": 0,
             "costumes": [COSTUME], "sounds": [], "volume": 100}
        if self.stage:
            t["broadcasts"] = {bid: n for n, bid in self.project.broadcasts.items()}
            t.update({"layerOrder": 0, "tempo": 60, "videoTransparency": 50, "videoState": "on",
                      "textToSpeechLanguage": None})
        else:
            t.update({"layerOrder": self.project.sprites.index(self) + 1, "visible": True,
                      "x": 0, "y": 0, "size": 100, "direction": 90, "draggable": False,
                      "rotationStyle": "all around"})
        t.update(self.props)
        return t


class Project:
    def __init__(self):
        self.counter = 0
        self.broadcasts, self.procs = {}, {}
        self.sprites = []
        self.monitors = []
        self.extensions = []
        self.stage = Target(self, "Stage", stage=True)

    def sprite(self, name, **props):
        s = Target(self, name, **props)
        self.sprites.append(s)
        return s

    def broadcast_id(self, name):
        return self.broadcasts.setdefault(name, "m_%s" % name.replace(" ", "_"))

    def json(self):
        return {"targets": [self.stage.json()] + [s.json() for s in self.sprites], "monitors": self.monitors,
                "extensions": self.extensions, "meta": {"semver": "3.0.0", "vm": "5.0.300", "agent": "gobo goldens"}}


def call(project, proccode, *args):
    ids, warp = project.procs[proccode]
    return B("procedures_call", dict(zip(ids, args)), mutation={
        "tagName": "mutation", "children": [], "proccode": proccode,
        "argumentids": json.dumps(ids), "warp": json.dumps(warp)})


def arg(name):
    return B("argument_reporter_string_number", fields={"VALUE": name})


def argb(name):
    return B("argument_reporter_boolean", fields={"VALUE": name})


# Short names for the blocks used below.
def flag(): return B("event_whenflagclicked")
def setv(v, x): return B("data_setvariableto", {"VALUE": x}, {"VARIABLE": v})
def chg(v, x): return B("data_changevariableby", {"VALUE": x}, {"VARIABLE": v})
def add(l, x): return B("data_addtolist", {"ITEM": x}, {"LIST": l})
def op(name, a, b, ka="NUM1", kb="NUM2"): return B("operator_" + name, {ka: a, kb: b})
def cmp(name, a, b): return B("operator_" + name, {"OPERAND1": a, "OPERAND2": b})
def mathop(f, x): return B("operator_mathop", {"NUM": x}, {"OPERATOR": f})
def wait(s): return B("control_wait", {"DURATION": s})
def repeat(n, body): return B("control_repeat", {"TIMES": n, "SUBSTACK": body})
def forever(body): return B("control_forever", {"SUBSTACK": body})
def if_(c, body): return B("control_if", {"CONDITION": c, "SUBSTACK": body})
def ifelse(c, a, b): return B("control_if_else", {"CONDITION": c, "SUBSTACK": a, "SUBSTACK2": b})
def until(c, body): return B("control_repeat_until", {"CONDITION": c, "SUBSTACK": body})
def wait_until(c): return B("control_wait_until", {"CONDITION": c})
def stop(what): return B("control_stop", fields={"STOP_OPTION": what}, mutation={
    "tagName": "mutation", "children": [], "hasnext": json.dumps(what == "other scripts in sprite")})
def say(x): return B("looks_say", {"MESSAGE": x})
def bcast(m): return B("event_broadcast", {"BROADCAST_INPUT": m})
def bcast_wait(m): return B("event_broadcastandwait", {"BROADCAST_INPUT": m})
def when_recv(m): return B("event_whenbroadcastreceived", fields={"BROADCAST_OPTION": m})
def join(a, b): return op("join", a, b, "STRING1", "STRING2")
def item(i, l): return B("data_itemoflist", {"INDEX": i}, {"LIST": l})


def operators():
    p = Project()
    s = p.stage
    s.list("out")
    s.var("x", "3.5")
    exprs = [
        op("add", "0x10", " 5 "), op("add", "0b101", "0o17"), op("add", "abc", 1), op("add", "", ""),
        op("add", "Infinity", 1), op("subtract", "-Infinity", "-Infinity"), op("add", "1e3", ".5"),
        op("add", 0.1, 0.2), op("multiply", 1e21, 10), op("divide", 1, 0), op("divide", -1, 0),
        op("divide", 0, 0), op("divide", 1, 3), op("mod", -7, 3), op("mod", 7, -3), op("mod", 5.5, 2),
        op("mod", 3, 0), op("subtract", 0, 0), B("operator_round", {"NUM": "2.5"}),
        B("operator_round", {"NUM": "-2.5"}), B("operator_round", {"NUM": "abc"}),
        cmp("equals", "ABC", "abc"), cmp("equals", "1", "1.0"), cmp("equals", " 1 ", 1),
        cmp("equals", "", 0), cmp("lt", "a", "B"), cmp("gt", 10, 9), cmp("gt", "10", "9"),
        cmp("lt", "apple", 5), cmp("equals", "true", B("operator_not", {"OPERAND": cmp("lt", 2, 1)})),
        B("operator_and", {"OPERAND1": cmp("gt", 2, 1), "OPERAND2": cmp("lt", 2, 1)}),
        B("operator_or", {"OPERAND1": cmp("gt", 2, 1), "OPERAND2": cmp("lt", 2, 1)}),
        B("operator_and", {}), B("operator_not", {}),
        join("a", 1), join(0.1, op("add", 0.1, 0.2)), join("", ""),
        B("operator_letter_of", {"LETTER": 2, "STRING": "hello"}),
        B("operator_letter_of", {"LETTER": 0, "STRING": "hello"}),
        B("operator_letter_of", {"LETTER": "2.7", "STRING": "hello"}),
        B("operator_length", {"STRING": "héllo"}), B("operator_length", {"STRING": 12.5}),
        B("operator_contains", {"STRING1": "Hello", "STRING2": "LL"}),
        B("operator_contains", {"STRING1": "abc", "STRING2": ""}),
    ]
    for f in ["abs", "floor", "ceiling", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "ln",
              "log", "e ^", "10 ^"]:
        for x in [-1.5, 0, 30, 90, 270, 0.5, 100]:
            exprs.append(mathop(f, x))
    exprs += [mathop("sqrt", -4), mathop("tan", -90), mathop("ln", 0), mathop("floor", "x"),
              op("add", Var("x"), Var("x")), join(Var("x"), Num(7)), op("multiply", Num(2.5), Num(-4)),
              op("add", "1e309", 0), op("multiply", "9007199254740993", 1), op("divide", 2, 3),
              op("multiply", 123456789, 987654321), op("divide", 1, 1e7), op("multiply", 1e-7, 1)]
    s.script(flag(), *[add("out", e) for e in exprs])
    return p, {"frames": 3, "seed": 1, "events": [{"frame": 0, "action": "green_flag"}]}


def lists():
    p = Project()
    s = p.stage
    s.list("L", ["a", "b", 3])
    s.list("M")
    s.var("v", 0)
    s.var("n", "")
    spr = p.sprite("Lister")
    spr.list("L", ["local"])  # same name as the global, a different id
    spr.var("v", "local")
    s.script(flag(),
             B("data_deletealloflist", fields={"LIST": "M"}),
             add("M", "x"), add("M", 2), add("M", "3"), add("M", ""),
             B("data_insertatlist", {"ITEM": "first", "INDEX": 1}, {"LIST": "M"}),
             B("data_insertatlist", {"ITEM": "end", "INDEX": "last"}, {"LIST": "M"}),
             B("data_insertatlist", {"ITEM": "nope", "INDEX": 99}, {"LIST": "M"}),
             B("data_insertatlist", {"ITEM": "r", "INDEX": "random"}, {"LIST": "M"}),
             B("data_replaceitemoflist", {"INDEX": 2, "ITEM": "two"}, {"LIST": "M"}),
             B("data_replaceitemoflist", {"INDEX": "last", "ITEM": "LAST"}, {"LIST": "M"}),
             B("data_replaceitemoflist", {"INDEX": 0, "ITEM": "zero"}, {"LIST": "M"}),
             B("data_deleteoflist", {"INDEX": 1}, {"LIST": "M"}),
             B("data_deleteoflist", {"INDEX": "last"}, {"LIST": "M"}),
             B("data_deleteoflist", {"INDEX": 50}, {"LIST": "M"}),
             setv("v", item(1, "M")),
             add("L", item("last", "M")), add("L", item(0, "M")), add("L", item("any", "M")),
             add("L", item("2.9", "M")),
             add("L", B("data_itemnumoflist", {"ITEM": "TWO"}, {"LIST": "M"})),
             add("L", B("data_itemnumoflist", {"ITEM": "zzz"}, {"LIST": "M"})),
             add("L", B("data_lengthoflist", fields={"LIST": "M"})),
             add("L", B("data_listcontainsitem", {"ITEM": "X"}, {"LIST": "M"})),
             add("L", ListRef("M")), add("L", ListRef("L")),
             setv("n", "5"), chg("n", 1), chg("v", "abc"),
             B("data_showvariable", fields={"VARIABLE": "v"}), B("data_hidevariable", fields={"VARIABLE": "v"}),
             B("data_showlist", fields={"LIST": "M"}), B("data_hidelist", fields={"LIST": "M"}),
             bcast("local"))
    s.list("D", [1, 2, 3])
    s.script(when_recv("local"),
             B("data_deletealloflist", fields={"LIST": "D"}),
             repeat(5, [add("D", join("d", B("data_lengthoflist", fields={"LIST": "D"})))]),
             B("data_deleteoflist", {"INDEX": "all"}, {"LIST": "D"}), add("D", "after"))
    spr.script(when_recv("local"), add("L", "sprite-local"), setv("v", join(Var("v"), "!")),
               add("L", ListRef("L")))
    return p, {"frames": 4, "seed": 7, "events": [{"frame": 0, "action": "green_flag"}]}


def control():
    p = Project()
    s = p.stage
    for v in ["a", "ticks", "b", "phase", "c", "stopped"]:
        s.var(v, 0)
    spr = p.sprite("Runner")
    spr.var("loops", 0)
    s.script(flag(), setv("a", 0), repeat(5, [chg("a", 1), wait(0.1)]), setv("phase", "repeat done"))
    s.script(flag(), setv("ticks", 0),
             forever([chg("ticks", 1), if_(cmp("gt", Var("ticks"), 20), [stop("this script")])]))
    s.script(flag(), setv("b", 0), wait_until(cmp("equals", Var("a"), 5)),
             until(cmp("gt", Var("b"), 3), [chg("b", 1)]), setv("phase", "until done"),
             ifelse(cmp("equals", Var("b"), 4), [setv("c", "yes")], [setv("c", "no")]),
             ifelse(cmp("equals", Var("b"), 5), [setv("c", "bad")], [setv("c", join(Var("c"), "+else"))]),
             repeat("2.6", [chg("c", 0)]), repeat(-1, [setv("c", "never")]), wait(0))
    spr.script(flag(), setv("loops", 0), forever([chg("loops", 1)]))
    spr.script(flag(), wait(0.5), stop("other scripts in sprite"), setv("stopped", "others"))
    s.script(flag(), wait(1.5), setv("phase", "stopping all"), stop("all"), setv("phase", "not reached"))
    return p, {"frames": 60, "seed": 1, "events": [{"frame": 0, "action": "green_flag"}]}


def clones():
    p = Project()
    s = p.stage
    s.var("started", 0)
    s.var("made", 0)
    spr = p.sprite("Cell", x=-100, y=50)
    spr.var("me", 0)
    other = p.sprite("Other", x=100, y=-50)
    # 310 clone requests in one warp frame: the 300-clone limit refuses the last 10.
    other.define("burst", [], [repeat(310, [B("control_create_clone_of", {
        "CLONE_OPTION": Menu("control_create_clone_of_menu", "CLONE_OPTION", "_myself_")}), chg("made", 1)])],
        warp=True)
    spr.script(flag(), setv("me", 0),
               repeat(3, [chg("me", 1), B("control_create_clone_of",
                                          {"CLONE_OPTION": Menu("control_create_clone_of_menu", "CLONE_OPTION", "_myself_")})]),
               setv("me", 0), bcast("spawn other"))
    spr.script(B("control_start_as_clone"), chg("started", 1),
               B("motion_gotoxy", {"X": op("multiply", Var("me"), 30), "Y": 50}),
               say(Var("me")), wait(op("multiply", Var("me"), 0.2)), B("control_delete_this_clone"))
    other.script(when_recv("spawn other"),
                 B("control_create_clone_of",
                   {"CLONE_OPTION": Menu("control_create_clone_of_menu", "CLONE_OPTION", "Cell")}),
                 wait(1), call(p, "burst"), wait(0.1), bcast("cleanup"))
    other.script(B("control_start_as_clone"), B("motion_changexby", {"DX": 1}))
    other.script(when_recv("cleanup"), B("control_delete_this_clone"))
    # Deleting the original sprite is a no-op.
    other.script(B("event_whenkeypressed", fields={"KEY_OPTION": "d"}), B("control_delete_this_clone"))
    return p, {"frames": 48, "seed": 1, "events": [{"frame": 0, "action": "green_flag"},
                                                   {"frame": 46, "action": "key_down", "key": "d"}]}


def events():
    p = Project()
    s = p.stage
    for v in ["flag", "pings", "waits", "restarts", "keys", "anykeys", "timerhat", "log"]:
        s.var(v, 0)
    spr = p.sprite("Listener")
    s.script(flag(), chg("flag", 1), setv("log", "flag"), bcast_wait("slow"), setv("log", join(Var("log"), " waited")),
             bcast("ping"), bcast("ping"), bcast_wait("slow"), setv("log", join(Var("log"), " waited2")))
    spr.script(when_recv("ping"), chg("pings", 1))
    spr.script(when_recv("slow"), chg("restarts", 1), wait(0.3), chg("waits", 1))
    s.script(when_recv("Slow"), setv("log", join(Var("log"), " case")))
    spr.script(B("event_whenkeypressed", fields={"KEY_OPTION": "space"}), chg("keys", 1))
    spr.script(B("event_whenkeypressed", fields={"KEY_OPTION": "any"}), chg("anykeys", 1))
    s.script(B("event_whengreaterthan", {"VALUE": 1}, {"WHENGREATERTHANMENU": "TIMER"}), chg("timerhat", 1),
             bcast("ping"))
    s.script(when_recv("again"), bcast("slow"), wait(0.1), bcast("slow"))
    return p, {"frames": 70, "seed": 1, "events": [
        {"frame": 0, "action": "green_flag"}, {"frame": 5, "action": "key_down", "key": "space"},
        {"frame": 6, "action": "key_up", "key": "space"}, {"frame": 8, "action": "key_down", "key": "a"},
        {"frame": 9, "action": "key_down", "key": "b"}, {"frame": 10, "action": "key_up", "key": "a"},
        {"frame": 11, "action": "key_up", "key": "b"}, {"frame": 20, "action": "broadcast", "message": "again"},
        {"frame": 40, "action": "green_flag"}, {"frame": 55, "action": "broadcast", "message": "ping"}]}


def procedures():
    p = Project()
    s = p.stage
    for v in ["fact", "fib", "steps", "depth", "maxdepth", "bool"]:
        s.var(v, 0)
    s.list("trace")
    spr = p.sprite("Proc")
    # Declared first so that recursive calls can be built inside the bodies.
    for code, names, warp in [("fact %s", ["n"], True), ("fib %s", ["n"], True),
                              ("slow %s %b", ["times", "flag"], False), ("deep %s", ["n"], False)]:
        p.procs[code] = (["a_%s" % n for n in names], warp)
    spr.define("fact %s", ["n"], [ifelse(cmp("lt", arg("n"), 2), [setv("fact", 1)],
                                         [call(p, "fact %s", op("subtract", arg("n"), 1)),
                                          setv("fact", op("multiply", Var("fact"), arg("n")))])], warp=True)
    spr.define("fib %s", ["n"], [
        chg("depth", 1),
        if_(cmp("gt", Var("depth"), Var("maxdepth")), [setv("maxdepth", Var("depth"))]),
        ifelse(cmp("lt", arg("n"), 2), [chg("fib", arg("n"))],
               [call(p, "fib %s", op("subtract", arg("n"), 1)), call(p, "fib %s", op("subtract", arg("n"), 2))]),
        chg("depth", -1)], warp=True)
    spr.define("slow %s %b", ["times", "flag"], [
        repeat(arg("times"), [chg("steps", 1), B("motion_changexby", {"DX": 1})]),
        if_(argb("flag"), [setv("bool", "was true")]), add("trace", join("slow ", arg("times")))])
    spr.define("deep %s", ["n"], [if_(cmp("gt", arg("n"), 0), [call(p, "deep %s", op("subtract", arg("n"), 1))]),
                                  if_(cmp("equals", arg("n"), 0), [add("trace", "bottom")])], warp=False)
    spr.script(flag(), call(p, "fact %s", 10), add("trace", Var("fact")), call(p, "fib %s", 12),
               add("trace", Var("fib")), call(p, "slow %s %b", 5, cmp("gt", 2, 1)),
               call(p, "slow %s %b", 2, cmp("lt", 2, 1)), call(p, "deep %s", 40),
               add("trace", arg("n")), add("trace", "done"))
    return p, {"frames": 40, "seed": 1, "events": [{"frame": 0, "action": "green_flag"}]}


def sensing():
    p = Project()
    s = p.stage
    for v in ["answer1", "answer2", "t0", "t1", "date", "days", "ofx", "ofvar", "ofbg", "user", "key", "mouse"]:
        s.var(v, 0)
    spr = p.sprite("Asker", x=12, y=-34, direction=45)
    spr.var("secret", "hidden")
    other = p.sprite("Other")
    spr.script(flag(), B("sensing_askandwait", {"QUESTION": "name?"}), setv("answer1", B("sensing_answer")),
               B("sensing_askandwait", {"QUESTION": "again?"}), setv("answer2", B("sensing_answer")))
    other.script(flag(), B("sensing_askandwait", {"QUESTION": "other?"}), say(B("sensing_answer")))
    s.script(flag(), setv("t0", B("sensing_timer")), wait(0.5), setv("t1", B("sensing_timer")),
             B("sensing_resettimer"), wait(0.2), setv("t0", B("sensing_timer")),
             setv("date", join(B("sensing_current", fields={"CURRENTMENU": "YEAR"}),
                               join(B("sensing_current", fields={"CURRENTMENU": "MONTH"}),
                                    join(B("sensing_current", fields={"CURRENTMENU": "DATE"}),
                                         join(B("sensing_current", fields={"CURRENTMENU": "DAYOFWEEK"}),
                                              join(B("sensing_current", fields={"CURRENTMENU": "HOUR"}),
                                                   join(B("sensing_current", fields={"CURRENTMENU": "MINUTE"}),
                                                        B("sensing_current", fields={"CURRENTMENU": "SECOND"})))))))),
             setv("days", B("sensing_dayssince2000")),
             setv("ofx", join(B("sensing_of", {"OBJECT": Menu("sensing_of_object_menu", "OBJECT", "Asker")},
                                {"PROPERTY": "x position"}),
                              B("sensing_of", {"OBJECT": Menu("sensing_of_object_menu", "OBJECT", "Asker")},
                                {"PROPERTY": "direction"}))),
             setv("ofvar", join(B("sensing_of", {"OBJECT": Menu("sensing_of_object_menu", "OBJECT", "Asker")},
                                  {"PROPERTY": "secret"}),
                                B("sensing_of", {"OBJECT": Menu("sensing_of_object_menu", "OBJECT", "Asker")},
                                  {"PROPERTY": "nothing"}))),
             setv("ofbg", join(B("sensing_of", {"OBJECT": Menu("sensing_of_object_menu", "OBJECT", "_stage_")},
                                 {"PROPERTY": "backdrop #"}),
                               B("sensing_of", {"OBJECT": Menu("sensing_of_object_menu", "OBJECT", "_stage_")},
                                 {"PROPERTY": "backdrop name"}))),
             setv("user", join("[", join(B("sensing_username"), "]"))),
             forever([setv("key", join(B("sensing_keypressed", {"KEY_OPTION": Menu("sensing_keyoptions", "KEY_OPTION", "space")}),
                                       B("sensing_keypressed", {"KEY_OPTION": Menu("sensing_keyoptions", "KEY_OPTION", "any")}))),
                      setv("mouse", join(B("sensing_mousex"), join(",", join(B("sensing_mousey"),
                                                                              B("sensing_mousedown")))))]))
    return p, {"frames": 40, "seed": 1, "events": [
        {"frame": 0, "action": "green_flag"}, {"frame": 4, "action": "answer", "text": "Ada"},
        {"frame": 6, "action": "answer", "text": "Bob"}, {"frame": 9, "action": "answer", "text": " 42 "},
        {"frame": 25, "action": "key_down", "key": "space"}, {"frame": 27, "action": "key_up", "key": "space"},
        {"frame": 28, "action": "key_down", "key": "x"}, {"frame": 29, "action": "key_up", "key": "x"},
        {"frame": 31, "action": "mouse_move", "x": -30, "y": 40}, {"frame": 33, "action": "mouse_down", "x": -30, "y": 40},
        {"frame": 34, "action": "mouse_up", "x": 0, "y": 0}]}


def randomness():
    p = Project()
    s = p.stage
    s.list("ints")
    s.list("floats")
    s.list("mixed")
    s.list("pool", ["a", "b", "c", "d"])
    s.script(flag(), repeat(5, [add("ints", B("operator_random", {"FROM": 1, "TO": 10})),
                                add("floats", B("operator_random", {"FROM": "1.0", "TO": 10})),
                                add("floats", B("operator_random", {"FROM": 0.5, "TO": 1})),
                                add("mixed", B("operator_random", {"FROM": 10, "TO": 1})),
                                add("mixed", B("operator_random", {"FROM": "-3", "TO": "3"})),
                                add("mixed", B("operator_random", {"FROM": 5, "TO": 5})),
                                add("mixed", B("operator_random", {"FROM": "a", "TO": 2})),
                                add("mixed", item("random", "pool"))]))
    return p, {"frames": 3, "seed": 12345, "events": [{"frame": 0, "action": "green_flag"}]}


def input_order():
    """Inputs written in a non-canonical order: scratch-vm evaluates them in file order (the
    order of the block's `inputs` object), which decides the order of the random draws."""
    p = Project()
    s = p.stage
    s.list("out")
    spr = p.sprite("Order")

    def rnd(a, b):
        return B("operator_random", {"FROM": a, "TO": b})

    p.procs["two %s %s"] = (["a_a", "a_b"], False)
    spr.define("two %s %s", ["a", "b"], [add("out", join(arg("a"), join("|", arg("b"))))])

    def call_args(first, second):
        # Written second-parameter first.
        return B("procedures_call", {"a_b": second, "a_a": first}, mutation={
            "tagName": "mutation", "children": [], "proccode": "two %s %s",
            "argumentids": json.dumps(["a_a", "a_b"]), "warp": "false"})

    body = [add("out", B("operator_subtract", {"NUM2": rnd(1, 100), "NUM1": rnd(1, 1000)})),
            add("out", B("operator_join", {"STRING2": rnd(1, 9), "STRING1": rnd(10, 99)})),
            B("motion_gotoxy", {"Y": rnd(-100, 100), "X": rnd(-200, 200)}),
            add("out", B("operator_random", {"TO": rnd(50, 60), "FROM": rnd(1, 10)})),
            add("out", B("operator_add", {"NUM1": 1, "EXTRA": rnd(1, 9), "NUM2": rnd(100, 200)})),
            call_args(rnd(1, 9), rnd(10, 99)),
            # A reporter with no implementation: its own inputs still run (one draw), and the
            # parameter takes the prototype's default; a one-field block reports its field.
            call_args(B("operator_unknownreporter", {"X": rnd(1, 5)}), B("operator_unknownmenu", fields={"F": "menu"})),
            add("out", B("operator_unknownreporter", {"X": rnd(1, 5)}))]
    spr.script(flag(), repeat(3, body))
    return p, {"frames": 3, "seed": 99, "events": [{"frame": 0, "action": "green_flag"}]}


def monitor(mid, opcode, params=None, sprite=None, visible=True, mode="default"):
    return {"id": mid, "mode": mode, "opcode": opcode, "params": params or {}, "spriteName": sprite,
            "value": 0, "width": 0, "height": 0, "x": 5, "y": 5, "visible": visible,
            "sliderMin": 0, "sliderMax": 100, "isDiscrete": True}


def monitors():
    """Visible monitors: scratch-vm runs a monitor thread for each every frame. A variable
    monitor whose variable exists nowhere creates it on the editing target (the first sprite),
    where the trace shows it (and its clones inherit it); the others change nothing visible."""
    p = Project()
    s = p.stage
    s.var("score", 0)
    s.list("log")
    spr = p.sprite("Walker")
    spr.var("steps", 0)
    p.sprite("Other")
    p.monitors = [monitor("v_Stage_score", "data_variable", {"VARIABLE": "score"}),
                  monitor("l_Stage_log", "data_listcontents", {"LIST": "log"}, mode="list"),
                  monitor("ghost_id", "data_variable", {"VARIABLE": "ghost"}),
                  monitor("hidden_id", "data_variable", {"VARIABLE": "hidden"}, visible=False),
                  monitor("v_Walker_steps", "data_variable", {"VARIABLE": "steps"}, sprite="Walker"),
                  monitor("Walker_xposition", "motion_xposition", sprite="Walker"),
                  monitor("timer", "sensing_timer"),
                  monitor("Walker_costumenumbername_number", "looks_costumenumbername",
                          {"NUMBER_NAME": "number"}, sprite="Walker")]
    spr.script(flag(), repeat(10, [B("motion_changexby", {"DX": 7}), chg("score", 1), chg("steps", 2),
                                   add("log", Var("score"))]),
               B("control_create_clone_of", {"CLONE_OPTION": Menu("control_create_clone_of_menu",
                                                                 "CLONE_OPTION", "_myself_")}))
    return p, {"frames": 15, "seed": 1, "events": [{"frame": 0, "action": "green_flag"}]}


def music():
    """The music extension's timing: rests, drums and notes hold their thread on a stack timer
    (yield, then re-check every tick until `60 / tempo * beats` seconds have passed on the
    virtual clock), tempo lives on the stage (clamped to 20..500), beats clamp to 0..100, a
    note for 0 beats does not wait at all, inputs are re-evaluated at every check (random draws),
    clones inherit the instrument, `stop all` ends a rest, warp mode busy-checks a rest."""
    p = Project()
    p.extensions = ["music"]
    s = p.stage
    s.list("log")
    s.var("ticks", 0)
    drummer = p.sprite("Drummer")
    player = p.sprite("Player", x=-100)

    def t(): return B("sensing_timer")

    def tempo(): return B("music_getTempo")

    def rest(b): return B("music_restForBeats", {"BEATS": b})

    def drum(d, b): return B("music_playDrumForBeats", {"DRUM": Menu("music_menu_DRUM", "DRUM", d), "BEATS": b})

    def note(n, b):
        return B("music_playNoteForBeats", {"NOTE": n if isinstance(n, B) else Menu("note", "NOTE", n), "BEATS": b})

    def set_tempo(x): return B("music_setTempo", {"TEMPO": x})

    def chg_tempo(x): return B("music_changeTempo", {"TEMPO": x})

    def inst(i): return B("music_setInstrument", {"INSTRUMENT": Menu("music_menu_INSTRUMENT", "INSTRUMENT", i)})

    def log(x): return add("log", x)

    drummer.define("quick", [], [rest(0), drum("3", 0), log(join("warp ", t()))], warp=True)
    drummer.script(flag(), log(join("start ", tempo())), set_tempo(120), log(tempo()),
                   drum("1", 0.5), log(join("drum ", t())),
                   rest(0.25), log(join("rest ", t())),
                   note(60, 1), log(join("note ", t())),
                   chg_tempo(-40), log(tempo()), rest(1), log(join("rest80 ", t())),
                   set_tempo(1000), log(tempo()), set_tempo(5), log(tempo()), set_tempo("abc"), log(tempo()),
                   chg_tempo(" 70 "), log(tempo()),
                   note(200, 0), log(join("note0 ", t())),
                   rest(0), log(join("rest0 ", t())),
                   rest(-3), log(join("rest-3 ", t())),
                   drum("99", 0.1), B("music_midiPlayDrumForBeats", {"DRUM": 40, "BEATS": 0.2}),
                   log(join("midi ", t())),
                   call(p, "quick"),
                   rest(B("operator_random", {"FROM": "0.1", "TO": "0.3"})), log(join("random ", t())),
                   set_tempo(60), bcast("clones"), rest(200), log("never"))
    drummer.script(flag(), forever([chg("ticks", 1)]))
    player.script(flag(), inst("4"), B("music_midiSetInstrument", {"INSTRUMENT": 20}), inst(-3))
    player.script(when_recv("clones"),
                  B("control_create_clone_of", {"CLONE_OPTION": Menu("control_create_clone_of_menu", "CLONE_OPTION", "_myself_")}),
                  repeat(3, [note(B("motion_xposition"), 0.5), B("motion_changexby", {"DX": 10})]))
    player.script(B("control_start_as_clone"), B("motion_changeyby", {"DY": 30}),
                  repeat(4, [rest(0.3), B("motion_changexby", {"DX": 5})]))
    return p, {"frames": 150, "seed": 3, "events": [{"frame": 0, "action": "green_flag"},
                                                    {"frame": 140, "action": "stop_all"},
                                                    {"frame": 143, "action": "green_flag"}]}


def makeymakey():
    """Makey Makey hats: `when key pressed` is edge-triggered on `key down AND frameToggle`
    (a flag flipped once per frame), so a held key fires every other frame; `when code
    pressed` matches the last key presses against a sequence (registered when the hat is
    first checked) and stays true for 100 ms; stop all (and the green flag) clear the buffer."""
    p = Project()
    p.extensions = ["makeymakey"]
    s = p.stage
    for v in ["space", "a", "up", "lur", "ud", "long", "bad"]:
        s.var(v, 0)
    k = p.sprite("Makey")

    def key(x): return B("makeymakey_whenMakeyKeyPressed", {"KEY": Menu("makeymakey_menu_KEY", "KEY", x)})

    def code(x): return B("makeymakey_whenCodePressed", {"SEQUENCE": Menu("makeymakey_menu_SEQUENCE", "SEQUENCE", x)})

    k.script(key("SPACE"), chg("space", 1))
    k.script(key("a"), chg("a", 1), wait(0.2))
    k.script(key("UP"), chg("up", 1))
    k.script(code("LEFT UP RIGHT"), chg("lur", 1))
    k.script(code("UP DOWN"), chg("ud", 1))
    s.script(code("UP UP DOWN DOWN LEFT RIGHT LEFT RIGHT"), chg("long", 1))
    s.script(code("LEFT"), chg("bad", 1))
    ev = [{"frame": 0, "action": "green_flag"}]
    ev += [{"frame": 2, "action": "key_down", "key": "space"}, {"frame": 12, "action": "key_up", "key": "space"}]
    ev += [{"frame": 14, "action": "key_down", "key": "a"}, {"frame": 30, "action": "key_up", "key": "a"}]
    seq = ["left arrow", "up arrow", "right arrow", "up arrow", "down arrow", "x", "up arrow", "down arrow",
           "up arrow", "up arrow", "down arrow", "down arrow", "left arrow", "right arrow", "left arrow",
           "right arrow"]
    f = 32
    for name in seq:
        ev += [{"frame": f, "action": "key_down", "key": name}, {"frame": f + 1, "action": "key_up", "key": name}]
        f += 2
    # Two presses of a sequence 2 frames apart, then stop all between two halves.
    ev += [{"frame": 70, "action": "key_down", "key": "up arrow"}, {"frame": 70, "action": "key_down", "key": "down arrow"},
           {"frame": 71, "action": "key_up", "key": "up arrow"}, {"frame": 71, "action": "key_up", "key": "down arrow"},
           {"frame": 72, "action": "key_down", "key": "up arrow"}, {"frame": 73, "action": "key_up", "key": "up arrow"},
           {"frame": 73, "action": "key_down", "key": "down arrow"}, {"frame": 74, "action": "key_up", "key": "down arrow"},
           {"frame": 80, "action": "key_down", "key": "up arrow"}, {"frame": 81, "action": "stop_all"},
           {"frame": 82, "action": "key_down", "key": "down arrow"}, {"frame": 83, "action": "key_up", "key": "down arrow"},
           {"frame": 84, "action": "key_up", "key": "up arrow"}]
    return p, {"frames": 95, "seed": 1, "events": ev}


def video():
    """Video sensing without a camera (headless): no frame is ever analysed, so motion and
    direction are -1 on the stage and on sprites; `when video motion > n` is `-1 > n`, checked
    every frame (edge-activated: it fires once while true); turning the video on or off and its
    transparency change nothing observable."""
    p = Project()
    p.extensions = ["videoSensing"]
    s = p.stage
    s.list("log")
    s.var("fired", 0)
    spr = p.sprite("Cam")

    def on(attr, subj):
        return B("videoSensing_videoOn", {"ATTRIBUTE": Menu("videoSensing_menu_ATTRIBUTE", "ATTRIBUTE", attr),
                                          "SUBJECT": Menu("videoSensing_menu_SUBJECT", "SUBJECT", subj)})

    def when(ref):
        return B("videoSensing_whenMotionGreaterThan", {"REFERENCE": ref})

    spr.script(flag(), B("videoSensing_videoToggle", {"VIDEO_STATE": Menu("videoSensing_menu_VIDEO_STATE", "VIDEO_STATE", "on")}),
               B("videoSensing_setVideoTransparency", {"TRANSPARENCY": 20}),
               add("log", on("motion", "sprite")), add("log", on("direction", "sprite")),
               add("log", on("motion", "stage")), add("log", on("direction", "stage")),
               wait(0.1), add("log", op("add", on("motion", "sprite"), 1)),
               B("control_create_clone_of", {"CLONE_OPTION": Menu("control_create_clone_of_menu", "CLONE_OPTION", "_myself_")}))
    # A clone copies its parent's previous hat values (`makeClone`): the hat does not fire for it.
    spr.script(when(-5), chg("fired", 1), add("log", "motion > -5"))
    spr.script(when(10), add("log", "motion > 10"))
    s.script(when("abc"), add("log", "motion > abc"))
    s.script(when(-1), add("log", "motion > -1"))
    return p, {"frames": 8, "seed": 1, "events": [{"frame": 0, "action": "green_flag"},
                                                  {"frame": 5, "action": "green_flag"}]}


def music_warp():
    """Music timers inside a warp procedure: the rest and the note yield, and in warp mode the
    thread goes straight back to them, checking the timer until the warp budget ends the frame
    (1e6 checks, refvm P5); a busy counter beside it shows how far each frame got."""
    p = Project()
    p.extensions = ["music"]
    s = p.stage
    s.list("log")
    s.var("n", 0)
    spr = p.sprite("W")
    spr.define("slow", [], [B("music_restForBeats", {"BEATS": 0.1}), add("log", join("warp rest ", B("sensing_timer"))),
                            B("music_playNoteForBeats", {"NOTE": Menu("note", "NOTE", 60), "BEATS": 0.05}),
                            add("log", join("warp note ", B("sensing_timer")))], warp=True)
    spr.script(flag(), call(p, "slow"), add("log", "done"))
    spr.script(flag(), forever([chg("n", 1)]))
    return p, {"frames": 10, "seed": 1, "events": [{"frame": 0, "action": "green_flag"}]}


GOLDENS = {"input_order": input_order, "monitors": monitors, "operators": operators, "lists": lists, "control": control, "clones": clones,
           "events": events, "makeymakey": makeymakey, "music": music, "music_warp": music_warp, "procedures": procedures, "sensing": sensing, "random": randomness, "video": video}


def main(names):
    for name in names or sorted(GOLDENS):
        project, scenario = GOLDENS[name]()
        out = os.path.join(ROOT, name)
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "project.json"), "w") as f:
            json.dump(project.json(), f, indent=1, ensure_ascii=False)
            f.write("\n")
        with open(os.path.join(out, "scenario.json"), "w") as f:
            json.dump(scenario, f, indent=1)
            f.write("\n")
        print("wrote", out)


if __name__ == "__main__":
    main(sys.argv[1:])
