"""The model's doubt cleared by a first line giving the asked length or date naming a tenth of the topic
(`review.review_flags` with `first_gives_fact`)."""

from __future__ import annotations

from archehr.answerability.kinds import answer_types
from archehr.answerability.review import first_gives_fact, review_flags
from archehr.data.note_split import note_case


class _Doubts:
    """A confidence model whose P is always between its threshold and its review level: it flags, never declines."""

    threshold = 0.1
    review = 0.5

    def abstains(self, p: float) -> bool:
        return False

    def flags(self, p: float) -> bool:
        return True


NOTE = ("Plan:\nIron tablets (ferrous fumarate 210 mg) once a day with orange juice.\n"
        "Carry on with the iron for 3 months, then repeat the full blood count.\n"
        "Iron tablets can turn the stools black.\n")


def test_a_length_naming_a_tenth_of_the_topic_clears_the_doubt() -> None:
    q = "How long does my daughter keep going with the iron tablets?"
    case, split = note_case(NOTE, q, splitter="rules")
    types = answer_types(case)
    assert types.kind == "how_long"
    line = "Carry on with the iron for 3 months, then repeat the full blood count."
    assert first_gives_fact("how_long", (line, 0.15), q)
    assert review_flags(_Doubts(), 0.3, False, types, (line, 0.15), q, split) == (False, False)
    # under a tenth of the topic, or no length in the line: the model's doubt stands
    assert not first_gives_fact("how_long", (line, 0.05), q)
    black = "Iron tablets can turn the stools black."
    assert review_flags(_Doubts(), 0.3, False, types, (black, 0.15), q, split)[0]


def test_a_date_naming_a_tenth_of_the_topic_clears_the_doubt() -> None:
    q = "When is my daughter's blood count to be checked again?"
    note = "Plan:\nRepeat full blood count in 3 months.\nIron tablets once a day.\n"
    case, split = note_case(note, q, splitter="rules")
    types = answer_types(case)
    assert types.kind == "when"
    assert first_gives_fact("when", ("Repeat full blood count in 3 months.", 0.12), q)
    assert not first_gives_fact("when", ("Iron tablets once a day.", 0.12), q)
