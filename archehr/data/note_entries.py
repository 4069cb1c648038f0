"""Medicine and order entries of a pasted note: which lines head an entry with its instruction lines under it, and
which medicine a unit's first sentence names.

`note_units` asks `entry_heads` / `group_heads` which lines of a paragraph head entries (a medicine or an order with
its instruction set in under it) or groups of entries; `note_split` asks `opens_medicine_entry` whether a unit's first
sentence names the medicine its later sentences are about, and the answer's matcher asks `medicine_name` for it.
"""

from __future__ import annotations

import re

from archehr.data.note_layout import FIELD, ITEM, ORDER
from archehr.data.note_sections import HEADER_ONLY
from archehr.data.note_stamps import starts_with_stamp


def order_over_instruction(head: str, line: str) -> bool:
    """Is `head` an order named with its colon and no instruction ("CONTINUE: aspirin 81 mg", "STOP: caffeine
    citrate") and `line`, at the same depth under it, that order's instruction, one sentence or more ("Take 1
    tablet by mouth at bedtime.")? Such a pair is one entry, as a drug's line with its instruction set in under it
    is; a heading ("LABS"), another order or a field after it is none."""
    head, line = head.strip(), line.strip()
    # (an order that holds its own dosing, strength and how often, is whole: "NEW: Fluticasone nasal spray 50
    # micrograms, 2 sprays each nostril once daily" + "Please keep taking all your other medicines as before.")
    dosed = bool(_STRENGTH_OR_FORM.search(head) and _HOW_OFTEN.search(head))
    return bool(ORDER.match(head)) and re.match(r"[A-Z]+:", head) is not None and not dosed \
        and _instruction_under(head, line)


# the labels of a line set in under an order that says why the order was given or what to mind about it ("Reason:
# low blood pressure on dialysis.", "Note: take it after dialysis."): most gold splits keep it a unit of its own
ORDER_NOTE_LABELS = ("Reason", "Reasons", "Indication", "Note", "Notes", "Comment", "Comments", "Rationale")
_ORDER_NOTE = re.compile(rf"^(?:{'|'.join(ORDER_NOTE_LABELS)}):[ \t]+\S")


def is_order_note(line: str) -> bool:
    """Is `line`, set in under an order row ("STOP      Metformin 500 mg twice daily"), a labelled note on it
    ("Reason: no effect after 6 months.")? It is a unit of its own, however the order's line ends. (Under a
    medicine of a portal's list, "ibuprofen 200 mg tablet" + "Reason: ...", gold splits keep the pair one unit: the
    caller asks only under orders.)"""
    return bool(_ORDER_NOTE.match(line.strip()))


# how often a dose is taken: "once daily", "twice a day", "every 6 hours", "at night", "as needed", "BD"
_HOW_OFTEN = re.compile(r"\b(?:(?:once|twice|\d|one|two|three|four) (?:times )?(?:a |per )?(?:day|daily|week|weekly)"
                        r"|daily|every \w+ (?:hours?|days?)|at night|at bedtime|in the morning|as (?:needed|required)"
                        r"|(?:OD|BD|BID|TDS|TID|QDS|QID|PRN|nocte|mane))\b")


def _instruction_under(head: str, line: str) -> bool:
    return not head.endswith((".", "!", "?", ":", ";")) and bool(re.match(r"[A-Z]", line)) \
        and line.endswith((".", "!", "?")) and not ORDER.match(line) and not FIELD.match(line)


def medicine_over_instruction(head: str, line: str) -> bool:
    """Is `head` a medicine named with its strength or its form and no instruction ("ibuprofen 600 mg tablet",
    "prenatal vitamin tablet") and `line`, at the same depth under it, an instruction to the patient ("Take 1
    tablet by mouth every 6 hours.", "You no longer need this medicine.")? In a list of such pairs each pair is
    one entry (`entry_heads`), as an order with its instruction is."""
    head, line = head.strip(), line.strip()
    return bool(_MEDICINE_LINE.match(head)) and bool(_INSTRUCTION.match(line)) and _instruction_under(head, line)


