"""The `openai` backend as a small package: `config` (option checks), `transport` (HTTP, SSE, watchdog),
`negotiation` (served model, structured-output form, context window, token counts), `policy` (the pure
retry decision), `replies` (reading a reply, kinds of failure), `stats` (run.json), `backend` (one
request's attempts)."""

from archehr.llm.openai.backend import OpenAIBackend

__all__ = ["OpenAIBackend"]
