"""Subtask 3 answer text: the scorer's 75-word cut, the word budget and sentence order of the extractive
st3 text, and the variants benchmarks/st3_quality.py compares (values derived by hand)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from archehr.data.model import Case, KeyEntry, NoteSentence, Split
from archehr.generate.extractive import ExtractiveGenerator
from archehr.relevance.base import Selection, SentenceScores
from archehr.relevance.selector import Selector

REPO = Path(__file__).resolve().parents[1]

# word counts 4, 5, 6 (the final period adds no word)
TEXTS = ["Aspirin was stopped today.", "She has atrial fibrillation now.",
         "Apixaban was started for stroke prevention."]


def make_case() -> Case:
    return Case("1", patient_narrative="Why was my aspirin stopped?",
                sentences=tuple(NoteSentence(str(i + 1), 1, 0, t) for i, t in enumerate(TEXTS)))


def scores(ess: tuple[float, ...], sup: tuple[float, ...] = (0.0, 0.0, 0.0)) -> SentenceScores:
    return SentenceScores("1", ("1", "2", "3"), ess, sup)


def st3(gen: ExtractiveGenerator, sc: SentenceScores, cited: tuple[str, ...] = ("1", "2", "3")) -> str:
    return gen.generate(make_case(), Selection("1", cited, 1.0), sc).text_without_citations()


def test_budget_keeps_the_most_probable_whole_sentences():
    # P 0.5, 0.4, 0.9 -> priority 3 (6 words, 5 left), 1 (4 words, 1 left); 2 (5 words) no longer fits
    assert st3(ExtractiveGenerator(budget=11), scores((0.5, 0.4, 0.9))) == f"{TEXTS[0]} {TEXTS[2]}"
    # budget 15 = 4 + 5 + 6: everything, in note order
    assert st3(ExtractiveGenerator(budget=15), scores((0.5, 0.4, 0.9))) == " ".join(TEXTS)
    # budget 5: sentence 3 (6 words) never fits; 1 (4 words) does, then 1 word is left
    assert st3(ExtractiveGenerator(budget=5), scores((0.5, 0.4, 0.9))) == TEXTS[0]


def test_order_note_versus_score():
    sc = scores((0.5, 0.4, 0.9))
    assert st3(ExtractiveGenerator(budget=11, order="note"), sc) == f"{TEXTS[0]} {TEXTS[2]}"
    assert st3(ExtractiveGenerator(budget=11, order="score"), sc) == f"{TEXTS[2]} {TEXTS[0]}"


def _split(reference: str) -> Split:
    return Split("toy", (make_case(),), (KeyEntry("1", (), clinician_answer_without_citations=reference),))


def test_scorer_cuts_st3_at_75_words():
    pytest.importorskip("archehr_scoring")
    from archehr_scoring.score2026 import score_2026

    ref = _split("Aspirin was stopped because apixaban was started for atrial fibrillation.")
    head = " ".join(f"w{i}" for i in range(75))
    long = f"{head} aspirin stopped apixaban started"  # 79 words: the last four are cut by the scorer
    a = score_2026("st3", [{"case_id": "1", "prediction": long}], ref, metrics=["bleu", "rouge", "sari"])
    b = score_2026("st3", [{"case_id": "1", "prediction": head}], ref, metrics=["bleu", "rouge", "sari"])
    assert a.scores["rougeLsum"] == b.scores["rougeLsum"] == 0.0  # no reference word survives the cut
    assert a.scores["sari"] == b.scores["sari"]


def _bench():
    spec = importlib.util.spec_from_file_location("st3_quality", REPO / "benchmarks" / "st3_quality.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["st3_quality"] = mod  # dataclasses resolve string annotations through sys.modules
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


def test_benchmark_variants_select_as_described():
    b = _bench()
    case, sc = make_case(), scores((0.6, 0.1, 0.2), (0.0, 0.3, 0.0))
    sel = Selector(threshold=0.35)
    assert b.select(b.Variant(), case, sc, sel)[0].cited == ("1",)  # essential P >= 0.35: sentence 1 only
    assert b.select(b.Variant(selection="relevant"), case, sc, sel)[0].cited == ("1", "2")  # 0.1 + 0.3 = 0.4
    cited, none = b.select(b.Variant(selection="all"), case, sc, sel)
    assert cited.cited == ("1", "2", "3") and none is None  # the cite-all system: no scores, note order


def test_benchmark_lead_in_spends_the_budget():
    b = _bench()
    case, sc = make_case(), scores((0.9, 0.8, 0.7))
    plain = b.answer_text(b.Variant(budget=15), case, sc, Selector(threshold=0.5), {})
    assert plain == " ".join(TEXTS)
    from archehr.question import build_question_writer

    q = build_question_writer("template").write(case).text.strip()
    led = b.answer_text(b.Variant(budget=15, lead_in=True), case, sc, Selector(threshold=0.5), {})
    # the question's words come out of the same 15-word budget, so whole note sentences drop out
    assert led.startswith(q) and len(led.split()) <= 15 and led != f"{q} {plain}"
