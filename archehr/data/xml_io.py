"""Read and write the release XML (`archehr-qa.xml`). The only module that knows its layout."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from archehr.data.model import Case, NoteSentence, Phrase
from archehr.errors import DataError, Problem

_INT = re.compile(r"-?[0-9]+", re.ASCII)
# Release integers are ids and character offsets: 18 digits fit in 64 bits (what a Parquet/pandas export holds),
# and Python's int() refuses strings of more than 4300 digits with a ValueError, not a problem we can report.
MAX_INT_DIGITS = 18


def _text(el: etree._Element) -> str:
    # Official files pad every element text with newlines and indentation.
    return "".join(el.itertext()).strip()


def _int_attr(el: etree._Element, name: str, file: str, case_id: str, field: str,
              problems: list[Problem], required: bool = True) -> int | None:
    raw = el.get(name)
    if raw is None:
        if required:
            problems.append(Problem(f"missing attribute {name!r}", file, case_id, field, el.sourceline))
        return None
    value, why = read_int(raw)
    if value is None:
        problems.append(Problem(f"attribute {name}={_shown(raw)} {why}", file, case_id, field, el.sourceline))
    return value


def read_int(raw: str) -> tuple[int | None, str]:
    """The one reader of the release's integer attributes: (value, "") or (None, why it is not one)."""
    text = raw.strip()
    # int() would also take "2_7_0", "+5" and non-ASCII digits ("٣"): the official files hold plain ASCII digits
    if not _INT.fullmatch(text):
        return None, "is not an integer"
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        return None, f"is an integer of {digits:,} digits; release integers have at most {MAX_INT_DIGITS}"
    return int(text), ""


