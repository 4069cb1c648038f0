"""Reading AlignScore's Lightning checkpoint (`AlignScore-base.ckpt`) safely, and checking it fits the encoder.

The official checkpoint is a pytorch-lightning dict: `state_dict` (`base_model.*` = the RoBERTa encoder,
`mlm_head.*`, `bin_layer.*`, `tri_layer.*`, `reg_layer.*`; old transformers also saved the
`base_model.embeddings.position_ids` buffer), `hyper_parameters` (`{"model": "roberta-base",
"using_pretrained": True}`, possibly as Lightning's `AttributeDict`), and trainer state (epoch, loops,
callbacks, optimizer states) that pickles Lightning and other classes.

It is read with torch's weights-only unpickler, so nothing in the file can run code. Any class that
unpickler does not allow (Lightning's, a path, or anything planted in the file) is mapped to an inert
placeholder: its state is kept as plain data, its constructor and methods never run (see `_Inert`).
Only tensors and plain containers are used from the result.

Any problem with the file is one `ConfigError` naming it: the user passed the wrong file.
"""

from __future__ import annotations

import zipfile
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from archehr.errors import ConfigError, Problem

ENCODER_PREFIX = "base_model."
LEGACY_BUFFERS = frozenset({"embeddings.position_ids"})  # saved by transformers < 4.31, a non-persistent buffer since
N_LABELS = 3  # nli_sp: the 3-way head, P(aligned) is class 0


@dataclass(frozen=True)
class AlignScoreCheckpoint:
    """What the metric uses from the file."""

    path: Path
    encoder: dict[str, Any]  # the `base_model.*` tensors, prefix removed (legacy buffers dropped)
    tri_layer: dict[str, Any]  # "weight" (3, hidden) and "bias" (3,)
    hyper_parameters: dict[str, Any]  # {} when the file has none
    other_prefixes: tuple[str, ...]  # the other heads present (mlm_head, bin_layer, reg_layer): unused by nli_sp

    @property
    def base_model_name(self) -> str | None:
        name = self.hyper_parameters.get("model")
        return name if isinstance(name, str) else None


class _Inert:
    """Stands in for every class or function the weights-only unpickler does not allow.

    Whether the file builds the object (NEWOBJ) or calls it (REDUCE), the result is an empty OrderedDict,
    the one container that unpickler lets a file fill (SETITEMS) and give state (BUILD): a Lightning
    AttributeDict keeps its items, any other object becomes its attribute dict, and nothing runs.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        return OrderedDict()


def _bad(path: Path, message: str) -> ConfigError:
    return ConfigError(Problem(f"not a usable AlignScore checkpoint: {message} (--alignscore-ckpt)", str(path),
                               code="bad-checkpoint"))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200]}" if text else type(exc).__name__


def _unpickle(path: Path) -> Any:
    import torch

    try:
        unknown = torch.serialization.get_unsafe_globals_in_checkpoint(str(path))
        with torch.serialization.safe_globals([(_Inert, name) for name in unknown]):
            # mmap: the real file is 1.4 GB, mostly optimizer state that is never used
            return torch.load(str(path), map_location="cpu", weights_only=True, mmap=zipfile.is_zipfile(path))
    except Exception as exc:  # whatever the file holds, the answer is one line naming it
        raise _bad(path, f"torch cannot read it safely ({_first_line(exc)})") from None


def read_checkpoint(path: Path) -> AlignScoreCheckpoint:
    """The encoder weights, 3-way head and hyper-parameters of an AlignScore checkpoint, or a ConfigError."""
    import torch

    loaded = _unpickle(path)
    if isinstance(loaded, Mapping) and isinstance(loaded.get("state_dict"), Mapping):
        state, hparams = loaded["state_dict"], loaded.get("hyper_parameters") or {}
    elif isinstance(loaded, Mapping) and loaded and all(isinstance(v, torch.Tensor) for v in loaded.values()):
        state, hparams = loaded, {}  # a bare state dict
    else:
        raise _bad(path, "it holds no state_dict")
    if not isinstance(hparams, Mapping):
        raise _bad(path, f"its hyper_parameters are a {type(hparams).__name__}, not a mapping")
    if not all(isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in state.items()):
        raise _bad(path, "its state_dict holds something other than named tensors")
    encoder = {k[len(ENCODER_PREFIX):]: v for k, v in state.items() if k.startswith(ENCODER_PREFIX)}
    if not encoder:
        raise _bad(path, "its state_dict has no base_model.* (encoder) weights")
    head = {name: state.get(f"tri_layer.{name}") for name in ("weight", "bias")}
    weight, bias = head["weight"], head["bias"]
    if weight is None or bias is None:
        raise _bad(path, "its state_dict has no tri_layer.weight/tri_layer.bias (the 3-way head nli_sp uses)")
    if weight.dim() != 2 or weight.shape[0] != N_LABELS or tuple(bias.shape) != (N_LABELS,):
        raise _bad(path, f"tri_layer has shape {list(weight.shape)} + {list(bias.shape)}, expected [3, hidden] + [3]")
    prefixes = sorted({k.split(".", 1)[0] for k in state} - {"base_model", "tri_layer"})
    return AlignScoreCheckpoint(
        path,
        {k: v for k, v in encoder.items() if k not in LEGACY_BUFFERS},
        {"weight": weight, "bias": bias},
        dict(hparams),
        tuple(prefixes),
    )


def check_fits(checkpoint: AlignScoreCheckpoint, encoder: Any, model_name: str) -> None:
    """ConfigError unless the checkpoint has every encoder weight, each with the encoder's shape."""
    expected = {k: tuple(v.shape) for k, v in encoder.state_dict().items()}
    missing = [k for k, _ in encoder.named_parameters() if k not in checkpoint.encoder]
    wrong = [(k, tuple(v.shape), expected[k]) for k, v in checkpoint.encoder.items()
             if k in expected and tuple(v.shape) != expected[k]]
    hidden = encoder.config.hidden_size
    if tuple(checkpoint.tri_layer["weight"].shape) != (N_LABELS, hidden):
        wrong.append(("tri_layer.weight", tuple(checkpoint.tri_layer["weight"].shape), (N_LABELS, hidden)))
    if not missing and not wrong:
        return
    trained_on = checkpoint.base_model_name
    why = f"; it was trained on {trained_on!r} (hyper_parameters.model)" if trained_on else ""
    if wrong:
        name, got, want = wrong[0]
        more = f" (and {len(wrong) - 1} more)" if len(wrong) > 1 else ""
        first = f"base_model.{name}" if not name.startswith("tri_layer") else name
        message = f"{first} has shape {list(got)} where base model {model_name!r} has {list(want)}{more}"
    else:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        message = f"it lacks encoder weight base_model.{missing[0]}{more} of base model {model_name!r}"
    raise _bad(checkpoint.path, message + why)
