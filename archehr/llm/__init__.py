"""LLM backends (local transformers models, OpenAI-compatible servers) behind one `complete()` call."""
