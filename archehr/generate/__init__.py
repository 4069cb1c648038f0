"""Answer generators: extractive (default), plain (glossary rewrite), llm (prompt, verify, repair)."""
