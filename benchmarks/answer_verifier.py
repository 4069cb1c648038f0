"""A pairwise answer verifier on MiniLM sentence embeddings: does a candidate sentence answer the question?

The typed confidence (`archehr.answerability.typed`) reads hand-made answer types; on the recent writers, whose
unanswerable questions are mostly near misses (the note names the topic but not the asked duration, date, result or
reason), it separates answerable from unanswerable questions less well. This measures a learned alternative: for
each question, the hand ranking's best sentences (`archehr.ask.first_line_candidates`) are the candidates; each
(question, candidate) pair is described by the question's and the sentence's MiniLM vectors (elementwise product and
absolute difference, each reduced to --dims principal directions of the pairs of the writers before --forward-from;
cosine) and a few of the hand ranking's own measures of the sentence (its share of the best rank, answer-type score,
topic share, holding the asked kind); a logistic regression learns P(the sentence answers
the question) from the writers' gold sentences (label 1: a gold sentence of an answerable question; every candidate
of an unanswerable question 0). The question's verifier score is the best candidate's P.

Measured, always out of writer (leave one writer out, and forward: each writer from --forward-from on fitted on the
writers before it; the verifier's L2 chosen once by five-fold cross-validation over the writers before --forward-from,
grouped by writer):
(a) the AUROC of the verifier score alone (answerable against unanswerable), pooled over the recent writers and over
    all; (b) the verifier score (as a logit) added to the typed confidence's feature rows, refitted offline on the
    inputs `benchmarks/typed_refit.py --record` wrote, with `archehr.ask`'s decision: unanswerable declined or flagged,
    answerable flagged, false decline, AUROC of the confidence shown (the training writers' verifier scores
    cross-fitted in --inner groups of writers, so no fold's confidence reads a score fitted on its own writer);
    (c) first line (a gold candidate first) when the verifier's best candidate answers first instead of the hand
    ranking's first.

    nice python benchmarks/typed_refit.py --record /tmp/typed.jsonl               # about 10 minutes
    nice python benchmarks/answer_verifier.py --extract /tmp/verifier.npz         # about 10 minutes
    python benchmarks/answer_verifier.py --from /tmp/verifier.npz --inputs /tmp/typed.jsonl   # about 10 minutes
    python benchmarks/answer_verifier.py --from /tmp/verifier.npz --parts hand    # the hand measures and cosine only
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from everyday import WRITERS, auroc, load_questions  # noqa: E402

from archehr.answerability.first_rank import FEATURES as CAND_FEATURES  # noqa: E402
from archehr.relevance.logistic import Scaler, fit_logistic  # noqa: E402

K_EXTRACT = 12  # candidates recorded per question; the fits read the first --k of them
# the hand ranking's measures of a candidate used beside the embeddings (first_rank.FEATURES)
HAND = ("hand_first", "share", "typed", "conf_score", "topic", "topic_gap", "holds", "firm", "linked", "relevance")
RECENT = tuple(WRITERS)[tuple(WRITERS).index("AV"):]
L2S = (100.0, 1000.0, 10000.0, 100000.0)  # on the summed log-loss (`fit_logistic`) of ~23,000 pairs


def extract(out: Path, k: int = K_EXTRACT) -> None:
    """Every writer's questions: the hand ranking's best `k` candidates (their rows, gold or not) and the MiniLM
    vectors of the question and of each candidate, each text encoded once."""
    import torch

    from archehr.ask import first_line_candidates, read_question
    from archehr.data.note_split import note_case
    from archehr.pipeline import load_system
    from archehr.relevance.embedding import get_encoder
    from archehr.relevance.text import sentence_texts

    torch.set_num_threads(1)
    system = load_system(None)
    meta, cand, texts = [], [], {}

    def tid(t: str) -> int:
        return texts.setdefault(t, len(texts))

    for w, files in WRITERS.items():
        for q in load_questions([ROOT / "data" / "everyday" / f for f in files]):
            # the question as `archehr answer` reads it (`ask.read_question`), as `first_line_candidates` does
            asked = read_question(q.question)[0]
            cands, ids = first_line_candidates(q.note, q.question, system, k)
            case, _ = note_case(q.note, asked)
            st = sentence_texts(case.sentences)
            in_note = any(i in q.gold for i in ids)
            meta.append((w, q.source, q.qid, q.answerable, tid(asked), in_note))
            for place, (i, row) in enumerate(zip(cands.index, cands.rows, strict=True)):
                cand.append((len(meta) - 1, place, ids[i] in q.gold, tid(st[i]), row))
        print(f"{w}: {len(meta)} questions, {len(cand)} candidates", flush=True)
    order = sorted(texts, key=texts.__getitem__)
    print(f"encoding {len(order)} texts", flush=True)
    vec = get_encoder().encode(order).astype(np.float16)
    np.savez(out, writer=np.array([m[0] for m in meta]), source=np.array([m[1] for m in meta]),
             qid=np.array([m[2] for m in meta]), y=np.array([m[3] for m in meta], dtype=bool),
             qtext=np.array([m[4] for m in meta]), gold_in_note=np.array([m[5] for m in meta], dtype=bool),
             cq=np.array([c[0] for c in cand]), place=np.array([c[1] for c in cand]),
             gold=np.array([c[2] for c in cand], dtype=bool), ctext=np.array([c[3] for c in cand]),
             rows=np.array([c[4] for c in cand], dtype=float), vec=vec)
    print(f"{len(meta)} questions, {len(cand)} candidates -> {out}")


def pair_features(qv: np.ndarray, sv: np.ndarray, hand: np.ndarray, parts: str = "all",
                  basis: np.ndarray | None = None) -> np.ndarray:
    """Rows of (question, sentence) pairs: q*s, |q-s| (each projected on `basis` when given: its rows are unit
    directions), cosine (unit vectors) and the hand ranking's measures; `parts` "emb" leaves out the hand measures,
    "hand" the vectors (the cosine kept)."""
    cos = np.sum(qv * sv, axis=1, keepdims=True)
    cols = [cos]
    if parts in ("all", "emb"):
        prod, diff = qv * sv, np.abs(qv - sv)
        if basis is not None:
            prod, diff = prod @ basis[0].T, diff @ basis[1].T
        cols = [prod, diff, cos]
    if parts in ("all", "hand"):
        cols.append(hand)
    return np.hstack(cols)


def pca_basis(x: np.ndarray, dims: int) -> np.ndarray:
    """The `dims` leading principal directions of the rows of `x`."""
    _, _, vt = np.linalg.svd(x - x.mean(axis=0), full_matrices=False)
    return vt[:dims]


def load(path: Path, k: int, parts: str, dims: int = 0, basis_writers: tuple[str, ...] = ()) -> dict[str, Any]:
    """The candidates (the first `k` of each question) with their pair rows; with `dims`, q*s and |q-s| reduced to
    their leading `dims` principal directions among the pairs of `basis_writers` (no label read)."""
    d = dict(np.load(path))
    keep = d["place"] < k
    vec = d["vec"].astype(float)
    hand = d["rows"][:, [CAND_FEATURES.index(f) for f in HAND]]
    qv, sv = vec[d["qtext"][d["cq"]]], vec[d["ctext"]]
    basis = None
    if dims:
        on = keep & np.isin(d["writer"][d["cq"]], basis_writers)
        basis = np.stack([pca_basis((qv * sv)[on], dims), pca_basis(np.abs(qv - sv)[on], dims)])
    x = pair_features(qv, sv, hand, parts, basis)
    d.update(x=x[keep], cq=d["cq"][keep], place=d["place"][keep], gold=d["gold"][keep])
    d["label"] = d["gold"] & d["y"][d["cq"]]
    d["cw"] = d["writer"][d["cq"]]
    return d


def _fit(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[Scaler, Any]:
    sc = Scaler.fit(x)
    return sc, fit_logistic(sc.transform(x), y.astype(float), l2, balanced=True)


def question_scores(d: dict[str, Any], p: np.ndarray, sel: np.ndarray,
                    first: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per question of the candidates `sel`: the best candidate's P and its place (-1 and 0 when none); with
    `first`, the hand ranking's first candidate's P is written into it."""
    n = len(d["y"])
    best, place = np.zeros(n), np.full(n, -1)
    for j in np.flatnonzero(sel):
        q = d["cq"][j]
        if p[j] > best[q] or place[q] < 0:
            best[q], place[q] = p[j], d["place"][j]
        if first is not None and d["place"][j] == 0:
            first[q] = p[j]
    return best, place


