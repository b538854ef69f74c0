#!/usr/bin/env python3
"""Writes the Bug Forge's test corpus under tests-support/forge-corpus/<name>/: small
classroom-style Scratch projects (pong, a maze with colour walls, a clicker, a quiz, a clone
shooter, a countdown, a costume animation, broadcast-driven scenes, a game with lives and game
over, ...), some with custom blocks, each with its costumes as SVG files in assets/ (named by
md5, as Scratch names them). Between them every Bug Forge operator has a site.
Uses the block vocabulary of scripts/scratch_golden_projects.py.
"""
import hashlib
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scratch_golden_projects import (B, Menu, Project, Var, flag, setv, chg, cmp, op, wait,  # noqa: E402
                                     repeat, forever, if_, ifelse, until, wait_until, stop, say, bcast,
                                     bcast_wait, when_recv, join, call, arg)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests-support", "forge-corpus")


def svg(w, h, body):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
            f'viewBox="0 0 {w} {h}">{body}</svg>\n')


def rect(w, h, colour):
    return svg(w, h, f'<rect width="{w}" height="{h}" fill="{colour}"/>')


def circle(r, colour):
    return svg(2 * r, 2 * r, f'<circle cx="{r}" cy="{r}" r="{r}" fill="{colour}"/>')


ASSETS = {}


