"""Wall time, peak memory and cases/s of the whole `archehr score` process on 100- and 1,000-case inputs.

    python benchmarks/score_speed.py [--sizes 100,1000] [--with-bertscore] [--repeats 3]

Builds a release of N cases by repeating the synthetic dev (or demo) cases under new ids, writes a
submission citing each case's essential sentences plus one other (answers cut at 75 words by the
scorer), and runs `python -m archehr score` as a subprocess so start-up and imports are counted.
Each copy gets a distinct narrative, question and answer (a "Copy N" prefix), so no per-text cache
can make a repeated case free: every case costs what a new case costs.

Peak memory is the child's maximum resident set size (ru_maxrss of that child alone, from
`os.wait4`; the same field `getrusage(RUSAGE_CHILDREN)` reports, without the max over earlier
children). The official
script cannot run on this machine (it fetches `evaluate` metric scripts from a hub): the reference
figure is issue #3's measurement, ~33 s for 96 cases on 2 cores, NOT measured here, scaled
linearly per case for other sizes.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from archehr.data.model import Split
from archehr.data.releases import demo_dir, load_split_dir, write_split

REPO = Path(__file__).resolve().parents[1]
SYNTHETIC = REPO.parent / "shared" / "data" / "synthetic"
OFFICIAL_96_CASES_S = 33.0  # issue #3 (reference figure, not measured here): official script, 96 cases, 2 cores
LEXICAL = "factuality,bleu,rouge,sari"


def source_splits() -> list[Split]:
    if (SYNTHETIC / "dev").is_dir():
        return [load_split_dir(SYNTHETIC / "dev")]  # dev only: the test split is never used for tuning or benchmarks
    return [load_split_dir(demo_dir() / "dev")]


def build(n: int, out: Path) -> tuple[Path, Path]:
    base = [(s, c) for s in source_splits() for c in s.cases if s.key is not None]
    cases, keys, answers = [], [], []
    for i in range(n):
        split, case = base[i % len(base)]
        key = split.key_for(case.case_id)
        cid = str(i + 1)
        tag = f"Copy {i + 1}: "  # makes every text distinct (no cache hit across copies)
        cases.append(dataclasses.replace(case, case_id=cid, patient_narrative=tag + (case.patient_narrative or ""),
                                         clinician_question=tag + (case.clinician_question or "")))
        keys.append(dataclasses.replace(key, case_id=cid))
        cited = list(key.essential_ids) or [case.sentences[0].id]
        other = next((s.id for s in case.sentences if s.id not in cited), None)
        lines = [f"{tag if j == 0 else ''}{case.sentence(sid).text} |{sid}|" for j, sid in enumerate(cited)]
        if other:
            lines.append(f"See also. |{other}|")
        answers.append({"case_id": cid, "answer": "\n".join(lines)})
    d = out / f"n{n}" / "dev"
    write_split(Split("dev", tuple(cases), tuple(keys)), d)
    sub = out / f"n{n}" / "submission.json"
    sub.write_text(json.dumps(answers, indent=1))
    return sub, d / "archehr-qa_key.json"


def run(sub: Path, key: Path, metrics: str, extra: list[str], out: Path) -> tuple[float, float]:
    """(wall seconds, peak RSS MB) of one `python -m archehr score` child process.

    `os.wait4` returns the rusage of exactly this child (RUSAGE_CHILDREN would be the max over all
    children so far); ru_maxrss is in KB on Linux.
    """
    env = {**os.environ, "PYTHONHASHSEED": "random"}  # results must not depend on the hash seed
    cmd = [sys.executable, "-m", "archehr", "score", str(sub), str(key), "--metrics", metrics, "--format", "json",
           "-q", *extra]
    with open(out / "stdout", "w") as so, open(out / "stderr", "w") as se:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=so, stderr=se, env=env)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"archehr score failed ({p.returncode}):\n{(out / 'stderr').read_text()[-2000:]}")
    json.loads((out / "stdout").read_text())  # the run must have produced a report
    return wall, usage.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="100,1000")
    ap.add_argument("--with-bertscore", action="store_true", help="also run all metrics available here (MiniLM)")
    ap.add_argument("--repeats", type=int, default=3, help="runs per configuration; the median is printed")
    args = ap.parse_args()
    configs = [(LEXICAL, [])]
    if args.with_bertscore:
        configs.append((LEXICAL + ",bertscore", ["--bertscore-model", "minilm"]))
    print(f"reference (issue #3, NOT measured here; the official script cannot run on this machine): "
          f"{OFFICIAL_96_CASES_S:.0f} s / 96 cases = {96 / OFFICIAL_96_CASES_S:.1f} cases/s, scaled per case below")
    print(f"load average before: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cpus; median of {args.repeats} runs")
    with tempfile.TemporaryDirectory() as tmp:
        sizes = sorted(int(x) for x in args.sizes.split(","))
        for metrics, extra in configs:
            for n in sizes:
                sub, key = build(n, Path(tmp))
                runs = [run(sub, key, metrics, extra, Path(tmp)) for _ in range(args.repeats)]
                wall = statistics.median(w for w, _ in runs)
                peak_mb = max(p for _, p in runs)
                official_est = OFFICIAL_96_CASES_S * n / 96
                print(f"n={n:5d}  metrics={metrics:<38} wall {wall:7.2f} s (runs: "
                      f"{', '.join(f'{w:.2f}' for w, _ in runs)})  peak {peak_mb:7.1f} MB  {n / wall:8.1f} cases/s  "
                      f"vs reference ~{official_est:.0f} s: {official_est / wall:.1f}x")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
