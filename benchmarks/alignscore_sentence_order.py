"""How much the official AlignScore moves with the order of the essential sentences in its reference.

The official 2025 script collects a case's essential sentence ids in a Python `set` and joins the sentences
in that set's iteration order, which for string ids follows PYTHONHASHSEED (random per process unless set).
archehr joins them in note order. This script rebuilds the official order for hash seeds 0..N-1 (each in a
fresh `python` with that PYTHONHASHSEED), scores the references built that way with the stand-in models of
../shared/golden/model-metrics, and prints, per case, the note-order value and the range over the seeds.
MEDCON is printed too (it does not depend on the order: matches never cross the line breaks).

The stand-ins are tiny random models: the figures show the size of the effect on these code paths, not on
the real AlignScore-base checkpoint.

Run: python benchmarks/alignscore_sentence_order.py [--seeds 10] [--fixture test-predict]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO.parent / "shared" / "golden" / "model-metrics"
SPLIT = REPO.parent / "shared" / "data" / "synthetic" / "test"
# The official construction, verbatim in spirit: a set built from the ids in key order, iterated.
SET_ORDER = "import json,sys; print(json.dumps({c: list(set(ids)) for c, ids in json.load(sys.stdin).items()}))"


def set_orders(key_order: dict[str, list[str]], seed: int) -> dict[str, list[str]]:
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    out = subprocess.run([sys.executable, "-c", SET_ORDER], input=json.dumps(key_order), env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--fixture", default="test-predict")
    args = parser.parse_args()
    if not GOLDEN.is_dir():
        sys.exit(f"needs ../shared beside the checkout ({GOLDEN} missing)")

    import nltk

    nltk.data.path.insert(0, str(GOLDEN / "assets" / "nltk_data"))
    from archehr.data.releases import load_split_dir
    from archehr_scoring.metrics.alignscore import AlignScore
    from archehr_scoring.metrics.base import TextExample
    from archehr_scoring.metrics.medcon import Medcon
    from archehr_scoring.score2025 import build_examples, question_text
    from archehr_scoring.submission2025 import load_submission_2025, parse_answer

    split = load_split_dir(SPLIT)
    sub, problems = load_submission_2025(str(GOLDEN / args.fixture / "submission.json"))
    if problems:
        sys.exit("\n".join(map(str, problems)))
    examples = build_examples(split, [parse_answer(cid, ans) for cid, ans in sub.entries], "essential")
    align = AlignScore(ckpt=str(GOLDEN / "assets" / "AlignScore-tiny.ckpt"),
                       model=str(GOLDEN / "assets" / "roberta-tiny"))
    medcon = Medcon(quickumls=str(GOLDEN / "assets" / "quickumls"))
    for metric in (align, medcon):
        if metric.unavailable_reason():
            sys.exit(metric.unavailable_reason())

    def score(exs: list[TextExample]) -> dict[str, tuple[float, float]]:
        a, m = align.run(exs).per_case, medcon.run(exs).per_case
        return {cid: (a[cid]["alignscore"], m[cid]["medcon"]) for cid in a}

    key_order = {ex.case_id: list(split.key_for(ex.case_id).essential_ids) for ex in examples}
    note = score(examples)
    runs = []
    for seed in range(args.seeds):
        orders = set_orders(key_order, seed)
        reordered = []
        for ex in examples:
            case = split.case(ex.case_id)
            text = {s.id: s.text.strip() for s in case.sentences}
            reference = question_text(case) + "\n\n" + "\n".join(text[i] for i in orders[ex.case_id])
            reordered.append(TextExample(ex.case_id, ex.prediction, reference))
        runs.append(score(reordered))

    print(f"{args.fixture}: AlignScore and MEDCON (0..100) with the essential sentences in note order and in the "
          f"official set order under PYTHONHASHSEED 0..{args.seeds - 1}")
    print(f"{'case':>5} {'#ess':>4} {'note order':>10} {'set min':>8} {'set max':>8} {'max |diff|':>10} "
          f"{'MEDCON range':>12}")
    worst = []
    for ex in examples:
        cid = ex.case_id
        values = [r[cid][0] for r in runs]
        medcons = [r[cid][1] for r in runs] + [note[cid][1]]
        diff = max(abs(v - note[cid][0]) for v in values)
        worst.append(diff)
        print(f"{cid:>5} {len(key_order[cid]):>4} {note[cid][0]:>10.2f} {min(values):>8.2f} {max(values):>8.2f} "
              f"{diff:>10.2f} {max(medcons) - min(medcons):>12.2f}")
    means = [statistics.fmean(r[c][0] for c in r) for r in runs]
    print(f"mean AlignScore: note order {statistics.fmean(v[0] for v in note.values()):.2f}, "
          f"set order {min(means):.2f} .. {max(means):.2f}; per-case max |diff| median "
          f"{statistics.median(worst):.2f}, max {max(worst):.2f}")


if __name__ == "__main__":
    main()