# a medicine named with its strength or its form, no more: "acetaminophen-codeine 300-30 mg tablet", "prenatal
# vitamin tablet"; an instruction that a patient is given about it: "Take 1 capsule ...", "You no longer need it."
_MEDICINE_LINE = re.compile(r"^[A-Za-z][\w-]*(?: [\w(),/.-]+){0,6}? (?:\d[\d.,/-]* ?(?:mg|mcg|g|mL|units?|mEq)"
                            r"(?: [a-z]+)?|(?:tablets?|capsules?|inhaler|liquid|suspension|solution|patch|cream"
                            r"|ointment|drops|spray|injection|pen|(?:pen |auto-?)?injector|(?:pre-?filled )?syringe))"
                            # (its other name in brackets after it: "Elvanse 30 mg capsules (lisdexamfetamine)")
                            r"(?: \([A-Za-z][\w /+-]*\))?$")
_INSTRUCTION = re.compile(r"^(?:Take|Give|Inject|Apply|Use|Inhale|Insert|Place|Put|Spray|Chew|Dissolve|Swallow"
                          r"|You|Do not|Don't)\b")


# a drug's strength or form somewhere in a line: "1% eye drops", "400 units", "2.5 mg", "800-160 mg tablet"
_STRENGTH_OR_FORM = re.compile(r"(?<![\w.])\d[\d.,/-]*\s?(?:mg|mcg|micrograms?|g|mL|units?|IU|mEq|%)(?![\w])"
                               r"|\b(?:tablets?|capsules?|inhaler|liquid|suspension|solution|patch|cream|ointment"
                               r"|drops|spray|injection|pen|gel)\b", re.IGNORECASE)


def medicine_head(line: str) -> bool:
    """Does a line head a medicine's entry: a drug named with its strength or form ("Ofloxacin 0.3% eye drops",
    "cephalexin 500 mg capsule"), or an order naming a drug ("STOP ibuprofen (Advil, Motrin)", "NEW: insulin NPH
    8 units"), ending no sentence? A list item, a timed entry and a field are no medicine's head: each keeps the
    sentences of the lines under it apart ("- Prednisolone 30 mg" + "   5-day course. No need to taper.")."""
    line = line.strip()
    if ITEM.match(line) or starts_with_stamp(line) or line.endswith((".", "!", "?", ":", ";")):
        return False
    if ORDER.match(line):
        return len(line.split()) >= 2
    return not FIELD.match(line) and bool(_STRENGTH_OR_FORM.search(line))


# a medicine named first, with its strength or form within its first five words ("Ofloxacin 0.3% eye drops Right eye:
# ...", "naloxone (NARCAN) 4 mg nasal spray Spray ...", "Olanzapine 2.5 mg STOPPED."), or an order naming a drug
_MEDICINE_FIRST = re.compile(r"^[A-Za-z][\w-]*(?: [\w(),/.-]+){0,3}? (?:\d[\d.,/-]* ?(?:mg|mcg|micrograms?|g|mL|units?"
                             r"|IU|mEq|%)(?![\w])|(?:tablets?|capsules?|inhaler|liquid|suspension|solution|patch|cream"
                             r"|ointment|drops|spray|injection|pen|gel)\b)")


# the form words after a strength that still name the medicine ("0.3% eye drops", "81 mg EC tablet", "4 mg nasal spray")
_FORM_AFTER = re.compile(r"(?: (?:eye|ear|nasal|oral|topical|EC|ER|XL|SR|MR|extended-release|chewable|sublingual"
                         r"|tablets?|capsules?|inhaler|liquid|suspension|solution|patch|cream|ointment|drops|spray"
                         r"|injection|pen|gel|film))+")


def medicine_name(sentence: str) -> str:
    """The medicine a unit's first sentence opens with, its strength and form ("Ofloxacin 0.3% eye drops" of
    "Ofloxacin 0.3% eye drops Right eye: 1 drop ...", "START aspirin 81 mg tablet" of "START aspirin 81 mg tablet Take
    1 ..."); "" when it opens with none."""
    body = ITEM.sub("", " ".join(sentence.split()), count=1)
    m = _MEDICINE_FIRST.match(body)
    if m is None:
        return " ".join(body.split()[:4]) if ORDER.match(body) else ""
    form = _FORM_AFTER.match(body, m.end())
    return body[:form.end() if form else m.end()]


