"""A system composed from a config (`configs/systems/*.yaml`, read by `archehr.system_config`).

Each section names a registered component (`{kind: NAME, ...its options}`); `System` builds what the
registries return, giving the system's LLM backend to a component that takes `backend` and the
system's seed to one that takes `seed`. `load_system(name_or_path)` accepts a built-in name (found in a
checkout and when installed) or a YAML path. `System.predict(case, task)` returns the official
prediction of one case for one task.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from archehr.components import AlignStep, Prepares, QuestionWriter
from archehr.data.model import Case, Split
from archehr.errors import ConfigError, InputError, Problem
from archehr.generate.answer import Answer
from archehr.generate.base import Generator
from archehr.registry import Registry
from archehr.relevance.base import Selection, SentenceScores
from archehr.relevance.evidence import Evidence, EvidenceStep
from archehr.system_config import SystemConfig, load_config, registry
from archehr_scoring.tasks import TASKS, Task, get_task, predicted_tasks

if TYPE_CHECKING:
    from archehr.llm.base import Backend


def load_system(name_or_path: str | None = None, cache_dir: str | Path | None = None) -> System:
    return System(load_config(name_or_path), cache_dir=cache_dir)


def join_fallbacks(evidence: str | None, answer: str | None) -> str | None:
    """One case's fallback reason: the evidence step's, then the generator's.

    Both steps share one backend, so when it refused both for the same reason (an open circuit breaker
    words every refusal alike) the generator's part says so instead of repeating it.
    """
    _, sep, error = (evidence or "").partition("backend error: ")
    if sep and error and answer and error in answer:
        answer = answer.replace(error, "the same as the evidence step's")
    return "; ".join(x for x in (evidence, answer) if x) or None


def _with_sentences(case: Case) -> Case:
    if not case.sentences:
        raise InputError(Problem("the case has no note sentences", case_id=case.case_id,
                                 field="note_excerpt_sentences", code="no-sentences"))
    return case


@dataclass
class CasePrediction:
    case_id: str
    prediction: Any  # the official value for the task
    fallback: str | None = None
    notes: tuple[str, ...] = ()
    cited: tuple[str, ...] = ()
    flagged: bool = False  # the selector's low-confidence flag: worth a human look


@dataclass(frozen=True)
class LLMStats:
    """What the system's LLM backend counted over a run, for run.json: its on-disk cache's folder and lookups
    (`{"dir": Path, "hits": int, "misses": int}`; None without a cache) and its transport report (retries,
    circuit breaker, refused options; None if empty)."""

    cache: dict[str, Any] | None = None
    transport: dict[str, Any] | None = None


# The sections whose parts make each system output (the answers: the generator and the evidence it cites).
_OUTPUT_SECTIONS = {"question": ("question",), "evidence": ("selector",), "links": ("align",)}


class System:
    """A loaded system. Heavy parts (models, backends) load on first use, once per process."""

    def __init__(self, config: SystemConfig, cache_dir: str | Path | None = None):
        self.config = config
        self.cache_dir = cache_dir
        self._backend: Backend | None = None
        self._parts: dict[str, Any] = {}
        self.evidence: EvidenceStep = self.part("selector")
        self.generator: Generator = self.part("generator")

    def _takes_backend(self, section: str) -> bool:
        spec = self.config.spec(section)
        return spec is not None and registry(section).takes(spec["kind"], "backend")

    def part(self, section: str) -> Any:
        """The component of a config section, built on first use from the registry that section names."""
        if section not in self._parts:
            spec = dict(self.config.spec(section) or {})
            kind = spec.pop("kind")
            reg = registry(section)
            if reg.takes(kind, "backend"):
                spec["backend"] = self.backend()
            if reg.takes(kind, "seed"):
                spec.setdefault("seed", self.config.seed)
            self._parts[section] = reg.build(kind, **spec)
        return self._parts[section]

    def backend(self) -> Backend:
        if self._backend is None:
            if self.config.backend is None:
                raise ConfigError(Problem("this system needs a backend section (kind and options)",
                                          self.config.source, field="backend"))
            from archehr.llm.registry import build_backend

            options = dict(self.config.backend)
            kind, use_cache = options.pop("kind"), options.pop("cache", True)
            cache = None
            if use_cache:
                cache = Path(self.cache_dir) if self.cache_dir else Path(".archehr-cache") / "llm"
            self._backend = build_backend(kind, cache_dir=cache, **options)
        return self._backend

    def start(self) -> None:
        """Meet the LLM server before the first case (its served model); ConfigError when the config cannot
        work with it. Nothing to do for a system without a backend section."""
        if self.config.backend is not None and self.wants_training_split():
            self.backend().start()

    def llm_stats(self) -> LLMStats:
        """The backend's statistics (empty when no backend was built: an offline system, or none used)."""
        if self._backend is None:
            return LLMStats()
        from archehr.llm.cache import CachedBackend

        b = self._backend
        cache = {"dir": b.dir, "hits": b.hits, "misses": b.misses} if isinstance(b, CachedBackend) else None
        return LLMStats(cache, b.report() or None)

    def prepare(self, train: Split | None) -> None:
        """Give a labelled training split to the parts that use one: the parts taking the LLM backend (their
        demonstrations; `archehr.components.Prepares`)."""
        for section in ("generator", "selector", "question", "align"):
            if self._takes_backend(section):
                part: Prepares = self.part(section)
                part.prepare(train)

    def uses_model(self, task: str) -> bool:
        """Whether the LLM answers this task (so the share of cases it answered is worth measuring): whether a
        part that makes the task's prediction takes the backend."""
        sections = _OUTPUT_SECTIONS.get(predicted_task(task).output, ("generator", "selector"))
        return any(self._takes_backend(s) for s in sections)

    def wants_training_split(self) -> bool:
        """Whether `prepare` uses a labelled split: the parts that take the LLM backend take demonstrations."""
        return any(self._takes_backend(s) for s in ("generator", "selector", "question", "align"))

    def evidence_for(self, case: Case) -> Evidence:
        return self.evidence.evidence(_with_sentences(case))

    def select(self, case: Case) -> tuple[Selection, SentenceScores | None]:
        ev = self.evidence_for(case)
        return ev.selection, ev.scores

    def answer(self, case: Case) -> tuple[Answer, Selection]:
        ans, ev = self.answer_with_evidence(case)
        return ans, ev.selection

    def answer_with_evidence(self, case: Case) -> tuple[Answer, Evidence]:
        """The answer and the evidence it was built on (selection and per-sentence scores, when any)."""
        ev = self.evidence_for(case)
        return self._answer(case, ev), ev

    def _answer(self, case: Case, ev: Evidence) -> Answer:
        answer = self.generator.generate(case, ev.selection, ev.scores)
        if ev.fallback is None and not ev.notes:
            return answer
        import dataclasses

        return dataclasses.replace(answer, fallback=join_fallbacks(ev.fallback, answer.fallback),
                                   notes=ev.notes + answer.notes)

    def question_model(self) -> QuestionWriter:
        return self.part("question")

    def aligner(self) -> AlignStep:
        return self.part("align")

    def predict(self, case: Case, task: str, split: Split | None = None) -> CasePrediction:
        """The official prediction of one case for `task`: the system output the task names."""
        return OUTPUTS.get(predicted_task(task).output)(self, case, split)

    def predict_question(self, case: Case, split: Split | None) -> CasePrediction:
        q = self.question_model().write(case)
        return CasePrediction(case.case_id, q.text, q.fallback, q.notes)

    def predict_evidence(self, case: Case, split: Split | None) -> CasePrediction:
        ev = self.evidence_for(case)
        return CasePrediction(case.case_id, list(ev.selection.cited), ev.fallback, ev.notes,
                              cited=ev.selection.cited, flagged=ev.selection.flagged)

    def predict_links(self, case: Case, split: Split | None) -> CasePrediction:
        key = split.key_for(case.case_id) if split is not None and split.key is not None and \
            case.case_id in {k.case_id for k in split.key} else None
        if key is None or key.clinician_answer_sentences is None:
            raise InputError(Problem("subtask 4 needs the clinician answer sentences (clinician_answer_sentences"
                                     " in the key file), which this split does not give", case_id=case.case_id,
                                     code="missing-answers"))
        # the learned aligner (or the LLM aligner's fallback) was fitted on the trained selector's
        # probabilities: it gets those, not the LLM's votes, and st4 never pays for evidence prompts
        ev = self.evidence.trained_evidence(_with_sentences(case))
        got = self.aligner().align_detailed(case, key.clinician_answer_sentences, ev.scores, ev.selection)
        return CasePrediction(case.case_id, got.links, got.fallback, got.notes, cited=ev.selection.cited,
                              flagged=ev.selection.flagged)

    def predict_answer(self, case: Case, split: Split | None, cited: bool = True) -> CasePrediction:
        """The answer with its citations (2025 format) or, `cited=False`, its plain text (st3)."""
        ev = self.evidence_for(case)
        answer = self._answer(case, ev)
        value = answer.render() if cited else answer.text_without_citations()
        return CasePrediction(case.case_id, value, answer.fallback, answer.notes, answer.cited_ids,
                              flagged=ev.selection.flagged)

    def describe(self) -> dict[str, Any]:
        """The system for run.json: its resolved config (every option with its default) and each part's
        `describe()`, what is known only once built (model files, resolved settings, prompts and their hashes)."""
        d: dict[str, Any] = {"name": self.config.name, "source": self.config.source,
                             "config_sha256": self.config.sha256, "config": self.config.resolved,
                             "selector": self.evidence.describe(), "generator": self.generator.describe()}
        # every prompt the model is asked, by name and hash (the selector and generator describe theirs)
        for section in ("question", "align"):
            if self._takes_backend(section):
                d[section] = self.part(section).describe()
        if self._backend is not None:
            d["backend"] = self._backend.describe()
        return d


def _predict_answer_text(system: System, case: Case, split: Split | None) -> CasePrediction:
    return system.predict_answer(case, split, cited=False)


# What a system can produce for a task: a task names one as its `output` (archehr_scoring.tasks); a new
# task whose output is new registers it here (tests/test_task_registry.py does, for its toy task).
OUTPUTS: Registry[Callable[[System, Case, Split | None], CasePrediction]] = Registry("system output")
OUTPUTS.add("cited_answer", System.predict_answer)
OUTPUTS.add("question", System.predict_question)
OUTPUTS.add("evidence", System.predict_evidence)
OUTPUTS.add("answer_text", _predict_answer_text)
OUTPUTS.add("links", System.predict_links)


def predicted_task(name: str) -> Task:
    """The task `name` (archehr_scoring.tasks), which systems must be able to predict (ConfigError otherwise)."""
    task = get_task(name)
    if not task.output or task.output not in OUTPUTS:
        can = [t for t in predicted_tasks() if TASKS.get(t).output in OUTPUTS]
        raise ConfigError(Problem(f"systems do not predict task {name!r} (they predict {', '.join(can)})",
                                  field="--task", code="option"))
    return task
