"""`archehr serve` under load: start-up time, answer latency (200 requests, 8 at a time), server memory, and
the runs page on two runs.

    python benchmarks/serve_load.py [--system trained-extractive] [--requests 200] [--concurrency 8]
        [--runs-data ../shared/data/synthetic --runs-split test]

Starts the server as a user would (`python -m archehr serve` on a free 127.0.0.1 port) and prints:
- start-up: seconds from process start to the first /api/health answer (the port is open, the system loaded),
  and to `ready` (the sentence splitter warmed up in the background: spaCy when installed);
- one at a time: 10 fresh notes answered one after another (the ask page's wait, server time and wall time);
- load: --requests POST /api/answer, --concurrency in flight, notes of the bundled demo release (fictional);
  latency percentiles and requests/s;
- memory: the server's resident set size after the load (VmRSS) and its peak (VmHWM), from /proc;
- runs page: two runs made by `archehr predict` (trained-extractive and lexical-extractive) on --runs-split of
  --runs-data (default: the synthetic release in ../shared when present, else the demo), the page's first load
  (scoring both) and a second one, and how many cases it shows.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str, timeout: float = 60) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:  # noqa: S310 - our own 127.0.0.1 server
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def post(url: str, body: dict, timeout: float = 120) -> tuple[int, dict]:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:  # noqa: S310
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(q / 100 * len(xs)) - 1))]


def proc_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return -1


def make_runs(data: Path, split: str, out: Path) -> list[Path]:
    runs = []
    for system in ("trained-extractive", "lexical-extractive"):
        d = out / system
        subprocess.run([sys.executable, "-m", "archehr", "predict", "--data-dir", str(data), "--split", split,
                        "--system", system, "-o", str(d), "--no-progress"], check=True, capture_output=True)
        runs.append(d)
    return runs


def start_server(cmd: list[str], cwd: str, log: Path) -> tuple[subprocess.Popen, float, float]:
    """Start `archehr serve`; return the process and the seconds to its first /api/health answer and to ready."""
    with log.open("wb") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
    base = cmd_base(cmd)
    up = None
    while True:
        if proc.poll() is not None:
            sys.exit(f"server exited: {log.read_text()}")
        try:
            _, body = get(base + "/api/health", timeout=2)
        except OSError:
            time.sleep(0.05)
            continue
        if up is None:
            up = time.perf_counter() - t0
        if json.loads(body)["ready"]:
            return proc, up, time.perf_counter() - t0
        time.sleep(0.05)


def cmd_base(cmd: list[str]) -> str:
    return f"http://127.0.0.1:{cmd[cmd.index('--port') + 1]}"


def one_at_a_time(base: str, cases: list, questions: list[str]) -> None:
    """Ten fresh notes answered one after another: the ask page's wait."""
    walls, server = [], []
    body: dict = {}
    for i in range(10):
        c = cases[-1 - i]
        t = time.perf_counter()
        status, body = post(base + "/api/answer", {"note": c.note_excerpt, "question": questions[-1 - i]})
        walls.append(time.perf_counter() - t)
        if status != 200:
            sys.exit(f"/api/answer answered {status}: {body}")
        server.append(body["seconds"])
    print(f"one at a time (10 fresh notes): wall median {statistics.median(walls):.3f} s, max "
          f"{max(walls):.3f} s; server time median {statistics.median(server):.3f} s "
          f"(splitter {body['splitter']})")


def under_load(base: str, cases: list, questions: list[str], requests: int, concurrency: int) -> None:
    """`requests` answers with `concurrency` in flight: latency percentiles and throughput."""
    def one(i: int) -> tuple[float, int]:
        c = cases[i % len(cases)]
        t = time.perf_counter()
        status, _ = post(base + "/api/answer", {"note": c.note_excerpt, "question": questions[i % len(cases)]})
        return time.perf_counter() - t, status

    t = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as ex:
        got = list(ex.map(one, range(requests)))
    total = time.perf_counter() - t
    lat = [x for x, _ in got]
    bad = sum(s != 200 for _, s in got)
    print(f"load: {requests} answers, {concurrency} at a time, {total:.1f} s ({requests / total:.1f}/s); "
          f"latency p50 {pct(lat, 50):.3f} s, p90 {pct(lat, 90):.3f} s, p99 {pct(lat, 99):.3f} s, "
          f"max {max(lat):.3f} s; non-200: {bad}")


def runs_page(base: str, split: str) -> None:
    """The runs page on two runs: its first load (scoring both) and a second one."""
    for label in ("first load (scores both runs)", "second load"):
        t = time.perf_counter()
        status, body = get(f"{base}/runs?split={split}&run=0&run=1")
        dt = time.perf_counter() - t
        n = len(re.findall(rb'<section class="case"', body))
        print(f"runs page, {label}: {dt:.2f} s, status {status}, 2 runs x {n} cases")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--system", default="trained-extractive")
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--concurrency", type=int, default=8)
    shared = REPO.parent / "shared" / "data" / "synthetic"
    ap.add_argument("--runs-data", default=str(shared if shared.is_dir() else REPO / "data" / "demo"))
    ap.add_argument("--runs-split", default="test")
    a = ap.parse_args()

    from archehr.data import load_split

    cases = [c for s in ("test", "dev") for c in load_split(None, s).cases if c.note_excerpt]
    questions = [c.clinician_question or "What happened?" for c in cases]
    print(f"cpus: {os.cpu_count()}; load average {os.getloadavg()[0]:.1f}; system {a.system}; "
          f"{len(cases)} demo notes")

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        runs = make_runs(Path(a.runs_data), a.runs_split, Path(tmp) / "runs")
        print(f"made 2 runs on {a.runs_data} {a.runs_split} in {time.perf_counter() - t:.1f} s")
        cmd = [sys.executable, "-m", "archehr", "serve", "--system", a.system, "--port", str(free_port()),
               "--data-dir", a.runs_data] + [x for r in runs for x in ("--runs", str(r))]
        proc, up, ready = start_server(cmd, tmp, Path(tmp) / "server.log")
        base = cmd_base(cmd)
        try:
            print(f"start-up: /api/health answered {up:.2f} s after start; ready (splitter warmed) {ready:.2f} s")
            one_at_a_time(base, cases, questions)
            under_load(base, cases, questions, a.requests, a.concurrency)
            print(f"memory: server RSS {proc_kb(proc.pid, 'VmRSS') / 1024:.0f} MB after the load, peak "
                  f"{proc_kb(proc.pid, 'VmHWM') / 1024:.0f} MB")
            runs_page(base, a.runs_split)
        finally:
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
