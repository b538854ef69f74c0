"""Score a JSON-lines file of DrawingBench rows with Ray Data and gobo.

    python examples/python/ray_drawing.py IN.jsonl OUT_DIR --dataset dataset_consolidated.json
        [--profile drawingbench-1.0|paper] [--address ray://HOST:10001]

IN.jsonl holds ``{"id", "task_index", "actions_raw"}`` rows (or ``"task"`` as JSON text) as
for ``gobo draw eval --batch``. The dataset is read once per batch on the workers, so its path
must be readable there. Scores are written by pandas with 15 significant digits.
"""

import argparse
import functools

import pandas as pd
import ray

import gobo


def evaluate(batch: pd.DataFrame, dataset: str, profile: str) -> pd.DataFrame:
    rows = batch.to_dict("records")
    return pd.DataFrame(gobo.draw.evaluate_batch(rows, dataset=dataset, profile=profile, jobs=1))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--dataset", required=True)
    p.add_argument("--profile", default="drawingbench-1.0")
    p.add_argument("--address", default=None)
    args = p.parse_args()
    ray.init(address=args.address, include_dashboard=False)
    ray.data.DataContext.get_current().batch_to_block_arrow_format = False
    fn = functools.partial(evaluate, dataset=args.dataset, profile=args.profile)
    (ray.data.read_json(args.input)
        # 10,000 rows per batch, as in ray_xlogo.py: Ray's default of 1,024 costs more in
        # scheduling than the evaluation itself.
        .map_batches(fn, batch_format="pandas", batch_size=10_000)
        .write_json(args.output, pandas_json_args={"double_precision": 15}))


if __name__ == "__main__":
    main()
