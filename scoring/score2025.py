"""Score a 2025 submission: per-case statistics first, then the registered "2025" aggregator.

Per case: factuality counts (strict/lenient tp/fp/fn) and one value per text metric key (official
0..100 scale). The aggregator turns rows into the official keys exactly as the official script:
macro = mean of per-case P/R/F1, micro = pooled counts, text metrics = mean over cases,
overall relevance = mean of [alignscore, rougeLsum, bleu, medcon, bertscore, sari] and overall =
mean of factuality and relevance. An unavailable metric leaves its keys and the overall scores
null; `partial` then reports, under its own name, the mean of what was available.

This module stays light (no torch): metric modules are imported only when their metric is built.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from typing import Any

from archehr.data.model import Case, KeyEntry, Split
from archehr.errors import ConfigError, DataError, Problem, SubmissionError, UnavailableError
from archehr_scoring.factuality import FACTUALITY_KEYS, aggregate_factuality, case_counts, factuality_signature
from archehr_scoring.metrics.base import MetricResult, MetricSettings, TextExample
from archehr_scoring.reference import require_notes
from archehr_scoring.results import AGGREGATORS, AggregationContext, PartialScore, ScoreReport
from archehr_scoring.submission2025 import (
    ParsedAnswer,
    Submission2025,
    answer_warnings,
    check_cases,
    load_submission_2025,
    parse_answer,
)

TASK = "2025"
RELEVANCE_METRICS = ("bleu", "rouge", "sari", "bertscore", "alignscore", "medcon")
ALL_METRICS = ("factuality",) + RELEVANCE_METRICS
METRIC_KEYS: dict[str, tuple[str, ...]] = {"rouge": ("rouge1", "rouge2", "rougeL", "rougeLsum")}
TEXT_KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum", "bleu", "sari", "bertscore", "medcon", "alignscore")
OVERALL_RELEVANCE_PARTS = ("alignscore", "rougeLsum", "bleu", "medcon", "bertscore", "sari")
OFFICIAL_KEYS = FACTUALITY_KEYS + ("overall_factuality_score",) + TEXT_KEYS + ("overall_relevance_score",
                                                                               "overall_score")
REFERENCES = ("essential", "clinician")


def metric_keys(name: str) -> tuple[str, ...]:
    return METRIC_KEYS.get(name, (name,))


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def aggregate_2025(rows: Sequence[Mapping[str, float]], ctx: AggregationContext) -> dict[str, float | None]:
    """Per-case rows -> the official leaderboard keys (None where a metric did not run)."""
    out: dict[str, float | None] = {}
    if rows and "factuality" in ctx.available and all("strict_tp" in r for r in rows):
        out.update(aggregate_factuality(rows))
    else:
        out.update(dict.fromkeys(FACTUALITY_KEYS))
    out["overall_factuality_score"] = out["strict_micro_f1"]
    for k in TEXT_KEYS:
        # Scored only when every case has it: never a mean over the cases that happened to work.
        out[k] = _mean([r[k] for r in rows]) if rows and all(k in r for r in rows) else None
    parts = [out[k] for k in OVERALL_RELEVANCE_PARTS]
    out["overall_relevance_score"] = _mean(parts) if all(v is not None for v in parts) else None  # type: ignore
    fr = [out["overall_factuality_score"], out["overall_relevance_score"]]
    out["overall_score"] = _mean(fr) if all(v is not None for v in fr) else None  # type: ignore[arg-type]
    return {k: out[k] for k in OFFICIAL_KEYS}


if TASK not in AGGREGATORS:
    AGGREGATORS.add(TASK, aggregate_2025)


def partial_overall(scores: Mapping[str, float | None]) -> dict[str, PartialScore]:
    """Means of what was available when an official overall score is null (clearly not the official one)."""
    out: dict[str, PartialScore] = {}
    if scores.get("overall_relevance_score") is not None:
        return out
    have = tuple(k for k in OVERALL_RELEVANCE_PARTS if scores.get(k) is not None)
    missing = tuple(k for k in OVERALL_RELEVANCE_PARTS if scores.get(k) is None)
    if not have:
        return out
    rel = _mean([scores[k] for k in have])  # type: ignore[misc]
    out["overall_relevance_score"] = PartialScore(rel, have, missing)
    fact = scores.get("overall_factuality_score")
    if fact is not None:
        # averages the partial relevance above: `averaged` names official keys, `partial` says which are partial
        out["overall_score"] = PartialScore(_mean([fact, rel]), ("overall_factuality_score",
                                                                 "overall_relevance_score"), missing)
    return out


def resolve_metrics(metrics: str | Sequence[str] | None) -> list[str]:
    """Requested metric names (registry names plus `factuality`), checked, deduplicated, in order."""
    from archehr_scoring.metrics.registry import METRICS

    if metrics is None:
        return list(ALL_METRICS)
    names = metrics.split(",") if isinstance(metrics, str) else list(metrics)
    out: list[str] = []
    problems: list[Problem] = []
    for raw in names:
        n = raw.strip()
        if not n:
            continue
        if n == "all":
            out += [m for m in ALL_METRICS if m not in out]
            continue
        if n != "factuality" and n not in METRICS:
            problems.append(Problem(METRICS.unknown_message(n).replace("(known: ", "(known: factuality, "),
                                    field="--metrics", code="option"))
            continue
        if n not in out:
            out.append(n)
    if problems:
        raise ConfigError(problems)
    if not out:
        raise ConfigError(Problem("no metric requested", field="--metrics", code="option"))
    return out


def question_text(case: Case) -> str:
    return (case.patient_narrative or "").strip() + "\n\n" + (case.clinician_question or "").strip()


def essential_text(case: Case, key: KeyEntry) -> str:
    """Essential sentences in note order (the official script iterated a set; the golden files use note order)."""
    ess = set(key.essential_ids)
    return "\n".join(s.text.strip() for s in case.sentences if s.id in ess)


def _reference_problems(split: Split, case_ids: Sequence[str], reference: str, key_file: str | None) -> list[Problem]:
    problems = []
    for cid in case_ids:
        case = split.case(cid)
        if reference == "clinician":
            if not split.key_for(cid).clinician_answer_without_citations:
                problems.append(Problem("the key has no clinician_answer_without_citations for this case; "
                                        "--reference clinician needs a newer key (use --reference essential)",
                                        key_file, cid, "clinician_answer_without_citations", code="missing-field"))
        if case.patient_narrative is None or case.clinician_question is None:
            problems.append(Problem("the data XML lacks patient_narrative or clinician_question for this case "
                                    "(needed for the relevance references)", split.source, cid, code="missing-field"))
    return problems


def build_examples(split: Split, parsed: Sequence[ParsedAnswer], reference: str) -> list[TextExample]:
    out = []
    for p in parsed:
        case, key = split.case(p.case_id), split.key_for(p.case_id)
        q = question_text(case)
        if reference == "clinician":
            ref = (key.clinician_answer_without_citations or "").strip()
            out.append(TextExample(p.case_id, p.text, ref, sari_source=q, sari_reference=ref))
        else:
            e = essential_text(case, key)
            out.append(TextExample(p.case_id, p.text, q + "\n\n" + e, sari_source=q, sari_reference=e))
    return out


def run_metric(name: str, examples: Sequence[TextExample], settings: MetricSettings, reference: str) -> MetricResult:
    """Build and run one registered metric; a missing module/model becomes `unavailable`, never a number."""
    from archehr_scoring.metrics.registry import build_metric

    try:
        metric = build_metric(name, **dataclasses.asdict(settings), reference_kind=reference)
    except ModuleNotFoundError as e:
        return MetricResult(name, metric_keys(name), f"{name}|unavailable",
                            unavailable=f"cannot import what {name} needs ({e.name}): install it")
    except UnavailableError as e:
        return MetricResult(name, metric_keys(name), f"{name}|unavailable", unavailable=str(e))
    try:
        return metric.run(examples)
    except UnavailableError as e:
        return MetricResult(name, metric_keys(name), metric.signature(), unavailable=str(e))


def score_2025(submission: str | os.PathLike[str] | list[Any] | Submission2025, split: Split,
               metrics: str | Sequence[str] | None = None, settings: MetricSettings | None = None,
               reference: str = "essential", bootstrap: int = 0, seed: int = 12345,
               key_file: str | None = None) -> ScoreReport:
    """Score one 2025 submission against a split with a key; bad input raises with every problem."""
    settings = settings or MetricSettings()
    if reference not in REFERENCES:
        raise ConfigError(Problem(f"unknown reference {reference!r}; expected one of {', '.join(REFERENCES)}",
                                  field="--reference", code="option"))
    names = resolve_metrics(metrics)
    if split.key is None:
        raise DataError(Problem("this split has no key: scoring needs archehr-qa_key.json", split.source,
                                code="missing-file"))
    require_notes(split, "2025 scoring reads the note sentences, narratives and questions")
    sub, problems = load_submission_2025(submission)
    problems += check_cases(sub, split, key_file)
    if problems:
        raise SubmissionError(problems)
    relevance = [n for n in names if n != "factuality"]
    if relevance:
        ref_problems = _reference_problems(split, sub.case_ids, reference, key_file)
        if ref_problems:
            raise DataError(ref_problems)

    parsed = [parse_answer(cid, ans) for cid, ans in sub.entries]
    warnings: list[Problem] = []
    for p in parsed:
        warnings += answer_warnings(p, split.case(p.case_id), sub.file, sub.line_of(p.case_id))

    rows: dict[str, dict[str, float]] = {p.case_id: {} for p in parsed}
    signatures: dict[str, str] = {}
    unavailable: dict[str, str] = {}
    if "factuality" in names:
        signatures["factuality"] = factuality_signature()
        for p in parsed:
            rows[p.case_id].update(case_counts(p.citations, split.key_for(p.case_id)))
    examples = build_examples(split, parsed, reference) if relevance else []
    for name in relevance:
        result = run_metric(name, examples, settings, reference)
        signatures[name] = result.signature
        if not result.available:
            unavailable[name] = result.unavailable or "unavailable"
            continue
        for cid, values in (result.per_case or {}).items():
            rows[cid].update(values)
        warnings += [Problem(w, code="warning-metric") for w in result.warnings]

    ctx = AggregationContext(frozenset(signatures) - frozenset(unavailable), unavailable)
    scores = aggregate_2025([rows[p.case_id] for p in parsed], ctx)
    meta: dict[str, Any] = {
        "reference": reference,
        "metrics": names,
        "not_requested": [m for m in ALL_METRICS if m not in names],
        "n_cases": len(parsed),
        "settings": dataclasses.asdict(settings),
        "cases": {p.case_id: {"answer_as_scored": p.text, "citations": sorted(p.citations), "words": p.n_words,
                              "truncated": p.truncated} for p in parsed},
    }
    report = ScoreReport(TASK, scores, rows, signatures, unavailable, partial_overall(scores), tuple(warnings),
                         None, meta)
    if bootstrap and bootstrap > 0:
        from archehr_scoring.bootstrap import bootstrap_ci

        report = dataclasses.replace(report, ci=bootstrap_ci(report, bootstrap, seed),
                                     meta={**meta, "bootstrap": {"n": bootstrap, "seed": seed, "level": 0.95}})
    return report
