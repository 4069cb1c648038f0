"""Leave-one-voice-out (LOVO) next to random-fold grouped CV, for every trained part: st2, st4, st1, st3.

Pool (tuning allowed): demo dev, demo test-2026, demo train (the voices v05-v12) and synthetic dev. Never
the demo test split (the committed runs are scored on it) nor the synthetic test split. Each demo case's
voice comes from data/demo/voices.json (python data/build_demo.py); synthetic dev is one more voice
(`synthetic-dev`), and for st1 the 20 real public 2025-dev narratives are one more (`real-2025-dev`).

Folds. LOVO: one fold per voice, the model (L2, threshold, max_links, switches, ...) fitted on every other
voice; the figure is the mean over held-out voices of the per-voice score, the spread the sd over voices.
Random: grouped 5-fold CV (archehr.relevance.cv.grouped_folds, seeds --seeds) over the same pool, as the
old benchmarks did; mean +- sd over folds. Both recipes of a row pair see exactly the same folds.

Recipes (today = what shipped before this benchmark; new = chosen by LOVO):
  st2  today: lexical features, L2 + threshold by leave-one-case-out (archehr.training.relevance_logistic.train)
       new:   the same features, L2 + threshold by leave-one-voice-out inside the training voices (groups=)
       also:  today's recipe trained on the old pool only (demo dev + test-2026 + synthetic dev, no new voices)
       --st2-embedding: the MiniLM feature set, and a stack (mean P of the lexical and MiniLM models)
       --st2-everyday: the lexical features plus the everyday-lexicon group (archehr.relevance.everyday)
       --st2-interactions: the lexical features plus their pairwise products (lexical+interactions), with the
              threshold rule and the expected-F1 rule (archehr.relevance.selector), and the everyday group added
              also the shipped option's recipe: extra penalty and supplementary target chosen with the L2
              (archehr.training.relevance_logistic.Setting)
  2025 (--tasks 2025, LOVO only): the cited ids of the default system's extractive answer, strict and lenient micro
       F1, with evidence from the lexical recipe ("new" above) and from the interactions recipe (the shipped default);
       and st3's text (the same answer without citations, st3_quality's default variant) with each evidence
  st4  today: pairwise LR lexical+selector, threshold + max_links from 5 random inner folds
       new:   the same, threshold + max_links from inner leave-one-voice-out folds
       joint: today's recipe + joint decoding over the case's answer sentences (each link scaled by how it compares
              with the other answer sentences' links to the same note sentence), alpha tuned with t, k
       also:  today's recipe fitted on the old pool's cases only (the selector probabilities still come from the
              whole training fold)
  st1  today: rules.DEFAULT_CONFIG (narrative mode, as the 2026 st1 test: no question phrases)
       new:   the switch grid of benchmarks/st1_quality.py, the configuration with the best voice-balanced mean
              ROUGE-Lsum on the training voices
  st3  today: the default trained-extractive answer; new: the variant of benchmarks/st3_quality.py with the
       best mean (BLEU, ROUGE-Lsum, SARI) on the training voices; the fold's new-recipe st2 selector throughout

Run: OPENBLAS_NUM_THREADS=1 python benchmarks/voices_cv.py [--tasks st2 st4 st1 st3] [--seeds 0] [--quick]
(one BLAS thread: on a loaded 2-core machine numpy's threads make the logistic fits ~30x slower)
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from archehr.data.model import Split
from archehr.data.releases import load_split_dir, load_voices
from archehr.relevance.calibration import micro_f1
from archehr.relevance.cv import grouped_folds, merge_splits, part_of
from archehr.relevance.trained import TrainedClassifier, TrainedModel
from archehr.training.relevance_logistic import EXTRA_PENALTY_GRID, SUPPLEMENTARY_GRID, train

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
SHARED = REPO.parent / "shared"
SYN = SHARED / "data" / "synthetic"
DEMO = REPO / "data" / "demo"
PARTS = (("dev", DEMO / "dev"), ("test-2026", DEMO / "test-2026"), ("train", DEMO / "train"), ("syn-dev", SYN / "dev"))
OLD_PARTS = ("dev", "test-2026", "syn-dev")  # what today's shipped models trained on
SYN_VOICE = "synthetic-dev"

Folds = list[tuple[str, list[str]]]  # (fold name, held-out case ids)


# ---------------------------------------------------------------- pool, voices, folds

def load_pool(parts: Sequence[tuple[str, Path]] = PARTS) -> Split:
    return merge_splits([(lab, load_split_dir(d)) for lab, d in parts])


def voices_of(pool: Split) -> dict[str, str]:
    """Merged case id -> voice (synthetic dev: one voice of its own)."""
    demo = load_voices(DEMO)
    return {cid: SYN_VOICE if part_of(cid) == "syn-dev" else demo[cid.split(":", 1)[1]] for cid in pool.case_ids}


def lovo_folds(ids: Sequence[str], voice: dict[str, str]) -> Folds:
    return [(v, [i for i in ids if voice[i] == v]) for v in sorted(dict.fromkeys(voice[i] for i in ids))]


def random_folds(split: Split, seeds: Sequence[int], k: int = 5) -> Folds:
    return [(f"s{s}f{j}", fold) for s in seeds for j, fold in enumerate(grouped_folds(split, k, s))]


def mean_sd(xs: Sequence[float]) -> str:
    return f"{statistics.fmean(xs):5.1f} +- {statistics.stdev(xs) if len(xs) > 1 else 0.0:4.1f}"


def paired(a: Sequence[float], b: Sequence[float]) -> str:
    d = [x - y for x, y in zip(a, b, strict=True)]
    won = sum(x > 1e-9 for x in d)
    return f"{statistics.fmean(d):+5.1f} +- {statistics.stdev(d) if len(d) > 1 else 0.0:4.1f} (won {won}/{len(d)})"


def table(title: str, results: dict[str, dict[str, list[float]]], ref: str, unit: str) -> None:
    """results[row][fold set] = per-fold scores; prints mean +- sd and the paired difference vs `ref`."""
    sets = list(next(iter(results.values())))
    print(f"\n{title} ({unit}; mean +- sd over held-out folds; paired diff vs {ref!r})")
    print("| recipe | " + " | ".join(f"{s} | diff ({s})" for s in sets) + " |")
    print("|---" * (1 + 2 * len(sets)) + "|")
    for row, per in results.items():
        cells = []
        for s in sets:
            cells.append(mean_sd(per[s]))
            cells.append("-" if row == ref else paired(per[s], results[ref][s]))
        print(f"| {row} | " + " | ".join(cells) + " |", flush=True)


def per_voice(name: str, folds: Folds, rows: dict[str, list[float]]) -> None:
    print(f"\n{name} per held-out voice: " + "; ".join(
        f"{v} (n={len(ids)}): " + " / ".join(f"{rows[r][j]:.1f}" for r in rows) for j, (v, ids) in enumerate(folds)))
    print(f"  (columns: {' / '.join(rows)})")


# ---------------------------------------------------------------- st2: evidence selection

Recipe = Callable[[Split, dict[str, str]], TrainedModel]


def st2_recipes(embedding: bool = False, everyday: bool = False, interactions: bool = False) -> dict[str, Recipe]:
    out: dict[str, Recipe] = {
        "today: LOCO calibration": lambda tr, voice: train(tr, "lexical")[0],
        "new: LOVO calibration": lambda tr, voice: train(tr, "lexical", groups={i: voice[i] for i in tr.case_ids})[0],
        "today, old pool only": lambda tr, voice: train(
            tr.subset([i for i in tr.case_ids if part_of(i) in OLD_PARTS]), "lexical")[0],
    }
    if embedding:
        out["new + MiniLM features, LOVO calibration"] = lambda tr, voice: train(
            tr, "lexical+embedding", groups={i: voice[i] for i in tr.case_ids})[0]
        out["stack: mean P of the lexical and MiniLM models, LOVO threshold"] = stacked
    if everyday:
        out["new + everyday features, LOVO calibration"] = lambda tr, voice: train(
            tr, "lexical+everyday", groups={i: voice[i] for i in tr.case_ids})[0]
    if interactions:
        def lovo(fs: str, rule: str = "threshold") -> Recipe:
            return lambda tr, voice: train(tr, fs, groups={i: voice[i] for i in tr.case_ids}, rule=rule)[0]
        out["new + interactions, LOVO calibration"] = lovo("lexical+interactions")
        out["new + interactions, expected-F1 rule"] = lovo("lexical+interactions", "expected-f1")
        out["new + interactions, extra penalty + soft labels, expected-F1 rule"] = lambda tr, voice: train(
            tr, "lexical+interactions", groups={i: voice[i] for i in tr.case_ids}, rule="expected-f1",
            extra_penalties=EXTRA_PENALTY_GRID, supplementary_weights=SUPPLEMENTARY_GRID)[0]
        out["new + everyday + interactions, LOVO calibration"] = lovo("lexical+everyday+interactions")
        out["new, expected-F1 rule"] = lovo("lexical", "expected-f1")
    return out


class Stacked:
    """The mean probabilities of two trained models (each with its own LOVO-chosen L2), one threshold."""

    def __init__(self, models: Sequence[TrainedModel], selector) -> None:  # noqa: ANN001 - a Selector
        self.models, self.selector = list(models), selector

    def score_many(self, cases: Sequence) -> list:
        from archehr.relevance.base import SentenceScores

        per = [TrainedClassifier(m).score_many(cases) for m in self.models]
        out = []
        for rows in zip(*per, strict=True):
            e = np.mean([r.essential for r in rows], axis=0)
            sup = np.mean([r.supplementary for r in rows], axis=0)
            out.append(SentenceScores(rows[0].case_id, rows[0].sentence_ids, tuple(e.tolist()), tuple(sup.tolist())))
        return out


def stacked(tr: Split, voice: dict[str, str]) -> Stacked:
    """Both models by the new recipe; the threshold of their mean from inner leave-one-voice-out scores."""
    import archehr.training.relevance_logistic as tm
    from archehr.relevance.selector import Selector
    from archehr.training.selector_calibration import group_scores, sweep

    groups = {i: voice[i] for i in tr.case_ids}
    fsets = ("lexical", "lexical+embedding")
    l2s = [train(tr, fs, groups=groups)[0].l2 for fs in fsets]

    def fit_and_score(inner: Split, held: Split) -> list:
        ms = [tm.fit_fixed(fs, tm.feature_names(fs), [tm.case_features(c, fs) for c in inner.cases],
                           [tm.labels(inner, c) for c in inner.cases], l2) for fs, l2 in zip(fsets, l2s, strict=True)]
        for m in ms:
            m.selector = Selector()
        return Stacked(ms, None).score_many(held.cases)

    cal = sweep(group_scores(tr, groups, fit_and_score), tr, Selector())
    full = [tm.fit_fixed(fs, tm.feature_names(fs), [tm.case_features(c, fs) for c in tr.cases],
                         [tm.labels(tr, c) for c in tr.cases], l2) for fs, l2 in zip(fsets, l2s, strict=True)]
    return Stacked(full, cal.selector)


def cache_features() -> None:
    """Features depend on the case only (merged ids are unique): compute each once, not once per fold and recipe."""
    import archehr.relevance.trained as tr_mod
    import archehr.training.relevance_logistic as fit_mod

    inner = tr_mod.case_features
    memo: dict[tuple[str, str], object] = {}

    def cached(case, feature_set, glossary=None, encoder=None):  # noqa: ANN001, ANN202 - same signature
        k = (case.case_id, feature_set)
        if k not in memo:
            memo[k] = inner(case, feature_set, glossary, encoder)
        return memo[k]

    tr_mod.case_features = cached  # type: ignore[assignment]
    fit_mod.case_features = cached  # type: ignore[assignment]


def run_st2(pool: Split, voice: dict[str, str], fold_sets: dict[str, Folds], embedding: bool = False,
            only: Sequence[str] | None = None, everyday: bool = False,
            interactions: bool = False) -> dict[str, dict[str, TrainedModel]]:
    """Per fold set, the per-fold strict micro F1 of each recipe; returns the new recipe's fold models (st3)."""
    recipes = st2_recipes(embedding, everyday, interactions)
    if only:
        recipes = {r: f for r, f in recipes.items() if any(r.startswith(o) for o in only)}
    res: dict[str, dict[str, list[float]]] = {r: {} for r in recipes}
    models: dict[str, dict[str, TrainedModel]] = {}
    for fs, folds in fold_sets.items():
        models[fs] = {}
        for fname, held in folds:
            tr = pool.subset([c for c in pool.case_ids if c not in set(held)])
            te = pool.subset(held)
            for r, recipe in recipes.items():
                m = recipe(tr, voice)
                scorer = m if isinstance(m, Stacked) else TrainedClassifier(m)
                sels = [m.selector.select(s) for s in scorer.score_many(te.cases)]
                res[r].setdefault(fs, []).append(100 * micro_f1(sels, te).f1)
                if r == "new: LOVO calibration":
                    models[fs][fname] = m
            print(f"  st2 {fs} {fname} done", file=sys.stderr, flush=True)
    table("st2 / 2025 evidence, strict micro F1", res, next(iter(res)), "F1 points")
    per_voice("st2", fold_sets["LOVO"], {r: res[r]["LOVO"] for r in res})
    return models


