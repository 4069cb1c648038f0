"""`--workers N` against a scripted OpenAI-compatible server that takes 200 ms per request.

    python benchmarks/llm_workers.py [--cases 100] [--latency 0.2] [--workers 8]

The shipped `openai-server` system, its backend pointed at a scripted server on 127.0.0.1
(response cache off: the repeated cases would be hits), predicts the same cases with --workers 1
and --workers N. Prints both times, the ratio (target: at most 1/6 for 8 workers) and the most
requests the server saw in flight. The demo dev cases are repeated with new ids up to --cases; the
evidence comes from the trained selector and the scripted reply cites the first note sentence of
the prompt, so each case is one request (the shipped LLM evidence would add 5 samples sent
together); the generator's repair uses lexical support (`similarity: lexical`), so the figure
measures the transport, not MiniLM on 2 shared cores. Both runs must write the same submission.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))


def scripted_reply(payload: dict) -> str:
    prompt = payload["messages"][-1]["content"]
    notes = prompt.split("Note sentences", 1)[-1]
    m = re.search(r"(\d+)", notes)
    return f"The note explains this. |{m.group(1) if m else 1}|"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument("--workers", type=int, default=8)
    a = ap.parse_args()
    import yaml
    from llm_fault_server import FaultServer

    from archehr.data.model import Split
    from archehr.data.releases import load_split
    from archehr.pipeline import System
    from archehr.runs import run_split
    from archehr.system_config import find_system_file, parse_system

    src = load_split(REPO / "data" / "demo", "dev")
    cases = tuple(dataclasses.replace(src.cases[i % len(src)], case_id=str(1000 + i)) for i in range(a.cases))
    split = Split(src.name, cases)
    server = FaultServer(latency=a.latency, reply=scripted_reply)
    raw = yaml.safe_load(find_system_file("openai-server").read_text(encoding="utf-8"))
    raw["backend"]["base_url"] = server.url
    raw["generator"]["similarity"] = "lexical"
    raw["selector"] = {"kind": "default", "model": "auto"}  # one request per case: the answer
    raw["backend"]["cache"] = False  # repeated cases would be cache hits, not requests
    times, subs, peaks = {}, {}, {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for workers in (1, a.workers):
                system = System(parse_system(raw, "openai-server (benchmark)"))
                system.prepare(load_split(REPO / "data" / "demo", "test"))
                system.predict(src.cases[0], "2025")  # warm-up: loads the selector (not timed)
                server.max_in_flight = 0
                t = time.perf_counter()
                res = run_split(system, split, "2025", Path(tmp) / f"r{workers}", workers=workers)
                times[workers] = time.perf_counter() - t
                peaks[workers] = server.max_in_flight
                subs[workers] = (Path(tmp) / f"r{workers}" / "submission.json").read_text()
                print(f"--workers {workers}: {a.cases} cases in {times[workers]:.2f}s "
                      f"({len(res.fallbacks)} fallbacks, at most {peaks[workers]} requests in flight)")
    finally:
        server.close()
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    ratio = times[a.workers] / times[1]
    print(f"ratio workers {a.workers} / workers 1 = {ratio:.3f} (1/{1 / ratio:.1f}; target <= 1/6); "
          f"same submission: {subs[1] == subs[a.workers]}; {a.latency * 1000:.0f} ms per request; "
          f"cpus={os.cpu_count()} loadavg={load_avg:.1f}")


if __name__ == "__main__":
    main()
