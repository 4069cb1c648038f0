#!/usr/bin/env python3
"""Check the gold splits: the units (white space and a line-initial bullet or checkbox removed) cover the
raw note exactly, in order. A free-standing separator between fields (" | ", a lone "/" or "·") and a line with
no letter or digit (a rule) belong to no unit; they are ignored on both sides."""
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MARKER = re.compile(r"^\s*(?:[•*-]|\[[ xX]\]|[☐☑])\s+")
SEPARATOR = re.compile(r"(?:(?<=\s)|^)[|/·](?=\s|$)")


def squash(text: str) -> str:
    return re.sub(r"\s+", "", SEPARATOR.sub(" ", text))


def check(name: str) -> tuple[int, list[str]]:
    raw = (HERE / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    units = (HERE / f"{name}.sentences.txt").read_text(encoding="utf-8").splitlines()
    errors = [f"unit {i} is empty or untrimmed" for i, u in enumerate(units, 1)
              if not u.strip() or u != u.strip()]
    target = squash("".join(MARKER.sub("", x, count=1) for x in raw if re.search(r"[A-Za-z0-9]", x)))
    got = "".join(squash(u) for u in units)
    if got != target:
        i = next((k for k in range(min(len(got), len(target))) if got[k] != target[k]), min(len(got), len(target)))
        errors.append(f"differs at {i}: raw {target[max(0, i - 30):i + 30]!r} / units {got[max(0, i - 30):i + 30]!r}")
    return len(units), errors


def main() -> int:
    names = sorted(p.name[:-4] for p in HERE.glob("*.txt") if not p.name.endswith(".sentences.txt"))
    bad = total = 0
    for name in names:
        n, errors = check(name)
        total += n
        bad += bool(errors)
        print(f"{'OK ' if not errors else 'BAD'} {name}: {n} units")
        for e in errors:
            print("   ", e)
    print(f"{len(names)} notes, {total} units, {bad} failing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
