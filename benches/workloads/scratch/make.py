#!/usr/bin/env python3
"""Writes the Scratch benchmark workloads (our own projects) next to this script.

    python3 benches/workloads/scratch/make.py

Each workload is `<name>.project.json`; the costumes they name live in `assets/` (two tiny
SVGs of ours), so the reference VMs can pack a real .sb3 and give costumes real sizes. The
output is deterministic (no clock, no OS randomness); re-running it rewrites identical files.
What each workload measures is described in docs/performance.md.
"""
import hashlib
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
BACKDROP = ('<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360" '
            'viewBox="0 0 480 360"><rect width="480" height="360" fill="#f4f4f4"/></svg>\n')
SPRITE = ('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" '
          'viewBox="0 0 24 24"><rect width="24" height="24" rx="4" fill="#3a7bd5"/></svg>\n')


def md5(text):
    return hashlib.md5(text.encode()).hexdigest()


def costume(name, svg, cx, cy):
    asset = md5(svg)
    return {"name": name, "bitmapResolution": 1, "dataFormat": "svg", "assetId": asset,
            "md5ext": asset + ".svg", "rotationCenterX": cx, "rotationCenterY": cy}


class Script:
    """Builds one target's block map; ids are `<prefix><n>` in creation order."""

    def __init__(self, prefix):
        self.blocks = {}
        self.prefix = prefix
        self.n = 0

    def block(self, opcode, inputs=None, fields=None, shadow=False, mutation=None):
        self.n += 1
        bid = "%s%d" % (self.prefix, self.n)
        b = {"opcode": opcode, "next": None, "parent": None, "inputs": inputs or {},
             "fields": fields or {}, "shadow": shadow, "topLevel": False}
        if mutation is not None:
            b["mutation"] = mutation
        self.blocks[bid] = b
        for value in b["inputs"].values():
            for ref in value[1:]:
                if isinstance(ref, str) and ref in self.blocks:
                    self.blocks[ref]["parent"] = bid
        return bid

    def chain(self, ids):
        for a, b in zip(ids, ids[1:]):
            self.blocks[a]["next"] = b
            self.blocks[b]["parent"] = a
        return ids[0] if ids else None

    def top(self, ids, x=0, y=0):
        first = self.chain(ids)
        self.blocks[first].update({"topLevel": True, "x": x, "y": y})
        return first

    # Inputs -------------------------------------------------------------------------------
    @staticmethod
    def num(v, kind=4):
        return [1, [kind, str(v)]]

    @staticmethod
    def text(v):
        return [1, [10, str(v)]]

    @staticmethod
    def slot(reporter, kind=4, default="0"):
        return [3, reporter, [kind, default]]

    @staticmethod
    def substack(first):
        return [2, first]

    # Blocks --------------------------------------------------------------------------------
    def flag(self):
        return self.block("event_whenflagclicked")

    def var(self, name, vid):
        return self.block("data_variable", fields={"VARIABLE": [name, vid]})

    def set_var(self, name, vid, value):
        v = value if isinstance(value, list) else self.text(value)
        return self.block("data_setvariableto", inputs={"VALUE": v},
                          fields={"VARIABLE": [name, vid]})

    def change_var(self, name, vid, by):
        return self.block("data_changevariableby", inputs={"VALUE": self.num(by)},
                          fields={"VARIABLE": [name, vid]})

    def repeat(self, times, body):
        return self.block("control_repeat", inputs={"TIMES": self.num(times, 6),
                                                    "SUBSTACK": self.substack(self.chain(body))})

    def forever(self, body):
        return self.block("control_forever",
                          inputs={"SUBSTACK": self.substack(self.chain(body))})

    def clone_myself(self):
        menu = self.block("control_create_clone_of_menu",
                          fields={"CLONE_OPTION": ["_myself_", None]}, shadow=True)
        return self.block("control_create_clone_of", inputs={"CLONE_OPTION": [1, menu]})

    def motion(self, opcode, name=None, value=None):
        inputs = {name: self.num(value)} if name else {}
        return self.block(opcode, inputs=inputs)

    def random(self, low, high):
        return self.block("operator_random", inputs={"FROM": self.num(low), "TO": self.num(high)})

    def define(self, proccode, warp, body, arg_names=(), y=400):
        arg_ids = ["arg%d" % i for i in range(len(arg_names))]
        proto_inputs = {}
        for aid, aname in zip(arg_ids, arg_names):
            rep = self.block("argument_reporter_string_number",
                             fields={"VALUE": [aname, None]}, shadow=True)
            proto_inputs[aid] = [1, rep]
        proto = self.block("procedures_prototype", inputs=proto_inputs, shadow=True, mutation={
            "tagName": "mutation", "children": [], "proccode": proccode,
            "argumentids": json.dumps(arg_ids), "argumentnames": json.dumps(list(arg_names)),
            "argumentdefaults": json.dumps([""] * len(arg_ids)), "warp": json.dumps(warp)})
        definition = self.block("procedures_definition", inputs={"custom_block": [1, proto]})
        return self.top([definition] + body, 0, y)

    def call(self, proccode, warp, args=()):
        arg_ids = ["arg%d" % i for i in range(len(args))]
        inputs = {aid: a for aid, a in zip(arg_ids, args)}
        return self.block("procedures_call", inputs=inputs, mutation={
            "tagName": "mutation", "children": [], "proccode": proccode,
            "argumentids": json.dumps(arg_ids), "warp": json.dumps(warp)})


