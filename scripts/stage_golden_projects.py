#!/usr/bin/env python3
"""Writes the stage-geometry goldens under hosts/host/tests/golden/stage/<name>/: project.json,
scenario.json and the costume assets (small SVGs and one PNG written here, named by their md5
as Scratch names assets). Blocks are built with the vocabulary of scratch_golden_projects.py.
Run by scripts/regen-stage-goldens.sh, which then traces each project with the browser
reference (../shared/refvm-browser: scratch-vm 5.0.300 + scratch-render 2.2.84).
"""
import hashlib
import json
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scratch_golden_projects import (B, Menu, Project, Var, chg, flag, forever, if_, join, repeat, say,  # noqa: E402
                                     setv, until, wait)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hosts", "host", "tests", "golden", "stage")


def svg(w, h, body, vb=None):
    vb = vb or "0 0 %s %s" % (w, h)
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="%s">%s</svg>'
            % (w, h, vb, body)).encode()


def png(w, h, pixel):
    """An RGBA PNG; pixel(x, y) gives (r, g, b, a)."""
    raw = b"".join(b"\0" + b"".join(bytes(pixel(x, y)) for x in range(w)) for y in range(h))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


ASSETS = {
    "box": (svg(40, 20, '<rect width="40" height="20" fill="#d33"/>'), 20, 10),
    "tri": (svg(60, 40, '<path d="M0 40 L30 0 L60 40 Z" fill="#3a3"/>'), 10, 30),
    "ball": (svg(30, 30, '<circle cx="15" cy="15" r="15" fill="#33d"/>'), 15, 15),
    "diamond": (svg(42, 42, '<path d="M21 0 L42 21 L21 42 L0 21 Z" fill="#c3c"/>'), 21, 21),
    "big": (svg(120, 90, '<rect x="0" y="0" width="120" height="90" fill="#fa0"/>'), 60, 45),
    "offset": (svg(50, 30, '<rect x="-10" y="5" width="50" height="20" fill="#0aa"/>', vb="-10 0 50 30"), 15, 15),
    "backdrop": (svg(480, 360, '<rect width="480" height="360" fill="#fff"/>'), 240, 180),
    # A 24 x 16 bitmap (12 x 8 stage units at resolution 2): an L shape, transparent elsewhere.
    # Distortion goldens: a wall sprite, a backdrop with a red band at stage x 140..160, a
    # two-colour probe (blue left, green right).
    "wall": (svg(20, 240, '<rect width="20" height="240" fill="#888"/>'), 10, 120),
    "redband": (svg(480, 360, '<rect width="480" height="360" fill="#fff"/>'
                              '<rect x="380" y="0" width="20" height="360" fill="#f00"/>'), 240, 180),
    "probe": (svg(30, 20, '<rect width="15" height="20" fill="#00f"/>'
                          '<rect x="15" width="15" height="20" fill="#0f0"/>'), 15, 10),
    # A root viewBox of zero size: scratch-render's empty skin.
    "flat": (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0 0">'
             b'<rect width="50" height="50" fill="#f00"/></svg>', 0, 0),
    "ell": (png(24, 16, lambda x, y: (20, 120, 220, 255) if x < 8 or y >= 10 else (0, 0, 0, 0)), 6, 8),
}


def costume(name, key):
    data, cx, cy = ASSETS[key]
    ext = "png" if data.startswith(b"\x89PNG") else "svg"
    md5 = hashlib.md5(data).hexdigest()
    c = {"name": name, "assetId": md5, "md5ext": "%s.%s" % (md5, ext), "dataFormat": ext,
         "rotationCenterX": cx, "rotationCenterY": cy}
    c["bitmapResolution"] = 2 if ext == "png" else 1
    return c


def sprite(p, name, keys, **props):
    return p.sprite(name, costumes=[costume(k, k) for k in keys], **props)


def new_project():
    p = Project()
    p.stage.props["costumes"] = [costume("backdrop", "backdrop")]
    return p