def costume(name, text):
    md5 = hashlib.md5(text.encode()).hexdigest()
    ASSETS[md5 + ".svg"] = text
    w = int(text.split('width="')[1].split('"')[0])
    h = int(text.split('height="')[1].split('"')[0])
    return {"name": name, "bitmapResolution": 1, "dataFormat": "svg", "assetId": md5,
            "md5ext": md5 + ".svg", "rotationCenterX": w // 2, "rotationCenterY": h // 2}


def key_hat(k): return B("event_whenkeypressed", fields={"KEY_OPTION": k})
def gotoxy(x, y): return B("motion_gotoxy", {"X": x, "Y": y})
def show(): return B("looks_show")
def hide(): return B("looks_hide")
def xpos(): return B("motion_xposition")
def ypos(): return B("motion_yposition")
def costume_to(c): return B("looks_switchcostumeto", {"COSTUME": Menu("looks_costume", "COSTUME", c)})
def backdrop_to(c): return B("looks_switchbackdropto", {"BACKDROP": Menu("looks_backdrops", "BACKDROP", c)})
def touching(s): return B("sensing_touchingobject", {"TOUCHINGOBJECTMENU": Menu("sensing_touchingobjectmenu", "TOUCHINGOBJECTMENU", s)})
def touching_colour(c): return B("sensing_touchingcolor", {"COLOR": c})
def clone_of(s): return B("control_create_clone_of", {"CLONE_OPTION": Menu("control_create_clone_of_menu", "CLONE_OPTION", s)})
def goto(s): return B("motion_goto", {"TO": Menu("motion_goto_menu", "TO", s)})
def ask(q): return B("sensing_askandwait", {"QUESTION": q})
def answer(): return B("sensing_answer")
def clicked(): return B("event_whenthisspriteclicked")
def change_x(d): return B("motion_changexby", {"DX": d})
def change_y(d): return B("motion_changeyby", {"DY": d})
def move(n): return B("motion_movesteps", {"STEPS": n})
def point(d): return B("motion_pointindirection", {"DIRECTION": d})
def bounce(): return B("motion_ifonedgebounce")
def stop_all(): return stop("all")
def define(t, proccode, argnames, body):
    t.define(proccode, argnames, body)


def pong():
    p = Project()
    s = p.stage
    s.props["costumes"] = [costume("court", rect(480, 360, "#1a6b3a"))]
    s.var("score", 0)
    s.var("lives", 3)
    ball = p.sprite("Ball", costumes=[costume("ball", circle(10, "#ffffff"))])
    paddle = p.sprite("Paddle", costumes=[costume("paddle", rect(100, 16, "#ffcc00"))])
    ball.script(flag(), setv("score", 0), setv("lives", 3), gotoxy(0, 100), point(135),
                forever([move(8), bounce(),
                         if_(touching("Paddle"), [point(op("subtract", 180, B("motion_direction"))),
                                                 chg("score", 1), change_y(10)]),
                         if_(cmp("lt", ypos(), -165), [chg("lives", -1), gotoxy(0, 100), point(135)]),
                         if_(cmp("lt", Var("lives"), 1), [bcast("game over"), stop("this script")])]))
    paddle.script(flag(), gotoxy(0, -150), show())
    paddle.script(key_hat("left arrow"), change_x(-30))
    paddle.script(key_hat("right arrow"), change_x(30))
    paddle.script(when_recv("game over"), hide())
    return p


def maze():
    p = Project()
    s = p.stage
    s.props["costumes"] = [costume("maze", svg(480, 360, '<rect width="480" height="360" fill="#ffffff"/>'
                                                '<rect x="200" y="0" width="20" height="260" fill="#0000ff"/>'))]
    s.var("steps", 0)
    player = p.sprite("Player", costumes=[costume("dot", circle(8, "#ff0000"))])
    goal = p.sprite("Goal", costumes=[costume("flag", rect(20, 20, "#00aa00"))])
    for k, dx, dy in (("right arrow", 10, 0), ("left arrow", -10, 0), ("up arrow", 0, 10), ("down arrow", 0, -10)):
        player.script(key_hat(k), change_x(dx), change_y(dy), chg("steps", 1),
                      if_(touching_colour("#0000ff"), [change_x(-dx), change_y(-dy)]))
    player.script(flag(), setv("steps", 0), gotoxy(-30, 0), show(),
                  wait_until(touching("Goal")), bcast("win"))
    goal.script(flag(), gotoxy(60, 0))
    goal.script(when_recv("win"), say("You win!"))
    return p


def clicker():
    p = Project()
    s = p.stage
    s.var("clicks", 0)
    s.var("level", 1)
    cookie = p.sprite("Cookie", costumes=[costume("big", circle(40, "#c68642")), costume("small", circle(34, "#c68642"))])
    cookie.script(flag(), setv("clicks", 0), setv("level", 1), costume_to("big"))
    cookie.script(clicked(), chg("clicks", 1), costume_to("small"), wait(0.1), costume_to("big"),
                  if_(cmp("gt", Var("clicks"), 2), [setv("level", 2)]))
    return p


def quiz():
    p = Project()
    s = p.stage
    s.props["costumes"] = [costume("question", rect(480, 360, "#fff3c4")), costume("results", rect(480, 360, "#c4e1ff"))]
    s.var("score", 0)
    teacher = p.sprite("Teacher", costumes=[costume("t", rect(40, 80, "#884488"))])
    teacher.script(flag(), setv("score", 0), backdrop_to("question"), ask("What is 2 + 3?"),
                   ifelse(cmp("equals", answer(), 5), [say("Correct!"), chg("score", 1)], [say("Wrong")]),
                   wait(0.5), ask("Say hello"),
                   if_(cmp("equals", answer(), "hello"), [chg("score", 1)]),
                   bcast_wait("results"), say(join("Score: ", Var("score"))))
    s.script(when_recv("results"), backdrop_to("results"))
    return p


def shooter():
    p = Project()
    s = p.stage
    s.var("shots", 0)
    ship = p.sprite("Ship", costumes=[costume("ship", rect(30, 20, "#cccccc"))])
    bullet = p.sprite("Bullet", costumes=[costume("b", rect(4, 10, "#ff4400"))])
    ship.script(flag(), setv("shots", 0), gotoxy(0, -140))
    ship.script(key_hat("space"), clone_of("Bullet"), chg("shots", 1))
    bullet.script(flag(), hide())
    bullet.script(B("control_start_as_clone"), goto("Ship"), show(),
                  until(cmp("gt", ypos(), 170), [change_y(12)]), B("control_delete_this_clone"))
    return p


def countdown():
    p = Project()
    s = p.stage
    s.var("time", 5)
    clock = p.sprite("Clock", costumes=[costume("face", circle(30, "#eeeeee"))])
    clock.script(flag(), setv("time", 5), show(),
                 until(cmp("lt", Var("time"), 1), [wait(1), chg("time", -1), say(Var("time"))]),
                 say("Time's up!"), bcast("time up"))
    s.script(when_recv("time up"), B("looks_changeeffectby", {"CHANGE": 25}, {"EFFECT": "COLOR"}))
    return p


def animation():
    p = Project()
    bird = p.sprite("Bird", costumes=[costume("up", rect(40, 20, "#3366ff")), costume("down", rect(40, 30, "#3366ff")),
                                      costume("rest", rect(30, 30, "#3366ff"))])
    bird.script(flag(), costume_to("up"), B("looks_setsizeto", {"SIZE": 100}), gotoxy(-200, 0),
                repeat(30, [B("looks_nextcostume"), change_x(10), wait(0.2)]), costume_to("rest"))
    bird.script(clicked(), hide(), wait(0.5), show())
    return p


def scenes():
    p = Project()
    s = p.stage
    s.props["costumes"] = [costume("title", rect(480, 360, "#000000")), costume("forest", rect(480, 360, "#228822")),
                           costume("castle", rect(480, 360, "#888888"))]
    s.var("scene", 0)
    hero = p.sprite("Hero", costumes=[costume("hero", rect(30, 50, "#aa5500"))])
    s.script(flag(), setv("scene", 0), backdrop_to("title"), wait(1), bcast_wait("forest"),
             bcast_wait("castle"), bcast("the end"))
    s.script(when_recv("forest"), backdrop_to("forest"), setv("scene", 1))
    s.script(when_recv("castle"), backdrop_to("castle"), setv("scene", 2))
    hero.script(when_recv("forest"), say("What a forest!"), wait(1))
    hero.script(when_recv("castle"), gotoxy(100, 0), say("A castle!"), wait(1))
    hero.script(when_recv("the end"), say(join("The end, scene ", Var("scene"))))
    hero.script(flag(), gotoxy(-100, 0), show())
    return p


def lives():
    p = Project()
    s = p.stage
    s.props["costumes"] = [costume("play", rect(480, 360, "#ddeeff")), costume("over", rect(480, 360, "#330000"))]
    s.var("lives", 3)
    player = p.sprite("Player", costumes=[costume("p", circle(12, "#00cc00"))])
    enemy = p.sprite("Enemy", costumes=[costume("e", circle(12, "#cc0000"))])
    player.var("hit", 0)
    define(player, "lose a life", [], [chg("lives", -1), setv("hit", 1), wait(0.5), setv("hit", 0)])
    player.script(flag(), setv("lives", 3), gotoxy(0, 0), show(), backdrop_to("play"),
                  forever([if_(touching("Enemy"), [call(p, "lose a life"), gotoxy(0, 0)]),
                           if_(cmp("lt", Var("lives"), 1), [bcast("game over"), stop("this script")])]))
    player.script(key_hat("left arrow"), change_x(-20))
    player.script(key_hat("right arrow"), change_x(20))
    enemy.script(flag(), gotoxy(150, 0), forever([B("motion_glidesecstoxy", {"SECS": 1, "X": -150, "Y": 0}),
                                                  B("motion_glidesecstoxy", {"SECS": 1, "X": 150, "Y": 0})]))
    player.script(when_recv("game over"), hide(), say("Game over"))
    s.script(when_recv("game over"), backdrop_to("over"))
    return p


def catch():
    p = Project()
    s = p.stage
    s.var("caught", 0)
    s.var("missed", 0)
    bowl = p.sprite("Bowl", costumes=[costume("bowl", rect(70, 20, "#996633"))])
    apple = p.sprite("Apple", costumes=[costume("apple", circle(10, "#dd0000"))])
    define(apple, "drop from %s", ["x"], [gotoxy(arg("x"), 170), show()])
    bowl.script(flag(), setv("caught", 0), setv("missed", 0), gotoxy(0, -150))
    bowl.script(key_hat("left arrow"), change_x(-40))
    bowl.script(key_hat("right arrow"), change_x(40))
    apple.script(flag(), hide(), repeat(4, [clone_of("_myself_"), wait(1)]))
    apple.script(B("control_start_as_clone"), call(p, "drop from %s", 0),
                 until(cmp("lt", ypos(), -160), [change_y(-8),
                                                if_(touching("Bowl"), [chg("caught", 1), B("control_delete_this_clone")])]),
                 chg("missed", 1), B("control_delete_this_clone"))
    return p


def traffic():
    p = Project()
    s = p.stage
    s.var("cycles", 0)
    light = p.sprite("Light", costumes=[costume("red", circle(20, "#ff0000")), costume("amber", circle(20, "#ffaa00")),
                                        costume("green", circle(20, "#00ff00"))])
    define(light, "show %s for %s", ["c", "t"], [B("looks_switchcostumeto", {"COSTUME": arg("c")}), wait(arg("t"))])
    light.script(flag(), setv("cycles", 0), costume_to("red"),
                 repeat(3, [call(p, "show %s for %s", "green", 1), call(p, "show %s for %s", "amber", 0.5),
                            call(p, "show %s for %s", "red", 1), chg("cycles", 1)]),
                 if_(cmp("equals", Var("cycles"), 3), [say("done")]))
    return p


def dance():
    p = Project()
    s = p.stage
    s.var("moves", 0)
    s.var("energy", 10)
    dancer = p.sprite("Dancer", costumes=[costume("a", rect(30, 60, "#aa00aa")), costume("b", rect(60, 30, "#aa00aa"))])
    define(dancer, "dance %s times", ["n"], [repeat(arg("n"), [B("looks_nextcostume"), B("motion_turnright", {"DEGREES": 15}),
                                                            wait(0.1)]), chg("moves", 1)])
    dancer.script(flag(), setv("moves", 0), setv("energy", 10), point(90), costume_to("a"))
    dancer.script(key_hat("space"), if_(cmp("gt", Var("energy"), 0), [chg("energy", -1), call(p, "dance %s times", 2)]))
    dancer.script(key_hat("d"), if_(op("and", cmp("gt", Var("energy"), 5), cmp("lt", Var("moves"), 20)),
                                    [call(p, "dance %s times", 1)]))
    return p


def racer():
    p = Project()
    s = p.stage
    s.var("lap", 0)
    car = p.sprite("Car", costumes=[costume("car", rect(40, 20, "#0055ff"))])
    car.script(flag(), setv("lap", 0), gotoxy(-200, 0), show(),
               repeat(3, [until(cmp("gt", xpos(), 200), [change_x(15)]), gotoxy(-200, 0), chg("lap", 1)]),
               if_(cmp("gt", Var("lap"), 2), [say("Finished!"), stop_all()]))
    return p


PROJECTS = {"pong": pong, "maze": maze, "clicker": clicker, "quiz": quiz, "shooter": shooter,
            "countdown": countdown, "animation": animation, "scenes": scenes, "lives": lives, "catch": catch,
            "traffic": traffic, "dance": dance, "racer": racer}


def fix(project_json):
    """Comparison operands holding reporters keep an empty text shadow (as the editor writes
    them); colour inputs are colour primitives."""
    for t in project_json["targets"]:
        for b in t["blocks"].values():
            if b["opcode"] in ("operator_lt", "operator_gt", "operator_equals"):
                for k in ("OPERAND1", "OPERAND2"):
                    v = b["inputs"].get(k)
                    if v and v[0] == 2 and isinstance(v[1], str):
                        b["inputs"][k] = [3, v[1], [10, ""]]
            if b["opcode"] == "sensing_touchingcolor":
                b["inputs"]["COLOR"] = [1, [9, b["inputs"]["COLOR"][1][1]]]
    return project_json


def main():
    for name, build in PROJECTS.items():
        ASSETS.clear()
        out = os.path.join(ROOT, name)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(os.path.join(out, "assets"))
        pj = fix(build().json())
        for t in pj["targets"]:
            if t["costumes"][0]["assetId"] == "00000000000000000000000000000000":
                t["costumes"] = [costume("c1", rect(20, 20, "#808080"))]
        with open(os.path.join(out, "project.json"), "w") as f:
            json.dump(pj, f, indent=1)
            f.write("\n")
        for file, text in ASSETS.items():
            with open(os.path.join(out, "assets", file), "w") as f:
                f.write(text)
        print("wrote", out)


if __name__ == "__main__":
    main()
