"""Raw clinical note -> numbered sentences with character offsets (what a release's XML gives ready-made).

Clinical notes defeat plain sentence splitters in known ways, so the note is first cut into units by
rules, and only running prose goes to the sentence splitter (spaCy's small English model when it is
installed, else a rule-based splitter; `splitter=` chooses):

- paragraphs are separated by blank lines (the official `paragraph_id`; offsets inside the paragraph
  are the official `start_char_index`);
- a section header on its own line ("Brief Hospital Course:") is one sentence; a header followed by
  text on its line ("Chief Complaint: dyspnea") stays with that text, as the releases do;
- each bullet or numbered list item ("- ", "* ", "1. ", "2) ", "# Problem:") starts a new unit, and
  its wrapped continuation lines stay with it;
- a lab line ("Glucose 512, Na 129, K 5.8, ...", "WBC-7.5 RBC-3.12* Hgb-9.3*") is cut only at a plain
  ". Capital" or before a timed result ("___ 07:15PM BLOOD ..."): its decimals, asterisks and dashes
  are not sentence ends;
- wrapped prose lines are joined before splitting, and afterwards a split after a title ("Dr.",
  "Mrs."), after a dosing or Latin abbreviation followed by lower case ("b.i.d. with meals"), or
  around a lone `___` de-identification placeholder or list marker is undone.

Every sentence keeps its offsets into the note: `note[s.start:s.end] == s.text` always holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from archehr.data.model import Case, NoteSentence, Phrase
from archehr.data.note_doc_stamps import doc_stamp_cuts
from archehr.data.note_entries import opens_medicine_entry
from archehr.data.note_layout import ITEM, ORDER_COLUMN, PIPES, WORD_NUMBER
from archehr.data.note_ocr import is_double_spaced, single_spaced
from archehr.data.note_sections import soap_letters_apart, writes_labelled_paragraphs
from archehr.data.note_sentence_edits import appointment_cuts, lower_case_cuts, order_cuts, query_cuts, should_join
from archehr.data.note_spacy import SPACY_FIX, spacy_available, spacy_segmenter
from archehr.data.note_units import SECTION_LETTER, Unit, units
from archehr.data.note_wrap import is_lab_line, text_lines, wrap_width
from archehr.errors import InputError, Problem

SPLITTERS = ("auto", "spacy", "rules")

# an inline list's next marker at a sentence's end, and its item's marker at a sentence's start: a number, or a number
# in words as a plan copied from a dictation or a PDF writes them ("Plan: one. Continue the depot. two. Next ...")
_TRAILING_MARKER = re.compile(rf"\s+(\d{{1,2}}|{WORD_NUMBER})[.)]$")
_LEADING_MARKER = re.compile(rf"^(\d{{1,2}}|{WORD_NUMBER})[.)]\s")
_NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def _marker_number(marker: str) -> int:
    return int(marker) if marker.isdigit() else _NUMBER_WORDS.index(marker.lower()) + 1


def _next_item_cut(text: str, s: int, e: int, unit_end: int) -> int | None:
    """Where text[s:e], a sentence, ends before the next item's marker run onto it ("1. Apixaban 5 mg PO BID 2." +
    "Atorvastatin ...": the "2." opens the next item), or None: the marker is the number after the sentence's own
    item's, of its kind (digits after digits, words after words), or the first after a label's colon ("Plan: 1." +
    "Stop ..."; in words only before a "two." in the unit, "Children: one." + "Works as ..." is a field)."""
    prev = text[s:e]
    m, first = _TRAILING_MARKER.search(prev), _LEADING_MARKER.match(prev)
    # (a number that the next line opens with as its item ends a sentence here: "2. Stop bleomycin from
    # cycle 3. Repeat lung function tests are not needed." over "3. End-of-treatment PET-CT ...")
    if m is None or re.match(rf"{m.group(1)}[.)]\s", text[unit_end:].lstrip()):
        return None
    marker = m.group(1)
    follows = first is not None and first.group(1).isdigit() == marker.isdigit() \
        and _marker_number(marker) == _marker_number(first.group(1)) + 1
    opens = _marker_number(marker) == 1 and prev[:m.start()].endswith(":") \
        and (marker.isdigit() or re.search(r"\btwo[.)]\s", text[e:unit_end], re.IGNORECASE) is not None)
    return s + m.start() if follows or opens else None
# a new timed result in a run of lab records: "... Plt Ct-201 ___ 07:15PM BLOOD Glucose-168* ..."
_LAB_BOUNDARY = re.compile(r"(?:(?<!\.\.)[.!?][\"')\]]*\s+(?=[A-Z0-9#(\[_\"'])"
                           r"|\s+(?=(?:___|\[\*\*[^*\]]*\*\*\])\s+\d{1,2}:\d{2}\s?[AP]M\b))")
# (a dot leader, "A1c ........ 9.2", two dots set apart, "HIV test, rectal .. Pending", or one, "Pregnancy test (urine)
# . Negative", ends no sentence;
# a test named in mixed case opens one: "... protein and blood. dsDNA and C3/C4 sent")
_RULE_BOUNDARY = re.compile(r"(?<!\.\.)(?<! )(?<! \.)[.!?][\"')\]]*\s+(?=[A-Z0-9#(\[_\"']|[a-z]{1,2}[A-Z]{2})"
                            # a patient's message starts sentences in lower case ("blisters on it. it's been
                            # burning", "thanks. do I need ..."): after a word, before a word that opens one
                            # (or an English word of two letters, "blisters on it. it's been", "woke me up. it";
                            # short forms of two letters end no sentence: "1 g po. she settled", "pt. is")
                            r"|(?:(?<=[a-z]{3}[.!?])|(?<=[a-z][!?]{2})"
                            r"|(?<=(?<![\w.])(?:it|me|up|on|us|so|go|be)[.!?]))"
                            r"\s+(?=(?:i|i'm|im|it's|its|it|do|does|did|can|"
                            r"could|should|will|would|thanks|thank|we|she|he|they|my|our|please|pls|how|what|when|"
                            r"why|where|is|are|was|has|have|had)\b)")


@dataclass(frozen=True)
class SplitSentence:
    """One sentence of a raw note: `text == note[start:end]`; `kind` says which rule made it."""

    id: str
    paragraph_id: int
    paragraph_offset: int  # offset inside its paragraph (the official start_char_index)
    start: int
    end: int
    text: str
    kind: str  # header | list | lab | field (one of a line's fields) | row (of a table) | appointment | page | text
    # | entry (a medicine with the instruction lines under it)
    # the id of the sentence that opens this one's medicine entry, naming the medicine ("Ofloxacin 0.3% eye drops Right
    # eye: 1 drop 4 times a day." over "Stop after 11/11/2026."), when this one is a later sentence of it; else ""
    entry: str = ""


@dataclass(frozen=True)
class SplitNote:
    """A raw note cut into numbered sentences, with the splitter that did it."""

    text: str
    sentences: tuple[SplitSentence, ...]
    splitter: str  # "spacy:<package> <version>" or "rules"
    notes: tuple[str, ...] = ()  # e.g. why the rule-based fallback was used

    def note_sentences(self) -> tuple[NoteSentence, ...]:
        return tuple(EntrySentence(s.id, s.paragraph_id, s.paragraph_offset, s.text, entry=s.entry) if s.entry
                     else NoteSentence(s.id, s.paragraph_id, s.paragraph_offset, s.text) for s in self.sentences)


@dataclass(frozen=True)
class EntrySentence(NoteSentence):
    """A note sentence that carries on a medicine's entry without naming the medicine ("Last dose is 11/29/2026."):
    `entry` is the id of the entry's sentence that names it, for an answer's matcher to read the medicine from."""

    entry: str = ""


# --- the sentence splitters for running prose ---------------------------------------------------------

Segmenter = Callable[[str], list[tuple[int, int]]]


def _rule_segments(text: str, boundary: re.Pattern[str] | None = None) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in (boundary or _RULE_BOUNDARY).finditer(text):
        cut = m.end() - len(m.group(0)) + len(m.group(0).rstrip())
        spans.append((start, cut))
        start = m.end()
    spans.append((start, len(text)))
    return [(a, b) for a, b in spans if b > a]


def _lab_segments(text: str) -> list[tuple[int, int]]:
    return _rule_segments(text, _LAB_BOUNDARY)


def _choose(splitter: str) -> tuple[Segmenter, str, tuple[str, ...]]:
    if splitter not in SPLITTERS:
        raise InputError(Problem(f"unknown splitter {splitter!r}; expected one of {', '.join(SPLITTERS)}",
                                 field="splitter", code="option"))
    if splitter == "rules":
        return _rule_segments, "rules", ()
    if splitter == "auto" and not spacy_available():
        return _rule_segments, "rules", (f"spaCy's en_core_web_sm is not installed, so the rule-based splitter "
                                         f"was used ({SPACY_FIX.split(', or')[0]} for the spaCy split)",)
    seg, name = spacy_segmenter(_rule_segments)
    return seg, name, ()


def _paragraphs(text: str) -> list[list[tuple[int, int]]]:
    paras: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    for s, e in text_lines(text):
        if text[s:e].strip():
            current.append((s, e))
        elif current:
            paras.append(current)
            current = []
    if current:
        paras.append(current)
    return paras


def _split_unit(unit: Unit, text: str, segment: Segmenter, excerpt: bool = False) -> list[tuple[int, int]]:
    """A unit's sentences. `excerpt`: the note is written as a release's excerpt, whose sentences keep a field's
    appointments together ("Follow-up: PCP in 1 week; cardiology in 4 weeks.")."""
    # (an order set in its column is a row of a list of orders, whose instruction may hold sentences: "START
    # Doxycycline 100 mg twice daily. Take it with water."; a row of a table ruled with pipes is one unit, however
    # many sentences its comment holds: "STOP  | Aspirin 75 mg | Bruising. Not needed now.")
    row = text[unit.start:unit.end]
    if unit.kind in ("header", "appointment", "row", "page") \
            and not (unit.kind == "row" and ORDER_COLUMN.match(row) and not PIPES.search(row)):
        return [(unit.start, unit.end)]
    # a lab line's decimals and asterisks are no sentence ends; only a plain ". Capital" is
    lab = unit.kind == "lab" or (unit.kind == "field" and is_lab_line(text[unit.start:unit.end]))
    # (a medicine's instruction is cut at its full stops only: a parser reads its imperatives and brand names in
    # capitals as sentence starts, "(PRILOSEC) Mix 1 packet in 5 mL of water ...")
    # (an order set in its column is such an entry on one line: "START     CeraVe Hydrating Facial Cleanser ...")
    seg = _lab_segments if lab else _rule_segments if unit.kind in ("entry", "row") else segment
    spans = [(unit.start + a, unit.start + b) for a, b in seg(text[unit.start:unit.end])]
    if unit.kind == "entry":  # (a medicine's name stays with its instruction's first sentence)
        head_end = text.index("\n", unit.start)
        while len(spans) > 1 and spans[0][1] <= head_end:
            spans[:2] = [(spans[0][0], spans[1][1])]
    merged: list[tuple[int, int]] = []
    for s, e in spans:
        piece = text[s:e]
        s += len(piece) - len(piece.lstrip())
        e -= len(piece) - len(piece.rstrip())
        if s >= e:
            continue
        if merged and should_join(text[merged[-1][0]:merged[-1][1]], text[s:e], unit.kind):
            merged[-1] = (merged[-1][0], e)
            continue
        if merged:
            # "1. Apixaban 5 mg PO BID 2." + "Atorvastatin ...": an inline list's next number starts the next item
            cut = _next_item_cut(text, merged[-1][0], merged[-1][1], unit.end)
            if cut is not None:
                merged[-1] = (merged[-1][0], cut)
                s = cut + len(text[cut:s]) - len(text[cut:s].lstrip())
        merged.append((s, e))
    merged = lower_case_cuts(merged, text, unit.start)
    merged = query_cuts(merged, text)
    # a medication list item run into an order ("2. Lisinopril 10 mg daily STOP aspirin"); prose is not cut
    if not excerpt:
        merged = [cut for s, e in merged for cut in appointment_cuts(s, e, text)]
    merged = [cut for s, e in merged for cut in doc_stamp_cuts(s, e, text)]
    return [cut for s, e in merged for cut in (order_cuts([(s, e)], text) if ITEM.match(text[s:e]) else [(s, e)])]


def split_note(note: str, splitter: str = "auto") -> SplitNote:
    """Cut a raw note into numbered sentences (ids "1", "2", ...), keeping their offsets in `note`.

    `splitter`: "spacy" (en_core_web_sm; UnavailableError when absent), "rules" (no dependency), or
    "auto" (spaCy when installed, else the rules, saying so in `notes`).
    """
    if not isinstance(note, str) or not note.strip():
        raise InputError(Problem("the note is empty", field="note", code="empty-note"))
    segment, name, notes = _choose(splitter)
    if is_double_spaced(note):  # (a fax's OCR: split its single-spaced reading, then map back onto the note)
        reading, offsets = single_spaced(note)
        split = _split(reading, segment, name, notes)
        return SplitNote(note, tuple(_mapped(s, note, offsets) for s in split.sentences), name, notes)
    return _split(note, segment, name, notes)


def _mapped(s: SplitSentence, note: str, offsets: list[int]) -> SplitSentence:
    """A sentence of a single-spaced reading, on the note's own characters."""
    start, end, p_start = offsets[s.start], offsets[s.end - 1] + 1, offsets[s.start - s.paragraph_offset]
    return SplitSentence(s.id, s.paragraph_id, start - p_start, start, end, note[start:end], s.kind)


