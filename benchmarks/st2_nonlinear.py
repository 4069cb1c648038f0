"""st2 evidence selection on writers the model has not read: non-linear learners and case-level normalisation
against the shipped recipe, by nested leave-one-voice-out (docs/voices.md).

Every recipe here cites with the expected-F1 rule and chooses its settings (its hyper-parameters and the rule's
power) by leave-one-voice-out inside the training voices of each outer fold, exactly as the shipped recipe
chooses its L2, extra penalty and supplementary target (archehr.training.relevance_logistic.train). Only
P(essential) is fitted: the selection reads nothing else.

Recipes:
  shipped    logistic regression over lexical+interactions, grid L2 x extra penalty x supplementary target
             (L2_GRID x EXTRA_PENALTY_GRID x SUPPLEMENTARY_GRID); reproduces the shipped default's LOVO figures
  boosted    scikit-learn's HistGradientBoostingClassifier over the 27 lexical features (trees need no
             products), grid BOOSTED_GRID, supplementary target 0.2 as sample weights
  blend      the mean P of the fold's chosen shipped and boosted models; the power from their inner scores
  boosted+ranked  boosted with each lexical feature's percentile rank within its case added (a long and a short
             note put their sentences on the same scale)
  blend+ranked  the mean P of the shipped and the boosted+ranked models
  ranked     the shipped recipe with the within-case ranks added (they share the interactions' extra penalty)
  boosted-wide+ranked  boosted+ranked with its grid one step deeper and longer (WIDE_GRID)

Run: OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 python benchmarks/voices_cv.py --tasks st2 --st2-nonlinear
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from archehr.data.model import Split
from archehr.relevance.features import LEXICAL_FEATURES, case_features
from archehr.relevance.logistic import Scaler, fit_logistic, sigmoid
from archehr.relevance.selector import Selector
from archehr.training.labelled import labels
from archehr.training.relevance_logistic import EXTRA_PENALTY_GRID, L2_GRID, SUPPLEMENTARY_GRID
from archehr.training.selector_calibration import POWERS

N_LEXICAL = len(LEXICAL_FEATURES)
# (max_depth, max_iter) at learning rate 0.05, 40 sentences per leaf at least, L2 1 on the leaf values
BOOSTED_GRID: tuple[tuple[int, int], ...] = ((2, 100), (2, 300), (3, 100), (3, 300))
# every fold chose 300 trees, the edge of BOOSTED_GRID: the same recipe one step further ("boosted-wide")
WIDE_GRID: tuple[tuple[int, int], ...] = ((3, 300), (3, 600), (4, 300), (4, 600))
BOOSTED_SUPPLEMENTARY = 0.2

Scorer = Callable[[np.ndarray], np.ndarray]  # a case's feature matrix -> P(essential) per sentence
Learner = Callable[[Sequence["CaseRows"]], Scorer]  # training cases -> scorer


@dataclass(frozen=True)
class CaseRows:
    """One labelled case as the learners read it."""

    case_id: str
    voice: str
    x: np.ndarray  # sentences x features
    essential: np.ndarray  # 0/1
    relevant: np.ndarray  # 0/1 (essential or supplementary)


def within_case_ranks(x: np.ndarray) -> np.ndarray:
    """Each column's percentile rank within the case: 0 for the smallest value, 1 for the largest, ties share
    their mean rank; a case of one sentence, or a constant column, gets 0.5."""
    n = x.shape[0]
    if n < 2:
        return np.full(x.shape, 0.5)
    out = np.empty(x.shape, dtype=float)
    for j in range(x.shape[1]):
        col = x[:, j]
        order = np.argsort(col, kind="stable")
        ranks = np.empty(n)
        ranks[order] = np.arange(n, dtype=float)
        for v in np.unique(col):  # ties: the mean of their ranks
            m = col == v
            ranks[m] = ranks[m].mean()
        out[:, j] = ranks / (n - 1)
    return out


def with_ranks(x: np.ndarray) -> np.ndarray:
    """The feature matrix with the within-case ranks of its lexical columns appended."""
    return np.hstack([x, within_case_ranks(x[:, :N_LEXICAL])])


def soft_target(c: CaseRows, weight: float) -> np.ndarray:
    """The essential head's target: 1 essential, `weight` supplementary, 0 otherwise."""
    return c.essential + weight * (c.relevant - c.essential)


def logistic_learner(l2: float, extra_penalty: float, supplementary: float, n_base: int = N_LEXICAL) -> Learner:
    """The shipped recipe's essential head at one setting (archehr.training.relevance_logistic.fit_fixed): columns
    past the first `n_base` cost `extra_penalty` times the L2 penalty."""
    def fit(cases: Sequence[CaseRows]) -> Scorer:
        x = np.vstack([c.x for c in cases])
        scaler = Scaler.fit(x)
        if extra_penalty != 1.0:
            scale = np.ones(x.shape[1])
            scale[n_base:] = np.sqrt(extra_penalty)
            scaler = Scaler(scaler.mean, scaler.scale * scale)
        head = fit_logistic(scaler.transform(x), np.concatenate([soft_target(c, supplementary) for c in cases]), l2)
        return lambda xc: sigmoid(scaler.transform(xc) @ head.weights + head.bias)
    return fit


