"""Where a clause ends, as the answerability rules read it.

Several rules cut a sentence into clauses before asking whether the clause naming the asked thing holds the asked
fact. A full stop ends a clause, except a title's: "amoxicillin per Dr. Shah: continue for 5 more days" is one
clause, the medicine and its course said together. The titles are kept here once, so that every rule cutting at a
full stop spares the same ones.
"""

from __future__ import annotations

# titles whose full stop ends no clause (lower case: the patterns using them are case-blind)
TITLES = ("dr", "drs", "mr", "mrs", "ms", "prof")
# a full stop and the space after it that end a clause (a regular expression's part, not compiled)
CLAUSE_STOP = "".join(rf"(?<!\b{title})" for title in TITLES) + r"\.\s+"
