"""The asking part of a patient's question, apart from the story told around it.

Carers and patients wrap a question in what the note has no words for: "Is Dad allowed drive himself in to
the radiotherapy? He's very independent and won't take a lift off anyone." The note answers the first sentence;
the second tells why it matters. `asking_part` finds the clauses that ask (a clause ending in a question mark,
or opening with a question word, also after "but", "so" or "and") and the story around them, so the confidence
can read how well the note covers what is asked apart from how well it covers the story.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from archehr.answerability.features import QUESTION_FILLER
from archehr.glossary import Glossary
from archehr.relevance.text import tokens

# a sentence ends at "?", "!" or "." before a space, but for the full stop of a title or an abbreviation ("Dr. Lee",
# "vs. the old one"); patients' texting starts a sentence in lower case as often as not
_SENTENCES = re.compile(r"(?<=[?!])\s+|(?<!\b(?:dr|mr|ms|st|vs|no))(?<!\b(?:mrs|etc))(?<=\.)\s+", re.I)
_WH = r"(?:how|when|why|what|whats|what's|which|who|where|wen|wat|y)"
_AUX = (r"(?:can|could|may|might|should|will|would|is|are|am|was|were|do|does|did|has|have|had|r)\s+"
        r"(?:i|he|she|it|that|this|they|we|you|there|my|his|her|our|their|mum|mom|mam|dad|the)")
# a question asked inside a run-on message with no stop before it ("... at the weekend is she allowed to go", "...
# everything else how many days does she have to take them", "... and she just wants to know how many more"): a break
# before a question word and an auxiliary or a measure word, before an auxiliary and its subject pronoun, or before
# "and" and someone wanting to know. Only these shapes: a bare "when" or "how" goes on statements ("when she got home")
_RUN_AUX = r"(?:is|are|was|were|do|does|did|can|could|will|would|should|shall|may|might|must|has|have|had)"
# ... not after a joining word or a preposition that belongs with the question ("or do i", "for how long", "asks how")
_NOT_AFTER = (r"(?<!\b(?:or|so|to|on|at|in|of|if|is))(?<!\b(?:and|but|for|ask|see))"
              r"(?<!\b(?:asks|know|like|then|said|told|tell))(?<!\b(?:about|asked))(?<!\bwhether)")
_RUN_ON = (rf"{_NOT_AFTER}\s+(?=(?:how|when|what|which|where|why)\s+"
           rf"(?:{_RUN_AUX}|many|much|long|soon|often|time|day|date)\b)|"
           rf"{_NOT_AFTER}\s+(?=(?:is|are|can|could|should|will|would|does|do|did)\s+"
           r"(?:she|he|i|it|they|we|you|there)\s+"
           r"(?:\w+\s+)?(?:allowed|ok|okay|able|meant|supposed|going|need|have|still|safe|due|be)\b)|"
           rf"{_NOT_AFTER}\s+(?=and\s+(?:i|she|he|we|they)\s+(?:just\s+|really\s+|would\s+)?"
           r"(?:wants?|wanted|needs?|like|'d like)\s+to\s+know\b)")
# clause breaks inside a sentence: a comma, a semicolon, a dash, and "but" / "so" / "and" / "or" before a question
# word or an auxiliary and its subject ("... so when can she", "... and is that ok"; not "so sore", "and stop")
_CLAUSES = re.compile(rf"\s*[,;:]\s+|\s+[-–—]+\s+|\s+(?=(?:but|so|and|or)\s+(?:{_WH}|{_AUX})\b)", re.I)
# ... and in a sentence that does not end in a full stop (texting's run-on message, or one ending in "?"), also before
# a question asked inside it after a story of `RUN_STORY` words or more: a written statement's "That is how long it
# takes." stays whole, and so does a topic put first ("the vitamin b1 tablets how long for")
_RUN_SPLIT = re.compile(_RUN_ON, re.I)
RUN_STORY = 6
_LEAD = re.compile(r"^(?:but|so|and|because|cause|cos|coz|or|also|plus|then|just|ok|okay|well|anyway|"
                   r"hi|hello|sorry|please|thanks|thank you)\b[\s,]*", re.I)
# a clause that asks: it opens with a question word, a modal or an auxiliary before its subject ("can she",
# "is it ok", "r they", "wen do i"), or says it asks ("I want to know", "wondering", "any idea")
_ASKS = re.compile(
    r"^(?:how|when|why|what|whats|what's|which|who|whom|whose|where|wen|wat|wot|wich|hw|y|"
    r"can|could|may|might|must|shall|should|will|would|is|isnt|isn't|are|arent|aren't|am|was|were|do|does|doesnt|"
    r"doesn't|did|didnt|didn't|dont|don't|has|have|had|hasnt|hasn't|havent|haven't|r|any|anything|ok to|okay to|"
    r"is it|i want to know|i need to know|i'd like to know|i was wondering|wondering|want to know|"
    r"need to know|do you know|any idea|tell me|please tell|what about|how about|whether|if)\b", re.I)
# a letter's polite ask says it asks without a question word first: "I should be grateful to know for how long",
# "my husband wishes to know what", "I should be obliged if you would confirm", "kindly let me know"
_ASKS_INSIDE = re.compile(r"\b(?:wonder(?:ing|ed)?|wants? to know|wanted to know|need to know|like to know|"
                          r"not sure (?:if|whether|when|why|how|what)|any idea|"
                          r"asking (?:if|whether|about|when|why|how)|"
                          r"tell (?:me|us) (?:please )?(?:(?:for|on|at|in|by) )?(?:if|whether|when|why|how|what|which)|"
                          r"(?:wish(?:es|ed)?|glad|grateful|obliged|interested|keen|pleased|like|liked|anxious) to "
                          r"(?:know|learn|find out|hear|be sure|confirm|ask)|"
                          r"(?:let|letting) (?:me|us|him|her) know|"
                          r"if you (?:could|would|might|can|will) (?:kindly |please )?"
                          r"(?:tell|explain|confirm|remind|advise|clarify|say|let))\b", re.I)
# a clause after a comma that opens with a relative word ("..., who came home on Monday", "..., which does my back
# good") describes what came before: it asks only when it ends in a question mark
_RELATIVE = re.compile(r"^(?:who|which|whom|whose)\b", re.I)
# a clause after a comma that opens with a bare auxiliary before no subject ("..., has been stopped") goes on the
# sentence's statement; one before its subject ("..., is it ok") asks
_BARE_AUX = re.compile(r"^(?:is|are|am|was|were|has|have|had|do|does|did)\b", re.I)

# the asking clause points back into the story ("is that ok to do now?", "has she been put on that one too?"): what
# it asks about is the story's, so the story counts whole
_REFERS = re.compile(r"\b(?:that|this|it|them|those|these|one|ones)\b", re.I)


@dataclass(frozen=True)
class AskingPart:
    """The question's asking clauses and the story clauses around them, in the question's order."""

    asking: str  # the clauses that ask (the whole question when none is told apart)
    story: str  # the rest ("" when the whole question asks)

    @property
    def has_story(self) -> bool:
        return bool(self.story)

    @property
    def apart(self) -> str | None:
        """The asking clauses when they stand apart from the story: a story told, and an ask that does not point
        back into it ("that", "it", "this one"); else None."""
        return self.asking if self.story and not _REFERS.search(self.asking) else None


def clauses(question: str) -> list[str]:
    """The question's clauses: its sentences cut at commas, semicolons, dashes and a "but", "so", "and" or "or"
    before a question word or an auxiliary and its subject."""
    return [c for c, _ in _placed_clauses(question)]


def _placed_clauses(question: str) -> list[tuple[str, bool]]:
    """The question's clauses, each with whether it opens a sentence or stands in one that does not end in a full
    stop ("Once it is done, which tablets do I go on to?"; texting's unpunctuated "is it ok, was everything fine"):
    else it goes on a written statement."""
    return [c for sentence in _SENTENCES.split(question.strip()) for c in _sentence_clauses(sentence)]


def _sentence_clauses(sentence: str) -> list[tuple[str, bool]]:
    """One sentence's clauses, each with whether it opens the sentence or stands in one that does not end in a full
    stop (`_placed_clauses`)."""
    out = []
    first = True
    marked = not sentence.rstrip().endswith(".")
    for part in (p for c in _CLAUSES.split(sentence) for p in (_run_on(c) if marked else [c])):
        part = part.strip()
        if part:
            out.append((part, first or marked))
            first = False
    return out


def _run_on(clause: str) -> list[str]:
    """The clause cut before each question asked inside it (`_RUN_ON`) that follows `RUN_STORY` words or more of
    its own; a shorter lead stays with the question it introduces."""
    out: list[str] = []
    for piece in _RUN_SPLIT.split(clause):
        if out and len(out[-1].split()) < RUN_STORY:
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


def asks(clause: str, opens: bool = True) -> bool:
    """The clause asks: it ends in a question mark, opens (after a joining word) with a question word, a modal or an
    auxiliary, or says it asks ("I was wondering if", "asking if", "I should be grateful to know"). A clause going
    on a statement (`opens` False: inside a sentence ending in a full stop) does not ask by a relative word ("who",
    "which") nor by an auxiliary before no subject ("has been stopped")."""
    if clause.rstrip().endswith("?"):
        return True
    core = _LEAD.sub("", clause.strip())
    if _ASKS_INSIDE.search(core):
        return True
    if not opens and (_RELATIVE.search(core) or (_BARE_AUX.search(core) and not re.match(_AUX, core, re.I))):
        return False
    return bool(_ASKS.search(core))


def _marked(question: str) -> list[tuple[str, bool]] | None:
    """The question's clauses, each with whether it asks; None when no clause tells itself apart as asking (no
    question word nor mark) or every clause asks: then the whole question asks."""
    parts = [(c, asks(c, opens)) for c, opens in _placed_clauses(question)]
    if all(a for _, a in parts) or not any(a for _, a in parts):
        return None
    return parts


def asking_part(question: str) -> AskingPart:
    """The asking clauses of `question` and the story around them (`AskingPart`)."""
    parts = _marked(question)
    if parts is None:
        return AskingPart(question.strip(), "")
    return AskingPart(" ".join(c for c, a in parts if a), " ".join(c for c, a in parts if not a))


def story_pruned(question: str, note_words: set[str], lexicon: Glossary,
                 note: tuple[list[str], list[set[str]]] | None = None) -> str | None:
    """The question with the story's words that name nothing the note names left out: every asking clause whole,
    and of the story only the words of its concepts the note names (`note_words`: the note's words as
    `kinds.sentence_words` gives them). With `note` (the note's sentences and each one's words), a story's word
    standing for a note's name heard, shortened or misspelt ("his amlodapine") is read as that name
    (`shorthand.widen`), so it stays. None when the question tells no story apart or its story loses no word."""
    from archehr.answerability.kinds import asked_concepts
    from archehr.answerability.shorthand import widen

    parts = _marked(question)
    if parts is None:
        return None
    out, dropped = [], False
    for clause, asking in parts:
        if asking:
            out.append(clause)
            continue
        concepts = asked_concepts(clause, lexicon)
        if note is not None:
            concepts = widen(concepts, clause, note[0], note[1], lexicon)
        named = {t for c in concepts if c.covered_by(note_words) for t in c.surface}
        # words with no content of their own ("the", "and") stay; a content word stays when the note names it
        kept = [w for w in clause.split() if set(tokens(w)) <= named]
        dropped = dropped or len(kept) < len(clause.split())
        if any(tokens(w) for w in kept):
            out.append(" ".join(kept))
    return " ".join(out) if dropped else None


# words that tell who is asking, when, how and how they feel, naming nothing a note answers: when, time and the days
# ("last week", "yesterday", "on Friday"), getting in touch ("message", "phone", "letter", "paperwork", "asked me
# to"), feelings ("anxious", "worried"), being discharged and cared for ("came home", "look after"); a story sentence
# naming nothing else (`QUESTION_FILLER`, the kind words) is left out of the reading (`asked_reading`)
STORY_WORDS = frozenset(tokens("""
yesterday today tonight tomorrow morning afternoon evening night week weeks weekend month months year last since ago
now recently soon earlier later monday tuesday wednesday thursday friday saturday sunday
ask asks asked asking question questions wonder wondering message messages messaging text texting phone phoning call
calling email letter letters paperwork paper papers form forms read reading write writing note notes understand
explain know knowing tell telling talk talking
anxious anxiety worried worry worrying nervous scared afraid frightened confused upset stressed sorry silly
together family friend friends neighbour carer care caring look looking after help helping want wanted right get
got getting go going went come coming came arrived leave left out through discharged discharge
"""))


_DIGIT_OR_WH = re.compile(rf"\d|\b{_WH}\b|\b(?:whom|whose|wot|wich|hw)\b", re.I)


def _tells_only(sentence: str) -> bool:
    """A sentence naming nothing but who asks, when and how: each word one of `STORY_WORDS` (one at least), of the
    words that say nothing of a topic (`QUESTION_FILLER`) or say only the kind of answer, with no number and no
    question word ("stop when", "result what" ask, in a texting order)."""
    from archehr.answerability.asked_for import KIND_WORDS

    words = set(tokens(sentence))
    if _DIGIT_OR_WH.search(sentence) or not words & STORY_WORDS:
        return False
    return words <= STORY_WORDS | QUESTION_FILLER | KIND_WORDS


def _asking_sentences(question: str) -> list[tuple[str, bool]]:
    """The question's sentences, each with whether a clause of it asks (`asks`)."""
    return [(s.strip(), any(asks(c, opens) for c, opens in _sentence_clauses(s)))
            for s in _SENTENCES.split(question.strip()) if s.strip()]


def asked_reading(question: str) -> str | None:
    """What is read as the question when a story is told around it: the sentences that ask and the story sentences
    naming something the note may answer. A sentence that does not ask and tells only who asks, when and how ("We
    got home yesterday and I am reading the paperwork now.", `STORY_WORDS`) is left out, so the same ask is read the
    same with it; one naming a medicine, a test, a symptom, a number or an event stays ("He takes metformin.", "Her
    weight was 62 this morning."), and so does a question asked with no question word nor mark ("once the cast is
    off can she swim"). None: nothing is left out (no such sentence, or nothing else would be left)."""
    parts = _asking_sentences(question)
    kept = [c for c, a in parts if a or not _tells_only(c)]
    return " ".join(kept) if 0 < len(kept) < len(parts) else None
