#!/usr/bin/env python3
"""Writes gobo suites for ScratchWorld's create, debug and extend tasks
(benchmarks/scratchworld/<category>/<task>.json and <task>.strict.json) and their manifest
entries. Each suite is our own translation of what the task's evaluation script does
(docs/benchmarks.md, ../shared/agent-loop/SCRATCHWORLD-EVAL.md): the same stimuli on virtual
time, the same reads and thresholds. `compat` keeps the script's behaviour (cases share one VM,
so each compat case first replays the earlier cases' inputs); `strict` checks the task's intent
from a fresh project. Run from the repository root: python3 scripts/scratchworld_suites.py
"""

import json
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BENCH = os.path.join(ROOT, "benchmarks", "scratchworld")

EPS = 1e-6


# ---------------------------------------------------------------- step helpers
def gf():
    return {"do": "green_flag"}


def stop():
    return {"do": "stop_all"}


def wait(s):
    return {"wait": s}


def frames(n):
    return {"wait": {"frames": n}}


def mark(m):
    return {"mark": m}


def expect(c):
    return {"expect": c}


def until(c, timeout, required=True):
    w = {"until": c, "timeout": timeout}
    if not required:
        w["required"] = False
    return {"wait": w}


def click(s):
    return {"do": "click", "sprite": s}


def press(keys, secs):
    """Keys down together, held `secs`, released (the scripts' pressOneOf / simulateKeyPress)."""
    out = [{"do": "key_down", "key": k} for k in keys]
    out.append(wait(secs))
    out += [{"do": "key_up", "key": k} for k in keys]
    return out


def set_xy(s, x=None, y=None, direction=None):
    d = {"do": "set_sprite", "sprite": s}
    if x is not None:
        d["x"] = x
    if y is not None:
        d["y"] = y
    if direction is not None:
        d["direction"] = direction
    return d


def prop(s, p):
    return {"sprite": s, "property": p}


def pos(s):
    return {"sprite": s, "property": "position"}


def changed(probe, frm, to=None, by=None):
    c = {"changed": probe, "from": frm}
    if to:
        c["to"] = to
    if by is not None:
        c["by"] = by
    return c


def series(track, measure, since=None, **num):
    c = {"series": track, "measure": measure, **num}
    if since:
        c["since"] = since
    return c


def start(wait_before=0.16, wait_after=0.5):
    """The scripts' beforeCase: stopAll, a pause, startVM (stopAll + green flag), a pause."""
    return [stop(), wait(wait_before), gf(), wait(wait_after)]


# ---------------------------------------------------------------- suites
def case(name, steps, timeout=None, answers=None):
    c = {"name": name}
    if timeout:
        c["timeout"] = timeout
    if answers:
        c["answers"] = answers
    c["steps"] = steps
    return c


def stimuli(steps):
    """A case's steps without its checks: what a compat case replays of the earlier cases."""
    out = []
    for s in steps:
        if "expect" in s:
            continue
        if "wait" in s and isinstance(s["wait"], dict) and "until" in s["wait"]:
            s = {"wait": dict(s["wait"], required=False)}
        if "repeat" in s:
            s = dict(s, required=False)
        out.append(s)
    return out


def carried(cases):
    """Compat: the scripts run every case on one VM, so case k starts where case k-1 ended."""
    out = []
    prefix = []
    for c in cases:
        steps = prefix + c["steps"]
        out.append(dict(c, steps=steps, timeout=round(10 + total_time(steps) * 1.5, 2)))
        prefix = prefix + stimuli(c["steps"])
    return out


def total_time(steps):
    t = 0.0
    for s in steps:
        w = s.get("wait")
        if isinstance(w, (int, float)):
            t += w
        elif isinstance(w, dict):
            t += w.get("seconds", 0) + w.get("frames", 0) / 30 + w.get("timeout", 0)
        if "repeat" in s:
            t += total_time(s["repeat"]) * s["max"]
    return t


TASKS = {}


def task(category, name, compat, strict=None, compat_lacks=None, strict_lacks=None, carry=True,
         note=None):
    TASKS[name] = dict(category=category, compat=compat, strict=strict, compat_lacks=compat_lacks,
                       strict_lacks=strict_lacks, carry=carry)


# ---- create ------------------------------------------------------------------------------
def say_hello():
    first_say = {"says": {"regex": "^"}, "sprite": "Sprite1"}
    compat = [case("sprite1_says_exact_hello_on_green_flag",
                   [stop(), wait(0.12), gf(), until(first_say, 2),
                    expect({"says": "hello", "sprite": "Sprite1"})], timeout=5)]
    strict = [case("sprite1_says_exact_hello_on_green_flag",
                   [gf(), until({"says": "hello", "sprite": "Sprite1"}, 2)], timeout=5)]
    task("create", "say_hello", compat, strict,
         compat_lacks=["the script judges Sprite1's first SAY event only; a bubble cleared "
                       "(empty SAY) before 'hello' fails it, gobo skips empty texts"])


def multi_scene_story():
    bd = {"backdrop": True}
    c1 = case("next_button_changes_backdrop",
              start(0.16, 0.5) + [mark("i"), click("Next"), wait(0.6),
                                  expect(changed(bd, "i"))], timeout=20)
    c2 = case("previous_button_returns_to_prior_backdrop",
              start(0.16, 0.5) + [mark("i"), click("Next"), wait(0.5), mark("n"),
                                  click("Previous"), wait(0.7),
                                  expect(changed(bd, "i", "n")),
                                  expect({"not": changed(bd, "i")})], timeout=20)
    task("create", "multi_scene_story", [c1, c2], [c1, c2])


def bouncing_cat():
    cat = ["Sprite1", "Cat", "cat"]

    def motion(secs):
        return [stop(), wait(0.1), gf(), wait(0.2), mark("m"), wait(secs)]
    x = prop(cat, "x")
    d = prop(cat, "direction")
    c1 = case("sprite_moves_horizontally_after_green_flag",
              motion(3.5) + [expect({"ever": {"not": changed(x, "m", by={"min": -20, "max": 20})},
                                     "since": {"mark": "m", "include_mark": True}})], timeout=20)
    c2 = case("sprite_bounces_off_right_edge",
              motion(6.5) + [expect({"sequence": [{"sprite": cat, "direction": 90},
                                                  {"sprite": cat, "direction": -90}],
                                     "since": "m"})], timeout=20)
    c3 = case("sprite_bounces_off_left_edge",
              motion(6.5) + [expect({"sequence": [{"sprite": cat, "direction": -90},
                                                  {"sprite": cat, "direction": 90}],
                                     "since": "m"})], timeout=20)
    c4 = case("sprite_faces_movement_direction_after_bounce",
              motion(6.5) + [expect(series(x, "changes", "m", min=6)),
                             expect({"fraction": {"any": [{"sprite": cat, "direction": 90},
                                                          {"sprite": cat, "direction": -90}]},
                                     "min": 0.7, "since": "m"})], timeout=20)
    task("create", "bouncing_cat", [c1, c2, c3, c4], [c1, c2, c3, c4],
         compat_lacks=["case 4 counts moving samples whose direction's sign matches the sign of "
                       "their x step (ratio >= 0.7); gobo checks that the sprite moves and faces "
                       "left or right (direction ±90) in at least 70 % of the frames"],
         strict_lacks=["case 4 as in compat"])


def backdrop_cycler():
    bd = {"backdrop": True}

    def hist(secs):
        return [stop(), wait(0.1), gf(), wait(0.2), mark("m"), wait(secs)]
    c1 = case("stage_has_at_least_three_backdrops", [expect({"costumes": {"min": 3}})], timeout=20)
    c2 = case("green_flag_triggers_backdrop_change",
              hist(5) + [expect(series(bd, "changes", "m", min=1))], timeout=20)
    c3 = case("three_distinct_backdrops_appear",
              hist(9) + [expect(series(bd, "distinct", {"mark": "m", "include_mark": True}, min=3))],
              timeout=20)
    c4 = case("backdrop_change_interval_is_about_two_seconds",
              hist(9) + [expect(series(bd, "changes", "m", min=3)),
                         expect(series(bd, "shortest_gap", "m", min=1)),
                         expect(series(bd, "longest_gap", "m", max=3))], timeout=20)
    c5 = case("backdrop_sequence_loops",
              hist(10) + [expect({"interval": {"from": changed(bd, "m"),
                                               "to": {"not": changed(bd, "m")}},
                                  "seconds": {"min": 0}, "since": "m"})], timeout=20)
    lacks = ["case 4 passes when at least 2 intervals between changes lie within 2 ± 1 s; gobo "
             "asks for at least 3 changes with every interval within 1–3 s",
             "case 5 passes when any backdrop shows twice; gobo asks for a return to the backdrop "
             "shown when sampling began"]
    task("create", "backdrop_cycler", [c1, c2, c3, c4, c5], [c1, c2, c3, c4, c5],
         compat_lacks=lacks, strict_lacks=lacks)


# ---- debug -------------------------------------------------------------------------------
BALL = ["Ball", "Sprite1", "ball"]
RIGHT = ["right arrow", "d"]


def party_costume():
    c = case("ben_costume_changes_during_runtime",
             start(0.16, 0.7) + [mark("m"), wait(8),
                                 expect(series(prop("Ben", "costume"), "distinct",
                                               {"mark": "m", "include_mark": True}, min=2))],
             timeout=20)
    task("debug", "party_costume", [c], [c])