def _shown(raw: str, limit: int = 40) -> str:
    """repr() of a value for a one-line message, cut in the middle when long (a fuzzed file may hold megabytes)."""
    if len(raw) <= limit:
        return repr(raw)
    return repr(raw[:limit // 2]) + f"...({len(raw):,} characters)..." + repr(raw[-8:])


def parse_cases_xml(data: bytes, file: str = "<xml>") -> tuple[tuple[Case, ...], list[Problem]]:
    """Parse XML bytes into cases, collecting every problem instead of stopping at the first."""
    problems: list[Problem] = []
    try:
        root = etree.fromstring(data, parser=etree.XMLParser(remove_comments=True, resolve_entities=False))
    except etree.XMLSyntaxError as e:
        line = e.lineno if e.lineno else None
        return (), [Problem(f"malformed XML: {e.msg}", file, None, None, line, code="xml-syntax")]
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        # Never expanded (resolve_entities=False), so `&name;` would silently vanish from the case text; release
        # files have no DOCTYPE, and one declaring entities is an XXE / billion-laughs attempt or a broken export.
        return (), [Problem("the XML declares entities in its DOCTYPE (<!ENTITY ...>), which archehr does not expand; "
                            "release files have no DOCTYPE: remove it", file, None, None, 1, code="xml-entity")]
    if root.tag != "annotations":
        problems.append(Problem(f"root element is <{root.tag}>, expected <annotations>", file, None, None,
                                root.sourceline))
    cases: list[Case] = []
    seen: dict[str, int] = {}
    for el in root:
        if not isinstance(el.tag, str):
            continue
        if el.tag != "case":
            problems.append(Problem(f"unexpected element <{el.tag}> under <annotations>", file, None, el.tag,
                                    el.sourceline))
            continue
        case_id = (el.get("id") or "").strip()
        if not case_id:
            problems.append(Problem("<case> without an id attribute", file, None, "id", el.sourceline))
            continue
        if case_id in seen:
            problems.append(Problem(f"duplicate case id (first at line {seen[case_id]})", file, case_id, "id",
                                    el.sourceline, code="duplicate-case"))
            continue
        seen[case_id] = el.sourceline or 0
        case = _parse_case(el, case_id, file, problems)
        if case is not None:
            cases.append(case)
    return tuple(cases), problems


_CASE_FIELDS = frozenset({"clinical_specialty", "patient_narrative", "patient_question", "clinician_question",
                          "note_excerpt", "note_excerpt_sentences"})


@dataclass(frozen=True)
class _CaseXml:
    """One <case> being read: its child elements by tag, and where to report problems."""

    fields: dict[str, etree._Element]
    case_id: str
    file: str
    problems: list[Problem]

    def problem(self, message: str, field: str, line: int | None, code: str = "error") -> None:
        self.problems.append(Problem(message, self.file, self.case_id, field, line, code=code))

    def items(self, container: str, tag: str) -> list[etree._Element]:
        """The <tag> children of an optional container element; anything else is a problem."""
        out = []
        for child in self.fields[container] if container in self.fields else ():
            if not isinstance(child.tag, str):
                continue
            if child.tag != tag:
                self.problem(f"unexpected <{child.tag}> in <{container}>", container, child.sourceline)
                continue
            out.append(child)
        return out

    def text(self, tag: str) -> str | None:
        return _text(self.fields[tag]) if tag in self.fields else None


def _parse_case(el: etree._Element, case_id: str, file: str, problems: list[Problem]) -> Case | None:
    xml = _CaseXml(_case_fields(el, case_id, file, problems), case_id, file, problems)
    specialty = xml.text("clinical_specialty")
    return Case(
        case_id=case_id,
        patient_narrative=xml.text("patient_narrative"),
        patient_question=tuple(_phrases(xml)),
        clinician_question=xml.text("clinician_question"),
        note_excerpt=xml.text("note_excerpt"),
        sentences=tuple(_sentences(xml)),
        clinical_specialty=tuple(x.strip() for x in specialty.split("|") if x.strip()) if specialty else (),
    )


def _case_fields(el: etree._Element, case_id: str, file: str, problems: list[Problem]) -> dict[str, etree._Element]:
    """A <case>'s child elements by tag (the first of each); a repeated or unknown element is a problem."""
    fields: dict[str, etree._Element] = {}
    for child in el:
        if not isinstance(child.tag, str):
            continue
        if child.tag in fields:
            problems.append(Problem(f"element <{child.tag}> appears twice", file, case_id, child.tag,
                                    child.sourceline))
            continue
        fields[child.tag] = child
    for tag, child in fields.items():
        if tag not in _CASE_FIELDS:
            problems.append(Problem(f"unknown element <{tag}>", file, case_id, tag, child.sourceline))
    return fields


def _phrases(xml: _CaseXml) -> list[Phrase]:
    phrases: list[Phrase] = []
    seen_ids: set[int] = set()
    for p in xml.items("patient_question", "phrase"):
        pid = _int_attr(p, "id", xml.file, xml.case_id, "patient_question/phrase", xml.problems)
        start = _int_attr(p, "start_char_index", xml.file, xml.case_id, "patient_question/phrase", xml.problems)
        if pid is None or start is None:
            continue
        if pid in seen_ids:
            xml.problem(f"duplicate phrase id {pid}", "patient_question/phrase", p.sourceline, "duplicate-phrase")
            continue
        seen_ids.add(pid)
        phrases.append(Phrase(pid, start, _text(p)))
    return phrases


def _sentences(xml: _CaseXml) -> list[NoteSentence]:
    sentences: list[NoteSentence] = []
    seen_sids: set[str] = set()
    for s in xml.items("note_excerpt_sentences", "sentence"):
        sid = (s.get("id") or "").strip()
        fld = f"note_excerpt_sentences/sentence[{sid}]" if sid else "note_excerpt_sentences/sentence"
        if not sid:
            xml.problem("sentence without an id", fld, s.sourceline)
            continue
        if sid in seen_sids:
            xml.problem(f"duplicate sentence id {sid}", fld, s.sourceline, "duplicate-sentence")
            continue
        seen_sids.add(sid)
        para = _int_attr(s, "paragraph_id", xml.file, xml.case_id, fld, xml.problems)
        start = _int_attr(s, "start_char_index", xml.file, xml.case_id, fld, xml.problems)
        length = _int_attr(s, "length", xml.file, xml.case_id, fld, xml.problems, required=False)
        if para is None or start is None:
            continue
        sentences.append(NoteSentence(sid, para, start, _text(s), length))
    return sentences


def read_cases_xml(path: str | os.PathLike[str]) -> tuple[Case, ...]:
    """Read a release XML; raise :class:`DataError` listing every problem found."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise DataError(Problem(f"cannot read file: {e.strerror}", str(p))) from None
    cases, problems = parse_cases_xml(data, str(p))
    if problems:
        raise DataError(problems)
    return cases


def _padded(parent: etree._Element, tag: str, text: str, depth: int) -> etree._Element:
    el = etree.SubElement(parent, tag)
    el.text = "\n" + text + "\n" + "    " * depth
    return el


def cases_to_xml(cases: tuple[Case, ...] | list[Case]) -> bytes:
    """Serialise cases in the official padded layout (the inverse of :func:`parse_cases_xml`)."""
    root = etree.Element("annotations")
    for case in cases:
        c = etree.SubElement(root, "case", id=case.case_id)
        if case.clinical_specialty:
            etree.SubElement(c, "clinical_specialty").text = "|".join(case.clinical_specialty)
        if case.patient_narrative is not None:
            _padded(c, "patient_narrative", case.patient_narrative, 2)
        if case.patient_question:
            pq = etree.SubElement(c, "patient_question")
            for ph in case.patient_question:
                el = _padded(pq, "phrase", ph.text, 3)
                el.set("id", str(ph.id))
                el.set("start_char_index", str(ph.start_char_index))
        for tag, value in (("clinician_question", case.clinician_question), ("note_excerpt", case.note_excerpt)):
            if value is not None:
                _padded(c, tag, value, 2)
        if case.sentences:
            ns = etree.SubElement(c, "note_excerpt_sentences")
            for s in case.sentences:
                el = _padded(ns, "sentence", s.text, 3)
                el.set("id", s.id)
                el.set("paragraph_id", str(s.paragraph_id))
                el.set("start_char_index", str(s.start_char_index))
                if s.length is not None:
                    el.set("length", str(s.length))
    etree.indent(root, space="    ")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)
