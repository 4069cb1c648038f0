"""Leaderboard speed: 20 submissions x 100 cases, first run (scoring) and second run (cache only), and the
first run against one `archehr score` of one of the submissions (the ratio; target: at most 4 for 12 x 96).

Builds a fictional 100-case split and 20 seeded random 2025 submissions in a temporary folder,
then times `archehr leaderboard` twice as a user would run it (fresh processes) and prints the
figures. Metrics: the task's default set; model-based ones that are not installed report
themselves unavailable (see the printed LEADERBOARD.md notes).

Run: python benchmarks/leaderboard_speed.py [--runs 20] [--cases 100] [--resamples 1000] [--repeat 1]
(the target's setting: --runs 12 --cases 96; --repeat N prints the median of N fresh folders)
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from archehr.data.model import Case, KeyEntry, NoteSentence, Relevance, SentenceLabel, Split
from archehr.data.releases import write_split

WORDS = ("pain fever dose kidney scan stable chest lung heart blood pressure oxygen patient discharge follow "
         "clinic mild severe antibiotic surgery infection").split()


def make_split(n_cases: int, rng: random.Random) -> Split:
    cases, key = [], []
    for i in range(1, n_cases + 1):
        sents = tuple(NoteSentence(str(j), 1, 0, " ".join(rng.choices(WORDS, k=12)) + ".") for j in range(1, 13))
        note = " ".join(s.text for s in sents)
        offs, pos = [], 0
        for s in sents:
            offs.append(NoteSentence(s.id, 1, pos, s.text))
            pos += len(s.text) + 1
        cases.append(Case(str(i), "My father " + " ".join(rng.choices(WORDS, k=30)) + ".", (),
                          "Why " + " ".join(rng.choices(WORDS, k=8)) + "?", note, tuple(offs), ("Cardiology",)))
        labels = tuple(SentenceLabel(s.id, rng.choice(list(Relevance))) for s in sents)
        key.append(KeyEntry(str(i), labels))
    return Split("test", tuple(cases), tuple(key))


def make_submission(split: Split, rng: random.Random) -> list[dict[str, str]]:
    out = []
    for c in split.cases:
        lines = []
        for _ in range(3):
            ids = sorted(rng.sample(c.sentence_ids, 2), key=int)
            lines.append(" ".join(rng.choices(WORDS, k=15)) + f". |{','.join(ids)}|")
        out.append({"case_id": c.case_id, "answer": "\n".join(lines)})
    return out


def timed(cmd: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=1, help="Time N fresh folders and print the medians.")
    args = ap.parse_args()
    figures = [measure(args) for _ in range(args.repeat)]
    first, second, check, one = (statistics.median(f[i] for f in figures) for i in range(4))
    print(f"leaderboard of {args.runs} submissions x {args.cases} cases, {args.resamples} resamples"
          + (f" (median of {args.repeat})" if args.repeat > 1 else ""))
    print(f"first run (score + bootstrap + paired tests): {first:.2f} s")
    print(f"second run on the unchanged folder (cache):    {second:.2f} s")
    print(f"--check on the unchanged folder (cache):       {check:.2f} s")
    print(f"one `archehr score` of one submission:         {one:.2f} s")
    print(f"first run / one score:                         {first / one:.2f}x")


def measure(args: argparse.Namespace) -> tuple[float, float, float, float]:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        split = make_split(args.cases, rng)
        write_split(split, root / "release" / "test")
        subs = root / "submissions"
        for r in range(args.runs):
            d = subs / f"run-{r:02d}"
            d.mkdir(parents=True)
            (d / "submission.json").write_text(json.dumps(make_submission(split, rng)))
            (d / "run.json").write_text(json.dumps({"system": f"random-{r}", "commit": "0" * 40}))
        cmd = [sys.executable, "-m", "archehr", "leaderboard", str(subs), "--key",
               str(root / "release" / "test" / "archehr-qa_key.json"), "--resamples", str(args.resamples), "-q"]
        key = root / "release" / "test" / "archehr-qa_key.json"
        one = timed([sys.executable, "-m", "archehr", "score", str(subs / "run-00" / "submission.json"), str(key),
                     "--task", "2025", "-q"])
        first = timed(cmd)
        second = timed(cmd)
        check = timed(cmd + ["--check"])
        return first, second, check, one


if __name__ == "__main__":
    main()
