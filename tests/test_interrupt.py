"""Ctrl+C and SIGTERM stop a long run at once, workers included, with one line and exit status
130 — a real signal sent to a real ``unoarena simulate`` process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

#: A run far longer than the test: it must be the signal that ends it.
LONG = ["simulate", "--players", "4", "--games", "10000000", "--engine", "python"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_signal_stops_a_long_run_at_once(workers: str, sig: signal.Signals) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "unoarena.cli", *LONG, "--workers", workers],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        # a shell's background job starts with SIGINT ignored; a terminal's does not
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(4)  # past start-up: the games (and the workers) are running
        assert proc.poll() is None, proc.communicate()
        sent = time.monotonic()
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)  # Ctrl+C reaches the whole foreground group
        else:
            proc.send_signal(sig)  # SIGTERM reaches only the process it is sent to
        _out, err = proc.communicate(timeout=60)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == ["interrupted"], err
    # the workers' chunks are stopped, not run to their end (minutes); generous for a busy CI
    assert took < 10, took
