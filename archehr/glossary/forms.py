"""A drug class in patients' words said with any word for a medicine's form: "thyroid tablet", "thyroid meds",
"water tabs" are the class layer's "thyroid pill" and "water pill"; a test in patients' words said with any word
for a test: "sugar blood test", "thyroid bloods", "liver numbers" are the lay layer's "sugar test", "thyroid
test", "liver tests".

The class layer (`everyday.tsv`, kind `class`) writes a class with one or two such words ("thyroid pill",
"seizure medicine"); patients write whichever they use at home. `with_form_aliases` adds, for each class term
ending in a form word (`FORMS`), the same head with every other form word, unless the lexicon already has that
term (its own entry wins). `with_test_aliases` does the same for the lay terms ending in a word for a test
(`TEST_WORDS`), each alias with the union of the expansions its head has with any test word ("kidney numbers" and
"kidney bloods" list other lab names). A vaccine in patients' words is said with any word for a vaccine: "hep b
jab", "hepatitis b shot", "hep b booster" are one vaccine (`with_vaccine_aliases`: each lay term "<what> <vaccine
word>" of a vaccine, one whose terms or expansions say vaccine, reads every other word for it, and its expansions
every such word after each name of what it protects against, so "hep b jab" finds a note's "Hep B booster").
Rules, not word lists: they change the lexicon's version (`LEXICON_RULES`).
"""

from __future__ import annotations

from archehr.glossary import Glossary, GlossaryEntry

# the words for a medicine taken by mouth, as patients write them
FORMS = ("pill", "pills", "tablet", "tablets", "tab", "tabs", "med", "meds", "medicine", "medicines", "medication",
         "medications", "capsule", "capsules")

# the words for a test or its result, as patients write them after what is tested ("kidney bloods", "tsh levels")
TEST_WORDS = ("test", "tests", "blood test", "blood tests", "bloods", "blood work", "level", "levels", "number",
              "numbers", "labs", "results", "readings")

# words before a test word that say whose or which test, not what is tested ("his bloods", "the blood test")
_NO_HEAD = frozenset("""my his her their your our the a an this that these those mums moms dads mum's mom's dad's
blood bloods next last new latest first recent""".split())


def with_form_aliases(g: Glossary) -> Glossary:
    """`g` with each class term "<head> <form>" also written with the other form words (see the module doc)."""
    have = {e.term for e in g.entries}
    extra: list[GlossaryEntry] = []
    for e in g.entries:
        head, _, form = e.term.rpartition(" ")
        if e.kind != "class" or not head or form not in FORMS:
            continue
        for other in FORMS:
            term = f"{head} {other}"
            if term not in have:
                have.add(term)
                extra.append(GlossaryEntry(term, e.kind, e.expansions, e.line))
    return Glossary([*g.entries, *extra], g.source, g.version)


def with_test_aliases(g: Glossary) -> Glossary:
    """`g` with each lay term "<what> <test word>" also written with the other test words (see the module doc)."""
    heads: dict[str, list[GlossaryEntry]] = {}
    for e in g.entries:
        if e.kind != "lay":
            continue
        for word in TEST_WORDS:
            head = e.term[:-len(word)].rstrip()
            if e.term.endswith(" " + word) and head and not set(head.split()) <= _NO_HEAD:
                heads.setdefault(head, []).append(e)
    have = {e.term for e in g.entries}
    extra = []
    for head, entries in heads.items():
        expansions = tuple(dict.fromkeys(x for e in entries for x in e.expansions))
        for word in TEST_WORDS:
            term = f"{head} {word}"
            if term not in have:
                have.add(term)
                extra.append(GlossaryEntry(term, "lay", expansions, entries[0].line))
    return Glossary([*g.entries, *extra], g.source, g.version)


# the words for a vaccine or one dose of it, after what it protects against ("flu jab", "hep b booster")
VACCINE_WORDS = ("vaccine", "vaccines", "vaccination", "vaccinations", "immunisation", "immunization", "shot", "shots",
                 "jab", "jabs", "booster", "boosters")


def _vaccine_head(text: str) -> str | None:
    """"hep b" of "hep b jab": what a vaccine word after it protects against; None when no vaccine word ends it."""
    for word in VACCINE_WORDS:
        head = text[:-len(word)].rstrip()
        if text.endswith(" " + word) and head and not set(head.split()) <= _NO_HEAD \
                and head.split()[-1] not in VACCINE_WORDS:  # "booster shot" is a dose, of no named vaccine
            return head
    return None


def _says_vaccine(text: str) -> bool:
    return "vaccin" in text or "immuni" in text


def with_vaccine_aliases(g: Glossary) -> Glossary:
    """`g` with each vaccine's lay terms "<what> <vaccine word>" read with every vaccine word (see the module doc): a
    term of its group missing is added, and each term's expansions gain every vaccine word after every name the
    group gives what the vaccine protects against."""
    groups: dict[str, list[GlossaryEntry]] = {}
    for e in g.entries:
        head = _vaccine_head(e.term) if e.kind == "lay" else None
        if head is not None:
            groups.setdefault(head, []).append(e)
    # a head is a vaccine's when its terms or their expansions say vaccine ("insulin shot", "hormone jab" do not)
    heads = {h: es for h, es in groups.items()
             if any(_says_vaccine(e.term) or any(_says_vaccine(x) for x in e.expansions) for e in es)}
    added: dict[str, tuple[str, ...]] = {}
    for head, entries in heads.items():
        names = {head} | {n for e in entries for x in e.expansions if _says_vaccine(x)
                          for n in [_vaccine_head(x)] if n is not None}
        expansions = tuple(dict.fromkeys([*(x for e in entries for x in e.expansions),
                                          *(f"{n} {w}" for n in sorted(names) for w in VACCINE_WORDS)]))
        for w in VACCINE_WORDS:
            added[f"{head} {w}"] = expansions
    have = {e.term for e in g.entries}
    out = [GlossaryEntry(e.term, e.kind, added[e.term], e.line) if e.term in added and e.kind == "lay" else e
           for e in g.entries]
    line = {e.term: e.line for e in g.entries}
    # a missing "<what> <vaccine word>" is added only when "<what>" is no term of its own: where it is, a question
    # reads it and the vaccine word as two concepts, so a note's later "Next booster in 10 years." still names the
    # vaccine word of "when is the next tetanus booster" (one added term would leave that line naming none of it)
    out += [GlossaryEntry(t, "lay", x, line.get(t, 0)) for t, x in added.items()
            if t not in have and _vaccine_head(t) not in have]
    return Glossary(out, g.source, g.version)


__all__ = ["FORMS", "TEST_WORDS", "VACCINE_WORDS", "with_form_aliases", "with_test_aliases", "with_vaccine_aliases"]
