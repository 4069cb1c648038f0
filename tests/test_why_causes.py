"""A why answer's first line that holds no cause (`archehr.answerability.why_causes`), flagged for review by
`archehr.answerability.review.why_uncaused`.

Each note here is a few lines written for these tests (fictional).
"""

from __future__ import annotations

import numpy as np

from archehr.answerability.review import why_uncaused
from archehr.answerability.why_causes import has_cause, says_no_cause
from archehr.data.note_split import split_note


def test_cause_markers_in_plain_words_rows_and_holds() -> None:
    assert has_cause("Warfarin was stopped because of a bleed.")
    assert has_cause("She has asthma, so labetalol is not suitable.")
    assert has_cause("STOP diclofenac - this most likely caused the bleed.")
    assert has_cause("STOP lisinopril 5 mg daily (kidney function low)")
    assert has_cause("2. Withhold lisinopril until kidney function back to baseline.")
    assert has_cause("Gastritis: continue omeprazole 20 mg daily.")
    assert has_cause("Antibiotics were not given owing to a viral cause.")
    # a line naming the thing and no cause; a "since" of time is no cause
    assert not has_cause("7. Knee brace is no longer needed.")
    assert not has_cause("Taking sertraline since the summer.")


def test_cause_and_purpose_in_further_forms() -> None:
    # shorthand, a purpose, a condition met, a harm, a replacement, a need tied to another medicine
    assert has_cause("72F w/ sepsis 2/2 cholangitis c/b AKI requiring dialysis.")
    assert has_cause("START ibuprofen 200 mg three times daily as a bridge for 5 days.")
    assert has_cause("A sling was fitted to stop her moving the shoulder while it heals.")
    assert has_cause("Partner to do the school run so Maya can rest in the mornings.")
    assert has_cause("Start enalapril 2.5 mg daily for the protein in the urine.")
    assert has_cause("Fluids were stopped once his sodium had been normal for a day.")
    assert has_cause("Amitriptyline STOPPED. It made you feel dizzy in the mornings.")
    assert has_cause("Hyoscine (for your stomach) can add to dry mouth.")
    assert has_cause("Modified-release capsules cannot be opened for the feeding tube.")
    assert has_cause("STOP aspirin 75 mg Ticagrelor replaces it.")
    assert has_cause("vitamin D 800 units Stop - only needed while on prednisolone.")
    assert has_cause("Avoid NSAIDs (ibuprofen) while on warfarin.")
    assert has_cause("Target weight: lowered from 80 kg to 79 kg (ankle swelling).")
    assert has_cause("HOLD ramipril 5 mg daily until your kidney function is rechecked next week.")
    assert has_cause("Amoxicillin was started after the chest X-ray showed a consolidation.")
    assert has_cause("Iron tablets started — ferritin was low at 8.")
    assert has_cause("Start trimethoprim 100 mg as prevention after intercourse.")
    assert has_cause("Switched to oral cefalexin once cultures came back.")
    # a duration, a day's plan or a dose with no reason stays causeless
    assert not has_cause("START cefalexin 500 mg four times daily for 7 days.")
    assert not has_cause("Follow up for the review in 6 weeks.")
    assert not has_cause("START apixaban 5 mg daily (from 03/04).")
    assert not has_cause("Nurse to flush the line weekly.")


def test_words_that_give_a_cause_in_one_sense_only() -> None:
    # "given", "from", "pending", "felt", "usually", "since" in their causal sense
    assert has_cause("Given her kidney function the dose was halved.")
    assert has_cause("The ankle pain is from a strained ligament.")
    assert has_cause("Rash (from the plaster) should settle.")
    assert has_cause("Kept in overnight pending the repeat scan.")
    assert has_cause("No antibiotics since this is a viral cough.")
    assert has_cause("Pain usually settles as the swelling goes down.")
    # ... and in the senses that give none: a dose given, a time, a place or a person, a status, a count
    assert not has_cause("Paracetamol 1 g IV given.")
    assert not has_cause("Gentle stretches twice a day from tomorrow.")
    assert not has_cause("Phone call from his son: feeling better.")
    assert not has_cause("- Ferritin: pending.")
    assert not has_cause("He felt a click in his knee on the stairs.")
    assert not has_cause("The cast stays on, usually 4 to 6 weeks.")


