"""Two Python threads each running a one-core XLogo batch, against the same two batches one
after the other: prints both wall times and their ratio (a measurement, not a test; needs the
gobo package installed and hosts/python/tests on the path for its row generator).

    PYTHONPATH=hosts/python/tests python benches/python/threads.py [ROWS]
"""

import os
import sys
import threading
import time

import gobo
from rows import xlogo_rows


def timed_batch(rows):
    t = time.perf_counter()
    gobo.xlogo.evaluate_batch(rows, jobs=1)
    return time.perf_counter() - t


def main():
    rows = xlogo_rows(int(sys.argv[1]) if len(sys.argv) > 1 else 6000, seed=2)
    for attempt in range(3):
        serial = timed_batch(rows) + timed_batch(rows)
        threads = [threading.Thread(target=timed_batch, args=(rows,)) for _ in range(2)]
        t = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        parallel = time.perf_counter() - t
        print(
            f"attempt {attempt}: one after the other {serial:.3f}s, two threads {parallel:.3f}s, "
            f"ratio {parallel / serial:.2f} (load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
        )


if __name__ == "__main__":
    main()
