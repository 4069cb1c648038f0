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


@pytest.mark.parametrize(("text", "holds"), [
    # a date with a month's name, a time of day
    ("Dressing check with the practice nurse, 4 July 2027, 10:15.", True),
    ("Wed Apr 14, 2027 3:40 PM Hand therapy, Suite 2", True),
    ("Bring the pump back on Feb 3.", True),
    ("Bone density scan October 2027.", True),
    ("The ambulance will pick her up at about 10am.", True),
    ("Nurses call between 08:00 and 10:00.", True),
    # an interval from an event, a programme's weeks, an age, working days, a frequency, a day of the month
    ("Give a stool sample 6 weeks after the last tablet.", True),
    ("The physio will ring after 3 weeks.", True),
    ("Cycling allowed from week 10 if the knee is settled.", True),
    ("Soft foods: weeks 2-3", True),
    ("Weigh him again at 10 days old.", True),
    ("The pharmacy will post the kit within 3 working days.", True),
    ("Eye drops prescribed monthly by the GP.", True),
    ("Come back in on the 14th for the scan.", True),
    # a value, a blood pressure, a count that is no time, a word beginning with a month's letters: no date
    ("Creatinine 1.25, potassium 4.1.", False),
    ("Sepsis 6 bundle completed.", False),
    ("14 markers were within range.", False),
    ("Option 1 may help the pain.", False),
])
def test_when_dates_and_times(text: str, holds: bool) -> None:
    assert bool(HOLDS["when"].search(text)) is holds


@pytest.mark.parametrize(("text", "holds"), [
    # a count of time in any form
    ("Session length: 3 hrs.", True),
    ("She will need 10 days off nursery.", True),
    ("Replace the sensor every 10 days.", True),
    ("Aspirin 75 mg daily long term.", True),
    ("Her son will stay with her for the next three nights.", True),
    ("Zopiclone at night for up to 4 nights.", True),
    ("Wait 2 hours before eating.", True),
    ("Bruising is common in the first 5 days.", True),
    ("Steroid cream max 1 week at a time.", True),
    ("Enoxaparin daily, 35 days in total.", True),
    ("The tablets can take eight months to work.", True),
    ("Take the antibiotic for fourteen days.", True),
    ("Ibuprofen 400 mg every 8 hours with food.", False),  # a dose's spacing, no length
    ("Echo 04/12: normal valves.", False),  # a date, not the shorthand for four months
    ("Wear the sling for the first week.", True),
    ("No driving for the rest of the day.", True),
    ("Swelling should go down over 2-3/52.", True),
    ("Off work for 2/12.", True),
    # an age, a time past, a count of something else
    ("A 45-year-old man with chest pain.", False),
    ("The pain started 3 days ago.", False),
    ("Potassium 4.2, sodium 139.", False),
])
def test_how_long_lengths(text: str, holds: bool) -> None:
    assert bool(HOLDS["how_long"].search(text)) is holds


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


@pytest.mark.parametrize(("kind", "text", "holds"), [
    # a medicine in other units, not needed, carried on or given
    ("med_change", "Iron drops, 15 IU once a day.", True),
    ("med_change", "No further painkillers are needed.", True),
    ("med_change", "Please carry on with the eye drops as before.", True),
    ("med_change", "Tetanus booster given in the department.", True),
    ("med_change", "She walked to the window.", False),
    # a value in a table's cell, a finding in other words
    ("test_result", "Ferritin | 14 | ug/L | 30 - 400", True),
    ("test_result", "Hepatitis C RNA undetectable.", True),
    ("test_result", "No metal fragment seen on the film.", True),
    ("test_result", "He walked to the car.", False),
    # a permission or a rule in other words
    ("may_i", "Cycling is fine once the stitches are out.", True),
    ("may_i", "Nil by mouth from midnight.", True),
    ("may_i", "No gardening for a fortnight.", True),
    ("may_i", "Keep coffee below two cups a day.", True),
    ("may_i", "He walked to the car.", False),
    # a reason in other words
    ("why", "The dose was halved as her pulse was slow.", True),
    ("why", "Ice packs to settle the swelling.", True),
    ("why", "Aspirin is not suitable with her ulcer.", True),
    ("why", "Aching is common after the first injection.", True),
    ("why", "Ibuprofen as well as paracetamol.", False),
    ("why", "He walked to the car.", False),
])
def test_other_kinds_in_other_words(kind: str, text: str, holds: bool) -> None:
    assert bool(HOLDS[kind].search(text)) is holds