def move(n): return B("motion_movesteps", {"STEPS": n})
def turn(d): return B("motion_turnright", {"DEGREES": d})
def goto(x, y): return B("motion_gotoxy", {"X": x, "Y": y})
def setx(x): return B("motion_setx", {"X": x})
def sety(y): return B("motion_sety", {"Y": y})
def chx(d): return B("motion_changexby", {"DX": d})
def chy(d): return B("motion_changeyby", {"DY": d})
def glide(s, x, y): return B("motion_glidesecstoxy", {"SECS": s, "X": x, "Y": y})
def point(d): return B("motion_pointindirection", {"DIRECTION": d})
def bounce(): return B("motion_ifonedgebounce")
def style(s): return B("motion_setrotationstyle", fields={"STYLE": s})
def size(n): return B("looks_setsizeto", {"SIZE": n})
def chsize(n): return B("looks_changesizeby", {"CHANGE": n})
def front(): return B("looks_gotofrontback", fields={"FRONT_BACK": "front"})
def back(): return B("looks_gotofrontback", fields={"FRONT_BACK": "back"})
def layers(d, n): return B("looks_goforwardbackwardlayers", {"NUM": n}, {"FORWARD_BACKWARD": d})
def clone(): return B("control_create_clone_of", {"CLONE_OPTION": Menu("control_create_clone_of_menu", "CLONE_OPTION", "_myself_")})
def touching(what): return B("sensing_touchingobject", {"TOUCHINGOBJECTMENU": Menu("sensing_touchingobjectmenu", "TOUCHINGOBJECTMENU", what)})
def when_touching(what): return B("event_whentouchingobject", {"TOUCHINGOBJECTMENU": Menu("event_touchingobjectmenu", "TOUCHINGOBJECTMENU", what)})
def clicked(): return B("event_whenthisspriteclicked")
def effect(e, v): return B("looks_seteffectto", {"VALUE": v}, {"EFFECT": e})
def hide(): return B("looks_hide")
def show(): return B("looks_show")


def green(frames):
    return {"frames": frames, "seed": 1, "events": [{"frame": 0, "action": "green_flag"}]}


def motion_fence():
    p = new_project()
    m = sprite(p, "Mover", ["box"], x=-100, y=50, direction=70)
    m.script(flag(), forever([move(23), turn(11)]))
    j = sprite(p, "Jumper", ["tri"])
    j.script(flag(), goto(1000, 1000), wait(0.1), setx(-1000), chy(-2000), wait(0.1),
             glide(0.5, 400, -250), style("left-right"), point(-90), goto(500, 0), wait(0.1),
             style("don't rotate"), point(45), goto(-500, 400), chx(-3), chy(7))
    o = sprite(p, "Offset", ["offset"], x=200, y=-100, direction=-30)
    o.script(flag(), repeat(20, [chx(17), chy(-9), turn(-23)]))
    return p, green(40)


def bounce_all():
    p = new_project()
    t = sprite(p, "Tri", ["tri"], x=0, y=0, direction=30)
    t.script(flag(), forever([move(9), bounce()]))
    f = sprite(p, "Flip", ["box"], x=50, y=-40, direction=-60, size=150, rotationStyle="left-right")
    f.script(flag(), forever([move(12), bounce()]))
    b = sprite(p, "Ell", ["ell"], x=-80, y=20, direction=135, size=300)
    b.script(flag(), forever([move(8), bounce(), turn(3)]))
    d = sprite(p, "Dia", ["diamond"], x=100, y=100, direction=10, size=80, rotationStyle="don't rotate")
    d.script(flag(), forever([move(15), bounce()]))
    return p, green(120)


def size_layers():
    p = new_project()
    g = sprite(p, "Grow", ["box", "big"])
    g.script(flag(), size(5000), wait(0.1), size(1), wait(0.1), chsize(33.3), wait(0.1), size(250),
             B("looks_nextcostume"), size(5000), wait(0.1), size(-20))
    a = sprite(p, "A", ["ball"], x=-50)
    a.script(flag(), wait(0.1), front(), clone(), wait(0.1), clone(), layers("backward", 1))
    b = sprite(p, "B", ["ball"], x=0)
    b.script(flag(), wait(0.2), layers("backward", 1), wait(0.1), layers("forward", 3), back())
    c = sprite(p, "C", ["ball"], x=50)
    c.script(flag(), wait(0.3), layers("forward", 2), wait(0.1), back(), layers("forward", 1))
    return p, green(30)