def test_a_medicine_rows_dash_comment_giving_its_schedule_is_no_reason() -> None:
    assert not has_cause("CHANGE lansoprazole 30 mg - now once daily (was twice daily)")
    assert not has_cause("START cyanocobalamin 1 mg IM - alternate days for 2 weeks")
    assert has_cause("STOP bisoprolol 5 mg - heart rate too slow on the monitor")


def test_a_purpose_after_a_dose_and_in_case() -> None:
    assert has_cause("Senna 7.5 mg at night for constipation.")
    assert has_cause("Glucagon 1 mg injection: keep in the fridge in case of a severe hypo.")
    assert has_cause("Drops were added as another way of lowering the eye pressure.")
    assert not has_cause("Senna 7.5 mg at night for 5 nights.")
    assert not has_cause("Clinic booked for 14/02/2027 at 10:00.")


def test_a_diagnosis_line_is_a_cause_unless_it_restates_the_asked_finding() -> None:
    texts = ["Diagnosis", "Coeliac disease.", "Plan:", "Night brace no longer needed."]
    asked = np.array([[False, True, False, False]])  # the question asks about the coeliac disease
    assert says_no_cause(1, texts, asked, "why does he have coeliac disease")  # restated
    other = np.array([[False, False, False, True]])  # the question asks about the brace
    assert not says_no_cause(1, texts, other)  # the diagnosis is the reason for what was done
    assert says_no_cause(3, texts, other)  # the brace named, no cause


def test_a_diagnosis_line_saying_more_than_the_asked_thing_is_a_cause() -> None:
    texts = ["Diagnosis", "Left wrist sprain, mild.", "Plan:", "Splint for 1 week."]
    asked = np.array([[False, True, False, False]])  # the question names the wrist, the line names it too
    assert not says_no_cause(1, texts, asked, "what is actually wrong with my wrist")  # "sprain", "mild" added
    assert says_no_cause(1, texts, asked, "why does she have a mild left wrist sprain")  # nothing added


def test_a_lab_value_row_gives_no_cause() -> None:
    none = np.zeros((1, 2), dtype=bool)
    texts = ["Results:", "Sodium 129 mmol/L (low)"]
    assert says_no_cause(1, texts, none, "why is his sodium low")  # the value restated, a finding word only
    caused = ["Results:", "Sodium 129 mmol/L (low) due to fluid pill"]
    assert not says_no_cause(1, caused, none, "why is his sodium low")  # a cause said outright


def test_a_heading_over_a_medicine_row_gives_its_reason() -> None:
    texts = ["Tablets paused (low blood pressure):", "HOLD bisoprolol 5 mg daily", "HOLD ramipril 2.5 mg daily"]
    none = np.zeros((1, 3), dtype=bool)
    assert not says_no_cause(2, texts, none, "why did they stop his ramipril")  # the reason in the heading's brackets
    plain = ["Tablets paused:", "HOLD bisoprolol 5 mg daily", "HOLD ramipril 2.5 mg daily"]
    assert says_no_cause(2, plain, none, "why did they stop his ramipril")  # a heading with no reason
    told = ["Tablets paused (low blood pressure):", "Ramipril 2.5 mg daily, on hold"]
    assert says_no_cause(1, told, np.zeros((1, 2), dtype=bool), "why")  # no row opening with its action


def test_review_flags_a_why_answer_whose_first_line_names_the_thing_only() -> None:
    split = split_note("Plan:\n- Knee brace at night is no longer needed.\n- Keep walking daily.\n", "rules")
    first = next(s.text for s in split.sentences if "brace" in s.text)
    assert why_uncaused("why", "why dont i need the knee brace at night", split, (first, 1.0))
    assert not why_uncaused("when", "when can i stop the knee brace", split, (first, 1.0))
    caused = split_note("Plan:\n- Knee brace at night is no longer needed as the ligament has healed.\n", "rules")
    first = next(s.text for s in caused.sentences if "brace" in s.text)
    assert not why_uncaused("why", "why dont i need the knee brace at night", caused, (first, 1.0))


