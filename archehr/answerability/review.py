"""The review flag and the confidence shown beside an answer `archehr answer` gives.

An answer is flagged for review when the answerability model doubts it (below its review level, unless the first
cited sentence gives the date, duration or result asked: `fact_given`), or when a rule sees the asked fact missing
from the note: a medicine or activity the note never names, a result still awaited or only planned, no sentence
about the topic giving the asked duration or date, a blank date (`fact_missing`, `awaited_results`, and the asked-fact
rules of `archehr.answerability.asked_fact` through `unsaid_in_note`), a first line or topic sentence saying the asked
fact is not known yet (`fact_undetermined`), a result question whose first line gives no result while a sentence naming
nearly as much of the topic awaits it (`awaited_near`), a first line reporting the question put or giving another
medicine's reason to a why question whose medicine's own lines hold none (`own_lines_unsaid`). `shown_confidence`
caps the confidence of a flagged answer.
`archehr.ask` calls `review_flags` and `shown_confidence` once for each answer it gives."""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any

import numpy as np

from archehr.answerability.awaited_results import awaited, awaited_near, result_awaited, top_topic
from archehr.answerability.counts import COUNT_ASCII, GIVEN_UNIT
from archehr.answerability.dates import DAY_MONTH, DEID_DATE, ISO_DATE, NAMED_DATE, TIME_OF_DAY, TOMORROW, WEEKDAY
from archehr.answerability.length_forms import DURATION_GIVEN, OFF_WHEN, any_length, before_only, course_length
from archehr.answerability.list_orders import order_given
from archehr.answerability.own_lines import own_lines_unsaid
from archehr.answerability.spaces import fold
from archehr.answerability.test_words import PLANNED as TEST_PLANNED
from archehr.answerability.test_words import RESULT_GIVEN, RESULT_SAID, asks_result, result_later
from archehr.answerability.when_answers import books_slot
from archehr.answerability.when_answers import slot_if_asked as _slot_if_asked
from archehr.answerability.why_causes import cause_given  # (kept importable from here)
from archehr.answerability.why_may_given import advice_given, cause_more
from archehr.data.note_split import SplitNote, note_case

HOLDS_MIN = 0.25  # a sentence naming this share of the topic holds the asked kind of answer: flag, never decline
# the note names the asked thing: a sentence names this share of the question's topic and the note names every concept
# the lexicon knows in it (no drug, test or activity of the question missing): a low P flags, never declines (the
# asked fact may be missing, which is for review). Over the 41 writers' leave-one-writer-out, 0.5 turned 1 of 12
# false declines and 4 of 150 unanswerable declines (topic named, duration not given) into flagged answers; without
# the lexicon condition 0.5 also flagged questions about a jab or a bath the note never names
TOPIC_NAMED = 0.5
FACT_MIN = 0.2  # how long / when: no sentence naming this share of the topic gives a duration or date -> review
# ... nor the first cited line naming this share of it (below FACT_MIN) in a date, interval or duration of its own
# (`WHEN_GIVEN`, `DURATION_GIVEN`: "Off work for at least 10-12 weeks" to "how long is he out of the kitchen"): over the
# 65 writers' leave-one-writer-out, answerable questions flagged 453 -> 433 of 2961, unanswerable caught 915 -> 911
FIRST_FACT_MIN = 0.1
EDGE = 1e-9  # a share read as a float sum (0.19999999) is not below a level it equals
# kinds whose answer is a fact a sentence about the topic must hold (a duration, a date): none -> review (a cause,
# "why", was tried: it flagged many answerable questions whose cause is told in other words)
FACT_KINDS = ("how_long", "when")
ASK_CONCEPTS = 2  # the asking clauses of a long message read for the topic when they name this many concepts
# a date or an interval from now: "in 2 weeks", "3-4 weeks from now", "on [**2190-3-1**]", "Monday", "POD 3", and a
# date with its month's name or a clock time ("on April 8, 2024", "Thursday 24 April 2025", "at 9:15 a.m.")
WHEN_GIVEN = re.compile(
    rf"\b(?:in|within|at|after|by)\s+(?:about\s+|approximately\s+|~\s*)?{COUNT_ASCII}\s*{GIVEN_UNIT}\b|"
    rf"\b{COUNT_ASCII}\s*{GIVEN_UNIT}\s+(?:after|from|post)\b|{DEID_DATE}|\b{ISO_DATE}\b|"
    rf"\b{DAY_MONTH}\b|\b{TOMORROW}\b|\b{WEEKDAY}\b|\bnext\s+(?:week|month)\b|"
    rf"\b(?:pod|hd)\s*#?\d+\b|{NAMED_DATE}|{TIME_OF_DAY}", re.I)
