"""The answer verifier's score added to the typed confidence's feature rows, refitted offline
(`benchmarks/typed_refit.py`: the recorded decision inputs, `archehr.ask`'s decision), beside the typed confidence
alone under the same plan; printed for the recent writers (AV on) and all writers tested. Used by
`benchmarks/answer_verifier.py`."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from typed_refit import Inputs, decide, figures

from archehr.answerability import typed as T


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return float(np.log(p / (1 - p)))


def read(path: Path) -> list[tuple[tuple[str, str], Inputs]]:
    """The recorded inputs, each with its (questions file, id)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        out.append(((r["source"], r["id"]), Inputs(
            r["writer"], r["answerable"], np.array(r["row"]), None if r["pruned"] is None else np.array(r["pruned"]),
            r["lexical_p"], r["absent"], r["held"], r["ruled"], r["given"], r["generator_declined"])))
    return out


def with_score(recorded: list[tuple[tuple[str, str], Inputs]], at: dict[tuple[str, str], int],
               score: np.ndarray) -> list[Inputs]:
    """The inputs with the verifier score's logit appended to each row (0 where the question has none); a score of
    two columns (best P, the hand ranking's first's P) appends the best's logit and its margin over the first's."""
    out = []
    for key, q in recorded:
        v = np.atleast_1d(score[at[key]])
        z = [_logit(float(x)) if not np.isnan(x) else 0.0 for x in v]
        v = np.array(z[:1] + [z[0] - z[1]] if len(z) == 2 else z)
        out.append(replace(q, row=np.append(q.row, v), pruned=None if q.pruned is None else np.append(q.pruned, v)))
    return out


def decisions(qs: list[Inputs] | dict[str, list[Inputs]], plan: list[tuple[str, list[str]]]) -> dict[str, list]:
    """Per tested writer, `archehr.ask`'s decisions from the typed confidence fitted on its training writers' rows
    (`qs`: one list, or one per fold, keyed by the tested writer)."""
    out = {}
    for w, train in plan:
        fold = qs[w] if isinstance(qs, dict) else qs
        x = np.array([q.row for q in fold])
        y = np.array([q.answerable for q in fold], dtype=float)
        g = np.array([q.writer for q in fold])
        tr = np.isin(g, train)
        model = T.fit_typed(x[tr], y[tr], g[tr])
        out[w] = [decide(model, fold[i]) for i in np.flatnonzero(g == w)]
    return out


def _line(name: str, dec: dict[str, list], ys: dict[str, np.ndarray], writers: list[str]) -> str:
    f = figures([x for w in writers for x in dec[w]], np.concatenate([ys[w] for w in writers]))
    return (f"| {name} | {f['auroc']:.3f} | {100 * f['caught']:.1f}% | {100 * f['flagged']:.1f}% | "
            f"{100 * f['false_decline']:.1f}% |")


def with_verifier(d: dict[str, Any], scores: dict[str, np.ndarray], path: Path,
                  plan: list[tuple[str, list[str]]]) -> None:
    """(b): per fold, the typed confidence refitted with the fold's verifier scores (`scores`, by tested writer)."""
    from answer_verifier import RECENT

    at = {(s, q): i for i, (s, q) in enumerate(zip(d["source"], d["qid"], strict=True))}
    recorded = read(path)
    plain = [q for _, q in recorded]
    ys = {w: np.array([q.answerable for q in plain if q.writer == w]) for w, _ in plan}
    base = decisions(plain, plan)
    ver = decisions({w: with_score(recorded, at, scores[w]) for w, _ in plan}, plan)
    tested = [w for w, _ in plan]
    recent = [w for w in tested if w in RECENT]
    print("(b) | confidence | AUROC | unanswerable declined or flagged | answerable flagged | false decline |")
    print("|---|---|---|---|---|")
    for label, ws in (("recent", recent), ("all tested", tested)):
        print(_line(f"typed, {label}", base, ys, ws))
        print(_line(f"typed + verifier, {label}", ver, ys, ws))
    better = sum(figures(ver[w], ys[w])["auroc"] > figures(base[w], ys[w])["auroc"] for w in recent)
    worse = sum(figures(ver[w], ys[w])["auroc"] < figures(base[w], ys[w])["auroc"] for w in recent)
    print(f"recent writers' AUROC: {better} better, {worse} worse of {len(recent)}")
    print("per recent writer (typed -> typed + verifier AUROC): " + ", ".join(
        f"{w} {figures(base[w], ys[w])['auroc']:.3f}->{figures(ver[w], ys[w])['auroc']:.3f}" for w in recent))
