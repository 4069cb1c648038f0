"""A report header's fields in columns whose values are padded from their labels: each field is one unit, its
label with its value. Every expected split is written out by hand, on invented lines."""

from __future__ import annotations

import pytest
from split_texts import texts


@pytest.mark.parametrize("line, fields", [
    ("Ordering:      Dr A. Lee             Location:  Oak Clinic", ["Ordering: Dr A. Lee", "Location: Oak Clinic"]),
    ("Specimen:      Venous blood          Container:  EDTA", ["Specimen: Venous blood", "Container: EDTA"]),
    ("Requested by:    Sam Ortiz NP        Priority:   Routine", ["Requested by: Sam Ortiz NP", "Priority: Routine"]),
])
def test_a_value_padded_from_its_label_stays_with_it_in_a_row_of_fields(line: str, fields: list[str]):
    assert texts(line) == fields


def test_fields_two_spaces_apart_are_still_two():
    assert texts("Arrival: 06:48  Departure: 13:05") == ["Arrival: 06:48", "Departure: 13:05"]
    assert texts("URGENCY:          STATUS: COMPLETED") == ["URGENCY:", "STATUS: COMPLETED"]
