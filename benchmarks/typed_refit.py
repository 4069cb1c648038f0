"""The typed confidence refitted offline: each question's decision inputs recorded once, then scored under other fits.

`archehr answer` declines, flags and shows a confidence from the typed confidence's P and from inputs no fit of it
changes: the feature rows of the question (whole, and without its story), whether the note never names the asked
thing (`absent`), whether a sentence holds the asked kind (`held`: flag, never decline), whether a fact rule flags
the first line (`ruled`) and whether the first line gives the asked fact (`given`). `--record` answers every
question of `everyday.WRITERS` once (about 5 minutes) with a confidence that never declines, so every input is
seen, and writes them as JSON lines; scoring then refits the confidence for each held-out writer (leave one writer
out, or `--forward-from W`: each writer from W on fitted on the writers before it) and applies `archehr.ask`'s
decision to the recorded inputs: for the shipped settings it gives `everyday.py`'s decisions question for question,
in seconds per fit instead of minutes. `--l2`, `--drop` (feature name prefixes), `--false-decline` and
`--review-share` are the fit's settings to measure, `--absent-decline` the outright decline's; `--pool-from W`
pools the writers from W on apart (the recent ones, whose near-miss questions are the hardest). `--shard K/N` records
every N-th writer from the K-th, so that N records run side by side on N cores (`--inputs` then takes them all), and
`--fit OUT` writes the shipped fit (every writer) from a record, as `everyday.py --fit-typed` would.

    python benchmarks/typed_refit.py --record /tmp/typed.jsonl
    python benchmarks/typed_refit.py --inputs /tmp/typed.jsonl --forward-from AV --drop typed_ coverage_
    python benchmarks/typed_refit.py --inputs /tmp/typed.jsonl --false-decline 0.01 --absent-decline 1 --pool-from AV
    python benchmarks/typed_refit.py --record /tmp/t1.jsonl --shard 1/2 & python benchmarks/typed_refit.py \
        --record /tmp/t2.jsonl --shard 2/2; wait
    python benchmarks/typed_refit.py --inputs /tmp/t1.jsonl /tmp/t2.jsonl --fit archehr/answerability/model_typed.json
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from archehr.answerability import typed as T  # noqa: E402
from archehr.answerability.review import shown_confidence  # noqa: E402


@dataclass(frozen=True)
class Inputs:
    """One question's decision inputs (see the module's docstring); `ruled` and `given` are read only if answered."""

    writer: str
    answerable: bool
    row: np.ndarray
    pruned: np.ndarray | None
    lexical_p: float
    absent: bool
    held: bool
    ruled: bool
    given: bool
    generator_declined: bool
    # the note names nothing the question asks about and the lexical model declines (before `typed.ABSENT_DECLINE`
    # is applied: None in inputs recorded without it), and whether it asks for a result
    names_nothing: bool | None = None
    result_kind: bool = False
    source: str = ""  # the questions file (the shipped fit names them)


def decide(model: Any, q: Inputs, cols: np.ndarray | None = None,
           absent_decline: float | None = None) -> tuple[bool, bool, float]:
    """(declined, flagged, confidence shown) as `archehr.ask.answer` decides them, `model` a `TypedConfidence` fitted
    on the columns `cols` of the rows (all when None); with `absent_decline`, the outright decline of a question the
    note names nothing of taken at that lexical P instead of `typed.ABSENT_DECLINE` (inputs recording it)."""
    absent = q.absent
    if absent_decline is not None and q.names_nothing is not None:
        absent = q.names_nothing and T.declines_outright(q.lexical_p, "test_result" if q.result_kind else "",
                                                         absent_decline)
    if absent:
        return True, False, q.lexical_p
    pick = (lambda r: r) if cols is None else (lambda r: r[cols])
    p = model.probability(pick(q.row), None if q.pruned is None else pick(q.pruned))
    if (model.abstains(p) and not q.held) or q.generator_declined:
        return True, False, p
    flagged = q.ruled or model.abstains(p) or (model.flags(p) and not q.given)
    return False, flagged, shown_confidence(model, p, flagged, p, q.ruled)


def shard_of(writers: list[str], shard: str) -> list[str]:
    """The writers of shard "K/N" (K counted from 1): every N-th writer from the K-th, so that N records made side
    by side take about as long each and together hold every writer once."""
    try:
        k, n = (int(x) for x in shard.split("/"))
    except ValueError:
        raise SystemExit(f"--shard {shard!r}: give K/N, e.g. 1/2") from None
    if not 1 <= k <= n:
        raise SystemExit(f"--shard {shard!r}: K must be 1..N")
    return writers[k - 1::n]


def record(out: Path, shard: str = "1/1", start: str | None = None) -> None:
    """Answer every writer's questions once (or the writers of `shard`, of those from `start` on when given),
    recording each one's decision inputs (`Inputs`) as a JSON line."""
    from everyday import WRITERS, load_questions

    import archehr
    import archehr.ask as ask
    from archehr.answerability import review
    from archehr.answerability.typed import load_typed, typed_row
    from archehr.pipeline import load_system

    seen: dict[str, Any] = {}
    judge, flags = ask._judge, ask.review_flags

    def judged(model: Any, typed: Any, p: Any, types: Any, story: Any = None) -> Any:
        out = judge(model, typed, p, types, story)
        seen.update(names_nothing=T.names_nothing(types) and model.abstains(p), result_kind=types.kind == "test_result")
        seen.update(row=typed_row(p, types), pruned=ask._story_row(model, types, *story) if story else None,
                    lexical_p=p, absent=out[2] != "", held=bool(types.best_typed >= review.HOLDS_MIN
                                                                 or review.names_asked(types)))
        return out

    def flagged(model: Any, p: Any, selector: Any, types: Any, best: Any, question: str, split: Any) -> Any:
        out = flags(model, p, selector, types, best, question, split)
        # the model's doubt is cleared as `review_flags` clears it: the first line gives the asked fact naming enough
        # of the topic (`fact_given`), or names the most of it and gives the asked length or date (`doubt_cleared`)
        seen.update(ruled=out[1], given=review.fact_given(types, best, question)
                    or review.doubt_cleared(types, best, question, split))
        return out

    ask._judge, ask.review_flags = judged, flagged  # type: ignore[assignment]
    never = replace(load_typed(), threshold=0.0)  # declines nothing, so every answer's rules are read
    system, lines = load_system(None), []
    writers = list(WRITERS)
    for w in shard_of(writers[writers.index(start):] if start else writers, shard):
        for q in load_questions([ROOT / "data" / "everyday" / f for f in WRITERS[w]]):
            seen.clear()
            r = archehr.answer(q.note, q.question, system=system, typed=never)
            lines.append(json.dumps({
                "writer": w, "source": q.source, "id": q.qid, "answerable": q.answerable,
                "row": seen["row"].tolist(), "pruned": None if seen["pruned"] is None else seen["pruned"].tolist(),
                "lexical_p": seen["lexical_p"], "absent": seen["absent"], "held": seen["held"],
                "ruled": bool(seen.get("ruled", False)), "given": bool(seen.get("given", False)),
                "generator_declined": bool(r.abstained and not seen["absent"]),
                "names_nothing": seen["names_nothing"], "result_kind": seen["result_kind"]}))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_inputs(path: Path) -> list[Inputs]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        out.append(Inputs(d["writer"], d["answerable"], np.array(d["row"]),
                          None if d["pruned"] is None else np.array(d["pruned"]), d["lexical_p"], d["absent"],
                          d["held"], d["ruled"], d["given"], d["generator_declined"], d.get("names_nothing"),
                          bool(d.get("result_kind", False)), d.get("source", "")))
    return out


