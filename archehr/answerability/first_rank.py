"""A learned choice of the sentence that answers first, among the hand ranking's best few.

`archehr answer` ranks a note's sentences by a hand-made score (`ask._rank`: the answer types of `kinds`, the
selector's relevance, each sentence's role). Its weights were tuned on the development writers' misses, and on
writers nobody had read the first line is right less often. This module offers a small listwise model over what
that ranking already computes: the best `k` sentences by the hand rank are the candidates, each described by a
few measures (its share of the best rank, its place, its answer-type and topic scores, whether it holds the asked
kind, its role's weight, the selector's relevance, where it sits in the note, its length), and a softmax over a
linear score of those (a conditional logit, strongly L2-regularised) picks the one to put first. It only reorders
those candidates, so it can never cite a sentence the hand ranking did not rank among its best `k`. The model is
fitted by `benchmarks/first_ranker.py` into a versioned JSON file; nothing is trained at run time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from archehr.answerability.asked_for import KINDS
from archehr.atomic import write_json
from archehr.data.json_io import read_json
from archehr.errors import DataError, Problem

FORMAT = "archehr-first-ranker"
FORMAT_VERSION = 1
K = 6  # candidates: the hand ranking's best six (a gold sentence is among them for 96-97% of answerable questions)
L2 = 30.0  # strong: few questions per writer (3, 10, 30, 100 were within noise of each other, leave-one-writer-out)
FEATURES = ("hand_first", "place", "share", "typed", "conf_score", "topic", "topic_gap", "holds", "firm",
            "linked", "relevance", "role_weight", "history", "section", "position", "log_words", "from_first",
            *(f"holds_{k}" for k in KINDS), *(f"typed_{k}" for k in KINDS))


@dataclass(frozen=True)
class Candidates:
    """The sentences a question's first line is chosen among (note indices, hand order) and their feature rows."""

    index: tuple[int, ...]
    rows: np.ndarray  # len(index) x len(FEATURES)


def candidates(order: Sequence[int], rank: np.ndarray, typed_rank: np.ndarray, types: Any, relevance: np.ndarray,
               roles: np.ndarray, sections: Sequence[str], words: Sequence[int], k: int = K) -> Candidates:
    """The best `k` of `order` (the hand ranking, best first) with their `FEATURES` rows. `types` is the question's
    `kinds.AnswerTypes`; `relevance` the selector's max-normalised relevance; `roles` each sentence's role weight
    (`roles.role_weights`); `sections` each sentence's section ("history", or "kind" when it is a section the asked
    kind is usually told in, else ""); `words` each sentence's word count."""
    idx = tuple(int(i) for i in order[:k])
    n = len(rank)
    if not idx:
        return Candidates((), np.zeros((0, len(FEATURES))))
    top = float(rank[idx[0]]) or 1.0
    # the note's best, not the candidates', so a row does not depend on k
    best_typed = float(np.max(typed_rank)) or 1.0
    best_topic = float(np.max(types.topic))
    firm = types.holds if types.firm is None else types.firm
    rows = []
    for place, i in enumerate(idx):
        rows.append([float(place == 0), float(place), float(rank[i]) / top, float(typed_rank[i]) / best_typed,
                     float(types.score[i]), float(types.topic[i]), best_topic - float(types.topic[i]),
                     float(types.holds[i]), float(firm[i]),
                     float(types.linked[i]) if types.linked is not None else 0.0, float(relevance[i]),
                     float(roles[i]), float(sections[i] == "history"), float(sections[i] == "kind"),
                     i / max(n - 1, 1), math.log1p(words[i]), abs(i - idx[0]) / max(n - 1, 1),
                     # the asked kind's own weight on holding it and on the answer-type score
                     *(float(types.holds[i]) * (types.kind == k) for k in KINDS),
                     *(float(typed_rank[i]) / best_typed * (types.kind == k) for k in KINDS)])
    return Candidates(idx, np.array(rows, dtype=float))


def note_candidates(case: Any, order: Sequence[int], rank: np.ndarray, typed_rank: np.ndarray, types: Any,
                    scores: Any, k: int = K) -> Candidates:
    """`candidates` for a question on its note (`case`: its sentences, a `Case`), with the measures read from it:
    the selector's relevance (`scores`, a `SentenceScores` or None), the roles' weights, the sections, the lengths."""
    from archehr.answerability.kinds import SECTION_FOR_KIND
    from archehr.answerability.roles import role_weights, sentence_roles
    from archehr.relevance.text import contexts

    n = len(rank)
    rel = np.asarray(scores.relevant(), dtype=float) if scores is not None else np.zeros(n)
    rel = rel / rel.max() if rel.size and rel.max() > 0 else rel
    roles = role_weights(sentence_roles(case.sentences), types.kind)
    told_in = SECTION_FOR_KIND.get(types.kind, ())
    sections = ["history" if c.section == "history" else "kind" if c.section in told_in else ""
                for c in contexts(case)]
    words = [len(s.text.split()) for s in case.sentences]
    return candidates(order, rank, typed_rank, types, rel, roles, sections, words, k)


