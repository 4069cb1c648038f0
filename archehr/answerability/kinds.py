"""Answer types: what kind of answer a patient's question asks for, and which note sentences hold one.

Six kinds of everyday question, each answered by a kind of sentence:

| asks | e.g. | a sentence that answers holds |
|---|---|---|
| how_long | "How long do I keep taking the antibiotic?" | a duration ("x5 more days", "for 6 weeks", "until ...") |
| when | "When do I see the heart doctor?" | a date or interval, an appointment ("follow up ... in 1 week") |
| med_change | "Which blood thinner am I on now?" | a medication started, continued, stopped or changed |
| test_result | "Did the heart scan come back ok?" | a result: a value, "showed", "normal", "negative" |
| why | "Why did they stop my metformin?" | a cause ("because", "due to", "given", "for") |
| may_i | "Can I take Aleve?", "When do I go back to the ER?" | an instruction or warning ("avoid", "return if") |

A sentence's topic score is the share of the question's concepts it names (each concept weighted by how
rare it is in the note, so the drug asked about counts more than "blood"), with the everyday lexicon
(`archehr.glossary.load_lexicon`: "blood thinner" is named by apixaban, "heart doctor" by cardiology)
and brand names resolved to generic ones (`archehr.glossary.drugs`). Its answer score is the topic
score, raised when the sentence holds the kind of answer asked for, lowered when it tells the past
(the history section) or, for a question about what is current, only of a drug stopped.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from archehr.answerability import firm_answers as firm
from archehr.answerability import why_answers as why
from archehr.answerability.asked_for import (  # noqa: F401 (KINDS, ask_kind, KIND_WORDS: importable from here too)
    KIND_WORDS,
    KINDS,
    ask_kind,
    asked_concepts,
    lay_twin,
    medicines_asked,
)
from archehr.answerability.asked_link import linked
from archehr.answerability.asked_service import service_share
from archehr.answerability.counts import COUNT_ASCII, UNIT
from archehr.answerability.course_link import course_strength
from archehr.answerability.cues import plain_question  # noqa: F401 (the tests' way in)
from archehr.answerability.dates import (
    DAY_MONTH,
    DEID_DATE,
    HOUR_MINUTE,
    ISO_DATE,
    NAMED_DATE,
    SLASH_DATE,
    TIME_OF_DAY,
    TOMORROW,
    WEEKDAY,
    WEEKDAY_SHORT,
)
from archehr.answerability.doses import DOSE
from archehr.answerability.features import QUESTION_FILLER, Concept
from archehr.answerability.holds import (
    ASKS_VERDICT,
    DONE,
    GENERIC_TESTS,
    GOES_ON,
    HOLDS,
    OUTCOME,
    RANK_CUES,
    TEST_AGAIN,
    VERDICT,
    outcome_question,
)
from archehr.answerability.shorthand import widen
from archehr.answerability.undetermined import asked_undetermined
from archehr.answerability.when_answers import story_shares, when_lift, when_strength
from archehr.data.model import Case, NoteSentence
from archehr.glossary import Glossary, load_lexicon
from archehr.glossary.drugs import generics_in
from archehr.relevance.text import contexts, is_header, sentence_texts, tokens

HOLDS_FLOOR = 0.35  # the answer score of a sentence naming the topic without the asked kind of answer
# an appointment or a planned date: answers a when question even in other words than the question's
_APPOINTMENT = re.compile(r"\b(?:follow(?:ed)?[\s-]*up|appointment|scheduled?|see (?:dr|your|you|him|her)|"
                          r"will be (?:seen|removed|placed|repeated)|repeat \w+ in|planned (?:procedure|for))\b|"
                          # a booked slot: a weekday or a date, then a clock time ("Wed 10/08/2026 6:00 AM")
                          rf"\b(?:{WEEKDAY}|{WEEKDAY_SHORT}|{SLASH_DATE})\b[^.;]{{0,40}}?\b{HOUR_MINUTE}\b", re.I)
W_APPOINTMENT = 0.12
# a date or an interval still to come ("in 2 weeks", "on 10/08", a booked slot): the strong form of a when answer;
# a sentence holding only a weak when cue ("until", "once", "next", a past weekday) counts this share of a hold
# (so does a why answer's weak cue)
_WHEN_STRONG = re.compile(rf"\b(?:in|within)\s+(?:about\s+)?{COUNT_ASCII}\s*{UNIT}\b|"
                          rf"\b{COUNT_ASCII}\s*{UNIT}\s+(?:after|from|post|before)\b|"
                          rf"\b{DAY_MONTH}\b|{DEID_DATE}|\b{ISO_DATE}\b|\b{TOMORROW}\b|"
                          rf"\bnext\s+(?:week|month)\b|"
                          # a date with its month's name or a clock time ("on April 8, 2024", "Thursday 24 April
                          # 2025", "at 9:15 a.m."): as firm as "on 08/04" (the kind's table reads them as holds)
                          rf"{NAMED_DATE}|{TIME_OF_DAY}", re.I)
W_WEAK = 0.6
# an appointment still to be booked by someone else ("PT office will call to schedule within 1 week", "you will be
# sent an appointment"): it answers a when question only weakly, and gives no date of a booked event
_TO_BE_BOOKED = re.compile(r"\bwill (?:call|contact|phone|ring|text|write to) (?:you |him |her |them )?"
                           r"(?:to|and) (?:schedule|book|arrange|set up)\b|\bto be (?:scheduled|booked|arranged)\b|"
                           r"\bwill be (?:sent|posted|contacted|called)\b|\bwill (?:send|post) (?:you |him |her )?"
                           r"(?:an? )?(?:appointment|letter|date)\b", re.I)
# a cause said outright ("because", "due to", "attributed to", "provoked by", "given ..."): the strong form of a
# why answer; a sentence holding only a weak cue ("recommended", "risk", "which can") counts `W_WEAK` of a hold
_WHY_STRONG = re.compile(r"\b(?:because|due to|secondary to|attributed|caused|provoked|triggered|in the setting of|"
                         r"as a result|so that|in order to|given|since|therefore|as (?:it|they|this|she|he) |"
                         r"related to|contribut\w+|to (?:prevent|reduce|treat|lower|protect|avoid|cover|control)|"
                         r"(?:felt|thought) to be|from (?:the|his|her|a|an|long-term|recent))\b",
                         re.I)
# question words naming what kind of thing answers, said by a sentence in a form rather than a word: a dose by
# an amount ("100 micrograms"); a blood test is not said by any lab value (it would name every lab line)
_SAID_BY = {tuple(tokens(w)): pattern for w, pattern in (
    ("dose", DOSE), ("dosage", DOSE))}
NEIGHBOUR_KINDS = ("why",)  # kinds whose answer may sit beside the sentence naming the topic
W_NEIGHBOUR = 0.6  # the share of a neighbour's topic score a sentence holding the asked kind takes
# kinds whose fact may follow, in a sentence naming nothing asked, the sentence naming the topic ("Start
# risankizumab (Skyrizi) 150 mg injection." "First dose given today, second dose in 4 weeks."): a sentence
# naming none of the topic and holding the asked fact (a when answer's strong form) takes a share of the one before
FOLLOWING_KINDS = ("how_long", "when")
# where each kind's answers are usually written (SentenceContext.section)
SECTION_FOR_KIND = {"how_long": ("medications", "instructions", "course"), "when": ("instructions",),
                    "med_change": ("medications", "course", "instructions"), "test_result": ("results", "course"),
                    "why": ("course", "diagnosis"), "may_i": ("instructions",)}
W_CONTINUED = 0.85  # the share of its score a drug continued keeps for a question asking for the new one
W_VERDICT = 0.1  # what a value's flag, range or verdict word adds to a result question asking for the verdict
W_OTHER_DRUG = 0.6  # the share a sentence naming another drug, not the one asked about, keeps (when one names it)
W_GENERIC_TEST = 0.3  # the topic share of a generic test word ("blood test") beside a named analyte
# "the new sugar pill im starting on top of the metformin": the drug already taken is background to the question
_ALSO_ON = re.compile(r"\b(?:on top of|in addition to|as well as|alongside|along with|besides|with)\s+"
                      r"(?:the\s+|my\s+|his\s+|her\s+|their\s+)?([\w-]+)", re.I)
# a plan line that goes on from the one before without naming what it speaks of ("Continue for at least 6 months")
_GOES_ON_FROM = re.compile(r"^\W*(?:\d+[.)]\s*)?(?:please\s+)?(?:continue|keep (?:taking|using|going|on)|take|stay on|"
                           r"use)\s+(?:it\s+|them\s+|this\s+|these\s+)?(?:for|until|x|through|at least)\b", re.I)
W_CHANGE = 0.15  # what a medication question's stop / start cue adds (times the topic score)
W_LATER = 0.15  # what a later value adds to a "how did it end" result question
W_PLAN = 0.5  # the share of its score a plan to test again keeps for a result question
# (the rank's) a test planned years ahead or the next one's date ("your next colonoscopy should be in 5 years")
_PLAN_LATER = re.compile(r"\bin \d+\s*(?:years?|yrs?)\b|\bnext \w+ (?:should|will|is due)\b|\bnext due\b|"
                         r"\bevery \d+\s*(?:weeks?|months?|years?)\b", re.I)


@functools.lru_cache(maxsize=4096)  # one answer reads each note sentence's words up to six times
def sentence_words(text: str, lexicon: Glossary) -> frozenset[str]:
    """A sentence's words with its abbreviations expanded and its brand drug names' generic names added."""
    extra = [x for e in lexicon.matches(text) if e.kind == "abbr" for x in e.expansions] + generics_in(text)
    return frozenset(tokens(text + " " + " ".join(extra)))


@dataclass(frozen=True)
class AnswerTypes:
    """Per-sentence topic and answer scores of one question on one note, and what they say about it."""

    kind: str
    topic: np.ndarray  # share of the question's concept weight each sentence names, in [0, 1]
    holds: np.ndarray  # the sentence holds the kind of answer asked for (bool)
    score: np.ndarray  # the answer score: topic, raised by holds and section, lowered by history / stopped
    note_coverage: float  # share of the question's concept weight the whole note names
    concepts: int  # how many concepts the question has
    missing_top: float  # weight share of the most specific concept the note never names (0: all named)
    missing_known: int = 0  # concepts the lexicon knows (a class, a test, a brand) that the note never names
    missing_drugs: int = 0  # medicines asked about (a drug class, a drug or brand name) that the note never names
    missing_activities: int = 0  # activities asked about (driving, work, alcohol ...) that the note never names
    # the sentence holds the asked kind in its firm form (a when answer: a date, an interval to come, a booked
    # slot); None: as `holds`
    firm: np.ndarray | None = None
    # the rank's answer score: `score` with the cues the typed confidence does not read (a drug continued when the
    # new one is asked, a value's flag, a deferral, another drug than the one asked); None: as `score`
    rank: np.ndarray | None = None
    # computes, per sentence, whether it gives the asked fact in a clause naming the asked thing
    # (`asked_link.linked`, for the kind this question was read as); None: none does. Called only when `best_linked`
    # is read, which the typed row does only for the row's kinds of `typed.TYPED_LINKS`. The row's kind is not always
    # the one computed for: a story-pruned question takes the whole question's (`ask._story_row`), so whether it is
    # needed cannot be told here, and it is left to the reader.
    linked_by: Callable[[], np.ndarray] | None = field(default=None, repr=False, compare=False)
    # the best topic score among sentences saying the asked kind's fact is not given yet ("results to follow", "date
    # TBC": `undetermined.asked_undetermined`): the note names the asked thing without the asked fact
    unsettled: float = 0.0

    @functools.cached_property
    def linked(self) -> np.ndarray | None:
        """Per sentence, 1 when it gives the asked fact in a clause naming the asked thing (`linked_by`)."""
        return None if self.linked_by is None else self.linked_by()

    @property
    def best_linked(self) -> float:
        """The best topic score among sentences giving the asked fact in a clause naming the asked thing."""
        if not self.topic.size or (linked := self.linked) is None:
            return 0.0
        return float((self.topic * linked).max())

    @property
    def ranking(self) -> np.ndarray:
        """The score `archehr answer` orders the note's sentences by."""
        return self.score if self.rank is None else self.rank

    def order(self) -> list[int]:
        """Sentence indices by answer score, best first (ties in note order)."""
        return np.argsort(-self.score, kind="stable").tolist()

    @property
    def best_firm(self) -> float:
        """The best topic score among sentences holding the asked kind in its firm form (0 if none)."""
        firm = self.holds if self.firm is None else self.firm
        return float((self.topic * firm).max()) if self.topic.size else 0.0

    @property
    def best_typed(self) -> float:
        """The best topic score among sentences holding the asked kind of answer (0 if none)."""
        return float((self.topic * self.holds).max()) if self.topic.size else 0.0


