"""Leave-one-group-out calibration (the writer's voice as the group): every case scored by a model that never saw
its group, and `train(groups=...)` records it."""

from __future__ import annotations

import pytest
from relevance_helpers import tiny_split

from archehr.errors import InputError
from archehr.training.relevance_logistic import train
from archehr.training.selector_calibration import group_scores


def test_group_scores_never_score_a_case_with_its_own_group() -> None:
    split = tiny_split(6)
    groups = {c: "a" if int(c) <= 2 else ("b" if int(c) <= 4 else "c") for c in split.case_ids}
    seen: list[tuple[set[str], list[str]]] = []

    def fit_and_score(train_split, held):  # noqa: ANN001, ANN202
        seen.append(({groups[c] for c in train_split.case_ids}, [c for c in held.case_ids]))
        from archehr.relevance.base import SentenceScores

        return [SentenceScores(c.case_id, c.sentence_ids, (0.5,) * len(c.sentences), (0.0,) * len(c.sentences))
                for c in held.cases]

    out = group_scores(split, groups, fit_and_score)
    assert [s.case_id for s in out] == list(split.case_ids)  # split order, whatever the group order
    assert len(seen) == 3
    for train_groups, held in seen:
        assert {groups[c] for c in held} & train_groups == set()


def test_group_scores_refuses_missing_or_single_groups() -> None:
    split = tiny_split(4)
    with pytest.raises(InputError, match="no group"):
        group_scores(split, {"1": "a"}, lambda tr, held: [])
    with pytest.raises(InputError, match="at least 2 groups"):
        group_scores(split, dict.fromkeys(split.case_ids, "a"), lambda tr, held: [])


def test_train_with_groups_records_leave_one_group_out() -> None:
    split = tiny_split(6)
    groups = {c: f"v{int(c) % 3}" for c in split.case_ids}
    model, cal = train(split, "lexical", l2_grid=(1.0,), groups=groups)
    assert model.calibration["method"] == "leave-one-group-out"
    assert model.calibration["groups"] == 3
    assert 0.0 < cal.f1 <= 1.0
    loco, _ = train(split, "lexical", l2_grid=(1.0,))
    assert loco.calibration["method"] == "leave-one-case-out"


def test_voice_groups_of_the_shipped_parts() -> None:
    from archehr.data.releases import demo_dir
    from archehr.training.shipped import voice_groups

    parts = [("train", tiny_split(2, name="train")), ("synthetic-dev", tiny_split(2, name="dev"))]
    groups = voice_groups(parts, demo_dir())
    # ids 1 and 2 are legacy-r1 cases in the demo manifest; the synthetic part is one voice of its own
    assert groups == {"train:1": "legacy-r1", "train:2": "legacy-r1", "synthetic-dev:1": "part-synthetic-dev",
                      "synthetic-dev:2": "part-synthetic-dev"}
    assert voice_groups(parts[:1], demo_dir()) is None  # one voice: leave-one-case-out instead
