"""Courtesy around a question: does `archehr answer` give the same answer with greetings, thanks and a story added?

Patients wrap what they ask in courtesy words, greetings, apologies, a line of story and a sign-off ("Sumimasen,
...", "Hi doc sorry to bother you, ...", "... thanks, Maria"). The answer and its confidence should not move with
them. Each question of the chosen writers (`--writers`, or `--questions` files) is asked as written and with
wrappers from `benchmarks/data/preamble_wrappers.yaml` put around it (prefixes and suffixes in several languages
and registers; each question gets `--per-question` wrappers of each half, dealt in turn so every wrapper is used
about as often). The wrappers come in two halves: `tune`, read while the question reading was changed, and
`held_out`, only measured. For each half it prints, over the (question, wrapper) pairs:

- first line changed: the first answer line cites other sentences (or one of the two is declined);
- state changed: declined / flagged for review / answered differs;
- mean |confidence change| (and the share of pairs moved by 0.1 or more);
- first line, unanswerable declined or flagged ("caught", beside answerable flagged) and AUROC, for the questions
  as written and for the wrapped questions (every pair one question), as `benchmarks/everyday.py` counts them.

    python benchmarks/preamble_robustness.py --writers DL DM
    python benchmarks/preamble_robustness.py --questions data/everyday/heldout-dl/raw/questions.yaml --per-question 2
    python benchmarks/preamble_robustness.py --writers A K --halves tune --worst 10 --dump pairs.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from everyday import WRITERS, Question, figures, load_questions, run_one  # noqa: E402

WRAPPERS = ROOT / "benchmarks" / "data" / "preamble_wrappers.yaml"
HALVES = ("tune", "held_out")


def load_wrappers(path: Path = WRAPPERS) -> dict[str, list[dict[str, str]]]:
    """The wrappers of each half (`HALVES`), each a dict with `id` and a `prefix`, a `suffix` or both."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    out = {}
    for half in HALVES:
        items = data.get(half) or []
        for w in items:
            if not (w.get("prefix") or w.get("suffix")):
                raise SystemExit(f"{path}: wrapper {w.get('id', '?')} has neither prefix nor suffix")
        out[half] = items
    return out


def wrapped(question: str, wrapper: dict[str, str]) -> str:
    """The question with the wrapper's prefix before it and its suffix after it, a space apart."""
    return " ".join(p for p in (wrapper.get("prefix", ""), question.strip(), wrapper.get("suffix", "")) if p)


def dealt(n_questions: int, n_wrappers: int, k: int) -> list[list[int]]:
    """For each question, the indices of its `k` wrappers: question i gets wrappers i*k ... i*k+k-1 (mod the number
    of wrappers), so each wrapper is used about as often and a question never gets one twice (k <= wrappers)."""
    k = min(k, n_wrappers)
    return [[(i * k + j) % n_wrappers for j in range(k)] for i in range(n_questions)]


def state(row: dict[str, Any]) -> str:
    return "declined" if row["abstained"] else "flagged" if row["flagged"] else "answered"


def first_of(row: dict[str, Any]) -> tuple[str, ...]:
    return () if row["abstained"] else tuple(row["first"])


def changes(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, float]:
    """Over (as written, wrapped) result pairs: shares whose first line or state changed, the mean absolute
    confidence change and the share moved by 0.1 or more."""
    if not pairs:
        return {"first_changed": float("nan"), "state_changed": float("nan"), "conf_change": float("nan"),
                "conf_moved": float("nan")}
    delta = np.array([abs(w["confidence"] - p["confidence"]) for p, w in pairs])
    return {"first_changed": float(np.mean([first_of(p) != first_of(w) for p, w in pairs])),
            "state_changed": float(np.mean([state(p) != state(w) for p, w in pairs])),
            "conf_change": float(delta.mean()), "conf_moved": float(np.mean(delta >= 0.1))}


def _pct(v: float) -> str:
    return "-" if np.isnan(v) else f"{100 * v:.1f}%"