def touching_all():
    p = new_project()
    p.stage.var("ballHit", -1)
    p.stage.var("edgeHit", -1)
    p.stage.var("ellHit", -1)
    p.stage.var("mouse", 0)
    p.stage.var("frame", 0)
    p.stage.var("hatHits", 0)
    p.stage.script(flag(), setv("frame", 0), forever([chg("frame", 1)]))
    box = sprite(p, "Box", ["diamond"], x=60, y=0, direction=30, size=150)
    box.script(flag(), forever([setv("mouse", touching("_mouse_"))]))
    ball = sprite(p, "Ball", ["ball"], x=-200, y=10)
    ball.script(flag(), until(touching("Box"), [chx(4)]), setv("ballHit", Var("frame")))
    ball.script(when_touching("Box"), chg("hatHits", 1))
    cl = sprite(p, "Climber", ["tri"], x=-150, y=-100, direction=20)
    cl.script(flag(), until(touching("_edge_"), [chy(5)]), setv("edgeHit", Var("frame")))
    ell = sprite(p, "Ell", ["ell"], x=200, y=-30, size=200, direction=-45)
    ell.script(flag(), until(touching("Ball"), [chx(-3)]), setv("ellHit", Var("frame")))
    sc = green(80)
    sc["events"] += [{"frame": 5, "action": "mouse_move", "x": 0, "y": 100},
                     {"frame": 10, "action": "mouse_move", "x": 60, "y": 0},
                     {"frame": 15, "action": "mouse_move", "x": 80, "y": 30},
                     {"frame": 20, "action": "mouse_move", "x": 200, "y": 150}]
    return p, sc


def clicks():
    p = new_project()
    for v in ("P", "Q", "G", "S"):
        p.stage.var("clicks" + v, 0)
    p.stage.script(B("event_whenstageclicked"), chg("clicksS", 1))
    big = sprite(p, "P", ["big"], x=-40, y=0)
    big.script(clicked(), chg("clicksP", 1))
    q = sprite(p, "Q", ["ball"], x=20, y=30, size=200)
    q.script(clicked(), chg("clicksQ", 1))
    g = sprite(p, "G", ["box"], x=-60, y=-20)
    g.script(flag(), effect("ghost", 100))
    g.script(clicked(), chg("clicksG", 1))
    h = sprite(p, "H", ["box"], x=150, y=-120, visible=False)
    h.script(clicked(), chg("clicksS", 100))
    sc = green(24)
    f = 2
    for (x, y) in [(30, 40), (0, 20), (-90, 30), (-60, -20), (150, -120), (200, 150), (-5, 44), (40, 60)]:
        sc["events"] += [{"frame": f, "action": "mouse_down", "x": x, "y": y},
                         {"frame": f + 1, "action": "mouse_up", "x": x, "y": y}]
        f += 2
    return p, sc


# Distortion effects (fisheye, whirl, pixelate, mosaic) at a few values each, as
# (effect, value) per lane.
DISTORTIONS = [("fisheye", 80), ("fisheye", -60), ("whirl", 90), ("whirl", 400),
               ("pixelate", 40), ("pixelate", 120), ("mosaic", 15), ("mosaic", 45)]


