#!/usr/bin/env python3
"""Writes the .sb2 archive of every Scratch 2 trace golden under hosts/host/tests/golden/sb2/.

The projects are small and hand-designed, written directly in the Scratch 2 format (scripts are
nested arrays `[selector, arg, ...]`), with tiny assets of our own (a square SVG, a 2x2 PNG
backdrop, a silent WAV) stored as `<baseLayerID>.<ext>` / `<soundID>.wav` like the Scratch 2
editor stores them. Run by scripts/regen-sb2-goldens.sh, which traces each archive with the
reference harness (scratch-vm 5.0.300 loading it with its own sb2 deserializer). Scripts stay
away from the stage edges, so costume geometry plays no part. The archives are deterministic.
"""
import hashlib
import json
import os
import struct
import sys
import zipfile
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hosts", "host", "tests", "golden", "sb2")

SVG = (b'<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" viewBox="0 0 20 20">'
       b'<rect width="20" height="20" fill="#f80"/></svg>')
SVG_B = SVG.replace(b"#f80", b"#08f")
SVG_C = SVG.replace(b"#f80", b"#0a0")


def png(w, h, rgb):
    raw = b"".join(b"\x00" + bytes(rgb) * w for _ in range(h))
    chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


PNG_DAY = png(2, 2, (255, 255, 255))
PNG_NIGHT = png(2, 2, (0, 0, 40))
# 0.1 s of silence, 8-bit mono at 8000 Hz.
WAV = (b"RIFF" + struct.pack("<I", 36 + 800) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, 8000, 8000, 1, 8)
       + b"data" + struct.pack("<I", 800) + b"\x80" * 800)
# Archive members by baseLayerID / soundID (as the Scratch 2 editor numbers them).
FILES = {"0.png": PNG_DAY, "4.png": PNG_NIGHT, "1.svg": SVG, "2.svg": SVG_B, "3.svg": SVG_C, "0.wav": WAV}


def md5ext(name):
    ext = name.split(".")[1]
    return hashlib.md5(FILES[name]).hexdigest() + "." + ext


def costume(name, layer_id, ext="svg", cx=10, cy=10):
    return {"costumeName": name, "baseLayerID": layer_id, "baseLayerMD5": md5ext(f"{layer_id}.{ext}"),
            "bitmapResolution": 1, "rotationCenterX": cx, "rotationCenterY": cy}


SOUND = {"soundName": "pop", "soundID": 0, "md5": md5ext("0.wav"), "sampleCount": 800, "rate": 8000,
         "format": ""}


def sprite(name, scripts, index, x=0, y=0, variables=None, lists=None, **extra):
    s = {"objName": name, "variables": variables or [], "lists": lists or [], "scripts": scripts,
         "sounds": [SOUND], "costumes": [costume("a", 1), costume("b", 2), costume("c", 3)],
         "currentCostumeIndex": 0, "scratchX": x, "scratchY": y, "scale": 1, "direction": 90,
         "rotationStyle": "normal", "isDraggable": False, "indexInLibrary": index, "visible": True,
         "spriteInfo": {}}
    s.update(extra)
    return s


def stage(children, scripts=(), variables=(), lists=(), name="Stage", **extra):
    s = {"objName": name, "variables": list(variables), "lists": list(lists), "scripts": list(scripts),
         "sounds": [SOUND], "costumes": [costume("backdrop1", 0, "png", 240, 180),
                                         costume("night", 4, "png", 240, 180)],
         "currentCostumeIndex": 0, "penLayerMD5": "5c81a336fab8be57adc039a8a2b33ca9.png", "penLayerID": 0,
         "tempoBPM": 60, "videoAlpha": 0.5, "children": children,
         "info": {"userAgent": "gobo golden", "videoOn": False, "spriteCount": 0, "scriptCount": 0}}
    s.update(extra)
    return s


def var(name, value):
    return {"name": name, "value": value, "isPersistent": False}


def lst(name, items, **extra):
    d = {"listName": name, "contents": items, "isPersistent": False, "x": 5, "y": 5,
         "width": 100, "height": 100, "visible": False}
    d.update(extra)
    return d


def watcher(target, cmd, param, visible=True, mode=1):
    return {"target": target, "cmd": cmd, "param": param, "color": 15629590, "label": str(param),
            "mode": mode, "sliderMin": 0, "sliderMax": 100, "isDiscrete": True, "x": 5, "y": 5,
            "visible": visible}


def script(*blocks, x=10, y=10):
    return [x, y, list(blocks)]


