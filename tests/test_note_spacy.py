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
