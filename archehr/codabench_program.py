#!/usr/bin/env python3
"""Codabench scoring program for ArchEHR-QA, written into bundles by `archehr codabench` as `score.py`.

Codabench runs `python3 /app/program/score.py /app/input /app/output` (see metadata.yaml) in the
competition's docker image, with the reference data unzipped in `<input>/ref` and the participant's
zip unzipped in `<input>/res`. This program scores the submission with archehr's scorer, vendored in
`lib/` beside it (pure Python; the image needs Python >= 3.11 with numpy, lxml and pyyaml), and writes
`<output>/scores.json` with the leaderboard's column keys, plus `<output>/report.json` (every score,
signature, warning and per-case row) for the organisers. Bad input: one line per problem on stderr and
exit code 1, which Codabench shows to the participant as the failed submission's error log.

This file only uses the standard library and the vendored scorer: it must not import anything else of
archehr (it runs outside any archehr installation).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CONFIG_NAME = "archehr_program.json"


def _submission_file(res: Path) -> Path:
    """The submission: `submission.json` (the 2026 upload zip's member), else the only JSON file in the zip."""
    direct = res / "submission.json"
    if direct.is_file():
        return direct
    found = sorted(p for p in res.rglob("*.json") if p.is_file() and not p.name.startswith("."))
    if len(found) == 1:
        return found[0]
    names = ", ".join(p.relative_to(res).as_posix() for p in found) or "no JSON file"
    raise FileNotFoundError(f"the submission zip must hold submission.json at its root (found: {names})")


def column_scores(report: Any, columns: list[str]) -> dict[str, float]:
    """{column key: value} for the leaderboard: official scores, and `<key>_partial` for partial means.

    A score that could not be computed here is left out (Codabench shows N/A), never written as 0.
    """
    scores = report.scores
    partial = report.partial
    out: dict[str, float] = {}
    for key in columns:
        if key.endswith("_partial"):
            base = key[: -len("_partial")]
            value = scores.get(base)
            if value is None and base in partial:
                value = partial[base].value
        else:
            value = scores.get(key)
        if isinstance(value, (int, float)) and math.isfinite(value):  # Codabench stores a decimal: no NaN, inf
            out[key] = float(value)
    return out


def _other_task(api: Any, submission: Path, task: str) -> str | None:
    """The subtask the submission's shape implies, when it is not this competition's (None when unknown)."""
    try:
        detected = api.detect_task(api.read_submission(str(submission))[0])
    except Exception:  # noqa: BLE001 - only a hint: the located errors below are the answer
        return None
    return detected if detected != task else None


def main(argv: list[str]) -> int:
    input_dir = Path(argv[1]) if len(argv) > 1 else Path("/app/input")
    output_dir = Path(argv[2]) if len(argv) > 2 else Path("/app/output")
    config = json.loads((HERE / CONFIG_NAME).read_text(encoding="utf-8"))
    sys.path.insert(0, str(HERE / "lib"))
    import archehr_scoring
    from archehr.errors import ArchehrError, InputError
    from archehr_scoring import api

    print(f"archehr scorer {config['scorer_version']} from {Path(archehr_scoring.__file__).parent}")
    try:
        submission = _submission_file(input_dir / "res")
        report = api.score(config["task"], str(submission), str(input_dir / "ref"), metrics=config["metrics"])
    except FileNotFoundError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except InputError as e:
        other = _other_task(api, submission, config["task"])
        if other:  # each subtask is its own competition: say where this submission belongs, first
            print(f"error: this competition scores {config['task']}, and the submission has the shape of a {other} "
                  f"submission: submit it to the {other} competition", file=sys.stderr)
        for p in e.problems:
            print(f"error: {p}", file=sys.stderr)
        return 1
    except ArchehrError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    scores = column_scores(report, [c["key"] for c in config["columns"]])
    for w in report.warnings:
        print(f"warning: {w}", file=sys.stderr)
    for name, reason in report.unavailable.items():
        print(f"note: {name} not computed here: {reason}", file=sys.stderr)
    output_dir.mkdir(parents=True, exist_ok=True)
    (output_dir / "scores.json").write_text(json.dumps(scores, indent=2) + "\n", encoding="utf-8")
    (output_dir / "report.json").write_text(json.dumps(report.to_json_dict(), indent=2, default=str) + "\n",
                                            encoding="utf-8")
    print(f"task {report.task}: " + ", ".join(f"{k}={v:.4f}" for k, v in scores.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
