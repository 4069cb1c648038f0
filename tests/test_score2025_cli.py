"""`archehr score` / `archehr validate` for 2025: aggregation, partial/unavailable honesty, output contract,
bad input (exit 2, nothing written), and no torch/nltk import for the lexical metrics."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from archehr.cli.main import main
from archehr.data.model import Case, KeyEntry, NoteSentence, Relevance, SentenceLabel, Split
from archehr.errors import ConfigError, DataError, SubmissionError
from archehr_scoring import api
from archehr_scoring.score2025 import score_2025
from archehr_scoring.tasks import get_task

OFFICIAL_KEYS = get_task("2025").keys

E, S, N = Relevance.ESSENTIAL, Relevance.SUPPLEMENTARY, Relevance.NOT_RELEVANT


def _split(clinician: bool = True) -> Split:
    sents = tuple(NoteSentence(str(i), 1, 0, f"Sentence number {i} about the heart.") for i in range(1, 5))
    cases = (Case("1", "My heart races.", (), "Why the pills?", "x", sents),
             Case("2", "I bruise.", (), "Why the thinner?", "x", sents))
    key = (KeyEntry("1", (SentenceLabel("1", E), SentenceLabel("2", E), SentenceLabel("3", S), SentenceLabel("4", N)),
                    None, "The pills slow the heart." if clinician else None),
           KeyEntry("2", (SentenceLabel("1", E), SentenceLabel("2", N), SentenceLabel("3", N), SentenceLabel("4", N)),
                    None, "The thinner prevents stroke." if clinician else None))
    return Split("dev", cases, key)


SUB = [{"case_id": "1", "answer": "The heart. |1,3|\nMore. |4|"}, {"case_id": "2", "answer": "Stroke risk. |2|"}]


def test_factuality_hand_values() -> None:
    r = score_2025(SUB, _split(), metrics="factuality")
    # case 1 strict: pred {1,3,4}, gold {1,2}: tp 1 fp 2 fn 1 -> P 1/3 R 1/2; case 2: pred {2}, gold {1}: 0/0/0.
    assert r.scores["strict_macro_precision"] == pytest.approx(100 * (1 / 3) / 2)
    assert r.scores["strict_macro_recall"] == pytest.approx(100 * (1 / 2) / 2)
    # micro: tp 1, fp 3, fn 2 -> P 1/4, R 1/3, F1 2/7
    assert r.scores["strict_micro_f1"] == pytest.approx(100 * 2 / 7)
    assert r.scores["overall_factuality_score"] == r.scores["strict_micro_f1"]
    # lenient case 1: gold {1,2,3}: tp 2 fp 1 fn 1
    assert r.per_case["1"]["lenient_tp"] == 2 and r.per_case["1"]["lenient_fp"] == 1
    assert list(r.scores) == list(OFFICIAL_KEYS)
    assert r.scores["bleu"] is None and r.partial == {}


def test_unavailable_metric_is_null_and_partial_is_labelled() -> None:
    params = {"bertscore": {"model": "/nonexistent/model-folder"}}
    r = score_2025(SUB, _split(), metrics="factuality,bleu,rouge,sari,bertscore", metric_params=params)
    assert r.scores["bertscore"] is None and "does not exist" in r.unavailable["bertscore"]
    assert r.scores["overall_relevance_score"] is None and r.scores["overall_score"] is None
    part = r.partial["overall_relevance_score"]
    assert part.averaged == ("rougeLsum", "bleu", "sari")
    assert set(part.missing) == {"alignscore", "medcon", "bertscore"}
    assert part.value == pytest.approx((r.scores["rougeLsum"] + r.scores["bleu"] + r.scores["sari"]) / 3)
    assert "ref:essential" in r.signatures["bleu"]


def test_reference_clinician_and_errors() -> None:
    ess = score_2025(SUB, _split(), metrics="rouge")
    cli = score_2025(SUB, _split(), metrics="rouge", reference="clinician")
    assert cli.scores["rouge1"] != ess.scores["rouge1"] and "ref:clinician" in cli.signatures["rouge"]
    with pytest.raises(DataError) as e:
        score_2025(SUB, _split(clinician=False), metrics="rouge", reference="clinician")
    assert len(e.value.problems) == 2 and e.value.problems[0].case_id == "1"
    with pytest.raises(ConfigError):
        score_2025(SUB, _split(), metrics="blue")
    with pytest.raises(SubmissionError) as e:
        score_2025(SUB[:1] + [{"case_id": "9", "answer": "x |1|"}], _split(), metrics="bleu")
    assert {p.code for p in e.value.problems} == {"missing-case", "unknown-case"}


def test_uncited_case_is_scored_with_warning() -> None:
    r = score_2025([{"case_id": "1", "answer": "No citation."}, SUB[1]], _split(), metrics="factuality")
    assert r.per_case["1"]["strict_tp"] == 0 and r.per_case["1"]["strict_fn"] == 2
    assert any(w.code == "warning-no-citation" and w.case_id == "1" for w in r.warnings)


def test_bootstrap_is_deterministic() -> None:
    a = score_2025(SUB, _split(), metrics="factuality,bleu", bootstrap=50, seed=3)
    b = score_2025(SUB, _split(), metrics="factuality,bleu", bootstrap=50, seed=3)
    assert a.ci == b.ci and a.ci and "strict_micro_f1" in a.ci
    lo, hi = a.ci["bleu"]
    assert lo <= hi and a.meta["bootstrap"] == {"n": 50, "seed": 3, "level": 0.95}


def test_detect_task() -> None:
    assert api.detect_task(SUB) == "2025"
    with pytest.raises(SubmissionError):
        api.detect_task({"case_id": "1"})


# --- CLI ------------------------------------------------------------------------------------------------------------

def _files(tmp_path: Path, golden_dir: Path, synthetic_dir: Path) -> tuple[Path, Path]:
    return golden_dir / "2025" / "dev-traps" / "submission.json", synthetic_dir / "dev" / "archehr-qa_key.json"


def test_cli_json_contract_and_per_case(tmp_path: Path, golden_dir: Path, synthetic_dir: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    sub, key = _files(tmp_path, golden_dir, synthetic_dir)
    per_case = tmp_path / "pc.json"
    rc = main(["score", str(sub), str(key), "--metrics", "factuality,bleu,rouge,sari", "--format", "json",
               "--per-case", str(per_case), "-q"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    expected = json.loads((golden_dir / "2025" / "dev-traps" / "expected.json").read_text())
    assert set(out) == set(OFFICIAL_KEYS) | {"_meta"} == (set(expected) - {"_per_case"}) | {"_meta"}
    assert out["bleu"] == pytest.approx(expected["bleu"], rel=1e-9)
    assert out["alignscore"] is None and "signatures" in out["_meta"] and out["_meta"]["warnings"]
    rows = json.loads(per_case.read_text())
    assert [r["case_id"] for r in rows] == [str(i) for i in range(1, 9)] and "answer_as_scored" in rows[0]
    for fmt in ("text", "csv", "md"):
        assert main(["score", str(sub), str(key), "--metrics", "bleu", "--format", fmt, "-q"]) == 0
        assert "bleu" in capsys.readouterr().out


def test_cli_bad_input_exit_2_nothing_written(tmp_path: Path, synthetic_dir: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    key = synthetic_dir / "dev" / "archehr-qa_key.json"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"case_id": "1", "answer": 5}, {"case_id": "1", "answer": "x |1|"},
                               {"case_id": "77", "answer": "y |1|"}]))
    out = tmp_path / "pc.csv"
    assert main(["score", str(bad), str(key), "--metrics", "bleu", "--per-case", str(out)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "case 77" in err and "duplicate case id" in err
    assert len([ln for ln in err.splitlines() if ln.startswith("error:")]) >= 8  # one line per problem
    assert not out.exists()
    (tmp_path / "nojson.json").write_text("{not json")
    assert main(["score", str(tmp_path / "nojson.json"), str(key)]) == 2


def test_cli_validate_json_and_fix(tmp_path: Path, golden_dir: Path, synthetic_dir: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    sub = golden_dir / "2025" / "dev-traps" / "submission.json"
    fixed = tmp_path / "fixed.json"
    rc = main(["validate", str(sub), "--data", str(synthetic_dir / "dev" / "archehr-qa.xml"), "--format", "json",
               "--fix", str(fixed)])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert out["errors"] == [] and out["warnings"]
    w = out["warnings"][0]
    assert {"case_id", "line", "code", "message", "answer_line"} <= set(w)
    assert main(["validate", str(fixed), "--data", str(synthetic_dir / "dev" / "archehr-qa.xml"),
                 "--format", "json"]) == 0
    after = json.loads(capsys.readouterr().out)["warnings"]
    assert not [x for x in after if x["code"] in ("warning-citation-space", "warning-mid-line-citation",
                                                  "warning-unknown-id", "warning-bracket-citation")]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"case_id": 1, "answer": "x"}]))
    assert main(["validate", str(bad), "--format", "json", "--task", "2025", "--fix", str(tmp_path / "o.json")]) == 2
    assert json.loads(capsys.readouterr().out)["errors"] and not (tmp_path / "o.json").exists()


@pytest.mark.parametrize("metrics", [["--metrics", "factuality,bleu,rouge,sari"], []], ids=["lexical", "default"])
def test_lexical_metrics_never_import_torch_nor_nltk(golden_dir: Path, synthetic_dir: Path, tmp_path: Path,
                                                      metrics: list[str]) -> None:
    """Nor do the default metrics when the model ones are unavailable: their signatures read versions from
    package metadata (importing nltk pulls in scipy, seconds of a first run)."""
    sub = golden_dir / "2025" / "dev-traps" / "submission.json"
    key = synthetic_dir / "dev" / "archehr-qa_key.json"
    code = ("import sys\nfrom archehr.cli.main import main\n"
            f"rc = main(['score', {str(sub)!r}, {str(key)!r}, *{metrics!r}, '-q'])\n"
            "heavy = sorted(m for m in ('torch', 'transformers', 'nltk', 'scipy', 'bert_score', 'sklearn')\n"
            "               if m in sys.modules)\n"
            "print('HEAVY', heavy, rc)\n")
    # an empty HF cache: BERTScore unavailable here as AlignScore (no checkpoint) and MEDCON (no index) are
    env = {**os.environ, "HF_HOME": str(tmp_path / "hf"), "HF_HUB_CACHE": str(tmp_path / "hf" / "hub")}
    env.pop("HUGGINGFACE_HUB_CACHE", None)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert "HEAVY [] 0" in out.stdout, out.stdout + out.stderr
