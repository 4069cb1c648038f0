"""`archehr data export` and `archehr.data.to_pandas / to_hf_dataset`: one row per note sentence."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from archehr.cli.main import main
from archehr.data import load_split, to_hf_dataset, to_pandas, write_split
from archehr.data.frames import COLUMNS, LABELS, export_sentences, sentence_rows
from archehr.data.model import Case, KeyEntry, NoteSentence, Phrase, Relevance, SentenceLabel, Split
from archehr.errors import UnavailableError

STR_COLUMNS = [c for c in COLUMNS if c not in ("paragraph_id", "start_char_index")]


def _tiny_release(root: Path) -> Path:
    """dev: two cases, the key labels only 3 of 4 sentences (a comma and a quote in the texts); test: no key."""
    sents = (NoteSentence("1", 1, 0, "Chief Complaint:"), NoteSentence("2", 2, 0, 'She said "dizzy, weak".'))
    dev = Split("dev", (
        Case("1", "Why was I dizzy? Thanks", (Phrase(0, 0, "Why was I dizzy?"),), "Why was she dizzy?",
             "Chief Complaint:\n\nShe said \"dizzy, weak\".", sents, ("Cardiology", "Neurology")),
        Case("2", "Is it serious?", (Phrase(0, 0, "Is it serious?"),), None, "A. B.",
             (NoteSentence("1", 1, 0, "A."), NoteSentence("2", 1, 3, "B.")), ()),
    ), key=(
        KeyEntry("1", (SentenceLabel("1", Relevance.NOT_RELEVANT), SentenceLabel("2", Relevance.ESSENTIAL))),
        KeyEntry("2", (SentenceLabel("2", Relevance.SUPPLEMENTARY),)),
    ))
    test = Split("test", (Case("3", "Q?", (), None, "C.", (NoteSentence("1", 1, 0, "C."),)),))
    write_split(dev, root / "dev")
    write_split(test, root / "test")
    return root


def test_rows_follow_the_release_and_key(tmp_path: Path) -> None:
    dev = load_split(_tiny_release(tmp_path), "dev")
    rows, keyed = sentence_rows([dev])
    assert keyed and [(r["case_id"], r["sentence_id"], r["label"]) for r in rows] == [
        ("1", "1", "not-relevant"), ("1", "2", "essential"), ("2", "1", None), ("2", "2", "supplementary")]
    assert rows[0]["specialty"] == "Cardiology|Neurology" and rows[0]["patient_question"] == "Why was I dizzy?"
    assert rows[2]["clinician_question"] is None and rows[3]["start_char_index"] == 3
    test_rows, test_keyed = sentence_rows([load_split(tmp_path, "test")])
    assert not test_keyed and "label" not in test_rows[0]


def test_to_pandas_demo_matches_the_key() -> None:
    pytest.importorskip("pandas", reason="the frames extra is not installed")
    dev = load_split(None, "dev")
    df = to_pandas("dev")
    assert list(df.columns) == list(COLUMNS)
    assert len(df) == sum(len(c.sentences) for c in dev.cases)
    sample = df.iloc[len(df) // 2]
    assert sample["label"] == dev.key_for(sample["case_id"]).label_of(sample["sentence_id"]).value
    assert str(df["paragraph_id"].dtype) == "int64"
    every = to_pandas(None)
    assert set(every["split"]) == set(SPLITS_OF_DEMO) and len(every) > len(df)
    assert to_pandas(dev).equals(df)


SPLITS_OF_DEMO = ("dev", "test", "test-2026", "train")  # train: the writers' voices pool (#21)


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_export_round_trip(tmp_path: Path, fmt: str) -> None:
    pd = pytest.importorskip("pandas", reason="the frames extra is not installed")
    root = _tiny_release(tmp_path / "rel")
    out = tmp_path / f"sentences.{fmt}"
    assert main(["data", "export", "--data-dir", str(root), "--split", "dev", "-o", str(out)]) == 0
    expected = to_pandas("dev", data_dir=root)
    if fmt == "csv":
        got = pd.read_csv(out, dtype={c: str for c in STR_COLUMNS}, keep_default_na=False)
        expected = expected.fillna("")  # CSV has no null: an absent value is an empty field
    elif fmt == "jsonl":
        got = pd.read_json(out, lines=True, dtype={c: str for c in STR_COLUMNS})
        assert json.loads(out.read_text().splitlines()[2])["label"] is None
    else:
        pytest.importorskip("pyarrow", reason="the frames extra is not installed")
        got = pd.read_parquet(out)
    got = got.astype({"paragraph_id": "int64", "start_char_index": "int64"})
    assert list(got.columns) == list(expected.columns)
    assert got.astype(object).where(got.notna(), None).values.tolist() == \
        expected.astype(object).where(expected.notna(), None).values.tolist()


def test_hf_dataset_features_and_labels(tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets", reason="the frames extra is not installed")
    ds = to_hf_dataset("dev", data_dir=_tiny_release(tmp_path))
    assert isinstance(ds, datasets.Dataset) and ds.num_rows == 4
    assert isinstance(ds.features["label"], datasets.ClassLabel)
    assert ds.features["label"].names == list(LABELS) == ["essential", "supplementary", "not-relevant"]
    assert ds.features["paragraph_id"].dtype == "int32" and ds.features["text"].dtype == "string"
    assert ds["label"] == [2, 0, -1, 1]
    assert ds.features["label"].int2str(ds[1]["label"]) == "essential"
    assert ds[1]["text"] == 'She said "dizzy, weak".'
    assert to_hf_dataset("test").num_rows == sum(len(c.sentences) for c in load_split(None, "test").cases)
    every = to_hf_dataset(None, data_dir=tmp_path)  # dev keyed, test not: one DatasetDict, same features
    assert isinstance(every, datasets.DatasetDict) and set(every) == {"dev", "test"}
    assert every["test"]["label"] == [-1] and every["dev"].features == every["test"].features


def test_missing_extra_names_it_and_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    for mod in ("pandas", "datasets", "pyarrow", "pyarrow.parquet"):
        monkeypatch.setitem(sys.modules, mod, None)  # makes `import mod` fail as if not installed
    with pytest.raises(UnavailableError, match=r"archehr\[frames\]"):
        to_pandas("dev")
    with pytest.raises(UnavailableError, match=r"archehr\[frames\]"):
        to_hf_dataset("dev")
    out = tmp_path / "x.parquet"
    assert main(["data", "export", "-o", str(out)]) == 3
    assert "archehr[frames]" in capsys.readouterr().err and not out.exists()
    # CSV and JSON Lines need none of them
    assert export_sentences(tmp_path / "x.csv", split="test") > 0


def test_export_bad_options_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data", "export", "-o", str(tmp_path / "x.txt")]) == 2
    assert "pass --format" in capsys.readouterr().err
    assert main(["data", "export", "-o", str(tmp_path / "x.csv"), "--format", "xlsx"]) == 2
    assert main(["data", "export", "-o", str(tmp_path / "x.csv"), "--split", "nope"]) == 2
    assert not any(tmp_path.iterdir())
