"""Phrasings that say the fact a question asks is not given yet: a result awaited ("results to follow", "histo
pending"), a date unset ("appointment letter to follow", "f/u TBD", "on the waiting list"), a duration or stop point
left open ("until review", "as directed", "GP to review need"), a decision not made ("no decision yet", "to be
discussed with the dietitian", "dose to be confirmed").

The list is data (`undetermined.tsv` beside this module: the missing fact, then the phrase, lower case), written from
how notes, letters, portal summaries, nursing logs and results reports word such things, not from the writers' notes.
`review.fact_undetermined` flags an answer whose first line says so of the asked kind of fact.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from archehr.answerability.spaces import fold
from archehr.errors import DataError, Problem

PATH = Path(__file__).resolve().parent / "undetermined.tsv"
FACTS = ("result", "date", "duration", "decision")
# which missing fact answers each kind of question as "not known yet" (a why question's cause has no such form)
ASKED_FACTS = {"test_result": ("result",), "when": ("date",), "how_long": ("duration",), "may_i": ("decision",),
               "med_change": ("decision",)}


@functools.lru_cache(maxsize=4)
def load(path: Path = PATH) -> dict[str, tuple[str, ...]]:
    """The phrases of each missing fact (`FACTS`), in file order; lines starting with # are comments."""
    out: dict[str, list[str]] = {f: [] for f in FACTS}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fact, _, phrase = line.partition("\t")
        if fact not in out or not phrase.strip():
            raise DataError(Problem(f"expected '<{'|'.join(FACTS)}>\\t<phrase>', got {line!r}", str(path), line=n))
        out[fact].append(fold(phrase.lower()))
    return {f: tuple(p) for f, p in out.items()}


@functools.lru_cache(maxsize=16)
def _pattern(facts: tuple[str, ...], path: Path = PATH) -> re.Pattern[str] | None:
    """One alternation of the facts' phrases, longest first, each between non-word characters (spaces match any
    run of white space: a note wraps its lines anywhere)."""
    table = load(path)
    phrases = sorted({p for f in facts for p in table[f]}, key=len, reverse=True)
    if not phrases:
        return None
    body = "|".join(r"\s+".join(re.escape(w) for w in p.split()) for p in phrases)
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)", re.I)


def undetermined(text: str, facts: tuple[str, ...], path: Path = PATH) -> list[str]:
    """The phrases of `facts` the text says (lower case, white space made single), in order: empty when none."""
    pattern = _pattern(tuple(facts), path)
    if pattern is None:
        return []
    return [fold(m.group(0).lower()) for m in pattern.finditer(text)]


def asked_undetermined(kind: str, text: str, path: Path = PATH) -> list[str]:
    """The phrases by which `text` says the fact a question of this kind asks (`ASKED_FACTS`) is not given yet."""
    facts = ASKED_FACTS.get(kind)
    return undetermined(text, facts, path) if facts else []
