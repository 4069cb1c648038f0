"""Which fact rule flags each answer of `archehr answer` for review, and what dropping a rule would change.

A fact rule flags an answer when it sees the asked fact missing from the note (`review.review_flags`: `fact_missing`,
`result_awaited`, `unsaid_in_note` ...). The rules are tried in turn and the first that fires decides, so the flag
says nothing of which rule raised it nor whether another would have. `--record` answers every question of
`everyday.WRITERS` (or a `--shard K/N` of the writers) and, for each answer, tries every rule apart (each part of the
`or` chains of `review_flags`, `asked_fact.any_unsaid`, `asked_detail.detail_unsaid`, `own_lines.own_lines_unsaid`
and `review.med_undecided`), writing the names of those that fire as JSON lines. `fact_missing`'s parts are
inline tests: its part is named by the line of the `return` that fired (only its first part is seen).

Scoring joins that record to `typed_refit.py`'s (same code, same questions) and prints, per writer group, on how
many answerable and unanswerable questions each rule fires (`all`) and fires with no other rule firing (`alone`);
with `--drop NAME ...` (a rule, or a prefix such as `fact_missing`) each writer from `--forward-from` on is scored as
`typed_refit.py` scores it, with and without those rules, pooled per group.

    python benchmarks/rule_flags.py --record /tmp/r1.jsonl --shard 1/2 & \
        python benchmarks/rule_flags.py --record /tmp/r2.jsonl --shard 2/2; wait
    python benchmarks/rule_flags.py --rules /tmp/r1.jsonl /tmp/r2.jsonl --inputs /tmp/t1.jsonl /tmp/t2.jsonl \
        --forward-from CQ --drop own_lines.reports_question
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

# (module, function): each a rule of an `or` chain, patched where the chain reads it (the module's attribute)
PARTS = (("archehr.answerability.review", "result_awaited"), ("archehr.answerability.review", "why_uncaused"),
         ("archehr.answerability.review", "fact_undetermined"), ("archehr.answerability.review", "awaited_near"),
         ("archehr.answerability.asked_fact", "fact_unsaid"), ("archehr.answerability.asked_fact", "date_unset"),
         ("archehr.answerability.asked_fact", "result_earlier"), ("archehr.answerability.asked_fact", "years_unsaid"),
         ("archehr.answerability.asked_fact", "named_as_risk_only"),
         ("archehr.answerability.asked_detail", "date_undated"), ("archehr.answerability.asked_detail", "dose_unsaid"),
         ("archehr.answerability.asked_detail", "result_pending"),
         ("archehr.answerability.asked_service", "service_undated"),
         ("archehr.answerability.result_first", "first_unresulted"),
         ("archehr.answerability.asked_detail", "time_unsaid"), ("archehr.answerability.med_listed", "listed_only"),
         ("archehr.answerability.own_lines", "reports_question"),
         ("archehr.answerability.own_lines", "other_medicine_cause"),
         ("archehr.answerability.own_lines", "own_result_awaited"),
         ("archehr.answerability.med_decisions", "undecided"),
         ("archehr.answerability.med_decisions", "other_medicine_only"),
         ("archehr.answerability.med_decisions", "name_unsaid"))
# the rules' chains, which call the parts above (patched too, so that every part of them is tried)
CHAINS = (("archehr.answerability.review", "fact_missing"), ("archehr.answerability.review", "unsaid_in_note"),
          ("archehr.answerability.review", "med_undecided"), ("archehr.answerability.review", "own_lines_unsaid"))


@contextmanager
def probing(fired: set[str]) -> Iterator[None]:
    """While open, every part of `PARTS` called from a rule chain records in `fired` whether it fires and answers
    False, so that the chain goes on to try the next; a part called from inside another part answers as it would
    (its caller's result stays its own). `fact_missing` records the line of its `return True`."""
    depth = [0]
    saved: list[tuple[Any, str, Any]] = []

    def wrap(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def probe(*a: Any, **k: Any) -> Any:
            depth[0] += 1
            try:
                out = fn(*a, **k)
            finally:
                depth[0] -= 1
            if depth[0]:
                return out
            if out:
                fired.add(name)
            return False
        return probe

    for mod_name, fn_name in PARTS:
        mod = importlib.import_module(mod_name)
        saved.append((mod, fn_name, getattr(mod, fn_name)))
        setattr(mod, fn_name, wrap(f"{mod_name.rsplit('.', 1)[1]}.{fn_name}", getattr(mod, fn_name)))
    review = importlib.import_module("archehr.answerability.review")
    missing = review.fact_missing
    saved.append((review, "fact_missing", missing))
    review.fact_missing = _traced_missing(missing, fired)  # type: ignore[method-assign]
    try:
        yield
    finally:
        for mod, fn_name, fn in reversed(saved):
            setattr(mod, fn_name, fn)


_MISSING_PARTS: dict[int, str] = {}


def _traced_missing(fn: Callable[..., bool], fired: set[str]) -> Callable[..., bool]:
    """`fact_missing` recording `fact_missing@LINE`, the line of the `return` that said True, and answering False."""
    global _MISSING_PARTS
    _MISSING_PARTS = _MISSING_PARTS or _missing_lines()

    def traced(*a: Any, **k: Any) -> bool:
        line = [0]

        def local(frame: Any, event: str, arg: Any) -> Any:
            if event == "return" and arg:
                line[0] = frame.f_lineno
            return local

        def tracer(frame: Any, event: str, arg: Any) -> Any:
            return local if frame.f_code is fn.__code__ else None

        old = sys.gettrace()
        sys.settrace(tracer)
        try:
            out = fn(*a, **k)
        finally:
            sys.settrace(old)
        if out:
            fired.add(f"fact_missing.{_MISSING_PARTS.get(line[0], line[0])}")
        return False
    return traced


# `fact_missing`'s parts, in the order of its `return`s that can say True (named by what each test sees)
_MISSING_NAMES = ("no_fact", "booked_undated", "drug_unnamed", "activity_unnamed", "no_length", "other_activity",
                  "before_only", "awaited", "planned", "blank_date", "other_event")


def _missing_lines() -> dict[int, str]:
    """The line of each `return` of `fact_missing` that can say True, named by `_MISSING_NAMES` in turn."""
    import ast
    import inspect

    from archehr.answerability.review import fact_missing

    lines, first = inspect.getsourcelines(fact_missing)
    tree = ast.parse(inspect.cleandoc("".join(lines)) if lines[0].startswith(" ") else "".join(lines))
    ends = [n.lineno + first - 1 for n in ast.walk(tree) if isinstance(n, ast.Return)
            and not (isinstance(n.value, ast.Constant) and n.value.value is False)]
    return dict(zip(sorted(ends), _MISSING_NAMES, strict=True))


def record(out: Path, shard: str, start: str | None = None) -> None:
    """Answer each question of the shard's writers (those from `start` on when given), writing the rules that fire
    on its answer as a JSON line."""
    from everyday import WRITERS, load_questions
    from typed_refit import shard_of

    import archehr
    import archehr.ask as ask
    from archehr.pipeline import load_system

    seen: dict[str, Any] = {}
    flags = ask.review_flags

    def flagged(model: Any, p: Any, selector: Any, types: Any, best: Any, question: str, split: Any) -> Any:
        got = flags(model, p, selector, types, best, question, split)
        fired: set[str] = set()
        with probing(fired):
            flags(model, p, selector, types, best, question, split)
        seen.update(ruled=got[1], rules=sorted(fired))
        return got

    ask.review_flags = flagged  # type: ignore[assignment]
    from archehr.answerability.typed import load_typed
    never = replace(load_typed(), threshold=0.0)  # as typed_refit's record: every answer's rules are read
    system, lines = load_system(None), []
    writers = list(WRITERS)
    for w in shard_of(writers[writers.index(start):] if start else writers, shard):
        for q in load_questions([ROOT / "data" / "everyday" / f for f in WRITERS[w]]):
            seen.clear()
            archehr.answer(q.note, q.question, system=system, typed=never)
            lines.append(json.dumps({"writer": w, "source": q.source, "id": q.qid, "answerable": q.answerable,
                                     "ruled": bool(seen.get("ruled", False)), "rules": seen.get("rules", [])}))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


GROUPS = (("A", "CP"), ("CQ", "DK"), ("DL", "DS"), ("DT", "DW"), ("DX", "EA"), ("EB", "EE"))


def group_of(writer: str, writers: list[str]) -> str:
    """The writer group (`GROUPS`, "A-CP" ...) of a writer, by its place in `everyday.WRITERS`."""
    at = writers.index(writer)
    for a, b in GROUPS:
        if writers.index(a) <= at <= writers.index(b):
            return f"{a}-{b}"
    return "?"


def read_rules(paths: list[Path]) -> dict[tuple[str, str, str], dict[str, Any]]:
    """The rule records by (writer, questions file, question id)."""
    out = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            # (a record naming `fact_missing`'s parts by line, as the code read then: named as they are now)
            parts = _missing_lines() if any("@" in r for r in d["rules"]) else {}
            d["rules"] = [f"fact_missing.{parts.get(int(r.split('@')[1]), r)}" if "@" in r else r for r in d["rules"]]
            out[(d["writer"], d["source"], d["id"])] = d
    return out


def dropped(rules: list[str], drop: list[str]) -> bool:
    """Whether a rule still fires once the rules named by (or starting with) `drop` are left out."""
    return any(not r.startswith(tuple(drop)) for r in rules) if drop else bool(rules)


def rule_table(rows: list[dict[str, Any]], writers: list[str]) -> list[str]:
    """Markdown rows: each rule, per writer group, answerable/unanswerable questions it fires on (all, alone)."""
    groups = [f"{a}-{b}" for a, b in GROUPS]
    count: dict[tuple[str, str, bool, bool], int] = {}
    sizes: dict[tuple[str, bool], int] = {}
    for d in rows:
        g = group_of(d["writer"], writers)
        sizes[(g, d["answerable"])] = sizes.get((g, d["answerable"]), 0) + 1
        for r in d["rules"]:
            for alone in (False, True):
                if alone and len(d["rules"]) > 1:
                    continue
                key = (r, g, d["answerable"], alone)
                count[key] = count.get(key, 0) + 1
    names = sorted({k[0] for k in count}, key=lambda r: -sum(v for k, v in count.items() if k[0] == r))
    out = ["| rule | " + " | ".join(f"{g} ans/unans (alone)" for g in groups) + " |",
           "|---|" + "---|" * len(groups),
           "| questions | " + " | ".join(f"{sizes.get((g, True), 0)}/{sizes.get((g, False), 0)}" for g in groups)
           + " |"]
    for r in names:
        cells = [f"{count.get((r, g, True, False), 0)}/{count.get((r, g, False, False), 0)} "
                 f"({count.get((r, g, True, True), 0)}/{count.get((r, g, False, True), 0)})" for g in groups]
        out.append(f"| {r} | " + " | ".join(cells) + " |")
    return out


def compare(inputs: list[Path], rules: dict[tuple[str, str, str], dict[str, Any]], start: str,
            drops: list[list[str]]) -> list[str]:
    """Markdown rows: each writer group's pooled figures (forward from `start`, as `typed_refit.py` scores them)
    with the rules recorded (`before`) and with the rules of each of `drops` left out."""
    import numpy as np
    from everyday import WRITERS, forward_folds
    from typed_refit import decide, figures, read_inputs

    from archehr.answerability import typed as T

    qs, keys = [], []
    for path in inputs:
        qs += read_inputs(path)
        keys += [(d["writer"], d["source"], d["id"]) for d in map(json.loads, path.read_text().splitlines())]
    writers = list(WRITERS)
    recorded = tuple(w for w in writers if w in {q.writer for q in qs})
    x, y = np.array([q.row for q in qs]), np.array([q.answerable for q in qs], dtype=float)
    g = np.array([q.writer for q in qs])
    plans = [[], *drops]
    got: dict[tuple[str, int], list[Any]] = {}
    labels: dict[str, list[bool]] = {}
    for train, held in forward_folds(recorded, start):
        tr = np.isin(g, train)
        model = T.fit_typed(x[tr], y[tr], g[tr], T.FALSE_DECLINE, T.REVIEW_SHARE, l2=T.L2)
        grp = group_of(held[0], writers)
        for i in np.flatnonzero(g == held[0]):
            d = rules.get(keys[i])
            if d is None:
                continue
            # (the rules record's own flag, not the inputs': the code it was made with is the one changed)
            for k, drop in enumerate(plans):
                got.setdefault((grp, k), []).append(decide(model, replace(qs[i], ruled=dropped(d["rules"], drop))))
            labels.setdefault(grp, []).append(qs[i].answerable)
    out = ["| group | left out | caught | answerable flagged | false decline | AUROC |", "|---|---|---|---|---|---|"]
    for grp in labels:
        for k, drop in enumerate(plans):
            f = figures(got[(grp, k)], np.array(labels[grp]))
            out.append(f"| {grp} | {' '.join(drop) or '(none)'} | {100 * f['caught']:.1f}% | "
                       f"{100 * f['flagged']:.1f}% | {100 * f['false_decline']:.1f}% | {f['auroc']:.3f} |")
    return out

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--record", type=Path, metavar="OUT", help="answer every question, writing the rules that fire")
    ap.add_argument("--shard", default="1/1", metavar="K/N", help="with --record: every N-th writer from the K-th")
    ap.add_argument("--writers-from", metavar="W", help="with --record: only the writers from W on")
    ap.add_argument("--rules", type=Path, nargs="+", help="the rule records --record wrote")
    ap.add_argument("--inputs", type=Path, nargs="+", help="typed_refit.py's records of the same code")
    ap.add_argument("--forward-from", default="CQ", metavar="W", help="score each writer from W on (default CQ)")
    ap.add_argument("--drop", nargs="+", action="append", default=[], metavar="RULE",
                    help="leave out these rules (or prefixes); again for another set, each scored apart")
    args = ap.parse_args(argv)
    if args.record:
        record(args.record, args.shard, args.writers_from)
        return 0
    if not args.rules:
        raise SystemExit("give --record OUT or --rules FILE ...")
    from everyday import WRITERS

    rules = read_rules(args.rules)
    print("\n".join(rule_table([d for d in rules.values() if not d["writer"].startswith(("DT", "DU", "DV", "DW"))],
                                list(WRITERS))))
    if args.inputs:
        print()
        print("\n".join(compare(args.inputs, rules, args.forward_from, args.drop)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