def maze_start_position():
    c = case("ball_starts_in_left_top_entrance_region",
             start(0.25, 0.6) + [expect({"sprite": BALL, "visible": True,
                                         "x": {"min": -240, "max": -80},
                                         "y": {"min": 50, "max": 180}})], timeout=20)
    task("debug", "maze_starter_start_position_error", [c], [c])


def pong_not_moving():
    c = case("ball_moves_after_green_flag",
             start(0.16, 0.55) + [mark("m"), wait(2.6),
                                  expect({"ever": {"moved": BALL, "at_least": 12 + EPS,
                                                   "since": "m"}, "since": "m"})], timeout=20)
    task("debug", "pong_starter_pong_not_moving_error", [c], [c])


def maze_overshoot():
    steps = start(0.25, 0.6)
    checks = []
    for i in range(22):  # 2.2 s of 80 ms presses (3 frames each, 0.1 s)
        steps += [mark(f"s{i}")] + press(RIGHT, 0.08)
        checks.append(expect({"not": {"moved": BALL, "at_least": 25 + EPS, "since": f"s{i}"}}))
        steps.append(checks[-1])
    c = case("movement_step_size_avoids_overshoot", steps, timeout=20)
    task("debug", "maze_starter_overshoot_collision_error", [c], [c])


def maze_mapping():
    steps = start(0.25, 0.6)
    moves = [("up", ["up arrow", "w"]), ("down", ["down arrow", "s"]),
             ("right", ["right arrow", "d"]), ("left", ["left arrow", "a"])]
    for name, keys in moves:
        steps += [mark(f"{name}0")] + press(keys, 0.5) + [wait(0.2), mark(f"{name}1")]
    y, x = prop(BALL, "y"), prop(BALL, "x")
    steps += [expect(changed(y, "up0", "up1", by={"min": 2 + EPS})),
              expect(changed(y, "down0", "down1", by={"max": -2 - EPS})),
              expect(changed(x, "right0", "right1", by={"min": 2 + EPS})),
              expect(changed(x, "left0", "left1", by={"max": -2 - EPS}))]
    c = case("arrow_keys_move_ball_in_matching_directions", steps, timeout=20)
    task("debug", "maze_starter_movement_mapping_error", [c], [c])


def maze_walls():
    steps = start(0.25, 0.6) + [mark("s0")]
    for i in range(28):  # 120 ms presses (4 frames)
        steps += press(RIGHT, 0.12) + [mark(f"s{i + 1}")]
    x = prop(BALL, "x")
    stalled = [changed(x, f"s{i}", f"s{i + 1}", by={"min": -0.8 + EPS, "max": 0.8 - EPS})
               for i in range(28)]
    back = [changed(x, f"s{i}", f"s{i + 1}", by={"max": -0.5 - EPS}) for i in range(28)]
    steps += [expect({"any": [{"count_of": stalled, "count": {"min": 5}},
                              {"count_of": back, "count": {"min": 2}}]}),
              expect(changed(x, "s0", "s28", by={"max": 300}))]
    c = case("ball_is_blocked_by_walls_when_moving_right", steps, timeout=20)
    task("debug", "maze_starter_wall_collision_detection_error", [c], [c])


def maze_goal():
    win = {"says": {"regex": "you win|win!|victory|congratulations", "case_insensitive": True}}
    c = case("ball_reaches_goal_and_win_message_is_displayed",
             start(0.25, 0.6) + [wait(0.4), set_xy(BALL, 200, -150), until(win, 4)], timeout=20)
    task("debug", "maze_starter_goal_detection_error", [c], [c])


def mouse_onto(s, x=None, y=None):
    d = {"do": "mouse_move", "onto": s}
    if x is not None:
        d["x"] = x
    if y is not None:
        d["y"] = y
    return d


def at_mark(m, c):
    return {"at_mark": m, "check": c}


PADDLE = ["Paddle", "Sprite1", "paddle"]


def pong_paddle():
    c1 = case("paddle_stays_near_stage_bottom",
              start(0.16, 0.65) + [expect({"sprite": PADDLE, "y": {"max": -120}})], timeout=20)
    steps = start(0.16, 0.65) + [mark("base")]
    targets = [-180, -90, 0, 90, 180]
    for i, t in enumerate(targets):
        # the pointer at the target's x, level with the paddle where the case started
        steps += [mouse_onto(PADDLE, x=t), wait(0.42), mark(f"s{i}")]
    y = prop(PADDLE, "y")
    steps += [expect({"count_of": [at_mark(f"s{i}", {"sprite": PADDLE, "x": {"equals": t, "tolerance": 18}})
                                   for i, t in enumerate(targets)], "count": {"min": 4}}),
              expect({"all": [changed(y, "base", f"s{i}", by={"min": -20, "max": 20})
                              for i in range(len(targets))]})]
    c2 = case("paddle_follows_mouse_x_positions", steps, timeout=20)
    lacks = ["the script falls back to the first sprite when none is named like Paddle/Sprite1; "
             "gobo needs one of those names",
             "the pointer's y is the paddle's y when the case starts; gobo uses the paddle's "
             "y when each move is made"]
    task("create", "pong_paddle", [c1, c2], [c1, c2], compat_lacks=lacks, strict_lacks=lacks[:1])


def ask_and_echo():
    q = {"says": {"regex": "^\\s*What is your name\\?\\s*$"}, "sprite": "Sprite1"}
    c1 = case("sprite_asks_exact_name_question", [stop(), wait(0.1), gf(), until(q, 10)],
              timeout=10)
    answer = {"text": "TestUser123", "delay": 0.12,
              "when": {"contains": "what is your name", "case_insensitive": True}}
    c2 = case("sprite_echoes_exact_answer_text",
              [stop(), wait(0.1), gf(), until({"says": "TestUser123", "sprite": "Sprite1"}, 10)],
              timeout=10, answers=[answer])
    task("create", "ask_and_echo", [c1, c2], [c1, c2],
         compat_lacks=["the script answers when Sprite1's SAY event holds the question, so a "
                       "question asked by the stage or a hidden sprite is never answered; gobo "
                       "answers every question whose text matches"])


def pong_paddle_moving():
    targets = [-200, -100, 0, 100, 200]

    def follow():
        steps = [stop(), wait(0.18), {"do": "green_flag", "sprite": PADDLE}, wait(0.45), mark("base")]
        for i, t in enumerate(targets):
            steps += [mouse_onto(PADDLE, x=t), wait(0.5), mark(f"s{i}")]
        return steps
    c1 = case("paddle_x_follows_mouse_targets",
              follow() + [expect({"count_of": [at_mark(f"s{i}", {"sprite": PADDLE, "x": {"equals": t, "tolerance": 10}})
                                               for i, t in enumerate(targets)], "count": {"min": 4}})],
              timeout=20)
    y = prop(PADDLE, "y")
    c2 = case("paddle_y_has_no_major_drift",
              follow() + [expect({"all": [changed(y, "base", f"s{i}", by={"min": -12, "max": 12})
                                          for i in range(len(targets))]})], timeout=20)
    lacks = ["the pointer's y is the paddle's y when sampling starts; gobo uses the paddle's "
             "y when each move is made"]
    task("debug", "pong_starter_paddle_moving_error", [c1, c2], [c1, c2], compat_lacks=lacks)


def balloon_clicker():
    balloon = ["balloon", "Balloon", "Sprite1"]
    has = [expect({"exists": {"sprite": balloon}}), expect({"exists": {"variable": "score"}})]
    c1 = case("balloon_and_score_variable_exist", list(has), timeout=20)

    def zero(strict):
        score = {"variable": "score", "equals": 0} if strict else {"variable": "score", "min": 0, "max": 0}
        return case("green_flag_sets_score_to_zero",
                    has + [stop(), wait(0.1), gf(), wait(0.5), expect(score)], timeout=20)

    def clicks(name, check):
        steps = has + [stop(), wait(0.1), gf(), wait(0.4)]
        for i in range(3):
            steps += [mark(f"b{i}"), click(balloon), wait(0.2 + 0.35), mark(f"a{i}")]
        steps.append(expect({"all": [check(f"b{i}", f"a{i}") for i in range(3)]}))
        return case(name, steps, timeout=20)
    c3 = clicks("each_click_increases_score_by_one",
                lambda b, a: changed({"variable": "score"}, b, a, by=1))
    c4 = clicks("each_click_moves_balloon_position",
                lambda b, a: {"any": [changed(prop(balloon, "x"), b, a),
                                      changed(prop(balloon, "y"), b, a)]})
    task("create", "balloon_clicker", [c1, zero(False), c3, c4], [c1, zero(True), c3, c4],
         compat_lacks=["the script finds the sprite by a case-insensitive substring of its name "
                       "and the variable by a case-insensitive name; gobo takes the names balloon, "
                       "Balloon or Sprite1 and score exactly"])


def mouse_follower():
    c1 = case("sprite1_moves_near_mouse_immediately_after_start",
              start(0.12, 0.45) + [{"do": "mouse_move", "x": 140, "y": 95}, wait(0.45),
                                   expect({"value": {"distance": "Sprite1", "to": {"x": 140, "y": 95}},
                                           "max": 24})], timeout=15)
    points = [(-150, 110), (120, -80), (40, 40), (-30, -120)]
    steps = start(0.12, 0.45)
    for i, (x, y) in enumerate(points):
        steps += [{"do": "mouse_move", "x": x, "y": y}, wait(0.43), mark(f"p{i}")]
    steps.append(expect({"count_of": [at_mark(f"p{i}", {"value": {"distance": "Sprite1", "to": {"x": x, "y": y}},
                                                        "max": 24}) for i, (x, y) in enumerate(points)],
                         "count": {"min": 3}}))
    c2 = case("sprite1_continuously_follows_multiple_mouse_positions", steps, timeout=15)
    lacks = ["the script falls back to the first sprite when none is named Sprite1; gobo needs "
             "Sprite1"]
    task("create", "mouse_follower", [c1, c2], [c1, c2], compat_lacks=lacks, strict_lacks=lacks)


