"""The skeleton every LLM component shares: demonstrations, asking, reading, falling back.

A component (the `llm` evidence classifier, answer generator, st1 question writer and st4 aligner)
subclasses `LLMComponent` and keeps only what is its own, as lm-evaluation-harness's API models
override only how a payload is made and a reply parsed:

- `demonstration(case, key)`: the text a labelled training case shows as an example (None: not usable);
- `fields(case, ...)`: its template's values besides `$demonstrations` (`levels()`: steps of less context);
- a reader `read(replies, cut, notes)` that returns the result or raises `Unusable(reason)`;
- its fallback (another component), given to `settle`, which records why it answered.

Here, once: the template (`configs/prompts/`) and the prompt built from it, the demonstration pool (ONE
retrieval: BM25 over the question's words, which needs no model, so a prompt never depends on what is
installed; ONE leakage guard: a case never sees itself, nor a case with its narrative, as an example),
structured output (`response_format`, dropped when the server refuses it), fitting the prompt to the
model's window, the attempt loop (another seed and the retry temperature after an unusable reply), the
repairs generic to any reply (`whole_lines`; reading a reply: `archehr.llm.structured.reply_parts`), the
fallback with its reason, `describe()`, and the reasons recorded in run.json.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from archehr.data.model import Case, KeyEntry, Split
from archehr.errors import ConfigError, Problem
from archehr.llm.base import Backend, BackendError, CutReply, PromptTooLong

T = TypeVar("T")
R = TypeVar("R")


def leaks(case: Case, other: Case) -> bool:
    """Whether `other` would show `case` its own gold: the same case, or a copy of its narrative."""
    return other.case_id == case.case_id or (other.patient_narrative or "") == (case.patient_narrative or "")


def labelled_cases(train: Split | None) -> list[tuple[Case, KeyEntry | None]]:
    """(case, key entry or None) of every case of a split that has note sentences: demonstration material."""
    if train is None:
        return []
    keyed = {k.case_id for k in train.key or ()}
    return [(c, train.key_for(c.case_id) if c.case_id in keyed else None) for c in train.cases if c.sentences]


def numbered_sentences(case: Case) -> str:
    """The note sentences as the evidence and alignment prompts show them: "3. text", white space folded."""
    return "\n".join(f"{s.id}. {' '.join(s.text.split())}" for s in case.sentences)


def json_id(sentence_id: str) -> int | str:
    """A sentence id as a JSON demonstration shows it: a number when it is one."""
    return int(sentence_id) if sentence_id.isdigit() else sentence_id


_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset("the a an and or of to in on for with was is are were be been his her he she they their my me "
                  "it at by as from that this did do does not no what why how can could would should will i you "
                  "your we our there if so but have has had any about after".split())


def question_terms(text: str) -> list[str]:
    """A question's content words, cut to 5-letter stems ("bleeding" and "bleed" meet), stop words dropped."""
    return [w[:5] for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 1]


def bm25_ranks(query: Sequence[str], docs: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75) -> list[int]:
    """Indexes of `docs` by Okapi BM25 against `query` (IDF from the docs), best first; ties keep pool order."""
    import numpy as np

    from archehr.bm25 import bm25

    return np.argsort(-bm25(query, docs, k1, b), kind="stable").tolist()


class DemoPool(Generic[T]):
    """The training cases a component may show as examples, and the k nearest to a case."""

    def __init__(self, k: int):
        self.k = int(k)
        self.items: list[tuple[Case, T]] = []

    def fill(self, items: Iterable[tuple[Case, T | None]]) -> None:
        self.items = [(c, x) for c, x in items if x is not None] if self.k > 0 else []

    def __len__(self) -> int:
        return len(self.items)

    def nearest(self, case: Case) -> list[tuple[Case, T]]:
        """The k pool items whose question is closest to the case's (BM25), best first, never leaking."""
        ok = [item for item in self.items if not leaks(case, item[0])]
        if not ok or self.k <= 0:
            return []
        order = bm25_ranks(question_terms(case.question_text), [question_terms(c.question_text) for c, _ in ok])
        return [ok[j] for j in order[: self.k]]


