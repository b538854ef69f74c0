#!/usr/bin/env python3
"""Writes core/tests/fixtures/scratch/touching/project.json: 40 instances that move (bouncing at the edge), change
their whirl and ask `touching edge`, `touching Walker`, `touching Wall`, `touching color` and
`color is touching color` every frame (numbers only). core/tests/scratch_alloc.rs gives the
costumes their pixels and counts the allocations per frame."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scratch_golden_projects import B, Menu, Project, chg, flag, forever, if_, repeat  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core", "tests", "fixtures",
                   "scratch", "touching", "project.json")


def costume(name, n):
    return {"name": name, "bitmapResolution": 1, "dataFormat": "svg", "assetId": "%032x" % n,
            "md5ext": "%032x.svg" % n, "rotationCenterX": 10, "rotationCenterY": 10}


def touching(what):
    return B("sensing_touchingobject", {"TOUCHINGOBJECTMENU": Menu(
        "sensing_touchingobjectmenu", "TOUCHINGOBJECTMENU", what)})


def main():
    p = Project()
    p.stage.props["costumes"] = [costume("backdrop", 1)]
    for v in ("edge", "sprite", "wall", "color", "probe"):
        p.stage.var(v, 0)
    body = [B("motion_movesteps", {"STEPS": 7}), B("motion_turnright", {"DEGREES": 2}),
            B("looks_changeeffectby", {"CHANGE": 1}, {"EFFECT": "WHIRL"}),
            if_(touching("_edge_"), [chg("edge", 1), B("motion_ifonedgebounce")]),
            if_(touching("Walker"), [chg("sprite", 1)]),
            if_(touching("Wall"), [chg("wall", 1)]),
            if_(B("sensing_touchingcolor", {"COLOR": "#ff0000"}), [chg("color", 1)]),
            if_(B("sensing_coloristouchingcolor", {"COLOR": "#00ff00", "COLOR2": "#ff0000"}),
                [chg("probe", 1)])]
    w = p.sprite("Walker", costumes=[costume("walker", 2)], x=-100, y=0, direction=37)
    clone = B("control_create_clone_of", {"CLONE_OPTION": Menu(
        "control_create_clone_of_menu", "CLONE_OPTION", "_myself_")})
    w.script(flag(), repeat(39, [clone, B("motion_turnright", {"DEGREES": 9}),
                                 B("motion_movesteps", {"STEPS": 5})]), forever(body))
    w.script(B("control_start_as_clone"), forever(body))
    p.sprite("Wall", costumes=[costume("wall", 3)], x=-60, y=20)
    with open(OUT, "w") as f:
        json.dump(p.json(), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