def size_pulse():
    size = prop(["Sprite1", "Cat"], "size")
    pulse = {"all": [{"ever": {"value": size, "max": 60}}, {"ever": {"value": size, "min": 140}},
                     series(size, "reversals", min=2), series(size, "changes", min=10)]}
    c = case("sprite1_size_pulses_between_50_and_150_repeatedly",
             start(0.16, 0.5) + [gf(), until(pulse, 19.5)], timeout=20)
    task("create", "size_pulse", [c], [c])


def hide_show_sprite():
    s = ["Sprite1", "Cat"]
    hidden = {"sprite": s, "visible": False}
    shown = {"sprite": s, "visible": True}

    def observe(secs):
        return [stop(), wait(0.1), mark("m0"), gf(), wait(0.7), mark("h"), wait(secs - 0.7)]
    c1 = case("sprite_hides_immediately_after_green_flag",
              observe(2.5) + [expect(at_mark("m0", shown)),
                              expect(at_mark("h", {"ever": hidden, "since": "m0"}))], timeout=20)
    c2 = case("sprite_shows_again_about_two_seconds_after_hide",
              observe(6) + [expect({"interval": {"from": hidden, "to": shown},
                                    "seconds": {"min": 1.5, "max": 2.5}, "since": "m0"})],
              timeout=20)
    c3 = case("visibility_order_is_hide_then_show",
              observe(6) + [expect(at_mark("m0", shown)),
                            expect({"interval": {"from": hidden, "to": shown},
                                    "seconds": {"min": 0}, "since": "m0"})], timeout=20)
    task("create", "hide_show_sprite", [c1, c2, c3], [c1, c2, c3])


def keyboard_ball():
    ball = ["ball", "Ball", "Sprite1"]
    arrows = ["up arrow", "down arrow", "left arrow", "right arrow"]
    cases = []
    for name, key, axis, sign in [("up_arrow_moves_ball_upward", "up arrow", "y", 1),
                                  ("down_arrow_moves_ball_downward", "down arrow", "y", -1),
                                  ("right_arrow_moves_ball_rightward", "right arrow", "x", 1),
                                  ("left_arrow_moves_ball_leftward", "left arrow", "x", -1)]:
        steps = [{"do": "key_up", "key": k} for k in arrows]
        steps += [set_xy(ball, 0, 0), stop(), wait(0.1), gf(), wait(0.3), set_xy(ball, 0, 0),
                  wait(0.12), mark("k0"), {"do": "key_down", "key": key}]
        for i in range(10):  # samples every 90 ms while the key is held 900 ms
            steps += [wait(0.09), mark(f"k{i + 1}")]
        steps.append({"do": "key_up", "key": key})
        probe = prop(ball, axis)
        net = {"min": 8} if sign > 0 else {"max": -8}
        against = {"max": -0.5 - EPS} if sign > 0 else {"min": 0.5 + EPS}
        steps += [expect(changed(probe, "k0", "k10", by=net)),
                  expect({"count_of": [changed(probe, f"k{i}", f"k{i + 1}", by=against)
                                       for i in range(10)], "count": {"max": 3}})]
        cases.append(case(name, steps, timeout=20))
    lacks = ["the script needs at least 60 % of the moving samples (a change of 0.5 or more) to "
             "go the key's way; gobo allows at most 3 of the 10 samples to go the other way"]
    task("create", "keyboard_ball", cases, cases, compat_lacks=lacks, strict_lacks=lacks)


ADDITION = {"regex": "\\d+\\s*\\+\\s*\\d+"}


def math_game_no_more_questions():
    quiz = ["Frank", "Sprite1"]
    answer = {"compute": "sum", "delay": 0.22, "when": ADDITION}
    first = {"regex": "(^|\\D)3\\s*\\+\\s*3(\\D|$)"}
    c = case("second_question_appears_after_first_correct_answer",
             [stop(), wait(0.1), gf(),
              until({"says_in_order": [first, ADDITION], "sprite": quiz}, 12)],
             timeout=20, answers=[answer])
    lacks = ["the script asks for the first addition question to be 3+3; gobo asks for a "
             "question holding 3+3 followed by another addition question",
             "the script answers only additions said by the quiz sprite (Frank, Sprite1 or the "
             "first sprite); gobo answers every question holding an addition"]
    task("debug", "math_game_no_more_questions_error", [c], [c], compat_lacks=lacks,
         strict_lacks=lacks[1:])


def gravity_ball():
    ball = ["ball", "Ball", "Sprite1"]
    y = prop(ball, "y")

    def observe():
        return [stop(), wait(0.12), gf(), wait(0.12), mark("m"), wait(4.68)]
    c1 = case("ball_starts_near_top_after_flag",
              observe() + [expect(at_mark("m", {"sprite": ball, "y": {"min": 100 + EPS}}))],
              timeout=5.2)
    c2 = case("ball_bounces_up_after_bottom_contact",
              observe() + [expect({"interval": {"from": {"sprite": ball, "y": {"max": -140}},
                                                "to": {"sprite": ball, "y": {"min": -115}}},
                                   "seconds": {"max": 2.7}, "since": "m"})], timeout=5.2)
    c3 = case("bounce_heights_decrease_over_time",
              observe() + [expect(series(y, "peaks", "m", min=2)),
                           expect({"not": {"monotonic": y, "order": "non_decreasing", "since": "m"}})],
              timeout=5.2)
    lacks = ["case 2 needs a rise of 25 from a sample at or below -140 within 45 samples; gobo "
             "asks for a rise from at or below -140 to at least -115 within 2.7 s",
             "case 3 needs the second peak (above -120) at least 5 below the first; gobo asks "
             "for two peaks"]
    task("create", "gravity_ball", [c1, c2, c3], [c1, c2, c3], compat_lacks=lacks,
         strict_lacks=lacks)


def math_game_inadequate_repeat():
    quiz = ["Frank", "Sprite1"]
    answer = {"compute": "sum", "delay": 0.22, "when": ADDITION}
    c = case("after_first_correct_answer_questions_continue_beyond_three_more",
             [stop(), wait(0.1), gf(), until({"asked": ADDITION, "count": {"min": 5}}, 13)],
             timeout=20, answers=[answer])
    lacks = ["the script counts additions said by the quiz sprite (Frank, Sprite1 or the first "
             "sprite), a repeat of the same text within 0.7 s once; gobo counts questions "
             "holding an addition"]
    task("debug", "math_game_inadequate_repeat_error", [c], [c], compat_lacks=lacks,
         strict_lacks=lacks)


def drag_to_target():
    main = ["Sprite1", "Cat"]
    c1 = case("sprite1_becomes_draggable_after_green_flag",
              [stop(), wait(0.1), gf(), wait(0.9), expect({"exists": {"sprite": main}}),
               expect({"opcode": "sensing_setdragmode", "sprite": main})], timeout=25)
    success = {"says": {"contains": "success", "case_insensitive": True}}
    c2 = case("dragging_to_target_triggers_success_message",
              [stop(), wait(0.1), gf(), wait(0.9), expect({"exists": {"sprite": "Target"}}),
               wait(0.08 + 8 * 0.12 + 0.25), {"do": "set_sprite", "sprite": main, "onto": "Target"},
               until(success, 5.25)], timeout=25)
    lacks = ["case 1 reads the sprite's draggable flag, which gobo does not observe; gobo asks "
             "for a 'set drag mode' block in the sprite",
             "case 2 drags the sprite with the mouse down through 8 points before placing it on "
             "the target; gobo places it on the target after the same time"]
    task("create", "drag_to_target", [c1, c2], [c1, c2], compat_lacks=lacks, strict_lacks=lacks)


def edge_wrap_runner():
    runner = ["Sprite1", "Cat"]
    x = prop(runner, "x")

    def samples(secs):
        n = int(round(secs / 0.1))
        steps = [stop(), wait(0.1), gf(), wait(0.3), mark("w0")]
        for i in range(n):
            steps += [wait(0.1), mark(f"w{i + 1}")]
        right = [changed(x, f"w{i}", f"w{i + 1}", by={"min": 0.5 + EPS}) for i in range(n)]
        return steps, right, n
    steps, right, n = samples(6)
    c1 = case("sprite_moves_right_at_near_constant_rate",
              steps + [expect({"count_of": right, "count": {"min": int(0.8 * n + 0.999)}})],
              timeout=20)
    wrap = {"sequence": [{"sprite": runner, "x": {"min": 205 + EPS}},
                         {"sprite": runner, "x": {"max": -195 - EPS}}], "since": "w0"}
    steps, _, _ = samples(9)
    c2 = case("right_edge_crossing_wraps_to_left_with_same_y", steps + [expect(wrap)], timeout=20)
    steps, right, n = samples(12)
    c3 = case("wrapping_repeats_continuously",
              steps + [expect(series(x, "peaks", "w0", min=2)),
                       expect({"count_of": right, "count": {"min": int(0.7 * n + 0.999)}})],
              timeout=20)
    lacks = ["the scripts leave samples with a jump over 150 (wraps) out of the share of "
             "rightward samples and ask for a mean step above 0.5; gobo counts wraps as not "
             "rightward and checks the share only",
             "a wrap in the script is a sample right of 205 followed 100 ms later by one left of "
             "-195 with y within 25; gobo looks at consecutive frames and not at y",
             "case 3 counts wraps; gobo counts falls in x (peaks)"]
    task("create", "edge_wrap_runner", [c1, c2, c3], [c1, c2, c3], compat_lacks=lacks,
         strict_lacks=lacks)


