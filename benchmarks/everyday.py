"""Everyday questions: does `archehr answer` put the sentence that answers first, and decline when the note has none?

Questions written in patients' words about the demo notes (data/everyday/questions-*.yaml), each with
the note sentences that answer it (`gold`, ids of that demo case) or marked unanswerable, of six kinds
(how_long, when, med_change, test_result, why, may_i). Each is asked of its note through the library
function `archehr.answer` (default system, default answerability), and printed, overall and per kind,
each with a bootstrap 95% interval (questions resampled, 2,000 draws):

- first line: the first answer line cites a gold sentence (a decline counts as a miss), answerable;
- recall: gold sentences cited anywhere / gold sentences, per answerable question, averaged;
- precision: cited sentences that are gold / cited sentences, per answerable question citing any, averaged;
- false decline: "The note does not say." to an answerable question;
- unanswerable declined or flagged (with the share of answerable questions flagged for review beside it);
- AUROC of the confidence, answerable against unanswerable.

A question may instead name a raw note: `note: NAME.txt` (beside the questions file) and `gold_lines`
(1-based line numbers of NAME.sentences.txt, the writer's own units); the note goes through the
splitter and each gold unit maps to the splitter's sentences it overlaps by text (at least half of the
shorter of the two).

    python benchmarks/everyday.py                                   # data/everyday/questions-*.yaml
    python benchmarks/everyday.py --questions data/everyday/questions-a.yaml --dump out.jsonl
    python benchmarks/everyday.py --leave-one-writer-out  # each writer scored, typed model fitted on the others
    python benchmarks/everyday.py --leave-one-writer-out --writers A B C F   # those writers only
    python benchmarks/everyday.py --writer-folds 6  # writers in 6 folds, each scored by a model fitted on the rest
    python benchmarks/everyday.py --forward-from X  # X and each writer after it, fitted on the writers before it
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import archehr  # noqa: E402
from archehr.answerability.data import read_source_case  # noqa: E402
from archehr.data.note_split import SplitNote, SplitSentence, split_note  # noqa: E402

KINDS = ("how_long", "when", "med_change", "test_result", "why", "may_i")
DRAWS = 2000


@dataclass(frozen=True)
class Question:
    qid: str
    source: str  # the questions file
    kind: str
    question: str
    answerable: bool
    gold: frozenset[str]
    note: SplitNote
    case: str


def demo_note(sentences: tuple[Any, ...]) -> SplitNote:
    """A demo case's sentences as a SplitNote keeping their ids (paragraphs joined by blank lines)."""
    parts, out, pos, para = [], [], 0, None
    for s in sentences:
        sep = "" if para is None else (" " if s.paragraph_id == para else "\n\n")
        parts.append(sep)
        pos += len(sep)
        out.append(SplitSentence(s.id, s.paragraph_id, s.start_char_index, pos, pos + len(s.text), s.text,
                                 "text"))
        parts.append(s.text)
        pos += len(s.text)
        para = s.paragraph_id
    return SplitNote("".join(parts), tuple(out), "demo release")


def _norm(text: str) -> str:
    # a word wrapped after its hyphen or slash ("ventric-" + "ular", a range "70-" + "89%", "tenofovir/" +
    # "emtricitabine") is written whole by the gold unit ("ventric-ular", "70-89%", "tenofovir/emtricitabine"): the
    # space after a hyphen or slash inside a word or a number is dropped in the note, its sentences and the units alike
    return re.sub(r"(?<=[A-Za-z0-9][-/]) (?=[A-Za-z0-9])", "", re.sub(r"\s+", " ", text).strip())


