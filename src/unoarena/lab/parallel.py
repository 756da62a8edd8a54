"""Running a job's games in chunks: in this process, in worker processes, or on a Ray cluster.

A task is a module-level function ``task(job, start, stop)`` that plays games ``start..stop-1``
of ``job`` (a picklable value) and returns one result for the chunk. Whatever runs the chunks,
the results come back in chunk order, and since every game's seeds depend only on the job's
seed and the game's index (:func:`~unoarena.seeding.derive`), the merged result is the same
for one process, many, or a cluster.

Worker processes are started with the ``spawn`` method: it works the same on every platform,
never inherits a half-used state of the parent (threads, open files, a Ray connection), and so
needs the task to be importable by name, which module-level functions are.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TypeVar

from .common import LabError, Progress, plan

J = TypeVar("J")
R = TypeVar("R")

def run_chunks(task: Callable[[J, int, int], R], job: J, total: int, *, workers: int = 1,
               cluster: str | None = None, progress: Progress | None = None,
               scale: int = 1) -> list[R]:
    """Play games ``0..total-1`` of ``job`` with ``task`` and return the chunk results in order.

    ``workers`` 1 plays in this process; more starts that many worker processes; ``cluster``
    (``local``, ``auto`` or a Ray address) sends the chunks to Ray as tasks, ``workers`` then
    being the CPUs of a local Ray instance this call starts (0: all of them). ``scale``
    multiplies the chunk sizes, for tasks whose games are that much cheaper (the kernel).
    """
    if workers < 0 or (workers == 0 and not cluster):
        raise LabError(f"--workers must be 1 or more (0 is allowed only with --cluster, meaning "
                       f"every CPU), not {workers}")
    if cluster:
        from .cluster import run_on_ray

        return run_on_ray(task, job, total, address=cluster, cpus=workers, progress=progress,
                          scale=scale)
    if workers == 1 or total <= 1:
        return _run_here(task, job, total, progress, scale)
    return _run_processes(task, job, total, workers, progress, scale)


def _run_here(task: Callable[[J, int, int], R], job: J, total: int,
              progress: Progress | None, scale: int = 1) -> list[R]:
    # small chunks: the progress bar moves smoothly and nothing is lost by it in one process
    out: list[R] = []
    for start, stop in plan(total, 100, 250 * scale):
        out.append(task(job, start, stop))
        if progress is not None:
            progress(stop)
    return out


def _run_processes(task: Callable[[J, int, int], R], job: J, total: int, workers: int,
                   progress: Progress | None, scale: int = 1) -> list[R]:
    # several chunks per worker, so that a slow chunk (long matches, a slow bot) does not leave
    # the others idle at the end, but not so many that sending results back dominates
    chunks = plan(total, workers * 8, 2000 * scale)
    results: list[R | None] = [None] * len(chunks)
    done = 0
    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=ctx)
    try:
        futures: dict[Future[R], int] = {
            pool.submit(task, job, a, b): i for i, (a, b) in enumerate(chunks)}
        pending: set[Future[R]] = set(futures)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                i = futures[f]
                results[i] = f.result()  # a worker's exception is raised here
                a, b = chunks[i]
                done += b - a
            if progress is not None:
                progress(done)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    out: list[R] = []
    for r in results:
        assert r is not None  # every future either returned or raised above
        out.append(r)
    return out