def test_review_flags_reads_a_why_questions_named_concepts_once(monkeypatch) -> None:
    # unsaid_in_note and why_uncaused both read which sentences name the question's concepts: review_flags reads it
    # once for both, and the result is the same as each rule reading it alone
    from types import SimpleNamespace

    from archehr.answerability import asked_thing, review

    calls: list[str] = []
    real = asked_thing.concept_rows

    def counted(question, texts, lexicon):
        calls.append(question)
        return real(question, texts, lexicon)

    monkeypatch.setattr(asked_thing, "concept_rows", counted)
    split = split_note("Plan:\n- Knee brace at night is no longer needed.\n- Keep walking daily.\n", "rules")
    first = next(s.text for s in split.sentences if "brace" in s.text)
    question = "why dont i need the knee brace at night"
    types = SimpleNamespace(kind="why", best_typed=1.0, best_firm=1.0, missing_drugs=(), missing_activities=(),
                            topic=np.array([1.0]))
    model = SimpleNamespace(abstains=lambda p: False, flags=lambda p: False)
    assert review.review_flags(model, 0.9, False, types, (first, 1.0), question, split) == (True, True)
    assert calls == [question]
    rows = review.NamedConcepts(question, split).rows
    assert not rows.flags.writeable  # (what one rule reads, the next reads unchanged)


def test_cause_forms_of_harm_share_wish_and_a_lab_value_beside_a_step() -> None:
    assert has_cause("Betablockers can bring on an asthma attack.")
    assert has_cause("Explained that vaping slows bone healing.")
    assert has_cause("Her low iron is probably adding to the breathlessness.")
    assert has_cause("Finish the course; no further antibiotics needed as the scan is clear.")
    assert has_cause("She is not keen on the injections for now.")
    assert has_cause("Folate below reference range; B12 level added on to the sample.")
    assert has_cause("eGFR 31 mL/min - gliclazide halved.")
    assert has_cause("Lithium reduced to 400 mg; level 1.3 mmol/L.")
    assert has_cause("The cyst is small and harmless and does not need removing.")
    # a step with a dose and no value, a value with no step
    assert not has_cause("Gliclazide halved to 40 mg.")
    assert not has_cause("Haemoglobin 98 g/L on admission.")


def test_a_cause_in_the_next_line_of_the_same_item() -> None:
    none = np.zeros((1, 4), dtype=bool)
    told = ["Medicines:", "STOP sotalol 80 mg.", "It can bring on a slow heart rate with her new tablet.",
            "START apixaban 5 mg twice daily."]
    assert not says_no_cause(1, told, none, "why did they stop my sotalol")
    reason = ["Medicines:", "CHANGE sertraline 50 mg -> 100 mg.", "Reason: low mood still present.",
              "STOP zopiclone 7.5 mg."]
    assert not says_no_cause(1, reason, none, "why did they up the sertraline")
    valued = ["Medicines:", "CHANGE pravastatin 20 mg -> rosuvastatin 20 mg.", "LDL 3.9 mmol/L, target below 2.0.",
              "CONTINUE aspirin 75 mg."]
    assert not says_no_cause(1, valued, none, "why the new statin")
    # the next row of the list, an order, or a finding only is no reason for this row
    rows = ["Medicines:", "START omeprazole 20 mg daily.", "START furosemide 40 mg daily to clear the fluid.",
            "STOP naproxen 250 mg."]
    assert says_no_cause(1, rows, none, "why omeprazole")
    ordered = ["Medicines:", "STOP ibuprofen 400 mg.", "Use paracetamol 1 g four times a day for pain instead.",
               "Follow-up:"]
    assert says_no_cause(1, ordered, none, "why stop ibuprofen")
    stepped = ["Plan:", "Repeat the potassium in a week.", "TSH is raised, so a T4 has been added on.", "Review:"]
    assert says_no_cause(1, stepped, none, "why repeat the potassium")
    found = ["Results:", "Repeat the chest X-ray in 6 weeks.", "Her CRP was 12 and the white count was normal.", "End"]
    assert says_no_cause(1, found, none, "why another x-ray")


def test_a_rows_tail_a_step_after_its_finding_and_a_reason_field_of_the_same_block() -> None:
    none = np.zeros((1, 4), dtype=bool)
    wrapped = ["Medicines:", "Clopidogrel 75 mg daily (not needed with the new anticoagulant) -", "Status: STOPPED",
               "Bisoprolol 2.5 mg daily - Status: UNCHANGED"]
    assert not says_no_cause(2, wrapped, none, "why did they stop clopidogrel")
    assert says_no_cause(3, wrapped, none, "why bisoprolol")  # a row of its own after the wrapped one
    found = ["Results:", "Comment: Ferritin very low.", "Referral to the iron infusion clinic is advised.", "End"]
    assert not says_no_cause(2, found, none, "why the infusion clinic")
    purpose = ["Medicines:", "Protects the stomach while on steroids.", "Omeprazole 20 mg prescribed.", "End"]
    assert says_no_cause(2, purpose, none, "why omeprazole")  # another row's purpose above, no finding
    block = ["Operation: Right knee arthroscopy", "Date: 03/03/2031", "Reason: locked knee from a torn meniscus.",
             "Surgeon: Mr A"]
    assert not says_no_cause(0, block, none, "why the knee op")
    apart = ["Operation: Right knee arthroscopy", "Date: 03/03/2031", "Surgeon: Mr A", "Anaesthetic: general"]
    assert says_no_cause(0, apart, none, "why the knee op")


