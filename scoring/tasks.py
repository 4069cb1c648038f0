"""Every task (the 2025 edition, the 2026 subtasks st1..st4, and any added later) defined once, as a `Task`.

A task says what its submission looks like (a detector and a handler that validates and reads it), which
metrics it runs and against which references, how per-case statistics become its official keys (the
aggregator, see `archehr_scoring.stats`), which overall scores may be shown as partial means, and what a
leaderboard shows. The scoring pipeline (`archehr_scoring.api`), validation, packaging, the leaderboard and
the CLI ask this registry instead of comparing task names.

Code is named lazily, as "module:attribute" strings resolved on first use (or given as the object
itself), so importing this module imports no task code and registers nothing as a side effect. A new
task is one `add_task(Task(...))` (see docs/architecture.md and tests/test_task_registry.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from archehr.errors import ConfigError, Problem, SubmissionError
from archehr.registry import Registry, resolve
from archehr_scoring.aggregation import Mean, MeanOf, Same, prf_rules
from archehr_scoring.answer_format import MAX_WORDS

Hook = str | Callable[..., Any] | Any  # "package.module:attribute", or the object itself

OVERALL_KEY = "overall_score"


@dataclass(frozen=True)
class PartialRule:
    """When official `key` is null, show the mean of the `parts` that have a value, marked as partial.

    `all_parts`: every part needs a value (official or itself partial), else nothing is shown.
    """

    key: str
    parts: tuple[str, ...]
    all_parts: bool = False


@dataclass(frozen=True)
class Task:
    """One task: what a submission is, how it is scored, what is reported."""

    name: str
    edition: str
    title: str
    keys: tuple[str, ...]  # official output keys, in the official scripts' order
    # An object with validate(task name, Inputs) -> (errors, warnings) and prepare(task name, Inputs) -> Prepared
    # (SubmissionError / DataError listing every problem of an invalid submission or reference)
    handler: Hook
    # How each official key is aggregated: (key, rule) pairs in dependency order (archehr_scoring.aggregation:
    # Mean, MacroPRF, MicroPRF, MeanOf, Same), evaluated over a Batch (see archehr_scoring.stats) ...
    aggregation: tuple[tuple[str, Any], ...] = ()
    # ... or a hand-written (Batch, AggregationContext) -> {key: array of shape (samples,) or None}
    aggregator: Hook | None = None
    # obj -> task name or None: claims a parsed submission's shape (may raise SubmissionError when ambiguous)
    detector: Hook | None = None
    shape: str = "{case_id, prediction}"  # what a submission item holds, for messages
    metrics: tuple[str, ...] = ()  # metrics it runs (default set, official order)
    own_metrics: tuple[str, ...] = ()  # those computed by the handler, not the metric registry (e.g. factuality)
    references: tuple[str, ...] = ()  # what the text metrics compare with; several = a --reference choice
    word_limit: int | None = None
    partial: tuple[PartialRule, ...] = ()
    upload_zip: bool = False  # `archehr package` builds its upload zip (submission.json at the root)
    case_ids_option: bool = False  # --case-ids restricts the scored cases (the 2026 scripts' option)
    cites_note_ids: bool = False  # predictions cite note sentence ids (warn when the notes are absent)
    rank_fallbacks: tuple[str, ...] = ()  # rank by these when the overall score cannot be computed here
    headline: tuple[str, ...] = ()  # columns of the Markdown leaderboard (empty = every key)
    case_keys: tuple[str, str, str] = ("rougeLsum", "", "")  # per-case chart: score, precision, recall
    prediction: str = ""  # the prediction's kind (system side and HTML report): answer | text | ids | links | ""
    # what a system predicts for it (lm-eval's output_type): a system output registered in
    # `archehr.pipeline.OUTPUTS` ("" = systems do not predict this task)
    output: str = ""
    # (task name, {case_id: prediction}, path, note ids per case) -> warnings: writes the official file,
    # raising SubmissionError (nothing written) for an invalid one
    writer: Hook | None = None
    fixer: Hook | None = None  # (submission, split or None) -> a repaired submission (`validate --fix`)
    case_scores: Hook | None = None  # row -> extra per-case scores for per-case tables (e.g. 2025 P/R/F1)

    def aggregate_fn(self) -> Callable[..., dict[str, Any]]:
        if self.aggregation:
            from archehr_scoring.aggregation import aggregate

            rules = self.aggregation
            return lambda batch, ctx: aggregate(rules, batch, ctx)
        if self.aggregator is None:
            raise ConfigError(Problem(f"task {self.name!r} declares no aggregation", field="--task", code="option"))
        return resolve(self.aggregator)  # type: ignore[no-any-return]

    def higher_is_better(self, key: str) -> bool:
        """Whether a higher value of official `key` is better (declared by its aggregation rule; True otherwise)."""
        return bool(getattr(dict(self.aggregation).get(key), "higher_is_better", True))

    def handler_obj(self) -> Any:
        return resolve(self.handler)

    def write(self, predictions: Mapping[str, Any], path: Any, note_ids: Mapping[str, set[str]]) -> list[Problem]:
        """Write the official submission file of `predictions` (case id -> prediction)."""
        if self.writer is None:
            raise ConfigError(Problem(f"task {self.name!r} declares no submission writer", field="--task",
                                      code="option"))
        return resolve(self.writer)(self.name, predictions, path, note_ids)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Inputs:
    """What a handler is given: the parsed submission and the reference, with the options that apply."""

    obj: Any  # the parsed JSON (or an object a handler reads itself, e.g. a Submission2025)
    split: Any  # archehr.data.model.Split, or None when validating the shape only
    file: str | None = None
    text: str = ""  # the file's text, for line numbers in messages
    key_file: str | None = None
    case_ids: frozenset[str] | None = None
    metrics: tuple[str, ...] = ()
    reference: str | None = None


@dataclass
class Prepared:
    """A handler's reading of a valid submission: the scored cases and what the metrics need."""

    case_ids: tuple[str, ...]  # scored cases, submission order (the official scripts iterate it)
    rows: dict[str, dict[str, float]]  # the task's own per-case statistics (metrics add theirs)
    examples: list[Any] = field(default_factory=list)  # TextExample per case, for the text metrics
    signatures: dict[str, str] = field(default_factory=dict)  # of the task's own metrics
    warnings: list[Problem] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)


