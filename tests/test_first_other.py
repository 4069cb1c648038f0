"""The first line near the asked fact but not of it (`archehr.answerability.first_other`), on invented lines."""

from archehr.answerability.first_other import other_medicine_first, past_dated_only, restart_unsaid, stop_pace_unsaid
from archehr.answerability.test_words import PENDING
from archehr.answerability.undetermined import asked_undetermined

NOTE = ["HOLD Metoprolol 25 mg twice daily - held for low pulse", "HOLD Lisinopril 10 mg daily - held",
        "START Cod liver oil capsules - ONE daily for 3 months", "Continue metoprolol once pulse above 60."]


def test_other_medicine_first_flags_another_medicine_line():
    assert other_medicine_first("why", "why did they stop his lisinopril", NOTE, 0)
    assert other_medicine_first("how_long", "how long does he take the lisinopril", NOTE, 2)  # an order row


def test_other_medicine_first_keeps_the_asked_or_a_replacement():
    assert not other_medicine_first("why", "why did they stop his lisinopril", NOTE, 1)
    assert not other_medicine_first("why", "why did they stop his metoprolol", NOTE, 0)
    assert not other_medicine_first("med_change", "do I keep the lisinopril", ["Switched to losartan 50 mg daily",
                                                                                "Lisinopril cough"], 0)
    assert not other_medicine_first("when", "when does he restart lisinopril", NOTE, 0)  # another kind


def test_misspelt_asked_medicine_read_against_the_note():
    assert other_medicine_first("why", "why the new metoprolo tablet", NOTE, 1)


def test_restart_unsaid():
    assert restart_unsaid("they stopped my warfarin, do I start it again now?", "Your warfarin was stopped 5 days ago.")
    assert not restart_unsaid("they stopped my warfarin, do I start it again now?",
                              "Your warfarin was stopped 5 days ago; restart tomorrow evening.")
    assert not restart_unsaid("why was my warfarin stopped", "Your warfarin was stopped 5 days ago.")


def test_stop_pace_unsaid():
    assert stop_pace_unsaid("do I stop the pregabalin all at once or slowly?", "STOPPED pregabalin - drowsy")
    assert not stop_pace_unsaid("do I stop the pregabalin all at once or slowly?",
                                "Pregabalin: reduce by 75 mg each week then stop")


def test_past_dated_only():
    assert past_dated_only("when is his first physio session", "Referral to physiotherapy sent 04/06/2024.")
    assert past_dated_only("when is the scan", "12/05/2024 09:40 Dressing changed, site clean.")
    assert not past_dated_only("when is his first physio session", "Physiotherapy booked for 18/06/2024 at 10:00.")
    assert not past_dated_only("when did he start the tablets", "Tablets started 02/02/2024.")
    assert not past_dated_only("when is the scan", "12/05/2024 09:40 Scan in 2 weeks.")


def test_undetermined_and_pending_phrases():
    assert asked_undetermined("med_change", "Epoetin dose will be adjusted monthly by the nurse according to Hb.")
    assert asked_undetermined("may_i", "Asked about a long flight; told to discuss with the consultant.")
    assert PENDING.search("Sample sent on to the regional lab and no result is available yet.")
    assert not PENDING.search("No result of concern.")


def test_statement_order_and_dose_direction_questions_read_their_kind():
    from archehr.answerability.asked_for import ask_kind

    assert ask_kind("Over the summer I can do lifeguard shifts or no?") == "may_i"
    assert ask_kind("after the blood test they make his insulin dose higher or lower?") == "med_change"
