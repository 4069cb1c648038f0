"""Does MiniLM similarity of the question with the note, added to the typed confidence features, rank answerable above
unanswerable questions better for writers the model has not seen?

Two steps. `--extract ROWS.npz` computes, once for every question of the writers given, what the typed confidence
reads (`typed.typed_row` of the whole question and of the question without its story, `asking.story_pruned`; the
lexical P and whether the note's missing topic declines it outright, as `archehr.ask` does) and nine embedding
similarities (`EMB`), each text encoded once (about 8 minutes for the 41 development writers on a busy 2-core
machine). `--from ROWS.npz` fits the typed-only and the typed+embedding logistic models as `typed.fit_typed` does
(scaled, balanced classes, L2 `typed.L2`), leave one writer out and forward (fitted on the writers before the last
`--last` ones in `everyday.WRITERS` order, tested on those), and prints for each feature set the AUROC of the model's P
(the pruned question's P averaged in by `typed.story_weighted`, an outright decline at its lexical P), pooled over the
writers and the mean of each writer's own. That is the P before the review rules cap a flagged answer's confidence,
so it runs lower than the benchmark's AUROC of the confidence shown (`benchmarks/everyday.py`).

    nice .venv/bin/python benchmarks/embedding_confidence.py --extract /tmp/rows.npz --writers A B ... AQ
    .venv/bin/python benchmarks/embedding_confidence.py --from /tmp/rows.npz
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from everyday import ROOT, WRITERS, Question, auroc, load_questions, writer_of  # noqa: E402

# max cosine of the question with a (non-header) sentence, mean of the best three, best minus second, cosine with the
# sentence the typed answer score ranks first, and that of the asking clauses / pruned question with that sentence;
# the best cosine against the note's own spread (z), whether the embedding's best sentence is the typed top one, the
# share of sentences closer to the question than the typed top one, and the asking clauses' best cosine
EMB = ("emb_max", "emb_top3", "emb_margin", "emb_typed_top", "emb_asked_top", "emb_z", "emb_agree", "emb_above_top",
       "emb_asked_max")
DEV = ("A B C D E F J H I L M P Q N O R S V W T U X Y Z AA AB AC AD AE AF AG AH AI AJ AK AL AM AN AO AP AQ").split()


def _typed_parts(q: Question, lexical: Any, lexicon: Any) -> tuple[float, bool, np.ndarray, np.ndarray | None, str,
                                                                   int, Any]:
    """Lexical P, outright decline, typed rows (whole, pruned or None), the texts asked and the typed top sentence."""
    from archehr.answerability.asking import asking_part, story_pruned
    from archehr.answerability.kinds import answer_types, sentence_words
    from archehr.answerability.typed import typed_row
    from archehr.data.note_split import note_case

    case, _ = note_case(q.note, q.question)
    p = lexical.probability(case)
    types = answer_types(case, lexicon)
    absent = types.note_coverage == 0 or (types.missing_known and types.kind == "test_result")
    outright = bool(types.concepts and absent and lexical.abstains(p))
    words: set[str] = set().union(*(sentence_words(s.text, lexicon) for s in q.note.sentences))
    text = story_pruned(q.question, words, lexicon)
    pruned = None
    if text is not None:
        pcase, _ = note_case(q.note, text)
        ptypes = answer_types(pcase, lexicon)
        if ptypes.concepts:
            pruned = typed_row(lexical.probability(pcase), replace(ptypes, kind=types.kind))
    asked = text or asking_part(q.question).asking or q.question
    top = int(np.argmax(types.score)) if types.score.size else -1
    return p, outright, typed_row(p, types), pruned, asked, top, case


def extract(writers: list[str], out: Path) -> None:
    import torch

    from archehr.answerability.model import load_model
    from archehr.ask import read_question
    from archehr.glossary import load_lexicon
    from archehr.relevance.embedding import get_encoder
    from archehr.relevance.text import is_header, sentence_texts

    torch.set_num_threads(1)
    base = ROOT / "data" / "everyday"
    # each question as `archehr answer` reads it (`ask.read_question`: non-standard spellings in standard spelling)
    qs = [replace(q, question=read_question(q.question)[0])
          for w in writers for f in WRITERS[w] for q in load_questions([base / f])]
    lexical, lexicon = load_model("lexical"), load_lexicon()
    parts = []
    for i, q in enumerate(qs):
        parts.append(_typed_parts(q, lexical, lexicon))
        if i % 200 == 0:
            print(f"typed rows {i}/{len(qs)}", flush=True)
    enc = get_encoder()
    texts = {t for q, pt in zip(qs, parts, strict=True) for t in (q.question, pt[4], *sentence_texts(pt[6].sentences))}
    print(f"encoding {len(texts)} texts", flush=True)
    enc.encode(sorted(texts))
    emb = []
    for q, (_, _, _, _, asked, top, case) in zip(qs, parts, strict=True):
        s = enc.encode(sentence_texts(case.sentences))
        keep = np.array([not is_header(x.text) for x in case.sentences])
        qv, av = enc.encode([q.question, asked])
        cos = s @ qv
        c = np.sort(cos[keep])[::-1] if keep.any() else np.zeros(1)
        c2 = np.concatenate([c, [0.0, 0.0]])
        kept = cos[keep] if keep.any() else np.zeros(1)
        acos = (s @ av)[keep] if keep.any() else np.zeros(1)
        t_cos = cos[top] if top >= 0 else 0.0
        emb.append([c[0], c[:3].mean(), c[0] - c2[1], t_cos, float(s[top] @ av) if top >= 0 else 0.0,
                    (c[0] - kept.mean()) / max(float(kept.std()), 1e-3), float(top >= 0 and cos[top] >= c[0] - 1e-6),
                    float((kept > t_cos + 1e-6).mean()), float(acos.max())])
    width = len(parts[0][2])
    np.savez(out, writer=np.array([writer_of(q.source) for q in qs]), qid=np.array([q.qid for q in qs]),
             y=np.array([q.answerable for q in qs], dtype=float), lexp=np.array([pt[0] for pt in parts]),
             outright=np.array([pt[1] for pt in parts]), typed=np.stack([pt[2] for pt in parts]),
             pruned=np.stack([pt[3] if pt[3] is not None else np.full(width, np.nan) for pt in parts]),
             emb=np.array(emb, dtype=float))
    print(f"{len(qs)} questions -> {out}")


def _confidence(tr: np.ndarray, te: np.ndarray, d: dict[str, np.ndarray], cols: np.ndarray) -> np.ndarray:
    """P of the test rows from a model fitted on the train rows (the whole question's row; the pruned row's P
    averaged in by `typed.story_weighted`; an outright decline keeps its lexical P, as `archehr.ask` shows it)."""
    from archehr.answerability.typed import L2, story_weighted
    from archehr.relevance.logistic import Scaler, fit_logistic

    x = np.hstack([d["typed"], d["emb"]])[:, cols]
    xp = np.hstack([d["pruned"], d["emb"]])[:, cols]
    sc = Scaler.fit(x[tr])
    head = fit_logistic(sc.transform(x[tr]), d["y"][tr], L2, balanced=True)
    p = head.predict_proba(sc.transform(x[te]))
    has = ~np.isnan(xp[te]).any(axis=1)
    pp = head.predict_proba(sc.transform(np.nan_to_num(xp[te])))
    p = np.array([story_weighted(a, b) if h else a for a, b, h in zip(p, pp, has, strict=True)])
    return np.where(d["outright"][te], d["lexp"][te], p)


def _scores(d: dict[str, np.ndarray], cols: np.ndarray, folds: list[tuple[np.ndarray, np.ndarray]]) -> str:
    conf = np.full(len(d["y"]), np.nan)
    for tr, te in folds:
        conf[te] = _confidence(tr, te, d, cols)
    tested = ~np.isnan(conf)
    y = d["y"].astype(bool)
    pooled = auroc(conf[tested & y], conf[tested & ~y])
    per = [auroc(conf[(d["writer"] == w) & y], conf[(d["writer"] == w) & ~y]) for w in np.unique(d["writer"][tested])]
    return f"{pooled:.3f} | {np.nanmean(per):.3f}"


def experiments(path: Path, last: int) -> None:
    from archehr.answerability.typed import FEATURES

    d = dict(np.load(path))
    n_typed = len(FEATURES)
    writers = [w for w in WRITERS if w in set(d["writer"])]
    lowo = [(d["writer"] != w, d["writer"] == w) for w in writers]
    future = set(writers[-last:])
    fwd = [(~np.isin(d["writer"], list(future)), np.isin(d["writer"], list(future)))]
    # per kind (`kind_<k>` times the cosine): the kinds' unanswerable questions differ (a missing date, a missing cause)
    kinds = [FEATURES.index(f) for f in FEATURES if f.startswith("kind_")]
    d["emb"] = np.hstack([d["emb"], d["typed"][:, kinds] * d["emb"][:, [0]], d["typed"][:, kinds] * d["emb"][:, [3]]])
    k = len(kinds)
    sets = {"typed only": []} | {f"typed + {e}": [i] for i, e in enumerate(EMB)} | {
        "typed + emb_max, emb_top3": [0, 1], "typed + emb_typed_top, emb_asked_top": [3, 4],
        "typed + the first five": list(range(5)), f"typed + all {len(EMB)}": list(range(len(EMB))),
        "typed + emb_max per kind": list(range(len(EMB), len(EMB) + k)),
        "typed + emb_typed_top per kind": list(range(len(EMB) + k, len(EMB) + 2 * k)),
        f"typed + all {len(EMB)} and both per kind": list(range(len(EMB) + 2 * k))}
    print(f"{len(d['y'])} questions, {int(d['y'].sum())} answerable, {len(writers)} writers; forward: fitted on "
          f"{writers[0]}..{writers[-last - 1]}, tested on {' '.join(writers[-last:])}")
    print("| features | LOWO pooled | LOWO writers' mean | forward pooled | forward writers' mean |")
    print("|---|---|---|---|---|")
    for name, extra in sets.items():
        cols = np.array(list(range(n_typed)) + [n_typed + i for i in extra])
        print(f"| {name} | {_scores(d, cols, lowo)} | {_scores(d, cols, fwd)} |", flush=True)
    alone = np.arange(n_typed, n_typed + len(EMB))
    print(f"| embedding alone (all {len(EMB)}) | {_scores(d, alone, lowo)} | {_scores(d, alone, fwd)} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--extract", type=Path, metavar="ROWS", help="compute the rows of the writers' questions")
    ap.add_argument("--from", dest="rows", type=Path, metavar="ROWS", help="run the experiments on saved rows")
    ap.add_argument("--writers", nargs="+", default=DEV, metavar="W")
    ap.add_argument("--last", type=int, default=8, help="forward test: the last LAST writers (default 8: AJ..AQ)")
    args = ap.parse_args(argv)
    if args.extract:
        extract(args.writers, args.extract)
    if args.rows:
        experiments(args.rows, args.last)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
