"""A med_change answer's first line must decide something on the asked medicine (`med_decisions`)."""

import numpy as np

from archehr.answerability.med_decisions import (
    decides,
    dose_taken,
    log_places,
    med_rank,
    undecided,
)


def test_a_dose_taken_is_no_decision():
    assert dose_taken("08:10 Took bisoprolol 5 mg and ramipril this morning as usual.")
    assert dose_taken("Metoclopramide 10 mg IV given at 21:40 with relief.")
    assert not decides("08:10 Took bisoprolol 5 mg and ramipril this morning as usual.")
    assert decides("Bisoprolol 5 mg once a day to continue.")
    assert not dose_taken("Had his usual insulin, then continue at 10 units from tomorrow.")
    assert not dose_taken("No more steroid needed; the single dose of dexamethasone given in ED is enough.")


def test_log_places_order_entries():
    texts = ["Header line", "01/02/2026 09:00  Call.", "Start 2 mg.", "03/02/2026 10:00  Call.",
             "05/02/2026 11:00  Call.", "Back to 3 mg."]
    assert list(log_places(texts)) == [0.0, 0.0, 0.0, 0.5, 1.0, 1.0]
    assert not log_places(["09:00 one", "10:00 two"]).any()  # two stamps: no log


def test_med_rank_lifts_the_latest_entry_and_cuts_a_dose_taken():
    texts = ["01/02/2026 09:00  Call.", "Start 2 mg.", "03/02/2026 10:00  Call.", "05/02/2026 11:00  Call.",
             "Back to 3 mg.", "Took 2 mg as usual."]
    topic = np.ones(6)
    out = med_rank(texts, topic, np.ones(6), current=True)
    assert out[4] > out[1]
    assert np.isclose(out[5], 0.6 + 0.2)
    assert np.allclose(med_rank(texts, topic, np.ones(6), current=False)[:5], 1.0)


def test_undecided_lines():
    texts = ["Plan:", "Continue amlodipine 5 mg daily.", "Takes loratadine 10 mg daily.",
             "Takes aspirin 75 mg daily - continue.", "Took loratadine at 07:00 as usual.", "Loratadine 10 mg daily"]
    roles = ["title", "clinician", "history", "history", "clinician", "clinician"]
    assert not undecided(texts, roles, 1)
    assert undecided(texts, roles, 2)  # the story, no action
    assert not undecided(texts, roles, 3)  # the story with its decision
    assert undecided(texts, roles, 4)  # a dose taken
    assert not undecided(texts, roles, 5)  # a list row: left to the confidence
