from __future__ import annotations

import numpy as np
import pytest
from relevance_helpers import tiny_split

from archehr.errors import ConfigError
from archehr.relevance.registry import build_classifier

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    from archehr.relevance.embedding import embeddings_available

    ok, why = embeddings_available()
    if not ok:
        pytest.skip(why)
    from archehr.training.cross_encoder import fit_in_process

    clf = build_classifier("cross-encoder")
    with pytest.raises(ConfigError, match="not fine-tuned"):
        clf.score(tiny_split(1).cases[0])
    fit_in_process(clf, tiny_split(6), epochs=4, lr=1e-4, batch_size=8)
    d = tmp_path_factory.mktemp("ce")
    clf.save(d)
    return clf, d


def test_fit_separates_training_labels(fitted):
    clf, _ = fitted
    split = tiny_split(6)
    ess, rest = [], []
    for c in split.cases:
        sc = clf.score(c)
        ess.append(sc.essential[1])
        rest += [sc.essential[i] for i in (0, 2, 4, 5, 6)]  # the not-relevant sentences
    assert np.mean(ess) > np.mean(rest) + 0.1


def test_checkpoint_round_trip(fitted, tmp_path):
    clf, d = fitted
    again = build_classifier("cross-encoder", checkpoint=str(d))
    case = tiny_split(1).cases[0]
    assert np.allclose(clf.score(case).essential, again.score(case).essential, atol=1e-5)
    with pytest.raises(ConfigError, match="checkpoint"):
        build_classifier("cross-encoder", checkpoint=str(tmp_path))
