"""`when_other.dates_other_event`: a when answer's first line dating another event than the one asked."""

from archehr.answerability.when_other import dates_other_event, other_person, signature


def test_signature_with_its_time_dates_the_writing():
    assert signature("J. Fenwick, Consultant Orthopaedic Surgeon 12/03/2026 16:05")
    assert dates_other_event("when do I see the surgeon again", "J. Fenwick, Orthopaedics, 12/03/2026 16:05")


def test_booked_slot_is_no_signature():
    assert not signature("Review in fracture clinic 12/03/2026 16:05")
    assert not dates_other_event("when do I see the surgeon again", "Fracture clinic review 12/03/2026 at 16:05")


def test_another_person_by_title():
    assert other_person("when is my appointment with mr reyes", "See Dr. Okafor on 4 May at 10:00")
    assert not other_person("when is my appointment with mr reyes", "See Mr Reyes on 4 May at 10:00")
    # a title before a word ("the dr about") is no person asked
    assert not other_person("when do we see the dr about the results", "See Dr. Okafor on 4 May at 10:00")


def test_a_test_for_a_visit_asked():
    assert dates_other_event("when is his appointment with the kidney specialist", "Repeat U&E in 4 weeks.")
    assert not dates_other_event("when are his next bloods", "Repeat U&E in 4 weeks.")


def test_a_consultation_for_an_operation_asked():
    line = "Monday 3 March 2026 9:00 AM Mr T. Hale - surgical consultation (appendix removal)"
    assert dates_other_event("when are they taking his appendix out", line)
    assert not dates_other_event("when are they taking his appendix out", "Appendicectomy booked for 3 March 2026.")


def test_a_question_asking_the_past_is_left_alone():
    assert not dates_other_event("when did I see the surgeon", "J. Fenwick, Orthopaedics, 12/03/2026 16:05")
