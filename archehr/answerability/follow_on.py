"""Which note sentences `archehr answer` cites after the one that answers first.

The first cited sentence is the best by answer type (`archehr.ask`). The others follow it when they hold the asked
kind of answer nearly as well (`cited_after_first`), and a medication entry and the line that goes on from it to say
how to take it ("Take 1 tablet by mouth once a day for 28 days") or what becomes of it ("You no longer need this
medicine.", "Keep taking this lifelong.") are cited together: either one cited brings the other (`follow_on`).

Why the answer-type share: a sentence naming the question's topic without holding the asked kind of answer (a
duration, a date, a result ...) scores `kinds.HOLDS_FLOOR` (0.35) of one naming as much of it and holding it, so
a later sentence scoring under 0.4 of the first on the answer type alone mostly only names the topic; such
sentences were rarely among those that answer (about 1 in 18 on our everyday questions, against about 1 in 4 for
the others cited), so dropping them lets the rank share reach lower. Sentences merely next to the first one in
its paragraph answered too seldom (about 1 in 20) to be cited for that alone (docs/answer-methods.md).

Why a few close ones whatever their answer type (`close_to_first`): on writers the ranking was not tuned on, the
first line is wrong for about a third of the questions, and the sentence that answers then mostly ranks below it
without the asked kind's score; there an uncited sentence ranking at least half of the first answers about 1 time
in 10 (1 in 6 when the first is wrong, where a citation more costs no precision), and more often when the first
holds the asked kind only weakly. Citing up to three of them raised recall by about 4 points on such writers for
about 5 of precision (docs/answer-methods.md, "Cited after the first on new writers"). They come only after a first
holding the asked kind weakly (`strong`), and only those naming some of the question's topic (`named`): after a
first holding it firmly (mostly right) or naming nothing of the topic, a close one answered about 1 time in 25 on
our everyday questions (docs/answer-methods.md, "Close ones only after a weak first").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from archehr.answerability.doses import STRENGTH

# what becomes of the medicine just named: stopped, no longer needed, to be finished, not to be taken or stopped
_WHAT_BECOMES = re.compile(r"\b(?:this (?:medicine|medication|drug|tablet|pill)s?|no longer|status\b|stopped|"
                           r"finish\w*|complete (?:the|all)|(?:whole|full) course|take it|use it|stop it|"
                           r"do not (?:take|stop|use)|keep (?:taking|using|on) (?:this|it|them))\b", re.I)
# how to take the medicine just named, in a line of its own: "Take 1 tablet by mouth once a day for 28 days"
_HOW_TO_TAKE = re.compile(r"\b(?:take|use|inject|apply|place|inhale|give|dissolve)\s+(?:\d+(?:\.\d+)?|one|two|three|"
                          r"four|half|a|an)\s+(?:tablets?|capsules?|puffs?|sprays?|drops?|patch(?:es)?|sachets?|"
                          r"units?|doses?|pens?|injections?|ml|applications?)\b", re.I)
# a line opening by taking the medicine just named up again, naming none itself: "RESTART the morning after the
# biopsy if no bleeding", "Resume when eating and drinking normally" (a held medicine's line and its restart)
# (a restart line naming what it restarts, "Restart clopidogrel tomorrow", is about that medicine, not the entry's:
# the word after the verb is a time, a condition or a pronoun, or none)
_TAKEN_UP = re.compile(r"^\W*(?:re-?start(?:ed|s)?|resum(?:e|ed|es))(?:\W*$|\s+(?:it|them|this|these|on|at|when|if|"
                       r"once|after|from|the|in|by|tomorrow|today|tonight|only|as|with|until)\b)", re.I)
# ... after an entry holding or stopping it ("HOLD Rivaroxaban 20 mg once daily - last dose the evening before")
_HELD = re.compile(r"\b(?:hold|held|withh[eo]ld\w*|omit\w*|stop\w*|paused?|suspend\w*)\b", re.I)
# a reason given for the medicine just named, in a line going on from its entry: "You have taken it for 3 years,
# and long use can raise the risk of broken bones." (after "STOP: Omeprazole 40 mg every morning.")
_REASON = re.compile(r"\b(?:because|due to|as (?:it|this|they|these)|risks?|harm\w*|damag\w*|side[\s-]effects?|"
                     r"(?:can|could|may|might) (?:cause|lead|make|raise|lower|affect|interact)|interact\w*|"
                     r"no longer (?:needed|required|necessary)|not (?:needed|required|working|suitable))\b", re.I)
# a line referring back to the medicine just named: "it", "this", "these", "them"
_BACK = re.compile(r"\b(?:it|its|this|these|they|them)\b", re.I)
# a list item's mark at a line's start: a number ("1.", "2)") or a bullet ("-", "*", "•", "▪", "●", ">")
LIST_MARK = re.compile(r"^\s*(?:[-*\u2022\u25aa\u25cf>]|\d+[.)])")
REASON_WORDS = 30  # the reason's line: a sentence, not a paragraph
ENTRY_WORDS = 25  # a medication entry is short: its name, dose and how to take it
STATUS_WORDS = 14  # ... and the line saying what becomes of it shorter still


class Sentence(Protocol):
    """What the rule reads of a note sentence (`archehr.data.note_split.SplitSentence` has it)."""

    paragraph_id: int
    text: str


def cited_after_first(order: Sequence[int], rank: np.ndarray, typed: np.ndarray | None, *, most: int,
                      share: float, typed_share: float) -> list[int]:
    """The sentences cited, best first: `order[0]`, then those of `order` (best first) scoring at least `share`
    of its `rank` whose answer-type score (`typed`, `AnswerTypes.ranking`) is at least `typed_share` of its own,
    at most `most` in all. The answer-type test is left out when the first scores 0 on it (or `typed` is None:
    ranking by the selector alone)."""
    if not order:
        return []
    first = order[0]
    best = float(rank[first])
    lead = float(typed[first]) if typed is not None else 0.0
    chosen = [first]
    for i in order[1:]:
        if len(chosen) >= most or float(rank[i]) < share * best:
            break  # `order` runs best first: no later sentence reaches the share
        if lead > 0 and typed is not None and float(typed[i]) < typed_share * lead:
            continue
        chosen.append(i)
    return chosen


def close_to_first(order: Sequence[int], rank: np.ndarray, typed: np.ndarray | None, chosen: Sequence[int], *,
                   most: int, share: float, weak: float, weak_share: float, strong: float | None = None,
                   named: np.ndarray | None = None) -> list[int]:
    """Up to `most` sentences of `order` (best first) not in `chosen`, each ranking at least `share` of the first's
    `rank` whatever its answer-type score, or `weak_share` of it when the first's answer-type score (`typed`) is under
    `weak`: it holds the asked kind of answer only weakly, so the ranking is less sure of it. None when the first's
    answer-type score is `strong` or more (it holds the asked kind firmly, and a close one rarely answers as well);
    with `named` (`AnswerTypes.topic`), only sentences naming some of the question's topic (above 0)."""
    if not order:
        return []
    first = order[0]
    if strong is not None and typed is not None and float(typed[first]) >= strong:
        return []
    weakly = typed is not None and float(typed[first]) < weak
    floor = (weak_share if weakly else share) * float(rank[first])
    out: list[int] = []
    for i in order[1:]:
        if len(out) >= most or float(rank[i]) < floor:
            break  # `order` runs best first: no later sentence reaches the share
        if i not in chosen and (named is None or float(named[i]) > 0):
            out.append(i)
    return out