def pong_edge_bouncing():
    def force(direction):
        # the script re-forces the direction every 40 ms for 320 ms: here every frame, 10 frames
        out = []
        for _ in range(10):
            out += [set_xy(BALL, direction=direction), frames(1)]
        return out
    x, y = prop(BALL, "x"), prop(BALL, "y")
    incl = {"mark": "s", "include_mark": True}
    c1 = case("left_edge_reverses_horizontal_direction",
              start(0.16, 0.45) + [set_xy(BALL, -220, 0)] + force(-90) + [mark("s"), wait(1.5),
                  expect(at_mark("s", {"sprite": BALL, "x": {"max": -140}})),
                  expect({"extent": x, "min": {"max": -150}, "since": incl}),
                  expect(series(x, "above_min", incl, min=25))], timeout=20)
    c2 = case("right_edge_reverses_horizontal_direction",
              start(0.16, 0.45) + [set_xy(BALL, 220, 0)] + force(90) + [mark("s"), wait(1.5),
                  expect(at_mark("s", {"sprite": BALL, "x": {"min": 140}})),
                  expect({"extent": x, "max": {"min": 150}, "since": incl}),
                  expect(series(x, "below_max", incl, min=25))], timeout=20)
    c3 = case("top_edge_reverses_vertical_direction_downward",
              start(0.16, 0.45) + [set_xy(BALL, 0, 150)] + force(0) + [mark("s"), wait(1.6),
                  expect(at_mark("s", {"sprite": BALL, "y": {"min": 95}})),
                  expect({"extent": y, "max": {"min": 120}, "since": incl}),
                  expect(series(y, "below_max", incl, min=20))], timeout=20)
    task("debug", "pong_starter_edge_bouncing_error", [c1, c2, c3], [c1, c2, c3])


OBSTACLE = ["Obstacle", "Enemy", "Patrol", "Obstacle1", "Guard", "Hazard"]
BALL2 = ["ball", "Ball", "Sprite1"]


def patrolling_obstacles():
    c1 = case("obstacle_sprite_exists",
              start(0.1, 0.6) + [expect({"exists": {"sprite": BALL2}}),
                                 expect({"exists": {"sprite": OBSTACLE}})], timeout=20)
    path = lambda lo: series(pos(OBSTACLE), "path", "m", min=lo)
    c2 = case("obstacle_patrols_and_changes_direction",
              start(0.1, 0.6) + [wait(0.8), mark("m"), wait(2.5),
                                 expect({"all": [path(30 + EPS), {"any": [
                                     path(80 + EPS),
                                     series(prop(OBSTACLE, "x"), "reversals", "m", min=1),
                                     series(prop(OBSTACLE, "y"), "reversals", "m", min=1)]}]})],
              timeout=20)
    c3 = case("ball_resets_when_touching_obstacle",
              start(0.1, 0.6) + [wait(0.8), mark("m"),
                                 {"do": "set_sprite", "sprite": BALL2, "onto": OBSTACLE},
                                 frames(1),
                                 until({"not": {"moved": BALL2, "at_least": 25 + EPS, "since": "m"}}, 2)],
              timeout=20)
    c4 = case("obstacle_patrol_persists_after_restart",
              start(0.1, 0.6) + [wait(0.8), mark("m"), wait(2), expect(path(25 + EPS))], timeout=20)
    lacks = ["the script finds sprites by a case-insensitive substring of their names; gobo takes "
             "the names it tries exactly",
             "the script sums distances between samples 120 ms apart; gobo sums frame to frame "
             "(a longer path for a wobbling sprite)"]
    task("extend", "maze_starter_patrolling_obstacles_modify", [c1, c2, c3, c4], [c1, c2, c3, c4],
         compat_lacks=lacks, strict_lacks=lacks[:1])


def countdown_broadcast():
    sprite = ["Sprite1", "Cat", "Sprite"]
    timer = lambda v: {"variable": "timer", "sprite": sprite, "equals": v}

    def observe():
        return [stop(), wait(0.1), mark("m"), gf()]
    seq = [5, 4, 3, 2, 1, 0]
    c1 = case("timer_starts_at_5_and_reaches_0",
              observe() + [until({"interval": {"from": timer(5), "to": timer(0)},
                                  "seconds": {"min": 0}, "since": "m"}, 9)], timeout=25)
    steps = lambda lo, hi: [{"interval": {"from": timer(a), "to": timer(b)},
                             "seconds": {"min": lo, "max": hi}, "since": "m"}
                            for a, b in zip(seq, seq[1:])]
    c2 = case("timer_decrements_by_one_about_every_second",
              observe() + [until({"ever": timer(0), "since": "m"}, 9, required=False),
                           expect({"all": steps(0, 86400)}),
                           expect({"count_of": steps(0.65, 1.7), "count": {"min": 4}})],
              timeout=25)
    times_up = {"says": {"regex": "time[^a-z0-9]+s[^a-z0-9]+up|times[^a-z0-9]+up",
                         "case_insensitive": True}, "sprite": sprite}
    c3 = case("timeup_broadcast_and_times_up_message_when_zero",
              observe() + [until({"all": [{"ever": timer(0), "since": "m"},
                                          {"broadcast": "timeup", "since": "m"},
                                          dict(times_up, since="m")]}, 9)], timeout=25)
    lacks = ["the script records the timer's value every 100 ms and needs 4 of the decrements "
             "by one 0.65–1.7 s apart; gobo needs the first frames showing 5, 4, 3, 2, 1, 0 "
             "in order with 4 of the 5 gaps within 0.65–1.7 s"]
    task("create", "countdown_broadcast", [c1, c2, c3], [c1, c2, c3], compat_lacks=lacks,
         strict_lacks=lacks)


def random_walk_explorer():
    walker = ["Sprite1", "Cat"]

    def walk(secs, every):
        n = int(secs / every)
        out = start(0.16, 0.5) + [mark("w0")]
        for i in range(n):
            out += [wait(every), mark(f"w{i + 1}")]
        return out, n
    steps, n = walk(3.6, 0.15)
    c1 = case("sprite1_moves_continuously_after_start",
              steps + [expect({"count_of": [at_mark(f"w{i + 1}", {"moved": walker, "at_least": 1.5,
                                                                   "since": f"w{i}"})
                                            for i in range(n)], "count": {"min": 12}}),
                       expect(series(pos(walker), "path", "w0", min=80))], timeout=20)
    steps, n = walk(3.8, 0.14)
    d = prop(walker, "direction")
    turn = lambda a, b: {"not": changed(d, a, b, by={"min": -8 + EPS, "max": 8 - EPS})}
    c2 = case("sprite1_repeatedly_changes_heading",
              steps + [expect({"count_of": [turn(f"w{i}", f"w{i + 1}") for i in range(n)],
                               "count": {"min": 4}}),
                       expect(series(d, "distinct", "w0", min=5))], timeout=20)
    steps, n = walk(5.2, 0.13)
    near = {"any": [{"sprite": walker, "x": {"max": -220}}, {"sprite": walker, "x": {"min": 220}},
                    {"sprite": walker, "y": {"max": -160}}, {"sprite": walker, "y": {"min": 160}}]}
    c3 = case("sprite1_bounces_at_edge_and_continues",
              steps + [expect({"interval": {"from": near, "to": {"not": near}},
                               "seconds": {"min": 0}, "since": "w0"}),
                       expect(series(pos(walker), "path", "w0", min=20))], timeout=20)
    lacks = ["case 2 rounds directions to 5 degrees before counting distinct ones and measures "
             "turns the short way round; gobo counts distinct directions and plain differences",
             "case 3 needs 20 of movement after the first sample near an edge; gobo needs 20 "
             "over the whole window"]
    task("create", "random_walk_explorer", [c1, c2, c3], [c1, c2, c3], compat_lacks=lacks,
         strict_lacks=lacks)


def day_night_cycle():
    bright = {"stage": "brightness"}
    buildings = ["Buildings", "Building", "Obstacle", "Pipes", "buildings"]

    def observe(secs):
        return [stop(), wait(0.1), gf(), wait(0.5), mark("m"), wait(secs)]
    changed_ = series(bright, "range", "m", min=3 + EPS)
    c1 = case("brightness_changes_over_time", observe(5) + [expect(changed_)], timeout=30)
    c2 = case("brightness_reverses_direction",
              observe(6.5) + [expect(changed_), expect(series(bright, "reversals", "m", min=1))],
              timeout=30)
    c3 = case("brightness_cycle_loops",
              observe(10) + [expect(changed_), expect(series(bright, "reversals", "m", min=2))],
              timeout=30)
    c4 = case("buildings_move_while_brightness_changes",
              [expect({"exists": {"sprite": buildings}})] + observe(5)
              + [expect(changed_), expect(series(pos(buildings), "path", "m", min=10 + EPS))],
              timeout=30)
    lacks = ["the script smooths samples taken every 120 ms over three neighbours and counts "
             "reversals of changes above 0.12; gobo counts reversals of the raw frame-by-frame "
             "brightness"]
    task("extend", "make_it_fly_day_night_cycle_modify", [c1, c2, c3, c4], [c1, c2, c3, c4],
         compat_lacks=lacks, strict_lacks=lacks)