def sprite(name, blocks, layer=1, variables=None, lists=None, x=0, y=0, direction=90):
    return {"isStage": False, "name": name, "variables": variables or {}, "lists": lists or {},
            "broadcasts": {}, "blocks": blocks, "comments": {}, "currentCostume": 0,
            "costumes": [costume("tile", SPRITE, 12, 12)], "sounds": [], "volume": 100,
            "layerOrder": layer, "visible": True, "x": x, "y": y, "size": 100,
            "direction": direction, "draggable": False, "rotationStyle": "all around"}


def project(sprites, variables=None, lists=None, broadcasts=None, stage_blocks=None):
    stage = {"isStage": True, "name": "Stage", "variables": variables or {},
             "lists": lists or {}, "broadcasts": broadcasts or {}, "blocks": stage_blocks or {},
             "comments": {}, "currentCostume": 0,
             "costumes": [costume("backdrop", BACKDROP, 240, 180)], "sounds": [], "volume": 100,
             "layerOrder": 0, "tempo": 60, "videoTransparency": 50, "videoState": "off",
             "textToSpeechLanguage": None}
    return {"targets": [stage] + sprites, "monitors": [], "extensions": [],
            "meta": {"semver": "3.0.0", "vm": "0.2.0", "agent": "gobo benches/workloads/scratch/make.py"}}


def loop1m_warp():
    s = Script("w")
    s.top([s.flag(), s.set_var("counter", "vCounter", 0), s.call("count up", True)])
    s.define("count up", True, [s.repeat(1000000, [s.change_var("counter", "vCounter", 1)])])
    return project([sprite("Runner", s.blocks)], variables={"vCounter": ["counter", 0]})


def loop100k_nowarp():
    s = Script("n")
    s.top([s.flag(), s.set_var("counter", "vCounter", 0),
           s.repeat(100000, [s.change_var("counter", "vCounter", 1)])])
    return project([sprite("Runner", s.blocks)], variables={"vCounter": ["counter", 0]})


def clones300_move():
    s = Script("c")
    s.top([s.flag(), s.block("looks_hide"), s.repeat(300, [s.clone_myself()])])
    goto = s.block("motion_gotoxy", inputs={"X": s.slot(s.random(-200, 200)),
                                            "Y": s.slot(s.random(-150, 150))})
    s.top([s.block("control_start_as_clone"), goto, s.block("looks_show"), s.forever([
        s.motion("motion_movesteps", "STEPS", 3), s.motion("motion_ifonedgebounce"),
        s.motion("motion_turnright", "DEGREES", 2), s.change_var("moves", "vMoves", 1)])], 0, 300)
    return project([sprite("Mover", s.blocks)], variables={"vMoves": ["moves", 0]})


def sprites100_motion():
    def motion_body(s):
        return [s.motion("motion_turnright", "DEGREES", 15), s.motion("motion_movesteps", "STEPS", 10),
                s.motion("motion_ifonedgebounce"), s.motion("motion_changexby", "DX", 1),
                s.motion("motion_changeyby", "DY", -1)]
    s = Script("m")
    s.top([s.flag(), s.repeat(99, [s.clone_myself()]), s.forever(motion_body(s))])
    s.top([s.block("control_start_as_clone"), s.forever(motion_body(s))], 0, 300)
    st = Script("t")
    st.top([st.flag(), st.forever([st.change_var("ticks", "vTicks", 1)])])
    return project([sprite("Walker", s.blocks)], variables={"vTicks": ["ticks", 0]},
                   stage_blocks=st.blocks)


