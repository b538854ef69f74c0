"""Evaluate a JSON-lines file of XLogo-Mini rows with Ray Data and gobo.

    python examples/python/ray_xlogo.py IN.jsonl OUT_DIR [--address ray://HOST:10001]

IN.jsonl holds one row per line, ``{"id", "task", "code"}`` as for ``gobo xlogo eval
--batch``. Keep ``task`` as the task's JSON text (a string) and ``code`` as Python-style
source: Arrow, which Ray Data reads JSON with, keeps strings intact, whereas it would merge the
fields of differently shaped task objects. OUT_DIR receives JSON-lines files whose rows are
``gobo xlogo eval --batch``'s rows (in any order across files).

Without ``--address`` Ray starts locally on this machine's cores; on a cluster pass its address
(or set ``RAY_ADDRESS``): nothing else changes. Every worker needs ``pip install gobo``
(``pip install ./hosts/python``), e.g. through a runtime environment.
"""

import argparse

import pandas as pd
import ray

import gobo

BATCH_ROWS = 10_000


def evaluate(batch: pd.DataFrame) -> pd.DataFrame:
    """One Ray batch through gobo's batch call (the GIL released; one core per Ray task)."""
    return pd.DataFrame(gobo.xlogo.evaluate_batch(batch.to_dict("records"), jobs=1))


def run(inp: str, out: str, address=None, num_cpus=None) -> None:
    ray.init(address=address, num_cpus=num_cpus, include_dashboard=False)
    ctx = ray.data.DataContext.get_current()
    # Keep gobo's rows as they are: written from pandas blocks, not merged into Arrow structs.
    ctx.batch_to_block_arrow_format = False
    # Batches of 10,000 rows: Ray's default (1,024) spends more on scheduling and moving
    # blocks than gobo spends evaluating them (1M rows on 2 CPUs: 182 s by default, see
    # docs/performance.md "Python and Ray").
    ds = ray.data.read_json(inp)
    ds.map_batches(evaluate, batch_format="pandas", batch_size=BATCH_ROWS).write_json(out)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--address", default=None, help="Ray cluster address (default: local)")
    p.add_argument("--num-cpus", type=int, default=None, help="CPUs of a local Ray")
    args = p.parse_args()
    run(args.input, args.output, args.address, args.num_cpus)


if __name__ == "__main__":
    main()
