"""A dead server with the SHIPPED `openai-server` settings: how long do 10 cases take?

    python benchmarks/llm_dead_server.py [--faults refused,hang,trickle]

Runs `archehr predict --system <openai-server.yaml with only base_url changed>` as a user would
(a fresh process, the demo test split: 10 cases, fresh response cache) against a port nobody
listens on (refused), a server that accepts and never answers (hang) and one that answers one
byte a second (trickle). Prints the wall time, the exit code, how many cases fell back, the
requests sent and their summed seconds (run.json llm_usage). Targets: refused stops before the first case
(exit 3, within 5 s, naming the address); the others under a minute of requests each, every case a
recorded fallback, exit 3 (the model answered no case).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--faults", default="refused,hang,trickle")
    a = ap.parse_args()
    import yaml
    from llm_fault_server import FaultServer, closed_port_url

    from archehr.system_config import find_system_file

    shipped = yaml.safe_load(find_system_file("openai-server").read_text(encoding="utf-8"))
    print("shipped backend options:", json.dumps(shipped["backend"]))
    exe = Path(sys.executable).with_name("archehr")
    for fault in a.faults.split(","):
        server = None if fault == "refused" else FaultServer(mode=fault)
        try:
            with tempfile.TemporaryDirectory() as tmp:
                raw = json.loads(json.dumps(shipped))
                raw["backend"]["base_url"] = closed_port_url() if server is None else server.url
                cfg = Path(tmp) / "openai-server.yaml"
                cfg.write_text(yaml.safe_dump(raw))
                out = Path(tmp) / "run"
                t = time.perf_counter()
                proc = subprocess.run([str(exe), "predict", "--data-dir", str(REPO / "data" / "demo"), "--split",
                                       "test", "--system", str(cfg), "-o", str(out), "--cache-dir",
                                       str(Path(tmp) / "cache"), "--no-progress"],
                                      capture_output=True, text=True, cwd=REPO, check=False)
                sec = time.perf_counter() - t
                run = json.loads((out / "run.json").read_text()) if (out / "run.json").is_file() else {}
                tot = run.get("llm_usage", {}).get("totals", {})
                traceback = "Traceback" in proc.stdout + proc.stderr
                print(f"{fault}: {run.get('n_cases', '?')} cases in {sec:.1f}s, exit {proc.returncode}, "
                      f"{len(run.get('fallbacks', {}))} fallbacks, {tot.get('requests', 0)} requests sent, "
                      f"{tot.get('seconds', 0):.1f} request-seconds (concurrent requests each count), "
                      f"traceback: {traceback}")
        finally:
            if server is not None:
                server.close()
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"cpus={os.cpu_count()} loadavg={load_avg:.1f}")


if __name__ == "__main__":
    main()
