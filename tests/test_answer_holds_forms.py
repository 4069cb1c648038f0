"""Question phrasings read as their kind (`archehr.answerability.cues`) and sentence forms holding a kind of answer
(`archehr.answerability.holds.HOLDS`): phrasings and sentences written for these tests (fictional)."""

from __future__ import annotations

import pytest

from archehr.answerability.holds import DONE, HOLDS, RANK_CUES
from archehr.answerability.kinds import ask_kind


@pytest.mark.parametrize(("question", "kind"), [
    ("is the amlodipine new? i dont remember being on it", "med_change"),
    ("how much of the long-acting insulin do I inject", "med_change"),
    ("at what point do i go to a&e with the ketones", "may_i"),
    ("should he ring 999 if it doesnt settle", "may_i"),
    ("can grandad have a pint at the party", "may_i"),
    ("was my tsh hi", "test_result"),
    ("my test in the emergency, it was negative or positive?", "test_result"),  # a place, not a return
    ("when should I go to the emergency room", "may_i"),
    ("can it go away on its own?", "other"),  # "it" is no person asking leave
    ("how many hours a night does he have to keep the mask on", "how_long"),  # hours, not a dose
])
def test_question_phrasings(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


@pytest.mark.parametrize(("kind", "text", "holds"), [
    # a blood pressure is no date: 92 and 60 are no day or month
    ("when", "Blood pressure was 92/60 standing.", False),
    ("when", "Stitches out at the practice on 14/10.", True),
    # a restriction with its length tells when it ends
    ("when", "Activity: No driving for 1 week.", True),
    ("when", "Avoid heavy lifting until the wound has healed.", True),
    ("when", "No driving.", False),
    # an activity ruled out, a care rule
    ("may_i", "Keep the catheter dressing dry; no showers, baths or swimming while it is in.", True),
    ("may_i", "Keep the wound clean.", True),
    ("may_i", "The wound looked clean.", False),
    # a wait in minutes is a duration
    ("how_long", "Stay upright for at least 30 minutes after the tablet.", True),
    ("how_long", "Recheck the sugar after 15 minutes.", True),
    ("how_long", "The tablet is white.", False),
    # "for the first 7 days" is a length like "for the next 7 days"
    ("how_long", "Wear close-fitting underpants day and night for the first 7 days.", True),
])
def test_sentence_forms(kind: str, text: str, holds: bool) -> None:
    assert bool(HOLDS[kind].search(text)) is holds


@pytest.mark.parametrize(("text", "done"), [
    ("He completed 21 days of aspirin.", True),
    ("Aspirin 300 mg daily was given for the first 14 days and has now STOPPED.", True),
    ("Bisoprolol was stopped at discharge; no palpitations for 1 week.", False),  # a stop told, not a course over
    ("Stop the aspirin after 14 days.", False),
])
def test_a_course_already_over(text: str, done: bool) -> None:
    assert bool(DONE.search(text)) is done


def test_why_not_asked_and_not_needed_said() -> None:
    assert RANK_CUES["asks_not"].search("why doesnt he need a new valve yet")
    assert RANK_CUES["asks_not"].search("why doesn't she need a scan")
    assert not RANK_CUES["asks_not"].search("why does he need a new valve")
    assert RANK_CUES["not_done"].search("At this stage there is no need for a valve replacement.")
    assert RANK_CUES["not_done"].search("He does not need antibiotics.")
    assert not RANK_CUES["not_done"].search("He needs antibiotics.")
