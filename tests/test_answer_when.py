"""When questions (`archehr.answerability.when_answers`) and the lay names of tests, clinics and specialists they use
(`archehr/glossary/everyday.tsv`): which line `archehr answer`'s rank puts first.

Each note here is a few lines written for these tests (fictional); the strengths are the module's constants.
"""

from __future__ import annotations

import numpy as np
import pytest

from archehr.answerability.features import Concept
from archehr.answerability.kinds import answer_types, ask_kind
from archehr.answerability.roles import sentence_roles
from archehr.answerability.when_answers import (
    W_AGAIN,
    W_NEXT,
    W_NOT_VISIT,
    W_PAST,
    W_SCHEDULE,
    W_SLOT,
    W_STORY,
    W_TEST_VISIT,
    W_VISIT,
    asks_clinician,
    asks_past,
    asks_slot,
    asks_test,
    asks_visit,
    books_a_test,
    schedule_lift,
    story_shares,
    visit_lift,
    when_lift,
    when_strength,
)
from archehr.data.note_split import note_case
from archehr.glossary import load_lexicon
from archehr.relevance.text import tokens


def _concept(*words: str) -> Concept:
    return Concept(tuple(tokens(words[0])), frozenset(tuple(tokens(w)) for w in words))


def _held(text: str, question: str, holds: bool = True) -> tuple[bool, float]:
    h, held = when_strength([text], np.array([holds]), np.array([1.0 if holds else 0.0]), question)
    return bool(h[0]), float(held[0])


@pytest.mark.parametrize(("text", "strength"), [
    # a date of something done: half, for a question about what comes
    ("The pacemaker was inserted without complication on 10/06/2026.", W_PAST),
    ("Procedure: Dual chamber permanent pacemaker insertion (left subclavian), 10/06/2026.", W_PAST),
    ("Her pelvic MRI from 24/07/2026 shows a 3 cm cyst.", W_PAST),
    ("TSH 9.8 mIU/L (high), drawn 06/03/2025", W_PAST),  # a sample drawn on a date: a result, not a date to come
    # a date to come, even beside a verb of something done
    ("Stitches to be removed by the practice nurse on 14/05/2026.", 1.0),
    ("I have arranged a repeat pelvic ultrasound in 6 months.", 1.0),
])
def test_a_past_events_date_counts_less_for_what_comes(text: str, strength: float) -> None:
    assert _held(text, "When is his next scan?") == (True, pytest.approx(strength))


def test_a_past_events_date_answers_when_did() -> None:
    assert _held("The pacemaker was inserted on 10/06/2026.", "When was the pacemaker put in?") == (True, 1.0)
    assert asks_past("when did she start the tablets") and not asks_past("when does she start the tablets")


def test_a_booked_slot_rises_for_a_question_asking_a_date_or_time() -> None:
    slot = "Pacemaker clinic (Cardiology Outpatients) on 20/07/2026 at 10:15am."
    assert _held(slot, "what time do we need to be there") == (True, pytest.approx(1 + W_SLOT))
    assert _held(slot, "liver clinic date?") == (True, pytest.approx(1 + W_SLOT))
    # a question not asking a booked event, and opening hours, are no slot
    assert _held(slot, "when can he drive") == (True, 1.0)
    assert _held("Call the nurse line (Monday to Friday, 8am to 6pm).", "what time should I ring") == (True, 1.0)
    assert asks_slot("When is the appointment with the doctor of the eyes?") and not asks_slot("when can he swim")


def test_next_asked_and_said_rises() -> None:
    assert _held("Next lithium level in 3 months.", "next lithium blood test when") == (True, pytest.approx(1 + W_NEXT))
    assert _held("Lithium level 5-7 days after the dose change.", "next lithium blood test when") == (True, 1.0)


def test_an_interval_told_of_what_was_holds_nothing() -> None:
    text = "Blood pressure was 112/64 after 3 minutes standing."
    assert _held(text, "When does she need her blood pressure checked again?", holds=False) == (False, 0.0)


@pytest.mark.parametrize("text", [
    "Please provide a semen sample 16 weeks after your vasectomy.",
    "4. If there is no improvement after 5 minutes, give the second adrenaline pen.",
    "A flexible sigmoidoscopy has been requested within the next 4 weeks.",
])
def test_an_interval_after_an_event_holds_a_when_answer(text: str) -> None:
    assert _held(text, "when use the 2nd pen", holds=False) == (True, 1.0)


def test_a_sentence_with_no_when_answer_stays_without() -> None:
    assert _held("Use the adrenaline pen into the outer thigh.", "when use the 2nd pen", holds=False) == (False, 0.0)