def _entry_medicines(named: np.ndarray, concepts: list[Concept], sentences: tuple[NoteSentence, ...],
                     lex: Glossary) -> np.ndarray:
    """`named` (concept x sentence) with each later sentence of a medicine's entry ("Last dose is 11/29/2026." under
    "Ofloxacin 0.3% eye drops Right eye: ...") naming what the entry's medicine, its strength and form, names
    ("ofloxacin", "eye drops"): the split kept the instruction's sentences apart, not their medicine
    (`note_split.EntrySentence`)."""
    from archehr.data.note_entries import medicine_name

    index = {s.id: i for i, s in enumerate(sentences)}
    pairs = [(i, index[e]) for i, s in enumerate(sentences) if (e := getattr(s, "entry", "")) in index]
    if not pairs or not concepts:
        return named
    out = named.copy()
    heads: dict[int, frozenset[str]] = {}
    for i, head in pairs:
        if head not in heads:
            heads[head] = sentence_words(medicine_name(sentences[head].text), lex)
        for k, c in enumerate(concepts):
            out[k, i] |= bool(heads[head]) and c.covered_by(heads[head])
    return out


def answer_types(case: Case, lexicon: Glossary | None = None) -> AnswerTypes:
    """Score each sentence of the case's note as an answer to its question."""
    lex = lexicon if lexicon is not None else load_lexicon()
    question = case.question_text
    kind = ask_kind(question)
    texts = sentence_texts(case.sentences)
    n = len(texts)
    words = [sentence_words(t, lex) for t in texts]
    headers = np.array([is_header(s.text) for s in case.sentences], dtype=bool)
    concepts = asked_concepts(question, lex)
    concepts = widen(concepts, question, texts, words, lex)  # heard, shortened, misspelt: "fludro", "by so pro lol"
    named = np.array([[c.covered_by(w) for w in words] for c in concepts], dtype=bool).reshape(len(concepts), n)
    for k, c in enumerate(concepts):
        # "the new dose", "the blood test": named by a sentence giving an amount or a lab value, in any words
        said = _SAID_BY.get(c.surface)
        if said is not None:
            named[k] |= np.array([bool(said.search(t)) for t in texts], dtype=bool)
    # a concept's weight: how rare it is among the note's sentences (a concept no sentence names: 1)
    df = named.sum(axis=1)
    weight = np.array([1.0 if d == 0 else 0.3 + 0.7 * math.log((n + 1) / d) / math.log(n + 1) for d in df])
    total = float(weight.sum())
    named = _entry_medicines(named, concepts, case.sentences, lex)  # (after the weights: no sentence more names it)
    topic = (weight @ named) / total if total > 0 else np.zeros(n)
    tw = weight * _topic_shares(concepts, kind, question)
    # the rank's topic: a generic test word or a drug already taken counts less (the confidence keeps `topic`)
    rank_topic = (tw @ named) / float(tw.sum()) if float(tw.sum()) > 0 else np.zeros(n)
    holds = _holds(kind, question, texts)
    if not concepts:
        # nothing but the kind asked ("which of my meds did they stop"): any sentence holding it is half an answer
        topic = rank_topic = 0.5 * holds.astype(float)
    topic, rank_topic = np.where(headers, 0.0, topic), np.where(headers, 0.0, rank_topic)
    coverage = float(weight[df > 0].sum()) / total if total > 0 else 0.0
    missing = weight[df == 0]
    missing_top = float(missing.max()) / total if missing.size and total > 0 else 0.0
    held = _held(kind, holds, texts)
    score = _score(kind, topic, holds, held, case, question, texts, ranking=False)
    rank_holds, rank_held = _rank_held(kind, holds, texts, question, rank_topic,
                                       lambda text: _names(text, concepts, tw, lex))
    rank = _score(kind, rank_topic, rank_holds, rank_held, case, question, texts, ranking=True)
    known = sum(1 for c, d in zip(concepts, df, strict=True) if d == 0 and len(c.phrases) > 1)
    drugs = medicines_asked(question, lex)
    if kind in ("med_change", "why", "how_long"):
        rank *= _other_drug_share(concepts, named, drugs, rank_topic)
    if kind == "why" and not why.asks_change(question):
        # "why did she need her tonsils out": "Indication: Recurrent tonsillitis ..." says why, in no word of it
        paras = [s.paragraph_id for s in case.sentences]
        rank = np.maximum(rank, why.diagnosis_carry(texts, np.where(headers, 0.0, rank_topic), rank_held, paras))
    if kind == "when":
        rank *= service_share(question, texts, concepts, named)  # another service's dated line
    if kind == "test_result":
        rank *= firm.order_share(texts)  # "START atorvastatin ... to lower cholesterol" is no answer to "was it high"
    absent_drugs = sum(1 for c, d in zip(concepts, df, strict=True)
                       if d == 0 and c.surface in drugs and not lay_twin(c, concepts, df.tolist(), question, lex))
    absent_drugs += sum(1 for c, d in zip(concepts, df, strict=True) if d > 0 and _only_siblings(c, question, words))
    acts = {tuple(t for t in tokens(e.term) if t not in QUESTION_FILLER) for e in lex.matches(question)
            if e.kind == "activity"}
    absent_acts = sum(1 for c, d in zip(concepts, df, strict=True) if d == 0 and c.surface in acts)
    link = functools.partial(linked, kind, texts, topic, question,
                             functools.partial(_names, concepts=concepts, weight=tw, lex=lex))
    unsettled = max((float(topic[i]) for i, t in enumerate(texts) if asked_undetermined(kind, t)), default=0.0)
    return AnswerTypes(kind, topic, holds, score, coverage, len(concepts), missing_top, known, absent_drugs,
                       absent_acts, holds & (held >= 1.0), rank, link, unsettled)


