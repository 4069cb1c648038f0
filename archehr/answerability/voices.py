"""A patient's question in the spelling of standard English, before it is read: "wis the blawin test bad" is read as
"was the blowing test bad", "when r u comin to fit the machine in the hoose" as "when are you coming to fit the
machine in the house", "am I still on me tablets" as "am I still on my tablets".

The spellings are data (`archehr/glossary/voices.tsv`: Scots and northern English, Irish, Caribbean, US Southern
and African American English, West African and Indian English, texting), each with the kind of place it is read
in (the file's header); a word dropped from its "-ing" ("breathin", "scannin'") is read by rule. `plain_words` is
applied to the question (and the patient's message) only, never to the note: the note keeps its own words, and a
question's word the lexicon reads as a term of several words ("hep c", "c diff") is left as it is.
"""

from __future__ import annotations

import functools
import re

from archehr.glossary import Glossary, GlossaryEntry, load_lexicon, load_voices

# a word as the voices file spells one: letters and digits with an inner or closing apostrophe ("ah've", "goin'",
# "b4"), an opening one ("'em"), a closing slash ("w/", "w/o"); never part of a hyphenated, slashed or ampersand token
_TOKEN = re.compile(r"(?<![\w'/&+-])(?:'(?=[a-z]))?[a-z0-9]+(?:'[a-z]+)?(?:'|/o?)?(?![\w/&+-]|'\w)", re.I)
_NUMBER = re.compile(r"\d")
# a word dropped from its -ing: "comin", "breathin'"
_DROPPED_G = re.compile(r"^([a-z]{2,})in('?)$")

# function words: no noun phrase opens with them ("me too", "me and him", "on me own" stays "me")
_FUNCTION = frozenset("""
a an the this that these those my your his her its our their me mi ma him them us you i he she we they it
and or but so if as at by for from in into of off on onto out over to up down with without about after before
back again away too also either both all any some no not never still yet just only even then now here there
own self every each whole such already since why which when what how where who whether n u r ur y b c
lol haha tbh ngl pls please thanks x xx
""".split())
# verb forms that follow a subject or an object ("let me know", "ma says", "mi have"): after "mi" the subject "I"
_VERB_FORMS = frozenset("""
is are was were be been being am do does did done have has had having can could will would shall should may
might must need needs ought know knows knew see sees saw seen say says said think thinks thought want wants
wanted feel feels felt go goes went gone get gets got take takes took make makes made tell tells told ask asks
asked come comes came keep keeps kept let lets put puts stop stops start starts try tries use uses wait waits
sleep sleeps eat eats drink drinks walk walks drive drives sit sits lie lies rest call calls ring rings help
helps leave leaves left worry worries hurt hurts like likes look looks cannot
""".split())
# states and times after an object ("makes me tired", "saw me yesterday"): no noun phrase either
_STATES = frozenset("""
tired sick dizzy worried scared ill poorly better worse well fine ok okay alright alone home
yesterday today tomorrow tonight later soon anymore please thanks right open
""".split())
_NOT_A_NOUN = _FUNCTION | _VERB_FORMS | _STATES
_VERB_AFTER = re.compile(r"\s+(?:" + "|".join(sorted(_VERB_FORMS, key=len, reverse=True)) + r")\b", re.I)
# a determiner or a word of giving or telling before "me"/"ma"/"mi": "me ma" is mother, "give me tablets" a gift
_NO_POSSESSIVE_AFTER = frozenset("""
a an the my me mi ma his her our your their its this that post prior previous recent old
give gives gave given giving send sends sent tell tells told show shows showed shown bring brings brought
offer offered lend lent hand handed teach taught promise promised write wrote buy bought ask asked let lets
letting make makes made making owe help helps helping have having see seeing saw hear heard watch drive drives
driving drove call calls calling called want wants wanted
""".split())
# a question's auxiliary before a subject ("can ah go"), or a word opening a clause ("when am short of breath")
_BEFORE_SUBJECT = frozenset("""
can could do does did should will would shall may might must have has had need am is are
and but so or if when whenever while once now because cos coz since till until before after as that then where
what why how which who though although unless
""".split())
# words after which "am"/"ah" is no subject: a pronoun ("am I"), a time ("am or pm", "am dose"), an interjection
_NOT_AFTER_SUBJECT = frozenset("""
i you he she we they it ye u or and pm dose doses tablet tablets pill pills meds medication appointment appt
clinic ok okay right well yes no thanks so
""".split())
# words before "mi" naming the MI it may be (a heart attack): "an mi", "had mi", "post mi"
_NOT_AN_OBJECT = frozenset("""
an had has have having post prior previous recent old big small massive silent mild
""".split())
# the words before an adjective read as one ("the wee spot")
_DETERMINERS = frozenset("a an the this that my your his her our their me ma mi wor oor its some".split())
# the words before which a letter reads as a verb ("r u", "c the doctor") or a question word ("y is")
_PRONOUNS = frozenset("""
i you u he she we they it ye my your ur his her our their the a an this that these those
""".split())
_AUXILIARIES = frozenset("""
do does did is are was were am has have had can could will would should cant can't wont won't dont don't
doesnt doesn't didnt didn't isnt isn't arent aren't r u
""".split())
# after which a letter reads as a verb: a question word, a pronoun, a modal or "to"
_BEFORE_VERB = frozenset("""
when what why how where who which i you u he she we they it ye will would should could can may might must to
gonna wanna not dont don't cant can't wont won't
""".split())


