"""A release as a table: one row per note sentence, for pandas, Hugging Face `datasets` and files.

    from archehr.data import to_pandas, to_hf_dataset
    df = to_pandas("dev")                  # the bundled demo release unless data_dir / $ARCHEHR_DATA
    ds = to_hf_dataset("dev", data_dir="~/physionet/archehr-qa")   # label is a ClassLabel

Columns (`COLUMNS`): split, case_id, specialty ("|"-joined, as in the XML), patient_narrative,
patient_question (the marked phrases joined by a space), clinician_question, sentence_id,
paragraph_id, start_char_index, text, and label (essential | supplementary | not-relevant) when the
split has a key; a sentence the key does not label (or of a split without a key) has an empty label. pandas,
pyarrow and datasets are imported only when asked for (the `frames` extra); CSV and JSON Lines need none of them.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterable
from typing import Any

from archehr.atomic import write_bytes, write_text
from archehr.data.model import Relevance, Split
from archehr.errors import InputError, Problem, UnavailableError

COLUMNS = ("split", "case_id", "specialty", "patient_narrative", "patient_question", "clinician_question",
           "sentence_id", "paragraph_id", "start_char_index", "text", "label")
LABELS = tuple(r.value for r in Relevance)  # ClassLabel order: 0 essential, 1 supplementary, 2 not-relevant
FORMATS = ("csv", "jsonl", "parquet")
_INT_COLUMNS = ("paragraph_id", "start_char_index")
EXTRA_FIX = "pip install 'archehr[frames]'"


def _need(module: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise UnavailableError(module, "not installed", f"{EXTRA_FIX} (pandas, pyarrow, datasets)") from None


def _splits(split: Split | str | None, data_dir: str | os.PathLike[str] | None,
            version_dir: str | None) -> list[Split]:
    if isinstance(split, Split):
        return [split]
    from archehr.data.releases import find_release, load_split_dir, split_dir

    release = find_release(data_dir, version_dir)  # once, not again per split as load_split would
    names = list(release.split_names) if split is None else [split]
    return [load_split_dir(split_dir(release, name), name, release.version) for name in names]


def sentence_rows(splits: Iterable[Split]) -> tuple[list[dict[str, Any]], bool]:
    """(rows, keyed): one dict per note sentence; `label` is present when some split has a key (None in
    the rows of a split without one)."""
    splits = list(splits)
    keyed = any(s.key is not None for s in splits)
    rows: list[dict[str, Any]] = []
    for split in splits:
        for case in split.cases:
            key = None
            if split.key is not None:
                try:
                    key = split.key_for(case.case_id)
                except KeyError:
                    key = None
            base = {"split": split.name, "case_id": case.case_id, "specialty": "|".join(case.clinical_specialty),
                    "patient_narrative": case.patient_narrative,
                    "patient_question": " ".join(p.text for p in case.patient_question) or None,
                    "clinician_question": case.clinician_question}
            for s in case.sentences:
                row = dict(base, sentence_id=s.id, paragraph_id=s.paragraph_id, start_char_index=s.start_char_index,
                           text=s.text)
                if keyed:
                    label = key.label_of(s.id) if key is not None else None
                    row["label"] = label.value if label is not None else None
                rows.append(row)
    return rows, keyed


def _columns(keyed: bool) -> list[str]:
    return [c for c in COLUMNS if keyed or c != "label"]


def to_pandas(split: Split | str | None = "dev", data_dir: str | os.PathLike[str] | None = None,
              version_dir: str | None = None) -> Any:
    """A `pandas.DataFrame` of a split's note sentences (`split=None`: every split of the release)."""
    pd = _need("pandas")
    rows, keyed = sentence_rows(_splits(split, data_dir, version_dir))
    frame = pd.DataFrame(rows, columns=_columns(keyed))
    return frame.astype({c: "int64" for c in _INT_COLUMNS})