def _holds(kind: str, question: str, texts: list[str]) -> np.ndarray:
    """Does each sentence hold the kind of answer asked for (`HOLDS`; for how long, a course still to run)?"""
    pattern = HOLDS.get(kind)
    holds = np.array([bool(pattern.search(t)) if pattern is not None else False for t in texts], dtype=bool)
    if kind == "how_long":
        # a course already completed ("He completed 21 days of aspirin plus clopidogrel") tells the past, not
        # how long to go on, unless the sentence also says what follows ("then", "continue", "until")
        holds &= np.array([not (DONE.search(t) and not GOES_ON.search(t)) for t in texts], dtype=bool)
        if outcome_question(question):
            # how long an outcome takes is told by a sentence about that outcome, not by a course's length
            # ("Tamsulosin 0.4 mg daily for 14 days to help the stone pass" does not say when the stone passes)
            holds &= np.array([bool(OUTCOME.search(t)) for t in texts], dtype=bool)
    return holds


def _names(text: str, concepts: list[Concept], weight: np.ndarray, lex: Glossary) -> float:
    """The share of the question's topic (concepts weighed by `weight`) a piece of note text names."""
    total = float(weight.sum())
    if total <= 0:
        return 0.0
    words = sentence_words(text, lex)
    return float(sum(w for c, w in zip(concepts, weight, strict=True) if c.covered_by(words))) / total


