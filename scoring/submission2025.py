"""2025 submissions (answers with `|id|` citations): reading, validation, warnings and fixes.

The answer format itself (the official parsing with its quirks, the word count, the 75-word cut) is
`answer_format`, shared with the generators. Where that behaviour is a trap, `answer_warnings` says so per
case and line instead of changing the number; `fix_answer` writes what the author most likely meant.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from archehr.data.json_io import load_json_text, read_text
from archehr.data.model import Case, Split
from archehr.errors import DataError, Problem, SubmissionError
from archehr_scoring.answer_format import MAX_WORDS, ParsedAnswer, ParsedLine, parse_answer

_BRACKET = re.compile(r"\[\s*(\d+(?:\s*[,;]\s*\d+)*)\s*\]")
_PIPE_GROUP = re.compile(r"\|([^|\n]*)\|")

# --- reading ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Submission2025:
    """A structurally valid 2025 submission: (case_id, answer) in file order."""

    entries: tuple[tuple[str, str], ...]
    file: str | None = None
    item_lines: Mapping[str, int] | None = None  # case_id -> line of its object in the file

    @property
    def case_ids(self) -> tuple[str, ...]:
        return tuple(c for c, _ in self.entries)

    def line_of(self, case_id: str) -> int | None:
        return (self.item_lines or {}).get(case_id)


def _item_lines(text: str) -> list[int]:
    """Line of each top-level list item of a JSON text (for messages); [] if it cannot tell."""
    dec = json.JSONDecoder()
    out: list[int] = []
    i = text.find("[")
    if i < 0:
        return []
    i += 1
    line, counted = 1, 0  # newlines are counted incrementally (counting from 0 per item is quadratic)
    try:
        while True:
            while i < len(text) and text[i] in " \t\r\n,":
                i += 1
            if i >= len(text) or text[i] == "]":
                return out
            line += text.count("\n", counted, i)
            counted = i
            out.append(line)
            _, i = dec.raw_decode(text, i)
    except json.JSONDecodeError:
        return out


def check_submission_2025(obj: Any, file: str | None = None, text: str = "") -> tuple[Submission2025, list[Problem]]:
    """Shape checks needing no key: list of objects with string case_id/answer, no duplicate case."""
    problems: list[Problem] = []
    if not isinstance(obj, list):
        kind = "an object" if isinstance(obj, dict) else type(obj).__name__
        return Submission2025((), file), [Problem(f"expected a JSON list of {{case_id, answer}} objects, got {kind}",
                                                  file, code="type")]
    if not obj:  # as for 2026 (and `package`): an empty list is no submission, not a perfect one
        return Submission2025((), file), [Problem("the submission holds no cases", file, code="empty-submission")]
    lines = _item_lines(text) if text else []
    entries: list[tuple[str, str]] = []
    where: dict[str, int] = {}
    seen: set[str] = set()
    for i, item in enumerate(obj):
        line = lines[i] if i < len(lines) else None
        if not isinstance(item, dict):
            problems.append(Problem(f"item {i} is {type(item).__name__}, expected an object with case_id and answer",
                                    file, line=line, code="type"))
            continue
        cid = item.get("case_id")
        cid_ok = isinstance(cid, str) and cid.strip() != ""
        if "case_id" not in item:
            problems.append(Problem(f"item {i} has no case_id", file, None, "case_id", line, code="missing-field"))
        elif not cid_ok:
            problems.append(Problem(f"item {i}: case_id must be a non-empty string, got {cid!r}"
                                    + (' (write "21", not 21: the official scorer compares strings)'
                                       if isinstance(cid, int) else ""), file, None, "case_id", line, code="type"))
        shown = cid if cid_ok else None
        ans = item.get("answer")
        if "answer" not in item:
            problems.append(Problem("missing answer", file, shown, "answer", line, code="missing-field"))
        elif not isinstance(ans, str):
            problems.append(Problem(f"answer must be a string, got {type(ans).__name__}", file, shown, "answer", line,
                                    code="type"))
        if not cid_ok:
            continue
        if cid in seen:
            problems.append(Problem("duplicate case id (each case must be answered once)", file, cid, "case_id", line,
                                    code="duplicate-case"))
            continue
        seen.add(cid)
        if line is not None:
            where[cid] = line
        if isinstance(ans, str):
            entries.append((cid, ans))
    return Submission2025(tuple(entries), file, where), problems


def load_submission_2025(source: str | os.PathLike[str] | list[Any] | Submission2025
                         ) -> tuple[Submission2025, list[Problem]]:
    """Read a submission file (or take a parsed list) and check its shape; problems are returned."""
    if isinstance(source, Submission2025):
        return source, []
    if isinstance(source, list):
        return check_submission_2025(source)
    path = str(source)
    try:
        text = read_text(path)
        obj = load_json_text(text, path)
    except DataError as e:
        raise SubmissionError(e.problems) from None
    return check_submission_2025(obj, path, text)


def read_submission_2025(source: str | os.PathLike[str] | list[Any] | Submission2025) -> Submission2025:
    """Like `load_submission_2025` but raises SubmissionError listing every problem."""
    sub, problems = load_submission_2025(source)
    if problems:
        raise SubmissionError(problems)
    return sub


def check_cases(sub: Submission2025, split: Split, key_file: str | None = None) -> list[Problem]:
    """Case ids missing from the submission or unknown to the key (the official scorer raises on both)."""
    keyed = [k.case_id for k in split.key] if split.key is not None else list(split.case_ids)
    have = set(sub.case_ids)
    want = set(keyed)
    problems = [Problem("case is in the key but has no answer in the submission", sub.file, c, "case_id",
                        code="missing-case") for c in keyed if c not in have]
    problems += [Problem(f"case is not in the key{f' ({key_file})' if key_file else ''}", sub.file, c, "case_id",
                         sub.line_of(c), code="unknown-case") for c in sub.case_ids if c not in want]
    return problems


# --- warnings --------------------------------------------------------------------------------------------------


def _note_ids(case: Case | None) -> set[str] | None:
    return set(case.sentence_ids) if case is not None and case.sentences else None


def _id_hint(cid: str, ids: set[str]) -> str:
    s = cid.strip()
    if s.isdigit() and s.lstrip("0") in ids and s.lstrip("0") != s:
        return f" (zero-padded? the note has sentence {s.lstrip('0')})"
    if re.fullmatch(r"\d+\s*-\s*\d+", s):
        return " (ranges are not expanded: write the ids one by one)"
    return ""


def answer_warnings(parsed: ParsedAnswer, case: Case | None = None, file: str | None = None,
                    file_line: int | None = None, max_words: int = MAX_WORDS,
                    note_ids: set[str] | None = None) -> list[Problem]:
    """Every place where the official reading differs from what the author probably meant (`note_ids`: the
    note's sentence ids when there is no `case`)."""
    out: list[Problem] = []
    cid = parsed.case_id

    def warn(code: str, msg: str, line: ParsedLine | None = None) -> None:
        out.append(Problem(msg, file, cid, f"answer line {line.number}" if line else "answer", file_line,
                           code=f"warning-{code}"))

    ids = _note_ids(case) if case is not None else note_ids
    if not parsed.raw.strip():
        warn("empty-answer", "empty answer: the official scorer aborts on it (no citation); archehr scores it as an "
                             "empty text with no citations")
    elif not parsed.citations:
        warn("no-citation", "no citation in the whole answer: the official scorer aborts the run on this case "
                            "(assert); archehr scores it with tp=0 and empty citations")
    seen: dict[str, int] = {}
    for ln in parsed.lines:
        before = ln.raw.rsplit("|", 2)[0] if ln.has_citation_part else ln.raw
        if ln.has_citation_part and "|" in before:
            groups = _PIPE_GROUP.findall(before)
            shown = ", ".join(f"|{g}|" for g in groups) if groups else "a '|'"
            warn("mid-line-citation", f"only the last |...| of a line counts: {shown} earlier in the line is not "
                                      f"cited and stays in the answer text (move citations to the line end)", ln)
        if not ln.has_citation_part and "|" in ln.raw:
            warn("unpaired-pipe", "a single '|' is not a citation; the official scorer keeps it in the text", ln)
        if ln.after.strip():
            warn("text-after-citation", f"text after the closing pipe ({ln.after.strip()!r}) is dropped by the "
                                        f"official scorer (put citations at the end of the line)", ln)
        if ln.has_citation_part and not ln.citations:
            warn("empty-citation", "empty citation ||: nothing is cited on this line", ln)
        for m in _BRACKET.finditer(ln.sentence):
            warn("bracket-citation", f"{m.group(0)} is not a citation for the official scorer (use |ids| at the line "
                                     f"end); it stays in the answer text", ln)
        for c in ln.citations:
            if c != c.strip():
                warn("citation-space", f"citation {c!r} has spaces: the official scorer compares it as written, so it "
                                       f"never matches sentence {c.strip()!r} (write |1,2| without spaces)", ln)
            elif ids is not None and c not in ids:
                warn("unknown-id", f"sentence {c!r} is not in the note; the official scorer counts it as a false "
                                   f"positive{_id_hint(c, ids)}", ln)
            if c in seen:
                first = "on this line" if seen[c] == ln.number else f"first on line {seen[c]}"
                warn("duplicate-id", f"sentence {c!r} is cited again ({first}); it counts once", ln)
            else:
                seen[c] = ln.number
        if parsed.truncated and ln.first_word + ln.n_words > max_words and ln.citations:
            part = "beyond" if ln.first_word >= max_words else "partly beyond"
            warn("cut-citation", f"this line is {part} the {max_words}-word cut, yet the official scorer still counts "
                                 f"its citations |{','.join(ln.citations)}|", ln)
    if parsed.truncated:
        warn("over-word-limit", f"the answer has {parsed.n_words} words; the official scorer keeps the first "
                                f"{max_words} for the text metrics")
    return out


# --- validation and fixes ---------------------------------------------------------------------------------------


def _case_or_none(split: Split | None, case_id: str) -> Case | None:
    """The case's XML entry when the split has it (a key-only split or an unknown case: None)."""
    if split is None:
        return None
    try:
        return split.case(case_id)
    except KeyError:
        return None


def validate_2025(source: str | os.PathLike[str] | list[Any] | Submission2025, split: Split | None = None,
                  key_file: str | None = None) -> tuple[list[Problem], list[Problem]]:
    """(errors, warnings) of a submission; with a split, also case coverage and note ids."""
    sub, errors = load_submission_2025(source)
    if split is not None:
        errors += check_cases(sub, split, key_file)
    warnings: list[Problem] = []
    for cid, ans in sub.entries:
        case = _case_or_none(split, cid)
        warnings += answer_warnings(parse_answer(cid, ans), case, sub.file, sub.line_of(cid))
    return errors, warnings


# What a system must never write (`archehr predict` refuses the file): the official scorer aborts on these, or
# never matches them, or the answer is over the limit a generator keeps to.
REFUSED = ("empty-answer", "no-citation", "citation-space", "unknown-id", "over-word-limit")


def answer_problems(answer: str, note_ids: set[str] | None = None) -> list[str]:
    """Why a generated answer must not be submitted (empty = fine): the scorer's own warnings of the kinds
    in REFUSED, so a generator is checked exactly as `validate` and `score` read its answer."""
    return [p.message for p in answer_warnings(parse_answer("", answer), note_ids=note_ids)
            if p.code.removeprefix("warning-") in REFUSED]


def write_submission_2025(task: str, predictions: Mapping[str, str], path: str | os.PathLike[str],
                          note_ids: Mapping[str, set[str]] | None = None) -> list[Problem]:
    """Write a system's 2025 answers (`[{case_id, answer}]`); SubmissionError, nothing written, for an answer
    with a problem of REFUSED (each one named with its case)."""
    from archehr.atomic import write_json

    errors = [Problem(msg, str(path), cid, "answer", code="bad-answer") for cid, ans in predictions.items()
              for msg in answer_problems(ans, (note_ids or {}).get(cid))]
    if errors:
        raise SubmissionError(errors)
    write_json(path, [{"case_id": cid, "answer": ans} for cid, ans in predictions.items()])
    return []


def _clean_ids(raw: Sequence[str], ids: set[str] | None) -> list[str]:
    out: list[str] = []
    for piece in raw:
        for c in piece.split(","):
            c = c.strip()
            if not c:
                continue
            if ids is not None and c not in ids and c.isdigit() and c.lstrip("0") in ids:
                c = c.lstrip("0")  # zero-padded id of a real sentence
            if ids is not None and c not in ids:
                continue  # unknown ids only add false positives
            if c not in out:
                out.append(c)
    return out


def fix_line(line: str, ids: set[str] | None) -> str:
    """One answer line rewritten as `text |ids|`: every |...| and [n] group moved to the end, spaces
    stripped, unknown ids dropped, text after the closing pipe kept in the sentence."""
    groups: list[str] = []

    def take(m: re.Match[str]) -> str:
        groups.append(m.group(1).replace(";", ","))
        return " "

    text = _PIPE_GROUP.sub(take, line)
    text = _BRACKET.sub(take, text)
    text = re.sub(r" +([.!?,;:])", r"\1", re.sub(r" {2,}", " ", text)).strip()
    cited = _clean_ids(groups, ids)
    if not groups:
        return line
    return f"{text} |{','.join(cited)}|" if cited else text


def fix_answer(answer: str, case: Case | None = None) -> str:
    ids = _note_ids(case)
    return "\n".join(fix_line(ln, ids) if ln.strip() else ln for ln in answer.split("\n"))


def fix_submission(sub: Submission2025, split: Split | None = None) -> list[dict[str, str]]:
    out = []
    for cid, ans in sub.entries:
        case = _case_or_none(split, cid)
        out.append({"case_id": cid, "answer": fix_answer(ans, case)})
    return out