def boosted_learner(max_depth: int, max_iter: int, supplementary: float = BOOSTED_SUPPLEMENTARY,
                    columns: Sequence[int] | None = None) -> Learner:
    """HistGradientBoostingClassifier on `columns`; a supplementary sentence is a positive of weight
    `supplementary` and a negative of weight 1 - `supplementary` (the soft target as sample weights)."""
    def fit(cases: Sequence[CaseRows]) -> Scorer:
        from sklearn.ensemble import HistGradientBoostingClassifier  # optional, benchmark only

        cols = list(columns) if columns is not None else list(range(cases[0].x.shape[1]))
        x = np.vstack([c.x for c in cases])[:, cols]
        ess = np.concatenate([c.essential for c in cases])
        sup = np.concatenate([c.relevant for c in cases]) - ess
        xs = np.vstack([x, x[sup > 0]])  # supplementary rows twice: once a negative, once a positive
        ys = np.concatenate([ess, np.ones(int(sup.sum()))])
        ws = np.concatenate([np.where(sup > 0, 1.0 - supplementary, 1.0), np.full(int(sup.sum()), supplementary)])
        keep = ws > 0
        model = HistGradientBoostingClassifier(learning_rate=0.05, max_iter=max_iter, max_depth=max_depth,
                                               min_samples_leaf=40, l2_regularization=1.0, early_stopping=False,
                                               random_state=0)
        model.fit(xs[keep], ys[keep], sample_weight=ws[keep])
        return lambda xc: model.predict_proba(xc[:, cols])[:, 1]
    return fit


def counts(cases: Sequence[CaseRows], probs: Mapping[str, np.ndarray], power: float) -> tuple[int, int, int]:
    """Pooled tp, fp, fn of the expected-F1 rule at `power` (archehr.relevance.selector.Selector, min_k 1)."""
    sel = Selector(rule="expected-f1", power=power)
    tp = fp = fn = 0
    for c in cases:
        p = probs[c.case_id]
        order = np.argsort(-p, kind="stable")
        k = max(1, sel.expected_f1_k(p[order]))
        cited = np.zeros(len(p), dtype=bool)
        cited[order[:k]] = True
        gold = c.essential > 0
        tp += int((cited & gold).sum())
        fp += int((cited & ~gold).sum())
        fn += int((~cited & gold).sum())
    return tp, fp, fn


def f1(tp: int, fp: int, fn: int) -> float:
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


def best_power(cases: Sequence[CaseRows], probs: Mapping[str, np.ndarray]) -> tuple[float, float]:
    """(F1, power) of the best power on `cases` (ties: the first in POWERS, as the calibration sweep)."""
    best = (-1.0, POWERS[0])
    for w in POWERS:
        v = f1(*counts(cases, probs, w))
        if v > best[0] + 1e-12:
            best = (v, w)
    return best


def inner_scores(cases: Sequence[CaseRows], learner: Learner) -> dict[str, np.ndarray]:
    """Leave-one-voice-out probabilities of every case, each from a model fitted on the other voices."""
    out: dict[str, np.ndarray] = {}
    for v in dict.fromkeys(c.voice for c in cases):
        scorer = learner([c for c in cases if c.voice != v])
        out.update({c.case_id: scorer(c.x) for c in cases if c.voice == v})
    return out


@dataclass(frozen=True)
class Choice:
    """What a recipe chose on its training voices, and its inner (out-of-voice) probabilities there."""

    setting: str
    power: float
    inner_f1: float
    inner: dict[str, np.ndarray]


def choose(cases: Sequence[CaseRows], grid: Mapping[str, Learner]) -> Choice:
    """The setting and power with the best pooled inner leave-one-voice-out F1 (ties: the first)."""
    best: Choice | None = None
    for name, learner in grid.items():
        inner = inner_scores(cases, learner)
        v, w = best_power(cases, inner)
        if best is None or v > best.inner_f1 + 1e-12:
            best = Choice(name, w, v, inner)
    assert best is not None  # a non-empty grid (programming error otherwise)
    return best


def shipped_grid(n_base: int = N_LEXICAL) -> dict[str, Learner]:
    return {f"l2={a:g},extra={e:g},sup={s:g}": logistic_learner(a, e, s, n_base)
            for a in L2_GRID for e in EXTRA_PENALTY_GRID for s in SUPPLEMENTARY_GRID}


def boosted_grid(columns: Sequence[int], grid: Sequence[tuple[int, int]] = BOOSTED_GRID) -> dict[str, Learner]:
    return {f"depth={d},iter={n}": boosted_learner(d, n, columns=columns) for d, n in grid}


