"""Broken splits per 100 sentences on raw notes written the way EHR exports and patient portals look.

Each folder holds NAME.txt (the note as pasted) and NAME.sentences.txt (its gold split, one unit a line:
each header field, list item, appointment, lab or result line and "STOP ..." order is a unit, and a
hard-wrapped sentence is one). A gold unit is *broken* when no sentence of `split_note` equals it (white
space folded, a leading bullet, checkbox, emoji bullet or e-mail quote mark dropped): it was merged with a neighbour
or cut. `tests/fixtures/export_zoo` holds ten invented notes in export shapes rare in the writers' folders (CSV,
key=value, HL7 segments, JSON, a quoted e-mail, a markdown table, a phone app's emoji list, a fax cover, a 1.1
outline, a two-column leaflet), `tests/fixtures/export_zoo_blind` six more written after the rules for the first,
`tests/fixtures/export_zoo2_blind` fifteen more written before the rules that followed them,
`tests/fixtures/export_zoo3_blind` six more (Windows line endings and tabs, a fax's OCR, a portal thread with quoted
replies, markdown, an ISO timeline, quoted CSV); pass them as FOLDER to score them.

    python benchmarks/raw_note_split.py [FOLDER ...] [--splitter rules|spacy] [--show N]

Without FOLDER: every `data/everyday/raw-*` folder and every `data/everyday/*/raw` folder (held-out and
development writers), then the total over them.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from archehr.data.note_split import split_note

REPO = Path(__file__).resolve().parents[1]


# a bullet or a checkbox ("\u2610", "[ ]", "[x]"): the markers note_split reads as list items
# (also a phone app's symbol or emoji bullet, "\u2705 ", and an e-mail's quote marks, "> "; a run of them too: a
# markdown task's "- [ ] ", a quoted list's "> - ")
_BULLET = re.compile(r"^(?:(?:[-*\u2022\u00b7\u25aa\u25cf\u25e6\u2023\u2043\u25a1\u25a0\u2013\u25ba\u25b8"
                     r"\u27a2\u27a4\u2192\u2610\u2611\u2612\u2713\u2714\u2717\u2718]|\[[ xX\u2713\u2714*-]?\]"
                     r"|[\u2600-\u27bf\u2b00-\u2bff\U0001f300-\U0001faff]\ufe0f?|>+(?=\s)|o(?=[ \t]+[A-Z]))\s*)+")


# a hyphen or slash at a line's end inside a word or a range ("bleach-" + "based", "50-" + "69%", "tenofovir/" +
# "emtricitabine"): the gold unit writes it whole
_HYPHEN_BREAK = re.compile(r"(?<=\w[-/])[ \t]*\n\s*(?=[A-Za-z0-9])")


def fold(text: str) -> str:
    """White space folded and a leading bullet or checkbox dropped: whether "- " or "[ ] " belongs to its
    item is a convention that writers of gold splits differ on, not a split. A line break after a word's
    hyphen is dropped: a sentence's text keeps the note's characters, the gold unit joins the word."""
    # (a gold unit that joined the wrapped word with a space, "sun- damaged", writes the same join: the space after a
    # hyphen inside a word is dropped on both sides, so no split reads differently for it)
    folded = " ".join(_HYPHEN_BREAK.sub("", text).split())
    return _BULLET.sub("", re.sub(r"(?<=[A-Za-z0-9][-/]) (?=[A-Za-z0-9])", "", folded))


def score_folder(folder: Path, splitter: str) -> tuple[int, int, int, list[str]]:
    """(notes, gold units, broken units, the broken units' texts) of one folder."""
    notes = gold_total = broken_total = 0
    broken: list[str] = []
    for gold_file in sorted(folder.glob("*.sentences.txt")):
        note = gold_file.with_name(gold_file.name.replace(".sentences.txt", ".txt")).read_text()
        gold = [fold(line) for line in gold_file.read_text().splitlines() if line.strip()]
        got = {fold(s.text) for s in split_note(note, splitter).sentences}
        missed = [g for g in gold if g not in got]
        notes += 1
        gold_total += len(gold)
        broken_total += len(missed)
        broken += [f"{gold_file.name.split('.')[0]}: {g}" for g in missed]
    return notes, gold_total, broken_total, broken


def main() -> None:
    ap = argparse.ArgumentParser()
    everyday = REPO / "data" / "everyday"
    ap.add_argument("folders", nargs="*", type=Path,
                    default=sorted(p for p in [*everyday.glob("raw-*"), *everyday.glob("*/raw")] if p.is_dir()))
    ap.add_argument("--splitter", default="rules", choices=["rules", "spacy"])
    ap.add_argument("--show", type=int, default=0, help="print the first N broken gold units of each folder")
    args = ap.parse_args()
    totals = [0, 0, 0]
    for folder in args.folders:
        notes, gold, broken, texts = score_folder(folder, args.splitter)
        totals = [totals[0] + notes, totals[1] + gold, totals[2] + broken]
        name = f"{folder.parent.name}/{folder.name}" if folder.name == "raw" else folder.name
        print(f"{name}: {notes} notes, {gold} gold sentences, {broken} broken "
              f"= {100 * broken / max(gold, 1):.2f} per 100 sentences ({args.splitter})")
        for t in texts[:args.show]:
            print(f"  {t}")
    if len(args.folders) > 1:
        print(f"total: {totals[0]} notes, {totals[1]} gold sentences, {totals[2]} broken "
              f"= {100 * totals[2] / max(totals[1], 1):.2f} per 100 sentences ({args.splitter})")


if __name__ == "__main__":
    main()