QUIZ = ["Frank", "Sprite1"]
QUIZ_LACKS = ("the script listens to the quiz sprite (Frank, Sprite1 or the first sprite) only; "
              "gobo takes Frank or Sprite1")
THREE_PLUS_THREE = {"regex": "(^|\\D)3\\s*\\+\\s*3(\\D|$)"}


def word(words):
    return {"regex": "(^|[^a-z0-9_])(" + words + ")($|[^a-z0-9_])", "case_insensitive": True}


def math_game_false_negative():
    answer = {"compute": "sum", "nth": 1, "delay": 0.25}
    positive = word("correct|right|great|good\\s*job|well\\s*done|yes")
    negative = word("wrong|incorrect")
    begin = [stop(), wait(0.1), gf(), until({"says": ADDITION, "sprite": QUIZ}, 8), mark("q")]
    c1 = case("question_3_plus_3_accepts_answer_6",
              begin + [expect({"says": THREE_PLUS_THREE, "sprite": QUIZ}),
                       until({"says": positive, "sprite": QUIZ, "since": "q"}, 8)],
              timeout=20, answers=[answer])
    c2 = case("correct_answer_does_not_trigger_wrong_feedback",
              begin + [until({"any": [{"says": positive, "sprite": QUIZ, "since": "q"},
                                      {"says": negative, "sprite": QUIZ, "since": "q"}]}, 8),
                       wait(0.25),
                       expect({"says": positive, "sprite": QUIZ, "since": "q"}),
                       expect({"not": {"says": negative, "sprite": QUIZ, "since": "q"}})],
              timeout=20, answers=[answer])
    task("debug", "math_game_false_negative_error", [c1, c2], [c1, c2], carry=False,
         compat_lacks=[QUIZ_LACKS, "the script runs both cases on one VM; gobo starts each from "
                       "the project (answer rules count questions per case)",
                       "the script's patterns use word boundaries (\\b); gobo's "
                       "regular expressions have none and spell them as non-word characters"],
         strict_lacks=[QUIZ_LACKS])


def math_game_invalid_randomness():
    answer = {"compute": "sum", "delay": 0.22, "when": ADDITION}
    not_one_first = {"regex": "(^|\\D)(\\d\\d+|[02-9])\\s*\\+\\s*\\d+"}
    not_one_second = {"regex": "\\d+\\s*\\+\\s*(\\d\\d+|[02-9])(\\D|$)"}

    def follow(n):
        return [stop(), wait(0.1), gf(), until({"asked": ADDITION}, 15), mark("f"),
                until({"asked": ADDITION, "count": {"min": n}, "since": "f"}, 15, required=False)]
    c1 = case("first_addend_not_fixed_to_1_after_first_question",
              follow(4) + [expect({"asked": ADDITION, "count": {"min": 3}, "since": "f"}),
                           expect({"asked": not_one_first, "since": "f"})],
              timeout=20, answers=[answer])
    c2 = case("both_addends_vary_across_followup_questions",
              follow(5) + [expect({"asked": ADDITION, "count": {"min": 3}, "since": "f"}),
                           expect({"asked": not_one_first, "since": "f"}),
                           expect({"asked": not_one_second, "since": "f"})],
              timeout=20, answers=[answer])
    lacks = [QUIZ_LACKS, "the script needs two different first addends (and in case 2 two "
             "different second addends) among the follow-up questions; gobo needs a follow-up "
             "whose first addend (case 2: and one whose second addend) is not 1"]
    task("debug", "math_game_invalid_randomness_error", [c1, c2], [c1, c2], compat_lacks=lacks,
         strict_lacks=lacks)


def sprite_conversation():
    both = [expect({"exists": {"sprite": "Sprite1"}}), expect({"exists": {"sprite": "Sprite2"}})]
    c1 = case("project_contains_sprite1_and_sprite2", list(both), timeout=10)
    hello = {"says": {"contains": "hello", "case_insensitive": True}, "sprite": "Sprite1"}
    hi = {"says": {"regex": "hi.*there|there.*hi", "case_insensitive": True}, "sprite": "Sprite2"}
    c2 = case("sprite1_says_hello_after_green_flag",
              [stop(), wait(0.18), gf(), until(hello, 5)], timeout=10)
    c3 = case("sprite2_says_hi_there_after_sprite1_hello",
              both + [stop(), wait(0.18), mark("m"), gf(),
                      until({"interval": {"from": hello, "to": hi}, "seconds": {"min": 0},
                             "since": "m"}, 7)], timeout=10)
    c4 = case("project_uses_broadcast_blocks_for_coordination",
              [expect({"any": [{"opcode": op} for op in ["event_broadcast", "event_broadcastandwait",
                                                         "event_whenbroadcastreceived"]]})],
              timeout=10)
    lacks = ["the script fails case 3 when Sprite2's 'hi there' comes before Sprite1's 'hello'; "
             "gobo asks for a 'hi there' in a frame after the first 'hello'"]
    task("create", "sprite_conversation", [c1, c2, c3, c4], [c1, c2, c3, c4], compat_lacks=lacks,
         strict_lacks=lacks)


BUTTON = ["Input Numbers", "Input", "Button", "Input Button", "Enter Numbers", "Numbers"]
PROMPT = {"regex": "(enter|input|type|number|x|y|coordinate|value).*\\?|\\?.*(enter|input|type|"
                   "number|x|y|coordinate|value)", "case_insensitive": True}


def coordinate_button_visibility():
    begin = [stop(), wait(0.1), gf(), wait(0.5), wait(0.25)]
    shown = {"sprite": BUTTON, "visible": True}
    hidden = {"sprite": BUTTON, "visible": False}
    c1 = case("button_visible_at_start", begin + [wait(0.3), until(shown, 2.5)], timeout=25)
    c2 = case("button_hides_when_clicked",
              begin + [until(shown, 2, required=False), wait(0.3), click(BUTTON), wait(0.2),
                       until(hidden, 2.5)], timeout=25)
    answers = [{"text": "10", "nth": 1, "delay": 0.25}, {"text": "20", "nth": 2, "delay": 0.25},
               {"text": "0", "when": PROMPT, "delay": 0.25}]
    c3 = case("button_reappears_after_input_sequence",
              begin + [until(shown, 2, required=False), wait(0.3), click(BUTTON), wait(0.2),
                       mark("c"), until({"asked": PROMPT, "since": "c"}, 5),
                       until(shown, 12)], timeout=25, answers=answers)
    lacks = ["the script finds the button by a case-insensitive substring of its name; gobo "
             "takes the names it tries exactly",
             "the script runs the cases on one VM; gobo starts each from the project (answer "
             "rules count questions per case)",
             "the script answers only bubbles holding '?' and a keyword and looks at the button "
             "once no prompt came for 1.2 s; gobo answers the first two questions whatever they "
             "say and waits for the button to show"]
    task("debug", "coordinate_reporter_button_visibility_error", [c1, c2, c3], [c1, c2, c3],
         carry=False,
         compat_lacks=lacks, strict_lacks=lacks[:1])


COORD_BUTTON = ["Button", "Input Numbers", "Input", "Numbers", "Enter"]
COORD_MAIN = ["Sprite1", "Cat", "Sprite", "Sprite 1"]
# The script's prompt test: a bubble holding '?' and one of its keywords.
COORD_PROMPT = {"regex": "\\?.*(enter|input|type|x|y|coordinate|change)|"
                         "(enter|input|type|x|y|coordinate|change).*\\?", "case_insensitive": True}
# The script's coordinate test: a number and 'x', 'y' or 'coord' in the main sprite's bubble.
COORD_SAID = {"regex": "\\d.*(x|y|coord)|(x|y|coord).*\\d", "case_insensitive": True}


def coordinate_broadcast_missing():
    restart = [stop(), gf(), wait(0.3), wait(0.2)]
    shown = {"sprite": COORD_BUTTON, "visible": True}
    hidden = {"sprite": COORD_BUTTON, "visible": False}

    def drag(m):
        """dragAndDetectCoords: the button flag down where the sprite is, three steps of (15, 10)
        moving the pointer and the sprite, the flag up; the sprite said its coordinates."""
        steps = [mark(m), mouse_onto(COORD_MAIN), {"do": "mouse_down", "event": False},
                 wait(0.08)]
        for _ in range(3):
            steps += [{"do": "mouse_move", "onto": COORD_MAIN, "dx": 15, "dy": 10},
                      {"do": "set_sprite", "sprite": COORD_MAIN, "onto": COORD_MAIN, "dx": 15,
                       "dy": 10}, wait(0.12)]
        steps += [{"do": "mouse_up", "event": False}, wait(0.3),
                  expect({"says": COORD_SAID, "sprite": COORD_MAIN, "kind": "any", "since": m})]
        return steps

    into_input = [until(shown, 1.5, required=False), wait(0.2), click(COORD_BUTTON), wait(0.2),
                  mark("c"), until(hidden, 2.0), until({"asked": COORD_PROMPT, "since": "c"}, 3.0)]
    c1 = case("drag_mode_active_and_coordinate_reporting_works",
              restart + [wait(0.2), until(shown, 1.5)] + drag("d"), timeout=20)
    answers = [{"text": "10", "nth": 1, "when": COORD_PROMPT, "delay": 0.2},
               {"text": "-5", "nth": 2, "when": COORD_PROMPT, "delay": 0.2},
               {"text": "0", "when": COORD_PROMPT, "delay": 0.2}]
    c2 = case("transition_to_input_mode_triggers_prompts", restart + into_input, timeout=20,
              answers=answers)
    c3 = case("input_completes_and_returns_to_drag_mode",
              restart + into_input + [wait(0.8), until(shown, 7.5)] + drag("d2"), timeout=20,
              answers=answers)
    lacks = ["the script finds sprites by a case-insensitive substring of their names; gobo "
             "takes the names it tries exactly",
             "the script listens for SAY events; gobo reads the bubbles shown since the drag "
             "began, so a coordinate bubble said before the drag and still showing counts",
             "the script looks at the button once no prompt came for 0.8 s; gobo waits 0.8 s "
             "after the first prompt and then for the button to show (7.5 s at most)",
             "the script runs the cases on one VM; gobo starts each from the project (answer "
             "rules count questions per case)"]
    task("debug", "coordinate_reporter_broadcast_missing_error", [c1, c2, c3], [c1, c2, c3],
         carry=False, compat_lacks=lacks, strict_lacks=lacks[:3])


