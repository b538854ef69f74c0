"""Score a JSON-lines file of DrawingBench rows with Ray Data and gobo.

    python examples/python/ray_drawing.py IN.jsonl OUT_DIR --dataset dataset_consolidated.json
        [--profile drawingbench-1.0|paper] [--address ray://HOST:10001]

IN.jsonl holds ``{"id", "task_index", "actions_raw"}`` rows (or ``"task"`` as JSON text) as
for ``gobo draw eval --batch``. The dataset is read once per batch on the workers, so its path
must be readable there. Scores are written by pandas with 15 significant digits.
"""

import argparse
import functools

import pyarrow as pa
import ray
from ray.data.datasource import BlockBasedFileDatasink

import gobo


class JsonLinesSink(BlockBasedFileDatasink):
    """Writes the `line` column's texts, each already a JSON line (as in ray_xlogo.py)."""

    def __init__(self, path: str):
        super().__init__(path, file_format="jsonl")

    def write_block_to_file(self, block, file) -> None:
        for chunk in block.to_arrow().column("line").chunks:
            for line in chunk.to_pylist():
                file.write(line)


def evaluate(batch: pa.Table, dataset: str, profile: str) -> pa.Table:
    lines = [t for t in batch["text"].to_pylist() if t.strip()]
    data = "\n".join(lines).encode()
    out = gobo.draw.evaluate_jsonl(data, dataset=dataset, profile=profile, jobs=1) if lines else b""
    return pa.table({"line": pa.array(out.splitlines(keepends=True), type=pa.binary())})


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--dataset", required=True)
    p.add_argument("--profile", default="drawingbench-1.0")
    p.add_argument("--address", default=None)
    args = p.parse_args()
    ray.init(address=args.address, include_dashboard=False)
    fn = functools.partial(evaluate, dataset=args.dataset, profile=args.profile)
    (ray.data.read_text(args.input)
        .map_batches(fn, batch_format="pyarrow", batch_size=10_000)
        .write_datasink(JsonLinesSink(args.output)))


if __name__ == "__main__":
    main()
