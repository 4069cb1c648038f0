"""Answerability data: (note, question, answerable?) items built from the demo case files.

Three sources, all fictional:

- `own`: a labelled case's patient question (its marked phrases, joined), asked of its own note
  (answerable: a clinician answered it from that note);
- `moved`: a case's question asked of another case's note on another topic (unanswerable). A pair is
  kept only when the two cases share no clinical specialty; the pairs were then read by hand and the
  ones a note does answer
  (e.g. a generic "will he walk again?" on an orthopaedic note) listed in `MOVED_EXCLUDED`;
- `written`: questions written for a note that it cannot answer (a drug never mentioned, a test never
  done, a date the note does not give): each case file's `unanswerable_questions`, and for the legacy
  cases `data/answerability/legacy-unanswerable.yaml`; and, marked `length_matched`, two per case from
  `data/answerability/length-matched-unanswerable.yaml`, written to match the patients' own questions
  in length and style (the first written ones are half as long, so length alone told them apart).

Each item is a one-case `Case` built as `archehr answer` builds one from a raw question: the question
is the patient question, the narrative and the clinician's rewording (a raw question has neither).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from archehr.answerability.cues import cue_table
from archehr.answerability.spaces import fold
from archehr.data.model import Case, NoteSentence, Phrase
from archehr.errors import DataError, Problem

SOURCES = ("own", "moved", "written")

# Moved pairs (question's case, note's case) read by hand and found answerable from the other note, or
# too close to call: a bleed question on another bleed note, a blood-thinner question on a note that
# starts one, "will she go back to how she was" on another confused patient, a re-operation question
# on a note with a re-operation, recurrence questions on notes that discuss recurrence.
MOVED_EXCLUDED: frozenset[tuple[str, str]] = frozenset({
    ("224", "7"), ("218", "1"), ("6", "13"), ("204", "211"), ("3", "10"), ("211", "218"), ("216", "223"),
    ("203", "210"),
    # new voices: generic driving / lifting / diet questions that the other note's instructions answer,
    # and a blood-count question on a note that reports it
    ("379", "393"), ("383", "390"), ("376", "390"), ("334", "341"), ("384", "391"), ("317", "324"),
})

_TYPE_RULES = cue_table("type")


def question_type(question: str) -> str:
    """A coarse type of a patient question: should I / why / was my X low / when / will / what / other."""
    for name, pattern in _TYPE_RULES:
        if pattern.search(question):
            return name
    return "other"


@dataclass(frozen=True)
class Item:
    """One (note, question) pair with its answerability label."""

    item_id: str
    note_case: str  # the case whose note is asked
    question_case: str  # the case the question was written for
    voice: str  # the writer of the note's case file (held-out folds group by it)
    split: str
    question: str
    answerable: bool
    source: str  # own | moved | written
    case: Case
    length_matched: bool = False  # a written question matched in length and style to the patients' own


    @property
    def qtype(self) -> str:
        return question_type(self.question)


@dataclass(frozen=True)
class SourceCase:
    case_id: str
    split: str
    voice: str
    specialty: tuple[str, ...]
    questions: tuple[str, ...]
    unanswerable: tuple[str, ...]
    sentences: tuple[NoteSentence, ...]
    path: str

    @property
    def note_text(self) -> str:
        return " ".join(s.text for s in self.sentences)


def read_source_case(path: Path) -> SourceCase:
    """The fields answerability needs from one `data/demo-src` case file (ids numbered as build_demo does)."""
    try:
        d = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise DataError(Problem(f"cannot read the case file: {e}", str(path))) from None
    if not isinstance(d, dict) or "case_id" not in d or "note" not in d:
        raise DataError(Problem("not a demo case file (needs case_id and note)", str(path)))
    sentences, n = [], 0
    for p_id, para in enumerate(d["note"], start=1):
        offset = 0
        for _label, text in para:
            n += 1
            sentences.append(NoteSentence(str(n), p_id, offset, str(text)))
            offset += len(str(text)) + 1
    return SourceCase(str(d["case_id"]), str(d.get("split", "")), str(d.get("voice", "")),
                      tuple(d.get("clinical_specialty") or ()), tuple(d.get("patient_question") or ()),
                      tuple(d.get("unanswerable_questions") or ()), tuple(sentences), str(path))


def question_case(case_id: str, question: str, sentences: tuple[NoteSentence, ...],
                  specialty: tuple[str, ...] = ()) -> Case:
    """The one-case `Case` `archehr answer` would build: the question stands for narrative and rewording."""
    q = fold(question)
    note = "\n".join(s.text for s in sentences)
    return Case(case_id, q, (Phrase(0, 0, q),), q, note, sentences, specialty)


def load_legacy_unanswerable(path: Path) -> dict[str, tuple[str, ...]]:
    """case id -> written unanswerable questions, from `legacy-unanswerable.yaml`."""
    try:
        d = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as e:
        raise DataError(Problem(f"cannot read the unanswerable questions: {e}", str(path))) from None
    out = {}
    for cid, qs in d.items():
        if not isinstance(qs, list) or not all(isinstance(q, dict) and str(q.get("q", "")).strip() for q in qs):
            raise DataError(Problem("each case needs a list of {q: ..., absent: [...]}", str(path), str(cid)))
        out[str(cid)] = tuple(str(q["q"]) for q in qs)
    return out


def moved_pairs(cases: Iterable[SourceCase], per_case: int = 1) -> list[tuple[SourceCase, SourceCase]]:
    """(question's case, note's case) pairs on other topics: no shared specialty, no question content word
    list; each question case is moved to the next `per_case` such cases in a fixed order."""
    cs = sorted(cases, key=lambda c: (c.split, len(c.case_id), c.case_id))
    out = []
    for i, qc in enumerate(cs):
        got = 0
        for k in range(1, len(cs)):
            nc = cs[(i + k * 7) % len(cs)]  # a stride so neighbours (often one writer's batch) are not all used
            if nc.case_id == qc.case_id or set(qc.specialty) & set(nc.specialty):
                continue
            if (qc.case_id, nc.case_id) in MOVED_EXCLUDED:
                continue
            out.append((qc, nc))
            got += 1
            if got >= per_case:
                break
    return out


def load_items(src_dir: str | Path, legacy_file: str | Path | None = None,
               splits: tuple[str, ...] = ("dev", "train"), moved_per_case: int = 1,
               matched_file: str | Path | None = None) -> list[Item]:
    """Every answerability item of the case files in `src_dir` whose split is in `splits`; `matched_file`
    (same format as `legacy_file`, any voice) adds written questions marked `length_matched`."""
    src = Path(src_dir)
    every = [read_source_case(p) for p in sorted(src.glob("case-*.yaml"))]
    cases = [c for c in every if c.split in splits]
    if not cases:
        raise DataError(Problem(f"no case files of split(s) {', '.join(splits)}", str(src)))
    legacy = load_legacy_unanswerable(Path(legacy_file)) if legacy_file else {}
    matched = load_legacy_unanswerable(Path(matched_file)) if matched_file else {}
    unknown = sorted(set(matched) - {c.case_id for c in every}, key=lambda x: (len(x), x))
    if unknown:
        raise DataError(Problem(f"questions for case(s) not in {src}: {', '.join(unknown)}", str(matched_file)))
    items: list[Item] = []

    def add(nc: SourceCase, qc: SourceCase, q: str, answerable: bool, source: str, k: int,
            length_matched: bool = False) -> None:
        iid = f"{nc.case_id}:{source}:{qc.case_id}:{k}"
        items.append(Item(iid, nc.case_id, qc.case_id, nc.voice, nc.split, q, answerable, source,
                          question_case(iid, q, nc.sentences, nc.specialty), length_matched))

    for c in cases:
        if c.questions:
            add(c, c, " ".join(c.questions), True, "own", 0)
        written = c.unanswerable + (legacy.get(c.case_id, ()) if c.voice.startswith("legacy") else ())
        for k, q in enumerate(written):
            add(c, c, q, False, "written", k)
        for k, q in enumerate(matched.get(c.case_id, ()), start=len(written)):
            add(c, c, q, False, "written", k, length_matched=True)
    for qc, nc in moved_pairs(cases, moved_per_case):
        if qc.questions:
            add(nc, qc, " ".join(qc.questions), False, "moved", 0)
    return items