TASKS: Registry[Task] = Registry("task")


def add_task(task: Task) -> Task:
    return TASKS.add(task.name, task)


def get_task(name: str) -> Task:
    if name not in TASKS:
        raise ConfigError(Problem(TASKS.unknown_message(name) + " (or auto)", field="--task", code="option"))
    return TASKS.get(name)


def task_names() -> list[str]:
    return TASKS.names()


def predicted_tasks() -> list[str]:
    """The tasks a system can predict (those that declare an output), registry order."""
    return tasks_with(lambda t: bool(t.output))


def default_task() -> str:
    """The task commands use when none is given: the first registered one a system predicts."""
    return predicted_tasks()[0]


def check_task(name: str | None) -> Task | None:
    """The task a --task value names; None for auto (detect from the submission)."""
    return None if name in (None, "auto") else get_task(name)  # type: ignore[arg-type]


def detect_task(obj: Any) -> Task:
    """The task a parsed submission's shape implies: the first detector (registry order) that claims it."""
    seen: list[Any] = []
    for name in TASKS:
        hook = TASKS.get(name).detector
        if hook is None or hook in seen:
            continue
        seen.append(hook)
        claimed = resolve(hook)(obj)
        if claimed:
            return get_task(claimed)
    shapes = list(dict.fromkeys(f"{t.shape} ({t.edition})" for t in map(TASKS.get, TASKS)))
    raise SubmissionError(Problem(f"cannot tell the task: expected a non-empty JSON list of {' or '.join(shapes)} "
                                  "objects; pass --task", code="detect"))


def tasks_with(pred: Callable[[Task], bool]) -> list[str]:
    return [n for n in TASKS if pred(TASKS.get(n))]


# ---------------------------------------------------------------------------------------------
# Aggregation: the official keys of one sample of cases or of many (bootstrap), partial overall scores


@dataclass(frozen=True)
class AggregationContext:
    """What an aggregator needs besides the statistics: which metrics ran and which did not."""

    available: frozenset[str]
    unavailable: Mapping[str, str] = field(default_factory=dict)