def _split(note: str, segment: Segmenter, name: str, notes: tuple[str, ...]) -> SplitNote:
    sentences: list[SplitSentence] = []
    width = wrap_width(note)
    # "S: 47 yo F ... but" over more lines: a note that sets a SOAP section's letter over the block of lines
    # it opens heads each section so, "A: Strep throat." too; in a note that never does, "S: Pt feels
    # better." keeps its letter as that line's label, as the releases keep it
    paragraphs = _paragraphs(note)
    # (or sets two SOAP letters or more alone on their lines over their blocks: "O:" + "Vitals: ...", "A:" + "...")
    soap = any(SECTION_LETTER.match(note[a:b].strip()) and k + 1 < len(para)
               for para in paragraphs for k, (a, b) in enumerate(para)) \
        or len({note[a:b].strip() for para in paragraphs for a, b in para[:-1]} & {"S:", "O:", "A:", "P:"}) >= 2 \
        or soap_letters_apart([[note[a:b].strip() for a, b in para] for para in paragraphs])
    # (a dictation typed in lower case opens its sections' lines with three letters or more: "s: patient returns ...",
    # "o: ...", "a: ...", "p: one. ...")
    soap = soap or len({note[a:a + 2] for para in paragraphs for a, b in para
                        if re.match(r"[soap]:[ \t]+[a-z0-9]", note[a:b])}) >= 3
    # (questions and answers, "Q: Can I drive?" + "A: No. ...", are no SOAP note: each letter stays with its line)
    soap = soap and not re.search(r"^[ \t]*Q:[ \t]+\S", note, re.MULTILINE)
    # a note de-identified as the releases are ("Name: ___", "Dr. ___") is written as they are: its section
    # labels stay with their prose ("HISTORY OF PRESENT ILLNESS: Mr. ___ is ...", "# AKI: Cr peaked ...")
    # (the placeholder is three underscores as a word; a form's blank to fill in is longer, "Date: __________", and a
    # rule drawn in underscores is a line of them: neither is a de-identified note)
    labels = not re.search(r"(?<!_)___(?!_)", note)
    excerpt = all(len(para) == 1 for para in paragraphs)
    sbar = bool(re.search(r"^[ \t]*Situation[ \t]*:", note, re.MULTILINE | re.IGNORECASE))
    letter = writes_labelled_paragraphs([[note[a:b].strip() for a, b in para] for para in paragraphs])
    for p_id, para in enumerate(paragraphs, start=1):
        p_start = para[0][0] + len(note[para[0][0]:para[0][1]]) - len(note[para[0][0]:para[0][1]].lstrip())
        for unit in units(para, note, _paragraph_width(note, para, width), soap, labels, excerpt, sbar, letter):
            head, spans = "", _split_unit(unit, note, segment, excerpt)
            # (a line of prose is an entry of two sentences at most: "Olanzapine 2.5 mg STOPPED." + "You told us ...";
            # more are a plan's sentences, each about its own thing)
            single = "\n" not in note[unit.start:unit.end] and (unit.kind != "text" or len(spans) == 2)
            for k, (s, e) in enumerate(spans):
                sid = str(len(sentences) + 1)
                if k == 0 and opens_medicine_entry(unit.kind, note[s:e], not single):
                    head = sid
                sentences.append(SplitSentence(sid, p_id, s - p_start, s, e, note[s:e], unit.kind,
                                               head if k else ""))
    return SplitNote(note, tuple(sentences), name, notes)