def plain_words(text: str) -> str:
    """`text` (a patient's question or message) with the non-standard spellings of common words read as standard
    ones (`voices.tsv`) and words dropped from their -ing written out; unchanged where nothing applies."""
    if not text:
        return text
    tokens = [(m.start(), m.end(), m.group(0)) for m in _TOKEN.finditer(text)]
    if not tokens:
        return text
    guarded = _in_lexicon_terms(text)
    low = [t.lower() for _, _, t in tokens]
    # each word as its plain spelling reads, for the contexts of its neighbours; "" across punctuation ("ringing me.
    # When": no word follows "me")
    seen = [_spelt(w) for w in low]
    joined = [not text[b:tokens[i + 1][0]].strip() for i, (_, b, _) in enumerate(tokens[:-1])] + [False]
    out, last = [], 0
    for i, (a, b, surface) in enumerate(tokens):
        if _skip(surface, a, text, guarded):
            continue
        reading = _reading(i, low, seen, text[:a], joined)
        if reading is None or reading == low[i]:
            continue
        out.append(text[last:a])
        out.append(reading)
        last = b
    out.append(text[last:])
    return "".join(out)


def _skip(surface: str, start: int, text: str, guarded: list[tuple[int, int]]) -> bool:
    """A word not to read: capitalised inside a sentence (a name: "Ken", "Di"), in capitals of two letters or more
    ("MI", "UR"), after a number ("10 u of insulin"), or inside a lexicon term of several words ("hep c")."""
    opening = not text[:start].strip() or text[:start].rstrip()[-1] in ".!?\n"
    if surface[:1].isupper() and (not opening or _VERB_AFTER.match(text, start + len(surface))):
        return True  # a name, also opening a sentence when a verb follows ("Ken said")
    if len(surface) >= 2 and surface.isupper():
        return True
    before = text[:start].rstrip()
    if before and _NUMBER.match(before[-1]):
        return True
    return any(a <= start < b for a, b in guarded)


def _in_lexicon_terms(text: str) -> list[tuple[int, int]]:
    """The spans of the lexicon's terms of several words in `text` ("hep c", "c diff", "u and e")."""
    return [(a, b) for a, b, e in load_lexicon().match_spans(text) if len(e.term.split()) >= 2]


def _spelt(word: str) -> str:
    """A word as a `spelling` entry reads it, else itself."""
    e = _voices().get(word)
    return e.expansions[0].lower() if e is not None and e.kind == "spelling" else word


def _reading(i: int, low: list[str], seen: list[str], before: str, joined: list[bool]) -> str | None:
    """The standard reading of the i-th word in its place (`joined`: each word followed by the next with only a
    space between), or None."""
    word = low[i]
    prev = seen[i - 1] if i > 0 and joined[i - 1] else ""
    nxt = seen[i + 1].split()[0] if joined[i] and seen[i + 1].strip() else ""  # "haffi": "have (to)"
    opening = not before.strip() or before.rstrip()[-1] in ".!?,;:\n"
    e = _voices().get(word)
    if e is None:
        return _dropped_g(word)
    if e.kind == "spelling":
        return e.expansions[0]
    if e.kind == "possessive":
        reading = _possessive(e, prev if not opening else "", nxt)
        return reading if reading is not None or opening else _object(e, prev)
    if e.kind == "subject":
        ok = (opening or prev in _BEFORE_SUBJECT) and nxt.isalpha() and nxt not in _NOT_AFTER_SUBJECT
        return e.expansions[0] if ok else None
    if e.kind in ("verb", "wh", "link") and _spelt_letters(prev, nxt):
        return None  # a word spelt out in letters ("an m r i"), not texting
    if e.kind == "verb":
        ok = (not opening and prev in _BEFORE_VERB) or nxt in _PRONOUNS
        return e.expansions[0] if ok else None
    if e.kind == "wh":
        return e.expansions[0] if nxt in _AUXILIARIES or nxt in _PRONOUNS - {"the", "a", "an"} else None
    if e.kind == "adjective":
        ok = prev in _DETERMINERS and nxt not in _NOT_A_NOUN and nxt.isalpha() and not nxt.endswith("s")
        return e.expansions[0] if ok else None
    if e.kind == "link":
        return e.expansions[0] if len(prev) >= 2 and len(nxt) >= 2 and prev.isalpha() and nxt.isalpha() else None
    return None  # keep