def trivial():
    s = Script("s")
    s.top([s.flag(), s.forever([s.motion("motion_turnright", "DEGREES", 1)])])
    return project([sprite("Spinner", s.blocks)])


def warp7_1m():
    s = Script("a")
    s.top([s.flag(), s.call("sum mod 7", True), s.set_var("done", "vDone", 1)])
    i_val = s.var("i", "vI")
    mod = s.block("operator_mod", inputs={"NUM1": s.slot(i_val), "NUM2": s.num(7)})
    sum_val = s.var("sum", "vSum")
    add = s.block("operator_add", inputs={"NUM1": s.slot(sum_val), "NUM2": s.slot(mod)})
    body = [s.change_var("i", "vI", 1), s.set_var("sum", "vSum", s.slot(add, 10, ""))]
    s.define("sum mod 7", True, [s.set_var("sum", "vSum", 0), s.set_var("i", "vI", 0),
                                 s.repeat(1000000, body)])
    return project([sprite("Adder", s.blocks)],
                   variables={"vI": ["i", 0], "vSum": ["sum", 0], "vDone": ["done", 0]})


class Text(str):
    """A text literal (as typed into a text input), as opposed to a reporter id."""


class Prog(Script):
    """Builds compute workloads: variables and lists on the stage, named `v<name>` and
    `l<name>`; expressions are reporter ids (str), numbers, or Text literals."""

    @staticmethod
    def inp(x, kind=4):
        if isinstance(x, Text):
            return [1, [10, str(x)]]
        if isinstance(x, (int, float)):
            return [1, [kind, str(x)]]
        return [3, x, [kind, "0" if kind != 10 else ""]]

    def v(self, name):
        return self.var(name, "v" + name)

    def _op(self, opcode, a, b, names, kind=4):
        return self.block(opcode, inputs={names[0]: self.inp(a, kind), names[1]: self.inp(b, kind)})

    def add(self, a, b):
        return self._op("operator_add", a, b, ("NUM1", "NUM2"))

    def sub(self, a, b):
        return self._op("operator_subtract", a, b, ("NUM1", "NUM2"))

    def mul(self, a, b):
        return self._op("operator_multiply", a, b, ("NUM1", "NUM2"))

    def div(self, a, b):
        return self._op("operator_divide", a, b, ("NUM1", "NUM2"))

    def mod(self, a, b):
        return self._op("operator_mod", a, b, ("NUM1", "NUM2"))

    def lt(self, a, b):
        return self._op("operator_lt", a, b, ("OPERAND1", "OPERAND2"), 10)

    def gt(self, a, b):
        return self._op("operator_gt", a, b, ("OPERAND1", "OPERAND2"), 10)

    def eq(self, a, b):
        return self._op("operator_equals", a, b, ("OPERAND1", "OPERAND2"), 10)

    def or_(self, a, b):
        return self.block("operator_or", inputs={"OPERAND1": [2, a], "OPERAND2": [2, b]})

    def not_(self, a):
        return self.block("operator_not", inputs={"OPERAND": [2, a]})

    def join(self, a, b):
        return self._op("operator_join", a, b, ("STRING1", "STRING2"), 10)

    def letter(self, n, text):
        return self.block("operator_letter_of",
                          inputs={"LETTER": self.inp(n, 6), "STRING": self.inp(text, 10)})

    def strlen(self, text):
        return self.block("operator_length", inputs={"STRING": self.inp(text, 10)})

    def item(self, lst, index):
        return self.block("data_itemoflist", inputs={"INDEX": self.inp(index, 7)},
                          fields={"LIST": [lst, "l" + lst]})

    def list_len(self, lst):
        return self.block("data_lengthoflist", fields={"LIST": [lst, "l" + lst]})

    def set(self, name, value):
        return self.block("data_setvariableto", inputs={"VALUE": self.inp(value, 10)},
                          fields={"VARIABLE": [name, "v" + name]})

    def change(self, name, by):
        return self.block("data_changevariableby", inputs={"VALUE": self.inp(by)},
                          fields={"VARIABLE": [name, "v" + name]})

    def add_to(self, lst, item):
        return self.block("data_addtolist", inputs={"ITEM": self.inp(item, 10)},
                          fields={"LIST": [lst, "l" + lst]})

    def clear(self, lst):
        return self.block("data_deletealloflist", fields={"LIST": [lst, "l" + lst]})

    def replace(self, lst, index, item):
        return self.block("data_replaceitemoflist",
                          inputs={"INDEX": self.inp(index, 7), "ITEM": self.inp(item, 10)},
                          fields={"LIST": [lst, "l" + lst]})

    def times(self, n, body):
        return self.block("control_repeat", inputs={"TIMES": self.inp(n, 6),
                                                    "SUBSTACK": self.substack(self.chain(body))})

    def until(self, cond, body):
        return self.block("control_repeat_until", inputs={
            "CONDITION": [2, cond], "SUBSTACK": self.substack(self.chain(body))})

    def if_(self, cond, body, other=None):
        inputs = {"CONDITION": [2, cond], "SUBSTACK": self.substack(self.chain(body))}
        if other is None:
            return self.block("control_if", inputs=inputs)
        inputs["SUBSTACK2"] = self.substack(self.chain(other))
        return self.block("control_if_else", inputs=inputs)