# a when question a length answers as well as a date: "till when" ("hold for 2 weeks"), or "how long" in a when question
_LENGTH_ANSWERS_WHEN = re.compile(
    r"\b(?:till|until|til|untill)\s+when\b|\bhow\s+(?:long|many\s+(?:days|weeks|months))\b", re.I)


def _given_pattern(kind: str, question: str | None) -> Any:
    """What gives the asked fact of a how-long or when question in its first line: a course's length
    (`course_length`) or a date or an interval (`WHEN_GIVEN`, or a course's length too when a when question asks
    "till when")."""
    if kind == "how_long":
        return lambda t: course_length(t, question) or bool(OFF_WHEN.search(fold(t)))
    if kind == "when":
        if question is not None and _LENGTH_ANSWERS_WHEN.search(question):
            return lambda t: bool(WHEN_GIVEN.search(t)) or bool(DURATION_GIVEN.search(t))
        return lambda t: bool(WHEN_GIVEN.search(t))
    return None


def review_flags(model: Any, p: float | None, selector_flag: bool, types: Any, best: tuple[str, float] | None,
                 question: str, split: SplitNote) -> tuple[bool, bool]:
    """(flagged, ruled): the review flag of an answer given, and whether a rule raised it because it saw the
    asked fact missing (a medicine never named, a result awaited, no date given ...: `fact_missing`,
    `result_awaited` and `unsaid_in_note`). `types` is None when ranking by the selector alone."""
    if model is None or types is None:
        return model_flags(model, p, selector_flag, types, best, question), False
    named = NamedConcepts(question, split)  # (read once for the two rules that need it)
    asked = asked_apart(types, question, split)
    first = _asked_share(asked, best, split)  # (the first line as the fact rules read its topic)
    ruled = (fact_missing(asked, first, question) or result_awaited(types, split, question)
             or unsaid_in_note(types.kind, question, split, best[0] if best else None, named)
             or why_uncaused(types.kind, question, split, best, named)
             or med_undecided(types, best, split, question) or fact_undetermined(types, best, question, split)
             or awaited_near(types, best, split, question)
             or own_lines_unsaid(types.kind, question, split, best, named))  # (`own_lines`)
    doubted = model_flags(model, p, selector_flag, types, best, question)
    if doubted and p is not None and not model.abstains(p):
        doubted = not doubt_cleared(types, best, question, split, asked)
    return ruled or doubted, ruled


def doubt_cleared(types: Any, best: tuple[str, float] | None, question: str, split: SplitNote,
                  asked: Any = None) -> bool:
    """The first line names the most of the topic and gives the asked length or date (`_leads`, on the asking
    clauses' topic, `asked_apart`, and on the whole question's): the model's doubt is no reason for review, as for a
    line giving the fact naming a larger share (`fact_given`). `asked`: `asked_apart`'s reading when the caller has
    it already."""
    asked = asked_apart(types, question, split) if asked is None else asked
    return _leads(asked, _asked_share(asked, best, split), question) or _leads(types, best, question)


class NamedConcepts:
    """Which of the note's sentences name each of the question's concepts (`asked_thing.concept_rows`), read at most
    once for one answer (`unsaid_in_note`, `why_uncaused`); read-only, so no rule changes what the next one reads."""

    def __init__(self, question: str, split: SplitNote):
        self.question, self.split = question, split

    @cached_property
    def rows(self) -> np.ndarray:
        from archehr.answerability.asked_thing import concept_rows
        from archehr.glossary import load_lexicon

        rows = concept_rows(self.question, [s.text for s in self.split.sentences], load_lexicon())
        rows.flags.writeable = False
        return rows


def med_undecided(types: Any, best: tuple[str, float] | None, split: SplitNote, question: str | None = None) -> bool:
    """A med_change answer whose first line decides nothing on a medicine: a dose taken, the story before the visit
    (`med_decisions.undecided`), the medicine taken while another is asked (`med_decisions.other_medicine_only`),
    no medicine's name when the name is asked (`med_decisions.name_unsaid`)."""
    from archehr.answerability.med_decisions import name_unsaid, other_medicine_only, undecided
    from archehr.answerability.roles import sentence_roles

    if types.kind != "med_change":
        return False
    texts, at = _first_line(split, best[0] if best else None)
    return at is not None and (undecided(texts, sentence_roles(split.sentences), at)
                               or other_medicine_only(question, texts[at]) or name_unsaid(question, texts[at]))


