"""The `openai` backend's old import path, kept for code that imports it: see archehr/llm/openai/."""

from archehr.llm.openai.backend import OpenAIBackend
from archehr.llm.openai.config import HTTPX_FIX
from archehr.llm.openai.negotiation import FORMAT_LEVELS
from archehr.llm.openai.replies import Final as _Final
from archehr.llm.openai.replies import Reply as _Reply
from archehr.llm.openai.replies import Retryable as _Retryable
from archehr.llm.openai.replies import TimedOut as _Timeout
from archehr.llm.openai.replies import parse_completion, retry_after_seconds, server_message

__all__ = ["FORMAT_LEVELS", "HTTPX_FIX", "OpenAIBackend", "_Final", "_Reply", "_Retryable", "_Timeout",
           "parse_completion", "retry_after_seconds", "server_message"]