def _held(kind: str, holds: np.ndarray, texts: list[str], ranking: bool = False) -> np.ndarray:
    """How fully each sentence holds the asked kind: 1, or `W_WEAK` for a when or why answer's weak form (a
    how-long answer's, for the rank: `course_link`)."""
    held = holds.astype(float)
    if kind == "when":
        held *= np.array([W_WEAK if _TO_BE_BOOKED.search(t) else 1.0 if _APPOINTMENT.search(t) or
                          _WHEN_STRONG.search(t) else W_WEAK for t in texts])
    elif kind == "why":
        held *= np.array([1.0 if _WHY_STRONG.search(t) else W_WEAK for t in texts])
    return held


def _rank_held(kind: str, holds: np.ndarray, texts: list[str], question: str, topic: np.ndarray,
               names: Callable[[str], float]) -> tuple[np.ndarray, np.ndarray]:
    """The rank's (holds, held): for a why question, how firmly each sentence says a cause (`firm_answers`); a
    sentence telling it was deferred holds the reason to "why didn't they just operate"; for a how-long question,
    whether a clause naming the asked thing holds its course (`course_link`)."""
    if kind == "how_long":
        return holds, course_strength(texts, holds, topic, question, names)
    if kind == "test_result":
        held = firm.result_strength(texts, holds)
        return held > 0, held
    if kind == "when":
        return when_strength(texts, holds, _held(kind, holds, texts, ranking=True), question)
    if kind != "why":
        return holds, _held(kind, holds, texts, ranking=True)
    held = firm.cause_strength(texts, HOLDS["why"])
    if RANK_CUES["asks_not"].search(question):
        not_done = np.array([bool(RANK_CUES["not_done"].search(t)) for t in texts], dtype=bool)
        held = np.where(not_done & (held == 0), W_WEAK, held)
    return held > 0, held