@dataclass(frozen=True)
class CitePolicy:
    """Which sentences an answer cites besides the one that answers first, before the medication lines that go on
    from them (`follow_on`): `cited_after_first` then `close_to_first`, with the shares below. The defaults are the
    shipped policy (`archehr.ask.CITES`); `benchmarks/cite_policy.py` replays others over recorded candidates."""

    most: int = 8  # sentences cited at most (the generator's word budget keeps fewer lines)
    # later sentences rank at least this share of the first, and on the answer type alone `typed_share` of it
    # (chosen with writers held out, docs/answer-methods.md "A higher rank share after the first"; `strong_share` and
    # `typed_share` lowered from 0.7 and 0.4 for the newest writers, whose answers run over more lines:
    # "More lines after the first for answers told over several")
    share: float = 0.4
    strong_share: float = 0.65  # `share` when the first's answer-type score is `strong` or more
    typed_share: float = 0.3
    # then at most `close_most` more ranking at least `close_share` of the first whatever their answer type,
    # `close_weak_share` when the first's answer-type score is under `close_weak`; none when it is `strong` or more,
    # and only sentences naming some of the question's topic (chosen on writers the ranking was not tuned on,
    # docs/answer-methods.md "Cited after the first on new writers", "Close ones only after a weak first")
    close_most: int = 3
    close_share: float = 0.5
    close_weak: float = 0.5
    close_weak_share: float = 0.4
    strong: float = 0.5

    def with_shares(self, share: float | None = None, strong_share: float | None = None) -> CitePolicy:
        """This policy with other rank shares after a weak (`share`) and a firm (`strong_share`) first (None keeps
        its own); the close ones of a weak first must reach `share` too."""
        weak = self.share if share is None else share
        return replace(self, share=weak, strong_share=self.strong_share if strong_share is None else strong_share,
                       close_share=max(self.close_share, weak), close_weak_share=max(self.close_weak_share, weak))

    def choose(self, order: Sequence[int], rank: np.ndarray, typed: np.ndarray | None,
               named: np.ndarray | None = None) -> list[int]:
        """The sentences cited (indices, best first) of `order` (best first; its first answers first), by their
        `rank`, answer-type scores (`typed`, None: ranked by the selector alone) and topic shares (`named`)."""
        firm = bool(order) and typed is not None and float(typed[order[0]]) >= self.strong
        chosen = cited_after_first(order, rank, typed, most=self.most,
                                   share=self.strong_share if firm else self.share, typed_share=self.typed_share)
        return chosen + close_to_first(order, rank, typed, chosen, most=self.close_most, share=self.close_share,
                                       weak=self.close_weak, weak_share=self.close_weak_share, strong=self.strong,
                                       named=named)


