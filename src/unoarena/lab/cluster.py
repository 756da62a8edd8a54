"""Chunks of games as Ray tasks: ``--cluster local`` (a Ray instance on this machine, started and
stopped by the command), ``--cluster auto`` (the Ray instance already running here) or a cluster
address (``ray://head:10001`` or ``head:6379``).

Ray is an optional extra (``pip install 'unoarena[cluster]'``); nothing imports it until a
cluster is asked for. The chunks are those of a local run, and their results are merged in chunk
order, so a cluster gives exactly the numbers a local run gives for the same seed. When Ray is
already initialised (a notebook, a test, a driver script), the lab uses that connection and
leaves it open.

For a remote cluster the ``unoarena`` package of this machine is shipped with the job
(Ray's ``py_modules``), so that the workers play with the same rules and bots as the caller.
"""

from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .common import LabError, Progress, plan

J = TypeVar("J")
R = TypeVar("R")

INSTALL_HINT = "pip install 'unoarena[cluster]' (or pip install ray)"


def ray_module() -> Any:
    """The ``ray`` module, or a :class:`LabError` that says how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise LabError(f"--cluster needs Ray, which is not installed: {INSTALL_HINT}") from None


def connect(address: str, cpus: int = 0) -> bool:
    """Connect to (or start) Ray for ``address``; True when this call started the connection
    (and so should close it). ``cpus`` limits a ``local`` instance (0: every CPU)."""
    ray = ray_module()
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                               "logging_level": logging.ERROR}
    if address == "local":
        options["address"] = "local"
        if cpus:
            options["num_cpus"] = cpus
    else:
        options["address"] = address
        if address != "auto":
            package = Path(__file__).resolve().parent.parent
            options["runtime_env"] = {"py_modules": [str(package)]}
    try:
        ray.init(**options)
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise LabError(f"cannot use the Ray cluster {address!r}: {e} (give local, auto, or "
                       "the address of a running cluster, e.g. ray://head:10001)") from None
    return True


def run_on_ray(task: Callable[[J, int, int], R], job: J, total: int, *, address: str,
               cpus: int = 0, progress: Progress | None = None, scale: int = 1) -> list[R]:
    """Play games ``0..total-1`` of ``job`` as Ray tasks; results in chunk order."""
    ray = ray_module()
    started = connect(address, cpus)
    try:
        available = int(ray.cluster_resources().get("CPU", 1)) or 1
        chunks = plan(total, available * 4, 2000 * scale)
        remote = ray.remote(num_cpus=1)(task)
        job_ref = ray.put(job)
        refs = [remote.remote(job_ref, a, b) for a, b in chunks]
        size = {ref: b - a for ref, (a, b) in zip(refs, chunks, strict=True)}
        pending = list(refs)
        done = 0
        last = 0.0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=1.0)
            for ref in ready:
                done += size[ref]
            now = time.monotonic()
            if progress is not None and ready and (not pending or now - last > 0.05):
                last = now
                progress(done)
        results: list[R] = ray.get(refs)  # in chunk order; a task's exception is raised here
        return results
    finally:
        if started:
            ray.shutdown()
