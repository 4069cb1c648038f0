"""Render a ScoreReport as text, JSON, CSV or Markdown, and its per-case table as CSV or JSON.

JSON is the contract other tools read: the official keys at the top level (official 0..100
scale, null when a metric could not run) plus `_meta`. The per-case texts kept in
`meta["cases"]` go to the per-case file, not to the summary.
"""

from __future__ import annotations

import csv
import io
import json
import math
from typing import Any

from archehr_scoring.results import ScoreReport
from archehr_scoring.tasks import TASKS, get_task, resolve

FORMATS = ("text", "json", "csv", "md")


def _num(v: float | None, digits: int = 2) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "null"
    return f"{v:.{digits}f}"


def summary_dict(report: ScoreReport) -> dict[str, Any]:
    out = report.to_json_dict()
    out["_meta"] = {k: v for k, v in out["_meta"].items() if k != "cases"}
    return out


def to_json(report: ScoreReport) -> str:
    return json.dumps(summary_dict(report), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _rows(report: ScoreReport) -> list[tuple[str, float | None, tuple[float, float] | None]]:
    ci = report.ci or {}
    return [(k, v, ci.get(k)) for k, v in report.scores.items()]


def _notes(report: ScoreReport) -> list[str]:
    lines = []
    for k, p in report.partial.items():
        parts = ", ".join(f"{a} (partial)" if a in report.partial else a for a in p.averaged)
        lines.append(f"partial {k} = {_num(p.value)}: mean of {parts}"
                     + (f"; missing {', '.join(p.missing)}" if p.missing else "")
                     + " (NOT the official score, which is null)")
    for name, why in report.unavailable.items():
        lines.append(f"unavailable {name}: {why}")
    return lines


def to_text(report: ScoreReport) -> str:
    rows = _rows(report)
    width = max((len(k) for k, _, _ in rows), default=10)
    has_ci = any(c for _, _, c in rows)
    head = [f"task {report.task}"] + [f"{name} {report.meta[field]}" for name, field in
                                      (("key", "key"), ("reference", "reference"), ("cases", "n_cases"))
                                      if field in report.meta]
    out = ["  ".join(head)]
    for k, v, c in rows:
        line = f"{k:<{width}}  {_num(v):>8}"
        if has_ci:
            line += f"  [{_num(c[0])}, {_num(c[1])}]" if c else "  "
        out.append(line)
    notes = _notes(report)
    if notes:
        out.append("")
        out += notes
    out.append("")
    out += [f"signature {name}: {sig}" for name, sig in report.signatures.items()]
    if report.warnings:
        out.append(f"{len(report.warnings)} warning(s): run `archehr validate` or see _meta.warnings")
    return "\n".join(out) + "\n"


def to_csv(report: ScoreReport) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["key", "value", "ci95_low", "ci95_high"])
    for k, v, c in _rows(report):
        w.writerow([k, "" if v is None else repr(float(v)), "" if not c else repr(c[0]), "" if not c else repr(c[1])])
    return buf.getvalue()


def to_markdown(report: ScoreReport) -> str:
    has_ci = bool(report.ci)
    out = ["| key | value |" + (" 95% CI |" if has_ci else ""), "|---|---:|" + ("---|" if has_ci else "")]
    for k, v, c in _rows(report):
        out.append(f"| {k} | {_num(v)} |" + ((f" {_num(c[0])} - {_num(c[1])} |" if c else " |") if has_ci else ""))
    notes = _notes(report)
    if notes:
        out.append("")
        out += [f"- {n}" for n in notes]
    out.append("")
    out += [f"- `{name}`: `{sig}`" for name, sig in report.signatures.items()]
    return "\n".join(out) + "\n"


def render(report: ScoreReport, fmt: str = "text") -> str:
    return {"text": to_text, "json": to_json, "csv": to_csv, "md": to_markdown}[fmt](report)


def citation_order(sentence_id: str) -> tuple[int, int, str]:
    """Sentence ids as numbers (2 before 10), then any id that is not a number, as text."""
    text = sentence_id.strip()
    return (0, int(text), sentence_id) if text.isdigit() else (1, 0, sentence_id)


def per_case_records(report: ScoreReport) -> list[dict[str, Any]]:
    """One record per case: every per-case statistic, plus the answer as scored when known."""
    cases = report.meta.get("cases", {})
    hook = get_task(report.task).case_scores if report.task in TASKS else None
    extras = resolve(hook) if hook else None
    out = []
    for cid, row in report.per_case.items():
        rec: dict[str, Any] = {"case_id": cid}
        extra = cases.get(cid, {})
        if "citations" in extra:
            rec["citations"] = ";".join(sorted(extra["citations"], key=citation_order))
        rec.update(row)
        if extras is not None:
            rec.update(extras(row))
        if "answer_as_scored" in extra:
            rec["answer_as_scored"] = extra["answer_as_scored"]
        out.append(rec)
    return out


def per_case_csv(report: ScoreReport) -> str:
    records = per_case_records(report)
    cols: list[str] = []
    for r in records:
        cols += [k for k in r if k not in cols]
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=cols, lineterminator="\n")
    w.writeheader()
    for r in records:
        w.writerow({k: (repr(v) if isinstance(v, float) else v) for k, v in r.items()})
    return buf.getvalue()


def per_case_json(report: ScoreReport) -> str:
    return json.dumps(per_case_records(report), indent=2, ensure_ascii=False) + "\n"
