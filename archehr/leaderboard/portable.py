"""Machine-independent text for the leaderboard's outputs: no absolute path of this machine in any file.

LEADERBOARD.md is checked for staleness (`--check`) in other checkouts, so everything written must be
the same wherever the repository lives. Two rules:
- paths the leaderboard itself knows (submissions, the key, files named by problems) are written
  relative to the output folder when they lie under it, else relative to the working directory,
  else by file name;
- absolute paths *recorded* in run.json (written by `archehr predict` on some machine) are written by
  file name only: relativising them against this checkout would make the output depend on where it is.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

# An absolute path inside free text: starts with "/" (not after a word character, a dot, a colon or a
# slash, so "n/a", "1/2", "./x" and "https://..." are left alone) or with a Windows drive letter.
_ABS_PATH = re.compile(r"(?<![\w./:~-])/(?:[^\s'\"`()<>,;|\]\[{}]+)|\b[A-Za-z]:\\[^\s'\"`()<>,;|\]\[{}]+")


def _name(p: str) -> str:
    win = PureWindowsPath(p)
    return (win.name if win.drive else PurePosixPath(p).name) or p


def portable_path(path: str | os.PathLike[str], bases: Sequence[Path] = ()) -> str:
    """`path` relative to the first base (then the working directory) holding it, else its file name.

    A relative path is kept as given: it already says nothing about this machine.
    """
    p = Path(path)
    if not p.is_absolute():
        return p.as_posix()
    resolved = p.resolve()
    for base in (*bases, Path.cwd()):
        try:
            return resolved.relative_to(Path(base).resolve()).as_posix() or "."
        except ValueError:
            continue
    return _name(str(p))


def portable_text(text: str, bases: Sequence[Path] = ()) -> str:
    """Every absolute path inside a message rewritten with :func:`portable_path`."""
    return _ABS_PATH.sub(lambda m: portable_path(m.group(0), bases), text)


def recorded_paths_to_names(value: Any) -> Any:
    """A copy of recorded JSON (run.json) whose absolute paths are replaced by their file names."""
    if isinstance(value, dict):
        return {k: recorded_paths_to_names(v) for k, v in value.items()}
    if isinstance(value, list):
        return [recorded_paths_to_names(v) for v in value]
    if isinstance(value, str):
        return _ABS_PATH.sub(lambda m: _name(m.group(0)), value)
    return value
