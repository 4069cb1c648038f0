"""Shapes of export met in the latest writers' notes, on invented lines: a title in capitals wrapped on a joining
word, a page footer of three columns with its page mark first. Each expected split is written out by hand."""

from __future__ import annotations

from split_texts import texts

from archehr.data.note_page import is_page_furniture


def test_a_title_in_capitals_wrapped_on_a_joining_word_is_one_unit():
    note = ("Eastfold Hospital - Pain Service                              Patient copy\n"
            "NERVE BLOCK RECORD AND\nAFTERCARE ADVICE\nName: Ivo Park   DOB: 01/02/1970\n")
    assert texts(note)[-3:-1] == ["NERVE BLOCK RECORD AND AFTERCARE ADVICE", "Name: Ivo Park"]
    # (a title that ends whole stays a line of its own over the next)
    assert texts("DISCHARGE SUMMARY\nPATIENT COPY\nName: Ivo Park   DOB: 01/02/1970\n")[:2] == [
        "DISCHARGE SUMMARY", "PATIENT COPY"]


def test_a_footer_of_three_columns_with_a_page_mark_first_is_one_unit():
    footer = "Page 2 of 4     Infusion Record v3.1     Printed 11/02/2026 09:30"
    assert is_page_furniture(footer)
    note = f"Flush the line weekly.\n{footer}\nKeep the dressing dry.\n"
    assert texts(note) == ["Flush the line weekly.", "Page 2 of 4 Infusion Record v3.1 Printed 11/02/2026 09:30",
                           "Keep the dressing dry."]
    # (beside one column only, the page mark and the print stamp are two units, as writers cut them)
    assert not is_page_furniture("Page 2 of 4        Printed 11/02/2026 09:30")


def test_labelled_readings_parted_by_pipes_are_a_unit_each_the_label_with_the_first():
    note = "Observations at rest: BP 131/79 | HR 71 reg | SpO2 96%\nWalk test: 410 m, no symptoms.\n"
    assert texts(note) == ["Observations at rest: BP 131/79", "HR 71 reg", "SpO2 96%", "Walk test: 410 m, no symptoms."]
    # (results stated in words under a label keep their label a unit of its own)
    assert texts("Bloods (drawn 02/03/2026): Ferritin normal | B12 normal | Folate low\n")[0] == \
        "Bloods (drawn 02/03/2026):"


def test_a_tables_header_row_over_a_drawn_rule_is_one_unit_as_its_rows_are():
    note = ("Test            | 03/01/26 | 17/01/26 | Units  | Range\n"
            "----------------+----------+----------+--------+--------\n"
            "Sodium          | 139      | 141      | mmol/L | 133-146\n"
            "Potassium       | 5.6 H    | 4.8      | mmol/L | 3.5-5.3\n")
    assert texts(note) == ["Test | 03/01/26 | 17/01/26 | Units | Range", "Sodium | 139 | 141 | mmol/L | 133-146",
                           "Potassium | 5.6 H | 4.8 | mmol/L | 3.5-5.3"]


def test_a_log_entrys_stamp_and_writer_with_how_they_spoke_stays_with_its_first_sentence():
    note = ("04/03/2026 10:10  Nurse P. Adler (PN)\nDressing changed. Site dry.\n\n"
            "05/03/2026 15:40  Dr. R. Moyo (GP) - telephone\nSpoke with her daughter. No fever.\n\n"
            "06/03/2026 09:00  Sr K. Wren - home visit\nWound healing well.\n")
    assert texts(note) == ["04/03/2026 10:10 Nurse P. Adler (PN) Dressing changed.", "Site dry.",
                           "05/03/2026 15:40 Dr. R. Moyo (GP) - telephone Spoke with her daughter.", "No fever.",
                           "06/03/2026 09:00 Sr K. Wren - home visit Wound healing well."]


def test_one_word_begun_after_a_full_stop_at_a_full_lines_end_runs_on_into_the_next_line():
    note = ("Rang about a sore mouth and small ulcers on the gums since the weekend, eating soft food.\n"
            "Drinking well, no fever today, temperature 36.8 at home this morning. Advised\n"
            "Gelclair (mouth gel) three times a day before meals and a soft toothbrush. Call back if\n"
            "unable to drink.\n")
    assert texts(note)[-2:] == ["Advised Gelclair (mouth gel) three times a day before meals and a soft toothbrush.",
                                "Call back if unable to drink."]


def test_a_sign_off_ending_on_its_time_ends_its_line_before_a_footer():
    note = ("Two small polyps were removed and sent to the laboratory for a\n"
            "look under the microscope. Results will be posted to you and to\n"
            "your GP within three weeks.\n"
            "Report electronically signed by Dr. Ines Korb 02/05/2026 14:10\n"
            "Westbay Day Unit, 3 Quay Road, Portell - Tel 01632 700100 - Printed 02/05/2026\n")
    assert texts(note)[-3:] == ["Results will be posted to you and to your GP within three weeks.",
                           "Report electronically signed by Dr. Ines Korb 02/05/2026 14:10",
                           "Westbay Day Unit, 3 Quay Road, Portell - Tel 01632 700100 - Printed 02/05/2026"]


def test_a_list_items_short_line_ends_it_before_a_line_that_opens_a_sentence():
    note = ("Phone the ward on 01632 900 100 straight away if:\n"
            "- you have a temperature of 38 or above, or you feel shivery and unwell all of a sudden\n"
            "- the tube is damaged or has slipped out further than before\n"
            "If the tube comes out, press on the site with a clean pad and come straight to the\n"
            "Emergency Department.\n")
    assert texts(note)[-2:] == ["- the tube is damaged or has slipped out further than before",
                                "If the tube comes out, press on the site with a clean pad and come straight to the "
                                "Emergency Department."]
    # (a name under an item's short line carries it on: "- see the nurse on" + "Monday ...")
    assert texts("- see the practice nurse for the dressing on\nMonday morning at 9\n") == [
        "- see the practice nurse for the dressing on Monday morning at 9"]


def test_a_fields_label_wrapped_at_the_end_of_prose_takes_its_value_from_the_line_of_fields_under_it():
    note = ("Today\nA drain (a thin tube) was placed in the right side of your chest under ultrasound\n"
            "guidance. The position was checked on an X-ray and it is ready to use. Drain size:\n"
            "12 Fr.   Fluid removed: 800 ml.\n")
    assert texts(note)[-3:] == ["The position was checked on an X-ray and it is ready to use.", "Drain size: 12 Fr.",
                                "Fluid removed: 800 ml."]
