"""A drug class in patients' words said with any word for a medicine's form: "thyroid tablet", "thyroid meds",
"water tabs" are the class layer's "thyroid pill" and "water pill".

The class layer (`everyday.tsv`, kind `class`) writes a class with one or two such words ("thyroid pill",
"seizure medicine"); patients write whichever they use at home. `with_form_aliases` adds, for each class term
ending in a form word (`FORMS`), the same head with every other form word, unless the lexicon already has that
term (its own entry wins). A rule, not a word list: it changes the lexicon's version (`LEXICON_RULES`).
"""

from __future__ import annotations

from archehr.glossary import Glossary, GlossaryEntry

# the words for a medicine taken by mouth, as patients write them
FORMS = ("pill", "pills", "tablet", "tablets", "tab", "tabs", "med", "meds", "medicine", "medicines", "medication",
         "medications", "capsule", "capsules")


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


__all__ = ["FORMS", "with_form_aliases"]
