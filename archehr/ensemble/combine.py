"""One case's ensemble prediction for each kind of task, and the record of what was chosen.

Voters: each member with a weight > 0 votes with its own prediction, except that a member whose run
fell back on this case votes as its fallback system (the component its run.json names), and several
members that fell back to the same system there vote once, with the mean of their weights and the
first one's prediction (they ran the same component on the same input).

    ids (2025 citations, st2)   weighted vote per note sentence id (vote.weighted_vote)
    links (st4)                 the same per (answer sentence id, note sentence id) pair
    text (st1, st3)             the minimum-Bayes-risk text (vote.mbr_choice)
    answer (2025)               the minimum-Bayes-risk answer text, cited with the voted ids (compose_answer)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from archehr.ensemble.members import Member, fallback_system
from archehr.ensemble.vote import mbr_choice, similarity, weighted_vote
from archehr_scoring.answer_format import MAX_WORDS, line_words, parse_answer, render_line

DEFAULT_THRESHOLD = 0.5  # a strict weighted majority; benchmarks/ensemble.py: how it was chosen


@dataclass(frozen=True)
class Voter:
    label: str  # the member's label, or "fallback:NAME" for members that fell back to NAME on this case
    weight: float
    members: tuple[int, ...]
    prediction: Any


@dataclass(frozen=True)
class Settings:
    """What an ensemble is: a weight per member (None: equal) and the vote threshold."""

    threshold: float = DEFAULT_THRESHOLD
    weights: tuple[float, ...] | None = None
    source: str = "default"  # default | fitted on dev | selected on dev
    details: Mapping[str, Any] = field(default_factory=dict)

    def weight(self, k: int) -> float:
        return 1.0 if self.weights is None else float(self.weights[k])


def voters(members: Sequence[Member], settings: Settings, case_id: str, kind: str) -> list[Voter]:
    """The voters of one case (module docstring), in member order (a fallback group at its first member)."""
    out: list[Voter] = []
    groups: dict[str, int] = {}
    grouped: dict[int, list[int]] = {}
    for k, m in enumerate(members):
        w = settings.weight(k)
        if w <= 0:
            continue
        reason = m.fallbacks.get(case_id)
        name = fallback_system(reason, kind) if reason else None
        if name is None:
            out.append(Voter(m.label, w, (k,), m.predictions[case_id]))
            continue
        if name in groups:
            grouped[groups[name]].append(k)
            continue
        groups[name] = len(out)
        grouped[len(out)] = [k]
        out.append(Voter(f"fallback:{name}", w, (k,), m.predictions[case_id]))
    for pos, ks in grouped.items():
        v = out[pos]
        out[pos] = Voter(v.label, sum(settings.weight(k) for k in ks) / len(ks), tuple(ks), v.prediction)
    return out


def note_order(ids: Sequence[str]) -> list[str]:
    """Ids in note order (numeric ids by value)."""
    return sorted(dict.fromkeys(ids), key=lambda x: (0, int(x), "") if x.isdigit() else (1, 0, x))


def combine_ids(vs: Sequence[Voter], threshold: float) -> tuple[list[str], dict[str, Any]]:
    res = weighted_vote([(v.weight, [str(i) for i in v.prediction]) for v in vs], threshold)
    return note_order(res.chosen), {"fell_back_to_top": res.fell_back,
                                    "support": {i: round(s, 4) for i, s in sorted(res.support.items())}}


def combine_links(vs: Sequence[Voter], threshold: float) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    answer_ids: list[str] = []
    ballots = []
    for v in vs:
        pairs = []
        for item in v.prediction:
            a = str(item["answer_id"])
            answer_ids.append(a)
            pairs += [(a, str(e)) for e in item.get("evidence_id") or ()]
        ballots.append((v.weight, pairs))
    res = weighted_vote(ballots, threshold)
    links = [{"answer_id": a, "evidence_id": note_order([e for x, e in res.chosen if x == a])}
             for a in dict.fromkeys(answer_ids)]
    return links, {"fell_back_to_top": res.fell_back,
                   "support": {f"{a}-{e}": round(s, 4) for (a, e), s in sorted(res.support.items())}}


def combine_text(vs: Sequence[Voter]) -> tuple[str, dict[str, Any]]:
    choice = mbr_choice([str(v.prediction) for v in vs], [v.weight for v in vs])
    return str(vs[choice.index].prediction), {"text_from": vs[choice.index].label,
                                              "agreement": list(choice.agreement)}


def _lines(answer: str) -> list[tuple[str, list[str]]]:
    return [(ln.sentence, [c.strip() for c in ln.citations]) for ln in parse_answer("", answer).lines]


def compose_answer(vs: Sequence[Voter], threshold: float,
                   word_limit: int = MAX_WORDS) -> tuple[str, dict[str, Any]]:
    """The 2025 answer: the MBR text's lines cited with the voted ids.

    A voted id goes to the chosen text's line most like the lines of the voters that cite it (weighted
    ROUGE-L; ties: the earlier line); one no voter line resembles goes to the last cited line. Each line keeps
    its own citations that were voted. A line that cited only ids the vote rejected, and was given none, is
    dropped (what it says rests on sentences the ensemble does not cite); a line the member left uncited stays
    uncited. Over the word limit, trailing lines are dropped and their citations move to the last kept line.
    """
    parsed = [_lines(str(v.prediction)) for v in vs]
    voted, rec = combine_ids([Voter(v.label, v.weight, v.members, [c for _, cs in p for c in cs])
                              for v, p in zip(vs, parsed, strict=True)], threshold)
    choice = mbr_choice([" ".join(s for s, _ in p) for p in parsed], [v.weight for v in vs])
    lines = [(s, [c for c in cs if c in voted], bool(cs)) for s, cs in parsed[choice.index]]
    have = {c for _, cs, _ in lines for c in cs}
    recited: dict[str, int] = {}
    for cid in (c for c in voted if c not in have):
        score = [sum(v.weight * max((similarity(s, t) for t, cs in p if cid in cs), default=0.0)
                     for j, (v, p) in enumerate(zip(vs, parsed, strict=True)) if j != choice.index)
                 for s, _, _ in lines]
        best = max(range(len(lines)), key=lambda k: (round(score[k], 12), -k))
        if score[best] <= 0:
            cited = [k for k, (_, cs, _) in enumerate(lines) if cs]
            best = cited[-1] if cited else 0
        lines[best][1].append(cid)
        recited[cid] = best + 1
    dropped = [k + 1 for k, (_, cs, was) in enumerate(lines) if was and not cs]
    kept = [(s, cs) for s, cs, was in lines if cs or not was]
    out: list[tuple[str, list[str]]] = []
    total, over = 0, 0
    for s, cs in kept:
        n = line_words(s)
        if out and (over or total + n > word_limit):
            out[-1][1].extend(cs)
            over += 1
            continue
        if not out and n > word_limit:  # one line alone over the limit: its first words
            s = " ".join(s.split(" ")[:word_limit])
        out.append((s, list(cs)))
        total += n
    answer = "\n".join(render_line(s, note_order(cs)) for s, cs in out)
    rec.update({"text_from": vs[choice.index].label, "agreement": list(choice.agreement),
                "recited": recited, "dropped_lines": dropped, "over_word_limit_lines": over})
    return answer, rec


def combine_case(kind: str, vs: Sequence[Voter], threshold: float, word_limit: int | None) -> tuple[Any, dict]:
    """One case's ensemble prediction for a prediction kind (answer | text | ids | links) and its record."""
    if kind == "answer":
        return compose_answer(vs, threshold, word_limit or MAX_WORDS)
    if kind == "ids":
        return combine_ids(vs, threshold)
    if kind == "links":
        return combine_links(vs, threshold)
    if kind == "text":
        return combine_text(vs)
    raise ValueError(f"no ensemble rule for predictions of kind {kind!r}")


def ensemble_predictions(members: Sequence[Member], settings: Settings,
                         case_ids: Sequence[str] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """({case: prediction}, {case: record}) of the ensemble over `case_ids` (default: the first member's)."""
    from archehr_scoring.tasks import get_task

    spec = get_task(members[0].task)
    preds: dict[str, Any] = {}
    records: dict[str, Any] = {}
    for cid in case_ids if case_ids is not None else members[0].case_ids:
        vs = voters(members, settings, cid, spec.prediction)
        preds[cid], rec = combine_case(spec.prediction, vs, settings.threshold, spec.word_limit)
        records[cid] = {"voters": [{"as": v.label, "weight": round(v.weight, 6), "members": list(v.members)}
                                   for v in vs], **rec}
    return preds, records
