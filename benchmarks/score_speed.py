"""Wall time, peak memory and cases/s of the whole `archehr score` process on 100- and 1,000-case inputs.

    python benchmarks/score_speed.py [--sizes 100,1000] [--with-bertscore]

Builds a release of N cases by repeating the synthetic (or demo) cases under new ids, writes a
submission citing each case's essential sentences plus one other (answers cut at 75 words by the
scorer), and runs `python -m archehr score` as a subprocess so imports are counted. The official
script cannot run on this machine (it fetches `evaluate` metric scripts from a hub); the issue
measured it at ~33 s for 96 cases on 2 cores, which is printed alongside for reference.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from archehr.data.model import Split
from archehr.data.releases import demo_dir, load_split_dir, write_split

REPO = Path(__file__).resolve().parents[1]
SYNTHETIC = REPO.parent / "shared" / "data" / "synthetic"
OFFICIAL_96_CASES_S = 33.0  # issue #3: official script, whole process, 96 cases, 2 cores


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
        cases.append(dataclasses.replace(case, case_id=cid))
        keys.append(dataclasses.replace(key, case_id=cid))
        cited = list(key.essential_ids) or [case.sentences[0].id]
        other = next((s.id for s in case.sentences if s.id not in cited), None)
        lines = [f"{case.sentence(sid).text} |{sid}|" for sid in cited]
        if other:
            lines.append(f"See also. |{other}|")
        answers.append({"case_id": cid, "answer": "\n".join(lines)})
    d = out / f"n{n}" / "dev"
    write_split(Split("dev", tuple(cases), tuple(keys)), d)
    sub = out / f"n{n}" / "submission.json"
    sub.write_text(json.dumps(answers))
    return sub, d / "archehr-qa_key.json"


def run(sub: Path, key: Path, metrics: str, extra: list[str]) -> tuple[float, float]:
    code = ("import resource, sys\nfrom archehr.cli.main import main\n"
            "rc = main(sys.argv[1:])\n"
            "print('PEAK_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
            "sys.exit(rc)\n")
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", code, "score", str(sub), str(key), "--metrics", metrics,
                        "--format", "json", "-q", *extra], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"archehr score failed ({p.returncode}):\n{p.stderr[-2000:]}")
    peak = next(int(ln.split()[1]) for ln in p.stderr.splitlines() if ln.startswith("PEAK_KB"))
    return wall, peak / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="100,1000")
    ap.add_argument("--with-bertscore", action="store_true", help="also run all available metrics (MiniLM)")
    args = ap.parse_args()
    configs = [("factuality,bleu,rouge,sari", [])]
    if args.with_bertscore:
        configs.append(("factuality,bleu,rouge,sari,bertscore", ["--bertscore-model", "minilm"]))
    print(f"official script (issue #3 measurement): {OFFICIAL_96_CASES_S:.0f} s / 96 cases "
          f"= {96 / OFFICIAL_96_CASES_S:.1f} cases/s; not runnable here (hub downloads)")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in args.sizes.split(",")):
            sub, key = build(n, Path(tmp))
            for metrics, extra in configs:
                wall, peak_mb = run(sub, key, metrics, extra)
                official_est = OFFICIAL_96_CASES_S * n / 96
                print(f"n={n:5d}  metrics={metrics:<38} wall {wall:7.2f} s  peak {peak_mb:7.1f} MB  "
                      f"{n / wall:8.1f} cases/s  (official, scaled linearly: ~{official_est:.0f} s -> "
                      f"{official_est / wall:.1f}x)")
    print(f"(peak memory of this driver: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")


if __name__ == "__main__":
    main()