def fact_undetermined(types: Any, best: tuple[str, float] | None, question: str, split: SplitNote) -> bool:
    """The first cited line (`best`), or a sentence naming the most of the question's topic, says the asked fact is
    not given yet in a phrasing of `undetermined.tsv` for the question's kind ("report to follow" to a result
    question, "appointment letter to follow" to a when, "until review" to a how long, "no decision yet" to a may-I or
    a medicine change), and the first line does not give it (`fact_given`) or gives it naming less of the topic than
    that sentence (another event's date): for review, never a decline."""
    from archehr.answerability.med_decisions import state_decided
    from archehr.answerability.undetermined import ASKED_FACTS, asked_undetermined

    if best is None or types.kind not in ASKED_FACTS:
        return False
    if types.kind == "med_change" and state_decided(best[0], asked_undetermined(types.kind, best[0])):
        return False  # "HOLD ramipril; restart to be decided": held now (`med_decisions.state_decided`)
    top = top_topic(types)
    at = _first_line(split, best[0])[1]
    if fact_given(types, best, question):
        # the first line gives a fact, but of another event when a sentence naming more of the topic says the asked
        # one is not set ("Next transfusion booked 02/06" first, "Cardiac MRI requested, date to follow" naming more
        # of "when is the heart MRI booked"): only those sentences are read
        top = top[types.topic[top] > best[1] + 1e-9]
        if types.kind == "test_result" and at is not None:
            top = top[top > at]  # (a result given after the entry saying it would follow: that entry is stale)
        lines = [split.sentences[i].text for i in top]
    else:
        # a first line giving a date or length besides a letter to come ("in 2-4 weeks; letter by post") gives it
        given = _given_pattern(types.kind, question)
        own = given is not None and given(fold(best[0]))
        lines = [*([] if own else [best[0]]), *(split.sentences[i].text for i in top if not (own and i == at))]
    return any(asked_undetermined(types.kind, t) for t in lines)


def _first_line(split: SplitNote, first: str | None) -> tuple[list[str], int | None]:
    """The note's sentence texts, and where the first line (`first`, its text) stands among them (or None)."""
    texts = [s.text for s in split.sentences]
    return texts, (texts.index(first) if first is not None and first in texts else None)


def unsaid_in_note(kind: str, question: str, split: SplitNote, first: str | None = None,
                   named: NamedConcepts | None = None) -> bool:
    """The note names the test, medicine or event asked about, but its sentences about it give no result, course length
    or date, or say the date is yet to be set, give the result only at an earlier time than asked, no span in months
    or years when asked, name the asked thing only as a risk, or leave out an asked day, dose or pending result
    (`asked_fact.any_unsaid`); or a time of day asked is not given (`asked_detail.time_unsaid`); or the first cited
    sentence (`first`, its text) gives no result of the asked test (`result_first.first_unresulted`), or is a medicine's
    list entry without the reason, length or safety asked (`med_listed.listed_only`). `named`: as already read."""
    from archehr.answerability.asked_detail import time_unsaid
    from archehr.answerability.asked_fact import any_unsaid
    from archehr.answerability.med_listed import listed_only
    from archehr.answerability.result_first import first_unresulted
    from archehr.glossary import load_lexicon

    texts, at = _first_line(split, first)
    paragraphs, rows = [s.paragraph_id for s in split.sentences], (named or NamedConcepts(question, split)).rows
    return any_unsaid(kind, question, texts, paragraphs, rows, load_lexicon(), at) \
        or first_unresulted(kind, at, texts, rows) or time_unsaid(question, texts, paragraphs, rows, at) \
        or listed_only(kind, question, texts, paragraphs, at)


def why_uncaused(kind: str, question: str, split: SplitNote, best: tuple[str, float] | None,
                 named: NamedConcepts | None = None) -> bool:
    """A why answer whose first line (`best`) holds no cause (`why_causes.says_no_cause`: no cause marker, or a
    diagnosis line restating the asked finding): the line names the asked thing, not why. `named`: the question's
    concepts as the note names them, when already read."""
    from archehr.answerability.why_causes import says_no_cause

    if kind != "why":
        return False
    texts, at = _first_line(split, best[0] if best else None)
    return at is not None and says_no_cause(at, texts, (named or NamedConcepts(question, split)).rows, question)


