"""Versioned prompt templates: `configs/prompts/<name>.txt`, e.g. `answer_v1.txt`.

A template is never edited in place once a run used it: a change is a new file (`answer_v2.txt`),
so a run.json naming `answer_v1` plus the template's hash says exactly what was asked.
Placeholders use `string.Template` ($question, $sentences, ...) so clinical text with braces is safe.
"""

from __future__ import annotations

import hashlib
import string
from dataclasses import dataclass
from pathlib import Path

from archehr.configs import configs_dir
from archehr.errors import ConfigError, Problem


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    text: str
    source: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    def render(self, **values: str) -> str:
        try:
            return string.Template(self.text).substitute(**values)
        except (KeyError, ValueError) as e:
            raise ConfigError(Problem(f"prompt template needs a value for {e}", self.source)) from None


def load_prompt(name_or_path: str) -> PromptTemplate:
    p = Path(name_or_path)
    if not p.suffix:
        p = configs_dir() / "prompts" / f"{name_or_path}.txt"
    if not p.is_file():
        known = sorted(x.stem for x in (configs_dir() / "prompts").glob("*.txt"))
        raise ConfigError(Problem(f"no prompt template {name_or_path!r} (known: {', '.join(known) or 'none'})",
                                  str(p)))
    return PromptTemplate(p.stem, p.read_text(encoding="utf-8"), str(p))