def test_the_story_before_the_asked_clause_is_background() -> None:
    q = "My husband had the snip on Friday. When does he have to do the sperm test?"
    assert story_shares([_concept("snip"), _concept("sperm test")], q).tolist() == [W_STORY, 1.0]
    # no story, or no concept in the asked clause: every concept counts whole
    assert story_shares([_concept("scan")], "When is my next scan?").tolist() == [1.0]
    assert story_shares([_concept("snip")], "He had the snip. When?").tolist() == [1.0]
    q2 = "my chest still aches when i press on it, but when can i go back to work"  # "when i press" tells, not asks
    assert story_shares([_concept("chest"), _concept("work")], q2).tolist() == [W_STORY, 1.0]


def test_a_story_word_naming_the_asked_thing_again_counts_whole() -> None:
    q = "When will the catheter come out? I hate the leg bag and I want to go back to golf"
    shares = story_shares([_concept("catheter", "foley"), _concept("leg bag", "foley"), _concept("golf")], q)
    assert shares.tolist() == [1.0, 1.0, W_STORY]


@pytest.mark.parametrize(("question", "kind"), [
    ("liver clinic date?", "when"),
    ("whens my treadmill test", "when"),
    ("is he up to date with his jabs", "other"),
])
def test_a_date_or_whens_asks_when(question: str, kind: str) -> None:
    assert ask_kind(question) == kind


@pytest.mark.parametrize(("term", "has", "lacks"), [
    ("doctor of the eyes", "ophthalmology", None),
    ("camera test up my bottom", "sigmoidoscopy", "bronchoscopy"),
    ("bladder camera", "cystoscopy", "colonoscopy"),
    ("the snip", "vasectomy", None),
    ("sperm test", "semen sample", None),
    ("pacemaker check", "pacemaker clinic", None),
    ("2nd", "second", None),
    ("school", "daycare", "day care"),  # "day care" would leave "care" alone once its filler word goes
])
def test_lay_names_of_tests_and_clinics(term: str, has: str, lacks: str | None) -> None:
    entry = load_lexicon().get(term)
    assert entry is not None and has in entry.expansions
    assert lacks is None or lacks not in entry.expansions


def test_a_booked_slot_in_a_history_section_is_a_plan() -> None:
    note = ("Background\nHe completed a detox on 10 May.\n"
            "Attend the hepatology clinic with Dr Fair on 24/06/2026 at 14:20, Outpatients B.\n")
    case, _ = note_case(note, "liver clinic date?", splitter="rules")
    roles = sentence_roles(case.sentences)
    assert roles[-1] == "clinician" and roles[-2] == "history"


def _first(note: str, question: str) -> str:
    case, _ = note_case(note, question, splitter="rules")
    return case.sentences[int(np.argmax(answer_types(case).ranking))].text


APPOINTMENTS = ("Follow-up appointments:\n"
                "GP review in 1 week to check the rash.\n"
                "Eye Clinic (Ophthalmology), Level 2 Outpatients, Friday 23/10/2026 at 9:30 am.\n"
                "Dermatology clinic, Monday 02/11/2026 at 14:00.\n")


def test_the_named_clinic_picks_its_own_appointment() -> None:
    assert _first(APPOINTMENTS, "When is the appointment with the doctor of the eyes?").startswith("Eye Clinic")
    assert _first(APPOINTMENTS, "when do i see the skin doctor").startswith("Dermatology")


def test_the_date_to_come_comes_before_the_date_done() -> None:
    note = ("The pacemaker was inserted without complication on 10/06/2026.\n"
            "Pacemaker clinic (Cardiology Outpatients) on 20/07/2026 at 10:15am.\n")
    assert _first(note, "when is his first pacemaker check and what time do we need to be there").startswith(
        "Pacemaker clinic")


def test_a_lay_test_name_finds_its_date() -> None:
    note = ("Stool culture was negative.\n"
            "A flexible sigmoidoscopy has been requested within the next 4 weeks.\n"
            "I will see him again in clinic in 6 weeks.\n")
    assert _first(note, "when do i get the camera test up my bottom").startswith("A flexible sigmoidoscopy")
    note2 = ("Sperm can remain in the tubes for several months.\n"
             "Contact the nurse line (Monday to Friday, 8am to 6pm) with any problem.\n"
             "Please provide a semen sample 16 weeks after your vasectomy.\n")
    assert _first(note2, "My husband had the snip on Friday. When does he have to do the sperm test?").startswith(
        "Please provide")


def test_a_question_asking_a_visit_lifts_the_follow_up_line_whatever_it_names() -> None:
    texts = ["5. School allergy forms completed today.", "6. Return in 12 months, sooner if another reaction.",
             "08/12/2026 | 9:30 AM | Pediatric Ophthalmology | Eye exam"]
    assert asks_visit("when do we go back to the allergy dr") and not asks_visit("when can I take the plasters off")
    assert visit_lift(texts, "when do we go back to the allergy dr").tolist() == [0.0, W_VISIT, W_VISIT]
    assert visit_lift(texts, "when can I take the plasters off").tolist() == [0.0, 0.0, 0.0]
    # a when answer that is no visit keeps a share of it
    assert _held(texts[0], "when do we go back to the allergy dr") == (True, pytest.approx(W_NOT_VISIT))