def aggregate_batch(task: Task, batch: Any, ctx: AggregationContext,
                    partial: Mapping[str, Sequence[str]] | None = None) -> dict[str, Any]:
    """Official keys (arrays over the batch's samples, None where not computable), in official order.

    `partial` (key -> the keys it averages, from a report's partial scores) fills an official overall
    that is None with the mean of those parts, in every sample.
    """
    raw = task.aggregate_fn()(batch, ctx)
    out = {k: raw.get(k) for k in task.keys}
    todo = dict(partial or {})
    # A partial overall may average another partial key (2025: overall <- partial relevance),
    # so fill keys whose parts are all known until nothing changes.
    while todo:
        ready = {k: parts for k, parts in todo.items() if parts and all(out.get(p) is not None for p in parts)}
        if not ready:
            break
        for k, parts in ready.items():
            if out.get(k) is None:
                out[k] = sum(out[p] for p in parts) / len(parts)
            del todo[k]
    return out


# ---------------------------------------------------------------------------------------------
# The built-in tasks

_TEXT_KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum")
_FACT_KEYS = tuple(f"{mode}_{avg}_{m}" for mode in ("strict", "lenient") for avg in ("macro", "micro")
                   for m in ("precision", "recall", "f1"))
_REL_2025 = ("alignscore", "rougeLsum", "bleu", "medcon", "bertscore", "sari")
_D2025 = "archehr_scoring.score2025"
_D2026 = "archehr_scoring.score2026"
_FACT_STATS = tuple(f"{mode}_{s}" for mode in ("strict", "lenient") for s in ("tp", "fp", "fn"))
_ST1_PARTS = ("alignscore", "rougeLsum", "medcon", "bertscore")
_ST3_PARTS = ("bleu", "rougeLsum", "sari", "bertscore", "alignscore", "medcon")

# 2025 (the official script, left-to-right sums): factuality P/R/F1 from tp/fp/fn, macro and micro, when the
# task's own factuality ran; overall factuality = strict micro F1; each text metric's mean; overall relevance =
# the mean of six of them; overall = the mean of factuality and relevance.
_AGG_2025: tuple[tuple[str, Any], ...] = (
    *(rule for mode in ("strict", "lenient")
      for rule in prf_rules(f"{mode}_", f"{mode}_tp", (f"{mode}_tp", f"{mode}_fp"), (f"{mode}_tp", f"{mode}_fn"),
                            needs_metric="factuality", group=_FACT_STATS)),
    ("overall_factuality_score", Same("strict_micro_f1")),
    *((k, Mean()) for k in _TEXT_KEYS + ("bleu", "sari", "bertscore", "medcon", "alignscore")),
    ("overall_relevance_score", MeanOf(_REL_2025)),
    (OVERALL_KEY, MeanOf(("overall_factuality_score", "overall_relevance_score"))),
)
# st2 (numpy means): macro = mean of the handler's per-case P/R/F1 (its both-empty rule), micro = pooled counts
# (nothing predicted and nothing to find: 1); overall = strict micro F1.
_AGG_ST2: tuple[tuple[str, Any], ...] = (
    *(rule for mode in ("strict", "lenient")
      for rule in prf_rules(f"{mode}_", f"{mode}_tp", f"{mode}_n_pred", f"{mode}_n_gold", macro_stat=mode + "_{m}",
                            numpy=True, micro={"empty_is_perfect": True}, group=("strict_tp",))),
    (OVERALL_KEY, Same("strict_micro_f1")),
)
# st4: micro = the per-case rule on pooled counts, macro = mean of per-case P/R/F1; overall = micro F1.
_AGG_ST4: tuple[tuple[str, Any], ...] = (
    *prf_rules("", "tp", "n_pred", "n_gold", macro_stat="{m}", numpy=True, group=("tp",)),
    (OVERALL_KEY, Same("micro_f1")),
)


