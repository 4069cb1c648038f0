"""Citation factuality of the 2025 task: per-case tp/fp/fn, then strict/lenient x micro/macro P/R/F1.

Strict gold = essential sentences; lenient gold = essential + supplementary. Per case
P = tp/(tp+fp), R = tp/(tp+fn), F1 = 2PR/(P+R), each 0 when its denominator is 0 (so a case with
no gold scores 0). Macro = mean of the per-case values; micro = from the pooled counts. Predicted
ids are compared as the official scorer compares them: as written, never stripped or checked.
"""

from __future__ import annotations

from collections.abc import Iterable

from archehr.data.model import KeyEntry, Relevance
from archehr_scoring.metrics.base import signature

MODES = {"strict": (Relevance.ESSENTIAL,), "lenient": (Relevance.ESSENTIAL, Relevance.SUPPLEMENTARY)}


def case_counts(predicted: Iterable[str], key: KeyEntry) -> dict[str, float]:
    """`{mode}_tp/fp/fn` for one case (the per-case row entries factuality needs)."""
    pred = set(predicted)
    row: dict[str, float] = {}
    for mode, rels in MODES.items():
        gold = set(key.ids_with(*rels))
        row[f"{mode}_tp"] = len(gold & pred)
        row[f"{mode}_fp"] = len(pred - gold)
        row[f"{mode}_fn"] = len(gold - pred)
    return row


def factuality_signature() -> str:
    from archehr_scoring import __version__

    return signature("FACT", parse="official-2025", ids="as-written", strict="essential",
                     lenient="essential+supplementary", no_citation="tp=0", version=f"archehr_scoring-{__version__}")


CARD = ("Citation factuality: per case tp/fp/fn of the cited sentence ids against the essential (strict) or "
        "essential+supplementary (lenient) sentences; macro = mean of per-case P/R/F1, micro = pooled counts; "
        "overall factuality = strict micro F1.")
