"""The shared dose patterns: what reads as a medicine's amount and what does not."""

import pytest

from archehr.answerability.doses import DOSE, STRENGTH
from archehr.answerability.med_listed import DOSING


@pytest.mark.parametrize("text", ["Amoxicillin 500 mg", "0.5mg", "co-careldopa 25-100 mg", "8 units at night",
                                  "2 puffs", "1 tablet", "two tabs", "100 micrograms", "2,5 mg", "10 IU",
                                  "10 mg/kg", "infusion at 20 ml/hr", "3 tablets daily"])
def test_doses_are_read(text: str) -> None:
    expected = "two tabs" != text  # a count in words is no dose here: rules read figures
    assert bool(DOSE.search(text)) is expected
    assert bool(STRENGTH.search(text)) is expected


@pytest.mark.parametrize("text", ["Creatinine 1.2 mg/dL", "Hb 120 g/L", "eGFR 45 ml/min/1.73m2",
                                  "Anti-dsDNA 48 IU/mL", "Urine protein/creatinine 9 mg/mmol", "5 gtt",
                                  "Ward 5", "seen at 10 am", "Ejection fraction 35%"])
def test_results_and_numbers_are_no_dose(text: str) -> None:
    assert not DOSE.search(text)


def test_a_percentage_is_a_strength_only() -> None:
    assert STRENGTH.search("hydrocortisone 1% cream") and not DOSE.search("hydrocortisone 1% cream")


def test_dosing_adds_how_often() -> None:
    assert DOSING.search("Metformin twice daily") and DOSING.search("Metformin 500 mg")
    assert not DOSING.search("Metformin")
