#!/usr/bin/env python3
"""Writes the example projects of the test-suite format under examples/scratch/<name>/:
project.json (the working project) and broken.json (the same project with one block changed).
The suites (suite.json) are hand-written next to them. Uses the block vocabulary of
scripts/scratch_golden_projects.py. Run by scripts/regen-suite-traces.sh.
"""
import copy
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scratch_golden_projects import (B, Menu, Project, Var, ListRef, COSTUME, flag, setv, chg, add,  # noqa: E402
                                     op, cmp, wait, repeat, forever, if_, ifelse, say, bcast, when_recv, join)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "scratch")


def costumes(*names):
    out = []
    for n in names:
        c = dict(COSTUME)
        c["name"] = n
        out.append(c)
    return out


def key_hat(k): return B("event_whenkeypressed", fields={"KEY_OPTION": k})
def gotoxy(x, y): return B("motion_gotoxy", {"X": x, "Y": y})
def show(): return B("looks_show")
def hide(): return B("looks_hide")
def clone_me(): return B("control_create_clone_of", {"CLONE_OPTION": Menu("control_create_clone_of_menu", "CLONE_OPTION", "_myself_")})
def ask(q): return B("sensing_askandwait", {"QUESTION": q})
def answer(): return B("sensing_answer")


def keys(broken):
    """Keys, clicks, mouse, broadcasts and direct writes."""
    p = Project()
    s = p.stage
    s.props["costumes"] = costumes("day", "night")
    s.var("score", 0)
    s.var("pressed", "false")
    s.list("log")
    cat = p.sprite("Cat", costumes=costumes("c1", "c2"))
    pointer = p.sprite("Pointer")
    cat.script(flag(), setv("score", 0), B("data_deletealloflist", fields={"LIST": "log"}), gotoxy(0, 0),
               B("motion_pointindirection", {"DIRECTION": 90}),
               B("looks_switchcostumeto", {"COSTUME": Menu("looks_costume", "COSTUME", "c1")}), show())
    cat.script(key_hat("space"), chg("score", 1), add("log", Var("score")))
    cat.script(key_hat("right arrow"), B("motion_changexby", {"DX": 10}))
    cat.script(key_hat("up arrow"), B("motion_changeyby", {"DY": -10 if broken else 10}))
    cat.script(B("event_whenthisspriteclicked"), B("looks_nextcostume"), say("ouch"))
    cat.script(when_recv("reset"), setv("score", 100))
    s.script(flag(), B("looks_switchbackdropto", {"BACKDROP": Menu("looks_backdrops", "BACKDROP", "day")}))
    s.script(B("event_whenstageclicked"),
             B("looks_switchbackdropto", {"BACKDROP": Menu("looks_backdrops", "BACKDROP", "night")}))
    pointer.script(flag(), forever([B("motion_goto", {"TO": Menu("motion_goto_menu", "TO", "_mouse_")}),
                                    setv("pressed", B("sensing_mousedown"))]))
    return p


def quiz(broken):
    """Questions and answers, says and thinks, broadcasts."""
    p = Project()
    s = p.stage
    s.props["costumes"] = costumes("quiz", "end")
    s.var("score", 0)
    t = p.sprite("Teacher")
    right = 8 if broken else 7
    t.script(flag(), setv("score", 0), ask("What is 3 + 4?"),
             ifelse(cmp("equals", answer(), right), [say("correct"), chg("score", 1)], [say("wrong")]),
             wait(0.5), ask("What is your name?"),
             B("looks_sayforsecs", {"MESSAGE": join("Hello ", answer()), "SECS": 1}),
             B("looks_think", {"MESSAGE": "done"}), bcast("finished"))
    s.script(flag(), B("looks_switchbackdropto", {"BACKDROP": Menu("looks_backdrops", "BACKDROP", "quiz")}))
    s.script(when_recv("finished"),
             B("looks_switchbackdropto", {"BACKDROP": Menu("looks_backdrops", "BACKDROP", "end")}))
    return p


def timing(broken):
    """Blinking, gliding, growing and clones: intervals, monotonic sequences, extents."""
    p = Project()
    lamp = p.sprite("Lamp")
    ball = p.sprite("Ball")
    spawner = p.sprite("Spawner")
    lamp.script(flag(), show(), wait(1), hide(), wait(3 if broken else 2), show())
    ball.script(flag(), gotoxy(-100, 0), B("looks_setsizeto", {"SIZE": 100}),
                repeat(20, [B("motion_changexby", {"DX": 5}), B("looks_changesizeby", {"CHANGE": 2.5})]))
    spawner.script(flag(), hide(), repeat(3, [clone_me(), wait(0.1)]))
    spawner.script(B("control_start_as_clone"), show(),
                   B("looks_seteffectto", {"VALUE": 50}, {"EFFECT": "GHOST"}))
    return p


EXAMPLES = {"keys": keys, "quiz": quiz, "timing": timing}


def main(names):
    for name in names or sorted(EXAMPLES):
        out = os.path.join(ROOT, name)
        os.makedirs(out, exist_ok=True)
        for broken, file in ((False, "project.json"), (True, "broken.json")):
            with open(os.path.join(out, file), "w") as f:
                json.dump(EXAMPLES[name](broken).json(), f, indent=1, ensure_ascii=False)
                f.write("\n")
        print("wrote", out)
    # The costumes the examples ship (assets/<md5>.svg), drawn by scripts/example_costumes.py.
    subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                 "example_costumes.py")], check=True)


if __name__ == "__main__":
    main(sys.argv[1:])
