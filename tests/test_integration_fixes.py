"""Integration across the scorer and the leaderboard: one partial-score shape, flexible key loading,
`--alignscore-model`, machine-independent leaderboard files, what the leaderboard tables show."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from archehr.cli.main import main
from archehr.data.json_io import read_key
from archehr.leaderboard.board import Entry
from archehr.leaderboard.cache import report_from_dict, report_to_dict
from archehr.leaderboard.run_folders import Run
from archehr_scoring import api
from archehr_scoring.results import PartialScore

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "data" / "demo"
OUTPUTS = ("LEADERBOARD.md", "leaderboard.json", "leaderboard.csv", "leaderboard.html")


def _essential_2025(split_dir: Path, drop: int = 0) -> list[dict[str, str]]:
    """A 2025 submission citing each case's essential sentences minus the last `drop` of them."""
    out = []
    for k in read_key(split_dir / "archehr-qa_key.json"):
        ids = list(k.essential_ids)[: max(1, len(k.essential_ids) - drop)]
        out.append({"case_id": k.case_id, "answer": f"The note answers the question. |{','.join(ids)}|"})
    return out


def _st2(split_dir: Path) -> list[dict[str, object]]:
    return [{"case_id": k.case_id, "prediction": list(k.essential_ids)}
            for k in read_key(split_dir / "archehr-qa_key.json")]


def _write(path: Path, obj: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=1), encoding="utf-8")
    return path


# ------------------------------------------------------------------ 1. one partial shape


def test_partial_scores_have_the_2025_shape_in_both_editions(tmp_path: Path) -> None:
    sub = _write(tmp_path / "s.json", _essential_2025(DEMO / "test", drop=1))
    r = api.score("2025", sub, DEMO / "test", metrics="factuality,bleu,sari,alignscore",
                  metric_params={"alignscore": {"ckpt": None}})
    s = r.scores
    assert s["alignscore"] is None and s["overall_relevance_score"] is None and s["overall_score"] is None
    rel = r.partial["overall_relevance_score"]
    assert isinstance(rel, PartialScore)
    assert rel.averaged == ("bleu", "sari") and rel.value == pytest.approx((s["bleu"] + s["sari"]) / 2)
    assert rel.missing == ("alignscore", "rougeLsum", "medcon", "bertscore")
    overall = r.partial["overall_score"]
    assert overall.averaged == ("overall_factuality_score", "overall_relevance_score")
    assert overall.value == pytest.approx((s["overall_factuality_score"] + rel.value) / 2)

    # 2026: st3 with only BLEU and SARI asked for (st2/st4 have no model metric, hence no partial)
    st3 = [{"case_id": k.case_id, "prediction": "The clinician answers the question."}
           for k in read_key(DEMO / "test-2026" / "archehr-qa_key.json")]
    r26 = api.score("st3", _write(tmp_path / "st3.json", st3), DEMO / "test-2026", metrics="bleu,sari")
    p26 = r26.partial["overall_score"]
    assert set(p26.averaged) == {"bleu", "sari"}
    assert p26.value == pytest.approx((r26.scores["bleu"] + r26.scores["sari"]) / 2)
    assert "bertscore" in p26.missing and "bleu" not in p26.missing

    for rep in (r, r26):
        meta_partial = rep.to_json_dict()["_meta"]["partial"]
        assert meta_partial and all(set(v) == {"value", "averaged", "missing"} for v in meta_partial.values())
        assert report_from_dict(json.loads(json.dumps(report_to_dict(rep)))).partial == rep.partial
        # the leaderboard recomputes partial scores from per-case rows: it must agree with the scorer
        e = Entry(Run("x", sub), "ok", report=rep)
        for k, p in rep.partial.items():
            assert e.is_partial(k) and e.value(k) == pytest.approx(p.value)


# ------------------------------------------------------------------ 2. key loading


def test_validate_st1_with_the_xml_as_key(tmp_path: Path, capsys) -> None:
    xml = DEMO / "test-2026" / "archehr-qa.xml"
    cases = api.cases_only_split(xml).cases
    sub = _write(tmp_path / "st1.json", [{"case_id": c.case_id, "prediction": "Why was the dose changed?"}
                                         for c in cases])
    assert main(["validate", str(sub), "--key", str(xml), "--task", "st1"]) == 0
    assert "0 error(s)" in capsys.readouterr().err
    split, key_file = api.load_key_split(xml)
    assert split.case_ids == tuple(c.case_id for c in cases) and key_file is None