def hf_features(keyed: bool) -> Any:
    """The `datasets.Features` of `to_hf_dataset`: strings, int32 offsets, `label` as a ClassLabel."""
    ds = _need("datasets")
    feats: dict[str, Any] = {c: ds.Value("string") for c in _columns(keyed)}
    for c in _INT_COLUMNS:
        feats[c] = ds.Value("int32")
    if keyed:
        feats["label"] = ds.ClassLabel(names=list(LABELS))
    return ds.Features(feats)


def to_hf_dataset(split: Split | str | None = "dev", data_dir: str | os.PathLike[str] | None = None,
                  version_dir: str | None = None) -> Any:
    """A Hugging Face `datasets.Dataset` of a split's note sentences (in memory; nothing is downloaded);
    `split=None`: a `datasets.DatasetDict` with one Dataset per split of the release.

    `label` is a `ClassLabel` (0 essential, 1 supplementary, 2 not-relevant; -1 for a sentence the key
    does not label), so `ds.features["label"].int2str(...)` and `class_encode`-style training work as usual.
    """
    ds = _need("datasets")
    splits = _splits(split, data_dir, version_dir)
    if split is None:  # every split: a DatasetDict, as `datasets.load_dataset` gives, with one set of features
        keyed = any(s.key is not None for s in splits)
        return ds.DatasetDict({s.name: _dataset(ds, [s], keyed) for s in splits})
    return _dataset(ds, splits, any(s.key is not None for s in splits))


def _dataset(ds: Any, splits: list[Split], keyed: bool) -> Any:
    rows, _ = sentence_rows(splits)
    if keyed:
        for r in rows:
            r.setdefault("label", None)
    cols = _columns(keyed)
    data: dict[str, list[Any]] = {c: [r[c] for r in rows] for c in cols}
    if keyed:
        data["label"] = [LABELS.index(v) if v is not None else -1 for v in data["label"]]
    return ds.Dataset.from_dict(data, features=hf_features(keyed))


def _csv_text(rows: list[dict[str, Any]], cols: list[str]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=cols, lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({c: "" if r[c] is None else r[c] for c in cols})
    return buf.getvalue()


def _parquet_bytes(rows: list[dict[str, Any]], cols: list[str]) -> bytes:
    pa = _need("pyarrow")
    pq = _need("pyarrow.parquet")
    schema = pa.schema([(c, pa.int32() if c in _INT_COLUMNS else pa.string()) for c in cols])
    table = pa.Table.from_pylist([{c: r[c] for c in cols} for r in rows], schema=schema)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


def format_of(path: str | os.PathLike[str], fmt: str | None) -> str:
    """The export format: `fmt` when given, else the file's suffix (.csv, .jsonl/.ndjson, .parquet/.pq)."""
    if fmt is None:
        suffix = os.fspath(path).lower().rsplit(".", 1)[-1]
        fmt = {"ndjson": "jsonl", "pq": "parquet"}.get(suffix, suffix)
        if fmt not in FORMATS:
            raise InputError(Problem(f"cannot tell the format from the file name; pass --format "
                                     f"{'|'.join(FORMATS)}", os.fspath(path), field="--format", code="option"))
    if fmt not in FORMATS:
        raise InputError(Problem(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}", field="--format",
                                 code="option"))
    return fmt


def export_sentences(path: str | os.PathLike[str], fmt: str | None = None, split: Split | str | None = None,
                     data_dir: str | os.PathLike[str] | None = None, version_dir: str | None = None) -> int:
    """Write the sentence table to `path` (csv | jsonl | parquet) atomically; returns the number of rows."""
    fmt = format_of(path, fmt)
    rows, keyed = sentence_rows(_splits(split, data_dir, version_dir))
    cols = _columns(keyed)
    if fmt == "csv":
        write_text(path, _csv_text(rows, cols))
    elif fmt == "jsonl":
        write_text(path, "".join(json.dumps({c: r[c] for c in cols}, ensure_ascii=False) + "\n" for r in rows))
    else:
        write_bytes(path, _parquet_bytes(rows, cols))
    return len(rows)