# Block coverage: operators, data, control, looks and motion away from the edges, events with
# mixed-case and empty broadcast names, sensing of other targets, time.
BLOCKS = stage(
    variables=[var("score", 0), var("text", "hello")],
    lists=[lst("items", ["a", 2, "3.5"])],
    scripts=[
        script(["whenGreenFlag"],
               ["setVar:to:", "score", ["+", 2, ["*", 3, 4]]],
               ["changeVar:by:", "score", ["-", 1.5, "0.25"]],
               ["setVar:to:", "text", ["concatenate:with:", "x", ["letter:of:", 2, "world"]]],
               ["append:toList:", ["stringLength:", ["readVariable", "text"]], "items"],
               ["insert:at:ofList:", "first", 1, "items"],
               ["setLine:ofList:to:", "last", "items", "z"],
               ["deleteLine:ofList:", 2, "items"],
               ["doIfElse", ["list:contains:", "items", "z"],
                [["setVar:to:", "text", ["getLine:ofList:", "last", "items"]]],
                [["setVar:to:", "text", "no"]]],
               ["setVar:to:", "score", ["computeFunction:of:", "sqrt", ["%", 50, 7]]],
               ["setVar:to:", "score", ["rounded", ["/", ["readVariable", "score"], 3]]],
               ["broadcast:", "Go"],
               ["doBroadcastAndWait", ""],
               ["startScene", "night"],
               ["setVar:to:", "text", ["concatenate:with:", ["sceneName"], ["backgroundIndex"]]]),
        script(["whenIReceive", ""], ["changeVar:by:", "score", 100], x=300),
        script(["whenSceneStarts", "night"], ["changeVar:by:", "score", 1000], x=300, y=200),
        script(["whenClicked"], ["setVar:to:", "text", "stage clicked"], x=500),
    ],
    children=[
        sprite("Mover", [
            script(["whenIReceive", "GO"],
                   ["gotoX:y:", 10, 20],
                   ["turnRight:", 30],
                   ["forward:", 12],
                   ["changeXposBy:", -3],
                   ["ypos:", ["+", ["ypos"], 4]],
                   ["heading:", ["-", ["heading"], 45]],
                   ["lookLike:", "c"],
                   ["nextCostume"],
                   ["setGraphicEffect:to:", "ghost", 30],
                   ["changeGraphicEffect:by:", "color", 15],
                   ["say:", ["concatenate:with:", ["costumeName"], ["costumeIndex"]]],
                   ["doRepeat", 3, [["changeSizeBy:", 10], ["wait:elapsed:from:", 0.1]]],
                   ["think:duration:elapsed:from:", "hm", 0.2],
                   ["hide"],
                   ["show"],
                   ["comeToFront"],
                   ["goBackByLayers:", 1],
                   ["setVar:to:", "where", ["getAttribute:of:", "x position", "Helper"]],
                   ["setVar:to:", "bg", ["getAttribute:of:", "background #", "Stage"]]),
            script(["whenKeyPressed", "space"], ["say:", ["keyPressed:", "space"]], x=300),
        ], 2, variables=[var("where", ""), var("bg", "")]),
        sprite("Helper", [
            script(["whenGreenFlag"],
                   ["xpos:", -50],
                   ["doUntil", [">", ["xpos"], -20], [["changeXposBy:", 7]]],
                   ["say:duration:elapsed:from:", ["timeAndDate", "year"], 0.5],
                   ["setVar:to:", "local", ["timestamp"]],
                   ["doWaitUntil", ["=", ["readVariable", "score"], ["readVariable", "score"]]],
                   ["createCloneOf", "_myself_"]),
            script(["whenCloned"], ["changeYposBy:", -30], ["deleteClone"], x=300),
            script(["whenClicked"], ["setVar:to:", "local", "sprite clicked"], x=300, y=200),
        ], 1, x=-50, y=40, variables=[var("local", 0)]),
    ])