def merged(paths: list[Path]) -> list[Inputs]:
    """The inputs of every file, a writer's rows in a later file replacing that writer's rows read before (a record
    `--writers-from` made after a change to the fact rules, read after the full record of the code before it)."""
    out: list[Inputs] = []
    for path in paths:
        got = read_inputs(path)
        again = {q.writer for q in got}
        out = [q for q in out if q.writer not in again] + got
    return out


def figures(decisions: list[tuple[bool, bool, float]], answerable: np.ndarray) -> dict[str, float]:
    """Unanswerable declined or flagged, answerable flagged, false decline, AUROC of the confidence shown."""
    from everyday import auroc

    d = np.array([x[0] for x in decisions]), np.array([x[1] for x in decisions]), np.array([x[2] for x in decisions])
    a = answerable
    return {"caught": float((d[0] | d[1])[~a].mean()), "flagged": float(d[1][a].mean()),
            "false_decline": float(d[0][a].mean()), "auroc": auroc(d[2][a], d[2][~a])}


def score(qs: list[Inputs], plan: list[tuple[str, list[str]]], cols: np.ndarray, l2: float, false_decline: float,
          review_share: float, absent_decline: float | None = None,
          pool: tuple[str, ...] = ()) -> dict[str, dict[str, float]]:
    """Each (writer, writers fitted on) of `plan`: the confidence fitted on those writers' rows (columns `cols`),
    the writer's figures; "mean" and "pooled" over them, and with `pool` "pooled W1-Wn" over those writers."""
    x = np.array([q.row[cols] for q in qs])
    y = np.array([q.answerable for q in qs], dtype=float)
    g = np.array([q.writer for q in qs])
    out, pooled, held_y, part, part_y = {}, [], [], [], []
    for w, train in plan:
        tr = np.isin(g, train)
        model = T.fit_typed(x[tr], y[tr], g[tr], false_decline, review_share, l2=l2)
        idx = np.flatnonzero(g == w)
        dec = [decide(model, qs[i], cols, absent_decline) for i in idx]
        out[w] = figures(dec, y[idx].astype(bool))
        pooled += dec
        held_y += list(y[idx].astype(bool))
        if w in pool:
            part += dec
            part_y += list(y[idx].astype(bool))
    keys = ("caught", "flagged", "false_decline", "auroc")
    mean = {k: float(np.nanmean([out[w][k] for w, _ in plan])) for k in keys}
    extra = {f"pooled {pool[0]}-{pool[-1]}": figures(part, np.array(part_y))} if part else {}
    return {**out, "mean": mean, "pooled": figures(pooled, np.array(held_y)), **extra}