def _text_rules(keys: tuple[str, ...], parts: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
    """st1/st3 (numpy means): each metric key's mean; overall = the mean of `parts`."""
    return (*((k, Mean(numpy=True)) for k in keys), (OVERALL_KEY, MeanOf(parts, numpy=True)))


_W2026 = "archehr_scoring.submission2026:write_submission_2026"

BUILTIN = (
    Task("2025", "2025", "grounded answer generation",
         _FACT_KEYS + ("overall_factuality_score",) + _TEXT_KEYS
         + ("bleu", "sari", "bertscore", "medcon", "alignscore", "overall_relevance_score", "overall_score"),
         aggregation=_AGG_2025, handler=f"{_D2025}:HANDLER",
         detector=f"{_D2025}:detect", shape="{case_id, answer}",
         metrics=("factuality", "bleu", "rouge", "sari", "bertscore", "alignscore", "medcon"),
         own_metrics=("factuality",), references=("essential", "clinician"), word_limit=MAX_WORDS,
         partial=(PartialRule("overall_relevance_score", _REL_2025),
                  PartialRule("overall_score", ("overall_factuality_score", "overall_relevance_score"), True)),
         cites_note_ids=True, rank_fallbacks=("overall_factuality_score",),
         headline=("overall_score", "overall_factuality_score", "overall_relevance_score", "lenient_micro_f1",
                   "bleu", "rougeLsum", "sari", "bertscore", "alignscore", "medcon"),
         case_keys=("strict_micro_f1", "strict_micro_precision", "strict_micro_recall"), prediction="answer",
         case_scores="archehr_scoring.aggregate2025:case_scores", fixer=f"{_D2025}:fix", output="cited_answer",
         writer="archehr_scoring.submission2025:write_submission_2025"),
    Task("st1", "2026", "question interpretation",
         _TEXT_KEYS + ("bertscore", "medcon", "alignscore", OVERALL_KEY),
         aggregation=_text_rules(_TEXT_KEYS + ("bertscore", "medcon", "alignscore"), _ST1_PARTS),
         handler=f"{_D2026}:HANDLER", detector=f"{_D2026}:detect",
         metrics=("rouge", "bertscore", "alignscore", "medcon"), references=("clinician_question",), word_limit=15,
         partial=(PartialRule(OVERALL_KEY, _ST1_PARTS),),
         case_ids_option=True, upload_zip=True, rank_fallbacks=("rougeLsum",),
         headline=(OVERALL_KEY, "rougeLsum", "bertscore", "alignscore", "medcon"), prediction="text",
         output="question", writer=_W2026),
    Task("st2", "2026", "evidence identification", _FACT_KEYS + (OVERALL_KEY,),
         aggregation=_AGG_ST2, handler=f"{_D2026}:HANDLER", detector=f"{_D2026}:detect",
         case_ids_option=True, upload_zip=True, cites_note_ids=True,
         headline=(OVERALL_KEY, "strict_micro_precision", "strict_micro_recall", "lenient_micro_f1",
                   "strict_macro_f1"),
         case_keys=("strict_micro_f1", "strict_micro_precision", "strict_micro_recall"), prediction="ids",
         output="evidence", writer=_W2026),
    Task("st3", "2026", "answer generation",
         ("bleu",) + _TEXT_KEYS + ("sari", "bertscore", "medcon", "alignscore", OVERALL_KEY),
         aggregation=_text_rules(("bleu",) + _TEXT_KEYS + ("sari", "bertscore", "medcon", "alignscore"), _ST3_PARTS),
         handler=f"{_D2026}:HANDLER", detector=f"{_D2026}:detect",
         metrics=("bleu", "rouge", "sari", "bertscore", "alignscore", "medcon"),
         references=("clinician_answer_without_citations",), word_limit=75,
         partial=(PartialRule(OVERALL_KEY, _ST3_PARTS),),
         case_ids_option=True, upload_zip=True, rank_fallbacks=("rougeLsum",),
         headline=(OVERALL_KEY, "bleu", "rougeLsum", "sari", "bertscore", "alignscore", "medcon"), prediction="text",
         output="answer_text", writer=_W2026),
    Task("st4", "2026", "evidence alignment",
         tuple(f"{avg}_{m}" for avg in ("micro", "macro") for m in ("precision", "recall", "f1")) + (OVERALL_KEY,),
         aggregation=_AGG_ST4, handler=f"{_D2026}:HANDLER", detector=f"{_D2026}:detect",
         case_ids_option=True, upload_zip=True, cites_note_ids=True,
         headline=(OVERALL_KEY, "micro_precision", "micro_recall", "macro_f1"),
         case_keys=("micro_f1", "micro_precision", "micro_recall"), prediction="links", output="links",
         writer=_W2026),
)
for _t in BUILTIN:
    add_task(_t)