BATTERY = ["Battery", "battery", "power", "Power"]


def circuit_battery():
    c = case("Battery Connection Test",
             start(0.25, 0.6) + [wait(0.3), mark("i"), set_xy(BATTERY, -180, 5), wait(1.3),
                                 expect(changed({"variable": "connections complete"}, "i",
                                                by={"min": EPS}))], timeout=20)
    task("debug", "simple_circuit_battery_connection_not_detected_error", [c], [c])


BULB = ["Lightbulb", "Bulb", "Lamp"]


def setvar(name, value):
    return {"do": "set_variable", "variable": name, "value": value}


def bulb_on():
    named = lambda w: {"sprite": BULB, "costume_name": {"contains": w, "case_insensitive": True}}
    return {"any": [named("on"), {"all": [{"sprite": BULB, "effects": {"ghost": {"max": 20}}},
                                           {"not": named("off")}]}]}


def bulb_off():
    named = lambda w: {"sprite": BULB, "costume_name": {"contains": w, "case_insensitive": True}}
    return {"any": [named("off"), {"all": [{"sprite": BULB, "effects": {"ghost": {"min": 80}}},
                                            {"not": named("on")}]}]}


def circuit_lightbulb():
    def t(name, on_off, connections, want_on):
        check = bulb_on() if want_on else {"any": [bulb_off(), {"not": bulb_on()}]}
        return case(name, start(0.25, 0.6) + [wait(0.3), setvar("ON or OFF", on_off),
                                              setvar("connections complete", connections),
                                              wait(0.8), expect(check)], timeout=20)
    cases = [t("Bulb OFF When Incomplete Circuit Test", "ON", 2, False),
             t("Bulb ON When Complete Circuit Test", "ON", 3, True),
             t("Bulb OFF When Switch OFF Test", "OFF", 3, False)]
    task("debug", "simple_circuit_lightbulb_not_turning_on_error", cases, cases,
         compat_lacks=["the script finds the bulb by a case-insensitive substring of its name; "
                       "gobo takes Lightbulb, Bulb or Lamp"])


SWITCH = ["Switch", "Button", "Toggle"]


def switch_on():
    var = lambda w: {"variable": "ON or OFF", "text": {"equals": w, "case_insensitive": True}}
    named = lambda w: {"sprite": SWITCH, "costume_name": {"contains": w, "case_insensitive": True}}
    costume_on = {"any": [named("on"), {"all": [{"sprite": SWITCH, "effects": {"ghost": {"max": 20}}},
                                                 {"not": named("off")}]}]}
    return {"any": [var("on"), {"all": [{"not": var("off")}, costume_on]}]}


def circuit_switch():
    on = switch_on()
    off = {"not": on}
    pre = lambda w: start(0.25, 0.6) + [wait(0.25)]
    c1 = case("Incomplete Circuit Test",
              pre(0) + [setvar("connections complete", 2), setvar("ON or OFF", "OFF"), wait(0.2),
                        click(SWITCH), wait(0.12), wait(0.7), expect(off)], timeout=20)
    c2 = case("Complete Circuit Persistence Test",
              pre(0) + [setvar("connections complete", 3), setvar("ON or OFF", "OFF"), wait(0.2),
                        click(SWITCH), wait(0.12), wait(0.2), expect(on), wait(1.2), expect(on)],
              timeout=20)
    c3 = case("Toggle OFF Test",
              pre(0) + [setvar("connections complete", 3), setvar("ON or OFF", "OFF"), wait(0.15),
                        click(SWITCH), wait(0.12), wait(0.25), expect(on), click(SWITCH),
                        wait(0.12), wait(0.4), expect(off)], timeout=20)
    task("debug", "simple_circuit_switch_immediate_turn_off_error", [c1, c2, c3], [c1, c2, c3],
         compat_lacks=["the script finds the switch by a case-insensitive substring of its name; "
                       "gobo takes Switch, Button or Toggle"])


CAT = ["Cat", "Sprite1", "Player", "Cat1 Flying", "cat"]


def gravity_flap():
    vel = {"variable": "velocityY"}
    y = prop(CAT, "y")
    keys_up = [{"do": "key_up", "key": k} for k in ["up arrow", "down arrow", "space"]]
    begin = lambda extra: keys_up + [expect({"exists": {"sprite": CAT}}), stop(), wait(0.1), gf(),
                                     wait(0.5 + extra)]
    c1 = case("velocityY_variable_exists_and_updates",
              begin(0.15) + [mark("m"), wait(1.4), expect({"exists": {"variable": "velocityY"}}),
                             expect(series(vel, "distinct", {"mark": "m", "include_mark": True},
                                           min=2))], timeout=30)
    c2 = case("idle_descent_and_negative_velocity",
              begin(0.12) + [mark("m"), wait(1.4), expect(changed(y, "m", by={"max": -8})),
                             expect({"extent": vel, "min": {"max": -EPS},
                                     "since": {"mark": "m", "include_mark": True}})], timeout=30)

    def impulse(key, tag):
        return ([mark(f"{tag}b")] + press([key], 0.18) + [mark(f"{tag}k"), wait(0.8)])
    incl = lambda m: {"mark": m, "include_mark": True}
    c3 = case("space_key_creates_flap_impulse",
              begin(0.15) + impulse("space", "s") + [
                  expect({"ever": changed(y, "sb", by={"min": 8}), "since": incl("sk")}),
                  expect({"extent": vel, "max": {"min": EPS}, "since": incl("sk")})], timeout=30)
    no_flap = lambda tag: [
        expect({"not": {"ever": changed(y, f"{tag}b", by={"min": 5}), "since": incl(f"{tag}k")}}),
        expect({"any": [{"not": {"exists": {"variable": "velocityY"}}},
                        {"extent": vel, "max": {"max": 2 - EPS}, "since": incl(f"{tag}k")}]})]
    c4 = case("arrow_keys_do_not_trigger_flap_impulse",
              begin(0.15) + impulse("up arrow", "u") + no_flap("u") + [wait(0.18)]
              + impulse("down arrow", "d") + no_flap("d"), timeout=30)
    lacks = ["the script finds the cat by a case-insensitive substring of its name; gobo takes "
             "the names it tries exactly",
             "case 4 passes in the script on a project without velocityY; gobo fails that case "
             "(it names the variable)"]
    task("extend", "make_it_fly_gravity_flap_mode_modify", [c1, c2, c3, c4], [c1, c2, c3, c4],
         compat_lacks=lacks, strict_lacks=lacks)


def timed_maze():
    begin = start(0.2, 0.6)
    t, sc = {"variable": "timeLeft"}, {"variable": "score"}
    c1 = case("variables_timeleft_and_score_exist",
              begin + [expect({"exists": {"variable": "timeLeft"}}),
                       expect({"exists": {"variable": "score"}})], timeout=20)
    c2 = case("green_flag_sets_timeleft_60_and_score_0",
              begin + [expect({"variable": "timeLeft", "equals": 60, "tolerance": 0.001}),
                       expect({"variable": "score", "equals": 0, "tolerance": 0.001})], timeout=20)
    steps = begin + [mark("t0")]
    for i in range(3):
        steps += [wait(1.05), mark(f"t{i + 1}")]
    c3 = case("timeleft_decreases_about_one_per_second",
              steps + [expect({"count_of": [changed(t, f"t{i}", f"t{i + 1}", by={"min": -1.2, "max": -0.8})
                                            for i in range(3)], "count": {"min": 2}}),
                       expect({"all": [changed(t, f"t{i}", f"t{i + 1}", by={"max": 0})
                                       for i in range(3)]})], timeout=20)
    steps = begin + [mark("sb")]
    back, stall = [], []
    x = prop(BALL, "x")
    for j, (px, py) in enumerate([(-130, 30), (-120, 10), (-100, 0), (-145, 55)]):
        steps += [set_xy(BALL, px, py), wait(0.1), mark(f"p{j}s0")]
        for i in range(9):
            steps += press(RIGHT, 0.11) + [mark(f"p{j}s{i + 1}")]
            back.append(changed(x, f"p{j}s{i}", f"p{j}s{i + 1}", by={"max": -0.5 - EPS}))
            stall.append(changed(x, f"p{j}s{i}", f"p{j}s{i + 1}", by={"min": -0.8 + EPS, "max": 0.8 - EPS}))
    c4 = case("wall_touch_penalizes_score_and_pushes_ball_back",
              steps + [expect({"ever": changed(sc, "sb", by={"max": -EPS}), "since": "sb"}),
                       expect({"any": [{"count_of": back, "count": {"min": 1}},
                                       {"count_of": stall, "count": {"min": 2}}]})], timeout=20)
    c5 = case("goal_touch_adds_50_and_stops_timer",
              begin + [mark("g0"), set_xy(BALL, 200, -150), wait(0.7),
                       until(changed(sc, "g0"), 2.5, required=False), mark("g1"),
                       expect(changed(sc, "g0", "g1", by={"min": 45})), wait(1.3),
                       expect(changed(t, "g1", by={"equals": 0, "tolerance": 0.001}))], timeout=20)
    lacks = ["case 4 stops probing wall points once the score fell; gobo probes all four and "
             "counts blocked samples over all of them"]
    task("extend", "maze_starter_timed_maze_challenge_modify", [c1, c2, c3, c4, c5],
         [c1, c2, c3, c4, c5], compat_lacks=lacks, strict_lacks=lacks)


