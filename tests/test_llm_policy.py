"""The openai backend's attempt policy (archehr/llm/openai/policy.py), alone: no server, no clock."""

from __future__ import annotations

import pytest

from archehr.llm.openai.policy import AttemptState, Failure, RetryPolicy, decide, next_budget

P = RetryPolicy(retries=3, backoff=1.0, max_backoff=30.0, max_retry_after=60.0, first_token_timeout=300.0)


def state(tried: int, allowed: int = 4, alive: bool = False, elapsed: float = 1.0) -> AttemptState:
    return AttemptState(tried, allowed, alive, elapsed)


def test_a_broken_reply_is_retried_with_exponential_backoff_then_given_up():
    waits = [decide(P, state(t), Failure("retryable")) for t in (1, 2, 3)]
    assert [(d.action, d.wait, d.free) for d in waits] == [("retry", 1.0, False), ("retry", 2.0, False),
                                                           ("retry", 4.0, False)]
    last = decide(P, state(4), Failure("retryable"))
    assert last.action == "give_up" and last.callers_may_retry


def test_backoff_and_retry_after_are_capped():
    assert decide(P, state(3, allowed=10), Failure("retryable")).wait == 4.0
    assert decide(RetryPolicy(backoff=10, max_backoff=15), state(3, 10), Failure("retryable")).wait == 15.0
    assert decide(P, state(1), Failure("retryable", retry_after=7.5)).wait == 7.5
    assert decide(P, state(1), Failure("retryable", retry_after=600)).wait == 60.0


def test_a_client_error_is_final_for_callers_too_and_a_final_one_is_not():
    client = decide(P, state(1), Failure("client"))
    final = decide(P, state(1), Failure("final"))
    assert (client.action, client.callers_may_retry) == ("give_up", False)
    assert (final.action, final.callers_may_retry) == ("give_up", True)


def test_a_refused_option_is_a_free_attempt_at_once():
    d = decide(P, state(4, allowed=4), Failure("option"))
    assert (d.action, d.wait, d.free) == ("retry", 0.0, True)


def test_a_timeout_with_no_sign_of_life_is_hung_and_one_while_the_server_answers_is_busy():
    hung = decide(P, state(1, alive=False), Failure("timeout", overload=True))
    busy = decide(P, state(1, alive=True), Failure("timeout", overload=True))
    assert (hung.action, hung.callers_may_retry) == ("give_up", False)
    assert (busy.action, busy.free, busy.callers_may_retry) == ("retry", False, False)


def test_a_busy_servers_503_is_a_free_attempt_only_while_it_answers_others_within_the_first_token_deadline():
    alive = decide(P, state(4, alive=True, elapsed=10), Failure("retryable", overload=True, retry_after=1))
    silent = decide(P, state(4, alive=False), Failure("retryable", overload=True, retry_after=1))
    late = decide(P, state(4, alive=True, elapsed=301), Failure("retryable", overload=True, retry_after=1))
    assert (alive.action, alive.free, alive.wait) == ("retry", True, 1.0)
    assert silent.action == "give_up" and late.action == "give_up"


def test_a_probe_gets_one_try():
    assert decide(P, state(1, allowed=1), Failure("retryable")).action == "give_up"


@pytest.mark.parametrize("sent,thinking,learned,answer_cuts,room,want", [
    (300, False, 0, 0, None, 600),  # cut mid-answer: once more with 2x
    (300, False, 0, 1, None, 300),  # twice: not again (a rambling model would double to the cap)
    (300, True, 0, 0, None, 1200),  # still thinking: 4x
    (300, True, 0, 0, None, 1200),
    (3000, True, 0, 0, None, 8192),  # the cap
    (300, False, 900, 0, None, 1200),  # what the model was seen to think
    (300, False, 0, 0, 450, 450),  # never past what the window leaves beside the prompt
    (300, False, 0, 0, 200, 300),  # the window leaves no more: not asked again
])
def test_the_budget_a_cut_reply_is_asked_again_with(sent, thinking, learned, answer_cuts, room, want):
    assert next_budget(sent, thinking, learned, 8192, answer_cuts, room) == want
