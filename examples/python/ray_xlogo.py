"""Evaluate a JSON-lines file of XLogo-Mini rows with Ray Data and gobo.

    python examples/python/ray_xlogo.py IN.jsonl OUT_DIR [--address ray://HOST:10001]

IN.jsonl holds one row per line, ``{"id", "task", "code"}`` as for ``gobo xlogo eval
--batch``. OUT_DIR receives JSON-lines files whose lines are, byte for byte, the lines ``gobo
xlogo eval --batch`` writes for those rows (in any order across files); a line that is not JSON
gets ``{"id", "line", "error"}`` as in the CLI.

The rows stay JSON text from end to end: Ray reads lines (``read_text``), each batch of 10,000
goes to ``gobo.xlogo.evaluate_jsonl`` as one bytes object (the GIL released while it works),
and its output lines are written as they are. Parsing the rows into pandas frames and the
results back (``evaluate_batch``) costs about as much per row as the evaluation itself (1M rows
on 2 CPUs: 142 s that way, 62 s this way; docs/performance.md, "Python and Ray").

Without ``--address`` Ray starts locally on this machine's cores; on a cluster pass its address
(or set ``RAY_ADDRESS``): nothing else changes. Every worker needs ``pip install gobo``
(``pip install ./hosts/python``), e.g. through a runtime environment.
"""

import argparse

import pyarrow as pa
import ray
from ray.data.datasource import BlockBasedFileDatasink

import gobo

BATCH_ROWS = 10_000


class JsonLinesSink(BlockBasedFileDatasink):
    """Writes the `line` column's texts, each already a JSON line ending in a newline."""

    def __init__(self, path: str):
        super().__init__(path, file_format="jsonl")

    def write_block_to_file(self, block, file) -> None:
        for chunk in block.to_arrow().column("line").chunks:
            for line in chunk.to_pylist():
                file.write(line)


def evaluate(batch: pa.Table) -> pa.Table:
    """One Ray batch of input lines through gobo (one core per Ray task)."""
    lines = [t for t in batch["text"].to_pylist() if t.strip()]
    out = gobo.xlogo.evaluate_jsonl("\n".join(lines).encode(), jobs=1) if lines else b""
    return pa.table({"line": pa.array(out.splitlines(keepends=True), type=pa.binary())})


def run(inp: str, out: str, address=None, num_cpus=None) -> None:
    ray.init(address=address, num_cpus=num_cpus, include_dashboard=False)
    ds = ray.data.read_text(inp)
    ds.map_batches(evaluate, batch_format="pyarrow", batch_size=BATCH_ROWS).write_datasink(
        JsonLinesSink(out)
    )


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