@dataclass(frozen=True)
class FirstRanker:
    """A linear score over scaled `FEATURES`; the candidate scoring highest answers first."""

    weights: np.ndarray
    mean: np.ndarray
    scale: np.ndarray
    k: int = K
    l2: float = L2
    training: dict[str, Any] | None = None

    def scores(self, rows: np.ndarray) -> np.ndarray:
        return ((rows - self.mean) / self.scale) @ self.weights

    def first(self, cands: Candidates) -> int:
        """The note index of the candidate to put first (the hand ranking's first on a tie)."""
        if not cands.index:
            return -1
        s = self.scores(cands.rows)
        return cands.index[int(np.argmax(s))]  # argmax keeps the earliest (hand order) on a tie

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "features": list(FEATURES), "k": self.k,
                "l2": self.l2, "weights": self.weights.tolist(), "mean": self.mean.tolist(),
                "scale": self.scale.tolist(), "training": self.training or {}}

    def save(self, path: str | Path) -> None:
        write_json(Path(path), self.to_dict())


def load_first_ranker(path: str | Path) -> FirstRanker:
    d = read_json(Path(path))
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise DataError(Problem(f"not a first-line ranker (format {FORMAT!r})", str(path)))
    if d.get("format_version") != FORMAT_VERSION or tuple(d.get("features", ())) != FEATURES:
        raise DataError(Problem("first-line ranker of another version or features; refit it", str(path)))
    return FirstRanker(np.array(d["weights"], dtype=float), np.array(d["mean"], dtype=float),
                       np.array(d["scale"], dtype=float), int(d["k"]), float(d["l2"]), d.get("training") or {})


def fit_first_ranker(groups: Sequence[tuple[np.ndarray, np.ndarray]], l2: float = L2, k: int = K,
                     iterations: int = 30, training: dict[str, Any] | None = None) -> FirstRanker:
    """Fit the listwise model on questions given as (candidate rows, gold mask): each question's target spreads
    evenly over its gold candidates; questions with no gold candidate, or only gold ones, teach nothing and are
    left out. Minimises the summed cross-entropy + l2/2 |w|^2 by Newton's method (convex)."""
    used = [(x, g.astype(float)) for x, g in groups if 0 < g.sum() < len(g)]
    if not used:
        raise ValueError("no question has both a gold and a non-gold candidate")
    allx = np.vstack([x for x, _ in used])
    mean, sd = allx.mean(axis=0), allx.std(axis=0)
    scale = np.where(sd > 1e-12, sd, 1.0)
    xs = [((x - mean) / scale, g / g.sum()) for x, g in used]
    d = allx.shape[1]
    w = np.zeros(d)
    loss = _loss(xs, w, l2)
    for _ in range(iterations):
        grad, hess = l2 * w.copy(), l2 * np.eye(d)
        for x, t in xs:
            p = _softmax(x @ w)
            mu = p @ x
            grad += mu - t @ x
            hess += (x * p[:, None]).T @ x - np.outer(mu, mu)
        step = np.linalg.solve(hess + 1e-9 * np.eye(d), grad)
        # Newton's step halved until the loss falls (a nearly separable feature makes the full step overshoot)
        for _ in range(30):
            new = _loss(xs, w - step, l2)
            if new <= loss:
                break
            step = step / 2
        else:
            break
        w, done = w - step, loss - new < 1e-10 * max(1.0, abs(loss))
        loss = new
        if done:
            break
    return FirstRanker(w, mean, scale, k, l2, training)


def _softmax(s: np.ndarray) -> np.ndarray:
    p = np.exp(s - s.max())
    return p / p.sum()


def _loss(xs: Sequence[tuple[np.ndarray, np.ndarray]], w: np.ndarray, l2: float) -> float:
    """Summed cross-entropy of each question's target over its candidates, + l2/2 |w|^2."""
    total = 0.5 * l2 * float(w @ w)
    for x, t in xs:
        s = x @ w
        top = float(s.max())
        total += top + math.log(float(np.exp(s - top).sum())) - float(t @ s)
    return total