def auto_snap():
    term = {"distance": BATTERY, "to": {"x": -180, "y": 5}}
    snapped = {"value": term, "max": 5}
    begin = start(0.25, 0.6) + [wait(0.3)]
    put = lambda x, y: [set_xy(BATTERY, x, y), wait(0.3)]
    c1 = case("Battery Snap Within Threshold Test",
              begin + put(-160, 15) + [wait(1.0), until(snapped, 3)], timeout=20)
    far = {"value": term, "min": 50 / 2 ** 0.5}
    c2 = case("Battery No Snap At Boundary Test",
              begin + put(-155, 30) + [wait(2.0), expect(far)], timeout=20)
    c3 = case("Battery No Snap Outside Threshold Test",
              begin + put(-154, 30) + [wait(2.0), expect(far)], timeout=20)
    c4 = case("Battery Gradual Movement Snap Test",
              begin + put(-100, 50) + [wait(0.5)] + put(-140, 25) + [wait(0.5)] + put(-165, 15)
              + [wait(1.0), until(snapped, 3)], timeout=20)
    lacks = ["the script measures Manhattan distances to (-180, 5): snapped within 5, not "
             "snapped at 50 or more; gobo measures straight-line distance: snapped within 5, "
             "not snapped at 35.36 or more (what a Manhattan distance of 50 implies)"]
    task("extend", "simple_circuit_auto_snap_connectors_modify", [c1, c2, c3, c4],
         [c1, c2, c3, c4], compat_lacks=lacks, strict_lacks=lacks)


def variable_brightness():
    bulb = ["Lightbulb", "Bulb", "Lamp", "lightbulb"]
    bright = prop(bulb, "brightness")
    looks_on = {"any": [{"sprite": bulb, "costume_name": {"contains": "on", "case_insensitive": True}},
                        {"sprite": bulb, "effects": {"brightness": {"max": 80 - EPS}}}]}
    on = [setvar("ON or OFF", "ON"), setvar("connections complete", 3), wait(0.1),
          until(looks_on, 1.2)]
    c1 = case("Brightness Decrease Test",
              start(0.2, 0.5) + on + [mark("i"), wait(3), expect(changed(bright, "i", by={"max": -1 - EPS}))],
              timeout=5.7)
    c2 = case("Brightness Recovery Test",
              start(0.2, 0.5) + on + [mark("a"), wait(1.5), setvar("ON or OFF", "OFF"), wait(0.1),
                                      wait(0.3)] + on + [mark("b"),
                                                         expect(changed(bright, "a", "b", by={"min": -2, "max": 2}))],
              timeout=5.7)
    lacks = ["the script finds the bulb by a case-insensitive substring of its name; gobo takes "
             "the names it tries exactly"]
    task("extend", "simple_circuit_variable_brightness_by_resistance_modify", [c1, c2], [c1, c2],
         compat_lacks=lacks, strict_lacks=lacks)


def endless_scrolling():
    score = {"variable": "score"}
    steps = [stop(), wait(0.1), gf(), wait(0.5), mark("s0")]
    for i in range(3):
        steps += [wait(1), mark(f"s{i + 1}")]
    d = lambda i, by: changed(score, f"s{i}", f"s{i + 1}", by=by)
    c1 = case("score_increases_about_once_per_second",
              steps + [expect({"count_of": [d(i, {"min": 0.8, "max": 1.2}) for i in range(3)],
                               "count": {"min": 2}}),
                       expect({"all": [d(i, {"min": -0.1}) for i in range(3)]}),
                       expect(changed(score, "s0", "s3", by={"min": 2}))], timeout=30)
    glide = {"variable": "glideTime"}
    c2 = case("glide_duration_decreases_over_time",
              [stop(), wait(0.1), gf(), wait(0.6), mark("a"), wait(3.8),
               expect(changed(glide, "a", by={"max": -0.05 - EPS}))], timeout=30)
    buildings = ["Buildings", "Building", "Obstacle", "Pipes", "buildings"]
    x = prop(buildings, "x")

    def window(tag):
        return [{"do": "set_sprite", "sprite": buildings, "onto": buildings, "x": 220}, wait(0.25),
                mark(f"{tag}0"), wait(0.9), mark(f"{tag}1")]
    c3 = case("buildings_speed_increases_later",
              [expect({"exists": {"sprite": buildings}}), stop(), wait(0.1), gf(), wait(0.6)]
              + window("e") + [wait(3.5)] + window("l")
              + [expect(changed(x, "e0", "e1", by={"max": -EPS})),
                 expect(changed(x, "l0", "l1", by={"max": -EPS}))], timeout=30)
    lacks = ["case 2 takes the first of glideDuration, glideTime or 'glide duration' (names "
             "compared without case and punctuation); gobo reads glideTime (the golden's name) only",
             "case 3 compares the mean leftward step 4 s apart (faster later); gobo only checks "
             "that the buildings move left in both windows"]
    task("extend", "make_it_fly_endless_scrolling_and_scoring_modify", [c1, c2, c3], [c1, c2, c3],
         compat_lacks=lacks, strict_lacks=lacks)


def building_collision():
    buildings = ["Buildings", "Building", "Obstacle", "Pipes", "buildings", "build"]
    has = [expect({"exists": {"sprite": CAT}}), expect({"exists": {"sprite": buildings}})]
    begin = has + [stop(), wait(0.1), gf(), wait(0.5)]
    x = prop(buildings, "x")
    steps = begin + [mark("b0")]
    for i in range(12):
        steps += [wait(0.12), mark(f"b{i + 1}")]
    c1 = case("buildings_move_leftward_before_collision",
              steps + [expect(series(pos(buildings), "path", "b0", min=8 + EPS)),
                       expect({"any": [changed(x, "b0", "b12", by={"max": -5 - EPS}),
                                       {"count_of": [changed(x, f"b{i}", f"b{i + 1}", by={"max": -0.5 - EPS})
                                                     for i in range(12)], "count": {"min": 3}}]})],
              timeout=30)
    hit = [{"do": "set_sprite", "sprite": CAT, "onto": buildings}, wait(0.12),
           {"do": "set_sprite", "sprite": CAT, "onto": buildings}, wait(0.12)]
    over = {"says": {"contains": "game over", "case_insensitive": True}}
    c2 = case("collision_triggers_game_over_message",
              begin + [mark("h")] + hit + [until(dict(over, since="h"), 4.5 - 0.24)], timeout=30)
    c3 = case("collision_stops_cat_and_buildings_motion",
              begin + hit + [wait(0.5), mark("c"), wait(1.0), mark("d"), wait(1.0),
                             expect(at_mark("d", series(pos(CAT), "path", "c", max=2))),
                             expect(series(pos(buildings), "path", "d", max=2))], timeout=30)
    c4_compat = case("collision_stops_runtime_scripts", begin + hit, timeout=30)
    c4_strict = case("collision_stops_runtime_scripts",
                     begin + hit + [until({"running": False}, 3.5)], timeout=30)
    lacks = ["the script finds sprites by a case-insensitive substring of their names; gobo takes "
             "the names it tries exactly"]
    task("extend", "make_it_fly_building_collision_game_over_modify",
         [c1, c2, c3, c4_compat], [c1, c2, c3, c4_strict],
         compat_lacks=lacks + ["case 4 passes as soon as it is reached, as in the script "
                               "(isVMRunning is always false in scratch-vm 5)"],
         strict_lacks=lacks)


def multi_level():
    begin = [stop(), wait(0.1), gf(), wait(0.6), wait(0.8)]
    level = lambda n: {"variable": "currentLevel", "text": str(n)}
    to_goal = lambda n: [set_xy(BALL, 200, -150), until(level(n), 3)]
    c1 = case("current_level_initializes_to_1",
              [expect({"exists": {"sprite": BALL}})] + begin + [expect(level(1))], timeout=20)
    c2 = case("goal_touch_advances_level_and_backdrop",
              begin + [mark("m")] + to_goal(2) + [until(changed({"backdrop": True}, "m"), 3)],
              timeout=20)
    c3 = case("ball_resets_to_start_after_level_up",
              begin + [mark("s")] + to_goal(2)
              + [expect({"not": {"moved": BALL, "at_least": 30 + EPS, "since": "s"}})], timeout=20)
    win = {"says": {"regex": "you win|win!|victory|congratulations", "case_insensitive": True}}
    final = begin + to_goal(2) + to_goal(3) + [set_xy(BALL, 200, -150), wait(0.9)]
    c4_compat = case("final_level_completion_triggers_win_terminal_state", final, timeout=20)
    c4_strict = case("final_level_completion_triggers_win_terminal_state",
                     final + [until(win, 4)], timeout=20)
    task("extend", "maze_starter_multi_level_maze_progression_modify",
         [c1, c2, c3, c4_compat], [c1, c2, c3, c4_strict],
         compat_lacks=["case 4 passes once the level-ups succeed, as in the script (it also "
                       "accepts a stopped project, and isVMRunning is always false in "
                       "scratch-vm 5); the variable is found by a case-insensitive name"],
         strict_lacks=["the variable is found by a case-insensitive name in the script; gobo "
                       "takes currentLevel exactly"])


