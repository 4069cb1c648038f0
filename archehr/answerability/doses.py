"""A medicine's amount as notes write it ("500 mg", "0.5 mg", "300-30 mg", "8 units", "2 puffs", "1 tablet",
"0.1%"): one vocabulary of units and the two patterns the rules share, so that a unit is added in one place.

- `DOSE`: a count and a unit of mass, volume, international units or a form ("mg", "micrograms", "ml", "units",
  "IU", "puffs", "drops", "tablets", "caps"). A concentration is a result, not a dose: "5.2 mg/dL", "120 g/L",
  "45 ml/min" (an eGFR), "48 IU/mL", "9 mg/mmol" are not read as doses, while a rate or a dose by weight
  ("10 mg/kg", "20 ml/hr") is.
- `STRENGTH`: a dose, or a percentage of a cream, drop or gel ("hydrocortisone 1%"), for the rules that read a
  medicine's row ("is this line a list entry?"). Result rules take `DOSE` alone, since "EF 35%" and "HbA1c 7.2%"
  are results.

`med_listed.DOSING` adds how often ("twice daily", "BD", "at night"); `test_words.NOT_A_DOSE` is the other side,
a lab value that is not followed by a unit of dose.
"""

from __future__ import annotations

import re

# units of a dose: mass, volume, international units, then the forms counted out ("2 puffs", "1 tablet")
AMOUNT_UNIT = r"mg|mcg|micrograms?|milligrams?|g|ml|units?|iu"
FORM_UNIT = r"puffs?|drops?|tabs?|tablets?|caps?|capsules?"
# a count or a range of counts, as doses are written ("500", "0.5", "2,5", "300-30")
_AMOUNT = r"\b\d+(?:[.,]\d+)?(?:-\d+(?:[.,]\d+)?)?"
# a concentration's divisor: the amount is a result's ("mg/dL", "g/L", "IU/mL", "mg/mmol", "mg/g", "ml/min")
_PER_VOLUME = r"\s*/\s*(?:dl|l|ml|mmol|g|mg|min)\b"

DOSE = re.compile(rf"{_AMOUNT}\s*(?:{AMOUNT_UNIT}|{FORM_UNIT})(?![a-z])(?!{_PER_VOLUME})", re.I)
STRENGTH = re.compile(rf"{DOSE.pattern}|{_AMOUNT}\s*%", re.I)