def _score(kind: str, topic: np.ndarray, holds: np.ndarray, held: np.ndarray, case: Case, question: str,
           texts: list[str], ranking: bool) -> np.ndarray:
    """Each sentence's answer score: its topic, kept whole when it holds the asked kind, with the section, time and
    change cues; `ranking` adds the rank's own cues (a drug continued, a value's verdict, a deferral), which the
    typed confidence does not read."""
    n = len(texts)
    ctx = contexts(case)
    score = topic * (HOLDS_FLOOR + (1 - HOLDS_FLOOR) * held)
    if kind in NEIGHBOUR_KINDS:
        # a cause is often given in the sentence beside the one naming the topic, in its own words ("...
        # immediate cardioversion was deferred." "Because AF duration was unknown, ..."): a sentence holding
        # the asked kind takes a share of its paragraph neighbours' topic score
        # (the rank: not from another item of a list, "2. Increase sertraline ... for depressive symptoms" gives no
        # reason for "3. Avoid NSAIDs ...")
        items = why.list_items(texts) if ranking else None
        score = np.maximum(score, W_NEIGHBOUR * (held if ranking else holds) * _neighbour_topic(topic, case,
                                                                                                 apart=items))
    if kind in FOLLOWING_KINDS:
        # a plan line going on from the one before without naming it ("2. Continue for at least 6 months ..."): the
        # rank gives it the whole of that line's topic
        share = np.array([1.0 if ranking and _GOES_ON_FROM.search(t) else W_NEIGHBOUR for t in texts])
        score = np.maximum(score, share * held * (topic == 0) * _neighbour_topic(topic, case, before_only=True))
    sections = SECTION_FOR_KIND.get(kind, ())
    later = kind == "test_result" and bool(RANK_CUES["asks_later"].search(question))
    # "why did they take her off the antidepressant": the sentence telling that stop holds its reason
    asks_stop = kind in ("med_change", "why") and bool(RANK_CUES["asks_stop"].search(question))
    # "which one did they stop" asks for the stopped drug, not the current one
    current = kind == "med_change" and not asks_stop and bool(RANK_CUES["current_q"].search(question))
    asks_start = kind in ("med_change", "why") and not asks_stop and bool(RANK_CUES["asks_start"].search(question))
    verdict = ranking and kind == "test_result" and bool(ASKS_VERDICT.search(question))
    asks_not = ranking and kind == "why" and bool(RANK_CUES["asks_not"].search(question))
    begun = RANK_CUES["begun" if ranking else "started"]
    if ranking and kind == "when":
        score = score + when_lift(texts, question)  # the follow-up line of a visit, a test's schedule
    for i, t in enumerate(texts):
        if kind == "when" and _APPOINTMENT.search(t):
            score[i] += W_APPOINTMENT * (0.5 + topic[i])
        if ctx[i].section in sections:
            score[i] += 0.08 * topic[i]
        if ctx[i].section == "history" and kind != "why":
            score[i] *= 0.75
        if current and RANK_CUES["stopped"].search(t) and not RANK_CUES["started"].search(t):
            score[i] *= 0.8
        if (asks_stop and RANK_CUES["stopped"].search(t)) or (asks_start and begun.search(t)):
            score[i] += W_CHANGE * topic[i]
        elif ranking and asks_start and RANK_CUES["continued"].search(t):
            score[i] *= W_CONTINUED  # "what is the new pill": a drug continued as before is not the new one
        if asks_not and RANK_CUES["not_done"].search(t):
            score[i] += W_CHANGE * topic[i]  # "why didn't they just operate": the sentence telling it was deferred
        if verdict and VERDICT.search(t):
            score[i] += W_VERDICT * topic[i]  # "was it too high": the line giving the value's flag or range
        if kind == "med_change" and TEST_AGAIN.search(t):
            score[i] *= W_PLAN  # "repeat thyroid tests after the dose change" tells a test to come, not the change
        if kind == "test_result" and (RANK_CUES["plan"].search(t) or (ranking and _PLAN_LATER.search(t))):
            score[i] *= W_PLAN
        if later:
            score[i] += W_LATER * topic[i] * (float(bool(RANK_CUES["later"].search(t))) + 0.5 * i / max(n - 1, 1))
    # "do i still do the shots": the STOP line; "what were his kidney numbers": the value row; "her last level"
    score = firm.rank_lift(kind, question, texts, topic, score, later) if ranking else score
    return score