def test_a_booked_slot_holds_a_when_answer() -> None:
    text = "Wound check with practice nurse, Harrowgate Health Centre, 9 June 2026, 10:15"
    assert _held(text, "when is the nurse checking my incisions", holds=False) == (True, 1.0)


def test_a_tests_schedule_rises_for_a_when_question_asking_a_test() -> None:
    texts = ["She will need blood monitoring every 2 weeks for the first 6 weeks.",
             "Repeat U&E in 1 week.",
             "INR weekly until stable.",
             "Baseline bloods were taken today.",  # what was done: no schedule
             "Follow up in clinic in 3 months.",  # a visit, no test
             "Bloods are important."]  # a test, no interval
    got = schedule_lift(texts, "how often do i need my bloods done")
    assert got.tolist() == [W_SCHEDULE, W_SCHEDULE, W_SCHEDULE, 0.0, 0.0, 0.0]
    # asking the next one: a repeat said adds W_AGAIN ("Repeat U&E" and "monitoring" is no repeat)
    again = schedule_lift(texts, "when is my next blood test")
    assert again.tolist() == pytest.approx([W_SCHEDULE, W_SCHEDULE + W_AGAIN, W_SCHEDULE, 0.0, 0.0, 0.0])
    # a question asking no test, or when one was done, lifts nothing
    assert schedule_lift(texts, "when can he drive").tolist() == [0.0] * 6
    assert schedule_lift(texts, "when was my blood test") .tolist() == [0.0] * 6
    assert asks_test("when do i need my sugar blood test again") and not asks_test("when did they do the scan")
    # the when lift adds the visit's and the test's
    both = ["Repeat bloods and clinic review in 2 weeks."]
    assert when_lift(both, "when is my next check up and blood test").tolist() == pytest.approx(
        [W_VISIT + W_SCHEDULE + W_AGAIN])


def test_a_place_named_is_no_visit_asked() -> None:
    assert asks_visit("when does he need to see the asthma nurse at our gp surgery")  # "see the ... nurse"
    assert not asks_visit("when's his next hormone jab due at the GP")  # the jab is asked, the GP is where
    assert asks_visit("when is my next GP appointment")


def test_a_test_due_in_a_month_of_a_year_is_its_schedule() -> None:
    texts = ["Next PSA due April 2027.", "PSA was 0.1 in April 2025."]
    assert schedule_lift(texts, "when is his next PSA blood test due").tolist() == pytest.approx(
        [W_SCHEDULE + W_AGAIN, 0.0])


def test_a_tests_slot_is_no_doctors_visit() -> None:
    lab = "Lab visit (fasting not needed) Monday, April 19, 2032 at 8:00 AM Brookfield Lab, 1st floor"
    doctor = "Follow-up visit Thursday, May 6, 2032 at 3:30 PM Dr. Ines Varga, Brookfield Medicine, Room 4B"
    question = "When do I go back in to see the doctor?"
    assert asks_clinician(question) and not asks_clinician("when is my next blood test")
    assert books_a_test(lab) and not books_a_test(doctor)
    # a clinician's own "see him again ... with blood counts" is a visit, not a test's slot
    assert not books_a_test("He will see me again in one month, with blood counts and an ECG.")
    assert _held(lab, question) == (True, pytest.approx((1 + W_SLOT) * W_TEST_VISIT))
    assert _held(doctor, question) == (True, pytest.approx(1 + W_SLOT))
    assert visit_lift([lab, doctor], question).tolist() == [0.0, W_VISIT]
    assert _first(lab + "\n\n" + doctor + "\n", question).startswith("Follow-up visit")
    # asking for the test itself, the lab's slot keeps its whole strength
    assert _held(lab, "when is my blood test") == (True, pytest.approx(1.0))


def test_the_notes_own_date_is_no_date_to_come() -> None:
    note = ("Physiotherapy Outpatients\n"
            "Date: 21/10/2026\n"
            "Knee stiffer after a long drive; exercises reviewed.\n"
            "Review: 04/11/2026 at 08:30, Room 3, with Sam Ortega (Physiotherapist)\n")
    assert _first(note, "When is my next physio appointmant and what time?").startswith("Review: 04/11/2026")
    # half as a date of what was, and a share again as no visit
    strength = W_PAST * W_NOT_VISIT
    assert _held("Date: 21/10/2026", "when is my next physio appointment") == (True, pytest.approx(strength))


def test_a_dotted_log_stamp_is_no_booked_slot() -> None:
    # `dates.DATE` reads "18.03.2026" and `dates.CLOCK` "10.20"; the slot reads neither, so an entry's stamp is no slot
    asked = "what time do we need to be there"
    assert _held("18.03.2026 10.20 Returned from the endoscopy suite.", asked) == (True, 1.0)
    assert _held("Scan on 18/03/2026 at 10:20.", asked) == (True, pytest.approx(1 + W_SLOT))
