"""The note sentences of the members' cases, for the content support of a 2025 vote (`combine.py`).

Read from the split folder the members' run.json names (`data`), without its key: the note sentences are the
members' input, so using them is no peeking. An ensemble whose settings use the content support and whose
members' data folder is not here, or does not hold one of their cases, is refused with one error naming the
run.json field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path

from archehr.ensemble.members import RUN_JSON, Member
from archehr.errors import InputError, Problem


@lru_cache(maxsize=8)
def _read(folder: str) -> dict[str, dict[str, str]]:
    from archehr_scoring.api import cases_only_split

    return {c.case_id: {s.id: s.text for s in c.sentences} for c in cases_only_split(folder).cases}


def notes_here(members: Sequence[Member]) -> bool:
    """Whether the members' data folder is here (the content support can be used)."""
    data = members[0].data
    return bool(data) and Path(str(data)).exists()


def note_texts(members: Sequence[Member]) -> Mapping[str, Mapping[str, str]]:
    """{case: {sentence id: text}} of the members' cases, from their data folder; InputError when absent."""
    where = str(Path(members[0].path) / RUN_JSON)
    if not notes_here(members):
        raise InputError(Problem(f"the content support reads the note sentences, and the members' data folder "
                                 f"{members[0].data!r} is not here", where, field="data", code="no-notes"))
    texts = _read(str(Path(str(members[0].data)).resolve()))
    missing = [c for c in members[0].case_ids if c not in texts]
    if missing:
        raise InputError(Problem(f"the members' data folder has no case {missing[0]!r}", where, field="data",
                                 code="no-notes"))
    return texts
