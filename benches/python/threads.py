"""Two Python threads each running a one-core XLogo batch, against the same two batches one
after the other, for both batch forms: `evaluate_batch` (dicts, which hold the GIL while they
are built) and `evaluate_jsonl` (JSON Lines bytes, the GIL held only to copy them). Prints wall
times, their ratio, and the process CPU time over wall time while the two threads work (a
measurement, not a test; needs the gobo package installed and hosts/python/tests on the path
for its row generator).

    PYTHONPATH=hosts/python/tests python benches/python/threads.py [ROWS]

On free cores, a ratio near 0.5 and CPU/wall near 2 mean the two threads ran in parallel. A
loaded machine caps them both: the kernel's autogroup scheduling gives a process a share of the
CPU however many threads it runs, so read the figures with the load printed beside them.
"""

import json
import os
import resource
import sys
import threading
import time

import gobo
from rows import xlogo_rows


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def serial_and_threads(batch):
    t = time.perf_counter()
    batch()
    batch()
    serial = time.perf_counter() - t
    threads = [threading.Thread(target=batch) for _ in range(2)]
    c, t = cpu(), time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    parallel, used = time.perf_counter() - t, cpu() - c
    return serial, parallel, used / parallel


def main():
    rows = xlogo_rows(int(sys.argv[1]) if len(sys.argv) > 1 else 6000, seed=2)
    lines = "".join(json.dumps(r) + "\n" for r in rows).encode()
    forms = {
        "evaluate_batch (dicts)": lambda: gobo.xlogo.evaluate_batch(rows, jobs=1),
        "evaluate_jsonl (bytes)": lambda: gobo.xlogo.evaluate_jsonl(lines, jobs=1),
    }
    for attempt in range(3):
        for name, batch in forms.items():
            serial, parallel, cpu_wall = serial_and_threads(batch)
            print(
                f"attempt {attempt} {name}: one after the other {serial:.3f}s, two threads "
                f"{parallel:.3f}s, ratio {parallel / serial:.2f}, CPU/wall {cpu_wall:.2f} "
                f"(load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
            )


if __name__ == "__main__":
    main()
