"""Read and write the key (`archehr-qa_key.json`) and mapping (`archehr-qa_mapping.json`) files."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from archehr.data.model import ClinicianAnswerSentence, KeyEntry, MappingEntry, Relevance, SentenceLabel
from archehr.errors import DataError, Problem

T = TypeVar("T")

_RELEVANCE = {r.value: r for r in Relevance}


def json_line_of(text: str, case_id: object) -> int | None:
    """Line of the object holding `"case_id": <case_id>` in a JSON text (for error messages)."""
    m = re.search(r'"case_id"\s*:\s*"?' + re.escape(str(case_id)) + r'"?\s*[,}\n]', text)
    return text.count("\n", 0, m.start()) + 1 if m else None


MAX_JSON_DEPTH = 64  # release and submission files nest 4 levels deep; run.json and caches fewer than 10


def nesting_problem(obj: Any, max_depth: int = MAX_JSON_DEPTH, max_nodes: int | None = None) -> str | None:
    """Why `obj` is too deep (or, counting shared YAML aliases once per use, too large) to process; None if fine.

    Iterative on purpose: a recursive walk is exactly what such input breaks. The depth limit also ends a walk
    of a self-referencing YAML structure.
    """
    stack: list[tuple[Any, int]] = [(obj, 1)]
    seen = 0
    while stack:
        o, depth = stack.pop()
        if depth > max_depth:
            return f"nested more than {max_depth} levels deep"
        seen += len(o)
        if max_nodes is not None and seen > max_nodes:
            return f"more than {max_nodes} values once aliases are expanded"
        children = o.values() if isinstance(o, dict) else o
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return None


def _has_lone_surrogate(obj: Any) -> bool:
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, str):
            try:
                o.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, list):
            stack.extend(o)
    return False


def load_json_text(text: str, file: str) -> Any:
    """Parse JSON read from `file`: every way it can be bad is one DataError, never another exception.

    A UTF-8 byte-order mark is skipped (as the XML parser does); nesting deeper than MAX_JSON_DEPTH, numbers
    Python refuses to convert and `\\ud800`-style lone surrogates (which cannot be written back as UTF-8)
    are refused.
    """
    text = text.removeprefix("\ufeff")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(Problem(f"not valid JSON: {e.msg} (column {e.colno})", file, None, None, e.lineno,
                                code="json-syntax")) from None
    except RecursionError:
        data, deep = None, f"nested more than {MAX_JSON_DEPTH} levels deep"
    except ValueError as e:  # an integer of more than 4300 digits
        raise DataError(Problem(f"not valid JSON: {e}".split(";")[0], file, code="json-syntax")) from None
    else:
        deep = nesting_problem(data) if isinstance(data, (dict, list)) else None
    if deep:
        raise DataError(Problem(f"JSON {deep}; no archehr file is", file, code="json-depth"))
    if re.search(r"\\u[dD][89a-fA-F]", text) and _has_lone_surrogate(data):
        raise DataError(Problem("JSON string holds a lone UTF-16 surrogate escape (\\ud800-\\udfff), which is "
                                "not text", file, code="json-syntax"))
    return data


def read_json(path: str | os.PathLike[str]) -> Any:
    """Read and parse a JSON file; any problem (unreadable, not UTF-8, bad JSON) is one DataError."""
    return load_json_text(read_text(path), str(path))


def read_text(path: str | os.PathLike[str]) -> str:
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except OSError as e:
        raise DataError(Problem(f"cannot read file: {e.strerror}", str(p))) from None
    except UnicodeDecodeError as e:
        raise DataError(Problem(f"not UTF-8 text: {e.reason}", str(p))) from None


def parse_citations(value: Any) -> tuple[str, ...] | None:
    """Citations as a list of ids or a comma-separated string ("2,5"); None if neither."""
    if isinstance(value, str):
        return tuple(x.strip() for x in value.split(",") if x.strip())
    if isinstance(value, list) and all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in value):
        return tuple(str(x).strip() for x in value)
    return None


def _sentence_labels(answers: list[Any], bad: Callable[..., None]) -> tuple[SentenceLabel, ...]:
    """A key entry's `answers` (one relevance label per note sentence); `bad(message, field, code)` each problem."""
    labels: list[SentenceLabel] = []
    seen: set[str] = set()
    for a in answers:
        if not isinstance(a, dict) or not isinstance(a.get("sentence_id"), str):
            bad(f"each answer needs a string sentence_id, got {a!r}", "answers[].sentence_id")
            continue
        sid = a["sentence_id"].strip()
        rel = a.get("relevance")
        if rel not in _RELEVANCE:
            bad(f"sentence {sid}: relevance {rel!r} is not one of {sorted(_RELEVANCE)}", "answers[].relevance",
                "label")
            continue
        if sid in seen:
            bad(f"sentence {sid} labelled twice", "answers[].sentence_id", "duplicate-sentence")
            continue
        seen.add(sid)
        labels.append(SentenceLabel(sid, _RELEVANCE[rel]))
    return tuple(labels)