# ---------------------------------------------------------------- 2025: the answer's citations

ANSWER_2025 = {  # the lexical default against the interactions recipe (the shipped `model: interactions`)
    "lexical: LOVO calibration": lambda tr, voice: train(tr, "lexical", groups={i: voice[i] for i in tr.case_ids})[0],
    "interactions, extra penalty + soft labels, expected-F1 rule": lambda tr, voice: train(
        tr, "lexical+interactions", groups={i: voice[i] for i in tr.case_ids}, rule="expected-f1",
        extra_penalties=EXTRA_PENALTY_GRID, supplementary_weights=SUPPLEMENTARY_GRID)[0],
}


def run_2025(pool: Split, voice: dict[str, str], folds: Folds) -> None:
    """Per held-out voice, the strict (and lenient) micro F1 of the cited ids of the default system's answer
    (the trained selector's evidence, the extractive generator's 75-word answer): the 2025 factuality figures."""
    import st3_quality as q3

    from archehr.generate.registry import build_generator
    from archehr.relevance.base import Selection

    gen = build_generator("extractive")
    ref = q3.variants()[q3.REFERENCE]
    res: dict[str, dict[str, list[float]]] = {r: {} for r in ANSWER_2025}
    texts: dict[str, dict[str, str]] = {r: {} for r in ANSWER_2025}  # st3: the same answer without citations
    for fname, held in folds:
        tr = pool.subset([c for c in pool.case_ids if c not in set(held)])
        te = pool.subset(held)
        for r, recipe in ANSWER_2025.items():
            m = recipe(tr, voice)
            cited, gens = [], {}
            for case, sc in zip(te.cases, TrainedClassifier(m).score_many(te.cases), strict=True):
                ans = gen.generate(case, m.selector.select(sc), sc)
                cited.append(Selection(case.case_id, ans.cited_ids, 1.0))
                if q3._has_answer(pool, case.case_id):
                    texts[r][case.case_id] = q3.answer_text(ref, case, sc, m.selector, gens)
            res[r].setdefault("strict", []).append(100 * micro_f1(cited, te).f1)
            res[r].setdefault("lenient", []).append(100 * micro_f1(cited, te, lenient=True).f1)
        print(f"  2025 {fname} done", file=sys.stderr, flush=True)
    table("2025 answer citations, micro F1 over held-out voices (LOVO)", res, next(iter(res)), "F1 points")
    per_voice("2025 strict", folds, {r: res[r]["strict"] for r in res})
    rows = {r: q3.score_rows(texts[r], pool, bertscore=False) for r in ANSWER_2025}
    st3 = {r: {"st3": [statistics.fmean(rows[r][i]["mean"] for i in held if i in rows[r])
                       for _f, held in folds if any(i in rows[r] for i in held)]} for r in ANSWER_2025}
    table(f"st3 answer text with each evidence, mean of BLEU, ROUGE-Lsum, SARI ({len(texts[next(iter(texts))])} "
          "cases)", st3, next(iter(st3)), "official 0-100 scale")


