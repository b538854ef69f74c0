"""Batch calls release the GIL: another Python thread runs while a batch works. Also: objects
ship to worker processes (pickling). Whether two threads' batches run faster together than one
after the other is a timing, measured by benches/python/threads.py, not asserted here."""

import pickle
import threading
import time
from multiprocessing import get_context


import gobo
from conftest import EXAMPLES
from rows import xlogo_rows

ROWS = xlogo_rows(6000, seed=2)


def timed_batch(rows, jobs=1):
    t = time.perf_counter()
    gobo.xlogo.evaluate_batch(rows, jobs=jobs)
    return time.perf_counter() - t


def test_python_threads_run_while_a_batch_works():
    # A pure-Python counter thread; with the GIL held by the batch it would stall for the whole
    # call (Python hands the GIL over only between bytecodes).
    stop, ticks = threading.Event(), [0]

    def count():
        while not stop.is_set():
            ticks[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    time.sleep(0.05)
    before = ticks[0]
    batch_seconds = timed_batch(ROWS * 2)
    during = ticks[0] - before
    stop.set()
    counter.join()
    print(f"counter ticks during a {batch_seconds:.2f}s batch: {during}")
    # Held GIL: a few ticks at most (the switch interval is 5 ms). Released: tens of thousands.
    assert during > 10_000, during


def _evaluate_in_child(payload):
    task, code = pickle.loads(payload)
    return task.evaluate(code)


def test_objects_pickle_into_worker_processes():
    task = gobo.xlogo.Task(EXAMPLES / "xlogo" / "find-strawberry.json")
    code = (EXAMPLES / "xlogo" / "find-strawberry.py").read_text()
    project = gobo.scratch.Project(EXAMPLES / "scratch" / "guess")
    with get_context("spawn").Pool(2) as pool:
        got = pool.map(_evaluate_in_child, [pickle.dumps((task, code))] * 2)
        summaries = pool.starmap(_run_summary, [(project,)] * 2)
    assert got == [task.evaluate(code)] * 2
    assert summaries == [gobo.scratch.run(project, until_idle=True, trace=False)] * 2


def _run_summary(project):
    return gobo.scratch.run(project, until_idle=True, trace=False)
