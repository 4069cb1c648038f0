"""`openai`: any OpenAI-compatible chat endpoint (vLLM, TGI, Ollama, llama.cpp server, OpenAI).

Retries are ours, so every fault has one documented outcome (docs/predict.md, "Serving the model" and
"Faults"); this module sends one request's attempts and does what the attempt policy (`policy.py`) says:

- the server is met before the first case (`negotiation.py`): its served model, its context window;
- replies are streamed and bounded by the watchdog (`transport.py`);
- transport faults, timeouts, HTTP 408/409/425/429/5xx and unreadable replies are retried with backoff or
  the server's `Retry-After` (capped). Other 4xx fail at once and are not retryable by callers either;
  a 400 saying the prompt is over the model's window is `PromptTooLong` (the component asks smaller);
- the requests in flight adapt (archehr/llm/concurrency.py): fewer on 429/503, timeouts or a growing
  time to first token; queueing here counts against no deadline;
- circuit breaker (archehr/llm/breaker.py): it counts requests that failed with no sign of life from the
  server. Load symptoms (timeouts, 429, 503) count only when the server has answered nothing since the
  request was sent, so a busy server that is still answering other requests never opens it;
- reasoning models: `reasoning_content` / `reasoning` is read (counted, never returned), `<think>` blocks
  are stripped from the content; a reply cut by `finish_reason: length` is asked again with a larger
  budget (up to `max_tokens_cap` and what the window leaves) and never returned as if complete;
  `thinking_budget` adds tokens for thinking to every request (`auto`: learned from the replies).

Every failure is a BackendError with its reason; callers fall back and record it in run.json.
"""

from __future__ import annotations

import contextvars
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from archehr.errors import ArchehrError
from archehr.llm.base import Backend, BackendError, CutReply, PromptTooLong, split_reply_start
from archehr.llm.breaker import CircuitBreaker
from archehr.llm.concurrency import AdaptiveLimit
from archehr.llm.openai import config, replies
from archehr.llm.openai.negotiation import FORMAT_LEVELS, STRUCTURED_SETTINGS, Formats, ModelList, Window
from archehr.llm.openai.policy import AttemptState, Failure, RetryPolicy, decide, next_budget
from archehr.llm.openai.replies import Final, Reply, Retryable
from archehr.llm.openai.stats import Stats
from archehr.llm.openai.transport import Deadlines, Transport
from archehr.llm.usage import record_request

log = logging.getLogger("archehr.llm")


@dataclass
class _Request:
    """One request's state across its attempts."""

    payload: dict[str, Any]
    response_format: dict[str, Any] | None
    start: str  # the given start of the reply (base.REPLY_START)
    probe: bool
    allowed: int
    level: int
    counted: int | None
    exact: bool  # counted by the server's tokenizer (else estimated)
    t0: float = field(default_factory=time.perf_counter)
    sent_at: float = field(default_factory=time.monotonic)
    tried: int = 0
    tokens: list[int] = field(default_factory=lambda: [0, 0])  # prompt, completion: every attempt's
    cut: int = 0
    answer_cuts: int = 0  # re-asks of a reply cut mid-answer (at most one)
    last: str = ""
    retryable: bool = True
    kind: str = "broken"
    too_long: replies.ContextTooLong | None = None