def distort_sprite():
    """Sprites with each distortion stepping right into a wall sprite; a plain ball into a
    distorted one."""
    p = new_project()
    p.stage.var("frame", 0)
    p.stage.script(flag(), setv("frame", 0), forever([chg("frame", 1)]))
    sprite(p, "Wall", ["wall"], x=130, y=35)
    for k, (e, v) in enumerate(DISTORTIONS):
        name = "%s%d" % (e.capitalize(), v)
        p.stage.var("hit" + name, -1)
        m = sprite(p, name, ["tri" if k % 2 == 0 else "diamond"], x=-150, y=145 - 30 * k,
                   direction=90 + 17 * k, size=70 + 20 * (k % 3))
        m.script(flag(), effect(e.upper(), v), until(touching("Wall"), [chx(3)]),
                 setv("hit" + name, Var("frame")))
    # The candidate is distorted: a plain ball walks into it.
    p.stage.var("hitBlob", -1)
    sprite(p, "Blob", ["tri"], x=60, y=-140, size=150).script(
        flag(), effect("WHIRL", 150), effect("FISHEYE", 60))
    b = sprite(p, "Ball", ["ball"], x=-200, y=-150)
    b.script(flag(), until(touching("Blob"), [chx(3)]), setv("hitBlob", Var("frame")))
    return p, green(110)


def distort_color():
    """Sprites with each distortion stepping right into a red band of the backdrop; a
    whirled two-colour probe asking `color green is touching red`."""
    p = Project()
    p.stage.props["costumes"] = [costume("redband", "redband")]
    p.stage.var("frame", 0)
    p.stage.script(flag(), setv("frame", 0), forever([chg("frame", 1)]))
    # One unit per frame, turned so that the band meets a part the effect moves.
    for k, (e, v) in enumerate(DISTORTIONS):
        name = "%s%d" % (e.capitalize(), v)
        p.stage.var("hit" + name, -1)
        m = sprite(p, name, ["tri" if k % 2 else "diamond"], x=60, y=150 - 32 * k,
                   direction=45 + 7 * k, size=60 + 25 * (k % 3))
        m.script(flag(), effect(e.upper(), v),
                 until(B("sensing_touchingcolor", {"COLOR": "#ff0000"}), [chx(1)]),
                 setv("hit" + name, Var("frame")))
    p.stage.var("hitProbe", -1)
    pr = sprite(p, "Probe", ["probe"], x=80, y=-120, size=150, direction=60)
    pr.script(flag(), effect("WHIRL", 120), until(
        B("sensing_coloristouchingcolor", {"COLOR": "#00ff00", "COLOR2": "#ff0000"}), [chx(1)]),
        setv("hitProbe", Var("frame")))
    # Large enough for the GPU path (150 x 150 query, two candidates).
    p.stage.var("hitBig", -1)
    big = sprite(p, "Big", ["diamond"], x=0, y=-95, size=300, direction=30)
    big.script(flag(), effect("FISHEYE", 70), effect("WHIRL", 60),
               until(B("sensing_touchingcolor", {"COLOR": "#ff0000"}), [chx(1)]),
               setv("hitBig", Var("frame")))
    return p, green(100)