def asked_apart(types: Any, question: str, split: SplitNote) -> Any:
    """The answer types whose medicines and activities the fact rules read: those the asking clauses name when
    the question tells a story apart from its ask ("Can he drive himself in? He won't take a lift off anyone":
    the lift is no activity asked about), else the whole question's."""
    from dataclasses import replace
    from functools import cache

    from archehr.answerability.asking import asking_part
    from archehr.answerability.kinds import answer_types
    from archehr.glossary import load_lexicon

    part = asking_part(question)
    # the asking clauses' own answer types, read at most once for the two rules below (`part.apart` is
    # `part.asking` when it is not None)
    asked_types = cache(lambda: answer_types(note_case(split, part.asking)[0], load_lexicon()))
    types = _ask_topic(types, part, asked_types)
    if part.apart is None or not (types.missing_drugs or types.missing_activities):
        return types
    asked = asked_types()
    return replace(types, missing_drugs=asked.missing_drugs, missing_activities=asked.missing_activities)


def _asked_share(asked: Any, best: tuple[str, float] | None, split: SplitNote) -> tuple[str, float] | None:
    """The first cited line with its topic share read as the fact rules read the topic (`asked_apart`): in a long
    message the larger of its share of the whole question and of the asking clauses ("The course is planned for 6
    weeks" names little of a letter that greets and tells of the allotment show, much of its "for how long the course
    of injections is expected to last"), so `first_gives_fact` sees the line name the asked thing."""
    if best is None:
        return None
    _, at = _first_line(split, best[0])
    if at is None or at >= asked.topic.size:
        return best
    return best[0], max(best[1], float(asked.topic[at]))


def _ask_topic(types: Any, part: Any, asked_types: Any) -> Any:
    """A how-long or when question told in a long message (a greeting, who is writing, asides on the family): the
    story's words dilute the topic share of the sentence giving the asked date or duration ("for up to 14 days"
    naming one word in twenty), so the fact rule would find none naming enough of the topic. Each sentence's topic
    is then the larger of its share of the whole question and of the asking clauses alone (when these name at least
    `ASK_CONCEPTS` concepts of their own: `asked_types()`), the kind and what each sentence holds staying the whole
    question's."""
    from dataclasses import replace

    if (types.kind not in FACT_KINDS or not part.has_story or not types.topic.size
            or min(types.best_typed, types.best_firm) >= FACT_MIN):
        return types
    asked = asked_types()
    if asked.concepts < ASK_CONCEPTS or asked.topic.shape != types.topic.shape:
        return types
    return replace(types, topic=np.maximum(types.topic, asked.topic))


def shown_confidence(model: Any, p: float | None, flagged: bool, confidence: float, ruled: bool = False) -> float:
    """The confidence shown beside the review flag: a flagged answer's is at most the review level, and at most
    halfway between the threshold and the review level when a rule flagged it (`ruled`: a reason the model's P
    does not see, a medicine the note never names, a pending result, no sentence giving the asked date: such an
    answer is less often right than one the model merely doubts); one the model would flag but that gives the
    date, duration or result asked (`fact_given`) is at least the review level.

    A rule-flagged confidence from the threshold up is scaled into threshold..halfway rather than cut there, so that
    rule-flagged answers keep the model's order among themselves: cut, every one the model trusted sat tied at
    halfway, the answerable among them no higher than the rest (docs/answer-methods.md)."""
    if model is None:
        return confidence
    review = float(getattr(model, "review", getattr(model, "review_level", confidence)))
    if ruled:
        threshold = float(getattr(model, "threshold", review))
        if confidence < threshold or threshold >= 1:
            return confidence
        halfway = (threshold + review) / 2
        return threshold + (halfway - threshold) * (min(confidence, 1.0) - threshold) / (1 - threshold)
    if flagged:
        return min(confidence, review)
    if p is not None and model.flags(p):
        return max(confidence, review)
    return confidence


def model_flags(model: Any, p: float | None, selector_flag: bool, types: Any,
                best: tuple[str, float] | None, question: str | None = None) -> bool:
    """The confidence model's review flag (below its threshold it was answered only because a sentence holds the asked
    kind, so flagged; between threshold and review level unless the first line gives the fact asked: `fact_given`), or
    the selector's without one."""
    if model is not None and p is not None:
        return model.abstains(p) or (model.flags(p) and not fact_given(types, best, question))
    return selector_flag


