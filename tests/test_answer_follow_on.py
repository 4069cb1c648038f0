"""Which sentences `archehr answer` cites after the first (`archehr.answerability.follow_on`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from conftest import Line

import archehr
from archehr.answerability.follow_on import (
    cited_after_first,
    close_to_first,
    entry_line,
    follow_on,
    goes_on_from,
    kept_together,
    order_noted,
    restarts,
)

# rank and answer-type scores of four sentences; by rank: 2 (1.0), 0 (0.6), 1 (0.3), 3 (0.2)
RANK = np.array([0.6, 0.3, 1.0, 0.2])
TYPED = np.array([0.5, 0.1, 0.8, 0.5])
ORDER = [2, 0, 1, 3]


def test_later_sentences_need_the_rank_share_and_the_answer_type_share():
    # 0: rank 0.6 >= 0.25 x 1.0, type 0.5 >= 0.4 x 0.8 = 0.32 -> cited; 1: type 0.1 < 0.32 -> left out;
    # 3: rank 0.2 < 0.25 -> the end (the order runs best first)
    assert cited_after_first(ORDER, RANK, TYPED, most=8, share=0.25, typed_share=0.4) == [2, 0]


def test_without_answer_types_the_rank_share_alone_decides():
    assert cited_after_first(ORDER, RANK, None, most=8, share=0.25, typed_share=0.4) == [2, 0, 1]
    # the first scoring 0 on the answer type: no share of it to reach, the type test is left out
    assert cited_after_first(ORDER, RANK, np.array([0.5, 0.1, 0.0, 0.5]), most=8, share=0.25,
                             typed_share=0.4) == [2, 0, 1]


def test_at_most_most_and_nothing_from_an_empty_order():
    assert cited_after_first(ORDER, RANK, None, most=2, share=0.0, typed_share=0.4) == [2, 0]
    assert cited_after_first(ORDER, RANK, None, most=1, share=0.0, typed_share=0.4) == [2]
    assert cited_after_first([], RANK, TYPED, most=8, share=0.25, typed_share=0.4) == []
    # share 0: every sentence of the order reaches it; the type share still leaves sentence 1 out
    assert cited_after_first(ORDER, RANK, TYPED, most=8, share=0.0, typed_share=0.4) == [2, 0, 3]


# five sentences by rank: 0 (1.0), 3 (0.7), 1 (0.55), 4 (0.45), 2 (0.3)
CLOSE_RANK = np.array([1.0, 0.55, 0.3, 0.7, 0.45])
CLOSE_ORDER = [0, 3, 1, 4, 2]


def test_close_to_the_first_whatever_the_answer_type():
    # the first holds the asked kind well (0.9 >= 0.5): half of its rank, 0.5, is the floor: 3 (0.7) and 1 (0.55)
    # reach it, 4 (0.45) does not and ends the search; 3 is cited already, so 1 alone is added
    strong = np.array([0.9, 0.0, 0.0, 0.8, 0.0])
    assert close_to_first(CLOSE_ORDER, CLOSE_RANK, strong, [0, 3], most=3, share=0.5, weak=0.5,
                          weak_share=0.4) == [1]
    # its answer-type score under 0.5: the floor is 0.4 of its rank, so 4 (0.45) comes in too; 2 (0.3) does not
    weak = np.array([0.3, 0.0, 0.0, 0.8, 0.0])
    assert close_to_first(CLOSE_ORDER, CLOSE_RANK, weak, [0, 3], most=3, share=0.5, weak=0.5,
                          weak_share=0.4) == [1, 4]


def test_close_to_the_first_at_most_most_and_without_answer_types():
    weak = np.array([0.3, 0.0, 0.0, 0.8, 0.0])
    assert close_to_first(CLOSE_ORDER, CLOSE_RANK, weak, [0], most=2, share=0.5, weak=0.5, weak_share=0.4) == [3, 1]
    # no answer types (ranking by the selector alone): the plain share decides
    assert close_to_first(CLOSE_ORDER, CLOSE_RANK, None, [0], most=3, share=0.5, weak=0.5, weak_share=0.4) == [3, 1]
    assert close_to_first([], CLOSE_RANK, weak, [], most=3, share=0.5, weak=0.5, weak_share=0.4) == []


def test_a_line_saying_what_becomes_of_a_medication_goes_on_from_its_entry():
    assert goes_on_from("acetaminophen-codeine 300-30 mg tablet", "You no longer need this medicine.")
    assert goes_on_from("cephalexin 500 mg capsule Take 1 capsule by mouth 4 times a day for 7 days.",
                        "Finish all of it even if you feel better.")
    assert goes_on_from("Aspirin 75 mg daily", "Status: STOPPED")


def test_what_does_not_go_on_from_an_entry():
    assert not goes_on_from("Your aspirin was stopped.", "You no longer need this medicine.")  # no dose: no entry
    assert not goes_on_from("Aspirin 75 mg daily", "Then take 50 mg daily until stopped.")  # a dose of its own
    assert not goes_on_from("Aspirin 75 mg daily", "Take with food.")  # says nothing of what becomes of it
    long_entry = "Aspirin 75 mg daily " + "word " * 22  # 26 words: more than an entry
    assert not goes_on_from(long_entry, "Status: STOPPED")
    long_line = "Finish all of it " + "word " * 10  # 14 words: still a status line
    assert goes_on_from("Aspirin 75 mg daily", long_line)
    assert not goes_on_from("Aspirin 75 mg daily", long_line + "word")  # 15: too long


SENTENCES = [Line("Medicines:", 0), Line("cephalexin 500 mg capsule", 1), Line("Finish all of it.", 1),
             Line("codeine 30 mg tablet", 1), Line("You no longer need this medicine.", 2),
             Line("aspirin 81 mg", 3), Line("Stopped medicines:", 3)]


def test_follow_on_adds_the_next_line_of_the_same_paragraph_only():
    assert follow_on([1], SENTENCES) == [2]
    assert follow_on([1, 2], SENTENCES) == []  # already cited
    assert follow_on([3], SENTENCES) == []  # the status line is in the next paragraph
    assert follow_on([6], SENTENCES) == []  # the last sentence, a header: nothing follows, no entry before it
    assert follow_on([5], SENTENCES) == []  # a header never follows
    assert follow_on([3, 1], SENTENCES) == [2]


def test_follow_on_adds_the_entry_a_cited_line_goes_on_from():
    assert follow_on([2], SENTENCES) == [1]  # "Finish all of it." cited: its entry before it too
    assert follow_on([4], SENTENCES) == []  # the entry is in the paragraph before
    assert follow_on([1, 2], SENTENCES) == []


def test_a_line_telling_how_to_take_the_medicine_goes_with_its_entry():
    entry = "START Biktarvy (bictegravir/emtricitabine/tenofovir alafenamide) 50/200/25 mg tablet"
    how = "Take 1 tablet by mouth once a day for 28 days, at about the same time each day"
    assert entry_line(entry, how)
    assert entry_line("START aspirin 81 mg tablet", "Keep taking this lifelong.")  # what becomes of it
    assert not entry_line("Your aspirin was changed.", how)  # no dose: no entry
    assert not entry_line(entry, "Take with food.")  # no amount to take: no instruction of its own
    # an entry that already says how to take it is followed by no second instruction
    assert not entry_line("aspirin 81 mg Take 1 tablet daily", "Take 2 tablets at night")
    sentences = [Line(entry, 1), Line(how, 1), Line("Take 1 tablet of folic acid 5 mg weekly", 1)]
    assert follow_on([1], sentences) == [0]
    assert follow_on([0], sentences) == [1]


NOTE = """Discharge medications:
acetaminophen-codeine 300-30 mg tablet
You no longer need this medicine.
ibuprofen 400 mg tablet
Take 1 tablet by mouth every 8 hours with food as needed for pain.
"""


def test_answer_cites_an_entry_and_the_line_saying_it_is_no_longer_needed():
    r = archehr.answer(NOTE, "Do I keep taking the codeine pills?")
    texts = [s.text for s in r.cited]
    assert not r.abstained
    assert "acetaminophen-codeine 300-30 mg tablet" in texts
    assert "You no longer need this medicine." in texts


def test_no_close_ones_after_a_first_holding_the_asked_kind_firmly():
    # the first's answer-type score 0.9 reaches `strong` 0.5: none is added, though 1 (0.55) ranks over half of it
    strong = np.array([0.9, 0.0, 0.0, 0.8, 0.0])
    assert close_to_first(CLOSE_ORDER, CLOSE_RANK, strong, [0, 3], most=3, share=0.5, weak=0.5, weak_share=0.4,
                          strong=0.5) == []
    # 0.3 is under it: the weak floor (0.4 of the rank) applies as before
    weak = np.array([0.3, 0.0, 0.0, 0.8, 0.0])
    assert close_to_first(CLOSE_ORDER, CLOSE_RANK, weak, [0, 3], most=3, share=0.5, weak=0.5, weak_share=0.4,
                          strong=0.5) == [1, 4]
    # without answer types the strong test is left out
    assert close_to_first(CLOSE_ORDER, CLOSE_RANK, None, [0], most=3, share=0.5, weak=0.5, weak_share=0.4,
                          strong=0.5) == [3, 1]


def test_close_ones_name_the_question_topic():
    weak = np.array([0.3, 0.0, 0.0, 0.8, 0.0])
    # sentence 1 names none of the question's topic: skipped, and 4 (0.45, above the 0.4 floor) still comes in
    named = np.array([1.0, 0.0, 0.5, 0.5, 0.2])
    assert close_to_first(CLOSE_ORDER, CLOSE_RANK, weak, [0], most=3, share=0.5, weak=0.5, weak_share=0.4,
                          named=named) == [3, 4]


@dataclass
class _Line:  # what `follow_on` reads of a sentence
    paragraph_id: int
    text: str


@dataclass
class _Split:
    sentences: list[_Line]


def _lines(n: int) -> _Split:
    return _Split([_Line(k, f"Invented line number {k} of a note.") for k in range(n)])


def test_after_a_weak_first_later_lines_must_rank_the_cite_share_of_it():
    from archehr.ask import CITES, _cited

    CITE_SHARE = CITES.share

    # the first (0) holds the asked kind weakly (answer type 0.3); 1 and 2 hold it as well, 1 just above the share of
    # the first's rank, 2 just under it: only 1 follows (no close one: 2 is under the close floor too)
    rank = np.array([1.0, CITE_SHARE + 0.02, CITE_SHARE - 0.02])
    typed = np.array([0.3, 0.3, 0.3])
    assert _cited([0, 1, 2], rank, typed, _lines(3), np.ones(3)) == [0, 1]


def test_after_a_firm_first_later_lines_must_rank_the_strong_share_of_it():
    from archehr.ask import CITES, _cited

    CITE_SHARE, CITE_SHARE_STRONG = CITES.share, CITES.strong_share

    # the first holds the asked kind firmly (0.8): a line at the weak share no longer follows, one over the strong
    # share does
    assert CITE_SHARE_STRONG > CITE_SHARE
    rank = np.array([1.0, CITE_SHARE_STRONG + 0.02, CITE_SHARE_STRONG - 0.05, CITE_SHARE + 0.02])
    typed = np.array([0.8, 0.8, 0.8, 0.8])
    assert _cited([0, 1, 2, 3], rank, typed, _lines(4), np.ones(4)) == [0, 1]


def test_the_policy_with_the_shipped_shares_is_the_shipped_policy():
    from archehr.answerability.follow_on import CitePolicy

    assert CitePolicy().with_shares() == CitePolicy()
    assert CitePolicy().with_shares(0.4, 0.65) == CitePolicy()


def test_other_shares_raise_the_close_floors_with_them():
    from archehr.answerability.follow_on import CitePolicy

    # a weak share above the close ones' floors lifts them to it; a lower one leaves them
    high = CitePolicy().with_shares(0.6, 0.8)
    assert (high.share, high.strong_share, high.close_share, high.close_weak_share) == (0.6, 0.8, 0.6, 0.6)
    low = CitePolicy().with_shares(0.2)
    assert (low.share, low.strong_share, low.close_share, low.close_weak_share) == (0.2, 0.65, 0.5, 0.4)


def test_choose_cites_close_ones_only_after_a_weak_first():
    from archehr.answerability.follow_on import CitePolicy

    # 1 holds the asked kind as well as the first and ranks above the share; 2 ranks close but holds none of it
    rank = np.array([1.0, 0.45, 0.6])
    named = np.ones(3)
    weak = np.array([0.3, 0.3, 0.0])
    firm = np.array([0.8, 0.8, 0.0])
    assert CitePolicy().choose([0, 2, 1], rank, weak, named) == [0, 1, 2]
    assert CitePolicy().choose([0, 2, 1], rank, firm, named) == [0]
    assert CitePolicy().choose([], rank, weak, named) == []


def test_a_held_medicine_and_the_line_saying_when_to_restart_it_go_together():
    held = "HOLD Rivaroxaban 20 mg once daily - last dose the evening before the biopsy."
    restart = "RESTART the morning after the biopsy if there is no bleeding from the site."
    assert restarts(held, restart)
    assert follow_on([0], [Line(held, 0), Line(restart, 0)]) == [1]
    assert follow_on([1], [Line(held, 0), Line(restart, 0)]) == []  # the restart line cited alone brings no entry
    # a medicine carried on is not taken up again: the restart line there is about another one
    assert not restarts("Continue vitamin D 800 units daily.", "Restart doses to be agreed at clinic.")
    # a restart line naming its own dose is an entry of its own
    assert not restarts(held, "Restart 10 mg once daily from Friday.")
    # a restart line naming another medicine is about that one
    assert not restarts(held, "Restart aspirin tomorrow (held before the biopsy).")
    assert restarts(held, "Resume when eating and drinking normally.")


def test_a_why_question_cites_the_reason_going_on_from_a_medicine_entry():
    entry = "STOP: Omeprazole 40 mg every morning."
    reason = "You have taken it for 3 years, and long use can raise the risk of broken bones."
    note = [Line(entry, 0), Line(reason, 0), Line("- START: Famotidine 20 mg at night.", 0)]
    assert follow_on([0], note, why=True) == [1]
    assert follow_on([0], note) == []  # not a why question: the reason is not cited for it alone
    # a list item of its own is no line going on from the entry
    assert follow_on([1], [Line(entry, 0), Line("- Omeprazole can raise the risk of broken bones.", 0)], why=True) == []


def test_a_reason_line_refers_back_to_the_entry_and_brings_no_entry_itself():
    entry = "START: Lansoprazole 15 mg daily while on the higher steroid dose."
    other = "Raised sugar is likely due to the steroids; repeat with the next bloods."
    assert follow_on([0], [Line(entry, 0), Line(other, 0)], why=True) == []  # a comment of its own, no "it"
    reason = "It protects the stomach, because the steroid can harm its lining."
    assert follow_on([0], [Line(entry, 0), Line(reason, 0)], why=True) == [1]
    assert follow_on([1], [Line(entry, 0), Line(reason, 0)], why=True) == []  # the reason cited: its entry not brought


def test_a_line_going_on_from_a_chosen_entry_keeps_that_entrys_rank():
    # the word budget keeps lines by rank: the reason line under a chosen entry ranks as high as the entry, so the two
    # are kept or dropped together; a chosen line going on from nothing keeps its own rank
    lines = [Line("STOP: Lisinopril 10 mg once daily.", 1),
             Line("It can raise your potassium, which is a risk with your kidneys.", 1),
             Line("Walk for 20 minutes each day.", 2)]
    rank = np.array([0.8, 0.1, 0.3])
    assert kept_together([0, 1, 2], lines, rank, "why").tolist() == [0.8, 0.8, 0.3]
    # the reason goes on from the entry only for a why question; an entry not chosen raises nothing
    assert kept_together([0, 1, 2], lines, rank).tolist() == [0.8, 0.1, 0.3]
    assert kept_together([1, 2], lines, rank, "why").tolist() == [0.8, 0.1, 0.3]
    assert rank.tolist() == [0.8, 0.1, 0.3]  # the rank given is left as it was


def test_how_to_take_it_before_its_entry_raises_the_entry():
    # either of an entry and its how-to line brings the other: the higher rank goes to both
    lines = [Line("START Doxycycline 100 mg capsule", 1), Line("Take 1 capsule by mouth twice a day for 7 days", 1)]
    assert kept_together([1, 0], lines, np.array([0.2, 0.9])).tolist() == [0.9, 0.9]


def test_the_note_under_a_medicine_order_goes_with_it_for_a_why_or_a_change_question():
    lines = [Line("STOP      Allopurinol 300 mg once daily", 1), Line("Reason: rash since it was started.", 1),
             Line("START     Febuxostat 80 mg once daily", 1), Line("Note: take it with or without food.", 1)]
    assert order_noted(lines[0].text, lines[1].text) and order_noted(lines[2].text, lines[3].text)
    assert not order_noted("Gout clinic review.", "Reason: flare.")  # no medicine order above it
    assert not order_noted(lines[0].text, "Rash since it was started.")  # no label: not the order's note
    assert follow_on([0], lines, noted=True) == [1] and follow_on([0, 2], lines, noted=True) == [1, 3]
    assert follow_on([0], lines) == []  # other questions: the note is left to the ranking
    assert follow_on([1], lines, noted=True) == []  # the note cited alone brings no order
    assert kept_together([0, 1], lines, np.array([0.9, 0.1, 0.5, 0.2]), "med_change").tolist() == [0.9, 0.9, 0.5, 0.2]