# ---------------------------------------------------------------- st1: question rules

def st1_cases(pool: Split, voice: dict[str, str]) -> tuple[list, list[str]]:
    """Every pool case with a clinician question plus the real public 2025-dev narratives, narrative mode."""
    from st1_quality import narrative_only

    cases, vs = [], []
    for c in pool.cases:
        if c.clinician_question:
            cases.append(narrative_only(c))
            vs.append(voice[c.case_id])
    real = SHARED / "data" / "official-public" / "2025-dev"
    if real.is_dir():
        for c in load_split_dir(real).cases:
            if c.clinician_question:
                cases.append(narrative_only(dataclasses.replace(c, case_id=f"real:{c.case_id}")))
                vs.append("real-2025-dev")
    return cases, vs


def voice_balanced(scores: Sequence[float], idx: Sequence[int], vs: Sequence[str]) -> float:
    by: dict[str, list[float]] = {}
    for i in idx:
        by.setdefault(vs[i], []).append(scores[i])
    return statistics.fmean(statistics.fmean(x) for x in by.values())


def run_st1(pool: Split, voice: dict[str, str], seeds: Sequence[int]) -> None:
    import st1_quality as q1

    from archehr.question.rules import DEFAULT_CONFIG, write_question

    cases, vs = st1_cases(pool, voice)
    refs = [c.clinician_question or "" for c in cases]
    configs = q1.grid()
    d = configs.index(DEFAULT_CONFIG) if DEFAULT_CONFIG in configs else None
    if d is None:
        configs.append(DEFAULT_CONFIG)
        d = len(configs) - 1
    t0 = time.perf_counter()
    table_ = [q1.rouge_scores(refs, [write_question(c, cfg) for c in cases]) for cfg in configs]
    print(f"  st1: {len(configs)} configurations x {len(cases)} cases in {time.perf_counter() - t0:.0f} s",
          file=sys.stderr)
    n = len(cases)
    ids = [str(i) for i in range(n)]
    fold_sets: dict[str, Folds] = {"LOVO": lovo_folds(ids, dict(zip(ids, vs, strict=True)))}
    fold_sets["random"] = []
    for s in seeds:
        fold = q1.folds(cases, vs, 5, s)
        fold_sets["random"] += [(f"s{s}f{f}", [str(i) for i in range(n) if fold[i] == f]) for f in range(5)]
    res: dict[str, dict[str, list[float]]] = {"today: DEFAULT_CONFIG": {}, "new: grid chosen on training voices": {}}
    for fs, folds in fold_sets.items():
        for _fname, held in folds:
            h = [int(i) for i in held]
            tr = [i for i in range(n) if str(i) not in set(held)]
            j = max(range(len(configs)), key=lambda k: (round(voice_balanced(table_[k], tr, vs), 9), -k))
            res["today: DEFAULT_CONFIG"].setdefault(fs, []).append(statistics.fmean(table_[d][i] for i in h))
            res["new: grid chosen on training voices"].setdefault(fs, []).append(
                statistics.fmean(table_[j][i] for i in h))
    whole = max(range(len(configs)), key=lambda k: (round(voice_balanced(table_[k], range(n), vs), 9), -k))
    table(f"st1 question (narrative mode), ROUGE-Lsum ({n} cases)", res, "today: DEFAULT_CONFIG", "ROUGE-Lsum x100")
    per_voice("st1", fold_sets["LOVO"], {r: res[r]["LOVO"] for r in res})
    print(f"  whole pool, voice-balanced choice: {configs[whole]}\n  today's default: {DEFAULT_CONFIG}")
    real = [i for i in range(n) if vs[i] == "real-2025-dev"]
    if real:
        print(f"  real 2025-dev narratives: default {statistics.fmean(table_[d][i] for i in real):.2f}, "
              f"whole-pool choice {statistics.fmean(table_[whole][i] for i in real):.2f} (in-sample for the choice)")