def fit_all(qs: list[Inputs], out: Path, l2: float, false_decline: float, review_share: float) -> None:
    """The typed confidence fitted on every recorded question, grouped by writer, written to `out`: the fit
    `everyday.py --fit-typed` makes from the same rows, in seconds instead of answering every question again."""
    model = T.fit_typed(np.array([q.row for q in qs]), np.array([q.answerable for q in qs], dtype=float),
                        np.array([q.writer for q in qs]), false_decline=false_decline, review_share=review_share,
                        training={"questions": sorted({q.source for q in qs})}, l2=l2)
    model.save(out)
    print(f"typed confidence fitted on {len(qs)} questions: threshold {model.threshold}, review {model.review} "
          f"-> {out}")


def main(argv: list[str] | None = None) -> int:
    from everyday import WRITERS, forward_folds

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--record", type=Path, metavar="OUT", help="answer every question once and write its inputs")
    ap.add_argument("--shard", default="1/1", metavar="K/N",
                    help="with --record: only every N-th writer from the K-th (records made side by side)")
    ap.add_argument("--writers-from", metavar="W",
                    help="with --record: only the writers from W on (a change to the fact rules alone leaves the "
                         "earlier writers' rows, which the forward fits read, as recorded before it)")
    ap.add_argument("--inputs", type=Path, nargs="+", help="the inputs --record wrote (shards: each file)")
    ap.add_argument("--fit", type=Path, metavar="OUT",
                    help="write the typed confidence fitted on every recorded question (the shipped fit)")
    ap.add_argument("--forward-from", metavar="W", help="each writer from W on, fitted on the writers before it")
    ap.add_argument("--l2", type=float, default=T.L2)
    ap.add_argument("--drop", nargs="*", default=[], metavar="PREFIX", help="leave out features named so")
    ap.add_argument("--false-decline", type=float, default=T.FALSE_DECLINE)
    ap.add_argument("--review-share", type=float, default=T.REVIEW_SHARE)
    ap.add_argument("--absent-decline", type=float, default=None, metavar="P",
                    help="the lexical P under which a question the note names nothing of is declined outright "
                         f"(default: as recorded, i.e. {T.ABSENT_DECLINE}; 1 declines every such question)")
    ap.add_argument("--pool-from", metavar="W", help="also print the figures pooled over W and the writers after it")
    args = ap.parse_args(argv)
    if args.record:
        if args.writers_from and args.writers_from not in WRITERS:
            raise SystemExit(f"--writers-from {args.writers_from!r}: no such writer")
        record(args.record, args.shard, args.writers_from)
        return 0
    if not args.inputs:
        raise SystemExit("give --record OUT or --inputs FILE")
    qs = merged(args.inputs)
    if args.fit:
        fit_all(qs, args.fit, args.l2, args.false_decline, args.review_share)
        return 0
    # the writers the record holds, in WRITERS' order: a record made before writers were added scores as it was
    recorded = {q.writer for q in qs}
    writers = tuple(w for w in WRITERS if w in recorded)
    plan = ([(held[0], list(before)) for before, held in forward_folds(writers, args.forward_from)]
            if args.forward_from else [(w, [v for v in writers if v != w]) for w in writers])
    cols = np.array([k for k, n in enumerate(T.FEATURES) if not n.startswith(tuple(args.drop))])
    got = score(qs, plan, cols, args.l2, args.false_decline, args.review_share, args.absent_decline,
                writers[writers.index(args.pool_from):] if args.pool_from in writers else ())
    print("| writer | unanswerable declined or flagged | answerable flagged | false decline | AUROC |")
    print("|---|---|---|---|---|")
    for w, f in got.items():
        print(f"| {w} | {100 * f['caught']:.1f}% | {100 * f['flagged']:.1f}% | {100 * f['false_decline']:.1f}% | "
              f"{f['auroc']:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
