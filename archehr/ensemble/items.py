"""What a vote decides, item by item, and each member's error rates on dev per class of item.

An item is what the task's citation score counts: a note sentence id (st2 evidence, the citations of a
2025 answer) or an (answer sentence id, note sentence id) link (st4). Per case, a member names a set of
items and the key a gold set (the essential sentences; st4: the clinician answer's links).

**Class rates** (the weights of `fit.py`'s `class rates` candidate). A member's mistakes are of two kinds,
whose rates differ a lot where positives are rare: a missed gold item (false negative rate
fn = missed / gold items) and a named non-gold item (false positive rate fp = named / non-gold items).
For voters that err independently, the vote that maximises the likelihood ratio weighs member k by
`log((1 - fn_k) / fn_k) + log((1 - fp_k) / fp_k)` and compares the weighted votes with a threshold. An item
that every member names, or none names, is decided the same whatever the weights, and the mistakes all
members share only show there; so the rates are counted over the items the members disagree on (at least
one names it and at least one does not), the ones the weights decide. Counts get half a mistake and half a
success added (so no rate is 0 or 1); a member no better than chance on a class gets nothing from it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from archehr.ensemble.members import Member


def member_items(kind: str, prediction: Any) -> frozenset[Hashable]:
    """The items one prediction names (kind: answer | ids | links)."""
    if kind == "answer":
        from archehr_scoring.answer_format import parse_answer

        return frozenset(c.strip() for ln in parse_answer("", str(prediction)).lines for c in ln.citations)
    if kind == "ids":
        return frozenset(str(i) for i in prediction)
    if kind == "links":
        return frozenset((str(x["answer_id"]), str(e)) for x in prediction for e in x.get("evidence_id") or ())
    raise ValueError(f"no items in predictions of kind {kind!r}")


def gold_items(kind: str, entry: Any) -> frozenset[Hashable]:
    """The gold items of one key entry: essential sentence ids, or (st4) the clinician answer's links."""
    if kind == "links":
        return frozenset((str(s.id), str(e)) for s in entry.clinician_answer_sentences or () for e in s.citations)
    return frozenset(str(i) for i in entry.essential_ids)


def load_key(key: Any) -> Any:
    """The key as a Split (a Split, a split folder or the key file)."""
    from archehr_scoring.api import load_key_split

    return load_key_split(key)[0]


@dataclass(frozen=True)
class Patterns:
    """Per (case, who named it) the gold and non-gold item counts: who = the members naming the item."""

    counts: Mapping[tuple[str, frozenset[int]], tuple[int, int]]  # (case, who) -> (gold, non-gold)
    n_gold: int  # every gold item, named or not
    n_members: int


def patterns(members: Sequence[Member], key: Any, case_ids: Sequence[str] | None = None) -> Patterns:
    """Who named each item, against the key, over `case_ids` (default: all the members' cases)."""
    from archehr_scoring.tasks import get_task

    kind = get_task(members[0].task).prediction
    split = load_key(key)
    counts: dict[tuple[str, frozenset[int]], tuple[int, int]] = {}
    n_gold = 0
    for cid in case_ids if case_ids is not None else members[0].case_ids:
        named = [member_items(kind, m.predictions[cid]) for m in members]
        gold = gold_items(kind, split.key_for(cid))
        n_gold += len(gold)
        for item in frozenset().union(*named) | gold:
            who = frozenset(k for k, s in enumerate(named) if item in s)
            g, n = counts.get((cid, who), (0, 0))
            counts[(cid, who)] = (g + 1, n) if item in gold else (g, n + 1)
    return Patterns(counts, n_gold, len(members))


@dataclass(frozen=True)
class ClassRates:
    fn: tuple[float, ...]  # per member: gold items it missed / gold items, over the disputed items
    fp: tuple[float, ...]  # per member: non-gold items it named / non-gold items, over the disputed items
    disputed_gold: int
    disputed_other: int

    def weights(self) -> tuple[float, ...]:
        """Per member: its log-likelihood-ratio weight (module docstring), normalised to a maximum of 1."""
        raw = [max(0.0, math.log((1 - fn) / fn)) + max(0.0, math.log((1 - fp) / fp))
               for fn, fp in zip(self.fn, self.fp, strict=True)]
        top = max(raw) or 1.0
        return tuple(round(r / top, 6) for r in raw)

    def record(self) -> dict[str, Any]:
        return {"fn": [round(x, 4) for x in self.fn], "fp": [round(x, 4) for x in self.fp],
                "disputed_gold": self.disputed_gold, "disputed_other": self.disputed_other}


def class_rates(pats: Patterns) -> ClassRates:
    """Each member's false negative and false positive rates over the disputed items (module docstring)."""
    n = pats.n_members
    missed, named = [0.5] * n, [0.5] * n
    gold = other = 0
    for (_, who), (g, o) in pats.counts.items():
        if not who or len(who) == n:  # undisputed: decided whatever the weights
            continue
        gold += g
        other += o
        for k in range(n):
            if k in who:
                named[k] += o
            else:
                missed[k] += g
    return ClassRates(tuple(m / (gold + 1) for m in missed), tuple(x / (other + 1) for x in named), gold, other)


def best_pattern_rule(pats: Patterns, by_case: bool = False) -> tuple[float, frozenset[Hashable]]:
    """(micro F1, the groups named) of the best rule that names an item from who named it (`by_case`: and its
    case), chosen with the key. Micro F1 = 2 TP / (TP + FP + gold) is highest when the groups named are those
    whose precision is above half the best F1 (Dinkelbach), so the best rule is a prefix of the groups sorted
    by precision. Without `by_case`, an upper bound on every vote over these members' items (any weights, any
    threshold; the case fallback of a vote aside): groups are `who`, else (case, who)."""
    merged: dict[Hashable, tuple[int, int]] = {}
    for (cid, who), (g, o) in pats.counts.items():
        if who:
            grp = (cid, who) if by_case else who
            a, b = merged.get(grp, (0, 0))
            merged[grp] = (a + g, b + o)
    groups = sorted(((g / (g + o), g, o, grp) for grp, (g, o) in merged.items() if g + o),
                    key=lambda x: (-x[0], -x[1], repr(x[3])))
    best, best_k, tp, fp = 0.0, 0, 0, 0
    for k, (_, g, o, _) in enumerate(groups, 1):
        tp, fp = tp + g, fp + o
        f1 = 2 * tp / (tp + fp + pats.n_gold) if tp + fp + pats.n_gold else 0.0
        if f1 > best + 1e-12:
            best, best_k = f1, k
    return 100 * best, frozenset(grp for *_, grp in groups[:best_k])


def rule_f1(pats: Patterns, rule: frozenset[Hashable], by_case: bool = False) -> float:
    """Micro F1 (0-100) of naming the items whose group (module docstring of best_pattern_rule) is in `rule`."""
    tp = fp = 0
    for (cid, who), (g, o) in pats.counts.items():
        if who and ((cid, who) if by_case else who) in rule:
            tp, fp = tp + g, fp + o
    den = tp + fp + pats.n_gold
    return 100 * 2 * tp / den if den else 0.0