def test_key_json_alone_is_enough_for_st2_with_a_warning(tmp_path: Path, capsys) -> None:
    key = _write(tmp_path / "only-key" / "archehr-qa_key.json",
                 json.loads((DEMO / "test-2026" / "archehr-qa_key.json").read_text()))
    sub = _write(tmp_path / "st2.json", _st2(DEMO / "test-2026"))
    task, errors, warnings = api.validate("st2", sub, key=key)
    assert errors == [] and [w.code for w in warnings] == ["warning-no-notes"]
    assert "not checked against the clinical note" in warnings[0].message
    # the split folder holding only the key works the same, and scores equal those with the XML beside
    alone = api.score("st2", sub, key.parent)
    full = api.score("st2", sub, DEMO / "test-2026")
    assert alone.scores == full.scores and alone.scores["overall_score"] == pytest.approx(100.0)
    assert any(w.code == "warning-no-notes" for w in alone.warnings)
    assert not any(w.code == "warning-no-notes" for w in full.warnings)
    assert main(["validate", str(sub), "--key", str(key), "--task", "st2"]) == 0
    assert "warning" in capsys.readouterr().err


def test_2025_key_alone_validates_with_a_warning_but_scoring_needs_the_xml(tmp_path: Path, capsys) -> None:
    key = _write(tmp_path / "k" / "archehr-qa_key.json",
                 json.loads((DEMO / "test" / "archehr-qa_key.json").read_text()))
    sub = _write(tmp_path / "s.json", _essential_2025(DEMO / "test"))
    _, errors, warnings = api.validate("2025", sub, key=key)
    assert errors == [] and "warning-no-notes" in {w.code for w in warnings}
    # --data names the XML explicitly: no warning, and the notes are checked
    _, errors, warnings = api.validate("2025", sub, key=key, data=DEMO / "test" / "archehr-qa.xml")
    assert errors == [] and "warning-no-notes" not in {w.code for w in warnings}
    assert main(["score", str(sub), str(key), "--metrics", "factuality"]) == 2
    assert "archehr-qa.xml" in capsys.readouterr().err
    assert main(["score", str(sub), str(key), "--metrics", "factuality", "--data",
                 str(DEMO / "test" / "archehr-qa.xml"), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["strict_micro_f1"] == pytest.approx(100.0)


def test_missing_reference_is_one_clear_input_error(tmp_path: Path, capsys) -> None:
    sub = _write(tmp_path / "st2.json", _st2(DEMO / "test-2026"))
    assert main(["validate", str(sub), "--key", str(tmp_path / "nope.json")]) == 2
    assert "key file not found" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["validate", str(sub), "--key", str(tmp_path / "empty")]) == 2
    assert "neither archehr-qa_key.json nor archehr-qa.xml" in capsys.readouterr().err


# ------------------------------------------------------------------ 3. --alignscore-model


def test_score_passes_alignscore_model_to_the_metric(tmp_path: Path, capsys) -> None:
    sub = _write(tmp_path / "s.json", _essential_2025(DEMO / "test"))
    model = tmp_path / "my-roberta-base"
    model.mkdir()
    assert main(["score", str(sub), str(DEMO / "test"), "--metrics", "factuality,alignscore", "--format", "json",
                 "--alignscore-model", str(model), "-q"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["_meta"]["metric_params"]["alignscore"]["model"] == "my-roberta-base"  # as the signature: no path
    assert "|model:my-roberta-base|" in out["_meta"]["signatures"]["alignscore"]  # by name: no weights, no path
    assert out["alignscore"] is None and out["_meta"]["unavailable"]["alignscore"]  # no checkpoint given


# ------------------------------------------------------------------ 4./5. leaderboard files


def _runs(root: Path) -> Path:
    """Three runs whose run.json records absolute paths of `root`, one invalid run, one broken file."""
    subs = root / "submissions"
    test = DEMO / "test"
    for name, drop, system in (("good", 0, "oracle"), ("weaker", 2, "lexical")):
        _write(subs / name / "submission.json", _essential_2025(test, drop))
        _write(subs / name / "run.json", {"system": {"name": system, "source": str(root / "configs" / f"{name}.yaml")},
                                          "data": str(root / "data" / "demo" / "test"),
                                          "git_commit": "0123456789abcdef0123", "argv": [str(root / "bin" / "x")]})
    _write(subs / "missing-case" / "submission.json", _essential_2025(test)[1:])
    _write(subs / "missing-case" / "run.json", {"config_path": str(root / "configs" / "m.yaml")})
    (subs / "broken").mkdir()
    (subs / "broken" / "submission.json").write_text("[{", encoding="utf-8")
    shutil.copytree(test, root / "key")
    return subs


def _board(root: Path, monkeypatch, extra: tuple[str, ...] = ()) -> dict[str, bytes]:
    monkeypatch.chdir(root)
    args = ["leaderboard", str(root / "submissions"), "--key", str(root / "key" / "archehr-qa_key.json"),
            "--task", "2025", "--metrics", "factuality,bleu,sari,alignscore", "--resamples", "40", "-q", *extra]
    assert main(args) == 0
    return {n: (root / "submissions" / n).read_bytes() for n in OUTPUTS}


def test_leaderboard_files_are_byte_identical_in_two_folders(tmp_path: Path, monkeypatch, capsys) -> None:
    a, b, c = tmp_path / "checkout-a", tmp_path / "elsewhere" / "b", tmp_path / "c"
    _runs(a)
    first = _board(a, monkeypatch)
    shutil.copytree(a, b)  # a copy *with* the score cache of `a`
    shutil.copytree(a, c, ignore=shutil.ignore_patterns(".archehr-cache", *OUTPUTS))  # a fresh clone
    assert _board(b, monkeypatch) == first
    assert _board(c, monkeypatch) == first
    for name, data in first.items():
        text = data.decode("utf-8")
        assert str(tmp_path) not in text and str(REPO) not in text, name
    # the staleness check gives the same verdict in the copy (ran from its own root, relative paths)
    capsys.readouterr()
    monkeypatch.chdir(c)
    assert main(["leaderboard", "submissions", "--key", "key", "--task", "2025", "--metrics",
                 "factuality,bleu,sari,alignscore", "--resamples", "40", "--check"]) == 0


def test_leaderboard_tables_show_provenance_status_ci_p_and_explain_partial(tmp_path: Path, monkeypatch) -> None:
    out = _board(_runs(tmp_path).parent, monkeypatch)
    md, html = out["LEADERBOARD.md"].decode(), out["leaderboard.html"].decode()
    data = json.loads(out["leaderboard.json"])
    good = next(e for e in data["entries"] if e["run"] == "good")
    weaker = next(e for e in data["entries"] if e["run"] == "weaker")
    lo, hi = weaker["ci95"]["overall_score"]
    p = weaker["vs_top"]["overall_score"]["p"]
    assert good["rank"] == 1 and weaker["rank"] == 2 and 0 <= p <= 1
    assert good["run_json"]["system"]["source"] == "good.yaml"  # recorded absolute path -> file name
    for text, ci in ((md, f"[{lo:.2f}, {hi:.2f}]"), (html, f"[{lo:.1f}, {hi:.1f}]")):
        for shown in ("good", "weaker", "missing-case", "broken", "oracle", "lexical", "0123456789ab",
                      "m.yaml", ci, "p vs #1", "invalid", "ok (partial"):
            assert shown in text, shown
        assert "case is in the key but has no answer" in text
    assert ("<0.001" if p < 0.001 else f"{p:.3f}") in md
    # `*` marks partial cells and a footnote explains it, naming what was averaged
    assert "overall_score* [" in md or "overall_score*" in md.split("Notes:")[1]
    notes = md.split("Notes:")[1]
    assert "`overall_score*` is partial" in notes and "overall_factuality_score, overall_relevance_score" in notes
    assert "`overall_relevance_score*` is partial" in notes and "bleu, sari" in notes
    assert "<code>overall_score*</code> is partial" in html and "bleu, sari only" in html
    assert "`*` = partial score" in md