def compute_project(p, names, lists=()):
    """A one-sprite project whose variables `names` and lists live on the stage."""
    variables = {"v" + n: [n, 0] for n in names}
    return project([sprite("Worker", p.blocks)], variables=variables,
                   lists={"l" + n: [n, []] for n in lists})


def lcg_fill(p, lst, n, seed):
    """Blocks filling `lst` with `n` numbers of the LCG `seed = (seed * 75 + 74) mod 65537`."""
    return [p.clear(lst), p.set("seed", seed),
            p.times(n, [p.set("seed", p.mod(p.add(p.mul(p.v("seed"), 75), 74), 65537)),
                        p.add_to(lst, p.v("seed"))])]


def lcg_values(n, seed):
    out = []
    for _ in range(n):
        seed = (seed * 75 + 74) % 65537
        out.append(seed)
    return out


def verify_sorted(p, lst):
    """Blocks setting `sorted` (1 when ascending) and `check` (a checksum of the items)."""
    return [p.set("sorted", 1), p.set("k", 1),
            p.times(p.sub(p.list_len(lst), 1), [
                p.if_(p.gt(p.item(lst, p.v("k")), p.item(lst, p.add(p.v("k"), 1))),
                      [p.set("sorted", 0)]),
                p.change("k", 1)]),
            p.set("check", 0), p.set("k", 1),
            p.times(p.list_len(lst), [
                p.set("check", p.mod(p.add(p.mul(p.v("check"), 31), p.item(lst, p.v("k"))),
                                     1000003)),
                p.change("k", 1)])]


def checksum(values):
    c = 0
    for v in values:
        c = (c * 31 + v) % 1000003
    return c


SORT_N = 800


