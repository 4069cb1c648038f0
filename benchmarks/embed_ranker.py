"""MiniLM similarity as a ranking signal for `archehr answer` (`--ranker embedding`): which lift, chosen honestly.

Every everyday question of the writers is answered once with the hand ranking and once per candidate lift
(`archehr.answerability.embed_rank`: weight, and whether only sentences naming none of the question's topic are
lifted), with the shipped typed confidence (the ranking does not change what is declined). The lift is then chosen
without the writer it is measured on: leave-one-writer-out (for each writer, the candidate with the best first line
on the others) and forward (chosen on the writers before FORWARD, measured on FORWARD and after). Printed: first
line, recall, precision, false decline, answerable flagged, per kind, with the first lines gained and lost.

    python benchmarks/embed_ranker.py                      # all writers
    python benchmarks/embed_ranker.py --writers A B C --out rows.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from everyday import KINDS, WRITERS, figures, load_questions, writer_of  # noqa: E402

import archehr  # noqa: E402
from archehr.answerability import embed_rank  # noqa: E402

FORWARD = "AV"
WEIGHTS = (0.1, 0.2, 0.35, 0.6)
# (ranker, weight, lift only sentences naming none of the topic, lift only under this hand-best score)
Candidate = tuple[str, float, bool, float | None]
CANDIDATES: list[Candidate] = [("hand", 0.0, True, None)] + [("embedding", w, f, g) for g in (None, 0.5)
                                                             for f in (True, False) for w in WEIGHTS]


def name(c: Candidate) -> str:
    if c[0] == "hand":
        return "hand"
    return f"emb w={c[1]:g} {'fallback' if c[2] else 'all'}" + (f" weak<{c[3]:g}" if c[3] is not None else "")


def run(qs: list[Any], system: Any, cand: Candidate) -> list[dict[str, Any]]:
    # the candidate's weight, reach and gate, read by `embed_rank` at each call (its gate also before encoding)
    embed_rank.W_EMBED, embed_rank.FALLBACK_ONLY, embed_rank.WEAK = cand[1], cand[2], cand[3]
    out = []
    for q in qs:
        r = archehr.answer(q.note, q.question, system=system, ranker=cand[0])
        out.append({"writer": writer_of(q.source), "id": q.qid, "kind": q.kind, "answerable": q.answerable,
                    "gold": sorted(q.gold), "cited": [s.id for s in r.cited],
                    "first": list(r.lines[0].citations) if r.lines and not r.abstained else [],
                    "abstained": r.abstained, "flagged": r.flagged, "confidence": r.confidence})
    return out



def first_ok(r: dict[str, Any]) -> bool:
    return bool(set(r["first"]) & set(r["gold"]))


def report(label: str, base: list[dict[str, Any]], new: list[dict[str, Any]]) -> None:
    print(f"\n{label}: {len(base)} questions ({sum(r['answerable'] for r in base)} answerable)")
    print("| kind | first line | recall | precision | false decline | answerable flagged | +first / -first |")
    print("|---|---|---|---|---|---|---|")
    for k in ("all", *KINDS):
        b = [r for r in base if k == "all" or r["kind"] == k]
        n = [r for r in new if k == "all" or r["kind"] == k]
        if not b:
            continue
        fb, fn = figures(b), figures(n)
        gain = sum(first_ok(y) and not first_ok(x) for x, y in zip(b, n, strict=True) if x["answerable"])
        loss = sum(first_ok(x) and not first_ok(y) for x, y in zip(b, n, strict=True) if x["answerable"])
        cells = [f"{100 * fb[c]:.1f} -> {100 * fn[c]:.1f}" for c in ("first", "recall", "precision", "false_decline",
                                                                       "ans_flagged")]
        print(f"| {k} | " + " | ".join(cells) + f" | +{gain} / -{loss} |")


def chosen_by(rows: dict[str, list[dict[str, Any]]], fit: set[str]) -> str:
    """The candidate with the best first line (then recall) on the writers `fit`, the hand ranking winning ties."""
    def score(c: str) -> tuple[float, float]:
        f = figures([r for r in rows[c] if r["writer"] in fit])
        return round(f["first"], 6), round(f["recall"], 6)
    return max(rows, key=score)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--writers", nargs="+", default=list(WRITERS))
    ap.add_argument("--out", type=Path, help="write each candidate's rows here (JSON lines)")
    ap.add_argument("--part", nargs=2, type=int, metavar=("I", "K"), default=(0, 1),
                    help="run the I-th of K shares of the candidates only (the hand ranking in the first)")
    ap.add_argument("--candidates", nargs="+", metavar="W,F,G",
                    help="the lifts to try instead of CANDIDATES: weight, 1 to lift only sentences naming none of "
                         "the topic (0: all), the hand-best score under which to lift (or none)")
    ap.add_argument("--rows", nargs="+", type=Path, help="report from these --out files instead of answering")
    args = ap.parse_args(argv)
    rows: dict[str, list[dict[str, Any]]] = {}
    if args.rows:
        for p in args.rows:
            got: dict[str, list[dict[str, Any]]] = {}
            for line in p.read_text().splitlines():
                r = json.loads(line)
                got.setdefault(r.pop("candidate"), []).append(r)
            rows.update({k: v for k, v in got.items() if k not in rows})  # each file holds the hand rows too
        return choose(rows)
    from archehr.pipeline import load_system

    base = ROOT / "data" / "everyday"
    qs = [q for w in args.writers for f in WRITERS[w] for q in load_questions([base / f])]
    system = load_system(None)
    i, k = args.part
    cands = CANDIDATES[1:] if not args.candidates else [
        ("embedding", float(w), f == "1", None if g == "none" else float(g))
        for w, f, g in (c.split(",") for c in args.candidates)]
    for c in ([CANDIDATES[0]] if i == 0 else []) + cands[i::k]:
        t = time.perf_counter()
        rows[name(c)] = run(qs, system, c)
        f = figures(rows[name(c)])
        print(f"{name(c)}: first {100 * f['first']:.1f} recall {100 * f['recall']:.1f} precision "
              f"{100 * f['precision']:.1f} ({time.perf_counter() - t:.0f} s)", flush=True)
    if args.out:
        args.out.write_text("".join(json.dumps({"candidate": c, **r}) + "\n" for c, rs in rows.items() for r in rs))
    return choose(rows)


def choose(rows: dict[str, list[dict[str, Any]]]) -> int:
    """The lift chosen without the writer measured (leave-one-writer-out, forward), against the hand ranking."""
    if "hand" not in rows:
        return 0  # a share without the hand rows: reported when merged (--rows)
    writers = list(dict.fromkeys(r["writer"] for r in rows["hand"]))
    picked, lowo = {}, []
    for w in writers:
        picked[w] = chosen_by(rows, set(writers) - {w})
        lowo += [r for r in rows[picked[w]] if r["writer"] == w]
    print("\nleave-one-writer-out choice:", {c: sum(v == c for v in picked.values()) for c in set(picked.values())})
    report("leave-one-writer-out, all writers", rows["hand"], lowo)
    if FORWARD in writers:
        late = set(writers[writers.index(FORWARD):])
        early = set(writers) - late
        report("leave-one-writer-out, the earlier writers", [r for r in rows["hand"] if r["writer"] in early],
               [r for r in lowo if r["writer"] in early])
        report(f"leave-one-writer-out, the {len(late)} latest writers", [r for r in rows["hand"]
                                                                         if r["writer"] in late],
               [r for r in lowo if r["writer"] in late])
        c = chosen_by(rows, early)
        report(f"forward: chosen on the earlier writers ({c}), the {len(late)} latest",
               [r for r in rows["hand"] if r["writer"] in late], [r for r in rows[c] if r["writer"] in late])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
