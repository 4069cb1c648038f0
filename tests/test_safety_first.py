"""A safety net does not lead the answer to a dose, a result, a length or a cause (invented notes)."""

import numpy as np

from archehr.answerability.safety_first import asks_help, furniture, safety_first, safety_net

TEXTS = ["Come back to the emergency department if the rash spreads or you get a fever.",  # the safety net
         "Cefuroxime stopped; finish the course of doxycycline 100 mg daily.",  # the medicine's line
         "Seen with her partner."]
RANK = np.array([1.0, 0.5, 0.1])
TOPIC = np.array([0.7, 0.6, 0.0])
DOSE_Q = "how many of the doxy tablets is she meant to take"


def test_safety_net_lines_are_read() -> None:
    assert safety_net("Return to ED for chest pain or fainting.")
    assert safety_net("10/02/2026 14:10 Safety net: if breathless at rest, ring for an ambulance.")
    assert safety_net("Please call 999 if he becomes drowsy.")
    assert safety_net("Go straight to A&E if the wound bleeds through the dressing.")


def test_other_lines_are_no_safety_net() -> None:
    assert not safety_net("Amoxicillin 500 mg three times a day for 7 days.")
    assert not safety_net("He was brought to ED by ambulance after a fall.")  # a past visit, no condition to come
    assert not safety_net("Potassium 5.9 (H), repeat in one week.")


def test_question_asking_for_help_is_read() -> None:
    assert asks_help("do we need to take him back to A&E if the rash spreads")
    assert asks_help("at what point should I ring for an ambulance")
    assert asks_help("who do I call if the fever comes back")
    assert asks_help("if she faints again do we just watch her or take her in")
    assert asks_help("what should her husband do when she has one of these turns")
    assert not asks_help("can she take ibuprofen again for her knee")
    assert not asks_help("they gave him a water tablet in the hospital, is he still on it")
    assert not asks_help("how long is he on the antibiotics for")


def test_question_not_asking_for_help_leads_with_the_medicine_line() -> None:
    assert safety_first(DOSE_Q, [0, 1, 2], RANK, TEXTS, TOPIC) == 1
    assert safety_first("why did they change her antibiotic", [0, 1, 2], RANK, TEXTS, TOPIC) == 1


def test_question_asking_for_help_keeps_the_safety_net() -> None:
    assert safety_first("when should we go back to the emergency department", [0, 1, 2], RANK, TEXTS, TOPIC) is None


def test_line_naming_nothing_asked_or_ranked_far_below_is_not_put_first() -> None:
    assert safety_first(DOSE_Q, [0, 1, 2], RANK, TEXTS, np.array([0.7, 0.0, 0.0])) is None
    assert safety_first(DOSE_Q, [0, 1, 2], np.array([1.0, 0.2, 0.1]), TEXTS, TOPIC) is None


def test_first_line_that_is_no_safety_net_is_kept() -> None:
    assert safety_first(DOSE_Q, [1, 0, 2], RANK, TEXTS, TOPIC) is None


def test_page_furniture_is_read() -> None:
    assert furniture("Hillside Eye Unit      CLINIC LETTER      Page 2 of 3")
    assert furniture("==== Part C: to be filled in by the ward ====")
    assert not furniture("Dressing changed, wound clean.")
    assert not furniture("Page 1 of 2 Hillside Eye Unit. Her pressure today was 21 in the left eye and the drops "
                         "are to carry on for another month as before.")  # run on into the note's text


def test_page_furniture_gives_way_whatever_is_asked() -> None:
    texts = ["Hillside Eye Unit      CLINIC LETTER      Page 2 of 3", "Her eye pressure was 21 today.", "Seen alone."]
    asked = "when should I go back to the emergency department"
    assert safety_first(asked, [0, 1, 2], RANK, texts, TOPIC) == 1


def test_page_counts_read_as_the_splitter_reads_them() -> None:
    # the splitter's page marks ("Page 1/2", "Page 1 de/of 2") are furniture here too; a long line of text is not
    assert furniture("Page 1/2") and furniture("Page 1 de/of 2") and furniture("Page 2 of 3")
    assert not furniture("The page 1 of 2 of the leaflet says to take it with food every morning before the walk")