def _topic_shares(concepts: list[Concept], kind: str, question: str) -> np.ndarray:
    """Each concept's share in the topic score: 1, but `W_GENERIC_TEST` for a generic test word beside another
    concept in a result question, and 0 for the drug a question asking for a new one says is already taken."""
    out = np.ones(len(concepts))
    if len(concepts) < 2:
        return out
    if kind == "when":
        out *= story_shares(concepts, question)  # the story before the asked clause
    generic = {tuple(tokens(w)) for w in GENERIC_TESTS}
    also = ({tuple(tokens(m.group(1))) for m in _ALSO_ON.finditer(question)}
            if kind == "med_change" and RANK_CUES["begun"].search(question) else set())
    if kind == "med_change" and firm.asks_decision(question):
        also |= {tuple(tokens(w)) for w in firm.beside_drugs(question)}  # "as well as the accutane", "while on ..."
    for k, c in enumerate(concepts):
        if kind == "test_result" and c.surface in generic:
            out[k] = W_GENERIC_TEST
        elif c.surface in also:
            out[k] = 0.0
    return out if out.sum() > 0 else np.ones(len(concepts))


def _other_drug_share(concepts: list[Concept], named: np.ndarray, drugs: set[tuple[str, ...]],
                      topic: np.ndarray) -> np.ndarray:
    """`W_OTHER_DRUG` for a sentence naming some of the question's topic but not the medicine it asks about,
    when a sentence names that medicine ("why has my omeprazole been cut down": not the doxazosin line); 1 else."""
    asked = [k for k, c in enumerate(concepts) if c.surface in drugs and named[k].any()]
    if not asked:
        return np.ones(len(topic))
    names_it = named[asked].any(axis=0)
    return np.where((topic > 0) & ~names_it, W_OTHER_DRUG, 1.0)


