"""A drug class in patients' words said with any word for a medicine's form: "thyroid tablet", "thyroid meds",
"water tabs" are the class layer's "thyroid pill" and "water pill"; a test in patients' words said with any word
for a test: "sugar blood test", "thyroid bloods", "liver numbers" are the lay layer's "sugar test", "thyroid
test", "liver tests".

The class layer (`everyday.tsv`, kind `class`) writes a class with one or two such words ("thyroid pill",
"seizure medicine"); patients write whichever they use at home. `with_form_aliases` adds, for each class term
ending in a form word (`FORMS`), the same head with every other form word, unless the lexicon already has that
term (its own entry wins). `with_test_aliases` does the same for the lay terms ending in a word for a test
(`TEST_WORDS`), each alias with the union of the expansions its head has with any test word ("kidney numbers" and
"kidney bloods" list other lab names). Rules, not word lists: they change the lexicon's version (`LEXICON_RULES`).
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


__all__ = ["FORMS", "TEST_WORDS", "with_form_aliases", "with_test_aliases"]
