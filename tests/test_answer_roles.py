"""Sentence roles: a question asked in the note, a title, the patient's words, history, a test requested, a result
awaited, or the clinician's; and the answer ranking that weighs them (`archehr.answerability.roles`).

The notes are written for these tests (fictional).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import Line

import archehr
from archehr.answerability.roles import ROLE_FACTOR, ROLES, role_weights, sentence_roles
from archehr.data.note_split import split_note

THREAD = """Riverside Dermatology Patient Portal
Patient: Ann Example

[Patient message - 04/11/2026 18:05]
Thank you.
Is it ok for her to go swimming with school?

[Nurse reply - 05/11/2026 08:47, Jo Smith, Dermatology Nurse]
Yes, swimming is fine.
Apply emollient before swimming and shower straight afterwards.
"""

SOAP = """Lakeside Family Medicine - Progress Note
Patient: Ray Example
S:
57 yo M presents with 2 days of a painful right big toe.
Takes hydrochlorothiazide 25 mg daily for blood pressure.
O:
Right 1st MTP joint is red, warm and swollen.
A:
Acute gout flare.
P:
Stop hydrochlorothiazide.
Start losartan 50 mg daily for blood pressure.
"""


def _roles(*texts: str) -> tuple[str, ...]:
    return sentence_roles([Line(t) for t in texts])


def test_a_question_asked_in_the_note_and_its_thread_roles() -> None:
    split = split_note(THREAD, splitter="rules")
    got = dict(zip((" ".join(s.text.split()) for s in split.sentences), sentence_roles(split.sentences), strict=True))
    assert got["Is it ok for her to go swimming with school?"] == "question"
    # the patient's own message, its stamp line kept with its first sentence (the split convention)
    assert got["[Patient message - 04/11/2026 18:05] Thank you."] == "patient"
    assert got["Riverside Dermatology Patient Portal"] == "title"  # a letterhead naming a place
    assert got["Patient: Ann Example"] == "title"  # an identity field
    # the nurse's reply, its header sharing a sentence with its first line
    reply = "[Nurse reply - 05/11/2026 08:47, Jo Smith, Dermatology Nurse] Yes, swimming is fine."
    assert got[reply] == "clinician"
    assert _roles("[Nurse reply - 05/11/2026 08:47, Jo Smith, Dermatology Nurse]", "Yes.") == ("title", "clinician")


@pytest.mark.parametrize(("text", "role"), [
    ("Is this shingles??", "question"),
    ("Right shoulder pain ? rotator cuff", "clinician"),  # a shorthand query set apart is a doubt, not a question
    ("Could you please continue to prescribe the pregabalin?", "clinician"),  # a request to a colleague: a plan
    ("Please could you repeat her U&E in 2 weeks?", "clinician"),  # the request led by "please"
    ("I would be grateful if you could recheck his lipids in 3 months?", "clinician"),
    ("Could she go swimming next week?", "question"),  # not addressed to "you": a question
    ("PHYSIOTHERAPY INITIAL ASSESSMENT", "title"),
    ("Clinic: Harbourview Community Physio", "title"),
    ("Department: GENERAL SURGERY When: ___ (6 weeks)", "clinician"),  # a field going on into another one
    ("Review: 04/11/2026 at 08:30, Room 3", "clinician"),  # an appointment, not an identity field
    ("STOP aspirin", "clinician"),  # an order in capitals is no title
    ("Presenting complaint: Right shoulder pain for 8 weeks.", "complaint"),
    ("Indication: Recurrent tonsillitis, seven episodes in 12 months.", "history"),
    ("She has been taking pregabalin 75 mg twice daily.", "history"),
    ("His mother reports loud snoring every night.", "history"),
    ("The breastbone takes 6-8 weeks to heal.", "clinician"),  # "takes" without a patient as its subject
    ("I have also requested an HIV test and a full blood count.", "request"),
    ("We have sent a prescription for doxycycline.", "clinician"),  # sent, but no test
    ("The full blood count is normal and the HIV test is negative.", "clinician"),
    ("Final blood culture report pending.", "awaited"),
])
def test_role_of_a_sentence_alone(text: str, role: str) -> None:
    assert _roles(text) == (role,)


def test_sections_open_and_close_history() -> None:
    split = split_note(SOAP, splitter="rules")
    got = dict(zip((s.text for s in split.sentences), sentence_roles(split.sentences), strict=True))
    assert got["S:"] == "title"
    assert got["Takes hydrochlorothiazide 25 mg daily for blood pressure."] == "history"  # under "S:"
    assert got["Right 1st MTP joint is red, warm and swollen."] == "clinician"  # "O:" ends the history
    assert got["Stop hydrochlorothiazide."] == "clinician"
    # a heading that names no history ("PLAN", "Medication changes:") ends it too
    assert _roles("Interval history:", "She feels better.", "PLAN", "Repeat bloods in 6 weeks.") == (
        "title", "history", "title", "clinician")
    assert _roles("Home medication changes:", "Alendronate was not restarted.") == ("title", "clinician")


def test_a_note_in_capitals_has_no_title_by_its_capitals() -> None:
    # every line in capitals: a short line of capitals is no title there
    assert _roles("CHEST PAIN RESOLVED", "FOLLOW UP WITH CARDIOLOGY IN 2 WEEKS.") == ("clinician", "clinician")
    assert _roles("CHEST PAIN RESOLVED", "She was seen today and is much better now.") == ("title", "clinician")


def test_role_weights_by_kind() -> None:
    roles = ("question", "title", "history", "history", "clinician", "request")
    assert role_weights(roles, "med_change").tolist() == [0.0, 0.0, 0.5, 0.5, 1.0, 1.0]
    # for a why question the story before the visit loses less (its "Indication: ..." says a cause outright, which
    # the rank's firm why answer counts whole); a request only loses for a result
    assert role_weights(roles, "why").tolist() == [0.0, 0.0, 0.7, 0.7, 1.0, 1.0]
    assert role_weights(roles, "test_result")[-1] == 0.5
    assert set(ROLE_FACTOR) <= set(ROLES)
    assert role_weights((), "when").shape == (0,)


@pytest.mark.parametrize(("note", "question", "first"), [
    (THREAD, "is she allowed swimming with school", "swimming"),
    (SOAP, "is he still on the water pill?", "Stop hydrochlorothiazide."),
    (SOAP, "what do i take for my pressure now", "Start losartan"),
])
def test_the_answer_comes_first_not_the_question_or_the_history(note: str, question: str, first: str) -> None:
    r = archehr.answer(note, question, splitter="rules")
    assert not r.abstained
    by_id = {s.id: s.text for s in r.note.sentences}
    lead = by_id[r.lines[0].citations[0]]
    assert first in lead and not lead.endswith("?") and not lead.startswith("Takes")
    assert all(not by_id[c].endswith("?") for ln in r.lines for c in ln.citations)


def test_without_a_kind_the_rank_is_unchanged() -> None:
    from archehr.ask import _rank

    split = split_note(THREAD, splitter="rules")
    typed = np.linspace(1.0, 0.1, len(split.sentences))
    plain = _rank(None, np.zeros(len(typed)), typed, split)
    weighed = _rank(None, np.zeros(len(typed)), typed, split, "may_i")
    roles = sentence_roles(split.sentences)
    assert plain.tolist() == typed.tolist()  # no header ending in a colon in this note
    assert all(w == 0.0 for w, r in zip(weighed, roles, strict=True) if r in ("question", "title"))
