"""Answerability, held out by writer: does `archehr answer` say "the note does not say" when it should?

Items (archehr/answerability/data.py): each demo case's own patient question (answerable), that
question moved to a case on another topic, and questions written for a note that it cannot answer
(unanswerable). Leave-one-voice-out: for every writer's voice, the model (and its threshold, by an
inner leave-one-voice-out on the training voices) is fitted on the other voices' cases of the dev and
train splits and scored on that voice's items; the legacy test voices are only ever held out.

Printed: AUROC of P(answerable), abstention rate on unanswerable questions, false abstention on
answerable ones, EHRSQL's reliability score RS(c) = mean of +1 (answerable answered, unanswerable
abstained), 0 (answerable abstained), -c (unanswerable answered) at c = 0, 1, 10 (an answer to an
answerable question counts as correct here: its quality is the 2025 scorer's business), the review
flag rates, per question type, per source and per voice, and a reliability table of P(answerable)
(observed share answerable per bin, each class weighted to half, the mix the probability is
calibrated for).

    python benchmarks/answerability.py                      # lexical features (the default model)
    python benchmarks/answerability.py --features lexical+embedding
    python benchmarks/answerability.py --features lexical+reading   # + MiniLM token alignment (reading.py)
    python benchmarks/answerability.py --save               # also (re)write the shipped model file(s)
    python benchmarks/answerability.py --without-length-matched   # the data before the length-matched questions
    python benchmarks/answerability.py --ablate log_terms   # a feature held constant (an ablation; no --save)
    python benchmarks/answerability.py --shipped            # also: the shipped model file on each set, as is

Written questions come in two sets: the first ones (shorter than the patients' own) and the ones
written to match the own questions in length and style (`length_matched`); each gets its rows, and
the AUROC of question length (words) alone, own against each set, shows how far length gives it away.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from archehr.answerability.cues import QUESTION_TYPES  # noqa: E402
from archehr.answerability.data import load_items  # noqa: E402
from archehr.answerability.model import (  # noqa: E402
    FEATURE_SETS,
    SHIPPED,
    SHIPPED_NAME,
    FeatureCache,
    load_model,
    names_for,
    train,
)

SRC = ROOT / "data" / "demo-src"
LEGACY = ROOT / "data" / "answerability" / "legacy-unanswerable.yaml"
MATCHED = ROOT / "data" / "answerability" / "length-matched-unanswerable.yaml"
TRAIN_SPLITS = ("dev", "train")
ALL_SPLITS = ("dev", "train", "test", "test-2026")
PENALTIES = (0, 1, 10)


def auroc(y: np.ndarray, p: np.ndarray) -> float:
    pos, neg = p[y], p[~y]
    if not len(pos) or not len(neg):
        return float("nan")
    gt = (pos[:, None] > neg[None, :]).mean()
    eq = (pos[:, None] == neg[None, :]).mean()
    return float(gt + 0.5 * eq)


def reliability_score(y: np.ndarray, abstain: np.ndarray, c: float) -> float:
    score = np.where(y, np.where(abstain, 0.0, 1.0), np.where(abstain, 1.0, -c))
    return float(score.mean())


def summary(y: np.ndarray, p: np.ndarray, abstain: np.ndarray, flag: np.ndarray) -> dict[str, float]:
    out = {"n": len(y), "answerable": int(y.sum()), "auroc": auroc(y, p),
           "abstain_unanswerable": float(abstain[~y].mean()) if (~y).any() else float("nan"),
           "false_abstain": float(abstain[y].mean()) if y.any() else float("nan"),
           "flag_answered_answerable": float((flag & ~abstain)[y].mean()) if y.any() else float("nan")}
    for c in PENALTIES:
        out[f"rs{c}"] = reliability_score(y, abstain, c)
    return out


def held_out(items: list, feature_set: str, cache: FeatureCache) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                          dict[str, tuple[float, float]]]:
    p = np.zeros(len(items))
    thr = np.zeros(len(items))
    rev = np.zeros(len(items))
    per_fold = {}
    for v in sorted({i.voice for i in items}):
        tr = [i for i in items if i.voice != v and i.split in TRAIN_SPLITS]
        idx = [k for k, i in enumerate(items) if i.voice == v]
        model = train(tr, feature_set, cache)
        x = cache.matrix([items[k] for k in idx], model.background)
        p[idx] = model.probability_rows(x)
        thr[idx], rev[idx] = model.threshold, model.review_level
        per_fold[v] = (model.threshold, model.review_level)
    return p, p < thr, p < rev, per_fold


def fmt(d: dict[str, float]) -> str:
    return (f"n={d['n']:4d} (answerable {d['answerable']:3d})  AUROC {d['auroc']:.3f}  abstain|unans "
            f"{d['abstain_unanswerable']:.3f}  abstain|ans {d['false_abstain']:.3f}  RS0 {d['rs0']:.3f}  "
            f"RS1 {d['rs1']:.3f}  RS10 {d['rs10']:.3f}")


def reliability_table(y: np.ndarray, p: np.ndarray, bins: int = 10) -> list[str]:
    w = np.where(y, 0.5 / max(1, y.sum()), 0.5 / max(1, (~y).sum()))
    rows = ["| P(answerable) | questions (ans / unans) | mean P | observed share answerable (balanced) |",
            "|---|---|---|---|"]
    edges = np.linspace(0, 1, bins + 1)
    ece = 0.0
    for a, b in zip(edges[:-1], edges[1:], strict=True):
        m = (p >= a) & ((p < b) if b < 1 else (p <= b))
        if not m.any():
            continue
        obs = float((w[m] * y[m]).sum() / w[m].sum())
        mp = float(np.average(p[m], weights=w[m]))
        ece += float(w[m].sum()) * abs(obs - mp)
        rows.append(f"| {a:.1f}-{b:.1f} | {int(m.sum())} ({int(y[m].sum())} / {int((~y[m]).sum())}) | {mp:.2f} | "
                    f"{obs:.2f} |")
    rows.append(f"expected calibration error (balanced): {ece:.3f}")
    return rows


def written_set(item) -> str:
    if item.source != "written":
        return item.source
    return "written, length-matched" if item.length_matched else "written, first set"


def ablate(cache: FeatureCache, feature_set: str, name: str) -> None:
    """Hold one feature constant (0) in every row the cache gives: the model cannot use it."""
    names = names_for(feature_set)
    if name not in names:
        raise SystemExit(f"--ablate: unknown feature {name!r} (known: {', '.join(names)})")
    k = names.index(name)
    matrix = cache.matrix

    def without(items, background):  # noqa: ANN001, ANN202
        x = matrix(items, background).copy()
        x[:, k] = 0.0
        return x

    cache.matrix = without  # type: ignore[method-assign]


def print_groups(items: list, y: np.ndarray, p: np.ndarray, abstain: np.ndarray,
                 flag: np.ndarray) -> dict[str, dict[str, list[int]]]:
    """The held-out figures by source, written set, voice and question type; then own items against each
    added source, and question length alone as a score."""
    groups: dict[str, dict[str, list[int]]] = {"source": defaultdict(list), "written set": defaultdict(list),
                                               "voice": defaultdict(list), "question type": defaultdict(list)}
    for k, i in enumerate(items):
        groups["source"][i.source].append(k)
        if i.source == "written":
            groups["written set"][written_set(i)].append(k)
        groups["voice"][i.voice].append(k)
        groups["question type"][i.qtype].append(k)
    for name, by in groups.items():
        print(f"\nby {name}:")
        keys = QUESTION_TYPES if name == "question type" else sorted(by)
        for key in keys:
            idx = np.array(by.get(key, []), dtype=int)
            if idx.size:
                print(f"  {key:32s} " + fmt(summary(y[idx], p[idx], abstain[idx], flag[idx])))
    own = np.array(groups["source"].get("own", []), dtype=int)
    sets = {"moved": groups["source"].get("moved", []), "written": groups["source"].get("written", []),
            **{k.replace("written, ", "written "): v for k, v in sorted(groups["written set"].items())}}
    for src, ks in sets.items():
        idx = np.concatenate([own, np.array(ks, dtype=int)])
        if len(ks):
            print(f"own vs {src} only: " + fmt(summary(y[idx], p[idx], abstain[idx], flag[idx])))
    words = np.array([len(i.question.split()) for i in items], dtype=float)
    print("\nquestion length alone (words), AUROC own vs: " + ", ".join(
        f"{src} {auroc(y[idx], words[idx]):.3f} (mean {words[ks].mean():.1f} words)"
        for src, ks in sets.items() if len(ks)
        for idx in [np.concatenate([own, np.array(ks, dtype=int)])]) + f"; own mean {words[own].mean():.1f} words")
    return groups


def print_misses(items: list, y: np.ndarray, p: np.ndarray, n: int) -> None:
    """The n lowest-P answerable items and the n highest-P unanswerable ones."""
    order = np.argsort(p)
    print("\nlowest P among answerable:")
    for k in [k for k in order if y[k]][:n]:
        print(f"  {p[k]:.2f} {items[k].voice} {items[k].note_case}: {items[k].question}")
    print("highest P among unanswerable:")
    for k in [k for k in order[::-1] if not y[k]][:n]:
        print(f"  {p[k]:.2f} {items[k].source} {items[k].voice} {items[k].note_case}: {items[k].question}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--features", default="lexical", choices=FEATURE_SETS)
    ap.add_argument("--save", action="store_true", help="write the shipped model trained on every dev+train item")
    ap.add_argument("--misses", type=int, default=0, help="print the N worst-scored items of each class")
    ap.add_argument("--without-length-matched", action="store_true",
                    help="leave out the length-matched written questions (the data set before them)")
    ap.add_argument("--ablate", metavar="FEATURE", help="hold this feature constant (an ablation)")
    ap.add_argument("--shipped", action="store_true",
                    help="also score every item with the shipped model file of --features (not held out: it was "
                         "trained on the dev+train items it had; length-matched questions it never saw)")
    args = ap.parse_args(argv)
    if args.ablate and args.save:
        ap.error("--ablate measures an ablation; it cannot --save a shipped model")
    t0 = time.perf_counter()
    items = load_items(SRC, LEGACY, splits=ALL_SPLITS, matched_file=None if args.without_length_matched else MATCHED)
    cache = FeatureCache(args.features)
    if args.ablate:
        ablate(cache, args.features, args.ablate)
    p, abstain, flag, folds = held_out(items, args.features, cache)
    y = np.array([i.answerable for i in items])
    print(f"answerability, leave-one-voice-out, features {args.features}"
          f"{f' without {args.ablate}' if args.ablate else ''}: {len(items)} items, "
          f"{len({i.voice for i in items})} voices, {len({i.note_case for i in items})} notes "
          f"({time.perf_counter() - t0:.0f} s)")
    print("thresholds by held-out voice (abstain below / review below):",
          ", ".join(f"{v} {a:.2f}/{b:.2f}" for v, (a, b) in folds.items()))
    print("\nall held-out items:   " + fmt(summary(y, p, abstain, flag)))
    s = summary(y, p, abstain, flag)
    print(f"review flag on answered answerable questions: {s['flag_answered_answerable']:.3f}; "
          f"on answered unanswerable ones: {float((flag & ~abstain)[~y].mean()):.3f}")
    groups = print_groups(items, y, p, abstain, flag)
    if args.shipped:
        shipped = load_model(SHIPPED_NAME[args.features])
        ps = np.array([shipped.probability(i.case) for i in items])
        ab = ps < shipped.threshold
        print(f"\nshipped model {SHIPPED_NAME[args.features]} as is (threshold {shipped.threshold}), share abstained: "
              + ", ".join(f"{k} {ab[np.array(v, dtype=int)].mean():.3f} (n={len(v)})"
                          for k, v in sorted({**groups["source"], **groups["written set"]}.items())))
    print("\nreliability of P(answerable), held-out items:")
    for row in reliability_table(y, p):
        print(row)
    if args.misses:
        print_misses(items, y, p, args.misses)
    if args.save:
        tr = [i for i in items if i.split in TRAIN_SPLITS]
        model = train(tr, args.features, cache)
        path = SHIPPED[SHIPPED_NAME[args.features]]
        model.save(path)
        print(f"\nsaved {path.relative_to(ROOT)}: threshold {model.threshold}, review level {model.review_level}, "
              f"{len(tr)} items")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