# Custom blocks: arguments of every kind, defaults, recursion, run without screen refresh, an
# argument reporter in a boolean slot, calls with missing arguments.
PROCEDURES = stage(
    variables=[var("out", ""), var("n", 0)],
    children=[
        sprite("Caller", [
            script(["whenGreenFlag"],
                   ["call", "count %n times %s with %b", 3, "ab", ["=", 1, 1]],
                   ["call", "count %n times %s with %b"],
                   ["call", "fact %n", 5],
                   ["call", "fast %n", 200],
                   ["call", "missing block %s", "nothing"]),
            script(["procDef", "count %n times %s with %b", ["times", "what", "flag"], [1, "", False], False],
                   ["doRepeat", ["getParam", "times", "r"],
                    [["setVar:to:", "out", ["concatenate:with:", ["readVariable", "out"], ["getParam", "what", "r"]]]]],
                   ["doIf", ["getParam", "flag", "b"], [["setVar:to:", "out", ["concatenate:with:", ["readVariable", "out"], "!"]]]],
                   ["doIf", ["getParam", "times", "r"], [["setVar:to:", "out", ["concatenate:with:", ["readVariable", "out"], "?"]]]],
                   x=300),
            script(["procDef", "fact %n", ["k"], [1], False],
                   ["doIfElse", ["<", ["getParam", "k", "r"], 2],
                    [["setVar:to:", "n", 1]],
                    [["call", "fact %n", ["-", ["getParam", "k", "r"], 1]],
                     ["setVar:to:", "n", ["*", ["readVariable", "n"], ["getParam", "k", "r"]]]]],
                   x=300, y=300),
            script(["procDef", "fast %n", ["m"], [1], True],
                   ["doRepeat", ["getParam", "m", "r"], [["changeVar:by:", "n", 1]]],
                   ["say:", ["readVariable", "n"]],
                   x=300, y=600),
        ], 1),
    ])

# Names and order: a stage not called "Stage", a sprite variable named like a global one, list
# and variable watchers, sprites listed in another order than their layers, integer-like and
# duplicate-case broadcast names, "stop other scripts in stage".
NAMES = stage(
    name="Bühne",
    variables=[var("shared", 1), var("g", 0)],
    lists=[lst("log", [])],
    scripts=[
        script(["whenGreenFlag"],
               ["broadcast:", "2"], ["broadcast:", "b"], ["broadcast:", "1"], ["broadcast:", "B"],
               ["wait:elapsed:from:", 0.2],
               ["doForever", [["changeVar:by:", "g", 1], ["wait:elapsed:from:", 0.1]]]),
        script(["whenIReceive", "stop"], ["stopScripts", "other scripts in stage"],
               ["append:toList:", "stopped", "log"], x=300),
    ],
    children=[
        sprite("Back", [
            script(["whenIReceive", "1"], ["append:toList:", ["concatenate:with:", "back ", ["readVariable", "shared"]], "log"]),
            script(["whenIReceive", "b"], ["setVar:to:", "shared", "back local"], ["broadcast:", "STOP"], x=300),
        ], 3, variables=[var("shared", "mine")]),
        watcher("Bühne", "getVar:", "g"),
        sprite("Front", [
            script(["whenIReceive", "2"], ["append:toList:", ["concatenate:with:", "front ", ["readVariable", "shared"]], "log"]),
            script(["whenGreenFlag"], ["goBackByLayers:", 1], ["append:toList:", "front back", "log"], x=300),
        ], 1),
        {"listName": "log", "contents": [], "isPersistent": False, "x": 5, "y": 50, "width": 100,
         "height": 200, "visible": True},
        sprite("Middle", [
            script(["whenGreenFlag"], ["say:", ["readVariable", "shared"]], ["comeToFront"]),
        ], 2),
        watcher("Front", "xpos", None),
        watcher("Bühne", "timer", None, visible=False),
    ])

PROJECTS = {"blocks": BLOCKS, "procedures": PROCEDURES, "names": NAMES}

SCENARIOS = {
    "blocks": {"frames": 90, "seed": 3, "events": [
        {"frame": 0, "action": "green_flag"},
        {"frame": 20, "action": "key_down", "key": "space"},
        {"frame": 22, "action": "key_up", "key": "space"},
        {"frame": 40, "action": "click_sprite", "name": "Stage"},
        {"frame": 45, "action": "click_sprite", "name": "Helper"},
        {"frame": 50, "action": "broadcast", "message": "go"}]},
    "procedures": {"frames": 30, "seed": 1, "events": [{"frame": 0, "action": "green_flag"}]},
    "names": {"frames": 40, "seed": 1, "events": [{"frame": 0, "action": "green_flag"}]},
}


def write_sb2(path, project):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        def put(name, data):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
        put("project.json", json.dumps(project, indent=1, ensure_ascii=False).encode("utf-8"))
        for name in sorted(FILES):
            put(name, FILES[name])


def main(names):
    for name, project in PROJECTS.items():
        if names and name not in names:
            continue
        d = os.path.join(ROOT, name)
        os.makedirs(d, exist_ok=True)
        write_sb2(os.path.join(d, "project.sb2"), project)
        with open(os.path.join(d, "scenario.json"), "w") as f:
            json.dump(SCENARIOS[name], f, indent=1)
            f.write("\n")
        print(d)


if __name__ == "__main__":
    main(sys.argv[1:])