def raw_gold(split: SplitNote, units: list[str], lines: list[int], where: str) -> frozenset[str]:
    """Splitter sentence ids overlapping the gold units (by at least half the shorter text)."""
    flat = _norm(split.text)
    # offsets of each splitter sentence in the whitespace-normalised note
    spans, cursor = {}, 0
    for s in split.sentences:
        t = _norm(s.text)
        k = flat.find(t, cursor)
        if k >= 0:
            spans[s.id] = (k, k + len(t))
            cursor = k + len(t)
    gold, cursor = set(), 0
    for n in lines:
        if not 1 <= n <= len(units):
            raise SystemExit(f"{where}: gold line {n} is not a line of the sentences file ({len(units)} lines)")
        u = _norm(units[n - 1])
        k = flat.find(u)
        if k < 0:
            raise SystemExit(f"{where}: gold line {n} is not in the note: {u[:60]!r}")
        a, b = k, k + len(u)
        for sid, (x, y) in spans.items():
            if min(b, y) - max(a, x) >= 0.5 * min(b - a, y - x):
                gold.add(sid)
    return frozenset(gold)


def load_questions(paths: list[Path]) -> list[Question]:
    files = {read_source_case(p).case_id: p for p in (ROOT / "data" / "demo-src").glob("case-*.yaml")}
    notes: dict[str, SplitNote] = {}
    out = []
    for path in paths:
        items = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        for q in items:
            where = f"{path}: {q.get('id', '?')}"
            for field in ("id", "question", "kind", "answerable"):
                if field not in q:
                    raise SystemExit(f"{where}: missing field {field!r}")
            if q["kind"] not in KINDS:
                raise SystemExit(f"{where}: kind {q['kind']!r} is not one of {', '.join(KINDS)}")
            if "note" in q:
                name = str(q["note"]) if str(q["note"]).endswith(".txt") else f"{q['note']}.txt"
                key = str(path.parent / name)
                if key not in notes:
                    notes[key] = split_note((path.parent / name).read_text(encoding="utf-8"))
                split = notes[key]
                units = (path.parent / (Path(name).stem + ".sentences.txt")).read_text(encoding="utf-8").splitlines()
                gold = raw_gold(split, units, [int(x) for x in q.get("gold_lines") or []], where)
                case = name
            else:
                case = str(q.get("case", ""))
                if case not in files:
                    raise SystemExit(f"{where}: case {case!r} is not a demo case")
                if case not in notes:
                    notes[case] = demo_note(read_source_case(files[case]).sentences)
                split = notes[case]
                gold = frozenset(str(x) for x in q.get("gold") or [])
                unknown = gold - {s.id for s in split.sentences}
                if unknown:
                    raise SystemExit(f"{where}: gold id(s) {sorted(unknown)} not in case {case}")
            if bool(q["answerable"]) and not gold:
                raise SystemExit(f"{where}: answerable but no gold sentence")
            source = path.resolve().relative_to(ROOT).as_posix() if path.resolve().is_relative_to(ROOT) else path.name
            out.append(Question(str(q["id"]), source, str(q["kind"]), str(q["question"]), bool(q["answerable"]),
                                gold, split, case))
    return out


RANKER = "auto"  # `archehr.answer`'s ranker (--ranker)


def run_one(q: Question, system: Any, typed: Any, first: Any = None) -> dict[str, Any]:
    # typed=None: the lexical P alone; code without the typed model (an older checkout) is run as it is
    extra = {"typed": typed} if "typed" in inspect.signature(archehr.answer).parameters else {}
    # an older checkout without rankers is run as it is (its hand ranking)
    extra.update({"ranker": RANKER} if "ranker" in inspect.signature(archehr.answer).parameters else {})
    extra.update({"first": first} if first is not None else {})  # a first-line ranker (benchmarks/first_ranker.py)
    r = archehr.answer(q.note, q.question, system=system, **extra)
    cited = [s.id for s in r.cited]
    first = list(r.lines[0].citations) if r.lines and not r.abstained else []
    return {"id": q.qid, "source": q.source, "kind": q.kind, "case": q.case, "question": q.question,
            "answerable": q.answerable, "gold": sorted(q.gold, key=int) if all(g.isdigit() for g in q.gold)
            else sorted(q.gold), "cited": cited, "first": first, "abstained": r.abstained, "flagged": r.flagged,
            "confidence": r.confidence, "answer": r.answer}


