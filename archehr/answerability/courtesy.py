"""Courtesy around a patient's question, left out of its reading.

Patients open and close what they ask with greetings, apologies, thanks and a sign-off: "Sumimasen, ...", "Hi doc
sorry to bother you, ...", "... Many thanks in advance.", "... thanks, Maria". None of it is about the note, yet each
of its words was read as a concept the note never names ("hello", "sorry", "maria"), so the same ask got another
confidence, and sometimes another first line, with a greeting before it. `without_courtesy` leaves out the courtesy
that opens the question, the courtesy (and the writer's name after a sign-off) that closes it, and a sentence made
of courtesy alone, by the phrases of `archehr/glossary/courtesy.tsv` (English and the languages of
`glossary/languages`). Courtesy inside what is asked stays: "thanks for the letter, when is ..." keeps its "thanks",
as the phrase does not end where a new clause starts.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from archehr.answerability.languages import fold

COURTESY_FILE = Path(__file__).resolve().parents[1] / "glossary" / "courtesy.tsv"
# roles that make a run of words courtesy (glue never does alone; lead only where the question opens)
ANCHORS = frozenset({"greeting", "thanks", "closing", "apology", "courtesy"})
# roles a name may follow: the one greeted ("Hi Dr Lee,"), the writer signing off ("thanks, Maria")
NAMED = frozenset({"greeting", "thanks", "closing"})
MAX_NAME = 4  # words of a name ("Mrs P. Adeyemi", "J. Okonkwo (son)")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_BREAK = re.compile(r"[,.;:!?\n]|\s[-–—]+\s")  # a clause ends between two words
_SENTENCE_END = re.compile(r"[.!\n]")  # ... and a sentence that states ("?": what it asks is never left out)
# the words a new clause opens with after a courtesy with no comma ("hiya x is it ok", "ok so my dad"): a question
# word or an auxiliary, a person's pronoun, someone of the family (not "this" or "it": "sorry to ask this at 3am")
_OPENS = frozenset("""how when why what whats which who where is are was were can could may might should will would
do does did has have had any i im ive my me he hes she shes we our his her they their mum mom mam dad mother father
wife husband son daughter""".split())
_TAIL = re.compile(r"[)\]\"'’”]*[?!.]*")


@dataclass(frozen=True)
class _Word:
    start: int
    end: int
    key: str  # lower case, accents folded, apostrophes left out
    name: bool  # could be part of a name: a capital, an initial or a word in brackets ("(son)")


def _words(text: str) -> list[_Word]:
    out = []
    for m in _WORD.finditer(text):
        w = m.group()
        boxed = text[m.start() - 1:m.start()] == "(" or text[m.end():m.end() + 1] == ")"
        out.append(_Word(m.start(), m.end(), re.sub(r"['’]", "", fold(w)), w[:1].isupper() or len(w) == 1 or boxed))
    return out


@functools.lru_cache(maxsize=1)
def phrases() -> dict[tuple[str, ...], str]:
    """The courtesy phrases (their words) and each one's role, from `courtesy.tsv`."""
    out: dict[tuple[str, ...], str] = {}
    for line in COURTESY_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#") or line.startswith("phrase\t"):
            continue
        phrase, role = line.split("\t")[:2]
        out[tuple(phrase.split())] = role
    return out


@functools.lru_cache(maxsize=1)
def longest() -> int:
    """The most words of a courtesy phrase: how far a match is looked for (a phrase added to the file is reached)."""
    return max(map(len, phrases()), default=0)


def _reach(words: list[_Word], s: int, lead: bool) -> dict[int, set[tuple[bool, bool, str]]]:
    """The positions reachable from word `s` by courtesy phrases one after another (and a name after a greeting, a
    thanks or a sign-off), each with how: (an anchor role used, a lead filler used, the last role)."""
    table, most = phrases(), longest()
    keys = [w.key for w in words]
    reach: dict[int, set[tuple[bool, bool, str]]] = {s: {(False, False, "")}}
    for p in range(s, len(words)):
        for anchor, filler, last in list(reach.get(p, ())):
            for n in range(1, min(most, len(words) - p) + 1):
                role = table.get(tuple(keys[p:p + n]))
                if role is None or (role == "lead" and not lead):
                    continue
                reach.setdefault(p + n, set()).add((anchor or role in ANCHORS, filler or role == "lead", role))
            if last in NAMED:
                for n in range(1, min(MAX_NAME, len(words) - p) + 1):
                    if not all(w.name for w in words[p:p + n]):
                        break
                    reach.setdefault(p + n, set()).add((anchor, filler, "name"))
    return reach


