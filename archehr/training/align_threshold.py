"""Choosing an st4 aligner's link threshold on a labelled split (the similarity aligner's shipped setting came
from here; benchmarks/st4_quality.py cross-validates it)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from archehr.align import Aligner
from archehr.data.model import Split
from archehr.errors import InputError
from archehr.relevance.base import SentenceScores
from archehr_scoring.prf import prf_counts


def calibrate(aligner: Aligner, split: Split, scores: dict[str, SentenceScores] | None = None,
              grid: Sequence[float] = tuple(np.round(np.arange(0.3, 1.0001, 0.05), 2))) -> tuple[float, float]:
    """(best threshold, its micro F1 on (answer, evidence) links) over a labelled split."""
    if split.key is None:
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
        f1 = prf_counts(tp, fp, fn)[2]
        if f1 > best[1]:
            best = (float(t), f1)
    return best
