"""What `archehr answer` cites with the sentences chosen by rank: the units that go with them.

The ranking (`follow_on.CitePolicy`) chooses the sentences that answer by their own words; a note often tells the
answer over more than one unit, and the others name few of the question's words. Each rule here reads the chosen
sentences, the note and the question's kind, and brings such a unit, in this order (each sees what the ones before
brought):

- a medication entry's line saying how to take it or what becomes of it, for a why question its reason, and for a
  why or a medicine-change question the order's labelled note under it, "Reason: ..." (`follow_on.follow_on`);
- a result question's flagged table rows the first line comments on (`row_comment.rows_commented`), and the lines
  of prose naming the test of a first line that is a table row (`row_prose.prose_on_row`);
- the list rows of a medicine the question and the first line name, telling the same change
  (`same_medicine.list_rows`);
- a result question's report going on in the line after the first (`result_follow.report_goes_on`);
- both sides of a medicine switch the question names (`switch_rows.switch_partners`);
- the other part of a cited sentence the layout broke off mid-phrase, and the line refusing a stopped medicine's
  return (`goes_on.broken_off`, `goes_on.not_restarted`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def goes_with(chosen: Sequence[int], sentences: Sequence[Any], kind: str, question: str) -> list[int]:
    """The indices of `sentences` to cite after `chosen` (indices, best first), for a question of `kind` (the answer
    types' kind, "" when ranking by the selector alone), in the order the rules bring them."""
    from archehr.answerability.follow_on import follow_on_kind
    from archehr.answerability.goes_on import broken_off, not_restarted
    from archehr.answerability.result_follow import report_goes_on
    from archehr.answerability.row_comment import rows_commented
    from archehr.answerability.row_prose import prose_on_row
    from archehr.answerability.same_medicine import list_rows
    from archehr.answerability.switch_rows import switch_partners

    got = list(chosen)
    got += follow_on_kind(got, sentences, kind)
    got += rows_commented(got, sentences, kind)
    got += prose_on_row(got, sentences, kind)
    got += list_rows(got, sentences, question, kind)
    got += report_goes_on(got, sentences, kind)
    got += switch_partners(got, sentences, question, kind)
    got += broken_off(got, sentences)
    got += not_restarted(got, sentences)
    return got[len(chosen):]