def goes_on_from(entry: str, line: str) -> bool:
    """`line`, the one after `entry`, says what becomes of the medication `entry` names: `entry` is short and gives
    a dose, `line` is shorter, gives none and says the medicine is stopped, no longer needed, to be finished ...
    ("acetaminophen-codeine 300-30 mg tablet" / "You no longer need this medicine.")."""
    return (bool(STRENGTH.search(entry)) and len(entry.split()) <= ENTRY_WORDS and len(line.split()) <= STATUS_WORDS
            and not STRENGTH.search(line) and bool(_WHAT_BECOMES.search(line)))


def entry_line(entry: str, line: str) -> bool:
    """`line`, the one after `entry`, tells how to take the medication `entry` names ("START Biktarvy 50/200/25 mg
    tablet" / "Take 1 tablet by mouth once a day for 28 days"), or what becomes of it (`goes_on_from`): the two are
    read together, so either cited cites the other (`restarts` goes one way only)."""
    if goes_on_from(entry, line):
        return True
    return (bool(STRENGTH.search(entry)) and len(entry.split()) <= ENTRY_WORDS and not _HOW_TO_TAKE.search(entry)
            and bool(_HOW_TO_TAKE.match(re.sub(r"^\W+", "", line))))


def gives_reason(entry: str, line: str) -> bool:
    """`line`, the one after `entry` in its paragraph, gives the reason for the medication `entry` names: `entry` is
    short and gives a dose, `line` gives none, opens with no list mark of its own, refers back to the entry by a
    pronoun (`_BACK`: it goes on from the entry, no comment of its own on something else) and says a reason
    (`_REASON`: "long use can raise the risk of broken bones", "because ...")."""
    return (bool(STRENGTH.search(entry)) and len(entry.split()) <= ENTRY_WORDS and len(line.split()) <= REASON_WORDS
            and not STRENGTH.search(line) and not LIST_MARK.match(line)
            and bool(_BACK.search(line)) and bool(_REASON.search(line)))


