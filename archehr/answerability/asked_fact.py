"""The note names what is asked about but not the asked fact: a test with no result, a medicine with no duration, an
event with no date.

A question naming a test ("what did the MRI of my brain show"), a medicine ("how long will I stay on the
mirabegron") or an event ("when does the physio start") often meets a note that names the same thing and says
no more of it than that it was ordered, planned, started or referred for ("Outpatient MRI brain ... ordered",
"START mirabegron 50 mg once daily", "Referred to ... physiotherapy"). Those sentences share the question's
words, so the answer looks confident; the fact asked is not there. `fact_unsaid` reads the sentences naming
the asked thing (the question's most specific concept the note names: the one the fewest sentences name) and
tells whether any of them gives the asked fact:

- test_result (`asked_result`): a result (`test_words.RESULT` or `RESULT_GIVEN`: a value with its unit, flag or
  range, a finding, normal or abnormal words, not inside a condition: "until we tell you it is clear") in a sentence
  that does not say the test was not done; when the question quotes the value itself ("his CRP was 46, is that bad"),
  what is asked is its verdict (`test_words.VERDICT`);
- how_long (`asked_time`): a course's length (`COURSE`: "for 6 weeks", "x 5 days", "until review", "long-term"; not
  a dose's spacing, "2 hours apart", nor a quantity dispensed, "#20", "x 20 tablets", "14 x 2 mg") in such a sentence
  or the one after it; of a medicine the note names, in the sentences naming it, or the one after each when that one
  names no other medicine ("Oxycodone 5 mg, #20" then "Cefalexin 500 mg for 7 days": no course of the oxycodone);
- when (`asked_time`): a date, a weekday, a clock time or an interval (`WHEN`) in such a sentence or the one after it.

`archehr answer` flags an answer for review when none does (`archehr.answerability.review`). The rules live by theme:
`asked_thing` (the sentences naming the asked thing), `asked_result` (a result not given, given only at an earlier
time, or named only as a risk), `asked_time` (no course's length, date or span in years), `date_unset` (a date yet to
be set), `asked_detail` (a day, a dose or a pending result asked) and `asked_service`; `any_unsaid` gathers them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from archehr.answerability.asked_result import named_as_risk_only, result_earlier, result_unsaid
from archehr.answerability.asked_thing import TEST_SHARE, asked_rows, kept_concepts
from archehr.answerability.asked_time import time_unsaid, years_unsaid
from archehr.answerability.date_unset import date_unset
from archehr.answerability.spaces import fold

if TYPE_CHECKING:
    from archehr.glossary import Glossary


def fact_unsaid(kind: str, question: str, texts: Sequence[str], paragraphs: Sequence[str],
                named: np.ndarray, medicine: np.ndarray | None = None, drugs: np.ndarray | None = None) -> bool:
    """True when the note names the asked thing (`asked_rows`) but no sentence naming it gives the fact a
    test_result, how_long or when question asks for (the module's docstring); False for other kinds and when the
    note names none of the question's concepts (the decline rules cover that). `medicine`: the sentences naming a
    medicine the question asks about (`asked_detail.medicine_rows`); `drugs`: the sentences naming any medicine."""
    rows = asked_rows(named, TEST_SHARE)
    if kind not in ("test_result", "how_long", "when") or not rows.any():
        return False
    plain = [fold(t) for t in texts]
    if kind == "test_result":
        return result_unsaid(question, plain, named, rows)
    return time_unsaid(kind, question, plain, paragraphs, named, medicine, drugs)


def _conditions_out(kind: str, question: str, texts: Sequence[str], lexicon: Glossary) -> list[str]:
    """For a how-long question, the sentences without the conditions naming the asked thing ("no live vaccines
    while on adalimumab" gives no course of adalimumab: `course_link.own_conditions_out`)."""
    from archehr.answerability.course_link import own_conditions_out
    from archehr.answerability.kinds import sentence_words

    if kind != "how_long":
        return list(texts)
    concepts = kept_concepts(question, lexicon, texts)
    return [own_conditions_out(t, lambda text: float(any(c.covered_by(sentence_words(text, lexicon))
                                                          for c in concepts))) for t in texts]


def any_unsaid(kind: str, question: str, texts: Sequence[str], paragraphs: Sequence[str], named: np.ndarray,
               lexicon: Glossary, first: int | None = None) -> bool:
    """Any rule of this module or of `asked_detail` (a day, a dose or a result asked that is not given) fires.
    `first`: the index of the answer's first line, when it is a sentence of the note (`years_unsaid` reads it)."""
    from archehr.answerability.asked_detail import detail_unsaid, medicine_rows
    from archehr.answerability.asked_service import service_undated
    from archehr.glossary.drugs import drugs_in

    medicine = drugs = None
    if kind == "how_long":
        medicine = medicine_rows(question, texts, named, lexicon)
        # ... or by its class: "stop the statin for two weeks" speaks of the atorvastatin asked about
        classes = {c for i in np.flatnonzero(medicine)
                   for c in lexicon.classes_in(" ".join([texts[i], *drugs_in(texts[i])]))}
        medicine = medicine | np.array([any(e.kind == "class" and e.term in classes for e in lexicon.matches(t))
                                        for t in texts], dtype=bool)
        drugs = np.array([bool(drugs_in(t)) for t in texts], dtype=bool)
    return (fact_unsaid(kind, question, _conditions_out(kind, question, texts, lexicon), paragraphs, named, medicine,
                        drugs)
            or date_unset(kind, question, texts, paragraphs, named)
            or result_earlier(kind, question, texts, named)
            or years_unsaid(kind, question, texts, paragraphs, named, first)
            or named_as_risk_only(kind, question, texts, named, lexicon)
            or detail_unsaid(kind, question, texts, paragraphs, named, lexicon)
            or service_undated(kind, question, texts, kept_concepts(question, lexicon, texts), named))
