"""The API's request and response types (pydantic): what /openapi.json describes."""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, Literal, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, create_model

from archehr.errors import Problem

# A note is a clinical note, not a book: larger requests are refused with 413 before they are answered.
MAX_NOTE_BYTES = 200 * 1024
MAX_QUESTION_BYTES = 8 * 1024
MAX_SUBMISSION_BYTES = 20 * 1024 * 1024


def _problem_fields() -> dict[str, Any]:
    """The fields of `errors.Problem` as pydantic fields: the API's problem follows the dataclass."""
    hints = get_type_hints(Problem)
    return {f.name: (hints[f.name], ... if f.default is MISSING else f.default) for f in fields(Problem)}


ProblemOut = create_model("ProblemOut", __doc__="One problem, as the CLI prints it (`text`) and its parts.",
                          text=(str, Field(description="The CLI's one line, e.g. 'error: field note: the note is "
                                                       "empty'")), **_problem_fields())


class ErrorResponse(BaseModel):
    problems: list[ProblemOut]


class Request(BaseModel):
    """A request body: an unknown field is refused (a misspelt option never silently does nothing)."""

    model_config = ConfigDict(extra="forbid")


class AnswerRequest(Request):
    note: str = Field(description="The clinical note as plain text (at most 200 KB of UTF-8).")
    question: str = Field(description="The patient's question.")
    narrative: str | None = Field(None, description="The patient's whole message, when there is more than the "
                                                    "question.")
    splitter: Literal["auto", "spacy", "rules"] = Field("auto", description="How the note is cut into sentences: "
                                                        "auto (spaCy when installed, else rules), spacy, rules.")


class Line(BaseModel):
    text: str
    citations: list[str]


class Sentence(BaseModel):
    id: str
    paragraph_id: int
    start: int = Field(description="Character offset in the note: note[start:end] == text.")
    end: int
    kind: str = Field(description="Which splitting rule made it: header | list | lab | field | text.")
    text: str
    cited: bool
    cited_as: Literal["essential", "supplementary"] | None = Field(
        None, description="How the selector labelled a cited sentence (None when not cited or not scored).")
    related: bool = Field(False, description="With an abstention: one of the closest sentences, offered as "
                                             "related, not as an answer.")


class AnswerResponse(BaseModel):
    question: str
    answer: str = Field(description="The official 2025 form: one sentence per line, |ids| at the end.")
    answer_without_citations: str
    lines: list[Line]
    cited_ids: list[str]
    sentences: list[Sentence] = Field(description="Every note sentence, numbered, in note order.")
    confidence: float = Field(description="Calibrated P(the note answers the question), in [0, 1].")
    needs_review: bool = Field(description="Answered with confidence below the review level: have a clinician "
                                           "check it.")
    abstained: bool = Field(False, description="The note does not say: no answer, no citation; the closest "
                                               "sentences are marked related.")
    related_ids: list[str] = Field([], description="With an abstention: the sentences about the question (not "
                                                   "citations), or none.")
    related_note: str = Field("", description="With an abstention and no related sentence: the line saying so "
                                              "(\"no sentence in the note is about ...\").")
    evidence_confidence: float | None = Field(None, description="The evidence selector's own confidence.")
    system: str
    splitter: str = Field(description="The sentence split the answer was built on.")
    fallback: str | None = Field(None, description="Which parts of an LLM system fell back (and why).")
    notes: list[str] = []
    seconds: float = Field(description="Time spent answering, on the server.")


class ScoreRequest(Request):
    submission: Any = Field(description="The submission JSON itself (a list of cases), as written by `predict`.")
    key: str = Field(description="A split of the server's release that has a key (see GET /api/runs).")
    task: str | None = Field(None, description="2025 | st1 | st2 | st3 | st4 (default: detected from the "
                                               "submission's shape).")
    metrics: list[str] | None = Field(None, description="Metrics to run (default: the task's official set; those "
                                                        "that cannot run here are listed as unavailable).")


class ScoreResponse(BaseModel):
    task: str
    key: str
    n_cases: int
    scores: dict[str, float | None]
    per_case: dict[str, dict[str, float | None]] = Field(description="case id -> that case's scores (the "
                                                                     "scorer's per-case rows aggregated alone).")
    unavailable: dict[str, str] = Field(description="metric -> why it could not run here.")
    warnings: list[str]


class SplitInfo(BaseModel):
    name: str
    n_cases: int | None
    has_key: bool


class RunInfo(BaseModel):
    id: int
    name: str
    task: str | None
    split: str | None
    system: str
    commit: str
    provenance_url: str | None = Field(None, description="The run's run.json, when it has one.")
    problems: list[str]


class RunsResponse(BaseModel):
    release: str
    splits: list[SplitInfo]
    runs: list[RunInfo]


class Health(BaseModel):
    status: Literal["ok"]
    ready: bool = Field(description="The system and the sentence splitter are loaded (first answers are fast).")
    system: str
