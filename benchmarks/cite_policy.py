"""Which sentences `archehr answer` cites after the first, simulated offline: each question's candidates recorded once.

`--record OUT` answers every question of `everyday.WRITERS` once (the shipped settings, about 6-10 minutes) and writes,
per question, what `archehr.ask._cited` reads: the ranked sentences (best first, those ranking at least `FLOOR` of the
first, at most `KEEP`) with their rank, answer-type score, topic share, whether each holds the asked kind (firmly),
its paragraph, its split kind and the medication lines that go on from it (`follow_on`), beside the gold sentences,
what was cited and the answer's first line. `--inputs FILE` then applies citation policies to the record
(`cite_rules.py`) and prints first line, recall and precision as `everyday.py` counts them, pooled over all writers,
over the recent ones (`--pool-from`), and with `--choose R` the shares the lines after the first must reach chosen with
one writer held out (best precision with recall at least R on the other writers), pooled over the held-out writers.

    python benchmarks/cite_policy.py --record /tmp/cite.jsonl
    python benchmarks/cite_policy.py --inputs /tmp/cite.jsonl --pool-from AV CF CJ --choose 89
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

FLOOR = 0.15  # candidates ranking at least this share of the first (the shipped policy reaches 0.25)
KEEP = 30  # ... at most this many


def _candidates(order: list[int], rank: np.ndarray, typed: np.ndarray | None, topic: np.ndarray | None,
                types: Any, split: Any) -> list[dict[str, Any]]:
    """The ranked sentences a citation policy chooses among, with what it may read of each."""
    from archehr.answerability.follow_on import follow_on
    from archehr.relevance.text import is_header

    if not order:
        return []
    best = float(rank[order[0]])
    firm = types.firm if types.firm is not None else types.holds
    out = []
    for pos, i in enumerate(order[:KEEP]):
        if float(rank[i]) < FLOOR * best:
            break
        s = split.sentences[i]
        out.append({"i": i, "id": s.id, "pos": pos, "rank": float(rank[i]),
                    "typed": float(typed[i]) if typed is not None else 0.0,
                    "topic": float(topic[i]) if topic is not None else 0.0, "holds": bool(types.holds[i]),
                    "firm": bool(firm[i]), "para": s.paragraph_id, "kind": s.kind, "entry": s.entry,
                    "header": bool(is_header(s.text)), "words": len(s.text.split()),
                    "partners": [split.sentences[j].id for j in follow_on([i], split.sentences)]})
    return out


def record(out: Path, only: list[str] | None = None) -> None:
    """Answer every writer's questions once (or `only` those writers'), recording each one's citation candidates as a
    JSON line."""
    from everyday import WRITERS, load_questions, run_one

    import archehr.ask as ask
    from archehr.answerability import kinds
    from archehr.pipeline import load_system

    seen: dict[str, Any] = {}
    cited, types_of = ask._cited, kinds.answer_types

    def spy_types(*a: Any, **k: Any) -> Any:
        got = types_of(*a, **k)
        seen.setdefault("types", got)  # the first reading is the answer's (a story-pruned one may follow)
        return got

    def spy_cited(order: list[int], rank: np.ndarray, typed: Any, split: Any, topic: Any = None,
                  kind: str = "", question: str = "") -> list[int]:
        chosen = cited(order, rank, typed, split, topic, kind, question)
        seen.update(candidates=_candidates(order, rank, typed, topic, seen["types"], split),
                    chosen=[split.sentences[i].id for i in chosen], kind=seen["types"].kind)
        return chosen

    ask._cited, kinds.answer_types = spy_cited, spy_types  # type: ignore[assignment]
    system, lines = load_system(None), []
    for w, files in WRITERS.items():
        if only and w not in only:
            continue
        for q in load_questions([ROOT / "data" / "everyday" / f for f in files]):
            seen.clear()
            r = run_one(q, system, "shipped")
            lines.append(json.dumps({"writer": w, "id": q.qid, "source": q.source, "asked_kind": q.kind,
                                     "kind": seen.get("kind", ""), "answerable": q.answerable,
                                     "gold": sorted(q.gold), "cited": r["cited"], "first": r["first"],
                                     "abstained": r["abstained"], "chosen": seen.get("chosen", []),
                                     "candidates": seen.get("candidates", [])}))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--record", type=Path, metavar="OUT", help="answer every question once and write its candidates")
    ap.add_argument("--writers", nargs="*", metavar="W", help="with --record: only these writers")
    ap.add_argument("--inputs", type=Path, help="the candidates --record wrote")
    ap.add_argument("--pool-from", nargs="*", default=["AV", "CF"], metavar="W",
                    help="also pool the writers from each W on (default: AV CF)")
    ap.add_argument("--choose", type=float, metavar="RECALL",
                    help="also choose the shares the lines after the first must reach (best precision with recall at "
                         "least RECALL) with one writer held out, and print the held-out figures")
    args = ap.parse_args(argv)
    if args.record:
        record(args.record, args.writers)
        return 0
    if not args.inputs:
        raise SystemExit("give --record OUT or --inputs FILE")
    from cite_rules import report

    rows = [json.loads(x) for x in args.inputs.read_text(encoding="utf-8").splitlines() if x.strip()]
    print(report(rows, args.pool_from, args.choose))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
