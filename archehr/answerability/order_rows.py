"""The orders in capitals that a medicine list's rows open with, and the mark before them, for the rules reading them.

Discharge letters and clinic letters mark what becomes of each medicine with an order in capitals at the start of
its row: "STOP Ibuprofen 200 mg as needed", "2. CONTINUE Salbutamol 100 micrograms", "• START hydroxycarbamide
300 mg", "HOLD | Metformin 1 g twice daily". Several answer rules read such a row; the order words, grouped by what
they do to the medicine, and the row's mark are written here once, and each rule builds its pattern from the groups
it reads, with its own conditions beside them:

- `row_first.is_row`: a row opening with a list's order (`ORDERS`, and "RESTART") after its mark (`ROW_MARK`);
- `story_first.tells_plan`: a list's order (`ORDERS`) anywhere in the line, a plan rather than a story;
- `same_medicine`: a row marked as changed after its mark (`BEGUN`, `ENDED`, `HELD`, `DOSE_CHANGED`, "CONTINUE"),
  or a change in brackets after the medicine ("(changed)");
- `switch_rows`: a row starting a medicine (`BEGUN`, or "(new)") or stopping one (`ENDED`), after its mark;
- `list_orders.LIST_ORDER`: an order as the answer (`HELD`, `DOSE_CHANGED` and more words), after a mark of its own
  and before the medicine's name;
- `roles`: a line in capitals opening with an order or an imperative is an order, not a title.

Only capitals count: a capitalised "Stop" opens a sentence of prose and a lower-case "stop" is any verb.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# the mark a list row may open with before its order: bullets, a pipe or spaces, then its number ("• ", "| ", "2. ",
# "1) ")
ROW_MARK = r"^\W*(?:\d+[.)]\s*)?"

# the order words in capitals, by what they do to the medicine, in the forms the rules read
BEGUN = ("START", "STARTED", "NEW", "ADDED")  # a medicine begun
ENDED = ("STOP", "STOPPED", "DISCONTINUE", "DISCONTINUED")  # a medicine ended
HELD = ("HOLD", "HELD")  # a medicine paused
DOSE_CHANGED = ("CHANGE", "CHANGED", "INCREASE", "INCREASED", "DECREASE", "DECREASED", "REDUCE", "REDUCED")
# a list's orders, each medicine's: start, stop, go on, hold, a new one, a dose changed ("CHANGES", "INCREASED")
ORDERS = ("START", "STOP", "CONTINUE", "HOLD", "NEW", "CHANGE", "CHANGED", "CHANGES", "INCREASE", "INCREASED",
          "INCREASES", "REDUCE", "REDUCED", "REDUCES")


def order_words(*groups: Iterable[str]) -> str:
    """The words of `groups` as one regex alternative matching any of them as a whole word, case as written."""
    return "(?:" + "|".join(re.escape(w) for w in dict.fromkeys(w for g in groups for w in g)) + r")\b"


def row_opening(*groups: Iterable[str]) -> str:
    """A regex of a line opening with a word of `groups` after a list row's mark (`ROW_MARK`): "2. STOP ..."."""
    return ROW_MARK + order_words(*groups)