def distort_edge_mouse():
    """Distorted sprites climbing to the top edge (bounds from the distorted hull), touching
    the mouse and clicks on a whirled, a fisheyed and a mosaic sprite."""
    p = new_project()
    p.stage.var("frame", 0)
    p.stage.script(flag(), setv("frame", 0), forever([chg("frame", 1)]))
    for k, (e, v) in enumerate(DISTORTIONS):
        name = "%s%d" % (e.capitalize(), v)
        p.stage.var("edge" + name, -1)
        c = sprite(p, name, ["tri" if k % 2 else "diamond"], x=-210 + 60 * k, y=-20,
                   direction=90 + 25 * k, size=80 + 20 * (k % 2))
        c.script(flag(), effect(e.upper(), v), until(touching("_edge_"), [chy(4)]),
                 setv("edge" + name, Var("frame")))
    p.stage.var("mouse", 0)
    p.stage.var("clicksSpin", 0)
    p.stage.var("clicksEye", 0)
    p.stage.var("clicksStage", 0)
    p.stage.script(B("event_whenstageclicked"), chg("clicksStage", 1))
    # A whirled triangle (120 x 80 around (-120, -110)) and a diamond with fisheye and mosaic
    # (126 x 126 around (110, -115)): their transparent parts move, so the mouse and clicks
    # at these points see the distorted shapes.
    spin = sprite(p, "Spin", ["tri"], x=-120, y=-110, size=200)
    spin.script(flag(), effect("WHIRL", 200), forever([setv("mouse", touching("_mouse_"))]))
    spin.script(clicked(), chg("clicksSpin", 1))
    eye = sprite(p, "Eye", ["diamond"], x=110, y=-115, size=300)
    eye.script(flag(), effect("FISHEYE", 150), effect("MOSAIC", 10))
    eye.script(clicked(), chg("clicksEye", 1))
    sc = green(100)
    f = 2
    for (x, y) in [(-170, -80), (-150, -100), (-135, -75), (-105, -75), (-90, -100), (-70, -80),
                   (-160, -140), (-120, -140), (-80, -140), (-175, -115), (-65, -115),
                   (-140, -90), (-100, -90), (-120, -72), (-150, -125), (-90, -125)]:
        sc["events"] += [{"frame": f, "action": "mouse_move", "x": x, "y": y}]
        f += 2
    f = 40
    for (x, y) in [(-165, -75), (-120, -110), (-80, -75), (60, -65), (160, -65), (60, -165),
                   (160, -165), (80, -85), (140, -145), (110, -115), (75, -115), (110, -80),
                   (-150, -140), (-95, -80), (145, -85), (85, -150)]:
        sc["events"] += [{"frame": f, "action": "mouse_down", "x": x, "y": y},
                         {"frame": f + 1, "action": "mouse_up", "x": x, "y": y}]
        f += 2
    return p, sc


def touch_bounds():
    """`touching color` whose area is decided by the fast bounds: large turned diamonds whose
    model box would take the GPU path while their hull (made current by `if on edge, bounce`)
    keeps it on the CPU, stepping one unit a frame into the red band."""
    p = Project()
    p.stage.props["costumes"] = [costume("redband", "redband")]
    p.stage.var("frame", 0)
    p.stage.script(flag(), setv("frame", 0), forever([chg("frame", 1)]))
    for k, (name, bounce_each, extra) in enumerate([("Hull", True, None), ("Box", False, None),
                                                     ("HullWhirl", True, ("WHIRL", 45)),
                                                     ("HullSmall", True, None)]):
        p.stage.var("hit" + name, -1)
        d = sprite(p, name, ["diamond"], x=20 if k != 3 else 60, y=120 - 85 * k,
                   direction=45 + 2 * k, size=300 if k != 3 else 180)
        pre = [effect(*extra)] if extra else []
        step = [chx(1)] + ([bounce()] if bounce_each else [])
        d.script(flag(), *pre, until(B("sensing_touchingcolor", {"COLOR": "#ff0000"}), step),
                 setv("hit" + name, Var("frame")))
    return p, green(110)


def empty_costume():
    """A costume whose SVG viewBox is 0 x 0: fenced as a point, touching nothing, bouncing,
    never clicked."""
    p = new_project()
    for v in ("edge", "touch", "clicks"):
        p.stage.var(v, -1 if v != "clicks" else 0)
    f = sprite(p, "Flat", ["flat", "ball"], x=0, y=0)
    f.script(flag(), goto(1000, 1000), wait(0.1), goto(0, 0), wait(0.1),
             setv("edge", touching("_edge_")), repeat(10, [move(30), bounce()]),
             B("looks_nextcostume"), goto(100, 100), B("looks_nextcostume"))
    f.script(clicked(), chg("clicks", 1))
    b = sprite(p, "Ball", ["ball"], x=-100, y=-20)
    b.script(flag(), repeat(40, [chx(5), if_(touching("Flat"), [setv("touch", B("motion_xposition"))])]))
    sc = green(40)
    sc["events"] += [{"frame": 30, "action": "mouse_down", "x": 100, "y": 100},
                     {"frame": 31, "action": "mouse_up", "x": 100, "y": 100}]
    return p, sc


def mouse_menu(opcode, field):
    return Menu(opcode, field, "_mouse_")


