"""OUT_DIR of an ensemble: submission.json (the task's own writer, which refuses an invalid one) and run.json.

run.json says what the ensemble is and every choice it made, and nothing that changes between reruns
(no clock, no argv), so the same members and options give the same bytes. It carries the fields a run's
run.json carries that tools read (`status`, `task`, `split`, `data`, `system.name`,
`system.config_sha256`, `input_sha256`, `n_cases`) and an `ensemble` section that marks it as one.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from archehr.ensemble.combine import Settings
from archehr.ensemble.members import RUN_JSON, SUBMISSION, Member
from archehr.ensemble.vote import SIMILARITY

RULES = {
    "vote": "an item (note sentence id; st4: answer-note pair) is chosen when its weighted support "
            "sum(w of voters holding it) / sum(w) is at least the threshold (a tie is kept; archehr.llm.vote, "
            "the in-run self-consistency vote)",
    "no_item_reaches_threshold": "the items of highest support are taken (ties included)",
    "text": "minimum Bayes risk: the voter text with the highest weighted mean similarity to the other voters' "
            "texts; ties go to the earlier voter (command-line order)",
    "similarity": SIMILARITY,
    "fallbacks": "a member that fell back on a case votes as its fallback system there (run.json fallbacks); "
                 "members that fell back to the same system vote once, with their mean weight",
    "answer_2025": "the MBR answer's lines keep their voted citations; a voted id no line cites goes to the line "
                   "most like the voter lines citing it (weighted ROUGE-L; else the last cited line); a line whose "
                   "citations were all rejected and that got none is dropped; uncited lines stay; over the word "
                   "limit, trailing lines are dropped and their citations move to the last kept line",
}


def _portable(path: str) -> str:
    p = Path(path)
    try:
        here = Path.cwd().resolve()
        return Path(os.path.relpath(p.resolve(), here)).as_posix() if p.resolve().is_relative_to(here) \
            else p.resolve().as_posix()
    except (OSError, ValueError):
        return path


def member_record(m: Member, weight: float) -> dict[str, Any]:
    return {"path": _portable(m.path), "system": m.system, "config_sha256": m.config_sha256,
            "run_sha256": m.run_sha256, "model_share": m.model_share, "weight": round(weight, 6),
            "fallback_cases": sorted(m.fallbacks, key=lambda c: (len(c), c))}


def ensemble_name(members: Sequence[Member], settings: Settings) -> str:
    used = [m.system for k, m in enumerate(members) if settings.weight(k) > 0]
    return "ensemble(" + "+".join(used) + ")"


def run_record(members: Sequence[Member], settings: Settings, records: Mapping[str, Any],
               extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    from archehr import __version__

    first = members[0]
    ens = {"members": [member_record(m, settings.weight(k)) for k, m in enumerate(members)],
           "weights": "equal" if settings.weights is None else "given",
           "threshold": settings.threshold, "source": settings.source, "fit": dict(settings.details),
           "rules": RULES, **(dict(extra) if extra else {})}
    digest = hashlib.sha256(json.dumps({"members": [m.run_sha256 for m in members],
                                        "weights": [settings.weight(k) for k in range(len(members))],
                                        "threshold": settings.threshold}, sort_keys=True).encode()).hexdigest()
    return {"status": "complete", "task": first.task, "split": first.split, "data": first.data,
            "system": {"name": ensemble_name(members, settings), "config_sha256": digest, "kind": "ensemble"},
            "archehr_version": __version__, "n_cases": len(first.case_ids), "input_sha256": dict(first.input_sha256),
            "ensemble": ens, "cases": dict(records)}


def write_ensemble(out_dir: str | Path, members: Sequence[Member], settings: Settings, preds: Mapping[str, Any],
                   records: Mapping[str, Any], extra: Mapping[str, Any] | None = None) -> Path:
    """Write OUT_DIR/submission.json (refused, nothing written, when invalid) then OUT_DIR/run.json."""
    from archehr.atomic import write_text
    from archehr_scoring.tasks import get_task

    out = Path(out_dir)
    if (out / RUN_JSON).is_file() and '"ensemble"' not in (out / RUN_JSON).read_text(encoding="utf-8",
                                                                                     errors="replace"):
        from archehr.errors import InputError, Problem

        raise InputError(Problem("this folder holds a run that is not an ensemble (a member?): choose another "
                                 "output folder", str(out / RUN_JSON), field="--out", code="run-exists"))
    record = run_record(members, settings, records, extra)
    text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    try:
        get_task(members[0].task).write(dict(preds), out / SUBMISSION, {})
    except BaseException:
        if created:
            out.rmdir()  # nothing half-written: the folder this call made goes again
        raise
    write_text(out / RUN_JSON, text)
    return out
