"""A system = selector + generator (+ LLM backend) + parameters, read from `configs/systems/*.yaml`.

    name: trained-extractive
    selector: {kind: default}              # default | all | classifier (+ classifier:, params:) | llm
    generator: {name: extractive, params: {}}
    backend: {name: openai, params: {...}, cache: true}   # for selector llm, generator llm, question llm, align llm
    question: {method: template}           # st1: template | llm
    align: {method: learned}               # st4: similarity | learned | llm (+ fallback: {...})

`load_system(name_or_path)` accepts a built-in name (found in a checkout and when installed) or a
YAML path. `System.predict(case, task)` returns the official prediction of one case for one task.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from archehr.configs import configs_dir
from archehr.data.model import Case, Split
from archehr.errors import ConfigError, DataError, InputError, Problem
from archehr.generate.answer import Answer
from archehr.relevance.base import Selection, SentenceScores

DEFAULT_SYSTEM = "trained-extractive"
# A system name becomes a folder name (`runs/<name>-<split>-<task>`): no separator, no leading dot, no "..".
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,99}")
_SECTIONS = {"name", "description", "selector", "generator", "backend", "question", "align", "seed"}


@dataclass(frozen=True)
class SystemConfig:
    name: str
    source: str
    selector: dict[str, Any]
    generator: dict[str, Any]
    backend: dict[str, Any] | None = None
    question: dict[str, Any] = field(default_factory=dict)
    align: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    description: str = ""
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(json.dumps(self.raw, sort_keys=True, default=str).encode()).hexdigest()


def safe_name(text: str) -> str:
    """`text` as one plain folder-name component (the default run folder is built from names)."""
    return re.sub(r"[^A-Za-z0-9._+-]+", "-", text).lstrip("._+-")[:100] or "unnamed"


def builtin_systems() -> list[str]:
    return sorted(p.stem for p in (configs_dir() / "systems").glob("*.yaml"))


def find_system_file(name_or_path: str) -> Path:
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or p.is_file():
        if not p.is_file():
            raise ConfigError(Problem("system config file not found", str(p), code="missing-file"))
        return p
    builtin = configs_dir() / "systems" / f"{name_or_path}.yaml"
    if builtin.is_file():
        return builtin
    import difflib

    names = builtin_systems()
    close = difflib.get_close_matches(name_or_path, names, n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    raise ConfigError(f"unknown system {name_or_path!r}{hint} (built-in: {', '.join(names)}; or give a YAML path)")


def parse_system(raw: Any, source: str) -> SystemConfig:
    import yaml  # noqa: F401 - imported by the caller; kept for symmetry of errors

    problems: list[Problem] = []
    if not isinstance(raw, dict):
        raise ConfigError(Problem("a system config is a YAML mapping", source))
    for k in raw:
        if k not in _SECTIONS:
            problems.append(Problem(f"unknown key {k!r} (known: {', '.join(sorted(_SECTIONS))})", source, field=k))
    sel = raw.get("selector", {"kind": "default"})
    gen = raw.get("generator", {"name": "extractive"})
    if isinstance(gen, str):
        gen = {"name": gen}
    for name, section in (("selector", sel), ("generator", gen), ("question", raw.get("question", {})),
                          ("align", raw.get("align", {}))):
        if not isinstance(section, dict):
            problems.append(Problem("must be a mapping", source, field=name))
    backend = raw.get("backend")
    if backend is not None and not (isinstance(backend, dict) and "name" in backend):
        problems.append(Problem("must be a mapping with a name", source, field="backend"))
    if isinstance(sel, dict) and sel.get("kind", "default") not in ("default", "all", "classifier", "llm"):
        problems.append(Problem(f"kind must be default, all, classifier or llm, not {sel.get('kind')!r}", source,
                                field="selector.kind"))
    name = raw.get("name") or safe_name(Path(source).stem)
    if not isinstance(name, str) or not _SAFE_NAME.fullmatch(name):
        problems.append(Problem(f"name {name!r} is not a plain name (letters, digits, '.', '_', '+', '-'; no "
                                "path): it names the default output folder", source, field="name"))
    seed = raw.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        problems.append(Problem(f"seed must be an integer, got {seed!r}", source, field="seed"))
    if problems:
        raise ConfigError(problems)
    return SystemConfig(name=name, source=source, selector=dict(sel),
                        generator=dict(gen), backend=dict(backend) if backend else None,
                        question=dict(raw.get("question") or {}), align=dict(raw.get("align") or {}),
                        seed=seed, description=str(raw.get("description", "")), raw=raw)


def load_config(name_or_path: str | None = None) -> SystemConfig:
    import yaml

    from archehr.data.json_io import nesting_problem, read_text

    path = find_system_file(name_or_path or DEFAULT_SYSTEM)
    try:
        text = read_text(path)
    except DataError as e:
        raise ConfigError(e.problems) from None
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ConfigError(yaml_problem(e, str(path))) from None
    except RecursionError:
        raw, why = None, f"nested more than {MAX_CONFIG_DEPTH} levels deep"
    else:
        why = nesting_problem(raw, MAX_CONFIG_DEPTH, max_nodes=10_000) if isinstance(raw, (dict, list)) else None
    if why:
        raise ConfigError(Problem(f"system config {why}", str(path), code="config-size"))
    return parse_system(raw, str(path))


MAX_CONFIG_DEPTH = 16


def yaml_problem(e: Exception, source: str) -> Problem:
    """A PyYAML error (several lines with a caret drawing) as one line with its line and column."""
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    problem, context = getattr(e, "problem", None), getattr(e, "context", None)
    what = str(problem or str(e).splitlines()[0])
    where = "; ".join(x for x in (str(context) if context else "", f"column {mark.column + 1}" if mark else "") if x)
    return Problem(f"not valid YAML: {what}" + (f" ({where})" if where else ""), source,
                   line=None if mark is None else mark.line + 1, code="yaml-syntax")


def load_system(name_or_path: str | None = None, cache_dir: str | Path | None = None) -> System:
    return System(load_config(name_or_path), cache_dir=cache_dir)


@dataclass(frozen=True)
class Evidence:
    """The evidence of one case and how it was obtained (a fallback and repairs go to run.json)."""

    selection: Selection
    scores: SentenceScores | None
    fallback: str | None = None
    notes: tuple[str, ...] = ()


class _CiteAll:
    """Cites every note sentence: the reference floor of the 2025 factuality metrics."""

    def evidence(self, case: Case) -> Evidence:
        return Evidence(Selection(case.case_id, case.sentence_ids, 1.0), None)

    def describe(self) -> dict[str, Any]:
        return {"kind": "all"}


class _Relevance:
    """The relevance package's classifier + calibrated selector.

    kind default: a trained model file (`model: auto | lexical | embedding | PATH`) with its own
    calibrated selector, `overrides` changing selector settings; kind classifier: any registered
    classifier (`classifier`, `params`) with `selector` settings.
    """

    def __init__(self, cfg: dict[str, Any]):
        self.cfg = cfg
        kind = cfg.get("kind", "default")
        if kind == "default":
            from archehr.relevance.registry import load_selector

            self.ev = load_selector(cfg.get("model", "auto"), **cfg.get("overrides", {}))
        else:
            from archehr.relevance.registry import selector_for

            if "classifier" not in cfg:
                raise ConfigError(Problem("selector kind classifier needs a classifier name", field="selector"))
            self.ev = selector_for(cfg["classifier"], cfg.get("params", {}), cfg.get("selector"))

    def evidence(self, case: Case) -> Evidence:
        scores = self.ev.scores(case)
        return Evidence(self.ev.selector.select(scores), scores)

    def describe(self) -> dict[str, Any]:
        clf = self.ev.classifier
        return {"kind": self.cfg.get("kind", "default"), "classifier": getattr(clf, "name", type(clf).__name__),
                "model_file": self.ev.source, "selector": self.ev.selector.to_dict()}


class _LLMEvidence:
    """Evidence by the model: `relevance.llm` votes over n samples, optionally averaged with a trained model.

    `fallback_model` (a shipped model name or file) scores a case whose replies cannot be read or whose
    backend failed, with that model's own calibrated selector; `ensemble_weight` w > 0 takes
    (1 - w) * P(model) + w * P(trained) for every case. The LLM votes are cited by `selector`
    (default: P(essential) >= 0.5, no top-k floor beyond one sentence, so a faithful model's ids pass unchanged).
    """

    _KEYS = {"kind", "n", "temperature", "seed", "max_tokens", "prompt", "demonstrations", "structured",
             "fallback_model", "ensemble_weight", "selector"}

    def __init__(self, cfg: dict[str, Any], backend: Any, seed: int):
        from archehr.relevance.llm import LLMClassifier
        from archehr.relevance.registry import load_selector
        from archehr.relevance.selector import Selector

        unknown = sorted(set(cfg) - self._KEYS)
        if unknown:
            raise ConfigError(Problem(f"unknown selector setting(s) {', '.join(unknown)} for kind llm (known: "
                                      f"{', '.join(sorted(self._KEYS - {'kind'}))})", field="selector"))
        self.cfg = cfg
        self.trained = load_selector(cfg.get("fallback_model", "auto"))
        self.weight = float(cfg.get("ensemble_weight", 0.0))
        if not 0.0 <= self.weight <= 1.0:
            raise ConfigError(Problem(f"must be within [0, 1], not {self.weight}", field="selector.ensemble_weight"))
        self.selector = Selector.from_dict(cfg.get("selector") or {})
        self.clf = LLMClassifier(backend, n=int(cfg.get("n", 5)), temperature=float(cfg.get("temperature", 0.7)),
                                 seed=int(cfg.get("seed", seed)), max_tokens=int(cfg.get("max_tokens", 256)),
                                 fallback=self.trained.classifier, prompt=str(cfg.get("prompt", "evidence_v1")),
                                 demonstrations=int(cfg.get("demonstrations", 0)),
                                 structured=bool(cfg.get("structured", False)))

    def prepare(self, train: Split | None) -> None:
        self.clf.prepare(train)

    def evidence(self, case: Case) -> Evidence:
        got = self.clf.score_detailed(case)
        if got.fallback is not None:  # the trained model scored it: its own calibrated selector cites
            return Evidence(self.trained.selector.select(got.scores), got.scores, got.fallback, got.notes)
        scores = got.scores
        if self.weight > 0:
            t = self.trained.classifier.score(case)
            w = self.weight

            def mix(mine: tuple[float, ...], theirs: tuple[float, ...]) -> tuple[float, ...]:
                return tuple((1 - w) * a + w * b for a, b in zip(mine, theirs, strict=True))

            scores = SentenceScores(case.case_id, scores.sentence_ids, mix(scores.essential, t.essential),
                                    mix(scores.supplementary, t.supplementary))
        return Evidence(self.selector.select(scores), scores, None, got.notes)

    def trained_evidence(self, case: Case) -> Evidence:
        scores = self.trained.classifier.score(case)
        return Evidence(self.trained.selector.select(scores), scores)

    def describe(self) -> dict[str, Any]:
        return {"kind": "llm", "classifier": self.clf.describe(), "ensemble_weight": self.weight,
                "selector": self.selector.to_dict(), "model_file": self.trained.source}


def join_fallbacks(evidence: str | None, answer: str | None) -> str | None:
    """One case's fallback reason: the evidence step's, then the generator's.

    Both steps share one backend, so when it refused both for the same reason (an open circuit breaker
    words every refusal alike) the generator's part says so instead of repeating it.
    """
    _, sep, error = (evidence or "").partition("backend error: ")
    if sep and error and answer and error in answer:
        answer = answer.replace(error, "the same as the evidence step's")
    return "; ".join(x for x in (evidence, answer) if x) or None


@dataclass
class CasePrediction:
    case_id: str
    prediction: Any  # the official value for the task
    fallback: str | None = None
    notes: tuple[str, ...] = ()
    cited: tuple[str, ...] = ()
    flagged: bool = False  # the selector's low-confidence flag: worth a human look


class System:
    """A loaded system. Heavy parts (models, backends) load on first use, once per process."""

    def __init__(self, config: SystemConfig, cache_dir: str | Path | None = None):
        self.config = config
        self.cache_dir = cache_dir
        sel = config.selector
        self._backend = None
        self.evidence: Any
        if sel.get("kind") == "all":
            self.evidence = _CiteAll()
        elif sel.get("kind") == "llm":
            self.evidence = _LLMEvidence(sel, self.backend(), config.seed)
        else:
            self.evidence = _Relevance(sel)
        gen = config.generator
        params = dict(gen.get("params", {}))
        if gen["name"] == "llm":
            params.setdefault("seed", config.seed)
            params["backend"] = self.backend()
        from archehr.generate.registry import build_generator

        self.generator = build_generator(gen["name"], **params)
        self._question = None
        self._aligner = None

    def backend(self) -> Any:
        if self._backend is None:
            if self.config.backend is None:
                raise ConfigError(Problem("this system needs a backend section (name, params)", self.config.source,
                                          field="backend"))
            from archehr.llm.registry import build_backend

            b = self.config.backend
            cache = None
            if b.get("cache", True):
                cache = Path(self.cache_dir) if self.cache_dir else Path(".archehr-cache") / "llm"
            self._backend = build_backend(b["name"], cache_dir=cache, **b.get("params", {}))
        return self._backend

    def start(self) -> None:
        """Meet the LLM server before the first case (its served model); ConfigError when the config cannot
        work with it. Nothing to do for a system without a backend section."""
        if self.config.backend is not None and self.wants_training_split():
            start = getattr(self.backend(), "start", None)
            if callable(start):
                start()

    def prepare(self, train: Split | None) -> None:
        """Use a labelled training split: demonstrations for the LLM parts (the learned st4 aligner is pre-trained)."""
        for part in (self.generator, self.evidence, self.question_model() if self._uses_llm_question() else None,
                     self.aligner() if self.config.align.get("method") == "llm" else None):
            prep = getattr(part, "prepare", None)
            if callable(prep):
                prep(train)

    def uses_model(self, task: str) -> bool:
        """Whether the LLM answers this task (so the share of cases it answered is worth measuring)."""
        return {"st1": self._uses_llm_question(), "st2": self.config.selector.get("kind") == "llm",
                "st4": self.config.align.get("method") == "llm"}.get(
                    task, self.config.generator.get("name") == "llm" or self.config.selector.get("kind") == "llm")

    def wants_training_split(self) -> bool:
        """Whether `prepare` uses a labelled split (demonstrations of an LLM part)."""
        return (self.config.generator.get("name") == "llm" or self.config.selector.get("kind") == "llm"
                or self._uses_llm_question() or self.config.align.get("method") == "llm")

    def _uses_llm_question(self) -> bool:
        return self.config.question.get("method") == "llm"

    def evidence_for(self, case: Case) -> Evidence:
        if not case.sentences:
            raise InputError(Problem("the case has no note sentences", case_id=case.case_id,
                                     field="note_excerpt_sentences", code="no-sentences"))
        return self.evidence.evidence(case)

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

    def question_model(self) -> Any:
        if self._question is None:
            from archehr.question import build_question_writer

            q = self.config.question
            backend = self.backend() if self._uses_llm_question() else None
            self._question = build_question_writer(q.get("method", "template"), backend=backend,
                                                   **q.get("params", {}))
        return self._question

    def aligner(self) -> Any:
        if self._aligner is None:
            from archehr.align import build_aligner

            a = self.config.align
            self._aligner = build_aligner(a, backend=self.backend() if a.get("method") == "llm" else None,
                                          seed=self.config.seed)
        return self._aligner

    def predict(self, case: Case, task: str, split: Split | None = None) -> CasePrediction:
        return PREDICTORS[check_task(task)](self, case, split)

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
        trained = getattr(self.evidence, "trained_evidence", None)
        ev = trained(case) if callable(trained) else self.evidence_for(case)
        aligner = self.aligner()
        detailed = getattr(aligner, "align_detailed", None)
        if callable(detailed):
            got = detailed(case, key.clinician_answer_sentences, ev.scores, ev.selection)
            return CasePrediction(case.case_id, got.links, got.fallback, got.notes, cited=ev.selection.cited,
                                  flagged=ev.selection.flagged)
        links = aligner.align(case, key.clinician_answer_sentences, ev.scores, ev.selection)
        return CasePrediction(case.case_id, links, cited=ev.selection.cited, flagged=ev.selection.flagged)

    def predict_answer(self, case: Case, split: Split | None, cited: bool = True) -> CasePrediction:
        """The answer with its citations (2025 format) or, `cited=False`, its plain text (st3)."""
        ev = self.evidence_for(case)
        answer = self._answer(case, ev)
        value = answer.render() if cited else answer.text_without_citations()
        return CasePrediction(case.case_id, value, answer.fallback, answer.notes, answer.cited_ids,
                              flagged=ev.selection.flagged)

    def describe(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.config.name, "source": self.config.source,
                             "config_sha256": self.config.sha256, "config": self.config.raw,
                             "selector": self.evidence.describe(), "generator": self.generator.describe()}
        # every prompt the model is asked, by name and hash (the selector and generator describe theirs)
        if self._uses_llm_question():
            d["question"] = self.question_model().describe()
        if self.config.align.get("method") == "llm":
            d["align"] = self.aligner().describe()
        if self._backend is not None:
            d["backend"] = self._backend.describe()
        return d


# How a system produces each task's prediction (the tasks themselves are declared in archehr_scoring.tasks).
PREDICTORS: dict[str, Callable[[System, Case, Split | None], CasePrediction]] = {
    "2025": System.predict_answer,
    "st1": System.predict_question,
    "st2": System.predict_evidence,
    "st3": lambda system, case, split: system.predict_answer(case, split, cited=False),
    "st4": System.predict_links,
}
TASKS = tuple(PREDICTORS)


def check_task(task: str) -> str:
    """A task this package's systems can predict (ConfigError naming them otherwise)."""
    if task not in PREDICTORS:
        raise ConfigError(Problem(f"unknown task {task!r}; systems predict {', '.join(TASKS)}", field="--task",
                                  code="option"))
    return task
