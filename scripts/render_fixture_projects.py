#!/usr/bin/env python3
"""Writes the small Scratch projects of the stage-render and touching-colour tests under
hosts/cli/tests/fixtures/render/<name>/ (project.json + hand-written SVG/PNG costumes).

Run by scripts/regen-render-goldens.sh, which then asks refvm-browser for the reference PNGs
and traces. Every costume here is authored in this file.
"""
import hashlib
import json
import os
import struct
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hosts", "cli", "tests",
                    "fixtures", "render")


def svg(w, h, body):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}">{body}</svg>').encode()


def png(w, h, pixel):
    """An RGBA PNG; pixel(x, y) -> (r, g, b, a)."""
    raw = b"".join(b"\0" + b"".join(bytes(pixel(x, y)) for x in range(w)) for y in range(h))

    def chunk(kind, data):
        c = kind + data
        return struct.pack(">I", len(data)) + c + struct.pack(">I", zlib.crc32(c) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


class Project:
    def __init__(self, name):
        self.name, self.targets, self.assets, self.n = name, [], {}, 0

    def costume(self, name, data, kind, cx, cy, res=1):
        md5 = hashlib.md5(data).hexdigest()
        self.assets[f"{md5}.{kind}"] = data
        return {"name": name, "assetId": md5, "md5ext": f"{md5}.{kind}", "dataFormat": kind,
                "bitmapResolution": res, "rotationCenterX": cx, "rotationCenterY": cy}

    def block(self, blocks, opcode, inputs=None, fields=None, shadow=False):
        self.n += 1
        bid = f"b{self.n}"
        blocks[bid] = {"opcode": opcode, "next": None, "parent": None, "inputs": inputs or {},
                       "fields": fields or {}, "shadow": shadow, "topLevel": False}
        return bid

    def script(self, blocks, stack):
        """stack: list of (opcode, {input: value}, {field: value}); values are numbers,
        strings, ('color', '#rrggbb'), ('menu', opcode, field, value) or ('block', spec)."""
        ids = []
        for spec in stack:
            ids.append(self.spec(blocks, spec))
        for a, b in zip(ids, ids[1:]):
            blocks[a]["next"], blocks[b]["parent"] = b, a
        blocks[ids[0]].update(topLevel=True, x=0, y=0)
        return ids[0]

    def spec(self, blocks, spec):
        opcode, inputs, fields = (list(spec) + [{}, {}])[:3]
        fields = {k: ([v, f"v{v}"] if k == "VARIABLE" else [v, None]) for k, v in fields.items()}
        bid = self.block(blocks, opcode, fields=fields)
        for name, v in inputs.items():
            if isinstance(v, tuple) and v[0] == "color":
                blocks[bid]["inputs"][name] = [1, [9, v[1]]]
            elif isinstance(v, tuple) and v[0] == "menu":
                m = self.block(blocks, v[1], fields={v[2]: [v[3], None]}, shadow=True)
                blocks[m]["parent"] = bid
                blocks[bid]["inputs"][name] = [1, m]
            elif isinstance(v, tuple) and v[0] == "block":
                inner = self.spec(blocks, v[1])
                blocks[inner]["parent"] = bid
                blocks[bid]["inputs"][name] = [2, inner]
            elif isinstance(v, tuple) and v[0] == "substack":
                first = None
                prev = None
                for s in v[1]:
                    k = self.spec(blocks, s)
                    if prev is None:
                        first = k
                        blocks[k]["parent"] = bid
                    else:
                        blocks[prev]["next"], blocks[k]["parent"] = k, prev
                    prev = k
                blocks[bid]["inputs"][name] = [2, first]
            elif name in ("CONDITION", "OPERAND1", "OPERAND2") and opcode in (
                    "control_repeat_until", "operator_or", "operator_and"):
                raise ValueError(name)
            else:
                blocks[bid]["inputs"][name] = [1, [4, str(v)]]
        return bid

    def stage(self, costumes, scripts=(), variables=None):
        blocks = {}
        for s in scripts:
            self.script(blocks, s)
        self.targets.insert(0, {
            "isStage": True, "name": "Stage", "variables": variables or {}, "lists": {},
            "broadcasts": {}, "blocks": blocks, "comments": {}, "currentCostume": 0,
            "costumes": costumes, "sounds": [], "volume": 100, "layerOrder": 0, "tempo": 60,
            "videoTransparency": 50, "videoState": "on", "textToSpeechLanguage": None})

    def sprite(self, name, costumes, x=0, y=0, direction=90, size=100, visible=True,
               rotation="all around", scripts=(), costume=0):
        blocks = {}
        for s in scripts:
            self.script(blocks, s)
        self.targets.append({
            "isStage": False, "name": name, "variables": {}, "lists": {}, "broadcasts": {},
            "blocks": blocks, "comments": {}, "currentCostume": costume, "costumes": costumes,
            "sounds": [], "volume": 100, "layerOrder": len(self.targets), "visible": visible,
            "x": x, "y": y, "size": size, "direction": direction, "draggable": False,
            "rotationStyle": rotation})

    def write(self):
        d = os.path.join(ROOT, self.name)
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            if f.endswith((".svg", ".png")) and not f.startswith("ref-"):
                os.remove(os.path.join(d, f))
        for k, v in self.assets.items():
            with open(os.path.join(d, k), "wb") as f:
                f.write(v)
        meta = {"semver": "3.0.0", "vm": "0.2.0", "agent": "gobo render fixtures"}
        with open(os.path.join(d, "project.json"), "w") as f:
            json.dump({"targets": self.targets, "monitors": [], "extensions": ["pen"],
                       "meta": meta}, f, indent=1)
            f.write("\n")


FLAG = ("event_whenflagclicked",)
GRID = svg(480, 360, '<rect width="480" height="360" fill="#f4f0e6"/>'
           '<rect x="0" y="179" width="480" height="2" fill="#c8c8d8"/>'
           '<rect x="239" y="0" width="2" height="360" fill="#c8c8d8"/>')
WHITE = svg(480, 360, '<rect width="480" height="360" fill="#ffffff"/>')
# An asymmetric arrow: shows direction, flips and the rotation centre.
ARROW = svg(40, 30, '<rect x="0" y="8" width="26" height="14" fill="#2a7de1"/>'
            '<path d="M26 0 L40 15 L26 30 Z" fill="#e1462a"/>')
QUAD = svg(40, 40, '<rect width="20" height="20" fill="#ff0000"/>'
           '<rect x="20" width="20" height="20" fill="#00c000"/>'
           '<rect y="20" width="20" height="20" fill="#0000ff"/>'
           '<rect x="20" y="20" width="20" height="20" fill="#ffd800"/>'
           '<rect x="17" y="0" width="6" height="40" fill="#202020"/>')
SQUARE = svg(60, 60, '<rect width="60" height="60" fill="#d03030"/>')
CIRCLE = svg(50, 50, '<circle cx="25" cy="25" r="25" fill="#3050d0"/>')


def checker(x, y):
    return (255, 140, 0, 255) if (x // 4 + y // 4) % 2 == 0 else (40, 40, 40, 255)


def placement():
    p = Project("placement")
    p.stage([p.costume("grid", GRID, "svg", 240, 180)])
    arrow = lambda: [p.costume("arrow", ARROW, "svg", 10, 15)]
    p.sprite("A", arrow(), x=-150, y=110)
    p.sprite("B", arrow(), x=-50, y=110, direction=45)
    p.sprite("C", arrow(), x=50, y=110, direction=-90, rotation="left-right")
    p.sprite("D", arrow(), x=150, y=110, direction=180, size=150)
    p.sprite("E", arrow(), x=-150, y=20, direction=-30, rotation="don't rotate", size=60)
    p.sprite("F", [p.costume("checker", png(16, 16, checker), "png", 8, 8)],
             x=-40, y=20, direction=30, size=200)
    p.sprite("G", [p.costume("checker2", png(16, 16, checker), "png", 16, 16, res=2)],
             x=60, y=20, size=300)
    p.sprite("Back", [p.costume("square", SQUARE, "svg", 30, 30)], x=0, y=-100,
             scripts=[[FLAG, ("looks_gotofrontback", {}, {"FRONT_BACK": "front"})]])
    p.sprite("Front", [p.costume("circle", CIRCLE, "svg", 25, 25)], x=25, y=-85)
    p.sprite("Hidden", [p.costume("square", SQUARE, "svg", 30, 30)], x=150, y=-100,
             visible=False)
    p.sprite("Moved", arrow(), x=0, y=0, scripts=[[
        FLAG, ("motion_gotoxy", {"X": 170, "Y": -60}), ("motion_turnright", {"DEGREES": 100}),
        ("looks_changesizeby", {"CHANGE": 30})]])
    p.write()


def effects():
    p = Project("effects")
    p.stage([p.costume("white", WHITE, "svg", 240, 180)])
    quad = lambda: [p.costume("quad", QUAD, "svg", 20, 20)]
    cases = [("color", 50), ("fisheye", 60), ("whirl", 90), ("pixelate", 20),
             ("mosaic", 20), ("brightness", 40), ("ghost", 50), ("brightness", -60)]
    for k, (eff, v) in enumerate(cases):
        x = -180 + (k % 4) * 120
        y = 80 if k < 4 else -80
        p.sprite(f"{eff}{k}", quad(), x=x, y=y, size=200, scripts=[[
            FLAG, ("looks_seteffectto", {"VALUE": v}, {"EFFECT": eff.upper()})]])
    p.write()


def pen():
    p = Project("pen")
    p.stage([p.costume("white", WHITE, "svg", 240, 180)])
    steps = [FLAG, ("pen_clear",), ("motion_gotoxy", {"X": -200, "Y": 150}), ("pen_penDown",)]
    for k, size in enumerate([1, 2, 3, 5, 10, 25]):
        steps += [("pen_setPenSizeTo", {"SIZE": size}),
                  ("pen_setPenColorParamTo", {"COLOR_PARAM": ("menu", "pen_menu_colorParam",
                                                              "colorParam", "color"),
                                              "VALUE": k * 15}),
                  ("motion_gotoxy", {"X": -200 + 60 * k, "Y": 150 - 25 * k - 30}),
                  ("motion_gotoxy", {"X": -170 + 60 * k, "Y": 150 - 25 * k})]
    steps += [("pen_penUp",), ("motion_gotoxy", {"X": 100, "Y": 100}),
              ("pen_setPenColorToColor", {"COLOR": ("color", "#00a0ff")}),
              ("pen_setPenSizeTo", {"SIZE": 30}), ("pen_penDown",), ("pen_penUp",),
              ("pen_setPenColorParamTo", {"COLOR_PARAM": ("menu", "pen_menu_colorParam",
                                                          "colorParam", "transparency"),
                                          "VALUE": 60}),
              ("pen_setPenColorToColor", {"COLOR": ("color", "#ff3000")}),
              ("pen_setPenSizeTo", {"SIZE": 12}),
              ("motion_gotoxy", {"X": 60, "Y": 60}), ("pen_penDown",),
              ("motion_gotoxy", {"X": 180, "Y": 130}), ("pen_penUp",),
              ("pen_changePenSizeBy", {"SIZE": 4}),
              ("pen_setPenShadeToNumber", {"SHADE": 30}),
              ("motion_gotoxy", {"X": -150, "Y": -100}), ("pen_penDown",),
              ("motion_turnright", {"DEGREES": 37}), ("motion_movesteps", {"STEPS": 100}),
              ("pen_penUp",), ("motion_gotoxy", {"X": 120, "Y": -60}),
              ("motion_pointindirection", {"DIRECTION": 120}), ("looks_setsizeto", {"SIZE": 150}),
              ("pen_stamp",), ("motion_gotoxy", {"X": 120, "Y": -130}), ("looks_hide",)]
    p.sprite("Pen", [p.costume("arrow", ARROW, "svg", 10, 15)], scripts=[steps])
    p.write()


WALLS = svg(480, 360, '<rect width="480" height="360" fill="#ffffff"/>'
            '<rect x="380" y="0" width="24" height="360" fill="#ff0000"/>'
            '<rect x="0" y="300" width="480" height="14" fill="#3cb4a0"/>')
BLUE = svg(20, 20, '<rect width="20" height="20" fill="#0000ff"/>')
PROBE = svg(24, 16, '<rect width="12" height="16" fill="#0000ff"/>'
            '<rect x="12" width="12" height="16" fill="#00ff00"/>')
BAR = svg(30, 8, '<rect width="30" height="8" fill="#ff00ff"/>')
DISC = svg(40, 40, '<circle cx="20" cy="20" r="20" fill="#ffaa00"/>')


def mover(p, name, costume, x, y, dx, until, setup=(), dy=0, limit=120):
    """A sprite that starts at (x, y) and steps (dx, dy) until `until` (a condition spec)
    or `limit` steps, then records its x in the stage variable `name`."""
    step = [("motion_changexby", {"DX": dx})] if dx else []
    step += [("motion_changeyby", {"DY": dy})] if dy else []
    return [FLAG, ("motion_gotoxy", {"X": x, "Y": y}), *setup,
            ("control_repeat_until", {
                "CONDITION": ("block", ("operator_or", {
                    "OPERAND1": ("block", until),
                    "OPERAND2": ("block", ("operator_gt", {
                        "OPERAND1": ("block", ("motion_xposition",)),
                        "OPERAND2": 230}))})),
                "SUBSTACK": ("substack", step)}),
            ("data_setvariableto", {"VALUE": ("block", ("motion_xposition",))},
             {"VARIABLE": name})]


def touching(color):
    return ("sensing_touchingcolor", {"COLOR": ("color", color)})


def touch_color():
    p = Project("touch_color")
    names = ["plain", "turned", "big", "ghost", "tinted", "probe", "penwall", "onsprite",
             "scaled"]
    p.stage([p.costume("walls", WALLS, "svg", 240, 180)],
            variables={f"v{n}": [n, ""] for n in names})
    blue = lambda: [p.costume("blue", BLUE, "svg", 10, 10)]
    red = "#ff0000"
    p.sprite("Plain", blue(), scripts=[mover(p, "plain", None, -200, 150, 7, touching(red))])
    p.sprite("Turned", blue(), scripts=[mover(p, "turned", None, -200, 110, 6, touching(red),
                                              setup=[("motion_pointindirection",
                                                      {"DIRECTION": 30})])])
    p.sprite("Big", [p.costume("disc", DISC, "svg", 20, 20)], size=300,
             scripts=[mover(p, "big", None, -150, 20, 9, touching(red))])
    p.sprite("Ghost", blue(), scripts=[mover(p, "ghost", None, -200, -40, 5, touching(red),
                                             setup=[("looks_seteffectto", {"VALUE": 70},
                                                     {"EFFECT": "GHOST"})])])
    # Colour effect 100 turns blue into red-ish: the wall is still what is touched.
    p.sprite("Tinted", blue(), scripts=[mover(p, "tinted", None, -200, -70, 8, touching(red),
                                              setup=[("looks_seteffectto", {"VALUE": 100},
                                                      {"EFFECT": "COLOR"})])])
    p.sprite("Probe", [p.costume("probe", PROBE, "svg", 12, 8)], scripts=[mover(
        p, "probe", None, -200, -100, 7,
        ("sensing_coloristouchingcolor", {"COLOR": ("color", "#00ff00"),
                                          "COLOR2": ("color", red)}))])
    # A pen line (magenta) drawn by the Painter; PenWall moves up into it.
    p.sprite("Painter", [p.costume("bar", BAR, "svg", 15, 4)], visible=False, scripts=[[
        FLAG, ("pen_setPenColorToColor", {"COLOR": ("color", "#8000ff")}),
        ("pen_setPenSizeTo", {"SIZE": 6}), ("motion_gotoxy", {"X": 40, "Y": -150}),
        ("pen_penDown",), ("motion_gotoxy", {"X": 200, "Y": -120}), ("pen_penUp",)]])
    p.sprite("PenWall", blue(), scripts=[mover(p, "penwall", None, 120, -175, 0,
                                               touching("#8000ff"), dy=2)])
    # Touching another sprite's colour (the magenta bar, rotated).
    p.sprite("Bar", [p.costume("bar", BAR, "svg", 15, 4)], x=60, y=60, direction=60, size=200)
    p.sprite("OnSprite", blue(), scripts=[mover(p, "onsprite", None, -100, 60, 3,
                                                touching("#ff00ff"))])
    # Scaled down, moving down into the teal band (stage y -120..-134).
    p.sprite("Scaled", blue(), size=35, scripts=[mover(p, "scaled", None, -220, -60, 0,
                                                       touching("#3cb4a0"), dy=-1)])
    p.write()


GREEN_BAR = svg(40, 100, '<rect width="40" height="100" fill="#00b000"/>')
RED_SQ = svg(30, 30, '<rect width="30" height="30" fill="#ff0000"/>')


def touch_layers():
    """Occlusion and visibility: what touching colour samples, front to back."""
    p = Project("touch_layers")
    names = ["shielded", "ghosted", "hidden", "clone"]
    p.stage([p.costume("walls", WALLS, "svg", 240, 180)],
            variables={f"v{n}": [n, ""] for n in names})
    blue = lambda: [p.costume("blue", BLUE, "svg", 10, 10)]
    red = lambda: [p.costume("red", RED_SQ, "svg", 15, 15)]
    p.sprite("M1", blue(), scripts=[mover(p, "shielded", None, -200, 100, 7, touching("#ff0000"))])
    p.sprite("M2", blue(), scripts=[mover(p, "ghosted", None, -200, 0, 5, touching("#ff0000"))])
    p.sprite("M3", blue(), scripts=[mover(p, "hidden", None, -200, -60, 5, touching("#ff0000"))])
    p.sprite("M4", blue(), scripts=[mover(p, "clone", None, -200, -100, 4, touching("#ff0000"))])
    # In front of the wall where M1 passes: the wall is hidden behind green.
    p.sprite("Shield", [p.costume("bar", GREEN_BAR, "svg", 20, 50)], x=152, y=100)
    p.sprite("GhostRed", red(), x=0, y=0, scripts=[[
        FLAG, ("looks_seteffectto", {"VALUE": 50}, {"EFFECT": "GHOST"})]])
    p.sprite("HiddenRed", red(), x=-50, y=-60, visible=False)
    p.sprite("Cloner", red(), x=-60, y=-140, visible=False, scripts=[
        [FLAG, ("control_create_clone_of", {"CLONE_OPTION": ("menu", "control_create_clone_of_menu",
                                                             "CLONE_OPTION", "_myself_")})],
        [("control_start_as_clone",), ("motion_gotoxy", {"X": -60, "Y": -100}),
         ("looks_show",)]])
    p.write()


def main():
    placement()
    effects()
    pen()
    touch_color()
    touch_layers()


if __name__ == "__main__":
    main()