Build = Callable[[int, int], str]  # (demonstrations shown, level of context) -> prompt


@dataclass(frozen=True)
class Fitted:
    """A prompt fitted to the model's window, the reply budget beside it, and what fitting left out."""

    prompt: str
    max_tokens: int
    notes: tuple[str, ...] = ()


def _fit_notes(window: int, tokens: int, shown: int, of: int, level: str) -> tuple[str, ...]:
    if shown == of and not level:
        return ()
    left = f"{shown} of {of} demonstrations" + (f", {level}" if level else "")
    return (f"fitted to the model's {window}-token window ({tokens} prompt tokens): {left}",)


class Unusable(Exception):
    """A reply (or set of samples) that gives no result; the reason is recorded."""


def whole_lines(lines: list[T], last: str, reply: str, cut: bool, notes: list[str]) -> list[T]:
    """The lines of a reply without the one the token limit cut (`last` is the last line's text): the last
    line when the backend says the reply was cut, or when it stops inside a line with no end mark (half a
    sentence says nothing); Unusable when the cut is within the first line."""
    from archehr.llm.structured import ends_mid_line

    if cut and len(lines) == 1:
        raise Unusable("the reply was cut by the token limit within its first line")
    if len(lines) > 1 and (cut or (not last.rstrip().endswith((".", "!", "?")) and ends_mid_line(reply))):
        notes.append("dropped the last line, cut off by the token limit")
        return lines[:-1]
    return lines


@dataclass(frozen=True)
class Outcome(Generic[R]):
    """What asking gave: the read result, or None with why (`fallback`); notes either way."""

    value: R | None
    fallback: str | None
    notes: tuple[str, ...] = ()


def declared_options(obj: Any, cls: type) -> dict[str, Any]:
    """The constructor options of `cls` as `obj` holds them (an attribute of each option's name), backend
    and fallback parts excluded: the resolved config, read back rather than listed again by hand."""
    names = [p for p in inspect.signature(cls.__init__).parameters if p not in ("self", "backend", "fallback")]
    return {n: vars(obj)[n] for n in names if n in vars(obj)}


