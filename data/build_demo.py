"""Build the bundled demo release (data/demo/) from the hand-written case files in data/demo-src/.

Each case file is YAML written by the team (every patient, value and date invented):

    case_id: "1"
    split: dev                      # dev | test | test-2026
    clinical_specialty: [Cardiology]
    patient_narrative: >-
      ...the patient's own words...
    patient_question:               # exact substrings of the narrative
      - "..."
    clinician_question: "..."
    note:                           # paragraphs, each a list of [label, sentence]
      - - [N, "HISTORY OF PRESENT ILLNESS:"]
      - - [E, "..."]                # E essential, S supplementary, N not-relevant
        - [N, "..."]
    clinician_answer:               # <= 75 words; cites note sentences by 1-based number
      - text: "..."
        cite: [2, 5]
    voice: v01-terse-resident       # who wrote it: the writer's voice (leave-one-voice-out folds)
    unanswerable_questions:         # optional: patient questions this note cannot answer (abstention data;
      - "..."                       #  not in the release: read from here by the answerability tools)

Sentence ids, paragraph ids and offsets are computed here, so they are always consistent.
The release format has no voice field, so the build also writes `voices.json` at the release root: every
case id -> its writer's voice, what leave-one-voice-out cross-validation groups by
(archehr.data.releases.load_voices; benchmarks/voices_cv.py).

Run: python data/build_demo.py   (rewrites data/demo/; needs the archehr package importable)
     python data/build_demo.py --out DIR   (writes the release under DIR instead: to check new case files)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import yaml

from archehr.data.model import (
    Case,
    ClinicianAnswerSentence,
    KeyEntry,
    MappingEntry,
    NoteSentence,
    Phrase,
    Relevance,
    SentenceLabel,
    Split,
)
from archehr.data.releases import VOICES_NAME, write_split

LABELS = {"E": Relevance.ESSENTIAL, "S": Relevance.SUPPLEMENTARY, "N": Relevance.NOT_RELEVANT}
HERE = Path(__file__).resolve().parent


KEYS = {"case_id", "split", "clinical_specialty", "patient_narrative", "patient_question", "clinician_question",
        "note", "clinician_answer", "voice", "unanswerable_questions"}
_VOICE = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")


class CaseFileError(ValueError):
    pass


def build_case(d: dict, file: str) -> tuple[str, Case, KeyEntry, MappingEntry]:
    cid = str(d["case_id"])

    def fail(msg: str) -> CaseFileError:
        return CaseFileError(f"{file}: case {cid}: {msg}")

    unknown = sorted(set(d) - KEYS)
    if unknown:
        raise fail(f"unknown field(s) {', '.join(unknown)} (known: {', '.join(sorted(KEYS))})")
    if not _VOICE.fullmatch(str(d.get("voice", ""))):
        raise fail(f"voice must be a lower-case name like v01-terse-resident, got {d.get('voice')!r}")
    unanswerable = d.get("unanswerable_questions", [])
    if not (isinstance(unanswerable, list) and all(isinstance(q, str) and q.strip() for q in unanswerable)):
        raise fail("unanswerable_questions must be a list of non-empty strings")
    narrative = d["patient_narrative"].strip()
    phrases = []
    for i, text in enumerate(d.get("patient_question", [])):
        text = text.strip()
        start = narrative.find(text)
        if start < 0:
            raise fail(f"question phrase {i} is not a substring of the narrative: {text!r}")
        phrases.append(Phrase(i, start, text))
    sentences, labels, paragraphs = [], [], []
    sid = 0
    for p_i, para in enumerate(d["note"], start=1):
        offset, parts = 0, []
        for item in para:
            if not (isinstance(item, list) and len(item) == 2 and item[0] in LABELS):
                raise fail(f"paragraph {p_i}: note item must be [E|S|N, text], got {item!r}")
            text = str(item[1]).strip()
            sid += 1
            sentences.append(NoteSentence(str(sid), p_i, offset, text))
            labels.append(SentenceLabel(str(sid), LABELS[item[0]]))
            parts.append(text)
            offset += len(text) + 1
        paragraphs.append(" ".join(parts))
    answer_sents, with_cites, without = [], [], []
    for a_i, a in enumerate(d["clinician_answer"], start=1):
        text = a["text"].strip()
        cites = [str(c) for c in a["cite"]]
        for c in cites:
            if not 1 <= int(c) <= sid:
                raise fail(f"answer sentence {a_i} cites {c}, but the note has {sid} sentences")
        answer_sents.append(ClinicianAnswerSentence(str(a_i), text, tuple(cites)))
        body, end = (text[:-1], text[-1]) if text[-1] in ".!?" else (text, ".")
        with_cites.append(f"{body} [{','.join(cites)}]{end}")
        without.append(text)
    n_words = len(" ".join(without).split())
    if n_words > 75:
        raise fail(f"clinician answer has {n_words} words (limit 75)")
    case = Case(cid, narrative, tuple(phrases), d["clinician_question"].strip(), "\n\n".join(paragraphs),
                tuple(sentences), tuple(d.get("clinical_specialty", [])))
    key = KeyEntry(cid, tuple(labels), " ".join(with_cites), " ".join(without), tuple(answer_sents))
    mapping = MappingEntry(cid, f"demo-{cid}", "archehr-demo (fictional)")
    return d["split"], case, key, mapping


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=HERE / "demo", help="release folder to write (default data/demo)")
    out = ap.parse_args(argv).out
    by_split: dict[str, list] = {}
    voices: dict[str, str] = {}
    for f in sorted(HERE.glob("demo-src/*.yaml")):
        d = yaml.safe_load(f.read_text(encoding="utf-8"))
        try:
            split, case, key, mapping = build_case(d, f.name)
        except (CaseFileError, KeyError, TypeError) as e:
            print(f"error: {f.name}: {e}", file=sys.stderr)
            return 2
        if case.case_id in voices:  # voices.json is keyed by case id, so ids must be unique across splits
            print(f"error: {f.name}: case id {case.case_id} is used by another case file", file=sys.stderr)
            return 2
        voices[case.case_id] = str(d["voice"])
        by_split.setdefault(split, []).append((case, key, mapping))
    for split, items in by_split.items():
        items.sort(key=lambda t: int(t[0].case_id))
        ids = [c.case_id for c, _, _ in items]
        if len(set(ids)) != len(ids):
            print(f"error: duplicate case ids in split {split}", file=sys.stderr)
            return 2
        write_split(Split(split, tuple(c for c, _, _ in items), tuple(k for _, k, _ in items),
                          tuple(m for _, _, m in items)), out / split)
        print(f"{split}: {len(items)} cases")
    ordered = {cid: voices[cid] for cid in sorted(voices, key=int)}
    (out / VOICES_NAME).write_text(json.dumps(ordered, indent=1) + "\n", encoding="utf-8")
    print(f"{VOICES_NAME}: {len(ordered)} cases in {len(set(ordered.values()))} voices")
    return 0


if __name__ == "__main__":
    sys.exit(main())
