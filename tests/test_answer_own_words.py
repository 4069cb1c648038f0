"""`archehr answer` gives an LLM the patient's own words and its lexical and typed parts the respelt reading
(`ask.read_question`), through the library and the `serve` web app alike; on an invented note, with a fake LLM."""

from __future__ import annotations

import warnings

import pytest

from archehr.answerability.voices import plain_words
from archehr.ask import _case_for, answer
from archehr.data.note_split import note_case

NOTE = ("Clinic letter.\n\nThe breathing test showed mild narrowing of the airways. She will start a brown inhaler "
        "twice a day. Review in clinic in six weeks.")
OWN = "wis ma breathin test bad"  # Scots: "was my breathing test bad"
READ = "was my breathing test bad"
REPLY = "The breathing test showed mild narrowing of the airways. |2|"


class _Recorder:
    """A fake LLM backend: the same reply to every prompt, each prompt kept."""

    name = "recorder"

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def complete(self, prompt, *, n=1, temperature=0.0, seed=0, max_tokens=256, response_format=None):
        self.prompts.append(prompt)
        return [REPLY] * n

    def describe(self):
        return {"name": self.name}


def _llm_system(backend: _Recorder):
    from archehr.generate.llm import LLMGenerator
    from archehr.pipeline import load_system

    system = load_system(None)
    system.generator = LLMGenerator(backend=backend, demonstrations=0)  # type: ignore[arg-type]
    return system


def test_the_question_is_respelt_for_the_lexical_parts() -> None:
    assert plain_words(OWN) == READ  # the premise of the tests below


def test_the_llm_prompt_holds_the_patients_own_words() -> None:
    backend = _Recorder()
    got = answer(NOTE, OWN, system=_llm_system(backend), splitter="rules", ranker="hand")
    assert backend.prompts and all(OWN in p for p in backend.prompts)
    assert not any(READ in p for p in backend.prompts)
    assert got.question == OWN and not got.abstained
    # the typed parts read the respelt question: what they give is what the standard spelling gives
    standard = answer(NOTE, READ, system=_llm_system(_Recorder()), splitter="rules", ranker="hand")
    assert (got.kind, got.confidence, got.flagged) == (standard.kind, standard.confidence, standard.flagged)


def test_an_llm_selector_reads_the_own_words_and_the_trained_one_the_reading() -> None:
    from archehr.pipeline import load_system
    from archehr.relevance.evidence import LLMEvidence

    case, split = note_case(NOTE, READ, narrative="Hi doctor. " + READ, splitter="rules")
    written = (OWN, "Hi doctor. " + OWN)
    llm = _case_for(LLMEvidence(backend=_Recorder()), case, split, written)
    assert llm.question_text == OWN and llm.patient_narrative == "Hi doctor. " + OWN
    assert llm.sentence_ids == case.sentence_ids and llm.case_id == case.case_id
    assert _case_for(load_system(None).evidence, case, split, written) is case


def test_serve_takes_the_same_path() -> None:
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from archehr.serve.app import ServerState, create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # starlette's note about httpx in its test client
        from fastapi.testclient import TestClient

    backend = _Recorder()
    state = ServerState(None, None, [])
    state.system = _llm_system(backend)
    with TestClient(create_app(state)) as client:
        r = client.post("/api/answer", json={"note": NOTE, "question": OWN, "splitter": "rules"})
    assert r.status_code == 200
    assert backend.prompts and all(OWN in p for p in backend.prompts)
    assert not any(READ in p for p in backend.prompts)
