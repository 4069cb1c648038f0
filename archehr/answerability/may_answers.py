"""Whether a may-I answer's first line allows or forbids the activity asked about, for `archehr answer`'s review flag.

A may-I question often names more activities than the one it asks about: "can my husband drive to work tomorrow",
"can I drive later tonight to collect my son from football", "can I have a beer or two watching the game". The
asked activity is the one after the last asking words ("can I", "allowed to", "ok to", "is it safe to") that lead
to one, or the first the question names when none do ("gym? bike?"). A note that never names the others (work,
football, the game) still answers the question when a line allows or forbids the asked one: "Do not drive while
taking oxycodone", "You may keep driving as long as ...", "No gym, running or team sports until ...".

`activity_answered` tells such a first line: it names the asked activity (by the lexicon's activity entries and
their classes: "a beer" is alcohol, "the car" driving) and holds a permission or a prohibition (`PERMISSION`). Only
a plain permission or prohibition counts: "stop" or "should" alone ("Stop aspirin", "should take it with food")
was too broad for medicine questions.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from archehr.answerability.spaces import fold

if TYPE_CHECKING:
    from archehr.glossary import Glossary

# the asking words before the activity asked about: "can I", "allowed to", "is it ok to", "safe for him to"
ASKING = re.compile(r"\b(?:can|could|may|allowed|permitted|ok|okay|alright|all right|fine|safe|able|cleared|"
                    r"when|should|do i have to)\b", re.I)
# a permission: "you may", "can go back", "ok to", "is fine", "no restrictions", "return to work", "cleared for"
_PERMIT = (r"\b(?:you|he|she|they|we|patient|pt|child|baby)\s+(?:may|can|could)\s+(?!not\b|cause\b|be\b)|"
           r"\b(?:may|can)\s+(?:now\s+|then\s+|gradually\s+|safely\s+|still\s+|keep\s+)?(?:return|resume|restart|"
           r"go back|get back|start|continue|drive|shower|bathe|bath|swim|fly|travel|work|lift|eat|drink|have|"
           r"play|exercise|walk)\b|"
           r"\b(?:ok|okay|fine|safe|allowed|permitted|cleared)\s+(?:to|for)\b|"
           r"\b(?:is|are)\s+(?:\w+\s+){0,2}?(?:fine|ok|okay|safe|allowed|permitted)\b|"
           r"\bno (?:restrictions?|limits?)\b|\bnormal activit\w+|\bas tolerated\b|"
           r"\breturn to (?:normal|usual|work|school|driving|sport|play|activit|full)\w*")
# a prohibition or a limit: "do not", "must not", "avoid", "no driving", "off work", "not until", "stay home"
_FORBID = (r"\b(?:do not|don'?t|must not|mustn'?t|should not|shouldn'?t|cannot|can'?t|not to|avoid\w*|"
           r"refrain|abstain)\b|"
           r"\bno\s+(?:more\s+)?(?:[a-z-]+\s+){0,2}?(?:\w+ing|baths?|sex|intercourse|sports?|alcohol|flights?|work|"
           r"school|gym|contact|heavy|strenuous)\b|"
           r"\boff (?:work|school|the)\b|\bstay (?:home|off|away|out)\b|\bnot (?:until|before)\b|\bnothing\b|"
           r"\blimit(?:ed)? to\b")
PERMISSION = re.compile(rf"{_PERMIT}|{_FORBID}", re.I)


def asked_activity(question: str, lexicon: Glossary) -> str | None:
    """The term of the activity the question asks about: the first activity entry after its last asking words
    (`ASKING`) that lead to one ("ok so he can't drink but is he allowed to smoke weed" asks about smoking), else
    the first activity it names; None when it names none."""
    ends = [m.end() for m in ASKING.finditer(question)]
    for part in [question[e:] for e in reversed(ends)] + [question]:
        for e in lexicon.matches(part):
            if e.kind == "activity":
                return e.term
    return None


def activity_answered(question: str, first: str | None, lexicon: Glossary) -> bool:
    """The first line (`first`) names the question's asked activity (`asked_activity`, by its words or its
    lexicon class) and allows or forbids something (`PERMISSION`)."""
    from archehr.answerability.kinds import QUESTION_FILLER, asked_concepts, sentence_words
    from archehr.relevance.text import tokens

    term = asked_activity(question, lexicon)
    if first is None or term is None or not PERMISSION.search(fold(first)):
        return False
    surface = tuple(t for t in tokens(term) if t not in QUESTION_FILLER)
    words = sentence_words(first, lexicon)
    return any(c.surface == surface and c.covered_by(words) for c in asked_concepts(question, lexicon))


# a may-I question asked as a when or a how long ("when is she allowed to drive again", "how soon can he swim"):
# its answer is a permission or a prohibition with its time or condition, not a date of an event
_WHEN_MAY_Q = re.compile(r"\b(?:when|how (?:long|soon)|what (?:day|date|week))\b[^?.]*?\b(?:can|could|may|allowed|"
                         r"permitted|ok|okay|alright|all right|fine|safe|able|cleared)\b", re.I)


def timed_permission(question: str | None, first: str | None, lexicon: Glossary) -> bool:
    """A may-I question asked as a when or a how long (`_WHEN_MAY_Q`) whose first line (`first`) allows or forbids
    the asked activity (`activity_answered`) with a time or a condition (`asked_time.WHEN`: "Must not drive for
    1 month", "No driving until cleared at clinic"), not one saying it is yet to be decided (`date_unset.UNSET`:
    "Return to work will be discussed at your clinic visit"): the when or how-long fact is given."""
    from archehr.answerability.asked_time import WHEN
    from archehr.answerability.date_unset import UNSET

    if question is None or first is None or not _WHEN_MAY_Q.search(question):
        return False
    plain = fold(first)
    return bool(WHEN.search(plain)) and not UNSET.search(plain) and activity_answered(question, first, lexicon)


# a bare verb of taking something in: the thing taken after it is what is asked ("can I drink alcohol", "can he eat
# nuts"), not the drinking (a line allowing coffee allows no alcohol)
_BARE = ("drink", "drinking", "eat", "eating")
_NEXT_REACH = 12  # characters between the bare verb and the thing taken


def asked_thing_taken(question: str, lexicon: Glossary) -> str | None:
    """The asked activity (`asked_activity`), or the activity entry right after it when that is a bare verb of
    taking something in (`_BARE`: "drink alcohol" asks about alcohol)."""
    return _thing_taken(question, asked_activity(question, lexicon), lexicon)


def _thing_taken(question: str, term: str | None, lexicon: Glossary) -> str | None:
    """`asked_thing_taken` given the asked activity `term` already read."""
    if term is None or term.lower() not in _BARE:
        return term
    spans = [(a, b, e) for a, b, e in lexicon.match_spans(question) if e.kind == "activity"]
    for (_, end, e), (start, _, nxt) in zip(spans, spans[1:], strict=False):
        if e.term == term and 0 <= start - end <= _NEXT_REACH:
            return nxt.term
    return term


def other_activity(question: str, first: str | None, lexicon: Glossary) -> bool:
    """A may-I question asking to drink or eat a thing the lexicon knows ("can I drink alcohol": `asked_thing_taken`)
    whose first line (`first`) allows or forbids (`PERMISSION`) something taken in, but not the asked thing ("You
    can keep drinking coffee"): it answers another question, for review. (The line's own bare verbs are read
    without the thing they take: `_things_taken`.) Only this form: a first line allowing another activity than the
    asked one, or any activity when the question names none the lexicon knows, flagged as many answerable
    questions as unanswerable ones over the writers A ... CU, in-sample: the lexicon misses many asked activities.
    """
    if first is None:
        return False
    plain = fold(first)
    if not PERMISSION.search(plain):
        return False
    term = asked_activity(question, lexicon)
    asked = _thing_taken(question, term, lexicon)
    if asked is None or asked == term:
        return False
    # "drinking coffee" allows coffee: the line's own bare verbs read without the thing they take
    return not activity_answered(asked, _things_taken(plain, lexicon), lexicon)


def _things_taken(text: str, lexicon: Glossary) -> str:
    """The text with each bare verb of taking in (`_BARE`) blanked where a lexicon entry follows it (the thing
    taken: "drinking coffee" speaks of coffee, not of drink in general), and each other entry naming a drink or a
    food in such a word ("energy drinks", "fizzy drinks"): what is named is that thing."""
    spans = lexicon.match_spans(text)
    out = text
    for k, (a, b, e) in enumerate(spans):
        words = e.term.lower().split()
        follows = k + 1 < len(spans) and 0 <= spans[k + 1][0] - b <= _NEXT_REACH
        if (e.term.lower() in _BARE and follows) or (len(words) > 1 and e.kind != "activity"
                                                    and any(w.rstrip("s") in _BARE for w in words)):
            out = out[:a] + " " * (b - a) + out[b:]
    return out