def case_rows(pool: Split, voice: Mapping[str, str], ranked: bool = False) -> list[CaseRows]:
    out = []
    for c in pool.cases:
        x = case_features(c, "lexical+interactions")
        ess, rel = labels(pool, c)
        out.append(CaseRows(c.case_id, voice[c.case_id], with_ranks(x) if ranked else x, ess, rel))
    return out


# ---------------------------------------------------------------- the outer leave-one-voice-out loop

LEXICAL_COLUMNS = tuple(range(N_LEXICAL))
# with_ranks appends the ranks after the 48 lexical+interactions columns
RANKED_COLUMNS = (*LEXICAL_COLUMNS, *range(N_LEXICAL + 21, 2 * N_LEXICAL + 21))
# each recipe's parts: one part is a fitted recipe, two are blended (the mean of their P)
RECIPES: dict[str, tuple[str, ...]] = {
    "shipped": ("shipped",), "boosted": ("boosted",), "blend": ("shipped", "boosted"),
    "boosted+ranked": ("boosted+ranked",), "blend+ranked": ("shipped", "boosted+ranked"), "ranked": ("ranked",),
    "boosted-wide+ranked": ("boosted-wide+ranked",),
}


def is_ranked(part: str) -> bool:
    return part.split("+")[-1] == "ranked"


@dataclass(frozen=True)
class FoldResult:
    choice: Choice
    held: dict[str, np.ndarray]  # the held-out voice's probabilities


def fit_recipe(tr: Sequence[CaseRows], te: Sequence[CaseRows], grid: Mapping[str, Learner]) -> FoldResult:
    ch = choose(tr, grid)
    scorer = grid[ch.setting](tr)
    return FoldResult(ch, {c.case_id: scorer(c.x) for c in te})


def blend(tr: Sequence[CaseRows], a: FoldResult, b: FoldResult) -> FoldResult:
    """The mean P of two fold results; the power chosen on the mean of their inner probabilities."""
    inner = {i: (a.choice.inner[i] + b.choice.inner[i]) / 2 for i in a.choice.inner}
    v, w = best_power(tr, inner)
    held = {i: (a.held[i] + b.held[i]) / 2 for i in a.held}
    return FoldResult(Choice(f"{a.choice.setting} + {b.choice.setting}", w, v, inner), held)


def part_grid(part: str) -> dict[str, Learner]:
    if part in ("shipped", "ranked"):
        return shipped_grid()
    return boosted_grid(RANKED_COLUMNS if is_ranked(part) else LEXICAL_COLUMNS,
                        WIDE_GRID if part.startswith("boosted-wide") else BOOSTED_GRID)


def run_lovo(pool: Split, voice: Mapping[str, str], folds: Sequence[tuple[str, Sequence[str]]],
             recipes: Sequence[str] = tuple(RECIPES)) -> dict[str, list[float]]:
    """Per recipe, the strict micro F1 (x100) of each held-out voice; the chosen settings go to stderr."""
    unknown = [r for r in recipes if r not in RECIPES]
    if unknown:
        raise ValueError(f"unknown recipes {unknown} (known: {', '.join(RECIPES)})")
    rows = {False: case_rows(pool, voice)}
    if any(is_ranked(p) for r in recipes for p in RECIPES[r]):
        rows[True] = case_rows(pool, voice, ranked=True)
    res: dict[str, list[float]] = {r: [] for r in recipes}
    for fname, held in folds:
        t0, hs = time.perf_counter(), set(held)
        split = {k: ([c for c in v if c.case_id not in hs], [c for c in v if c.case_id in hs]) for k, v in rows.items()}
        parts: dict[str, FoldResult] = {}
        for r in recipes:
            for p in RECIPES[r]:
                if p not in parts:
                    parts[p] = fit_recipe(*split[is_ranked(p)], part_grid(p))
            tr, te = split[False]
            out = parts[RECIPES[r][0]] if len(RECIPES[r]) == 1 else blend(tr, *(parts[p] for p in RECIPES[r]))
            res[r].append(100 * f1(*counts(te, out.held, out.choice.power)))
            print(f"  {fname} {r}: {res[r][-1]:.1f} (chose {out.choice.setting}, power {out.choice.power:g}, "
                  f"inner {100 * out.choice.inner_f1:.1f})", file=sys.stderr, flush=True)
        print(f"  st2 nonlinear {fname} done in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    return res


def report(pool: Split, voice: Mapping[str, str], folds: Sequence[tuple[str, Sequence[str]]],
           recipes: Sequence[str], table: Callable[..., None], per_voice: Callable[..., None]) -> None:
    """`run_lovo` printed with voices_cv.py's table (paired differences against the first recipe) and per voice."""
    res = run_lovo(pool, voice, folds, recipes or tuple(RECIPES))
    table("st2 evidence, nested leave-one-voice-out, expected-F1 rule", {r: {"LOVO": v} for r, v in res.items()},
          next(iter(res)), "strict micro F1")
    per_voice("st2", folds, res)