# the writers from T on, in the order they were written, each in heldout-<its letters>/raw/; a new round joins by
# moving the last one on
_PAIRS = tuple(a + b for a in "ABCDE" for b in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LATER = ("T", "U", "X", "Y", "Z", *_PAIRS[:_PAIRS.index("EE") + 1])
# the question writers (README.md, heldout-c/README.md): each writer's demo-note questions, then raw-note ones
WRITERS = {"A": ("questions-a.yaml", "raw-a/questions.yaml"), "B": ("questions-b.yaml",),
           "C": ("heldout-c/questions.yaml", "heldout-c/raw/questions.yaml"), "D": ("heldout-d/questions.yaml",),
           "E": ("heldout-e/raw/questions.yaml",), "F": ("raw-f/questions.yaml",), "J": ("dev-j/raw/questions.yaml",),
           "H": ("heldout-h/raw/questions.yaml",), "I": ("heldout-i/raw/questions.yaml",),
           "L": ("heldout-l/raw/questions.yaml",), "M": ("heldout-m/raw/questions.yaml",),
           "P": ("dev-p/raw/questions.yaml",), "Q": ("dev-q/raw/questions.yaml",),
           "N": ("heldout-n/raw/questions.yaml",), "O": ("heldout-o/raw/questions.yaml",),
           "R": ("heldout-r/raw/questions.yaml",), "S": ("heldout-s/raw/questions.yaml",),
           "V": ("dev-v/raw/questions.yaml",), "W": ("dev-w/raw/questions.yaml",),
           **{w: (f"heldout-{w.lower()}/raw/questions.yaml",) for w in _LATER}}


def writer_of(source: str) -> str:
    """The writer of a questions file (`Question.source`: a path under the checkout, or a file name), by `WRITERS`;
    a file of no writer there is a writer of its own."""
    for w, files in WRITERS.items():
        if any(source == f"data/everyday/{f}" for f in files):
            return w
    return source


def fit_typed_model(qs: list[Question], out: Path, cache: dict[tuple[str, str], Any] | None = None,
                    review_share: float | None = None) -> None:
    """Fit `archehr.answerability.typed` on the questions, grouped by their writer (its threshold and review level
    from P's of models fitted without the writer: what a new writer sees). `cache`: feature rows by (questions file,
    id), filled and read (the folds of `--writer-folds` fit on overlapping sets). `review_share`: the review level's
    quantile, if not `typed.REVIEW_SHARE`."""
    from archehr.answerability.kinds import answer_types
    from archehr.answerability.model import load_model
    from archehr.answerability.typed import REVIEW_SHARE, fit_typed, typed_row
    from archehr.ask import read_question
    from archehr.data.note_split import note_case

    lexical = load_model("lexical")
    rows, y, groups = [], [], []
    cache = {} if cache is None else cache
    for q in qs:
        if (q.source, q.qid) not in cache:
            # the question as `archehr.answer` reads it (non-standard spellings in standard spelling)
            case, _ = note_case(q.note, read_question(q.question)[0])
            cache[q.source, q.qid] = typed_row(lexical.probability(case), answer_types(case))
        rows.append(cache[q.source, q.qid])
        y.append(q.answerable)
        groups.append(writer_of(q.source))
    model = fit_typed(np.array(rows), np.array(y, dtype=float), np.array(groups),
                      review_share=REVIEW_SHARE if review_share is None else review_share,
                      training={"questions": sorted({q.source for q in qs})})
    model.save(out)
    print(f"typed confidence fitted on {len(qs)} questions: threshold {model.threshold}, review {model.review} "
          f"-> {out}")


def auroc(pos: np.ndarray, neg: np.ndarray) -> float:
    if len(pos) == 0 or len(neg) == 0:
        return float("nan")
    allv = np.concatenate([pos, neg])
    ranks = np.argsort(np.argsort(allv, kind="stable"), kind="stable").astype(float)
    # average ranks over ties
    for v in np.unique(allv):
        m = allv == v
        ranks[m] = ranks[m].mean()
    return float((ranks[:len(pos)].sum() - len(pos) * (len(pos) - 1) / 2) / (len(pos) * len(neg)))


def _mean(xs: list[float]) -> float:
    return float(np.mean(xs)) if xs else float("nan")


def citation_figures(rows: list[dict[str, Any]]) -> dict[str, float]:
    """First line, recall and precision (fractions) over the answerable rows, from their "first", "cited" and "gold"
    ids (the definitions every benchmark of `archehr answer` counts by; `cite_rules.py` too)."""
    ans = [r for r in rows if r["answerable"]]
    gold = [set(r["gold"]) for r in ans]
    return {
        "first": _mean([float(bool(set(r["first"]) & g)) for r, g in zip(ans, gold, strict=True)]),
        "recall": _mean([len(set(r["cited"]) & g) / len(g) for r, g in zip(ans, gold, strict=True)]),
        "precision": _mean([len(set(r["cited"]) & g) / len(r["cited"]) for r, g in zip(ans, gold, strict=True)
                            if r["cited"]]),
    }


def figures(rows: list[dict[str, Any]]) -> dict[str, float]:
    ans = [r for r in rows if r["answerable"]]
    una = [r for r in rows if not r["answerable"]]
    return {
        **citation_figures(rows),
        "false_decline": _mean([float(r["abstained"]) for r in ans]),
        "unans_declined_or_flagged": _mean([float(r["abstained"] or r["flagged"]) for r in una]),
        "ans_flagged": _mean([float(r["flagged"]) for r in ans]),
        "auroc": auroc(np.array([r["confidence"] for r in ans]), np.array([r["confidence"] for r in una])),
    }


def bootstrap(rows: list[dict[str, Any]], seed: int = 0) -> dict[str, tuple[float, float]]:
    rng = np.random.default_rng(seed)
    draws: dict[str, list[float]] = defaultdict(list)
    ans = [r for r in rows if r["answerable"]]
    una = [r for r in rows if not r["answerable"]]
    for _ in range(DRAWS):
        # stratified: each class resampled within itself, so every draw has both
        sample = [ans[i] for i in rng.integers(0, len(ans), len(ans))] if ans else []
        sample += [una[i] for i in rng.integers(0, len(una), len(una))] if una else []
        for k, v in figures(sample).items():
            if not np.isnan(v):
                draws[k].append(v)
    return {k: (float(np.percentile(v, 2.5)), float(np.percentile(v, 97.5))) for k, v in draws.items()}


COLUMNS = (("first", "first line"), ("recall", "recall"), ("precision", "precision"),
           ("false_decline", "false decline"), ("unans_declined_or_flagged", "unanswerable declined or flagged"),
           ("ans_flagged", "answerable flagged"), ("auroc", "AUROC"))


def table(rows: list[dict[str, Any]]) -> str:
    out = ["| questions | n (answerable) | " + " | ".join(c[1] for c in COLUMNS) + " |",
           "|---" * (len(COLUMNS) + 2) + "|"]
    groups = [("all", rows)] + [(k, [r for r in rows if r["kind"] == k]) for k in KINDS]
    for name, rs in groups:
        if not rs:
            continue
        f, ci = figures(rs), bootstrap(rs)
        cells = []
        for key, _ in COLUMNS:
            v = f[key]
            if np.isnan(v):
                cells.append("-")
                continue
            pct = key != "auroc"
            lo, hi = ci.get(key, (v, v))
            cells.append(f"{100 * v:.1f}% ({100 * lo:.0f}-{100 * hi:.0f})" if pct else f"{v:.3f} ({lo:.2f}-{hi:.2f})")
        n_ans = sum(r["answerable"] for r in rs)
        out.append(f"| {name} | {len(rs)} ({n_ans}) | " + " | ".join(cells) + " |")
    return "\n".join(out)


def leave_one_writer_out(system: Any, tmp: Path, dump: Path | None = None,
                         writers: tuple[str, ...] = tuple(WRITERS)) -> None:
    """For each writer, the typed confidence model fitted on the other writers' questions (demo and raw
    notes), the held-out writer's questions scored with it; then the mean of each figure over the folds."""
    grouped_folds(system, tmp, tuple((w,) for w in _known(writers)), dump)


def writer_folds(writers: tuple[str, ...], k: int) -> tuple[tuple[str, ...], ...]:
    """The writers dealt into `k` folds in their order (the i-th writer to fold i mod k): deterministic, and each
    fold holds writers of early and late sets."""
    if not 2 <= k <= len(writers):
        raise SystemExit(f"--writer-folds: give 2 to {len(writers)} folds for {len(writers)} writers (got {k})")
    return tuple(tuple(writers[i::k]) for i in range(k))


def forward_folds(writers: tuple[str, ...], start: str) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """(writers fitted on, writer scored) for each writer from `start` on: the writers before it in `writers` only,
    as when it came (the model never fitted on a writer after it)."""
    if start not in writers or writers.index(start) < 2:
        raise SystemExit(f"--forward-from: give a writer of --writers with two or more before it (got {start})")
    return tuple((writers[:i], (writers[i],)) for i in range(writers.index(start), len(writers)))


def _known(writers: tuple[str, ...]) -> tuple[str, ...]:
    unknown = [w for w in writers if w not in WRITERS]
    if unknown or len(writers) < 2:
        raise SystemExit(f"--writers: give at least two of {', '.join(WRITERS)} (got {', '.join(writers)})")
    return writers


def grouped_folds(system: Any, tmp: Path, folds: tuple[tuple[str, ...], ...], dump: Path | None = None,
                  fitted_on: tuple[tuple[str, ...], ...] | None = None, review_share: float | None = None,
                  first: bool = False) -> None:
    """For each fold of writers, the typed confidence model fitted on the other folds' writers' questions (or on
    the writers `fitted_on` gives for it), the fold's questions scored with it; each writer's figures, their mean,
    and all held-out questions pooled. `first`: the first-line ranker fitted on the same writers too."""
    base = ROOT / "data" / "everyday"
    writers = list(dict.fromkeys([w for fold in folds for w in fold] + [w for f in fitted_on or () for w in f]))
    qs = {w: {f: load_questions([base / f]) for f in WRITERS[w]} for w in writers}
    scored: dict[str, dict[str, list[dict[str, Any]]]] = {}
    cache: dict[tuple[str, str], Any] = {}
    if first:
        from first_ranker import fit_on, question_groups

        groups = question_groups([q for by in qs.values() for q_list in by.values() for q in q_list], system)
    for i, fold in enumerate(folds):
        train = [q for v, by in qs.items() if (v not in fold if fitted_on is None else v in fitted_on[i])
                 for q_list in by.values() for q in q_list]
        out = tmp / f"typed-fold-{i}.json"
        fit_typed_model(train, out, cache, review_share)
        ranker = tmp / f"first-fold-{i}.json" if first else None
        if ranker is not None:
            fit_on(groups, {writer_of(q.source) for q in train}).save(ranker)
        models = (out,) if ranker is None else (out, ranker)
        for w in fold:
            scored[w] = {f: [run_one(q, system, *models) for q in q_list] for f, q_list in qs[w].items()}
    if dump:
        dump.write_text("".join(json.dumps({"writer": w, **r}) + "\n" for w, by in scored.items()
                                for rs in by.values() for r in rs), encoding="utf-8")
    apart = ("the writers before it" if fitted_on is not None else "the other writers"
             if all(len(f) == 1 for f in folds) else f"the writers of the other {len(folds) - 1} fold(s)")
    for part in ("all", "demo", "raw"):
        print(f"\nheld-out writer, {part} notes (typed model fitted on {apart})")
        print("| writer | n (answerable) | " + " | ".join(c[1] for c in COLUMNS) + " |")
        print("|---" * (len(COLUMNS) + 2) + "|")
        got, pooled = [], []
        for w, by in scored.items():
            rows = [r for f, rs in by.items() if part == "all" or ("raw" in f) == (part == "raw") for r in rs]
            if not rows:
                continue
            f = figures(rows)
            got.append(f)
            pooled += rows
            print(f"| {w} | {len(rows)} ({sum(r['answerable'] for r in rows)}) | "
                  + " | ".join(_cell(k, f[k]) for k, _ in COLUMNS) + " |")
        if not got:
            continue
        mean = {k: float(np.nanmean([g[k] for g in got])) for k, _ in COLUMNS}
        print(f"| mean of {len(got)} | | " + " | ".join(_cell(k, mean[k]) for k, _ in COLUMNS) + " |")
        f = figures(pooled)
        print(f"| pooled | {len(pooled)} ({sum(r['answerable'] for r in pooled)}) | "
              + " | ".join(_cell(k, f[k]) for k, _ in COLUMNS) + " |")
    print("\nper kind, all held-out writers pooled")
    print(table([r for by in scored.values() for rs in by.values() for r in rs]))


def _cell(key: str, v: float) -> str:
    return "-" if np.isnan(v) else (f"{v:.3f}" if key == "auroc" else f"{100 * v:.1f}%")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--questions", nargs="+", type=Path,
                    default=sorted((ROOT / "data" / "everyday").glob("questions-*.yaml")))
    ap.add_argument("--dump", type=Path, help="write each question's result as a JSON line here")
    ap.add_argument("--typed", default="shipped",
                    help="typed confidence model: shipped, a model file, or none (the lexical P alone)")
    ap.add_argument("--fit-typed", type=Path, metavar="OUT",
                    help="fit the typed confidence model on these questions (groups: their writers), write it to "
                         "OUT and score with it")
    ap.add_argument("--leave-one-writer-out", action="store_true",
                    help="for each writer, fit the typed confidence model on the other writers' questions and "
                         "score that writer's")
    ap.add_argument("--writer-folds", type=int, metavar="K",
                    help="deal the writers into K folds (in WRITERS order, the i-th to fold i mod K); fit the typed "
                         "confidence model on the other folds' questions and score each fold's")
    ap.add_argument("--forward-from", metavar="W",
                    help="for each writer from W on (in --writers order), fit the typed confidence model on the "
                         "writers before it only and score that writer's questions: a writer as it came")
    ap.add_argument("--writers", nargs="+", default=list(WRITERS), metavar="W",
                    help="the writers of --leave-one-writer-out, --writer-folds and --forward-from (default: "
                         f"{' '.join(WRITERS)})")
    ap.add_argument("--first-ranker", action="store_true",
                    help="with the folds: also fit the first-line ranker (benchmarks/first_ranker.py) on each fold's "
                         "training writers and answer with it")
    ap.add_argument("--review-share", type=float, metavar="Q",
                    help="fit the typed models' review level at this quantile (default: typed.REVIEW_SHARE)")
    ap.add_argument("--ranker", default="auto", help="archehr.answer's ranker: auto (default: embedding when MiniLM "
                    "is installed, else hand), hand or embedding")
    args = ap.parse_args(argv)
    global RANKER
    RANKER = args.ranker
    if args.leave_one_writer_out or args.writer_folds is not None or args.forward_from:
        import tempfile

        from archehr.pipeline import load_system

        writers = _known(tuple(args.writers))
        chained = forward_folds(writers, args.forward_from) if args.forward_from else None
        folds = (tuple(held for _, held in chained) if chained else tuple((w,) for w in writers)
                 if args.leave_one_writer_out else writer_folds(writers, args.writer_folds))
        with tempfile.TemporaryDirectory() as tmp:
            grouped_folds(load_system(None), Path(tmp), folds, args.dump,
                          tuple(before for before, _ in chained) if chained else None, args.review_share,
                          args.first_ranker)
        return 0
    if not args.questions:
        raise SystemExit("no question files (data/everyday/questions-*.yaml); give --questions")
    from archehr.pipeline import load_system

    qs = load_questions(args.questions)
    system = load_system(None)
    typed: Any = None if args.typed == "none" else args.typed
    if args.fit_typed:
        fit_typed_model(qs, args.fit_typed, review_share=args.review_share)
        typed = args.fit_typed
    rows = [run_one(q, system, typed) for q in qs]
    if args.dump:
        args.dump.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    print(f"everyday questions: {len(rows)} from {', '.join(p.name for p in args.questions)} "
          f"(archehr.answer, default system and answerability; bootstrap 95% intervals)")
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
