"""Evaluate a JSON-lines file of XLogo-Mini rows on one machine with multiprocessing.

    python examples/python/multiprocessing_xlogo.py IN.jsonl OUT.jsonl [--processes N]

Rows are ``{"id", "task", "code"}`` as for ``gobo xlogo eval --batch``; OUT.jsonl gets the same
rows as that command, in input order. One ``gobo.xlogo.evaluate_batch`` call already uses every
core with the GIL released, so a process pool only pays off when other Python work per chunk
(reading, post-processing) needs the cores too; both are shown.
"""

import argparse
import json
from multiprocessing import Pool

import gobo

CHUNK = 2048


def evaluate_chunk(rows):
    return gobo.xlogo.evaluate_batch(rows, jobs=1)


def chunks(rows, n):
    for i in range(0, len(rows), n):
        yield rows[i:i + n]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--processes", type=int, default=None, help="0: one batch call in this process")
    args = p.parse_args()
    with open(args.input, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    if args.processes == 0:
        results = gobo.xlogo.evaluate_batch(rows)
    else:
        with Pool(args.processes) as pool:
            results = [r for part in pool.imap(evaluate_chunk, chunks(rows, CHUNK)) for r in part]
    with open(args.output, "w", encoding="utf-8") as f:
        for row in results:
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