def mouse_undefined():
    """The mouse before the first mouse event (no Scratch position yet): `go to
    (mouse-pointer)` makes x and y undefined, then NaN under relative motion, unfenced at the
    next numeric move; `point towards` ignores the NaN direction, `distance to` is NaN,
    `glide to` and `go to x: (mouse x) y: (mouse y)` go to (0, 0); clones copy the position;
    touching, clicks, bounce and pen with such positions. The mouse moves at frame 36 and
    clicks at frame 40."""
    p = new_project()
    for v in ("gx", "gy", "gx2", "gy2", "gy3", "td", "td2", "mx", "my", "mj", "ofx", "cx", "cy",
              "edge", "edge2", "bounced", "tEdge", "tGoer", "tMouse", "tColor", "eTouch", "eColor",
              "lx", "ly", "gxe", "ofc", "ofcy", "fx", "fd", "clicksC", "clicksS"):
        p.stage.var(v, -1)
    p.extensions = ["pen"]
    go_mouse = lambda: B("motion_goto", {"TO": mouse_menu("motion_goto_menu", "TO")})
    xpos = lambda: B("motion_xposition")
    ypos = lambda: B("motion_yposition")
    # The bubble is said and cleared at once: the SAY event shows `undefined`, and the stage
    # PNGs have no bubble (gobo's bubble is an approximation, docs/stage.md).
    g = sprite(p, "Goer", ["box"], x=100, y=50)
    g.script(flag(), go_mouse(), setv("gx", xpos()), setv("gy", ypos()), say(xpos()), say(""), wait(0.1),
             chx(10), setv("gx2", xpos()), wait(0.1), setx(1000), setv("gy2", ypos()), wait(0.1),
             sety(0), wait(0.1), goto(1000, 1000), wait(0.1), go_mouse(), move(10), wait(0.1),
             goto(0, 500), wait(0.1), goto(0, 500), wait(0.5), go_mouse(), setv("gxe", xpos()))
    t = sprite(p, "Turner", ["ball"], x=-100, y=50, direction=45)
    t.script(flag(), B("motion_pointtowards", {"TOWARDS": mouse_menu("motion_pointtowards_menu", "TOWARDS")}),
             setv("td", B("sensing_distanceto", {"DISTANCETOMENU": mouse_menu("sensing_distancetomenu", "DISTANCETOMENU")})),
             setv("mx", B("sensing_mousex")), setv("my", B("sensing_mousey")),
             setv("mj", join(B("sensing_mousex"), "!")), wait(0.1), go_mouse(), turn(15),
             B("motion_pointtowards", {"TOWARDS": Menu("motion_pointtowards_menu", "TOWARDS", "XY")}),
             setv("td2", B("sensing_distanceto", {"DISTANCETOMENU": Menu("sensing_distancetomenu", "DISTANCETOMENU", "XY")})))
    gl = sprite(p, "Glider", ["box"], x=-150, y=-100)
    gl.script(flag(), B("motion_glideto", {"SECS": 0.2, "TO": mouse_menu("motion_glideto_menu", "TO")}),
              go_mouse(), glide(0.2, 50, -50), wait(0.1), goto(-150, -150))
    xy = sprite(p, "XY", ["ball"], x=150, y=-100)
    xy.script(flag(), wait(0.1), B("motion_gotoxy", {"X": B("sensing_mousex"), "Y": B("sensing_mousey")}))
    c = sprite(p, "Cloner", ["tri"], x=-150, y=120)
    c.script(flag(), go_mouse(), clone(), wait(0.1), B("control_delete_this_clone"))
    c.script(B("control_start_as_clone"), setv("cx", xpos()), chy(5), setv("cy", ypos()),
             wait(0.1), goto(-180, 130))
    # Never picked at its NaN position: the click at frame 40 reaches the stage.
    c.script(clicked(), chg("clicksC", 1))
    p.stage.script(B("event_whenstageclicked"), chg("clicksS", 1))
    e = sprite(p, "Edge", ["box"], x=0, y=100)
    e.script(flag(), wait(0.2), go_mouse(), sety(175), setv("edge", touching("_edge_")),
             setv("eTouch", touching("Toucher")),
             setv("eColor", B("sensing_touchingcolor", {"COLOR": "#3333dd"})),
             bounce(), setv("bounced", B("motion_direction")), setv("edge2", touching("_edge_")),
             wait(0.1), goto(0, -170))
    to = sprite(p, "Toucher", ["ball"], x=0, y=150)
    to.script(flag(), wait(0.25), setv("tEdge", touching("Edge")), setv("tGoer", touching("Goer")),
              setv("tMouse", touching("_mouse_")),
              setv("tColor", B("sensing_touchingcolor", {"COLOR": "#dd3333"})))
    pn = sprite(p, "Pen", ["tri"], x=-200, y=-150)
    pn.script(flag(), B("pen_penDown"), go_mouse(), move(20), goto(-200, -120), B("pen_stamp"),
              B("pen_penUp"))
    of = lambda who, prop: B("sensing_of", {"OBJECT": Menu("sensing_of_object_menu", "OBJECT", who)},
                             {"PROPERTY": prop})
    p.stage.script(flag(), wait(0.3), setv("ofx", of("Goer", "x position")),
                   setv("ofc", of("Cloner", "x position")), setv("ofcy", of("Cloner", "y position")))
    # Another sprite's undefined position: go to, point towards, distance to, glide to it.
    f = sprite(p, "Follower", ["ball"], x=120, y=120, direction=-30)
    f.script(flag(), wait(0.05), B("motion_goto", {"TO": Menu("motion_goto_menu", "TO", "Cloner")}),
             setv("fx", xpos()), wait(0.1), goto(120, 120),
             B("motion_pointtowards", {"TOWARDS": Menu("motion_pointtowards_menu", "TOWARDS", "Cloner")}),
             setv("fd", B("sensing_distanceto", {"DISTANCETOMENU": Menu("sensing_distancetomenu", "DISTANCETOMENU", "Cloner")})),
             B("motion_glideto", {"SECS": 0.1, "TO": Menu("motion_glideto_menu", "TO", "Cloner")}))
    la = sprite(p, "Late", ["ball"], x=200, y=-150)
    la.script(flag(), wait(1.25), go_mouse(), setv("lx", xpos()), setv("ly", B("sensing_mousey")))
    sc = green(50)
    sc["events"] += [{"frame": 36, "action": "mouse_move", "x": 50, "y": 60},
                     {"frame": 40, "action": "mouse_down", "x": 100, "y": -20},
                     {"frame": 41, "action": "mouse_up", "x": 100, "y": -20}]
    return p, sc


