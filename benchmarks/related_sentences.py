"""Related sentences of a decline: are the sentences `archehr answer` shows beside "The note does not say." about the
question, or the note's header fields?

For the everyday questions of the writers given (`benchmarks/everyday.py`'s WRITERS), each question is answered as
`archehr answer` answers it (default system, answerability and ranker); a declined question's related sentences are
the ones shown. Every unanswerable question is also asked once more with a decline forced (an answerability model
that always declines), so that what would be shown beside a decline is measured for all of them, answered or not.
Two groups are reported: the questions declined, and the unanswerable questions (with the forced decline's related
sentences when they were answered). Per group:

- shown: the mean number of related sentences, and the share of questions shown none;
- field: the share of questions with at least one related sentence that is a field, and the share of related
  sentences that are one. A field, as defined here (independently of the code that chooses): a section title
  (`relevance.text.is_header`), a line whose text once its blanks ("___") and its dates and times are removed keeps
  no word of two letters or more, a label and a value ("Admission Date: ___") whose value keeps no such word and no
  number, or whose label names the patient, the writer or the document (`_ID_LABELS`: "Patient:", "DOB:",
  "Consultant:", "Ward:", with a value of at most 8 words), or a signature ("Electronically signed by",
  a name with "MD", "RN" ...);
- topic: the share of questions shown at least one sentence naming the question's topic (a concept of the
  question, with the glossary's synonyms, classes and brand names: `AnswerTypes.topic` > 0);
- topic or kind: ... naming the topic or holding the asked kind of answer (`AnswerTypes.holds`: the kind's own
  pattern, a date or appointment for a when question, a duration for how long, a medication change ...); and the
  same with the kind in its firm form (`AnswerTypes.firm`: for a when question a date, an interval to come or a
  booked slot, not "today", "next" or "until"; the other kinds as `holds`), per question and per related sentence;
- gold (declined answerable questions): the share shown at least one sentence that answers.

    python benchmarks/related_sentences.py --writers A J AV CW DH DL DM DO
    python benchmarks/related_sentences.py --writers AV --show 10 --dump related.jsonl
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import everyday  # noqa: E402

import archehr  # noqa: E402
from archehr.answerability.model import AnswerabilityModel  # noqa: E402

# labels whose value names the patient, the writer, the place or the document, never what was found or planned
_ID_LABELS = re.compile(r"(?:patient(?: name)?|name|dob|d\.o\.b|date of birth|mrn|nhs (?:no|number)|unit no|"
                        r"(?:medical )?record (?:no|number)|hosp(?:ital)? (?:no|number)|address|phone|tel|telephone|"
                        r"fax|e-?mail|(?:electronically )?signed(?: by)?|dictated(?: by)?|typed|transcribed|"
                        r"attending|consultant|provider|author|clinician|clinic|hospital|service|department|ward|"
                        r"bed|room|page|cc|to|from|re|age|sex|gender|id|admission date|discharge date|"
                        r"date of (?:service|visit))", re.I)
_BLANKS = re.compile(r"_{2,}|\[\*\*[^\]]*\*\*\]")
_DATES = re.compile(r"\b\d{1,4}(?:[/.-]\d{1,2}){1,2}(?:[/.-]\d{2,4})?\b|\b\d{1,2}:\d{2}(?::\d{2})?\s*(?:am|pm)?\b|"
                    r"\b(?:am|pm)\b", re.I)
_WORD = re.compile(r"[A-Za-z]{2,}")
_LABEL = re.compile(r"^\s*([A-Za-z][A-Za-z .'/()&#-]{0,40}?)\s*:\s*(.*)$", re.S)
# (the letters after a name in capitals: "do not" is no "DO")
_SIGNED = re.compile(r"^\W*(?i:electronically\s+)?(?i:signed|dictated|transcribed|authenticated)\b|"
                     r"^[^.]{0,60},\s*(?:MD|DO|MBBS|MBChB|FRCP\w*|RN|NP|PA-?C?|PharmD|DPT|MRCP\w*)\b")


def is_field(text: str) -> bool:
    """A header, blank or identity field, or a signature (the benchmark's own definition, see the docstring)."""
    from archehr.relevance.text import is_header

    t = " ".join(text.split())
    if is_header(t) or _SIGNED.search(t):
        return True
    plain = _DATES.sub(" ", _BLANKS.sub(" ", t))
    if not _WORD.search(plain):
        return True
    m = _LABEL.match(plain)
    if m is None:
        return False
    label, value = m.group(1), m.group(2)
    return not (_WORD.search(value) or re.search(r"\d", value)) or (bool(_ID_LABELS.fullmatch(label.strip()))
                                                                     and len(value.split()) <= 8)


class _Declines(AnswerabilityModel):
    """An answerability model that always declines: what a decline would show, for a question answered."""

    def __init__(self) -> None:
        from archehr.answerability.model import load_model

        lexical = load_model("lexical")
        super().__init__("declines", lexical.scaler, lexical.head, lexical.background, threshold=1.0,
                         review_level=1.0)

    def probability(self, case: Any, glossary: Any = None) -> float:
        return 0.0


def _types(q: everyday.Question) -> Any:
    from archehr.answerability.kinds import answer_types
    from archehr.ask import read_question
    from archehr.data.note_split import note_case
    from archehr.glossary import load_lexicon

    case, _ = note_case(q.note, read_question(q.question)[0])
    return answer_types(case, load_lexicon())


def measure(q: everyday.Question, system: Any, declines: Any) -> dict[str, Any]:
    """One question: its answer as given, and the related sentences a decline shows (forced when it was answered)."""
    extra = {"ranker": everyday.RANKER}
    r = archehr.answer(q.note, q.question, system=system, **extra)
    forced = r if r.abstained else archehr.answer(q.note, q.question, system=system, answerability=declines,
                                                    **extra) if not q.answerable else None
    row: dict[str, Any] = {"id": q.qid, "source": q.source, "question": q.question, "answerable": q.answerable,
                           "kind": r.kind, "abstained": r.abstained, "answer": r.answer, "confidence": r.confidence,
                           "flagged": r.flagged, "cited": [s.id for s in r.cited]}
    if forced is None:
        return row
    row["related"] = marked(q, [s.id for s in forced.related])
    row["related_note"] = getattr(forced, "related_note", "")
    return row


def marked(q: everyday.Question, ids: list[str]) -> list[dict[str, Any]]:
    """The related sentences (by id) with what they are: a field, on the topic, of the asked kind, an answer."""
    types = _types(q)
    firm = types.holds if types.firm is None else types.firm
    index = {s.id: i for i, s in enumerate(q.note.sentences)}
    return [{"id": sid, "text": " ".join(q.note.sentences[index[sid]].text.split())[:160],
             "field": is_field(q.note.sentences[index[sid]].text), "topic": bool(types.topic[index[sid]] > 0),
             "kind": bool(types.holds[index[sid]]), "firm": bool(firm[index[sid]]), "gold": sid in q.gold}
            for sid in ids]


def rescored(q: everyday.Question, row: dict[str, Any]) -> dict[str, Any]:
    """A dumped row with its related sentences marked again (by this file's definitions, this checkout's types)."""
    return {**row, "related": marked(q, [s["id"] for s in row["related"]])} if "related" in row else row


def _share(xs: list[bool]) -> str:
    return f"{100 * float(np.mean(xs)):.1f}%" if xs else "-"


def summary(name: str, rows: list[dict[str, Any]]) -> str:
    rel = [r["related"] for r in rows]
    sents = [s for rs in rel for s in rs]
    gold = [any(s["gold"] for s in rs) for r, rs in zip(rows, rel, strict=True) if r["answerable"]]
    return (f"| {name} | {len(rows)} | {np.mean([len(rs) for rs in rel]) if rel else 0:.2f} | "
            f"{_share([not rs for rs in rel])} | {_share([any(s['field'] for s in rs) for rs in rel])} | "
            f"{_share([s['field'] for s in sents])} | {_share([any(s['topic'] for s in rs) for rs in rel])} | "
            f"{_share([any(s['topic'] or s['kind'] for s in rs) for rs in rel])} | "
            f"{_share([any(s['topic'] or s['firm'] for s in rs) for rs in rel])} | "
            f"{_share([s['topic'] or s['firm'] for s in sents])} | "
            f"{_share(gold) if gold else '-'} ({len(gold)}) |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--writers", nargs="+", default=["A", "J", "AV", "CW", "DH", "DL", "DM", "DO"], metavar="W")
    ap.add_argument("--questions", nargs="+", type=Path, help="questions files instead of --writers")
    ap.add_argument("--dump", type=Path, help="write each question's row as a JSON line here")
    ap.add_argument("--show", type=int, default=0, metavar="N", help="print the related sentences of N questions")
    ap.add_argument("--ranker", default="auto", help="archehr.answer's ranker (as benchmarks/everyday.py)")
    ap.add_argument("--rescore", type=Path, metavar="DUMP",
                    help="answer nothing: mark the related sentences of an earlier --dump of the same questions again "
                         "(another checkout's, say) and print its table")
    args = ap.parse_args(argv)
    everyday.RANKER = args.ranker
    from archehr.pipeline import load_system

    paths = args.questions or [everyday.ROOT / "data" / "everyday" / f for w in args.writers
                               for f in everyday.WRITERS[w]]
    qs = everyday.load_questions(paths)
    if args.rescore:
        by_id = {(q.source, q.qid): q for q in qs}
        rows = [json.loads(line) for line in args.rescore.read_text(encoding="utf-8").splitlines() if line.strip()]
        rows = [rescored(by_id[(r["source"], r["id"])], r) for r in rows]
    else:
        system, declines = load_system(None), _Declines()
        rows = [measure(q, system, declines) for q in qs]
    if args.dump:
        args.dump.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    declined = [r for r in rows if r["abstained"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    print(f"related sentences of a decline: {len(rows)} questions ({len(unanswerable)} unanswerable, "
          f"{len(declined)} declined)")
    print("| questions | n | shown (mean) | none shown | with a field | related that are fields | with one on topic "
          "| with one on topic or of the asked kind | ... or of its firm form | related on topic or of the firm "
          "kind | with one that answers (answerable) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print(summary("declined", declined))
    print(summary("unanswerable", unanswerable))
    for r in unanswerable[:args.show]:
        print(f"\n{r['id']} [{r['kind']}] {r['question']}" + (" (declined)" if r["abstained"] else ""))
        if r.get("related_note"):
            print(f"  -- {r['related_note']}")
        for s in r["related"]:
            marks = "".join(m for m, on in (("F", s["field"]), ("T", s["topic"]), ("K", s["kind"])) if on)
            print(f"  ({s['id']}) [{marks}] {s['text']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
