"""The shipped default evidence model (interactions) and the evidence st4's aligner reads (the lexical model's)."""

from __future__ import annotations

from archehr.data.releases import demo_dir, load_split
from archehr.relevance.evidence import LLMEvidence, TrainedEvidence
from archehr.relevance.registry import (
    DEFAULT_MODEL,
    SHIPPED_MODELS,
    align_evidence_model,
    load_default_selector,
    load_selector,
    shipped_model_path,
)


def test_the_default_model_is_interactions():
    assert DEFAULT_MODEL == "interactions"
    assert shipped_model_path("auto") == shipped_model_path("default") == SHIPPED_MODELS["interactions"]
    assert load_default_selector().source == str(SHIPPED_MODELS["interactions"])


def test_align_evidence_model_names_lexical_only_for_the_interactions_model():
    assert align_evidence_model(None) == align_evidence_model("auto") == align_evidence_model("interactions") \
        == "lexical"
    assert align_evidence_model("lexical") is None
    assert align_evidence_model("embedding") is None
    assert align_evidence_model("my/model.json") is None


def test_st4_reads_the_lexical_models_evidence_under_the_default():
    case = load_split(demo_dir(), "test").cases[0]
    step = TrainedEvidence("auto")
    lexical = load_selector("lexical")
    want = lexical.scores(case)
    got = step.trained_evidence(case)
    assert got.scores == want and got.selection == lexical.selector.select(want)
    own = step.evidence(case)  # the answer and st2 use the interactions model's own evidence
    assert own.scores == load_default_selector().scores(case)
    assert step.describe()["align_model_file"] == str(SHIPPED_MODELS["lexical"])


def test_an_explicit_lexical_step_gives_st4_its_own_evidence():
    case = load_split(demo_dir(), "test").cases[0]
    step = TrainedEvidence("lexical")
    assert step.trained_evidence(case) == step.evidence(case)
    assert "align_model_file" not in step.describe()


def test_the_llm_steps_fallback_follows_the_default_and_st4_reads_lexical():
    step = LLMEvidence(backend=object(), fallback_model="auto")
    assert step.trained.source == str(SHIPPED_MODELS["interactions"])
    case = load_split(demo_dir(), "test").cases[0]
    assert step.trained_evidence(case).scores == load_selector("lexical").scores(case)
