"""The attempt policy: what to do after each attempt of one request, as pure functions.

`decide(policy, state, failure)` -> retry (now or after a wait, as one of the request's retries or
as a free attempt) or give up. `next_budget(...)` says how far a reply cut by the token limit may be
asked again. Nothing here sends, sleeps or counts: `backend.OpenAIBackend._one` does what they say.

- a refused transport option or structured-output form: a free attempt at once (the request changes);
- a failure another attempt will not fix (a client error, a reply past max_tokens): give up; a client
  error is not retryable by callers either (the same request gets it again);
- a timeout: retried only when the server showed life since the request was sent (busy); with none
  it is hung, and waiting again would cost the deadline again: give up;
- a busy server's "retry later" (429/503) while it answers other requests: a free attempt, as long as a
  first token may take (`first_token_timeout`);
- any other retryable failure: one of the request's `retries`, after the server's Retry-After (capped at
  `max_retry_after`) or an exponential backoff (`backoff * 2**(tried-1)`, capped at `max_backoff`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FailureKind = Literal["option", "final", "client", "retryable", "timeout"]


@dataclass(frozen=True)
class RetryPolicy:
    retries: int = 3
    backoff: float = 1.0
    max_backoff: float = 30.0
    max_retry_after: float = 60.0
    first_token_timeout: float = 300.0


@dataclass(frozen=True)
class AttemptState:
    tried: int  # attempts made, the failed one included
    allowed: int  # attempts this request may make (1 + retries, 1 for a breaker's probe, + free attempts)
    alive_since_sent: bool  # the server answered something (a reply, a token) since the request was sent
    elapsed: float  # seconds since the request was sent


@dataclass(frozen=True)
class Failure:
    kind: FailureKind
    overload: bool = False  # 429/503 or a timeout: the server is busy (fewer requests in flight)
    retry_after: float | None = None  # the server's Retry-After, seconds


@dataclass(frozen=True)
class Decision:
    action: Literal["retry", "give_up"]
    wait: float = 0.0
    free: bool = False  # not one of the request's retries (the attempt budget grows by one)
    callers_may_retry: bool = True  # the BackendError raised on giving up says whether a caller's retry may help


def decide(policy: RetryPolicy, state: AttemptState, failure: Failure) -> Decision:
    if failure.kind == "option":
        return Decision("retry", free=True)
    if failure.kind in ("final", "client"):
        return Decision("give_up", callers_may_retry=failure.kind == "final")
    if failure.kind == "timeout":
        # the backend retries a timeout itself: callers must not wait it out again
        if not state.alive_since_sent:
            return Decision("give_up", callers_may_retry=False)
        return _again(policy, state, failure, free=False, callers_may_retry=False)
    busy_but_alive = failure.overload and state.alive_since_sent and state.elapsed < policy.first_token_timeout
    return _again(policy, state, failure, free=busy_but_alive, callers_may_retry=True)


def _again(policy: RetryPolicy, state: AttemptState, failure: Failure, free: bool, callers_may_retry: bool) -> Decision:
    if state.tried >= state.allowed + int(free):
        return Decision("give_up", callers_may_retry=callers_may_retry)
    if failure.retry_after is not None:
        wait = min(failure.retry_after, policy.max_retry_after)
    else:
        wait = min(policy.backoff * (2 ** (state.tried - 1)), policy.max_backoff)
    return Decision("retry", wait=wait, free=free, callers_may_retry=callers_may_retry)


def next_budget(sent: int, thinking: bool, learned_thinking: int, cap: int, answer_cuts: int,
                room: int | None = None) -> int:
    """max_tokens to ask again with after a reply was cut at `sent` (equal to `sent`: do not ask again).

    Still thinking when cut, it needs far more room (4x); cut mid-answer, it is asked once more with 2x (a model
    that rambles would otherwise double its way to the cap). Never past `cap`, nor past `room`, the tokens the
    model's window leaves beside the prompt (a budget the window cannot hold is a 400, not a longer reply).
    """
    if not thinking and answer_cuts:
        return sent
    bigger = min(cap, max((4 if thinking else 2) * sent, sent + learned_thinking))
    if room is not None:
        bigger = min(bigger, room)
    return max(bigger, sent)
