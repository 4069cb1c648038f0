"""A server started as a subprocess for a test module (the real llama.cpp server, `archehr serve`): a free
loopback port, waiting until it answers, and stopping it however the test ends."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get_json(url: str, timeout: float = 5.0) -> dict:
    with urllib.request.urlopen(url, timeout=timeout) as r:  # noqa: S310 - our own 127.0.0.1 servers only
        return json.loads(r.read())


@contextmanager
def running_server(cmd: Sequence[str], ready_url: str, log_path: Path, what: str, wait: float,
                   stop: signal.Signals = signal.SIGTERM, **popen: object) -> Iterator[tuple[subprocess.Popen, dict]]:
    """(the process, the JSON of `ready_url`) once it answers; the test fails with the log's tail if the
    process exits first or does not answer within `wait` seconds. Stopped with `stop`, killed after 20 s."""
    with log_path.open("wb") as log:
        proc = subprocess.Popen(list(cmd), stdout=log, stderr=subprocess.STDOUT, **popen)  # noqa: S603
    try:
        deadline = time.monotonic() + wait
        while True:
            if proc.poll() is not None:
                pytest.fail(f"{what} exited with {proc.returncode}:\n{log_path.read_text(errors='replace')[-2000:]}")
            try:
                ready = get_json(ready_url, timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"{what} did not answer in {wait:g} s:\n"
                                f"{log_path.read_text(errors='replace')[-2000:]}")
                time.sleep(0.1)
        yield proc, ready
    finally:
        if proc.poll() is None:
            proc.send_signal(stop)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
