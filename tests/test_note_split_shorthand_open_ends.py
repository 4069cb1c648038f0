"""A clinician's shorthand for a phrase that goes on ("c/o" complains of, "h/o" history of, "s/p" status post) left
at a line's end carries its sentence on into the next line, as "complains of" would, even when that line opens with
a side's capital ("L", "R"). A count written with "~" for "about" carries on a line left open, as a bare count does;
so does a sentence opened by a count at a line's end ("... bd. 14 days" + "TTO supplied."). Invented lines only."""

from __future__ import annotations

from split_texts import texts

from archehr.data.note_layout import OPEN_END


def sentences(note: str) -> list[str]:
    return texts(note, "auto")  # (the default splitter, spaCy where installed)


def test_shorthand_of_a_phrase_leaves_a_line_open() -> None:
    for end in ("Now c/o", "with h/o", "pain s/o", "to r/o", "walking w/o", "fall d/t", "day 3 s/p"):
        assert OPEN_END.search(end), end
    # (a unit with a slash ends nothing open: a dose's "mg/day")
    assert not OPEN_END.search("Enoxaparin 40 mg/day")


def test_complains_of_at_a_line_end_runs_on_into_a_side() -> None:
    # (short lines, as a note not hard-wrapped has them, where the line's end alone does not show a wrap)
    note = "Ward round. Now c/o\nR hip pain on standing. Obs stable.\n"
    assert sentences(note) == ["Ward round.", "Now c/o R hip pain on standing.", "Obs stable."]


def test_history_of_at_a_line_end_runs_on() -> None:
    note = "Falls clinic. Tripped at home. Has h/o\nL knee replacement. Walks with one stick.\n"
    assert sentences(note) == ["Falls clinic.", "Tripped at home.", "Has h/o L knee replacement.",
                               "Walks with one stick."]


def test_a_line_ended_on_a_full_word_still_starts_a_side_anew_when_it_ends_a_sentence() -> None:
    note = "Bloods taken and sent today.\nR arm cannula removed.\n"
    assert sentences(note) == ["Bloods taken and sent today.", "R arm cannula removed."]


def test_an_approximate_count_under_a_line_left_open_carries_it_on() -> None:
    # ("~" and "\u2248" say "about": "~20 min after" is a count of minutes, as "20 min after" is; the line above
    # is shorter than the note's wrap width by more than "~15", so only the count shows the wrap)
    note = ("Brought in by ambulance after a collapse at the bus stop this morning, with no\n"
            "warning beforehand. Her husband saw her go stiff and then shake, drowsy\n"
            "~15 min after. Alert on arrival and back to her usual self by the time of\n"
            "review.\n")
    assert sentences(note) == [
        "Brought in by ambulance after a collapse at the bus stop this morning, with no warning beforehand.",
        "Her husband saw her go stiff and then shake, drowsy ~15 min after.",
        "Alert on arrival and back to her usual self by the time of review."]


def test_a_count_opening_a_sentence_at_a_line_end_carries_it_on() -> None:
    # ("... bd. 10 days" is a sentence begun inside the line and left open: its end is on the next line, however
    # that line opens; a capital abbreviation does not start a unit there)
    note = ("Seen on the ambulatory unit with a hot, swollen left shin for three days and a temperature at\n"
            "home. No fever here and able to walk on it.\n"
            "Plan:\n"
            "1. Co-amoxiclav 625 mg first dose given at 14:10. Continue tds. 5 days\n"
            "TTO supplied with written advice.\n"
            "2. Review in the GP surgery if no better.\n")
    assert sentences(note)[3:] == ["1. Co-amoxiclav 625 mg first dose given at 14:10.", "Continue tds.",
                                   "5 days TTO supplied with written advice.",
                                   "2. Review in the GP surgery if no better."]
