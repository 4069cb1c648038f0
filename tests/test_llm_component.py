"""A new LLM component is one file: this one declares a toy st1 question writer on the shared base
(archehr/llm/component.py), a toy backend, and runs them from a system YAML through `archehr predict`.

The writer keeps only what is its own: its prompt's values (`fields`; the template is a file), what a
training case shows as an example, its reader, and its fallback. The prompt with its demonstrations
(retrieval and leakage guard), the attempts, fitting to the model's window, the fallback with its reason
and `describe()` come from the base.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from archehr.cli.main import main
from archehr.data.model import Case, KeyEntry
from archehr.llm.base import Backend, BackendError
from archehr.llm.component import LLMComponent, Unusable
from archehr.llm.registry import BACKENDS
from archehr.question import QUESTION_WRITERS, Question, template_question
from archehr.question.base import QuestionWriter

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo"


class ToyQuestionWriter(LLMComponent, QuestionWriter):
    """Asks for the clinician's question in one line; the template writer when the reply is no question."""

    what = "question"

    def __init__(self, backend: Any, prompt: str = "", demonstrations: int = 1, max_tokens: int = 30):
        self.setup(backend, prompt, demonstrations, max_tokens=max_tokens)

    def demonstration(self, case: Case, key: KeyEntry | None) -> str | None:
        return f"Q: {case.question_text}\nA: {case.clinician_question}\n" if case.clinician_question else None

    def fields(self, case: Case, *args: Any, level: int = 0) -> dict[str, str]:
        return {"question": case.question_text}

    def write(self, case: Case) -> Question:
        def read(replies: list[str], cut: bool, notes: list[str]) -> str:
            line = replies[0].strip()
            if not line.endswith("?"):
                raise Unusable("the reply is no question")
            return line

        got = self.settle(case, read, lambda: template_question(case), "template")
        return Question(got.value or "", got.fallback, got.notes)


class ToyBackend(Backend):
    """Answers every prompt with one question; `down`: fails every request."""

    name = "toy"

    def __init__(self, window: int | None = None, down: bool = False):
        self.window = window
        self.down = down
        self.prompts: list[str] = []

    def complete(self, prompt: str, *, n: int = 1, temperature: float = 0.0, seed: int = 0,
                 max_tokens: int = 256, response_format: dict[str, Any] | None = None) -> list[str]:
        self.prompts.append(prompt)
        if self.down:
            raise BackendError("the toy server is down", retryable=False)
        return ["What did the toy model ask?"] * n

    def context_window(self) -> int | None:
        return self.window

    def describe(self) -> dict[str, Any]:
        return {"backend": self.name}


@pytest.fixture
def toy(monkeypatch, tmp_path):
    monkeypatch.setitem(QUESTION_WRITERS._entries, "toy-llm", ToyQuestionWriter)
    monkeypatch.setitem(BACKENDS._entries, "toy", ToyBackend)
    template = tmp_path / "toy_question.txt"
    template.write_text("Rewrite as a clinician.\n$demonstrations\nQ: $question\nA:", encoding="utf-8")
    return template


def test_a_toy_llm_component_runs_from_yaml_with_demonstrations_and_describes_itself(toy, tmp_path):
    system = tmp_path / "toy.yaml"
    system.write_text(f"name: toy\nselector: {{kind: all}}\nbackend: {{kind: toy, cache: false}}\n"
                      f"question: {{kind: toy-llm, prompt: {toy}, demonstrations: 2}}\n", encoding="utf-8")
    out = tmp_path / "run"
    assert main(["predict", "--system", str(system), "--data-dir", str(DEMO), "--split", "test", "--task", "st1",
                 "--train-split", "train", "-o", str(out), "--no-progress"]) == 0
    sub = json.loads((out / "submission.json").read_text(encoding="utf-8"))
    assert {x["prediction"] if "prediction" in x else x["question"] for x in sub} == {"What did the toy model ask?"}
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    described = run["system"]["question"]
    assert described["kind"] == "llm" and described["demonstrations"] == 2 and described["demonstration_pool"] > 2
    assert described["max_tokens"] == 30 and described["prompt"] == "toy_question"


def test_the_base_never_shows_a_case_itself_and_records_why_it_fell_back(toy):
    from archehr.data.releases import load_split

    train = load_split(DEMO, "train")
    backend = ToyBackend()
    writer = ToyQuestionWriter(backend, prompt=str(toy), demonstrations=3)
    writer.prepare(train)
    case = next(c for c in train.cases if c.clinician_question)
    assert case.question_text not in "".join(t for c, t in writer.pool.nearest(case) if c is not case)
    assert all(c.case_id != case.case_id for c, _ in writer.pool.nearest(case))
    backend.down = True
    got = writer.write(case)
    assert got.fallback == "template: backend error: the toy server is down" and got.text


def test_the_base_fits_the_prompt_to_a_small_window_dropping_demonstrations_first(toy):
    from archehr.data.releases import load_split

    train = load_split(DEMO, "train")
    case = next(c for c in train.cases if c.clinician_question)
    roomy = ToyQuestionWriter(ToyBackend(window=100_000), prompt=str(toy), demonstrations=3)
    roomy.prepare(train)
    full = roomy.prompt(case)
    alone = roomy.prompt(case, shown=0)
    from archehr.llm.base import estimate_tokens

    # room for the prompt without demonstrations and the reply, not for one demonstration more
    tight = ToyQuestionWriter(ToyBackend(window=estimate_tokens(alone) + 30 + 1), prompt=str(toy), demonstrations=3)
    tight.prepare(train)
    got = tight.write(case)
    assert tight.backend.prompts == [alone] and full != alone
    assert any("0 of 3 demonstrations" in n for n in got.notes), got.notes
    tiny = ToyQuestionWriter(ToyBackend(window=estimate_tokens(alone)), prompt=str(toy), demonstrations=3)
    assert "window" in (tiny.write(case).fallback or "")
