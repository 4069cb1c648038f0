"""The spaCy splitter loads without torch, and leaves `import torch` working afterwards."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from archehr.data.note_spacy import spacy_available

_PROBE = """
import sys
from archehr.data.note_split import split_note
sentences = split_note("Take the tablets. Come back in a week.", splitter="spacy").sentences
print(len(sentences), "torch" in sys.modules)
import torch
print(torch.__name__)
"""


@pytest.mark.skipif(not spacy_available(), reason="spaCy's en_core_web_sm is not installed")
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_spacy_split_does_not_import_torch_and_torch_still_imports() -> None:
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["2", "False", "torch"]


def test_torch_already_imported_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from archehr.data import note_spacy

    sentinel = object()
    monkeypatch.setitem(sys.modules, "torch", sentinel)
    note_spacy._import_without_torch("json")
    assert sys.modules["torch"] is sentinel


def test_parser_sentences_join_unless_they_end_as_a_sentence_does() -> None:
    from archehr.data.note_spacy import punctuated_ends

    text = "Hosp No: QX11 Seen today. one. fluids. 0900 Pt sat up. Urine (dip) . Clear"
    cuts = [text.index(x) for x in ("No:", "Seen", "one.", "fluids.", "0900", "Pt", "Urine", "Clear")]
    spans = list(zip([0, *cuts], [*cuts, len(text)], strict=True))
    # "Hosp" + "No: ..." and a dictated "one." alone are no sentences, nor a stamp's "0900"; "Seen today.", "one.
    # fluids." and "Pt sat up." are; a dot set apart after "(dip)" ends none
    assert [text[a:b].strip() for a, b in punctuated_ends(text, spans)] == [
        "Hosp No: QX11 Seen today.", "one. fluids.", "0900 Pt sat up.", "Urine (dip) . Clear"]


@pytest.mark.skipif(not spacy_available(), reason="spaCy's en_core_web_sm is not installed")
def test_spacy_split_keeps_checkbox_rows_and_stamps_whole() -> None:
    from archehr.data.note_split import split_note

    note = ("Allergic reaction: [ ] Yes  [x] No\n\n"
            "1415  Pt walked to the bathroom with one nurse.\n"
            "1530  Pt asleep.\n\n"
            "Potassium was 3.1 mmol/L. She was given oral potassium.\n")
    texts = [" ".join(s.text.split()) for s in split_note(note, splitter="spacy").sentences]
    assert "Allergic reaction: [ ] Yes [x] No" in texts
    assert "1415 Pt walked to the bathroom with one nurse." in texts
    assert "Potassium was 3.1 mmol/L." in texts and "She was given oral potassium." in texts
