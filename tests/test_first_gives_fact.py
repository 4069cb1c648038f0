"""The how-long / when fact rule of `review.fact_missing`: a first cited line naming some of the topic (at least
`FIRST_FACT_MIN`) that gives the duration or date asked clears it (`first_gives_fact`)."""

from types import SimpleNamespace

from archehr.answerability.review import FACT_MIN, FIRST_FACT_MIN, fact_missing, first_gives_fact


def _types(kind: str) -> SimpleNamespace:
    # no sentence naming a fifth of the topic holds the asked kind: the rule's own condition
    return SimpleNamespace(kind=kind, best_typed=0.0, best_firm=0.0, missing_drugs=0, missing_activities=0)


def test_first_line_giving_a_duration_clears_the_rule():
    line = ("Keep the boot on for 6 weeks, day and night.", 0.15)
    assert first_gives_fact("how_long", line)
    assert not fact_missing(_types("how_long"), line, "how long does my grandad wear the boot")


def test_first_line_giving_a_date_clears_the_rule():
    line = ("Seen by the foot team; they will see him again in 3 weeks.", 0.12)
    assert first_gives_fact("when", line)
    assert not fact_missing(_types("when"), line, "when is his next podiatry check")


def test_first_line_without_the_fact_still_flags():
    line = ("Keep the boot on day and night.", 0.15)
    assert not first_gives_fact("how_long", line)
    assert fact_missing(_types("how_long"), line, "how long does my grandad wear the boot")


def test_topic_share_bounds():
    text = "Keep the boot on for 6 weeks."
    assert not first_gives_fact("how_long", (text, FIRST_FACT_MIN - 0.01))  # names too little of the topic
    assert first_gives_fact("how_long", (text, FIRST_FACT_MIN))
    # a line naming a fifth of the topic or more gives the fact too, also in a form the sentence-holds test of
    # best_typed does not read ("for a further 4 weeks")
    assert first_gives_fact("how_long", (text, FACT_MIN))
    line = ("Sick note issued for a further 4 weeks.", 0.4)
    assert first_gives_fact("how_long", line)
    assert not fact_missing(_types("how_long"), line, "how long is her sick note for")
    assert fact_missing(_types("how_long"), ("Sick note issued by the ward.", 0.4), "how long is her sick note for")


def test_the_first_lines_share_is_read_from_the_asking_clauses_topic():
    import numpy as np

    from archehr.answerability.review import _asked_share

    lines = ["Ward round seen today.", "The drip course is planned for 6 weeks."]
    split = SimpleNamespace(sentences=[SimpleNamespace(text=t) for t in lines])
    # the line names little of a long letter (0.04) and much of its asking clause (0.15, as the fact rules read it)
    asked = SimpleNamespace(topic=np.array([0.0, 0.15]))
    best = _asked_share(asked, (lines[1], 0.04), split)
    assert best == (lines[1], 0.15)
    assert first_gives_fact("how_long", best) and not first_gives_fact("how_long", (lines[1], 0.04))
    # never lower than the whole question's share; a line that is no sentence of the note is left as it is
    assert _asked_share(asked, (lines[0], 0.3), split) == (lines[0], 0.3)
    assert _asked_share(asked, ("Not a line of the note.", 0.1), split) == ("Not a line of the note.", 0.1)
    assert _asked_share(asked, None, split) is None


def test_other_kinds_and_blank_dates():
    assert not first_gives_fact("why", ("Stopped for 6 weeks because of the rash.", 0.15))
    assert first_gives_fact("how_long", ("Course of 6 weeks.", 0.15))
    assert not first_gives_fact("how_long", ("Course of 6 weeks, last dose ___.", 0.15))  # the end is blanked
    assert not first_gives_fact("how_long", None)