def _spelt_letters(prev: str, nxt: str) -> bool:
    """A single letter beside the word that is no texting word ("m r i", "x y z")."""
    return any(len(w) == 1 and w not in _voices() and w not in ("i", "a") for w in (prev, nxt))


def _possessive(e: GlossaryEntry, prev: str, nxt: str) -> str | None:
    """"me"/"ma"/"mi" before a noun phrase read as "my" (not after a determiner or a verb of giving); a second
    expansion ("mi": I) before a verb form or a negation ("mi have", "mi nuh know")."""
    if not nxt or not nxt.replace("'", "").isalpha() or prev in _NO_POSSESSIVE_AFTER:
        return None
    if nxt not in _NOT_A_NOUN and not nxt.endswith("ing") and not _adverb(nxt):  # "me asking", "me clearly"
        return e.expansions[0]
    if len(e.expansions) > 1 and (nxt in _VERB_FORMS or nxt in ("not", "never", "still", "just")):
        return e.expansions[1]
    return None


def _object(e: GlossaryEntry, prev: str) -> str | None:
    """A third expansion ("mi": me), read after a verb or a preposition where neither "my" nor "I" is ("see mi",
    "give mi"): never opening a clause, nor after a determiner or a word naming a heart attack ("an mi" stays)."""
    if len(e.expansions) < 3 or not prev or prev in _DETERMINERS or prev in _NOT_AN_OBJECT:
        return None
    return e.expansions[2]


def _adverb(word: str) -> bool:
    """An adverb in -ly whose stem is an English word ("clearly", "really"; "belly", "family" are nouns)."""
    return word.endswith("ly") and len(word) > 4 and word[:-2] in english_vocabulary()


def _dropped_g(word: str) -> str | None:
    """"comin" -> "coming", "scannin'" -> "scanning": a word ending in "in" (or "in'") whose -ing form or base is an
    English word of the lexicon ("come", "scan"), itself no English word, drug or `keep` entry; None otherwise."""
    m = _DROPPED_G.match(word)
    if m is None:
        return None
    base, apostrophe = m.groups()
    bare = word.rstrip("'")
    english = english_vocabulary()
    if apostrophe:
        return bare + "g"
    if bare in english or _is_drug(bare):
        return None
    # the -ing form is English; or its base is a common verb ("ask"), a verb less its "e" ("tak": take) or with its
    # last letter doubled ("scann": scan); a bare base the lexicon knows is not enough ("septin" is no "sept" + ing)
    undoubled = base[:-1] if len(base) > 2 and base[-1] == base[-2] else ""
    ok = bare + "g" in english or base in _VERB_FORMS or base + "e" in english or undoubled in english
    return bare + "g" if ok else None


@functools.lru_cache(maxsize=1)
def _voices() -> dict[str, GlossaryEntry]:
    return {e.term: e for e in load_voices().entries}


@functools.lru_cache(maxsize=1)
def english_vocabulary() -> frozenset[str]:
    """English words (`shorthand.english_words` of the lexicon, and the common verb forms) less the voices file's
    own spellings."""
    from archehr.answerability.shorthand import english_words

    lexicon: Glossary = load_lexicon()
    return (english_words(lexicon) | _VERB_FORMS) - {t for t, e in _voices().items() if e.kind != "keep"}


@functools.lru_cache(maxsize=4096)
def _is_drug(word: str) -> bool:
    from archehr.glossary.drugs import generic_of

    return generic_of(word) is not None


__all__ = ["english_vocabulary", "plain_words"]