def footstep_trail():
    begin = [stop(), wait(0.1), gf(), wait(0.6), wait(0.8), mark("m")]
    walk3 = (press(["right arrow"], 1.2) + [wait(0.2)] + press(["up arrow"], 1.2) + [wait(0.2)]
             + press(["left arrow"], 1.2))
    walk2 = press(["right arrow"], 1.2) + [wait(0.2)] + press(["up arrow"], 1.2)
    c1 = case("movement_creates_trail_clones",
              begin + walk3 + [wait(1.0), expect(changed({"clones_created": BALL}, "m", by={"min": 2}))],
              timeout=20)
    ghost = lambda k: {"sprite": BALL, "property": "ghost", "clone": k}
    compat_fade = {"count_of": [{"ever": {"value": ghost(k), "min": 20}, "since": "m"}
                                for k in range(1, 41)], "count": {"min": 1}}
    strict_fade = {"count_of": [{"any": [{"ever": {"value": ghost(k), "min": 40}, "since": "m"},
                                         series(ghost(k), "range", "m", min=20)]}
                                for k in range(1, 41)], "count": {"min": 1}}
    fade = lambda check: case("trail_clones_increase_ghost_effect",
                              begin + walk2 + [wait(3.0), expect(check)], timeout=20)
    c3 = case("trail_clones_delete_after_fading",
              begin + walk2 + [wait(3.0), expect(changed({"clones_deleted": BALL}, "m", by={"min": 1}))],
              timeout=20)
    c4 = case("active_clone_count_stays_bounded",
              begin + walk3 + [wait(2.0), expect({"extent": {"clones": BALL}, "max": {"max": 30},
                                                  "since": "m"})], timeout=20)
    task("extend", "maze_starter_footstep_trail_with_fading_clones_modify",
         [c1, fade(compat_fade), c3, c4], [c1, fade(strict_fade), c3, c4],
         compat_lacks=["case 2 reads each clone's ghost when the clone is created, before "
                       "scratch-vm copies it (so 0: a clone counts once its ghost reaches 20, "
                       "as gobo checks); gobo looks at the first 40 clones only"],
         strict_lacks=["case 2 looks at the first 40 clones; a clone fades when its ghost "
                       "reaches 40 or varies by 20"])


def click_glide_mover():
    points = [(100, 50), (-80, -60), (150, -100), (-120, 80)]
    dist = lambda x, y: {"distance": "Sprite1", "to": {"x": x, "y": y}}
    steps = [{"do": "mouse_up"}, stop(), wait(0.1), gf(), wait(0.3)]
    reached, glide = [], []
    for i, (x, y) in enumerate(points):
        near = {"value": dist(x, y), "max": 15 - EPS}
        steps += [mark(f"a{i}"), {"do": "mouse_move", "x": x, "y": y}, wait(0.02),
                  {"do": "mouse_down", "x": x, "y": y}, wait(0.12), {"do": "mouse_up"},
                  until(near, 3.2 - 0.14, required=False), mark(f"b{i}"), wait(0.25)]
        reached.append(at_mark(f"b{i}", near))
        glide.append(lambda lo, hi, i=i, near=near: {
            "interval": {"from": {"not": near}, "to": near},
            "seconds": {"min": lo, "max": hi}, "since": {"mark": f"a{i}", "include_mark": True}})
    c1 = case("sprite_responds_to_repeated_clicks",
              steps + [expect({"count_of": reached, "count": {"min": 3}})], timeout=20)
    c2 = case("each_click_glides_about_one_second_to_target",
              steps + [expect({"count_of": [g(0.6, 1.6) for g in glide], "count": {"min": 2}}),
                       expect({"count_of": [g(0.4, 2.2) for g in glide], "count": {"min": 3}})],
              timeout=20)
    c3 = case("movement_is_continuous_not_teleport",
              steps + [expect(series(pos("Sprite1"), "max_step", "a0", max=80)),
                       expect({"count_of": [g(0.15, 86400) for g in glide], "count": {"min": 3}})],
              timeout=20)
    lacks = ["the script only sets the mouse device's down flag (no click events, so no 'when "
             "stage clicked'); gobo presses the button at the point, which also starts click "
             "hats", "the script falls back to the first sprite when there is no Sprite1"]
    task("create", "click_glide_mover", [c1, c2, c3], [c1, c2, c3], compat_lacks=lacks,
         strict_lacks=lacks[1:])


def touching_red():
    paddle = ["Paddle", "paddle", "Player"]
    hold_paddle = {"do": "set_sprite", "sprite": paddle, "onto": paddle, "x": -180}
    y = prop(BALL, "y")
    stopped = {"sequence": [{"running": False}] * 3}
    names = ["game over", "gameover", "game_over", "you lose", "lose", "lost", "end", "the end"]
    signal = {"any": [{"says": {"regex": "game over|you lose|lose|lost|end",
                                "case_insensitive": True}}]
              + [{"broadcast": n} for n in names]}
    steps = start(0.16, 0.5) + [hold_paddle, set_xy(BALL, 120, 120), wait(0.12),
            # 40 ms rounds (2 frames) for the script's 8.5 s
            {"repeat": [hold_paddle, set_xy(BALL, direction=180), wait(0.04)],
             "until": {"sprite": BALL, "y": {"max": -170}}, "max": 127},
            mark("b"),
            {"repeat": [hold_paddle, wait(0.04)],
             "until": {"any": [signal, dict(stopped, since="b")]}, "max": 127, "required": False},
            ]
    low_motion = {"all": [series(pos(BALL), "path", "b", max=12),
                          {"always": {"not": changed(y, "b", by={"min": 8 + EPS})}, "since": "b"}]}
    c = case("ball_reaching_bottom_enters_end_state",
             steps + [expect({"any": [signal, dict(stopped, since="b"), low_motion]})],
             timeout=20)
    task("debug", "pong_starter_touching_red_error", [c], [c],
         compat_lacks=["the script counts any broadcast whose name holds game over, lose, lost or "
                       "end; gobo knows broadcasts by whole name and tries a list of them",
                       "the script stops when scripts are not running for 3 samples in a row; "
                       "gobo stops at the first frame without scripts"])


# ---------------------------------------------------------------- writing
def write():
    manifest_path = os.path.join(BENCH, "manifest.json")
    manifest = json.load(open(manifest_path))
    for t in manifest["tasks"]:
        name = t["name"]
        spec = TASKS.get(name)
        if not spec:
            continue
        cat = spec["category"]
        assert t["category"] == cat, name
        os.makedirs(os.path.join(BENCH, cat), exist_ok=True)
        flav = {}
        for flavour, cases, lacks in (("compat", spec["compat"], spec["compat_lacks"]),
                                      ("strict", spec["strict"], spec["strict_lacks"])):
            if cases is None:
                continue
            if flavour == "compat" and spec["carry"] and len(cases) > 1:
                cases = carried(cases)
            suffix = "" if flavour == "compat" else ".strict"
            rel = f"{cat}/{name}{suffix}.json"
            doc = {"version": 1, "name": f"{name} (ScratchWorld, {flavour})", "missing": "fail",
                   "tests": cases}
            with open(os.path.join(BENCH, rel), "w") as f:
                json.dump(doc, f, indent=1)
                f.write("\n")
            entry = {"status": "partial" if lacks else "complete", "suite": rel}
            if lacks:
                entry["lacks"] = lacks
            flav[flavour] = entry
        t["flavours"] = flav
    with open(manifest_path, "w") as f:
        f.write('{"version": 1, "source": ' + json.dumps(manifest["source"]) + ', "tasks": [\n')
        f.write(",\n".join(json.dumps(t, ensure_ascii=False) for t in manifest["tasks"]))
        f.write("\n]}\n")


for fn in [say_hello, multi_scene_story, bouncing_cat, backdrop_cycler, party_costume,
           maze_start_position, pong_not_moving, maze_overshoot, maze_mapping, maze_walls,
           maze_goal, pong_paddle, ask_and_echo, pong_paddle_moving, balloon_clicker,
           mouse_follower, size_pulse, hide_show_sprite, keyboard_ball,
           math_game_no_more_questions, gravity_ball, math_game_inadequate_repeat,
           drag_to_target, edge_wrap_runner, pong_edge_bouncing, patrolling_obstacles,
           countdown_broadcast, random_walk_explorer, day_night_cycle, math_game_false_negative,
           math_game_invalid_randomness, sprite_conversation, coordinate_button_visibility,
           coordinate_broadcast_missing,
           circuit_battery, circuit_lightbulb, circuit_switch, gravity_flap, timed_maze,
           auto_snap, variable_brightness, endless_scrolling, building_collision, multi_level,
           footstep_trail, click_glide_mover, touching_red]:
    fn()

if __name__ == "__main__":
    write()
