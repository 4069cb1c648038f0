"""The 66 UMLS semantic types MEDCON keeps ("aci66"), as data.

Source: the ACI-bench MEDCON definition (wyim/aci-bench, evaluation/semantics.py: the MetaMap 2018 semantic
groups minus Procedures, Organizations, Occupations, Living Beings, Objects, Geographic Areas, Concepts &
Ideas, Activities & Behaviors), written out as a literal list in the MEDCON scorers derived from it that the
ArchEHR-QA scorer uses. Order kept as published; only membership matters.
"""

from __future__ import annotations

ACI66: tuple[str, ...] = (
    # Anatomy
    "T017", "T029", "T023", "T030", "T031", "T022", "T025", "T026", "T018", "T021", "T024",
    # Chemicals & Drugs
    "T116", "T195", "T123", "T122", "T103", "T120", "T104", "T200", "T196", "T126", "T131", "T125", "T129",
    "T130", "T197", "T114", "T109", "T121", "T192", "T127",
    # Devices
    "T203", "T074", "T075",
    # Disorders
    "T020", "T190", "T049", "T019", "T047", "T050", "T033", "T037", "T048", "T191", "T046", "T184",
    # Genes & Molecular Sequences
    "T087", "T088", "T028", "T085", "T086",
    # Phenomena
    "T038", "T069", "T068", "T034", "T070", "T067",
    # Physiology
    "T043", "T201", "T045", "T041", "T044", "T032", "T040", "T042", "T039",
)  # fmt: skip
