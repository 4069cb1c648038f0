"""How a metric signature names a local model folder, checkpoint or index: its name plus a short content hash.

Never the absolute path: reports are shared, a path shows the user's file system, and the same weights must
give the same signature on every machine.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from archehr_scoring.metrics.bert_encoder import WEIGHT_FILES

HASH_CHARS = 12


def sha256_prefix(path: Path, limit: int | None = HASH_CHARS) -> str:
    """sha256 of a file's bytes (its first `limit` hex digits); read once per process while the file is unchanged."""
    st = path.stat()
    digest = _sha256(str(path.resolve()), st.st_size, st.st_mtime_ns)
    return digest[:limit] if limit else digest


@functools.lru_cache(maxsize=64)
def _sha256(path: str, size: int, mtime_ns: int) -> str:  # size and mtime: a file replaced in place is re-read
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def weights_sha256(folder: Path) -> str | None:
    """Short hash of the weight file transformers would load from `folder`; None when it has none."""
    for name in WEIGHT_FILES:
        if (folder / name).is_file():
            return sha256_prefix(folder / name)
    return None


def model_folder_id(spec: str) -> str:
    """`name#<weights hash>` for a local model folder; a hub/cache name (not a folder) as given."""
    p = Path(spec).expanduser()
    if not p.is_dir():
        return spec
    weights = weights_sha256(p)
    return f"{p.resolve().name}#{weights}" if weights else p.resolve().name


def file_id(path: Path) -> str:
    """`name#<content hash>` of a file (a checkpoint, a baseline)."""
    return f"{path.name}#{sha256_prefix(path)}"


def path_id(value: str, kind: str) -> str:
    """How a report names a setting that may be a local path, as the signatures name it: a `kind` "model"
    folder by `model_folder_id`, a "file" by `file_id`, an "index" folder by `index_id`. An absolute or home
    path that is not that keeps only its last part (`.../name`); anything else (a name in the HF cache, an
    alias, a relative path) as given."""
    p = Path(value).expanduser()
    if kind == "model" and p.is_dir():
        return model_folder_id(value)
    if kind == "file" and p.is_file():
        return file_id(p)
    if kind == "index" and p.is_dir():
        return index_id(p)
    if p.is_absolute():
        return f".../{p.name}"
    return value


def index_id(folder: Path) -> str:
    """`name#<manifest hash>` of an index folder: every file's relative path and size, plus the bytes of its small
    files (flags, settings). Not every byte: a QuickUMLS index of the UMLS is gigabytes, and the signature is
    computed on every scoring run."""
    h = hashlib.sha256()
    root = folder.resolve()
    for p in sorted((q for q in root.rglob("*") if q.is_file()), key=lambda q: q.relative_to(root).as_posix()):
        size = p.stat().st_size
        h.update(f"{p.relative_to(root).as_posix()}\0{size}\0".encode())
        if size <= 4096:
            h.update(p.read_bytes())
    return f"{root.name}#{h.hexdigest()[:HASH_CHARS]}"