# ---------------------------------------------------------------- st3: answer text

def run_st3(pool: Split, voice: dict[str, str], fold_sets: dict[str, Folds],
            models: dict[str, dict[str, TrainedModel]], only: Sequence[str] | None) -> None:
    import st3_quality as q3

    vs_all = q3.variants()
    names = [q3.REFERENCE] + [n for n in vs_all if n != q3.REFERENCE and (not only or n in only)]
    answerable = {c for c in pool.case_ids if q3._has_answer(pool, c)}
    texts: dict[str, dict[str, dict[str, str]]] = {fs: {n: {} for n in names} for fs in fold_sets}
    gens: dict = {}
    for fs, folds in fold_sets.items():
        for fname, held in folds:
            m = models[fs][fname]
            clf = TrainedClassifier(m)
            for i in held:
                if i not in answerable:
                    continue
                sc = clf.score(pool.case(i))
                for n in names:
                    texts[fs][n][i] = q3.answer_text(vs_all[n], pool.case(i), sc, m.selector, gens)
    rows = {fs: {n: q3.score_rows(texts[fs][n], pool, bertscore=False) for n in names} for fs in fold_sets}
    res: dict[str, dict[str, list[float]]] = {q3.REFERENCE: {}, "new: variant chosen on training voices": {}}
    chosen: dict[str, list[str]] = {}
    for fs, folds in fold_sets.items():
        for _fname, held in folds:
            h = [i for i in held if i in answerable]
            tr = [i for i in answerable if i not in set(held)]

            def vb(n: str, idx: Sequence[str], fs: str = fs) -> float:
                by: dict[str, list[float]] = {}
                for i in idx:
                    by.setdefault(voice[i], []).append(rows[fs][n][i]["mean"])
                return statistics.fmean(statistics.fmean(x) for x in by.values())

            best = max(names, key=lambda n: (round(vb(n, tr), 9), n == q3.REFERENCE))
            chosen.setdefault(fs, []).append(best)
            res[q3.REFERENCE].setdefault(fs, []).append(statistics.fmean(rows[fs][q3.REFERENCE][i]["mean"] for i in h))
            res["new: variant chosen on training voices"].setdefault(fs, []).append(
                statistics.fmean(rows[fs][best][i]["mean"] for i in h))
        for n in names:  # every variant on its own, for the record
            if n != q3.REFERENCE:
                res.setdefault(f"  variant: {n}", {})[fs] = [
                    statistics.fmean(rows[fs][n][i]["mean"] for i in held if i in answerable) for _f, held in folds]
    table(f"st3 answer text, mean of BLEU, ROUGE-Lsum, SARI ({len(answerable)} cases)", res, q3.REFERENCE,
          "official 0-100 scale")
    per_voice("st3", fold_sets["LOVO"], {r: res[r]["LOVO"] for r in list(res)[:2]})
    for fs, c in chosen.items():
        print(f"  {fs} folds chose: " + ", ".join(f"{n} x{c.count(n)}" for n in dict.fromkeys(c)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", nargs="+", default=["st2", "st4", "st1", "st3"],
                    choices=["st2", "st4", "st1", "st3", "2025"],
                    help="2025: the answer's citations, lexical vs interactions evidence (LOVO only)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0], help="random-fold shuffles (5 folds each)")
    ap.add_argument("--st2-embedding", action="store_true", help="also st2 with the MiniLM features (slow)")
    ap.add_argument("--st2-everyday", action="store_true",
                    help="also st2 with the everyday-lexicon features (lexical+everyday)")
    ap.add_argument("--st4-everyday", action="store_true",
                    help="also st4 with the everyday-lexicon pair features (lexical+selector+everyday)")
    ap.add_argument("--st2-interactions", action="store_true",
                    help="also st2 with the interaction features (lexical+interactions) and the expected-F1 rule")
    ap.add_argument("--st2-nonlinear", nargs="*", metavar="RECIPE", help="st2_nonlinear.py's recipes (all: none)")
    ap.add_argument("--st2-only", nargs="*", help="st2 recipes whose names start with these (default: all)")
    ap.add_argument("--lovo-only", action="store_true", help="no random folds (faster)")
    ap.add_argument("--st3-variants", nargs="*", help="st3 variant names to try (default: all of st3_quality's)")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    pool = load_pool()
    voice = voices_of(pool)
    counts = {v: sum(x == v for x in voice.values()) for v in sorted(set(voice.values()))}
    print(f"pool: {len(pool.cases)} cases in {len(counts)} voices: " + ", ".join(f"{v} {n}" for v, n in counts.items()))
    print(f"random folds: grouped 5-fold x seeds {a.seeds}; LOVO: {len(counts)} folds")
    fold_sets = {"LOVO": lovo_folds(pool.case_ids, voice)}
    if not a.lovo_only:
        fold_sets["random"] = random_folds(pool, a.seeds)
    cache_features()
    models = None
    if ("st2" in a.tasks and a.st2_nonlinear is None) or "st3" in a.tasks:
        models = run_st2(pool, voice, fold_sets, a.st2_embedding, a.st2_only, a.st2_everyday,
                         a.st2_interactions)
    if a.st2_nonlinear is not None:  # benchmarks/st2_nonlinear.py
        __import__("st2_nonlinear").report(pool, voice, fold_sets["LOVO"], a.st2_nonlinear, table, per_voice)
    if "2025" in a.tasks:
        run_2025(pool, voice, fold_sets["LOVO"])
    if "st4" in a.tasks:  # benchmarks/voices_st4.py
        __import__("voices_st4").run_st4(pool, voice, a.seeds, a.st4_everyday)
    if "st1" in a.tasks:
        run_st1(pool, voice, a.seeds)
    if "st3" in a.tasks and models is not None:
        run_st3(pool, voice, fold_sets, models, a.st3_variants)
    print(f"\n(total {time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
