"""How well `ask_kind` reads the kind of answer a patient's question asks for, in many writers' voices.

Reads `benchmarks/data/question_voices.yaml` (invented questions, each with its voice and kind; a message asking two
questions is labelled by its first, `also` naming the second's kind) and prints the accuracy of
`archehr.answerability.asked_for.ask_kind` (of the question as `archehr.answer` reads it) overall, per split of
voices (`dev`: rules designed with these in view; `held_out`: only measured), per kind and per voice, a confusion
table, and for the two-question voice also the share whose kind is either question's.

Run: python benchmarks/question_kinds.py [--misses]  (--misses lists the dev voices' misses only; add
--held-out-misses to see the held-out ones too, which spends them as a measurement)
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from pathlib import Path

import yaml

from archehr.answerability.asked_for import KINDS, ask_kind
from archehr.ask import read_question

DATA = Path(__file__).resolve().parent / "data" / "question_voices.yaml"
ALL_KINDS = (*KINDS, "other")


def load(path: Path = DATA) -> dict:
    """The question set: {"voices", "split", "questions"}."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def read_kinds(questions: list[dict]) -> list[str]:
    """`ask_kind` of each question as `archehr.answer` reads it (`ask.read_question`: non-standard spellings of
    common words in standard spelling), in order."""
    return [ask_kind(read_question(q["text"])[0]) for q in questions]


def accuracy(pairs: list[tuple[str, str]]) -> tuple[int, int]:
    """(right, total) of (gold, read) pairs."""
    return sum(g == r for g, r in pairs), len(pairs)


def _pct(right: int, total: int) -> str:
    return f"{100 * right / total:5.1f}% ({right}/{total})" if total else "   -"


def report(data: dict, read: list[str]) -> list[str]:
    """The printed lines: overall, per split, per kind, per voice, the two-question voice read leniently, and the
    confusion table (rows gold, columns read)."""
    qs = data["questions"]
    split_of = {v: name for name, voices in data["split"].items() for v in voices}
    lines = [f"overall    {_pct(*accuracy([(q['kind'], r) for q, r in zip(qs, read, strict=True)]))}"]
    for group, key in (("split", lambda q: split_of[q["voice"]]), ("kind", lambda q: q["kind"]),
                       ("voice", lambda q: q["voice"])):
        by: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for q, r in zip(qs, read, strict=True):
            by[key(q)].append((q["kind"], r))
        order = ALL_KINDS if group == "kind" else sorted(by)
        for name in order:
            if name in by:
                tag = f" [{split_of[name]}]" if group == "voice" else ""
                lines.append(f"{group:6s} {name:12s} {_pct(*accuracy(by[name]))}{tag}")
    two = [(q, r) for q, r in zip(qs, read, strict=True) if "also" in q]
    if two:
        either = sum(r in (q["kind"], q["also"]) for q, r in two)
        lines.append(f"two questions, either kind read: {_pct(either, len(two))}")
    conv = [(q, r) for q, r in zip(qs, read, strict=True) if "everyday_kind" in q]
    if conv:
        right = sum(r == q.get("everyday_kind", q["kind"]) for q, r in zip(qs, read, strict=True))
        lines.append(f"with the everyday sets' labels for {len(conv)} forms: {_pct(right, len(qs))}")
    confusion = Counter((q["kind"], r) for q, r in zip(qs, read, strict=True))
    lines.append("confusion (rows gold, columns read): " + " ".join(f"{k[:6]:>6s}" for k in ALL_KINDS))
    for g in ALL_KINDS:
        lines.append(f"  {g:12s}" + " ".join(f"{confusion[(g, r)]:6d}" for r in ALL_KINDS))
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--misses", action="store_true", help="list the dev voices' misses")
    ap.add_argument("--held-out-misses", action="store_true", help="also list the held-out voices' misses")
    args = ap.parse_args(argv)
    data = load()
    read = read_kinds(data["questions"])
    print("\n".join(report(data, read)))
    if args.misses or args.held_out_misses:
        shown = set(data["split"]["dev"]) | (set(data["split"]["held_out"]) if args.held_out_misses else set())
        for q, r in zip(data["questions"], read, strict=True):
            if q["voice"] in shown and r != q["kind"]:
                print(f"  {q['id']} {q['voice']:10s} {q['kind']:>11s} <- {r:11s} {q['text'][:110]}")


if __name__ == "__main__":
    main()