def _only_siblings(c: Concept, question: str, words: list[set[str]]) -> bool:
    """A drug the question names by its own name ("Aleve": naproxen) that the note names only through other
    members of its class ("Ibuprofen 600 mg ..."): the note speaks of another medicine, not of the one asked
    about. A class word ("NSAIDs", "anti-inflammatory") or the drug's own names cover it."""
    from archehr.glossary.drugs import WORD, generic_of

    asked = [g for w in WORD.findall(question) if (g := generic_of(w)) is not None and tuple(tokens(w)) == c.surface]
    if not asked:
        return False
    own = tuple(tokens(asked[0]))
    generics = generic_tokens()
    siblings = {ph for ph in c.phrases if ph in generics and ph != own}
    if not siblings:
        return False
    kept = Concept(c.surface, frozenset(c.phrases - siblings))
    return not any(kept.covered_by(w) for w in words)


@functools.lru_cache(maxsize=1)
def generic_tokens() -> frozenset[tuple[str, ...]]:
    """The generic drug names (as stemmed word tuples) of `archehr.glossary.drugs`."""
    from archehr.glossary.drugs import drug_names

    return frozenset(tuple(tokens(g)) for g in set(drug_names().values())) - {()}


def _neighbour_topic(topic: np.ndarray, case: Case, before_only: bool = False,
                     apart: np.ndarray | None = None) -> np.ndarray:
    """Each sentence's best topic score among the sentences just before and after it (`before_only`: just
    before it) in its paragraph; with `apart`, not between two sentences each opening an item of a list."""
    para = [s.paragraph_id for s in case.sentences]
    out = np.zeros(len(topic))
    for i in range(len(topic)):
        near = [topic[j] for j in ((i - 1,) if before_only else (i - 1, i + 1))
                if 0 <= j < len(topic) and para[j] == para[i] and not (apart is not None and apart[i] and apart[j])]
        out[i] = max(near, default=0.0)
    return out