def fact_missing(types: Any, best: tuple[str, float] | None, question: str | None) -> bool:
    """The fact rules of `review_flags` read from the answer types and the first cited line (`best`): the asked fact
    is not given (no duration or date, a booked event without one, a medicine or activity the note never names, a
    result awaited or only planned, a blank date, a first line dating another event)."""
    from archehr.answerability.cues import asks_booked_event
    from archehr.answerability.test_words import result_beside_plan
    from archehr.answerability.when_other import dates_other_event

    # (white space folded: a raw note wraps its lines inside a sentence, "is not yet\nback")
    best_text = fold(best[0]) if best is not None else None
    # the topic is named but no sentence about it gives the asked duration or date: a human should check (unless
    # a may-I question asked as a when is answered by a permission with its time: `_timed_permission`)
    if (types.kind in FACT_KINDS and types.best_typed < FACT_MIN - EDGE and not _timed_permission(question, best_text)
            and not first_gives_fact(types.kind, best, question) and not _leads(types, best, question)):
        return True
    # a when question about a booked event (an appointment, a visit, a date): no sentence naming the topic
    # gives a date, an interval to come or a booked slot (only "once healed"): not given, unless the first line books
    # a slot naming a little of the topic (`when_answers.books_slot`: the visit asked for in other words)
    if (types.kind == "when" and types.best_firm < FACT_MIN - EDGE and question is not None
            and asks_booked_event(question)
            and not (best is not None and best[1] >= FIRST_FACT_MIN and books_slot(best[0], question))
            and not (_leads(types, best, question) and _slot_if_asked(best[0] if best else "", question))):
        return True
    # a medicine asked about ("can I take Advil with it?") that the note names in none of its words: the
    # note speaks of the rest of the question, not of that medicine
    if types.missing_drugs:
        return True
    # likewise an activity a may-I question asks about ("Can he drive?") that the note never names
    if types.kind == "may_i" and types.missing_activities and not _activity_answered(question, best_text):
        return True
    if best_text is None:
        return False
    # a how-long answer whose first line holds no length of time in any form (no course, end, interval or "until"):
    # the line names the asked thing, not how long ("Hand therapy to start after suture removal")
    if types.kind == "how_long" and not any_length(best_text):
        return True
    # a may-I first line allowing or forbidding another activity than the asked one (`may_answers.other_activity`)
    if types.kind == "may_i" and question is not None and _other_activity(question, best_text):
        return True
    # ... or whose lengths all run before an event the question asks after ("how many days after the treatment":
    # "Low-iodine diet for 1 week before"): a length of another time
    if types.kind == "how_long" and question is not None and before_only(question, best_text):
        return True
    # the result asked for is still awaited ("repeat pending"): the note names the test, not its result; so too for a
    # question of no kind read ("any news on that swab") whose first line, naming the topic, awaits a result, or of
    # another kind asking a result in its words ("did my iron come back low? is that why ...": `asks_result`)
    if awaited(best_text, question) and (types.kind == "test_result" or (types.kind not in FACT_KINDS and asks_result(
            question)) or (types.kind == "other" and best is not None and best[1] >= HOLDS_MIN)):
        return True
    # ... or only planned: the best sentence books or plans the test, saying no result; or, to a result question or
    # one of no kind read ("is it a melanoma or not"), leaves the result to come (`test_words.result_later`)
    if ((types.kind == "test_result" and TEST_PLANNED.search(best_text) and not RESULT_SAID.search(best_text)
         and not result_beside_plan(best_text))
            or (types.kind in ("test_result", "other") and result_later(best_text))):
        return True
    # the date asked for is blanked in the note ("Follow up in the Allergy clinic on ___."): not given
    if types.kind == "when" and blank_date(best_text):
        return True
    # the first line dates another event: the writer's signature, another clinician's visit, a test for a visit
    # asked, a consultation for an operation asked (`when_other.dates_other_event`)
    return types.kind == "when" and question is not None and dates_other_event(question, best_text)


def first_gives_fact(kind: str, best: tuple[str, float] | None, question: str | None = None) -> bool:
    """The first cited line names at least `FIRST_FACT_MIN` of the topic and gives the duration or date a how-long or
    when question asks in a form of its own ("for at least 10-12 weeks", "in 3 months", "Thursday 07/11"): the answer
    leads with the fact, though its wording names little of the question's, or names more of it in a form the
    sentence-holds test of `best_typed` does not read ("Fit note issued for a further 4 weeks")."""
    given = _given_pattern(kind, question)
    if given is None or best is None or best[1] < FIRST_FACT_MIN:
        return False
    return given(best[0]) and not blank_date(best[0])