def test_rows_under_a_findings_heading_are_what_was_found() -> None:
    none = np.zeros((1, 4), dtype=bool)
    texts = ["Procedure: Laparoscopic cholecystectomy", "Findings:", "- Thick-walled gallbladder full of stones",
             "- Normal liver"]
    assert not says_no_cause(2, texts, none, "why did they take out her gallbladder")
    listed = ["Procedure: Laparoscopic cholecystectomy", "Drains:", "- One drain left in the gallbladder bed",
              "- Removed on day 1"]
    assert says_no_cause(2, listed, none, "why the drain")


def test_a_finding_then_its_step_an_event_followed_and_a_broken_rule_are_causes() -> None:
    # a finding and the step it brings, in one sentence
    assert has_cause("Ferritin is in the deficient range; an iron infusion will be arranged next month.")
    assert has_cause("Calcium raised, a parathyroid hormone level has been requested.")
    # a state or a step after an event, mid-line
    assert has_cause("On warfarin for life following a clot in the lung.")
    assert has_cause("Walking with a frame following his fall at home.")
    # what happens when a rule is broken
    assert has_cause("Keep the boot on at all times; if it comes off, the tendon repair could fail.")
    # not a list's "the following", a meeting followed, an instruction after "if"
    assert not has_cause("Please bring the following to your appointment.")
    assert not has_cause("Seen following the review with the surgeons.")
    assert not has_cause("If the wound oozes, call the ward.")
    assert not has_cause("Ferritin 12 ug/L.")


def test_a_step_told_done_then_its_firm_cause_is_given_at_a_tenth_of_the_topic() -> None:
    from archehr.answerability.why_causes import cause_given

    # the note names the step in its own words ("sleeping tablet" asked, the drug's name in the note)
    assert cause_given("His nightly temazepam was stopped because it raises the risk of falls.", 0.12)
    assert cause_given("She was kept nil by mouth for two days to allow the bowel to rest.", 0.12)
    # a cause with no step told done names too little of the topic
    assert not cause_given("To soothe the catheter; stop when it comes out.", 0.12)
    assert not cause_given("His nightly temazepam was stopped because it raises the risk of falls.", 0.05)


def test_a_tests_purpose_in_verbs_of_looking_again_and_a_colour_given() -> None:
    # why a test is redone: the verbs of looking again or ruling out; why a fluid looks odd: a colour a thing gives
    assert has_cause("Plan: repeat the kidney scan in 6 months to re-evaluate the cyst.")
    assert has_cause("Chest CT to exclude a clot in the lung.")
    assert has_cause("The contrast may turn the urine a pinkish colour for a day.")
    assert not has_cause("Repeat the kidney scan in 6 months.")
    assert not has_cause("Told him to look at the wound daily.")  # an instruction's object, no purpose


def test_a_medicine_table_rows_comment_cell_is_its_reason() -> None:
    none = np.zeros((1, 1), dtype=bool)
    rows = ["STOP      Dapagliflozin 10 mg once daily      Risk of a dry mouth and thrush while eating little",
            "CHANGE    | Ramipril 2.5 mg -> 5 mg    | PO once daily    | Kidney function stable, BP still high"]
    for row in rows:
        assert not says_no_cause(0, [row], none, "why did they change it")
    # cells telling how or when it is taken, or what comes next, are no reason
    for row in ["STOP      Dapagliflozin 10 mg      once daily", "HOLD   Ramipril 5 mg daily   GP to review",
                "START     Alendronate 70 mg      every week      12/03/2026"]:
        assert says_no_cause(0, [row], none, "why did they change it")
    # the same words in one run of prose after the dose are read as they were (no cell)
    assert says_no_cause(0, ["STOP Dapagliflozin 10 mg once daily dry mouth thrush"], none, "why")