def _answer_sentences(raw: Any, bad: Callable[..., None]) -> tuple[ClinicianAnswerSentence, ...] | None:
    """A key entry's `clinician_answer_sentences` (st4), None when absent; `bad(message, field)` each problem."""
    if raw is None:
        return None
    if not isinstance(raw, list):
        bad("clinician_answer_sentences must be a list", "clinician_answer_sentences")
        return None
    out = []
    for s in raw:
        if not isinstance(s, dict) or not isinstance(s.get("id"), (str, int)) or not isinstance(s.get("text"), str):
            bad(f"clinician answer sentence needs string id and text, got {s!r}", "clinician_answer_sentences[]")
            continue
        cits = parse_citations(s.get("citations", []))
        if cits is None:
            bad(f"sentence {s['id']}: citations must be a list or a comma-separated string",
                "clinician_answer_sentences[].citations")
            continue
        out.append(ClinicianAnswerSentence(str(s["id"]).strip(), s["text"].strip(), cits))
    return tuple(out)


def parse_key(data: Any, file: str, text: str = "") -> tuple[tuple[KeyEntry, ...], list[Problem]]:
    problems: list[Problem] = []
    if not isinstance(data, list):
        return (), [Problem(f"expected a JSON list of cases, got {type(data).__name__}", file, code="type")]
    entries: list[KeyEntry] = []
    seen: set[str] = set()
    for i, item in enumerate(data):
        if not isinstance(item, dict):
            problems.append(Problem(f"item {i} is {type(item).__name__}, expected an object", file, code="type"))
            continue
        cid = item.get("case_id")

        # Looked up only when a problem is reported: a search per item over the whole text is quadratic.
        def line(cid: object = cid) -> int | None:
            return json_line_of(text, cid) if cid is not None else None

        if not isinstance(cid, str) or not cid.strip():
            problems.append(Problem(f"item {i}: case_id must be a non-empty string, got {cid!r}", file, None,
                                    "case_id", line(), code="type"))
            continue
        if cid in seen:
            problems.append(Problem("duplicate case id", file, cid, "case_id", line(), code="duplicate-case"))
            continue
        seen.add(cid)

        def bad(msg: str, field: str, code: str = "type") -> None:
            problems.append(Problem(msg, file, cid, field, line(), code=code))  # noqa: B023

        answers = item.get("answers")
        if not isinstance(answers, list):
            bad(f"answers must be a list, got {type(answers).__name__}", "answers")
            continue
        labels = _sentence_labels(answers, bad)

        def opt_str(name: str, item: dict = item) -> str | None:
            v = item.get(name)
            if v is None:
                return None
            if not isinstance(v, str):
                bad(f"{name} must be a string, got {type(v).__name__}", name)
                return None
            return v.strip()

        cas = _answer_sentences(item.get("clinician_answer_sentences"), bad)
        entries.append(KeyEntry(cid, labels, opt_str("clinician_answer"),
                                opt_str("clinician_answer_without_citations"), cas))
    return tuple(entries), problems


def _read_entries(path: str | os.PathLike[str], parse: Callable[[Any, str, str], tuple[tuple[T, ...], list[Problem]]]
                  ) -> tuple[T, ...]:
    """A JSON file read by `parse`; DataError listing every problem it found."""
    text = read_text(path)
    entries, problems = parse(load_json_text(text, str(path)), str(path), text)
    if problems:
        raise DataError(problems)
    return entries


def read_key(path: str | os.PathLike[str]) -> tuple[KeyEntry, ...]:
    return _read_entries(path, parse_key)


def parse_mapping(data: Any, file: str, text: str = "") -> tuple[tuple[MappingEntry, ...], list[Problem]]:
    if not isinstance(data, list):
        return (), [Problem(f"expected a JSON list, got {type(data).__name__}", file, code="type")]
    out: list[MappingEntry] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    for i, item in enumerate(data):
        fields = ("case_id", "document_id", "document_source")
        if not isinstance(item, dict) or not all(isinstance(item.get(f), str) for f in fields):
            cid = item.get("case_id") if isinstance(item, dict) else None
            problems.append(Problem(f"item {i}: needs string fields {', '.join(fields)}", file,
                                    cid if isinstance(cid, str) else None, None, json_line_of(text, cid),
                                    code="type"))
            continue
        if item["case_id"] in seen:
            problems.append(Problem("duplicate case id", file, item["case_id"], "case_id",
                                    json_line_of(text, item["case_id"]), code="duplicate-case"))
            continue
        seen.add(item["case_id"])
        out.append(MappingEntry(item["case_id"].strip(), item["document_id"].strip(), item["document_source"].strip()))
    return tuple(out), problems


def read_mapping(path: str | os.PathLike[str]) -> tuple[MappingEntry, ...]:
    return _read_entries(path, parse_mapping)


def key_to_json(entries: tuple[KeyEntry, ...] | list[KeyEntry]) -> str:
    out = []
    for e in entries:
        d: dict[str, Any] = {"case_id": e.case_id}
        if e.clinician_answer is not None:
            d["clinician_answer"] = e.clinician_answer
        if e.clinician_answer_without_citations is not None:
            d["clinician_answer_without_citations"] = e.clinician_answer_without_citations
        if e.clinician_answer_sentences is not None:
            d["clinician_answer_sentences"] = [
                {"id": s.id, "text": s.text, "citations": list(s.citations)} for s in e.clinician_answer_sentences
            ]
        d["answers"] = [{"sentence_id": a.sentence_id, "relevance": a.relevance.value} for a in e.answers]
        out.append(d)
    return json.dumps(out, indent=4, ensure_ascii=False) + "\n"


def mapping_to_json(entries: tuple[MappingEntry, ...] | list[MappingEntry]) -> str:
    return json.dumps([{"case_id": m.case_id, "document_id": m.document_id, "document_source": m.document_source}
                       for m in entries], indent=4, ensure_ascii=False) + "\n"
