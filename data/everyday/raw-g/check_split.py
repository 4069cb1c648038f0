#!/usr/bin/env python3
"""Check writer G's gold splits: units (whitespace and leading bullet/checkbox markers removed)
must cover the raw note (minus lines with no letters or digits) exactly, in order."""
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MARKER = re.compile(r"^\s*(?:[•\-*▪◦·>]|\[[ xX✓]?\]|[☐☑☒✓✔])(?=\s)")


def strip_marker(line):
    return MARKER.sub("", line, count=1)


SEPARATOR = re.compile(r"(?:(?<=\s)|^)[|/·▸.](?=\s|$)")


def drop_separators(line):
    return SEPARATOR.sub(" ", line)


def squash(text):
    return re.sub(r"\s+", "", text)


def check(name):
    raw = (HERE / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    units = (HERE / f"{name}.sentences.txt").read_text(encoding="utf-8").splitlines()
    errors = []
    if not 25 <= len(raw) <= 60:
        errors.append(f"raw note has {len(raw)} lines (want 25-60)")
    kept = [strip_marker(l) for l in raw if re.search(r"[A-Za-z0-9]", l)]
    # A free-standing separator between fields on one line ("|", "/", "·", "▸", a lone ".")
    # separates units and belongs to none; inside a unit it is kept, so it is ignored on both sides.
    kept = [drop_separators(l) for l in kept]
    target = squash("".join(kept))
    pos = 0
    for i, u in enumerate(units, 1):
        if not u.strip():
            errors.append(f"unit {i} is empty")
            continue
        # Units are compared as written: a line-initial marker was removed from the raw text, so a
        # unit that still carries one cannot match. A box inside a line ("[X] Offered") is text.
        s = squash(drop_separators(u))
        if target.startswith(s, pos):
            pos += len(s)
        else:
            errors.append(f"unit {i} does not match raw at offset {pos}: {u!r}\n"
                          f"    raw has: {target[pos:pos+len(s)+20]!r}")
            break
    if not errors and pos != len(target):
        errors.append(f"raw text left over: {target[pos:pos+60]!r}")
    return len(raw), len(units), errors


def main():
    names = sorted(p.name[:-4] for p in HERE.glob("*.txt") if not p.name.endswith(".sentences.txt"))
    bad = 0
    tr = tu = 0
    for n in names:
        r, u, errs = check(n)
        tr += r
        tu += u
        print(f"{'OK ' if not errs else 'BAD'} {n}: {r} lines, {u} units")
        for e in errs:
            print("   ", e)
        bad += bool(errs)
    print(f"{len(names)} notes, {tr} raw lines, {tu} units, {bad} failing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