def choose_l2(d: dict[str, Any], train: np.ndarray, folds: int = 5) -> float:
    """The L2 whose grouped cross-validation (training writers dealt into `folds`) gives the best question AUROC."""
    writers = sorted(set(d["cw"][train]))
    fold_of = {w: i % folds for i, w in enumerate(writers)}
    g = np.array([fold_of.get(w, -1) for w in d["cw"]])
    best, pick, seen = -1.0, L2S[0], []
    for l2 in L2S:
        p = np.zeros(len(g))
        for f in range(folds):
            tr, te = train & (g != f), train & (g == f)
            sc, head = _fit(d["x"][tr], d["label"][tr], l2)
            p[te] = head.predict_proba(sc.transform(d["x"][te]))
        s, _ = question_scores(d, p, train)
        qs = np.isin(d["writer"], writers)
        a = auroc(s[qs & d["y"]], s[qs & ~d["y"]])
        seen.append(f"{l2:g}: {a:.3f}")
        if a > best:
            best, pick = a, l2
    print(f"L2 by {folds}-fold grouped CV over {writers[0]}..{writers[-1]} (question AUROC): {', '.join(seen)}")
    return pick


def _scored(d: dict[str, Any], train: np.ndarray, test: np.ndarray, l2: float) -> tuple[np.ndarray, np.ndarray]:
    """Verifier score and best place of the questions of the `test` candidates, fitted on the `train` ones; the
    hand ranking's first candidate's P is written into `d["first_p"]`."""
    sc, head = _fit(d["x"][train], d["label"][train], l2)
    p = np.zeros(len(test))
    p[test] = head.predict_proba(sc.transform(d["x"][test]))
    return question_scores(d, p, test, d["first_p"])


