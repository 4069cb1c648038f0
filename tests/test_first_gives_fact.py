"""The how-long / when fact rule of `review.fact_missing`: a first cited line naming a little of the topic (between
`FIRST_FACT_MIN` and `FACT_MIN`) that gives the duration or date asked clears it (`first_gives_fact`)."""

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
    # a line naming a fifth of the topic or more is read by best_typed (the sentence-holds test), not here
    assert not first_gives_fact("how_long", (text, FACT_MIN))


def test_other_kinds_and_blank_dates():
    assert not first_gives_fact("why", ("Stopped for 6 weeks because of the rash.", 0.15))
    assert first_gives_fact("how_long", ("Course of 6 weeks.", 0.15))
    assert not first_gives_fact("how_long", ("Course of 6 weeks, last dose ___.", 0.15))  # the end is blanked
    assert not first_gives_fact("how_long", None)
