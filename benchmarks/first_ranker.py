"""Fit and measure the learned first-line ranker (`archehr.answerability.first_rank`) on the everyday questions.

Each answerable question's candidates (the hand ranking's best K sentences, `archehr.ask.first_line_candidates`)
are labelled by its gold sentences. Printed, over the writers of `benchmarks/everyday.py`:
- the candidates' recall (a gold sentence among the K: what any reordering is bounded by);
- the hand ranking's first among the candidates against the ranker's, each writer's questions chosen by a ranker
  fitted without that writer (leave-one-writer-out) and, forward, writers from --forward-from on by a ranker
  fitted on the writers before it (declines not counted here: `everyday.py --first-ranker` measures the answer
  whole, with the typed model refitted per fold).

    python benchmarks/first_ranker.py                      # LOWO and forward (AV ... on A ... AU) figures
    python benchmarks/first_ranker.py --fit archehr/answerability/model_first.json   # fit on all writers
    python benchmarks/first_ranker.py --l2 1 3 10 30 100   # the regularisation's effect (LOWO)
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from everyday import WRITERS, Question, load_questions, writer_of  # noqa: E402

from archehr.answerability.first_rank import FEATURES, L2, K, fit_first_ranker  # noqa: E402


def question_groups(qs: list[Question], system: Any, k: int = K) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(writer, candidate rows, gold mask) for each answerable question."""
    from archehr.ask import first_line_candidates

    out = []
    for q in qs:
        if not q.answerable:
            continue
        cands, ids = first_line_candidates(q.note, q.question, system, k)
        gold = np.array([ids[i] in q.gold for i in cands.index], dtype=bool)
        out.append((writer_of(q.source), cands.rows, gold))
    return out


def fit_on(groups: list[tuple[str, np.ndarray, np.ndarray]], writers: set[str], l2: float = L2, k: int = K) -> Any:
    return fit_first_ranker([(x, g) for w, x, g in groups if w in writers], l2=l2, k=k,
                            training={"writers": sorted(writers)})


def scored(groups: list[tuple[str, np.ndarray, np.ndarray]], held: set[str], ranker: Any) -> tuple[list, list]:
    """(hand hits, ranker hits) for the held-out writers' questions (no candidate: a miss for both)."""
    hand, learned = [], []
    for w, x, g in groups:
        if w not in held:
            continue
        hand.append(bool(g[0]) if len(g) else False)
        learned.append(bool(g[int(np.argmax(ranker.scores(x)))]) if len(g) else False)
    return hand, learned


def report(name: str, hand: list[bool], learned: list[bool]) -> None:
    h, r = np.array(hand, dtype=float), np.array(learned, dtype=float)
    # paired bootstrap of the difference (questions resampled)
    rng = np.random.default_rng(0)
    diffs = [float((r[i] - h[i]).mean()) for i in (rng.integers(0, len(h), len(h)) for _ in range(2000))]
    lo, hi = np.percentile(diffs, [2.5, 97.5])
    print(f"| {name} | {len(h)} | {100 * h.mean():.1f}% | {100 * r.mean():.1f}% | {100 * (r.mean() - h.mean()):+.1f} "
          f"({100 * lo:+.1f} to {100 * hi:+.1f}) | {int(((r == 1) & (h == 0)).sum())} / "
          f"{int(((r == 0) & (h == 1)).sum())} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--writers", nargs="+", default=list(WRITERS))
    ap.add_argument("--forward-from", default="AV")
    ap.add_argument("--k", type=int, default=K)
    ap.add_argument("--l2", type=float, nargs="+", default=[L2])
    ap.add_argument("--cache", type=Path, help="candidate rows kept here (pickle) between runs")
    ap.add_argument("--fit", type=Path, metavar="OUT", help="fit on all the writers and write the model here")
    args = ap.parse_args(argv)
    writers = list(args.writers)
    if args.cache and args.cache.exists():
        groups = pickle.loads(args.cache.read_bytes())
    else:
        from archehr.pipeline import load_system

        base = ROOT / "data" / "everyday"
        qs = load_questions([base / f for w in writers for f in WRITERS[w]])
        groups = question_groups(qs, load_system(None), args.k)
        if args.cache:
            args.cache.write_bytes(pickle.dumps(groups))
    groups = [(w, x[:args.k], g[:args.k]) for w, x, g in groups if w in writers]
    inside = np.mean([bool(g.any()) for _, _, g in groups])
    print(f"{len(groups)} answerable questions of {len(writers)} writers; a gold sentence among the best {args.k} "
          f"by the hand ranking: {100 * inside:.1f}%")
    if args.fit:
        ranker = fit_on(groups, set(writers), args.l2[0], args.k)
        ranker.save(args.fit)
        print(f"fitted on all: weights {dict(zip(FEATURES, np.round(ranker.weights, 3).tolist(), strict=True))} "
              f"-> {args.fit}")
        return 0
    print("\n| first line among the candidates (declines not counted) | n | hand | ranker | ranker - hand (95%) "
          "| gained / lost |\n|---|---|---|---|---|---|")
    for l2 in args.l2:
        hand, learned = [], []
        for w in writers:
            h, r = scored(groups, {w}, fit_on(groups, set(writers) - {w}, l2, args.k))
            hand, learned = hand + h, learned + r
        report(f"leave-one-writer-out, l2 {l2:g}", hand, learned)
        if args.forward_from in writers:
            cut = writers.index(args.forward_from)
            ranker = fit_on(groups, set(writers[:cut]), l2, args.k)
            report(f"forward {args.forward_from}...: fitted on {writers[0]}...{writers[cut - 1]}, l2 {l2:g}",
                   *scored(groups, set(writers[cut:]), ranker))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
