"""The ensemble's choices, on hand-made runs: votes, ties, the threshold fallback, fallback counting, 2025
answers (voted citations, dropped and re-cited lines, the word limit), mismatched members."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from archehr.ensemble.combine import Settings, Voter, compose_answer, ensemble_predictions, voters
from archehr.ensemble.members import Member, fallback_system, load_members
from archehr.ensemble.vote import mbr_choice, weighted_vote
from archehr.errors import InputError
from archehr_scoring.answer_format import parse_answer


def test_vote_takes_items_over_the_threshold():
    got = weighted_vote([(1.0, ["a", "b"]), (1.0, ["a"]), (1.0, ["c"])], 0.5)
    assert got.chosen == ("a",) and not got.fell_back
    assert got.support == pytest.approx({"a": 2 / 3, "b": 1 / 3, "c": 1 / 3})


def test_weights_count():
    got = weighted_vote([(3.0, ["a"]), (1.0, ["b"]), (1.0, ["b"])], 0.5)
    assert got.chosen == ("a",) and got.support == pytest.approx({"a": 0.6, "b": 0.4})


def test_support_exactly_at_the_threshold_is_kept_as_in_the_in_run_vote():
    from archehr.llm.vote import elected

    ballots = [(1.0, ["a"]), (1.0, ["a"]), (1.0, ["b"]), (1.0, ["b", "c"])]
    got = weighted_vote(ballots, 0.5)
    assert got.chosen == ("a", "b") and not got.fell_back  # 2 of 4 each: a tie is kept; c (1 of 4) is not
    assert list(got.chosen) == elected([b for _, b in ballots], 0.5, [w for w, _ in ballots])  # one rule


def test_when_nothing_reaches_the_threshold_the_top_is_taken_with_its_ties():
    got = weighted_vote([(1.0, ["a"]), (1.0, ["a", "b"]), (1.0, ["b"]), (1.0, ["c"])], 0.75)
    assert got.fell_back and got.chosen == ("a", "b")  # both at 0.5 = the top; c (0.25) is not


def test_a_ballot_counts_an_item_once_and_empty_ballots_choose_nothing():
    assert weighted_vote([(1.0, ["a", "a"]), (1.0, [])], 0.4).support == {"a": 0.5}
    assert weighted_vote([(1.0, []), (1.0, [])], 0.5).chosen == ()


def test_mbr_picks_the_text_most_like_the_others_and_ties_go_to_the_earlier():
    assert mbr_choice(["dogs bark", "the cat sat", "the cat sat"], [1, 1, 1]).index == 1
    # "the cat sat" and "the cat sat down" agree equally (ROUGE-L F1 6/7 each way, 0 with the third)
    assert mbr_choice(["the cat sat", "the cat sat down", "dogs bark"], [1, 1, 1]).index == 0
    assert mbr_choice(["x y", "the cat sat", "the cat sat down"], [5, 1, 1]).index == 1


def _member(k: int, preds: dict, task: str = "st2", fallbacks: dict | None = None) -> Member:
    return Member(f"run{k}", f"sys{k}", f"c{k}", f"h{k}", task, "test", None, {c: "x" for c in preds},
                  tuple(preds), preds, fallbacks or {})


def test_members_that_fell_back_to_the_same_system_vote_once():
    why = "lexical evidence: backend error: HTTP 503"
    ms = [_member(0, {"1": ["1"]}), _member(1, {"1": ["1"]}), _member(2, {"1": ["2"]}, fallbacks={"1": why}),
          _member(3, {"1": ["2"]}, fallbacks={"1": why + " again"})]
    vs = voters(ms, Settings(), "1", "ids")
    assert [(v.label, v.members) for v in vs] == [("sys0@run0", (0,)), ("sys1@run1", (1,)),
                                                  ("fallback:lexical evidence", (2, 3))]
    preds, records = ensemble_predictions(ms, Settings())
    assert preds == {"1": ["1"]}  # 2 of 3 voters; counted as four members it would be a 2-2 tie
    assert records["1"]["support"] == {"1": 0.6667, "2": 0.3333}  # rounded to 4 places in run.json


def test_which_fallback_a_reason_names_depends_on_the_prediction():
    why = "lexical evidence: unreadable reply; extractive: backend error"
    assert fallback_system(why, "ids") == "lexical evidence"
    assert fallback_system(why, "answer") == "extractive"
    assert fallback_system(why, "links") is None  # the aligner did not fall back: the model's own links
    assert fallback_system("learned aligner: HTTP 500", "links") == "learned aligner"


def test_zero_weight_members_do_not_vote():
    ms = [_member(0, {"1": ["1"]}), _member(1, {"1": ["2"]})]
    assert ensemble_predictions(ms, Settings(0.5, (0.0, 1.0)))[0] == {"1": ["2"]}


def _voters(*answers: str) -> list[Voter]:
    return [Voter(f"v{k}", 1.0, (k,), a) for k, a in enumerate(answers)]


def test_2025_answer_keeps_the_voted_citations_of_the_mbr_text():
    answer, rec = compose_answer(_voters("A b c. |1,2|\nD e f. |3|", "A b c. |1|\nD e f. |3|",
                                         "A b c. |1,4|\nG h i. |5|"), 0.5)
    assert answer == "A b c. |1|\nD e f. |3|"
    assert rec["text_from"] == "v0" and rec["dropped_lines"] == [] and rec["recited"] == {}


def test_2025_line_whose_citations_were_all_rejected_is_dropped():
    answer, rec = compose_answer(_voters("A b c. |1|\nX y z. |7|", "A b c. |1|\nX y z. |8|",
                                         "A b c. |1|\nX y z. |9|"), 0.5)
    assert answer == "A b c. |1|" and rec["dropped_lines"] == [2]


def test_2025_voted_id_no_line_cites_goes_to_the_line_most_like_the_lines_citing_it():
    answer, rec = compose_answer(_voters("A b c. |1|\nD e f.", "A b c. |1|\nD e f. |3|", "A b c. |1|\nD e f. |3|"),
                                 0.5)
    assert answer == "A b c. |1|\nD e f. |3|" and rec["recited"] == {"3": 2}


def test_2025_answer_keeps_the_word_limit_and_the_citations_of_lines_past_it():
    line = " ".join(["word"] * 29) + " end."  # 30 words
    a = f"{line} |1|\n{line} |2|\n{line} |3|"
    answer, rec = compose_answer(_voters(a, a, a), 0.5)
    parsed = parse_answer("1", answer)
    assert parsed.n_words == 60 and len(parsed.lines) == 2
    assert parsed.citations == {"1", "2", "3"} and rec["over_word_limit_lines"] == 1


def _run(folder: Path, task: str, preds: dict, hashes: dict | None = None, **extra) -> Path:
    folder.mkdir(parents=True)
    field = "answer" if task == "2025" else "prediction"
    (folder / "submission.json").write_text(json.dumps([{"case_id": c, field: p} for c, p in preds.items()]))
    record = {"status": "complete", "task": task, "system": {"name": folder.name, "config_sha256": "abc"},
              "input_sha256": hashes or {c: "h" + c for c in preds}, "schema_version": 9, **extra}
    (folder / "run.json").write_text(json.dumps(record))
    return folder


def test_members_of_another_task_or_input_are_one_clear_error(tmp_path):
    a = _run(tmp_path / "a", "st2", {"1": ["1"]})
    b = _run(tmp_path / "b", "st4", {"1": []})
    c = _run(tmp_path / "c", "st2", {"1": ["1"]}, hashes={"1": "other"})
    with pytest.raises(InputError) as e:
        load_members([a, b, c])
    got = [(Path(p.file).parent.name, p.field) for p in e.value.problems]
    assert got == [("b", "task"), ("c", "input_sha256")]


def test_an_incomplete_run_is_refused(tmp_path):
    a = _run(tmp_path / "a", "st2", {"1": ["1"]}, status="running")
    with pytest.raises(InputError) as e:
        load_members([a])
    assert e.value.problems[0].field == "status"


def test_links_are_voted_per_answer_and_note_sentence_pair():
    ms = [_member(k, {"1": links}, "st4") for k, links in enumerate([
        [{"answer_id": "1", "evidence_id": ["2", "3"]}, {"answer_id": "2", "evidence_id": []}],
        [{"answer_id": "1", "evidence_id": ["2"]}, {"answer_id": "2", "evidence_id": ["5"]}],
        [{"answer_id": "1", "evidence_id": ["3", "2"]}, {"answer_id": "2", "evidence_id": ["6"]}]])]
    preds, _ = ensemble_predictions(ms, Settings())
    assert preds["1"] == [{"answer_id": "1", "evidence_id": ["2", "3"]}, {"answer_id": "2", "evidence_id": []}]