def out_of_writer(d: dict[str, Any], plan: list[tuple[str, list[str]]], l2: float,
                  inner: int = 5, margin: bool = False) -> dict[str, Any]:
    """Each question's verifier score and best place, from a verifier fitted on its plan's training writers; and,
    per fold, every question's score as that fold's typed confidence reads it: the training writers' cross-fitted
    (their writers dealt into `inner` groups, each scored by a verifier fitted on the others), the tested writer's
    from the verifier fitted on all of them (`inner` 0: no cross-fitting, the fold's scores are None); with
    `margin`, each fold's scores are (best P, the hand ranking's first's P) pairs."""
    n = len(d["y"])
    d["first_p"] = np.zeros(n)
    score, place, per_fold = np.full(n, np.nan), np.full(n, -1), {}
    for w, train_writers in plan:
        tr = np.isin(d["cw"], train_writers)
        s, pl = _scored(d, tr, d["cw"] == w, l2)
        mine = d["writer"] == w
        score[mine], place[mine] = s[mine], pl[mine]
        if not inner:
            continue
        fold, first = np.where(mine, s, np.nan), np.where(mine, d["first_p"], np.nan)
        group = {v: i % inner for i, v in enumerate(train_writers)}
        g = np.array([group.get(v, -1) for v in d["cw"]])
        for f in range(inner):
            s, _ = _scored(d, tr & (g != f), tr & (g == f), l2)
            held = np.isin(d["writer"], [v for v in train_writers if group[v] == f])
            fold[held], first[held] = s[held], d["first_p"][held]
        per_fold[w] = np.column_stack([fold, first]) if margin else fold
    return {"score": score, "place": place, "per_fold": per_fold or None}