GOLDENS = {"motion_fence": motion_fence, "bounce": bounce_all, "size_layers": size_layers,
           "touching": touching_all, "clicks": clicks,
           "distort_sprite": distort_sprite, "distort_color": distort_color,
           "distort_edge_mouse": distort_edge_mouse, "touch_bounds": touch_bounds,
           "empty_costume": empty_costume, "mouse_undefined": mouse_undefined}


def main(names):
    for name in names or sorted(GOLDENS):
        project, scenario = GOLDENS[name]()
        out = os.path.join(ROOT, name)
        os.makedirs(out, exist_ok=True)
        data = project.json()
        for t in data["targets"]:
            for c in t["costumes"]:
                for key, (blob, _, _) in ASSETS.items():
                    if hashlib.md5(blob).hexdigest() == c["assetId"]:
                        with open(os.path.join(out, c["md5ext"]), "wb") as f:
                            f.write(blob)
        with open(os.path.join(out, "project.json"), "w") as f:
            json.dump(data, f, indent=1, ensure_ascii=False)
            f.write("\n")
        with open(os.path.join(out, "scenario.json"), "w") as f:
            json.dump(scenario, f, indent=1)
            f.write("\n")
        print("wrote", out)


if __name__ == "__main__":
    main(sys.argv[1:])
