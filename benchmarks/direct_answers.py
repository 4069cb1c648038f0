"""Direct answers first: does `archehr answer` cite the sentence that states the instruction, change or value?

Questions written for the legacy demo dev notes (data/answerability/direct-questions.yaml: should I
still take X / why was X changed / was my X low), each with the note sentences that answer it
directly. For each, `archehr.answer` (default system, rules splitter, no abstention so citing is
measured alone) with and without the answer types (`direct=`: False ranks by the selector alone); printed: the share of
questions citing at least one expected sentence, citing all of them, and whose first answer line
cites one, by question type. The default system's selector was trained on these notes (not on these
questions): read the figures as a before/after on the same selector, not as held-out accuracy.

    python benchmarks/direct_answers.py
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import archehr  # noqa: E402
from archehr.answerability.data import question_type, read_source_case  # noqa: E402
from archehr.pipeline import load_system  # noqa: E402

QUESTIONS = ROOT / "data" / "answerability" / "direct-questions.yaml"


def note_text(case_file: Path) -> str:
    d = yaml.safe_load(case_file.read_text(encoding="utf-8"))
    return "\n\n".join(" ".join(str(t) for _, t in para) for para in d["note"])


def main() -> int:
    qs = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    files = {read_source_case(p).case_id: p for p in (ROOT / "data" / "demo-src").glob("case-*.yaml")}
    system = load_system(None)
    rows: dict[str, dict[str, list[tuple[bool, bool, bool]]]] = {"without": defaultdict(list),
                                                                  "with": defaultdict(list)}
    for q in qs:
        note = note_text(files[str(q["case"])])
        for label, direct in (("without", False), ("with", True)):
            r = archehr.answer(note, q["q"], system=system, splitter="rules", answerability=None, direct=direct)
            want = [s.id for s in r.note.sentences if any(f in s.text for f in q["expect"])]
            if len(want) < len(q["expect"]):
                raise SystemExit(f"case {q['case']}: an expected fragment matches no sentence: {q['expect']}")
            cited = {s.id for s in r.cited}
            first = bool(r.lines and set(r.lines[0].citations) & set(want))
            rows[label][question_type(q["q"])].append((bool(cited & set(want)), set(want) <= cited, first))
    print(f"direct answers, {len(qs)} questions on the legacy demo dev notes (default system, rules splitter)")
    print("| question type | n | cites one expected: without / with | cites all: without / with | "
          "first line: without / with |")
    print("|---|---|---|---|---|")
    types = sorted(rows["with"]) + ["all"]
    for t in types:
        a = [x for k, v in rows["without"].items() for x in v] if t == "all" else rows["without"][t]
        b = [x for k, v in rows["with"].items() for x in v] if t == "all" else rows["with"][t]
        cell = [f"{sum(x[i] for x in a)}/{len(a)} / {sum(x[i] for x in b)}/{len(b)}" for i in range(3)]
        print(f"| {t} | {len(b)} | " + " | ".join(cell) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