def pooled_auroc(d: dict[str, Any], s: np.ndarray, writers: tuple[str, ...]) -> str:
    m = np.isin(d["writer"], writers) & ~np.isnan(s)
    per = [auroc(s[(d["writer"] == w) & d["y"]], s[(d["writer"] == w) & ~d["y"]]) for w in writers
           if (d["writer"] == w).any()]
    return f"{auroc(s[m & d['y']], s[m & ~d['y']]):.3f} (writers' mean {np.nanmean(per):.3f})"


def first_lines(d: dict[str, Any], place: np.ndarray, writers: tuple[str, ...]) -> str:
    """First line (a gold sentence first) over the answerable questions: the hand ranking's first against the
    verifier's best candidate."""
    q = np.isin(d["writer"], writers) & d["y"]
    gold_at = {(int(c), int(p)) for c, p, g in zip(d["cq"], d["place"], d["gold"], strict=True) if g}
    hand = np.mean([(i, 0) in gold_at for i in np.flatnonzero(q)])
    ver = np.mean([(i, int(place[i])) in gold_at for i in np.flatnonzero(q)])
    return f"hand {100 * hand:.1f}%, verifier's best {100 * ver:.1f}%"


def recall(d: dict[str, Any], k: int) -> str:
    ans = np.flatnonzero(d["y"])
    hit = {int(c) for c, g in zip(d["cq"], d["gold"], strict=True) if g}
    rec = np.mean([i in hit for i in ans])
    return f"a gold sentence among the best {k}: {100 * rec:.1f}% of {len(ans)} answerable questions"


def main(argv: list[str] | None = None) -> int:
    from everyday import forward_folds
    from verifier_confidence import with_verifier

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--extract", type=Path, metavar="OUT", help="record candidates and vectors of every question")
    ap.add_argument("--from", dest="rows", type=Path, metavar="NPZ", help="the file --extract wrote")
    ap.add_argument("--inputs", type=Path, help="the typed confidence's inputs (typed_refit.py --record)")
    ap.add_argument("--k", type=int, default=6, help="candidates per question (default 6, first_rank.K)")
    ap.add_argument("--parts", choices=("all", "emb", "hand"), default="all")
    ap.add_argument("--dims", type=int, default=32, help="principal directions kept of q*s and of |q-s| (0: all)")
    ap.add_argument("--margin", action="store_true",
                    help="(b) also reads the best P's logit minus that of the hand ranking's first candidate")
    ap.add_argument("--inner", type=int, default=5, help="groups the training writers' scores are cross-fitted in")
    ap.add_argument("--l2", type=float, default=None,
                    help="fixed L2 (default: chosen by grouped CV over the writers before --forward-from)")
    ap.add_argument("--forward-from", default="AV")
    args = ap.parse_args(argv)
    if args.extract:
        extract(args.extract)
    if not args.rows:
        return 0
    writers = tuple(WRITERS)
    d = load(args.rows, args.k, args.parts, args.dims, writers[:writers.index(args.forward_from)])
    print(recall(d, args.k))
    plans = {"LOWO": [(w, [v for v in writers if v != w]) for w in writers],
             f"forward from {args.forward_from}": [(h[0], list(b)) for b, h in forward_folds(writers,
                                                                                             args.forward_from)]}
    # chosen once, on writers no recent writer's figure is tested on
    l2 = args.l2 or choose_l2(d, np.isin(d["cw"], writers[:writers.index(args.forward_from)]))
    for name, plan in plans.items():
        got = out_of_writer(d, plan, l2, args.inner, args.margin)
        tested = tuple(w for w, _ in plan)
        print(f"## {name} (k={args.k}, parts={args.parts}, dims={args.dims}, L2 {l2:g})")
        print(f"(a) verifier AUROC: recent {pooled_auroc(d, got['score'], RECENT)}; "
              f"all tested {pooled_auroc(d, got['score'], tested)}")
        print(f"(c) first line, recent: {first_lines(d, got['place'], RECENT)}; "
              f"all tested: {first_lines(d, got['place'], tested)}")
        if args.inputs:
            with_verifier(d, got["per_fold"] or {w: got["score"] for w, _ in plan}, args.inputs, plan)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