def _activity_answered(question: str | None, first: str | None) -> bool:
    """A may-I first line allowing or forbidding the asked activity ("Do not drive while taking oxycodone" to "can
    my husband drive to work tomorrow"): the activities the note never names (work) are the question's story, not
    what it asks (`may_answers.activity_answered`)."""
    from archehr.answerability.may_answers import activity_answered
    from archehr.glossary import load_lexicon

    return question is not None and activity_answered(question, first, load_lexicon())


def _other_activity(question: str, first: str) -> bool:
    """A may-I first line allowing or forbidding something taken in, not the asked thing ("You can keep drinking
    coffee" to "can I drink alcohol": `may_answers.other_activity`)."""
    from archehr.answerability.may_answers import other_activity
    from archehr.glossary import load_lexicon

    return other_activity(question, first, load_lexicon())


def _timed_permission(question: str | None, first: str | None) -> bool:
    """A may-I question asked as a when ("when is she allowed to drive again") whose first line allows or forbids
    the asked activity with a time or a condition ("Must not drive for 1 month": `may_answers.timed_permission`)."""
    from archehr.answerability.may_answers import timed_permission
    from archehr.glossary import load_lexicon

    return timed_permission(question, first, load_lexicon())


def fact_given(types: Any, best: tuple[str, float] | None, question: str | None = None) -> bool:
    """A when (how long, test result, why, may-I) question whose first cited sentence names the topic (at least
    `HOLDS_MIN` of it) and gives a date or an interval ("Follow up with cardiology in 4-6 weeks"), a duration ("for
    12 months"), a result ("eGFR 84 mL/min", "negative", "in range"), to a why question a cause (`cause_given`), to
    a may-I question (`question`) a permission or a prohibition of the asked activity (`_activity_answered`) of its
    own, or with a time or a condition to a may-I question asked as a when (`_timed_permission`): the asked fact is
    there, so a middling confidence is no reason for review (the other flags, a pending or only planned test among
    them, still apply)."""
    if types is None or best is None:
        return False
    text, topic = best
    if types.kind == "why":  # (and the forms of `why_may_given`: "was started for proteinuria", "..., so ...")
        return cause_given(text, topic) or cause_more(text, topic)
    if types.kind in ("may_i", "med_change") and order_given(types.kind, question, text, topic):
        return True  # a medicine list's row: "STOP Naproxen ... NSAID" to "can she take Brufen" (`list_orders`)
    if types.kind == "may_i":  # "Do not drive while taking oxycodone" to "can he drive", or `why_may_given` advice
        return (topic >= HOLDS_MIN and _activity_answered(question, text)) or advice_given(question, text, topic)
    given = (lambda t: bool(RESULT_GIVEN.search(t))) if types.kind == "test_result" \
        else _given_pattern(types.kind, question)
    if given is None:
        return False
    if types.kind in FACT_KINDS and topic >= HOLDS_MIN and _timed_permission(question, text):
        return True  # "when is she allowed to drive again": "Must not drive for 1 month"
    if types.kind == "when" and topic >= FIRST_FACT_MIN and question is not None and books_slot(text, question):
        return True  # "When is mum's next check with Dr Roy": "Review with Dr. Roy on 2026-03-02 at 10:40"
    return topic >= HOLDS_MIN and given(text) and not blank_date(text)


def _leads(types: Any, best: tuple[str, float] | None, question: str | None) -> bool:
    """The first line names the most of the topic of any sentence and gives the asked length or date, however little
    of a long message's words it names (`first_leads.leads_with_fact`)."""
    from archehr.answerability.first_leads import leads_with_fact

    topic = getattr(types, "topic", None)  # (answer types read without a topic: no sentence names more)
    if topic is None:
        return False
    return leads_with_fact(types.kind, best, topic, question, _given_pattern(types.kind, question))


def names_asked(types: Any) -> bool:
    """The note names what the question asks about (`TOPIC_NAMED`): a decline becomes a flagged answer."""
    return bool(types.topic.size) and float(types.topic.max()) >= TOPIC_NAMED and not types.missing_known


def blank_date(text: str) -> bool:
    """The sentence holds a de-identification blank and no date or interval of its own ("on ___", "last
    dose ___" with no "in 2 weeks", date or weekday): the date asked for is not given."""
    return "__" in text and not WHEN_GIVEN.search(text)