def sort_bubble_warp():
    """Bubble sort of 800 numbers in a warp custom block, then a check of the order."""
    p = Prog("b")
    p.top([p.flag(), p.call("sort", True), p.set("done", 1)])
    body = lcg_fill(p, "L", SORT_N, 12345) + [
        p.set("i", 1),
        p.times(p.sub(p.list_len("L"), 1), [
            p.set("j", 1),
            p.times(p.sub(p.list_len("L"), p.v("i")), [
                p.if_(p.gt(p.item("L", p.v("j")), p.item("L", p.add(p.v("j"), 1))), [
                    p.set("tmp", p.item("L", p.v("j"))),
                    p.replace("L", p.v("j"), p.item("L", p.add(p.v("j"), 1))),
                    p.replace("L", p.add(p.v("j"), 1), p.v("tmp"))]),
                p.change("j", 1)]),
            p.change("i", 1)])] + verify_sorted(p, "L")
    p.define("sort", True, body)
    values = sorted(lcg_values(SORT_N, 12345))
    check = {"sorted": 1, "check": checksum(values), "done": 1}
    return (compute_project(p, ["seed", "i", "j", "k", "tmp", "sorted", "check", "done"], ["L"]),
            SORT_N * (SORT_N - 1) // 2, check)


def sort_insertion_warp():
    """Insertion sort of 1,000 numbers in a warp custom block, then a check of the order."""
    n = 1000
    p = Prog("s")
    p.top([p.flag(), p.call("sort", True), p.set("done", 1)])
    body = lcg_fill(p, "L", n, 777) + [
        p.set("i", 2),
        p.times(p.sub(p.list_len("L"), 1), [
            p.set("key", p.item("L", p.v("i"))),
            p.set("j", p.sub(p.v("i"), 1)),
            p.until(p.or_(p.lt(p.v("j"), 1), p.not_(p.gt(p.item("L", p.v("j")), p.v("key")))), [
                p.replace("L", p.add(p.v("j"), 1), p.item("L", p.v("j"))),
                p.change("j", -1)]),
            p.replace("L", p.add(p.v("j"), 1), p.v("key")),
            p.change("i", 1)])] + verify_sorted(p, "L")
    p.define("sort", True, body)
    values = lcg_values(n, 777)
    shifts = 0
    for i in range(1, n):
        key, j = values[i], i - 1
        while j >= 0 and values[j] > key:
            values[j + 1] = values[j]
            j -= 1
            shifts += 1
        values[j + 1] = key
    check = {"sorted": 1, "check": checksum(values), "done": 1}
    return (compute_project(p, ["seed", "i", "j", "k", "key", "sorted", "check", "done"], ["L"]),
            shifts, check)


def primes_warp():
    """Primes up to 30,000 by trial division, in a warp custom block."""
    limit = 30000
    p = Prog("p")
    p.top([p.flag(), p.call("count primes", True), p.set("done", 1)])
    p.define("count primes", True, [
        p.set("count", 0), p.set("n", 2),
        p.until(p.gt(p.v("n"), limit), [
            p.set("d", 2), p.set("prime", 1),
            p.until(p.gt(p.mul(p.v("d"), p.v("d")), p.v("n")), [
                p.if_(p.eq(p.mod(p.v("n"), p.v("d")), 0), [p.set("prime", 0), p.set("d", p.v("n"))]),
                p.change("d", 1)]),
            p.change("count", p.v("prime")),
            p.change("n", 1)])])
    count = steps = 0
    for n in range(2, limit + 1):
        d, prime = 2, 1
        while not d * d > n:
            if n % d == 0:
                prime, d = 0, n
            d += 1
            steps += 1
        count += prime
    return (compute_project(p, ["count", "n", "d", "prime", "done"]), steps,
            {"count": count, "done": 1})


def collatz_warp():
    """Collatz sequence lengths of 1..10,000, in a warp custom block."""
    starts = 10000
    p = Prog("z")
    p.top([p.flag(), p.call("collatz", True), p.set("done", 1)])
    p.define("collatz", True, [
        p.set("total", 0), p.set("longest", 0), p.set("start", 1),
        p.times(starts, [
            p.set("n", p.v("start")), p.set("len", 0),
            p.until(p.eq(p.v("n"), 1), [
                p.if_(p.eq(p.mod(p.v("n"), 2), 0), [p.set("n", p.div(p.v("n"), 2))],
                      [p.set("n", p.add(p.mul(p.v("n"), 3), 1))]),
                p.change("len", 1)]),
            p.change("total", p.v("len")),
            p.if_(p.gt(p.v("len"), p.v("longest")), [p.set("longest", p.v("len"))]),
            p.change("start", 1)])])
    total = longest = 0
    for start in range(1, starts + 1):
        n, length = start, 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else n * 3 + 1
            length += 1
        total += length
        longest = max(longest, length)
    return (compute_project(p, ["total", "longest", "start", "n", "len", "done"]), total,
            {"total": total, "longest": longest, "done": 1})


def strings_warp():
    """Builds 10,000 eight-letter words with `join` and `letter of`, reverses each the same
    way, and counts, in a warp custom block."""
    words = 10000
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    p = Prog("t")
    p.top([p.flag(), p.call("words", True), p.set("done", 1)])
    p.define("words", True, [
        p.set("alphabet", Text(alphabet)), p.set("k", 0), p.set("hits", 0), p.set("letters", 0),
        p.times(words, [
            p.set("w", Text("")),
            p.times(8, [
                p.set("w", p.join(p.v("w"), p.letter(p.add(p.mod(p.v("k"), 26), 1), p.v("alphabet")))),
                p.change("k", 7)]),
            p.set("r", Text("")), p.set("q", 1),
            p.times(p.strlen(p.v("w")), [
                p.set("r", p.join(p.letter(p.v("q"), p.v("w")), p.v("r"))),
                p.change("q", 1)]),
            p.if_(p.eq(p.letter(1, p.v("r")), Text("h")), [p.change("hits", 1)]),
            p.change("letters", p.strlen(p.v("r")))])])
    k = hits = letters = 0
    for _ in range(words):
        w = ""
        for _ in range(8):
            w += alphabet[k % 26]
            k += 7
        r = w[::-1]
        hits += r[0] == "h"
        letters += len(r)
    return (compute_project(p, ["alphabet", "k", "hits", "letters", "w", "r", "q", "done"]),
            words * 16, {"hits": hits, "letters": letters, "done": 1})


def compute_nowarp():
    """A compute loop without warp: 100,000 iterations of arithmetic, `mod` and an `if`, one
    per pass over the threads (1,000 per frame)."""
    n = 100000
    p = Prog("c")
    p.top([p.flag(), p.set("x", 0), p.set("acc", 0), p.set("hits", 0),
           p.times(n, [
               p.change("x", 1),
               p.set("acc", p.mod(p.add(p.mul(p.v("acc"), 31), p.mod(p.v("x"), 97)), 1000003)),
               p.if_(p.eq(p.mod(p.v("x"), 3), 0), [p.change("hits", 1)])]),
           p.set("done", 1)])
    acc = hits = 0
    for x in range(1, n + 1):
        acc = (acc * 31 + x % 97) % 1000003
        hits += x % 3 == 0
    return (compute_project(p, ["x", "acc", "hits", "done"]), n,
            {"acc": acc, "hits": hits, "done": 1})


# Compute workloads: (builder, max frames). Each builder returns the project, the iterations
# the figure counts and the end state to check; `main` writes them into workloads.json.
COMPUTE = {
    "sort_bubble_warp": (sort_bubble_warp, 10000),
    "sort_insertion_warp": (sort_insertion_warp, 10000),
    "primes_warp": (primes_warp, 10000),
    "collatz_warp": (collatz_warp, 10000),
    "strings_warp": (strings_warp, 10000),
    "compute_nowarp": (compute_nowarp, 100000),
}


class Lcg:
    """Deterministic choices for the large project (a 32-bit LCG; no OS randomness)."""

    def __init__(self, seed):
        self.state = seed

    def next(self, n):
        self.state = (self.state * 1664525 + 1013904223) & 0xFFFFFFFF
        return (self.state >> 8) % n


def large_project(sprite_count=25, scripts_per_sprite=10):
    """About 8,000 blocks of everyday kinds, for load and compile timings. Its scripts only
    start on a broadcast nobody sends, so loading it runs nothing."""
    rng = Lcg(7)
    effects = ["COLOR", "GHOST", "BRIGHTNESS", "WHIRL"]
    sprites = []
    broadcasts = {"bGo": "go", "bTick": "tick"}
    for k in range(sprite_count):
        s = Script("s%d_" % k)
        local = {"v%d_%d" % (k, j): ["local %d" % j, j] for j in range(3)}
        lids = list(local)

        def simple():
            c = rng.next(12)
            lid = lids[rng.next(len(lids))]
            lname = local[lid][0]
            if c == 0:
                return s.motion("motion_movesteps", "STEPS", rng.next(20))
            if c == 1:
                return s.motion("motion_turnright", "DEGREES", rng.next(90))
            if c == 2:
                return s.block("motion_gotoxy", inputs={"X": s.num(rng.next(400) - 200),
                                                        "Y": s.num(rng.next(300) - 150)})
            if c == 3:
                return s.block("looks_seteffectto", inputs={"VALUE": s.num(rng.next(100))},
                               fields={"EFFECT": [effects[rng.next(4)], None]})
            if c == 4:
                return s.block("looks_say", inputs={"MESSAGE": s.text("hello %d" % rng.next(99))})
            if c == 5:
                return s.change_var(lname, lid, rng.next(9) + 1)
            if c == 6:
                val = s.var(lname, lid)
                add = s.block("operator_add", inputs={"NUM1": s.slot(val), "NUM2": s.num(rng.next(50))})
                return s.set_var(lname, lid, s.slot(add, 10, ""))
            if c == 7:
                join = s.block("operator_join", inputs={"STRING1": s.text("x"),
                                                        "STRING2": s.slot(s.var(lname, lid), 10, "")})
                return s.block("data_addtolist", inputs={"ITEM": s.slot(join, 10, "")},
                               fields={"LIST": ["items %d" % k, "l%d" % k]})
            if c == 8:
                return s.block("looks_changesizeby", inputs={"CHANGE": s.num(rng.next(10) - 5)})
            if c == 9:
                return s.block("event_broadcast",
                               inputs={"BROADCAST_INPUT": [1, [11, "tick", "bTick"]]})
            if c == 10:
                return s.call("step %s", False, [s.text(rng.next(100))])
            return s.block("control_wait", inputs={"DURATION": s.num(0, 5)})

        def compound():
            c = rng.next(3)
            body = [simple() for _ in range(2 + rng.next(4))]
            if c == 0:
                return s.repeat(1 + rng.next(10), body)
            lid = lids[rng.next(len(lids))]
            cond = s.block("operator_gt", inputs={"OPERAND1": s.slot(s.var(local[lid][0], lid), 10, ""),
                                                  "OPERAND2": s.text(rng.next(50))})
            inputs = {"CONDITION": [2, cond], "SUBSTACK": s.substack(s.chain(body))}
            if c == 1:
                return s.block("control_if", inputs=inputs)
            other = [simple() for _ in range(1 + rng.next(3))]
            inputs["SUBSTACK2"] = s.substack(s.chain(other))
            return s.block("control_if_else", inputs=inputs)

        for j in range(scripts_per_sprite):
            hat = s.block("event_whenbroadcastreceived", fields={"BROADCAST_OPTION": ["go", "bGo"]})
            body = [compound() if rng.next(3) == 0 else simple() for _ in range(6 + rng.next(8))]
            s.top([hat] + body, 0, 200 * j)
        arg = s.block("argument_reporter_string_number", fields={"VALUE": ["n", None]})
        s.define("step %s", False, [s.block("motion_movesteps", inputs={"STEPS": s.slot(arg)})],
                 arg_names=["n"], y=200 * scripts_per_sprite)
        sprites.append(sprite("Sprite%d" % (k + 1), s.blocks, layer=k + 1, variables=local,
                              lists={"l%d" % k: ["items %d" % k, []]},
                              x=(k % 8) * 50 - 200, y=(k // 8) * 50 - 120))
    return project(sprites, variables={"vScore": ["score", 0]}, broadcasts=broadcasts)


WORKLOADS = {
    "loop1m_warp": loop1m_warp,
    "loop100k_nowarp": loop100k_nowarp,
    "clones300_move": clones300_move,
    "sprites100_motion": sprites100_motion,
    "trivial": trivial,
    "warp7_1m": warp7_1m,
    "large_project": large_project,
}


def write(name, proj):
    text = json.dumps(proj, separators=(",", ":"), ensure_ascii=False)
    with open(os.path.join(HERE, name + ".project.json"), "w", newline="\n") as f:
        f.write(text + "\n")
    blocks = sum(len(t["blocks"]) for t in json.loads(text)["targets"])
    print("%s: %d blocks, %d bytes" % (name, blocks, len(text) + 1))


def main():
    os.makedirs(os.path.join(HERE, "assets"), exist_ok=True)
    for svg in (BACKDROP, SPRITE):
        with open(os.path.join(HERE, "assets", md5(svg) + ".svg"), "w", newline="\n") as f:
            f.write(svg)
    for name, build in WORKLOADS.items():
        write(name, build())
    # The compute workloads' entries in workloads.json (iterations and checks computed here).
    listing = os.path.join(HERE, "workloads.json")
    with open(listing) as f:
        suite = json.load(f)
    entries = [w for w in suite["workloads"] if w["name"] not in COMPUTE]
    for name, (build, max_frames) in COMPUTE.items():
        proj, iterations, check = build()
        write(name, proj)
        entries.append({"name": name, "file": name + ".project.json", "mode": "until_idle",
                        "max_frames": max_frames, "iterations": iterations,
                        "unit": "iterations/s", "check": check})
    suite["workloads"] = entries
    with open(listing, "w", newline="\n") as f:
        f.write("{\n")
        f.write('  "about": %s,\n' % json.dumps(suite["about"]))
        for key in ("fps", "ticks_per_frame", "warp_checks", "seed"):
            f.write('  "%s": %s,\n' % (key, json.dumps(suite[key])))
        f.write('  "workloads": [\n')
        f.write(",\n".join("    " + json.dumps(w) for w in entries))
        f.write("\n  ]\n}\n")


if __name__ == "__main__":
    main()
