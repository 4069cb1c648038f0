"""Answerability: does the note answer the question at all? (abstention for `archehr answer`).

`data` builds the (note, question, answerable?) items from the fictional demo case files, `features`
computes per-question coverage features, `model` holds the calibrated score and its threshold.
"""