def opens_medicine_entry(kind: str, sentence: str, wrapped: bool) -> bool:
    """Does a unit's first sentence name the medicine its later sentences are about: a medicine's entry (`kind`
    "entry"), or a list item, a row, a field or a line of its own (not prose `wrapped` over lines) that opens with a
    medicine and its strength or form, or with an order naming a drug ("START aspirin 81 mg tablet Take 1 tablet
    daily." + "Keep taking this lifelong.")?"""
    if kind == "entry":
        return True
    if kind in ("header", "page", "appointment", "lab") or (kind == "text" and wrapped):
        return False
    body = ITEM.sub("", sentence.strip(), count=1)
    if ORDER.match(body):
        return len(body.split()) >= 2
    # (a line of prose opens with its medicine's name in a capital: "Olanzapine 2.5 mg STOPPED. You told us ...", not
    # "She was given aspirin 300 mg ..." nor a dictation's "i have started donepezil 5 mg ...")
    if kind == "text" and not re.match(r"[A-Z][a-z-]+(?: [a-z-]+)? (?:\(|\d)", body):
        return False
    return bool(_MEDICINE_FIRST.match(body))


def entry_heads(raw: list[str]) -> set[int]:
    """The lines of a paragraph (indentation kept) that head entries: lines with lines set in deeper under
    them, when two or more at one depth have ("Amoxicillin ..." + "   Give 8.5 mL ...", "Acetaminophen ..." +
    "   Give 7 mL ..."); one such line alone may be a heading over items ("Diagnoses" + "   Pneumonia"), unless it
    names a medicine with its strength or form ("Salbutamol 100 micrograms inhaler" + "    Day 1: 6 puffs ...")."""
    leads = [len(x) - len(x.lstrip()) for x in raw]
    heads = [i for i in range(len(raw) - 1) if leads[i + 1] > leads[i] and not HEADER_ONLY.match(raw[i].strip())]
    heads = {i for i in heads if any(j != i and leads[j] == leads[i] for j in heads)}
    # an order with its instruction set in under it heads an entry alone ("START midodrine 5 mg" + "   Take it 30
    # min before dialysis."); over lines with no full stop it heads a group ("STOP these" + "   aspirin 81 mg"); a
    # medicine over its instruction set in under it heads an entry alone too ("Vitamin D 400 units" + "   Give 1 drop.")
    # (an instruction to the patient needs no full stop: "START Biktarvy 50/200/25 mg tablet" + "   Take 1 tablet by
    # mouth once a day for 28 days")
    return heads | {i for i in range(len(raw) - 1) if ORDER.match(raw[i].strip()) and leads[i + 1] > leads[i]
                    and (raw[i + 1].rstrip().endswith(".") or _INSTRUCTION.match(raw[i + 1].strip()))
                    and not raw[i].rstrip().endswith(":")} \
        | {i for i in range(len(raw) - 1) if leads[i + 1] == leads[i] and order_over_instruction(raw[i], raw[i + 1])} \
        | {i for i in range(len(raw) - 1)
           if leads[i + 1] > leads[i] and medicine_over_instruction(raw[i], raw[i + 1])} \
        | _medicine_heads(raw, leads) \
        | {i for i in range(len(raw) - 1) if leads[i + 1] > leads[i] and medicine_head(raw[i])
           and not ORDER.match(raw[i].strip())}


def _medicine_heads(raw: list[str], leads: list[int]) -> set[int]:
    """The medicines over their instructions at one depth, set in under a heading, when a paragraph lists two or
    more ("  ibuprofen 600 mg tablet" + "  Take 1 tablet ...", "  docusate 100 mg capsule" + "  Take 1 capsule ...").
    One such pair alone, or pairs flush with their heading, may be an export's lines, each a unit ("aspirin 81 mg EC
    tablet" + "You are now on apixaban, ...")."""
    pairs = {i for i in range(len(raw) - 1) if leads[i + 1] == leads[i] > min(leads)
             and medicine_over_instruction(raw[i], raw[i + 1])}
    return pairs if len(pairs) >= 2 else set()


def group_heads(raw: list[str], heads: set[int]) -> set[int]:
    """Entry heads whose next line heads entries set in deeper still: a heading over a group of entries
    ("STOP taking these medications" + "    ibuprofen 200 mg tablet" + "        Reason: ..."), a unit alone."""
    return {i for i in heads if i + 1 in heads and not raw[i].rstrip().endswith((".", ",", ";"))}