class LLMComponent:
    """Base of the LLM components; see the module docstring for what a subclass writes."""

    kind = "llm"
    what = "reply"  # how reasons name the replies: "evidence", "alignment", ...
    schema: tuple[str, dict[str, Any]] | None = None  # (name, JSON schema) asked for when `structured`
    reads_cut = False  # a reply cut by the token limit is read (its complete part), not given up on
    numbered_attempts = False  # reasons say "attempt N: ..." (a component that retries)
    examples = "\nExamples:\n"  # what precedes the demonstrations in a prompt
    fallback: Any = None  # the component answering when the model gives nothing (its describe() is recorded)

    def setup(self, backend: Any, prompt: str, demonstrations: int = 0, *, n: int = 1, temperature: float = 0.0,
              seed: int = 0, max_tokens: int = 256, structured: bool = False, retries: int = 0,
              retry_temperature: float = 0.0) -> None:
        from archehr.llm.prompts import load_prompt
        from archehr.llm.structured import StructuredCaller, json_schema

        if backend is None:
            raise ConfigError(Problem(f"the llm {self.what} component needs a backend section in the system config",
                                      field="backend"))
        self.backend = backend
        self.template = load_prompt(prompt)
        self.pool: DemoPool[Any] = DemoPool(demonstrations)
        if self.pool.k > 0 and "$demonstrations" not in self.template.text:
            raise ConfigError(f"{self.what} prompt {self.template.name} has no $demonstrations slot; set "
                              "demonstrations: 0 or change the prompt")
        self.n, self.seed, self.max_tokens = int(n), int(seed), int(max_tokens)
        self.temperature = float(temperature) if self.n > 1 or self.numbered_attempts else 0.0
        self.retries, self.retry_temperature = int(retries), float(retry_temperature)
        self.structured = bool(structured)
        fmt = json_schema(*self.schema) if structured and self.schema else None
        self.caller = StructuredCaller(backend, fmt)

    @property
    def prompt_name(self) -> str:
        return self.template.name

    @property
    def asks_json(self) -> bool:
        """Whether the template asks for a JSON reply in words (evidence_v2, align_v2), so its demonstrations
        show JSON replies too; older templates ask for lines and show lines."""
        return "JSON" in self.template.text

    def demonstration(self, case: Case, key: KeyEntry | None) -> Any:
        """What a training case shows as an example (the text of it); None leaves it out of the pool."""
        raise NotImplementedError

    def fields(self, case: Case, *args: Any, level: int = 0) -> dict[str, str]:
        """The template's values besides `demonstrations`, with the `level`-th step of `levels()` (0: none)."""
        raise NotImplementedError

    def levels(self) -> list[str]:
        """What each step of less context leaves out, for a prompt over the model's window (none by default)."""
        return []

    def prompt(self, case: Case, *args: Any, shown: int | None = None, level: int = 0) -> str:
        """The template with the component's `fields` and the `shown` nearest demonstrations (all), after
        `examples` (no demonstration: nothing)."""
        demos = [text for _, text in self.pool.nearest(case)[:shown]]
        return self.template.render(demonstrations=self.examples + "\n".join(demos) if demos else "",
                                    **self.fields(case, *args, level=level))

    def settle(self, case: Case, read: Callable[[list[str], bool, list[str]], R], fallback: Callable[[], R],
               label: str, *args: Any) -> Outcome[R]:
        """Ask about `case` (the prompt's `fields` take `args`) and read the reply (`ask`); when that gives
        nothing, `fallback()` with the reason, as `label: why`, in `Outcome.fallback`."""
        got = self.ask(lambda d, lv: self.prompt(case, *args, shown=d, level=lv), read,
                       shown=len(self.pool.nearest(case)), levels=self.levels())
        return got if got.value is not None else Outcome(fallback(), f"{label}: {got.fallback}", got.notes)

    def prepare(self, train: Split | None) -> None:
        """Index a labelled split's cases as demonstrations (nothing when `demonstrations` is 0)."""
        self.pool.fill((c, self.demonstration(c, key)) for c, key in labelled_cases(train if self.pool.k else None))

    def window(self) -> int | None:
        """The model's context window, when the backend knows it (a plug-in with only `complete` does not)."""
        return self.backend.context_window() if isinstance(self.backend, Backend) else None

    def fit(self, build: Build, shown: int, levels: Sequence[str] = ()) -> Fitted:
        """The prompt that fits the model's window with room for the reply: all `shown` demonstrations and the
        full context if it can, else fewer demonstrations, then each of the component's `levels` of less
        context in turn (`build(demonstrations, level)`, level 0 the full context), then a smaller reply budget
        (down to half of max_tokens). Unusable when even that does not fit: one reason for the case."""
        window = self.window()
        if not window:
            return Fitted(build(shown, 0), self.max_tokens)
        budget = self.max_tokens
        steps = [(d, 0) for d in range(shown, -1, -1)] + [(0, lv) for lv in range(1, len(levels) + 1)]
        for d, lv in steps:
            prompt = build(d, lv)
            n = self.backend.count_tokens(prompt, exact_above=window - budget)
            if n + budget <= window:
                return Fitted(prompt, budget, _fit_notes(window, n, d, shown, levels[lv - 1] if lv else ""))
        if window - n >= budget // 2:
            return Fitted(prompt, window - n, _fit_notes(window, n, 0, shown, levels[-1] if levels else "")
                          + (f"reply budget cut from {budget} to {window - n} tokens",))
        raise Unusable(f"the prompt alone is {n} tokens with no demonstration and the least context: the model's "
                       f"{window}-token window leaves {max(window - n, 0)} for the reply, under half of "
                       f"max_tokens={budget}")

    def ask(self, build: Build | str, read: Callable[[list[str], bool, list[str]], R], shown: int = 0,
            levels: Sequence[str] = ()) -> Outcome[R]:
        """Fit, ask (up to 1 + `retries` times), read, and say why not: `read(replies, cut, notes)` returns the
        result or raises Unusable; a backend failure, an unreadable reply or a prompt that cannot fit the
        model's window is the outcome's `fallback`. A prompt the server refuses as too long for its window is
        fitted again to the window it named (twice at most) without spending an attempt."""
        why: list[str] = []
        notes: list[str] = []
        build_fn = build if callable(build) else (lambda d, lv: build)
        attempt = refits = 0
        try:
            fitted = self.fit(build_fn, shown, levels)
        except Unusable as e:
            return Outcome(None, str(e), ())
        while attempt <= self.retries:
            label = f"attempt {attempt + 1}: " if self.numbered_attempts else ""
            try:
                replies, more, cut = self._complete(fitted, attempt, label, why)
            except PromptTooLong as e:
                refits += 1
                try:
                    if refits > 2 or not self.window():
                        raise Unusable(f"{label}the server refused the prompt as too long: {e.reason}")
                    fitted = self.fit(build_fn, shown, levels)
                except Unusable as u:
                    why.append(str(u))
                    break
                continue
            except BackendError as e:
                why.append(f"{label}backend error: {e.reason}" if not isinstance(e, CutReply) else
                           f"{label}every {self.what} reply was cut: {e.reason}")
                attempt += 1
                if not e.retryable:  # an open breaker or a spent deadline: another attempt fails the same way
                    break
                continue
            notes += more
            if len(replies) < self.n:  # the backend returns the samples that came back: the vote uses them
                notes.append(f"{self.n - len(replies)} of {self.n} {self.what} samples failed; "
                             f"voted on {len(replies)}")
            repairs: list[str] = []  # what `read` notes is the answer's only when it gives one
            try:
                return Outcome(read(replies, cut, repairs), None, tuple(list(fitted.notes) + notes + repairs + why))
            except Unusable as e:
                why.append(f"{label}{e}")
                attempt += 1
                if cut:  # another attempt runs into the same limit
                    break
        return Outcome(None, "; ".join(why), tuple(list(fitted.notes) + notes))

    def _complete(self, fitted: Fitted, attempt: int, label: str, why: list[str]) -> tuple[list[str], list[str], bool]:
        """(replies, notes, cut) of one attempt; a reply still cut after a larger budget is read when the
        component reads cut replies (its reason recorded), else raised."""
        temperature = self.temperature if attempt == 0 else max(self.temperature, self.retry_temperature)
        try:
            replies, more = self.caller.complete(fitted.prompt, n=self.n, temperature=temperature,
                                                 seed=self.seed + attempt, max_tokens=fitted.max_tokens)
        except CutReply as e:
            if not self.reads_cut:
                raise
            why.append(f"{label}{e.reason}")
            return [e.text], [], True
        return replies, more, False

    def runtime(self) -> dict[str, Any]:
        """What is only known once running (resolved choices); a subclass adds its own."""
        return {}

    def describe(self) -> dict[str, Any]:
        """The resolved options, the prompt and its hash, the demonstrations, the backend (and its fallback
        part's own description), then what the subclass knows only once running (`runtime`)."""
        out: dict[str, Any] = {"kind": self.kind, **declared_options(self, type(self)),
                               "prompt": self.template.name, "prompt_sha256": self.template.sha256,
                               "demonstrations": self.pool.k, "demonstration_pool": len(self.pool),
                               "backend": self.backend.describe()}
        if self.fallback is not None:
            out["fallback"] = self.fallback.describe()
        return {**out, **self.runtime()}