def report(half: str, plain: list[dict[str, Any]], pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> str:
    """One half's line of figures: the changes and the quality as written -> wrapped."""
    c = changes(pairs)
    a, b = figures(plain), figures([w for _, w in pairs])
    return (f"| {half} | {len(plain)} | {len(pairs)} | {_pct(c['first_changed'])} | {_pct(c['state_changed'])} | "
            f"{c['conf_change']:.3f} ({_pct(c['conf_moved'])}) | {_pct(a['first'])} -> {_pct(b['first'])} | "
            f"{_pct(a['unans_declined_or_flagged'])} ({_pct(a['ans_flagged'])}) -> "
            f"{_pct(b['unans_declined_or_flagged'])} ({_pct(b['ans_flagged'])}) | "
            f"{a['auroc']:.3f} -> {b['auroc']:.3f} |")


HEADER = ("| wrappers | questions | pairs | first line changed | state changed | mean abs confidence change "
          "(moved >= 0.1) | first line: written -> wrapped | caught (answerable flagged): written -> wrapped | "
          "AUROC: written -> wrapped |\n|---|---|---|---|---|---|---|---|---|")


def per_wrapper(pairs: list[tuple[dict[str, Any], dict[str, Any]]], worst: int) -> str:
    """The wrappers moving answers most: pairs, first line changed, state changed, mean |confidence change|."""
    by: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = defaultdict(list)
    for p, w in pairs:
        by[w["wrapper"]].append((p, w))
    rows = sorted(((k, changes(v), len(v)) for k, v in by.items()),
                  key=lambda t: (-t[1]["first_changed"] - t[1]["state_changed"], -t[1]["conf_change"]))
    out = ["| wrapper | pairs | first line changed | state changed | mean abs confidence change |",
           "|---|---|---|---|---|"]
    out += [f"| {k} | {n} | {_pct(c['first_changed'])} | {_pct(c['state_changed'])} | {c['conf_change']:.3f} |"
            for k, c, n in rows[:worst]]
    return "\n".join(out)


def questions_of(writers: list[str] | None, files: list[Path] | None) -> list[Question]:
    if files:
        return load_questions(files)
    unknown = [w for w in writers or [] if w not in WRITERS]
    if unknown or not writers:
        raise SystemExit(f"--writers: give writers of benchmarks/everyday.py (unknown: {', '.join(unknown)})")
    base = ROOT / "data" / "everyday"
    return load_questions([base / f for w in writers for f in WRITERS[w]])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--writers", nargs="+", metavar="W", help="development writers (benchmarks/everyday.py WRITERS)")
    ap.add_argument("--questions", nargs="+", type=Path, help="questions files (in place of --writers)")
    ap.add_argument("--wrappers", type=Path, default=WRAPPERS, help="the wrappers file (tune and held_out halves)")
    ap.add_argument("--halves", nargs="+", choices=HALVES, default=list(HALVES),
                    help="which halves to run (default both; held_out printed last)")
    ap.add_argument("--per-question", type=int, default=3, metavar="K", help="wrappers of each half per question")
    ap.add_argument("--worst", type=int, default=0, metavar="N", help="also print the N wrappers moving answers most")
    ap.add_argument("--dump", type=Path, help="write each (question, wrapper) pair's two results as JSON lines")
    args = ap.parse_args(argv)
    if not args.writers and not args.questions:
        raise SystemExit("give --writers or --questions")
    from archehr.pipeline import load_system

    qs = questions_of(args.writers, args.questions)
    wrappers = load_wrappers(args.wrappers)
    system = load_system(None)
    plain = [run_one(q, system, "shipped") for q in qs]
    lines, dumped = [], []
    for half in args.halves:
        pairs = []
        for q, p, chosen in zip(qs, plain, dealt(len(qs), len(wrappers[half]), args.per_question), strict=True):
            for j in chosen:
                w = wrappers[half][j]
                r = run_one(replace(q, question=wrapped(q.question, w)), system, "shipped")
                pairs.append((p, {**r, "wrapper": w["id"], "half": half}))
        dumped += pairs
        lines.append((half, report(half, plain, pairs), pairs))
    print(f"preamble robustness: {len(qs)} questions ({', '.join(args.writers or [p.name for p in args.questions])}),"
          f" {args.per_question} wrapper(s) of each half per question (archehr.answer, default system)")
    print(HEADER)
    for _, line, _ in lines:
        print(line)
    if args.worst:
        for half, _, pairs in lines:
            print(f"\n{half}: the {args.worst} wrappers moving answers most")
            print(per_wrapper(pairs, args.worst))
    if args.dump:
        args.dump.write_text("".join(json.dumps({"written": p, "wrapped": w}) + "\n" for p, w in dumped),
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
