"""St1 (question interpretation) writers scored honestly: per pool and under grouped K-fold CV.

    python benchmarks/st1_quality.py [--folds 5] [--mode phrase|narrative|both] [--no-bertscore] [--final]

Tuning pool (the only data any rule or switch may be chosen on):
  real       the 20 real public 2025-dev narratives (../shared/data/official-public/2025-dev)
  demo       every demo case with a clinician question (data/demo/{dev,test,test-2026})
  syn-dev    ../shared/data/synthetic/dev
`--final` also scores ../shared/data/synthetic/test: the held-out check, to be run once at the end.

Writers: `baseline` = first 15 words of the question phrase; `legacy` = the template as first
written (`rules.FIRST_CONFIG`: every switch off); `default` = the shipped `template_question`; `-x`/`+x` rows =
the default with one switch changed (ablations, nothing fitted); `cv-grid` = the whole switch grid
fitted by CV: on K-1 folds the configuration with the best mean ROUGE-Lsum (real and fictional
pools weighted equally) is chosen and scored on the held-out fold. Folds are grouped so that cases
telling the same story (word overlap, e.g. a demo case and a synthetic case about the same DKA
admission) are never split between fitting and scoring.

Two input modes: `phrase` gives the writer the annotated patient question phrase (2025 data), as
the official 2025-dev does; `narrative` hides it and gives only the narrative, as the 2026 st1 test
does (it has no question phrases). Metrics: ROUGE-Lsum (rouge-score, default tokenizer, no stemmer,
as the official) and, if MiniLM is installed, BERTScore (MiniLM, 4 layers, distilbert baseline, as
benchmarks/predict_quality.py). Paired rows give mean difference and cases won/lost.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import random
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
FICTIONAL = ("demo", "syn-dev")


def load_pools() -> dict[str, list]:
    from archehr.data.releases import load_split_dir

    dirs = {"real": [SHARED / "data" / "official-public" / "2025-dev"],
            "demo": [REPO / "data" / "demo" / s for s in ("dev", "test", "test-2026")],
            "syn-dev": [SHARED / "data" / "synthetic" / "dev"]}
    pools: dict[str, list] = {}
    for name, ds in dirs.items():
        # case ids repeat across splits: make them unique for grouping
        pools[name] = [dataclasses.replace(c, case_id=f"{name}:{d.name}:{c.case_id}")
                       for d in ds if d.is_dir() for c in load_split_dir(d).cases if c.clinician_question]
    return pools


def narrative_only(case):  # noqa: ANN001, ANN201 - Case in, Case out
    """The 2026 st1 condition: no annotated question phrase, the writer sees the narrative."""
    return dataclasses.replace(case, patient_question=())


def baseline(case) -> str:  # noqa: ANN001
    return " ".join(case.question_text.split()[:15])


def grid() -> list:
    """Every combination of the switches that can change ROUGE-Lsum. `glossary` lost on the real and demo
    pools as a single switch and `agreement` cannot change ROUGE here (its words are never in a reference),
    so both stay at the default and are judged by their ablation rows (ROUGE and BERTScore) instead."""
    from archehr.question.rules import CHOICES, DEFAULT_CONFIG

    out = []
    flags = (False, True)
    for ch, he, pa, ne, yn, di, mw in itertools.product(CHOICES, flags, flags, flags, flags, flags, (10, 12, 15)):
        out.append(DEFAULT_CONFIG.with_(choose=ch, hedges=he, passive=pa, need=ne, yesno_why=yn, drop_if=di,
                                        max_words=mw))
    return out


def _words(text: str) -> set[str]:
    import re

    return {w for w in re.findall(r"[a-z]{4,}", text.lower())}


def groups(cases: list, threshold: float = 0.2) -> list[int]:
    """Union-find over cases whose narratives share >= `threshold` of their (4+ letter) words (Jaccard)."""
    parent = list(range(len(cases)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    ws = [_words((c.patient_narrative or "") + " " + (c.clinician_question or "")) for c in cases]
    for i, j in itertools.combinations(range(len(cases)), 2):
        if ws[i] and ws[j] and len(ws[i] & ws[j]) / len(ws[i] | ws[j]) >= threshold:
            parent[find(i)] = find(j)
    return [find(i) for i in range(len(cases))]


def folds(cases: list, pool_of: list[str], k: int, seed: int = 0) -> list[int]:
    """Fold of each case: whole groups go to one fold; groups are dealt per pool so every fold sees each pool."""
    g = groups(cases)
    by_group: dict[int, list[int]] = {}
    for i, gi in enumerate(g):
        by_group.setdefault(gi, []).append(i)
    rng = random.Random(seed)
    fold = [0] * len(cases)
    counter = 0
    for pool in sorted(set(pool_of), key=list(pool_of).index):
        gs = [m for gi, m in by_group.items() if pool_of[m[0]] == pool]
        rng.shuffle(gs)
        for members in gs:
            for i in members:
                fold[i] = counter % k
            counter += 1
    return fold


def rouge_scores(refs: list[str], preds: list[str]) -> list[float]:
    from rouge_score import rouge_scorer

    sc = rouge_scorer.RougeScorer(["rougeLsum"])
    return [100 * sc.score(r, p)["rougeLsum"].fmeasure for r, p in zip(refs, preds, strict=True)]


def bertscores(refs: list[str], preds: list[str]) -> list[float] | None:
    """Per-case BERTScore F1 x100 with MiniLM (4 layers, distilbert baseline), through the scorer's own metric
    (the fast path: bert-score's numbers without loading transformers); None when MiniLM is not installed."""
    from archehr_scoring.metrics.base import TextExample
    from archehr_scoring.metrics.bertscore import BertScore

    metric = BertScore(model="minilm", layers=4)
    if metric.unavailable_reason() is not None:
        return None
    rows = metric.compute([TextExample(str(i), p, r) for i, (r, p) in enumerate(zip(refs, preds, strict=True))])
    return [rows[str(i)]["bertscore"] for i in range(len(refs))]


def fit_config(configs: list, table: list[list[float]], train: list[int], pool_of: list[str]) -> int:
    """Index of the configuration with the best mean ROUGE-Lsum on `train`, real and fictional weighted equally.
    Ties go to the earlier configuration in the grid (fewer rules switched on)."""
    real = [i for i in train if pool_of[i] == "real"]
    fic = [i for i in train if pool_of[i] != "real"]

    def objective(j: int) -> float:
        parts = [sum(table[j][i] for i in part) / len(part) for part in (real, fic) if part]
        return sum(parts) / len(parts)

    return max(range(len(configs)), key=lambda j: (round(objective(j), 9), -j))


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def _paired(a: list[float], b: list[float]) -> str:
    d = [x - y for x, y in zip(a, b, strict=True)]
    won = sum(x > 1e-9 for x in d)
    lost = sum(x < -1e-9 for x in d)
    return f"{_mean(d):+.2f} ({won}/{lost})"


def report(title: str, pools: list[str], pool_of: list[str], refs: list[str], rows: dict[str, list[str]],
           use_bert: bool) -> None:
    """Per pool: mean ROUGE-Lsum (and BERTScore) of each writer, and paired differences vs baseline and legacy."""
    metrics: dict[str, dict[str, list[float]]] = {"rougeLsum": {n: rouge_scores(refs, p) for n, p in rows.items()}}
    if use_bert:
        b = {n: bertscores(refs, p) for n, p in rows.items()}
        if all(v is not None for v in b.values()):
            metrics["bertscore"] = b  # type: ignore[assignment]
    for metric, per in metrics.items():
        print(f"\n{title} - {metric}; cells: mean, and paired 'diff (won/lost)' vs baseline | vs legacy")
        print("| writer | " + " | ".join(f"{p} (n={pool_of.count(p) if p != 'fictional' else _nfic(pool_of)})"
                                         for p in pools) + " |")
        print("|---" * (len(pools) + 1) + "|")
        for name, sc in per.items():
            cells = []
            for p in pools:
                idx = [i for i, q in enumerate(pool_of) if q == p or (p == "fictional" and q in FICTIONAL)]
                mine = [sc[i] for i in idx]
                cell = f"{_mean(mine):.2f}"
                if name not in ("baseline", "legacy"):
                    cell += f"; {_paired(mine, [per['baseline'][i] for i in idx])}"
                    cell += f" / {_paired(mine, [per['legacy'][i] for i in idx])}"
                cells.append(cell)
            print(f"| {name} | " + " | ".join(cells) + " |")


def _nfic(pool_of: list[str]) -> int:
    return sum(p in FICTIONAL for p in pool_of)


def ablations() -> dict[str, object]:
    """The default with one switch changed at a time."""
    from archehr.question.rules import CHOICES
    from archehr.question.rules import DEFAULT_CONFIG as D

    out: dict[str, object] = {}
    for ch in CHOICES:
        if ch != D.choose:
            out[f"choose={ch}"] = D.with_(choose=ch)
    out[("-" if D.hedges else "+") + "hedges"] = D.with_(hedges=not D.hedges)
    out[("-" if D.passive else "+") + "passive"] = D.with_(passive=not D.passive)
    out[("-" if D.glossary == "abbr" else "+") + "glossary"] = D.with_(glossary="none" if D.glossary == "abbr"
                                                                       else "abbr")
    out[("-" if D.agreement else "+") + "agreement"] = D.with_(agreement=not D.agreement)
    for sw in ("need", "yesno_why", "drop_if"):
        out[("-" if getattr(D, sw) else "+") + sw] = D.with_(**{sw: not getattr(D, sw)})
    for mw in (10, 12, 15):
        if mw != D.max_words:
            out[f"max_words={mw}"] = D.with_(max_words=mw)
    return out


def run(mode: str, k: int, use_bert: bool, final: bool) -> None:
    from archehr.question import template_question
    from archehr.question.rules import FIRST_CONFIG, write_question

    pools = load_pools()
    cases = [c for p in pools.values() for c in p]
    pool_of = [name for name, p in pools.items() for _ in p]
    if mode == "narrative":
        cases = [narrative_only(c) for c in cases]
    refs = [c.clinician_question or "" for c in cases]
    cols = list(pools) + ["fictional"]

    rows: dict[str, list[str]] = {"baseline": [baseline(c) for c in cases],
                                  "legacy": [write_question(c, FIRST_CONFIG) for c in cases],
                                  "default": [template_question(c) for c in cases]}
    for name, cfg in ablations().items():
        rows[name] = [write_question(c, cfg) for c in cases]  # type: ignore[arg-type]

    # grouped K-fold CV of the grid search
    configs = grid()
    preds = [[write_question(c, cfg) for c in cases] for cfg in configs]
    table = [rouge_scores(refs, p) for p in preds]
    fold = folds(cases, pool_of, k)
    cv_pred = [""] * len(cases)
    chosen = []
    for f in range(k):
        train = [i for i in range(len(cases)) if fold[i] != f]
        j = fit_config(configs, table, train, pool_of)
        chosen.append(configs[j])
        for i in range(len(cases)):
            if fold[i] == f:
                cv_pred[i] = preds[j][i]
    rows["cv-grid"] = cv_pred
    full = configs[fit_config(configs, table, list(range(len(cases))), pool_of)]
    print(f"\n=== input mode: {mode} ({len(cases)} tuning cases, {k} grouped folds, "
          f"{len(set(groups(cases)))} groups) ===")
    for f, cfg in enumerate(chosen):
        print(f"fold {f} chose: {cfg}")
    print(f"whole pool chooses: {full}")
    report(f"[{mode}] tuning pools", cols, pool_of, refs, rows, use_bert)

    if final:
        from archehr.data.releases import load_split_dir

        test = [c for c in load_split_dir(SHARED / "data" / "synthetic" / "test").cases if c.clinician_question]
        if mode == "narrative":
            test = [narrative_only(c) for c in test]
        trefs = [c.clinician_question or "" for c in test]
        trows = {"baseline": [baseline(c) for c in test], "legacy": [write_question(c, FIRST_CONFIG) for c in test],
                 "default": [template_question(c) for c in test],
                 "grid fitted on whole pool": [write_question(c, full) for c in test]}
        report(f"[{mode}] FINAL held-out synthetic test", ["syn-test"], ["syn-test"] * len(test), trefs, trows,
               use_bert)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--mode", choices=("phrase", "narrative", "both"), default="both")
    ap.add_argument("--no-bertscore", action="store_true")
    ap.add_argument("--final", action="store_true", help="also score synthetic test (held out: run once, at the end)")
    a = ap.parse_args(argv)
    for mode in (("phrase", "narrative") if a.mode == "both" else (a.mode,)):
        run(mode, a.folds, not a.no_bertscore, a.final)


if __name__ == "__main__":
    main()