def restarts(entry: str, line: str) -> bool:
    """`line`, the one after `entry`, says when to take up again the medicine `entry` holds or stops ("HOLD Rivaroxaban
    20 mg once daily" / "RESTART the morning after the biopsy if no bleeding"): cited after the entry, though a
    restart line cited alone brings no entry (it is often the answer to when to restart, its entry no part of it)."""
    return (bool(STRENGTH.search(entry)) and len(entry.split()) <= ENTRY_WORDS and len(line.split()) <= ENTRY_WORDS
            and not STRENGTH.search(line) and bool(_TAKEN_UP.match(line)) and bool(_HELD.search(entry)))


def order_noted(entry: str, line: str) -> bool:
    """`line`, the one after `entry`, is the note set in under the medicine order `entry` ("STOP Metformin 500 mg
    twice daily" / "Reason: not suitable on dialysis (risk of lactic acidosis)."): the order's labelled note
    (`note_entries.is_order_note`, a unit of its own), which says why the medicine was given, stopped or changed."""
    from archehr.data.note_entries import is_order_note

    return bool(STRENGTH.search(entry)) and is_order_note(line)


def follow_on(chosen: Sequence[int], sentences: Sequence[Sentence], why: bool = False,
              noted: bool = False) -> list[int]:
    """The sentences to cite after `chosen`: for each chosen sentence, the next one in its paragraph when it goes on
    from it (`entry_line`: how to take the medicine it names, or what becomes of it; with `why`, a why question, also
    the reason given for it, `gives_reason`; when to take it up again, `restarts`), or the one before when it goes on
    from that one (how to take it or what becomes of it: a reason or a restart cited brings no entry), and is not
    chosen already; in the order of the sentences they follow. With `noted` (a why or a medicine-change question),
    also the order's labelled note under it (`order_noted`: "Reason: ...", which such questions' answers hold)."""
    from archehr.relevance.text import is_header

    out: list[int] = []
    for i in chosen:
        for a, b, j in ((i, i + 1, i + 1), (i - 1, i, i - 1)):
            if a < 0 or b >= len(sentences) or j in chosen or j in out:
                continue
            if sentences[a].paragraph_id != sentences[b].paragraph_id or is_header(sentences[b].text):
                continue
            if entry_line(sentences[a].text, sentences[b].text) or (
                    j == b and (restarts(sentences[a].text, sentences[b].text)
                                or (why and gives_reason(sentences[a].text, sentences[b].text))
                                or (noted and order_noted(sentences[a].text, sentences[b].text)))):
                out.append(j)
    return out


NOTED_KINDS = ("why", "med_change")  # the kinds of question whose answer holds a medicine order's note (`order_noted`)


def follow_on_kind(chosen: Sequence[int], sentences: Sequence[Sentence], kind: str) -> list[int]:
    """`follow_on` for a question of `kind` (the answer types' kind): a why question's reason, and the order's note
    for a question of `NOTED_KINDS`."""
    return follow_on(chosen, sentences, why=kind == "why", noted=kind in NOTED_KINDS)


def kept_together(chosen: Sequence[int], sentences: Sequence[Sentence], rank: np.ndarray,
                  kind: str = "") -> np.ndarray:
    """`rank` with each chosen sentence that goes on from another chosen one (`follow_on`: how to take the medicine,
    what becomes of it, for a why question its reason, when to take it up again, for a question of `NOTED_KINDS`
    the order's note) raised to that one's rank: the
    answer's word budget keeps lines by rank, and a line telling the reason or the stop of a medicine ranks low on its
    own words ("You have taken it for 12 months, and long use can harm the liver."), so it was the first dropped
    while its entry was kept; raised, the two are kept or dropped together (the entry first: equal ranks keep note
    order)."""
    out = np.asarray(rank, dtype=float).copy()
    wanted = set(chosen)
    for i in chosen:
        for j in follow_on_kind([i], sentences, kind):
            if j in wanted:
                out[j] = max(out[j], out[i])
    return out
