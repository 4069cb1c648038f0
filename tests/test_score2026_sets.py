"""2026 subtasks 2 and 4 (set scoring): golden parity, hand-derived empty-set rules, --case-ids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from archehr.data.model import Case, ClinicianAnswerSentence, KeyEntry, NoteSentence, Relevance, SentenceLabel, Split
from archehr.errors import ConfigError, SubmissionError
from archehr_scoring.bootstrap import bootstrap_ci
from archehr_scoring.case_ids import format_case_ids, parse_case_ids
from archehr_scoring.score2026 import score_2026
from archehr_scoring.tasks import get_task

E, S, N = Relevance.ESSENTIAL, Relevance.SUPPLEMENTARY, Relevance.NOT_RELEVANT
SET_FIXTURES = ["st2-lexical", "st2-ess-plus-supp", "st2-some-empty", "st4-gold", "st4-first-essential"]


def _split(labels: dict[str, dict[str, Relevance]],
           citations: dict[str, dict[str, list[str]]] | None = None) -> Split:
    """A tiny reference: case -> {sentence id: label}; optional case -> {answer id: cited ids}."""
    cases, key = [], []
    for cid, lab in labels.items():
        cases.append(Case(cid, sentences=tuple(NoteSentence(s, 1, 0, f"s{s}") for s in lab)))
        cas = None
        if citations is not None:
            cas = tuple(ClinicianAnswerSentence(a, f"answer {a}", tuple(c)) for a, c in citations[cid].items())
        key.append(KeyEntry(cid, tuple(SentenceLabel(s, r) for s, r in lab.items()), None, None, cas))
    return Split("hand", tuple(cases), tuple(key), source="<hand>")


def _sub(preds: dict[str, object]) -> list[dict[str, object]]:
    return [{"case_id": c, "prediction": p} for c, p in preds.items()]


# ---------------------------------------------------------------- parity with the official scripts


@pytest.mark.parametrize("fixture", SET_FIXTURES)
def test_set_fixtures_match_official_exactly(fixture: str, golden_dir: Path, synthetic_dir: Path) -> None:
    expected = json.loads((golden_dir / "2026" / fixture / "expected.json").read_text())
    report = score_2026(fixture[:3], golden_dir / "2026" / fixture / "submission.json",
                        synthetic_dir / "test" / "archehr-qa_key.json")
    assert list(report.scores) == list(expected)  # same keys, same order as the official scores.json
    assert report.scores == expected  # exact: the same arithmetic in the same order
    assert report.to_json_dict()["overall_score"] == expected["overall_score"]


# ---------------------------------------------------------------- subtask 2, hand-derived


def test_st2_strict_lenient_and_empty_rules_by_hand() -> None:
    ref = _split({
        "A": {"1": E, "2": E, "3": S, "4": N},  # pred {1,3}: strict P=R=1/2; lenient drops 3 -> P=1, R=1/2
        "B": {"1": N, "2": N},                    # nothing to find, nothing predicted -> 1, 1, 1
        "C": {"4": E, "5": N},                    # empty prediction -> 0
        "D": {"5": N, "6": S},                    # no essential gold, predicts 5 -> 0
    })
    r = score_2026("st2", _sub({"A": ["1", "3"], "B": [], "C": [], "D": ["5"]}), ref)
    s = r.scores
    assert list(s) == list(get_task("st2").keys)
    assert s["strict_macro_precision"] == pytest.approx(100 * (0.5 + 1) / 4)
    assert s["strict_macro_recall"] == pytest.approx(100 * (0.5 + 1) / 4)
    assert s["strict_macro_f1"] == pytest.approx(100 * (0.5 + 1) / 4)
    # pooled: tp 1, predicted 2+0+0+1, gold 2+0+1+0
    assert s["strict_micro_precision"] == pytest.approx(100 / 3)
    assert s["strict_micro_recall"] == pytest.approx(100 / 3)
    assert s["strict_micro_f1"] == pytest.approx(100 / 3)
    assert s["lenient_macro_precision"] == pytest.approx(100 * (1 + 1) / 4)
    assert s["lenient_macro_recall"] == pytest.approx(100 * (0.5 + 1) / 4)
    assert s["lenient_macro_f1"] == pytest.approx(100 * (2 / 3 + 1) / 4)
    # lenient pooled: tp 1, predicted 1+0+0+1, gold 3
    assert s["lenient_micro_precision"] == pytest.approx(50.0)
    assert s["lenient_micro_recall"] == pytest.approx(100 / 3)
    assert s["lenient_micro_f1"] == pytest.approx(100 * 2 * 0.5 / 3 / (0.5 + 1 / 3))
    assert s["overall_score"] == s["strict_micro_f1"]


def test_st2_lenient_is_the_2026_reading_not_the_2025_one() -> None:
    # Predicting only a supplementary sentence: 2025-lenient would count it as a hit; 2026-lenient
    # removes it, leaving an empty prediction against essential-only gold.
    ref = _split({"E": {"1": E, "2": S}, "F": {"1": N, "2": S}})
    r = score_2026("st2", _sub({"E": ["2"], "F": ["2"]}), ref)
    assert r.per_case["E"]["lenient_f1"] == 0.0  # empty after dropping, gold {1} -> 0
    assert r.per_case["F"]["lenient_f1"] == 1.0  # empty after dropping, gold {} -> both empty -> 1
    assert r.per_case["F"]["strict_f1"] == 0.0  # strict: predicted {2}, gold {} -> 0


def test_st2_micro_is_perfect_when_nothing_is_predicted_and_nothing_is_gold() -> None:
    ref = _split({"B": {"1": N}, "G": {"1": S}})
    r = score_2026("st2", _sub({"B": [], "G": []}), ref)
    assert all(v == 100.0 for v in r.scores.values())


def test_st2_duplicates_collapse_with_a_warning() -> None:
    ref = _split({"A": {"1": E, "2": N}})
    r = score_2026("st2", _sub({"A": ["1", "1", "2"]}), ref)
    assert r.per_case["A"]["strict_n_pred"] == 2
    assert r.scores["strict_micro_precision"] == pytest.approx(50.0)
    assert [w.code for w in r.warnings] == ["warning-duplicate-id"]


# ---------------------------------------------------------------- subtask 4, hand-derived


def test_st4_links_and_per_case_rules_by_hand() -> None:
    labels = {"X": {"1": E, "2": E, "3": N}, "Y": {"1": N}, "Z": {"4": E}}
    ref = _split(labels, {"X": {"1": ["1", "2"], "2": []}, "Y": {"1": []}, "Z": {"1": ["4"]}})
    sub = _sub({"X": [{"answer_id": "1", "evidence_id": ["1", "3"]}, {"answer_id": "2", "evidence_id": ["2"]}],
                "Y": [], "Z": [{"answer_id": "1", "evidence_id": []}]})
    r = score_2026("st4", sub, ref)
    s = r.scores
    assert list(s) == list(get_task("st4").keys)
    # X: predicted {(1,1),(1,3),(2,2)}, gold {(1,1),(1,2)} -> tp 1, P 1/3, R 1/2, F1 0.4
    assert r.per_case["X"]["f1"] == pytest.approx(0.4)
    # Y: nothing predicted, nothing gold -> 0 (unlike subtask 2); Z: nothing predicted -> 0
    assert (r.per_case["Y"]["precision"], r.per_case["Y"]["recall"], r.per_case["Y"]["f1"]) == (0.0, 0.0, 0.0)
    assert r.per_case["Z"]["f1"] == 0.0
    assert s["micro_precision"] == pytest.approx(100 / 3)  # tp 1 / predicted 3
    assert s["micro_recall"] == pytest.approx(100 / 3)  # tp 1 / gold 3
    assert s["macro_precision"] == pytest.approx(100 * (1 / 3) / 3)
    assert s["macro_recall"] == pytest.approx(100 * 0.5 / 3)
    assert s["macro_f1"] == pytest.approx(100 * 0.4 / 3)
    assert s["overall_score"] == s["micro_f1"]


def test_st4_with_no_link_anywhere_scores_zero() -> None:
    ref = _split({"Y": {"1": N}}, {"Y": {"1": []}})
    assert set(score_2026("st4", _sub({"Y": []}), ref).scores.values()) == {0.0}


@pytest.mark.parametrize("as_string", [False, True])
def test_st4_key_citations_as_list_or_comma_string(as_string: bool, tmp_path: Path, synthetic_dir: Path,
                                                   golden_dir: Path) -> None:
    key = json.loads((synthetic_dir / "test" / "archehr-qa_key.json").read_text())
    for entry in key:
        for s in entry["clinician_answer_sentences"]:
            s["citations"] = ",".join(s["citations"]) if as_string else s["citations"]
    (tmp_path / "archehr-qa_key.json").write_text(json.dumps(key))
    expected = json.loads((golden_dir / "2026" / "st4-gold" / "expected.json").read_text())
    report = score_2026("st4", golden_dir / "2026" / "st4-gold" / "submission.json", tmp_path / "archehr-qa_key.json")
    assert report.scores == expected  # "13,14" is read as two ids, not as characters


# ---------------------------------------------------------------- --case-ids


def test_parse_case_ids_like_the_official_option() -> None:
    ids = parse_case_ids("121-167,3")
    assert ids is not None and len(ids) == 48 and {"121", "167", "3"} <= ids and "120" not in ids
    assert parse_case_ids("1-3 5") == {"1", "2", "3", "5"}
    assert parse_case_ids(["9-10", "12"]) == {"9", "10", "12"}
    assert parse_case_ids(" 2 , 4-5 ") == {"2", "4", "5"}
    assert parse_case_ids("08-9") == {"8", "9"}  # ranges expand to str(int), like the official parser
    assert parse_case_ids("08") == {"08"}  # single ids stay as written
    assert parse_case_ids(None) is None


@pytest.mark.parametrize("bad", ["", " , ", "5-3", "a-b", "1-2-3"])
def test_parse_case_ids_rejects_typos(bad: str) -> None:
    with pytest.raises(ConfigError):
        parse_case_ids(bad)


def test_format_case_ids_compacts_runs() -> None:
    assert format_case_ids({"3", "121", "122", "123", "x"}) == "3,121-123,x"


def test_case_ids_restrict_scoring(golden_dir: Path, synthetic_dir: Path) -> None:
    key = synthetic_dir / "test" / "archehr-qa_key.json"
    sub = golden_dir / "2026" / "st2-lexical" / "submission.json"
    full = score_2026("st2", sub, key)
    part = score_2026("st2", sub, key, case_ids="9-11,14")
    assert sorted(part.per_case, key=int) == ["9", "10", "11", "14"]
    assert part.meta["case_ids"] == "9-11,14"
    # macro = mean of the per-case values of the full run on those cases
    expected_macro = 100 * sum(full.per_case[c]["strict_f1"] for c in ("9", "10", "11", "14")) / 4
    assert part.scores["strict_macro_f1"] == pytest.approx(expected_macro)
    assert part.scores != full.scores


def test_case_ids_let_a_partial_submission_score(golden_dir: Path, synthetic_dir: Path) -> None:
    key = synthetic_dir / "test" / "archehr-qa_key.json"
    items = json.loads((golden_dir / "2026" / "st4-gold" / "submission.json").read_text())[:3]
    with pytest.raises(SubmissionError) as e:
        score_2026("st4", items, key)
    assert {p.code for p in e.value.problems} == {"missing-case"}
    r = score_2026("st4", items, key, case_ids="9-11")
    assert r.scores["overall_score"] == 100.0


def test_case_ids_that_select_nothing_are_an_error(golden_dir: Path, synthetic_dir: Path) -> None:
    with pytest.raises(SubmissionError, match="no case left"):
        score_2026("st2", golden_dir / "2026" / "st2-lexical" / "submission.json",
                   synthetic_dir / "test" / "archehr-qa_key.json", case_ids="900-901")


def test_bootstrap_ci_brackets_the_score(golden_dir: Path, synthetic_dir: Path) -> None:
    r = score_2026("st2", golden_dir / "2026" / "st2-lexical" / "submission.json",
                   synthetic_dir / "test" / "archehr-qa_key.json", bootstrap=200, seed=7)
    assert r.ci is not None
    lo, hi = r.ci["overall_score"]
    assert lo <= r.scores["overall_score"] <= hi and lo < hi
    assert r.ci == bootstrap_ci(r, 200, 7)  # reproducible from the seed
    assert r.to_json_dict()["_meta"]["ci95"]["overall_score"] == [lo, hi]


def test_set_tasks_take_no_text_metrics(golden_dir: Path, synthetic_dir: Path) -> None:
    with pytest.raises(ConfigError, match="no --metrics"):
        score_2026("st2", golden_dir / "2026" / "st2-lexical" / "submission.json",
                   synthetic_dir / "test" / "archehr-qa_key.json", metrics=["bleu"])