def _gap(text: str, words: list[_Word], i: int) -> str:
    """The text between word i-1 and word i."""
    return text[words[i - 1].end:words[i].start]


def _opening(text: str, words: list[_Word]) -> int:
    """How many words open the question as courtesy: the most that end where a clause ends or a new one opens."""
    best = 0
    for j, ways in _reach(words, 0, lead=True).items():
        ways = {w for w in ways if w[0] or w[1]}  # a greeting, an apology ... or an opening filler
        if not 0 < j < len(words) or not ways:
            continue
        # after a name only a clause's end shows where it ends ("Hi Dr Lee, when ...", not "Hi Maria Lopez")
        named = all(last == "name" for _, _, last in ways)
        starts = bool(_BREAK.search(_gap(text, words, j))) or not named and (
            words[j].key in _OPENS or text[words[j].start].isupper())
        # fillers alone, two or more ("ok so basically in hospital they ..."): whatever follows
        starts = starts or j > 1 and all(f and not a for a, f, _ in ways)
        if starts:
            best = max(best, j)
    return best


def _closing(text: str, words: list[_Word], first: int) -> int:
    """Where the courtesy closing the question starts (len(words) when none): the earliest word after `first` from
    which courtesy runs to the end, after a clause's end, opening with thanks ("... this week thank you") or with a
    capital after a question written without its stop ("... since the garden Kind regards, Tom")."""
    table = phrases()
    for s in range(first + 1, len(words)):
        thanks = any(table.get(tuple(w.key for w in words[s:s + n])) == "thanks" for n in range(1, longest() + 1))
        if not thanks and not _BREAK.search(_gap(text, words, s)) and not text[words[s].start].isupper():
            continue
        if any(a for a, _, _ in _reach(words, s, lead=False).get(len(words), ())):
            return s
    return len(words)


def _inner(text: str, words: list[_Word], first: int, last: int) -> list[tuple[int, int]]:
    """The sentences between words `first` and `last` made of courtesy alone ("Sorry for many questions."), as
    (first word, word after): a sentence ending in a question mark stays."""
    out, s = [], first
    for i in range(first + 1, last + 1):
        if i < last and not _SENTENCE_END.search(_gap(text, words, i)):
            continue
        if s > first and i < last and any(a for a, _, _ in _reach(words, s, lead=False).get(i, ())):
            out.append((s, i))
        s = i
    return out


def without_courtesy(text: str) -> str:
    """`text` (a patient's question) without the greetings, apologies, thanks and sign-offs around what it asks and
    the sentences of courtesy alone inside it; unchanged when it has none, or when nothing else would be left."""
    words = _words(text)
    if not words:
        return text
    first = _opening(text, words)
    last = _closing(text, words, first)
    inner = _inner(text, words, first, last)
    if first == 0 and last == len(words) and not inner:
        return text
    out, pos = [], words[first].start
    for a, b in inner:
        out.append(text[pos:words[a].start])
        pos = words[b].start
    if last == len(words):
        out.append(text[pos:])
    else:
        out.append(text[pos:words[last - 1].end] + _TAIL.match(_gap(text, words, last).strip()).group())
    read = "".join(out).strip()
    if text.rstrip().endswith("?") and not read.endswith("?"):
        read = read.rstrip(" ,;:.-") + "?"  # a question mark after the courtesy ("Is it ok, please?") stays
    if text.lstrip()[:1].isupper() and read[:1].islower():
        read = read[:1].upper() + read[1:]  # a question written with a capital reads as one
    return read
