#!/usr/bin/env python3
"""Check writer F's gold splits and questions (data/everyday/raw-f).

For every NAME.txt with a NAME.sentences.txt beside it:
  * the raw note has 25-60 lines;
  * no unit is empty, starts with a bullet/checkbox marker, or has leading/trailing blanks;
  * the units, with all whitespace and bullet/checkbox markers removed, equal the raw
    text with all whitespace and line-initial bullet/checkbox markers removed (exact
    coverage, in order).
Then questions.yaml: ids unique, notes exist, kinds known, answerable ones have
gold_lines inside NAME.sentences.txt, unanswerable ones have unanswerable + searched.

    python data/everyday/raw-f/check_split.py          # exit 1 on any problem
    python data/everyday/raw-f/check_split.py --show f003   # print a question and its gold lines
"""
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
# bullet and checkbox markers at the start of a line (after indentation), followed by a blank
MARKER = re.compile(r"^\s*(?:[•\-\*▪◦]|\[ \]|☐)(?=\s)")
KINDS = {"how_long", "when", "med_change", "test_result", "why", "may_i"}


def strip_markers(line):
    return MARKER.sub("", line, count=1)


def squash(text):
    return re.sub(r"\s+", "", text)


def check_note(raw_path, problems):
    name = raw_path.stem
    split_path = raw_path.with_name(name + ".sentences.txt")
    raw_lines = raw_path.read_text(encoding="utf-8").splitlines()
    if not 25 <= len(raw_lines) <= 60:
        problems.append(f"{name}: {len(raw_lines)} raw lines (want 25-60)")
    units = split_path.read_text(encoding="utf-8").split("\n")
    if units and units[-1] == "":
        units.pop()
    for i, u in enumerate(units, 1):
        if not u.strip():
            problems.append(f"{name}.sentences.txt:{i}: empty unit")
        elif u != u.strip():
            problems.append(f"{name}.sentences.txt:{i}: leading/trailing blank")
        elif MARKER.match(u):
            problems.append(f"{name}.sentences.txt:{i}: unit starts with a bullet marker")
    raw = "".join(squash(strip_markers(l)) for l in raw_lines)
    pos = 0
    for i, u in enumerate(units, 1):
        s = squash(u)
        if raw[pos:pos + len(s)] != s:
            problems.append(f"{name}.sentences.txt:{i}: does not match raw text\n"
                            f"    unit: {s[:80]!r}\n    raw : {raw[pos:pos + 80]!r}")
            return units
        pos += len(s)
    if pos != len(raw):
        problems.append(f"{name}: raw text left uncovered: {raw[pos:pos + 80]!r}")
    return units


def load_questions(path):
    """A tiny reader for the flat list-of-mappings YAML used here (no PyYAML needed)."""
    items, cur = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = re.match(r"^(- |  )(\w+):\s*(.*?)\s*(#.*)?$", line)
        if not m:
            raise ValueError(f"cannot read: {line!r}")
        if m.group(1) == "- ":
            cur = {}
            items.append(cur)
        key, val = m.group(2), m.group(3)
        if val.startswith("[") and val.endswith("]"):
            inner = val[1:-1].strip()
            parts = [p.strip() for p in inner.split(",")] if inner else []
            val = [int(p) if p.isdigit() else p.strip('"') for p in parts]
        elif val in ("true", "false"):
            val = val == "true"
        elif len(val) >= 2 and val[0] == val[-1] == '"':
            val = val[1:-1]
        cur[key] = val
    return items


def main(argv):
    problems = []
    splits = {}
    for raw_path in sorted(HERE.glob("*.txt")):
        if raw_path.name.endswith(".sentences.txt"):
            continue
        if not raw_path.with_name(raw_path.stem + ".sentences.txt").exists():
            problems.append(f"{raw_path.stem}: no .sentences.txt")
            continue
        splits[raw_path.stem] = check_note(raw_path, problems)
    qpath = HERE / "questions.yaml"
    qs = load_questions(qpath) if qpath.exists() else []
    if len(argv) > 2 and argv[1] == "--show":
        for q in qs:
            if q["id"] == argv[2]:
                print(q["question"])
                for g in q.get("gold_lines", []):
                    print(f"  {g}: {splits[q['note']][g - 1]}")
        return 0
    ids = Counter(q.get("id") for q in qs)
    for qid, n in ids.items():
        if n > 1:
            problems.append(f"question id {qid} used {n} times")
    per_note = Counter()
    for q in qs:
        qid = q.get("id")
        note = q.get("note")
        if note not in splits:
            problems.append(f"{qid}: unknown note {note}")
            continue
        per_note[note] += 1
        if q.get("kind") not in KINDS:
            problems.append(f"{qid}: kind {q.get('kind')}")
        if q.get("answerable") is True:
            gl = q.get("gold_lines") or []
            if not gl:
                problems.append(f"{qid}: answerable without gold_lines")
            for g in gl:
                if not (isinstance(g, int) and 1 <= g <= len(splits[note])):
                    problems.append(f"{qid}: gold line {g} outside {note}.sentences.txt")
        elif q.get("answerable") is False:
            if q.get("unanswerable") not in ("absent_topic", "absent_fact"):
                problems.append(f"{qid}: unanswerable kind {q.get('unanswerable')}")
            if not q.get("searched"):
                problems.append(f"{qid}: no searched words")
            if q.get("gold_lines"):
                problems.append(f"{qid}: unanswerable with gold_lines")
        else:
            problems.append(f"{qid}: answerable must be true or false")
    for note in splits:
        if per_note[note] != 4:
            problems.append(f"{note}: {per_note[note]} questions (want 4)")
    for p in problems:
        print(p)
    n_units = sum(len(u) for u in splits.values())
    kinds = Counter(q.get("kind") for q in qs)
    unans = sum(1 for q in qs if q.get("answerable") is False)
    print(f"{len(splits)} notes, {n_units} units, {len(qs)} questions "
          f"({unans} unanswerable), kinds {dict(sorted(kinds.items()))}")
    print("OK" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
