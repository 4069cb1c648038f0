"""Subtask 4: link each given clinician answer sentence to the note sentences that support it.

Score of (answer sentence a, note sentence s) = (1 - w) * sim(a, s) / max_s sim(a, s) + w * p(s),
where sim is embedding cosine (or token overlap) and p(s) the selector's relevance probability.
Every s with a score >= threshold is linked, and always the best one (clinicians cite at least one
sentence per answer sentence). `calibrate()` picks the threshold on a labelled split (dev).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from archehr.data.model import Case, ClinicianAnswerSentence, Split
from archehr.generate.clean import clean_sentence, is_header
from archehr.generate.similarity import Similarity
from archehr.relevance.base import Selection, SentenceScores


class Aligner:
    def __init__(self, threshold: float = 0.75, selector_weight: float = 0.0, similarity: str = "lexical",
                 max_links: int = 4):
        self.threshold = float(threshold)
        self.selector_weight = float(selector_weight)
        self.similarity = Similarity(similarity)
        self.max_links = int(max_links)

    def scores(self, case: Case, answers: Sequence[ClinicianAnswerSentence],
               scores: SentenceScores | None = None) -> np.ndarray:
        note = [clean_sentence(s.text) for s in case.sentences]
        sim = self.similarity.matrix([a.text for a in answers], note)
        sim = np.clip(sim, 0.0, None)
        sim = sim / np.maximum(sim.max(axis=1, keepdims=True), 1e-9)
        prob = np.zeros(len(note))
        if scores is not None:
            by_id = dict(zip(scores.sentence_ids, scores.relevant(), strict=True))
            prob = np.array([by_id.get(s.id, 0.0) for s in case.sentences])
        headers = np.array([is_header(s.text) for s in case.sentences], dtype=bool)
        out = (1 - self.selector_weight) * sim + self.selector_weight * prob[None, :]
        out[:, headers] = 0.0
        return out

    def links(self, matrix: np.ndarray, ids: Sequence[str], threshold: float) -> list[list[str]]:
        out = []
        for row in matrix:
            order = np.argsort(-row, kind="stable")
            take = [int(order[0])] + [int(j) for j in order[1:self.max_links] if row[j] >= threshold]
            out.append(sorted((ids[j] for j in take), key=lambda x: (len(x), x)))
        return out

    def align(self, case: Case, answers: Sequence[ClinicianAnswerSentence], scores: SentenceScores | None = None,
              selection: Selection | None = None) -> list[dict[str, Any]]:
        if not answers or not case.sentences:
            return [{"answer_id": a.id, "evidence_id": []} for a in answers]
        links = self.links(self.scores(case, answers, scores), case.sentence_ids, self.threshold)
        return [{"answer_id": a.id, "evidence_id": ev} for a, ev in zip(answers, links, strict=True)]

    def describe(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "selector_weight": self.selector_weight,
                "similarity": self.similarity.kind, "max_links": self.max_links}


def calibrate(aligner: Aligner, split: Split, scores: dict[str, SentenceScores] | None = None,
              grid: Sequence[float] = tuple(np.round(np.arange(0.3, 1.0001, 0.05), 2))) -> tuple[float, float]:
    """(best threshold, its micro F1 on (answer, evidence) links) over a labelled split."""
    if split.key is None:
        from archehr.errors import InputError

        raise InputError("calibrating the st4 threshold needs a split with a key")
    mats = []
    for case in split.cases:
        key = split.key_for(case.case_id)
        if not key.clinician_answer_sentences or not case.sentences:
            continue
        m = aligner.scores(case, key.clinician_answer_sentences, (scores or {}).get(case.case_id))
        gold = {(a.id, c) for a in key.clinician_answer_sentences for c in a.citations}
        mats.append((m, case.sentence_ids, key.clinician_answer_sentences, gold))
    best = (aligner.threshold, -1.0)
    for t in grid:
        tp = fp = fn = 0
        for m, ids, answers, gold in mats:
            pred = {(a.id, e) for a, ev in zip(answers, aligner.links(m, ids, float(t)), strict=True) for e in ev}
            tp += len(pred & gold)
            fp += len(pred - gold)
            fn += len(gold - pred)
        f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
        if f1 > best[1]:
            best = (float(t), f1)
    return best
