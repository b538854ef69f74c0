"""Deterministic XLogo batch rows for the parallel and Ray tests: the example tasks (as JSON
text) with seeded random Python-style programs."""

import json
import random

from conftest import EXAMPLES

MOVES = ["move_forward()", "move_backward()", "turn_left()", "turn_right()"]


def program(rng):
    lines = ["def run():"]
    for _ in range(rng.randint(0, 12)):
        if rng.random() < 0.15:
            lines.append(f"    for i in range({rng.randint(1, 4)}):")
            lines.append(f"        {rng.choice(MOVES)}")
        else:
            lines.append(f"    {rng.choice(MOVES)}")
    if len(lines) == 1:
        lines.append("    pass")
    return "\n".join(lines)


def xlogo_rows(n, seed=1):
    """Rows on the two example tasks; every 10th is find-strawberry's solution (so some rows
    succeed), the rest random programs (goal failures and crashes)."""
    tasks = [json.dumps(json.loads((EXAMPLES / "xlogo" / name).read_text()))
             for name in ("find-strawberry.json", "draw-square.json")]
    solution = (EXAMPLES / "xlogo" / "find-strawberry.py").read_text()
    rng = random.Random(seed)
    return [{"id": i, "task": tasks[0], "code": solution} if i % 10 == 0 else
            {"id": i, "task": tasks[i % len(tasks)], "code": program(rng)} for i in range(n)]