class OpenAIBackend(Backend):
    name = "openai"

    def __init__(self, base_url: str = "http://127.0.0.1:8000/v1", model: str = "auto",
                 api_key_env: str = "OPENAI_API_KEY", timeout: float | None = None,
                 first_token_timeout: float = 300.0, token_timeout: float = 60.0, connect_timeout: float = 5.0,
                 retries: int = 3, backoff: float = 1.0, max_backoff: float = 30.0, max_retry_after: float = 60.0,
                 max_concurrency: int | None = None, min_concurrency: int = 1, adaptive_concurrency: bool = True,
                 system_prompt: str | None = None, structured_output: bool | str = True, breaker_after: int = 2,
                 breaker_cooldown: float = 60.0, max_reply_bytes: int = 2_000_000, stream: bool = True,
                 thinking_budget: int | str = "auto", max_tokens_cap: int = 8192, check_model: bool = True,
                 context_window: int | None = None):
        config.check(base_url, model, structured_output, thinking_budget, context_window, dict(
            max_concurrency=max_concurrency, retries=retries, timeout=timeout, first_token_timeout=first_token_timeout,
            token_timeout=token_timeout, breaker_after=breaker_after, max_reply_bytes=max_reply_bytes,
            min_concurrency=min_concurrency, max_tokens_cap=max_tokens_cap))
        lim = config.limits(timeout, first_token_timeout, token_timeout, connect_timeout)
        self.base_url, self.model, self.system_prompt = base_url.rstrip("/"), model, system_prompt
        self.timeout, self.first_token_timeout, self.token_timeout = lim.timeout, lim.first_token_timeout, \
            lim.token_timeout
        self.retries = int(retries)
        self.policy = RetryPolicy(self.retries, float(backoff), float(max_backoff), float(max_retry_after),
                                  lim.first_token_timeout)
        setting = STRUCTURED_SETTINGS[structured_output]
        self.structured_output = structured_output if isinstance(structured_output, bool) else setting != "text"
        self.formats = Formats(setting, self.base_url)
        self.stream, self.stream_options = bool(stream), True  # usage in the last event, unless refused
        self.thinking_budget, self.max_tokens_cap = thinking_budget, int(max_tokens_cap)
        self.breaker = CircuitBreaker(int(breaker_after), float(breaker_cooldown))
        highest = int(max_concurrency) if max_concurrency is not None else 64
        self.limit = AdaptiveLimit(start=min(highest, 8), lowest=min(int(min_concurrency), highest),
                                   highest=highest, adaptive=bool(adaptive_concurrency))
        self.fan_out = highest
        self.transport = Transport(self.base_url, api_key_env, Deadlines(lim.first_token_timeout, lim.token_timeout,
                                                                         lim.timeout, lim.connect_timeout),
                                   int(max_reply_bytes), highest)
        list_deadline = min(lim.first_token_timeout, 30.0)
        self.models = ModelList(self.transport, model, bool(check_model), list_deadline)
        self.window = Window(self.transport, context_window, list_deadline)
        self.stats = Stats()

    # -- provenance and statistics ------------------------------------------------------------------

    @property
    def served(self) -> dict[str, Any] | None:
        return self.models.served

    def describe(self) -> dict[str, Any]:
        # the API key is a credential, never provenance: only the variable's name is recorded. Transport
        # settings (timeouts, retries) do not change a reply, so they stay out of the cache key; the served
        # model does: other weights under the same name never hit old entries
        out = {"backend": self.name, "base_url": self.base_url, "model": self.model,
               "system_prompt": self.system_prompt, "structured_output": self.structured_output}
        if self.served is not None:
            out["served"] = {k: v for k, v in self.served.items() if k in ("id", "root", "created")}
        return out

    def report(self) -> dict[str, Any]:
        """The backend's statistics for run.json (`llm_transport`); the keys are stable."""
        s = self.stats.snapshot()
        return {"timeout": self.timeout, "first_token_timeout": self.first_token_timeout,
                "token_timeout": self.token_timeout, "retries": self.retries,
                "retried_attempts": s.pop("retried_attempts"), "timeouts": s.pop("timeouts"), "stream": self.stream,
                "streams_ignored": self.transport.streams_ignored, "options_dropped": s.pop("options_dropped"),
                "model": {"configured": self.model, "served": self.served, "error": self.models.error},
                "structured_output": {"configured": self.formats.setting, "used": FORMAT_LEVELS[self.formats.level],
                                      "refusals": list(self.formats.refusals)},
                "structured_output_refused": self.structured_output_refused,
                "thinking": {"budget": self.thinking_budget, "learned": self.stats.learned_thinking,
                             "max_tokens_cap": self.max_tokens_cap},
                "window": {"tokens": self.window.size, "source": self.window.source,
                           "tokenizer": self.window.tokenizer or "estimate"},
                "concurrency": self.limit.report(), "breaker": self.breaker.report(), **s}

    @property
    def structured_output_refused(self) -> str | None:
        """The server's refusals of response_format forms ("json_schema: HTTP 500 ..."), None when none."""
        return self.formats.summary()

    # -- the server: model, window, tokens ------------------------------------------------------------

    def start(self) -> None:
        """Read the served model (and the model's window) once, before the first request: ConfigError when the
        configured model is not served (naming what is) or `auto` cannot choose; UnavailableError when nothing
        listens at base_url. A server that answers late is not an error here: `auto` asks again later."""
        self.models.start()
        if self.models.served is not None:
            self.window.learn(self.models.entry, self.models.served["id"])

    def context_window(self) -> int | None:
        return self.window.size

    def count_tokens(self, prompt: str, exact_above: int | None = None) -> int:
        return self._count(prompt, exact_above)[0]

    def _count(self, prompt: str, exact_above: int | None) -> tuple[int, bool]:
        model = self.models.served["id"] if self.served else self.model
        return self.window.count(self._messages_text(prompt), model, exact_above)

    def _messages(self, prompt: str) -> tuple[list[dict[str, str]], str]:
        messages = [{"role": "system", "content": self.system_prompt}] if self.system_prompt else []
        user, start = split_reply_start(prompt)
        messages.append({"role": "user", "content": f"{user}\n{start}" if start else user})
        return messages, start

    def _messages_text(self, prompt: str) -> str:
        return "\n".join(m["content"] for m in self._messages(prompt)[0])

    # -- one request: attempts, waits, breaker ------------------------------------------------------

    def _budget(self, max_tokens: int, counted: int | None) -> int:
        """max_tokens sent: the caller's reply budget plus room to think (thinking_budget, or learned), never past
        max_tokens_cap nor what the window leaves beside the prompt."""
        extra = self.thinking_budget if isinstance(self.thinking_budget, int) else self.stats.learned_thinking
        room = self._room(counted)
        return min(self.max_tokens_cap, max_tokens + extra, max(max_tokens, room) if room is not None else 10**9)

    def _room(self, counted: int | None) -> int | None:
        return self.window.size - counted if self.window.size and counted else None

    def _request(self, prompt: str, temperature: float, seed: int, max_tokens: int,
                 response_format: dict[str, Any] | None) -> _Request:
        probe = self.breaker.admit()
        messages, start = self._messages(prompt)
        # counted exactly (the server's tokenizer) only when the window is known and the estimate comes near it
        near = self.window.size - max_tokens if self.window.size else None
        counted, exact = self._count(prompt, near if near is not None else 10**9)
        payload: dict[str, Any] = {"messages": messages, "temperature": temperature, "seed": seed,
                                   "max_tokens": self._budget(max_tokens, counted if self.window.size else None)}
        level = self.formats.level
        fmt = self.formats.form(response_format, level)
        if fmt is not None:
            payload["response_format"] = fmt
        # a probe of an open breaker gets one try
        return _Request(payload, response_format, start, probe, 1 if probe else self.retries + 1, level, counted,
                        exact)

    def _send(self, req: _Request) -> Reply:
        if self.stream:
            req.payload["stream"] = True
            if self.stream_options:
                req.payload["stream_options"] = {"include_usage": True}
        try:
            req.payload["model"] = self.models.name()
        except ArchehrError as e:  # the configured model is not served, or nothing listens
            raise Final(str(e)) from None
        self.limit.acquire()
        try:
            return self.transport.exchange(req.payload, req.payload["max_tokens"])
        finally:
            self.limit.release()

    def _one(self, prompt: str, temperature: float, seed: int, max_tokens: int,
             response_format: dict[str, Any] | None = None) -> str:
        req = self._request(prompt, temperature, seed, max_tokens, response_format)
        while req.tried < req.allowed:
            req.tried += 1
            try:
                reply = self._send(req)
            except (replies.FormatRefused, replies.OptionRefused, Final, Retryable) as e:
                if self._after_failure(req, e):
                    continue
                break
            text = self._after_reply(req, reply)
            if text is not None:
                return text
        return self._give_up(req)

    def _failure(self, req: _Request, e: Exception) -> Failure:
        """What a failed attempt says (and the request changed to meet a refusal)."""
        if isinstance(e, replies.FormatRefused):
            # the server cannot do this form of structured output: ask again in the next form (json_schema ->
            # json_object with the schema -> plain text), for the rest of the run
            req.level, fmt = self.formats.next_form(req.response_format, req.level,
                                                    req.payload.get("response_format"), str(e))
            if fmt is None:
                req.payload.pop("response_format", None)
            else:
                req.payload["response_format"] = fmt
            return Failure("option")
        if isinstance(e, replies.OptionRefused):  # e.g. stream_options unknown to the server: dropped for the run
            if e.option == "stream_options":
                self.stream_options = False
            else:
                self.stream = False
                req.payload.pop("stream", None)
            self.stats.dropped(e.option)
            req.payload.pop("stream_options", None)
            return Failure("option")
        req.last = str(e)
        if isinstance(e, Final):
            client = isinstance(e, replies.ClientError)
            # a client error comes back the same for the same request; a reply past max_tokens may not (another seed)
            req.kind = "request" if client and not e.run_wide else "broken"
            req.too_long = e if isinstance(e, replies.ContextTooLong) else None
            return Failure("client" if client else "final")
        if not isinstance(e, Retryable):
            raise e
        req.kind = e.kind
        timeout = isinstance(e, replies.TimedOut)
        if timeout:
            self.stats.add("timeouts")
        return Failure("timeout" if timeout else "retryable", overload=e.kind == "overload", retry_after=e.wait)

    def _after_failure(self, req: _Request, e: Exception) -> bool:
        """Whether to try again (after the wait the policy gives)."""
        failure = self._failure(req, e)
        alive = self.transport.last_life >= req.sent_at
        if failure.overload and (alive or failure.kind != "timeout"):  # a hung server is no busy one
            self.limit.overloaded(req.last.split(" (")[0][:80])
        d = decide(self.policy, AttemptState(req.tried, req.allowed, alive, time.monotonic() - req.sent_at), failure)
        req.retryable = req.retryable and d.callers_may_retry
        if d.action == "give_up":
            return False
        req.allowed += int(d.free)
        if failure.kind != "option":
            self.stats.add("retried_attempts")
            time.sleep(d.wait)
        return True

    def _after_reply(self, req: _Request, reply: Reply) -> str | None:
        """The reply's text; None to ask again (cut, with a larger budget); CutReply when it stays cut."""
        self.transport.last_life = time.monotonic()
        req.tokens[0] += reply.prompt_tokens
        req.tokens[1] += reply.completion_tokens
        if reply.first_token is not None:
            self.limit.answered(reply.first_token)
        self._learn_thinking(reply)
        warning = self.stats.tokens(req.counted, reply.prompt_tokens, reply.completion_tokens,
                                    req.payload["max_tokens"], req.exact)
        if self.stats.truncated and self.window.size is None:  # what it read is the window: fit to it from now on
            self.window.heard(min(t["reported"] for t in self.stats.truncated[:5]),
                              "the prompt tokens read by a server that cut a prompt silently")
        if warning:
            log.warning("%s: %s", self.base_url, warning)
        if reply.finish_reason == "length":
            req.cut += 1
            sent = req.payload["max_tokens"]
            thinking = bool(reply.reasoning) and not reply.text
            bigger = next_budget(sent, thinking, self.stats.learned_thinking, self.max_tokens_cap, req.answer_cuts,
                                 self._room(req.counted if self.window.size else None))
            self.stats.cut({"max_tokens": sent, "thinking": thinking,
                            "asked_again_with": bigger if bigger > sent else None})
            if bigger > sent:  # asked again with room to finish: a free attempt
                req.answer_cuts += not thinking
                req.payload["max_tokens"] = bigger
                req.allowed += 1
                return None
            self.breaker.success()
            record_request(time.perf_counter() - req.t0, *req.tokens, failed=True, cut=req.cut)
            raise CutReply(f"reply cut by the token limit at max_tokens={sent} (finish_reason: length"
                           f"{', still thinking' if thinking else ''}) after asking again with a larger budget; "
                           "a cut reply is never read as complete", reply.text)
        self.breaker.success()
        record_request(time.perf_counter() - req.t0, *req.tokens, cut=req.cut)
        if req.start and not reply.text.lstrip().startswith(req.start.strip()):
            return req.start + reply.text  # the contract of base.REPLY_START: the whole reply, its start included
        return reply.text

    def _give_up(self, req: _Request) -> str:
        if req.kind == "request":  # about this request only (a 400, a reply cut at the cap): the server is up
            self.breaker.success()
        elif req.kind == "overload" and self.transport.last_life >= req.sent_at:
            pass  # busy, but it answered other requests meanwhile: not a dead server
        else:
            self.breaker.failure(req.last, req.probe)
        record_request(time.perf_counter() - req.t0, *req.tokens, failed=True, cut=req.cut)
        reason = f"{req.last} (after {req.tried} attempt{'s' if req.tried != 1 else ''})"
        if req.too_long is not None:
            self.stats.add("refitted")
            if req.too_long.window:
                self.window.heard(req.too_long.window)
            raise PromptTooLong(reason, self.window.size, req.too_long.prompt_tokens or req.counted)
        raise BackendError(reason, req.retryable)

    def _learn_thinking(self, reply: Reply) -> None:
        if self.thinking_budget != "auto" or not reply.reasoning:
            return
        words = len(reply.reasoning.split())
        used = reply.completion_tokens - len(reply.text.split()) if reply.completion_tokens else int(words * 1.4)
        self.stats.learn_thinking(int(used * 1.25), self.max_tokens_cap)

    def complete(self, prompt: str, *, n: int = 1, temperature: float = 0.0, seed: int = 0,
                 max_tokens: int = 256, response_format: dict[str, Any] | None = None) -> list[str]:
        # one request per sample with seed+i: many servers ignore `n`, all honour `seed`. The samples go
        # out together (self-consistency votes wait on the slowest, not the sum), each in a copy of the
        # caller's context so its usage lands on the caller's case. The samples that came back are
        # returned (a vote uses them); only when every sample failed is the first failure raised.
        if n <= 1:
            return [self._one(prompt, temperature, seed, max_tokens, response_format)]
        with ThreadPoolExecutor(max_workers=min(n, self.fan_out)) as pool:
            futures = [pool.submit(contextvars.copy_context().run, self._one, prompt, temperature, seed + i,
                                   max_tokens, response_format) for i in range(n)]
            got: list[str] = []
            errors: list[BackendError] = []
            for f in futures:
                try:
                    got.append(f.result())
                except BackendError as e:
                    errors.append(e)
        if not got:  # the server's own failure says more than the breaker it opened for the other samples
            raise next((e for e in errors if not e.reason.startswith("circuit breaker open")), errors[0])
        return got

    def close(self) -> None:
        self.transport.close()