def _paragraph_width(note: str, para: list[tuple[int, int]], width: int) -> int:
    """The width a paragraph of prose wraps at, when its own lines show a narrower one than the note's (a letter
    whose paragraphs were typed or pasted at different widths): the longest of its lines that a sentence runs on from
    into a line opening in lower case, when three or more show it (and no line but the last runs past it)."""
    lines = [note[a:b].rstrip() for a, b in para]
    wrapped = [len(x) for x, y in zip(lines, lines[1:], strict=False)
               if re.match(r"\s*[a-z]", y) and not x.endswith((".", ":", ";")) and len(x) >= 50]
    if len(wrapped) < 3:
        return width
    own = max(len(x) for x in lines[:-1])
    return own if own == max(wrapped) and 50 <= own < width else width


def note_case(note: str | SplitNote, question: str, narrative: str | None = None, case_id: str = "1",
              splitter: str = "auto", specialty: tuple[str, ...] = ()) -> tuple[Case, SplitNote]:
    """A one-case `Case` from a raw note and a patient question (with the patient's message if given).

    The question is the patient's question phrase; it is found in the narrative when given (else appended
    to it), and it also stands in for the clinician's rewording, which a raw question does not have.
    """
    question = (question or "").strip()
    if not question:
        raise InputError(Problem("the question is empty", field="question", code="empty-question"))
    split = note if isinstance(note, SplitNote) else split_note(note, splitter)
    story = " ".join((narrative or "").split())
    if not story:
        story = question
    elif question not in story:
        story = f"{story} {question}"
    phrase = Phrase(0, story.index(question), question)
    case = Case(case_id, story, (phrase,), question, split.text, split.note_sentences(), tuple(specialty))
    return case, split
