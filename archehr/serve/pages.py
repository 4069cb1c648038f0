"""The server's HTML: the ask page (filled in by static/ask.js from /api/answer), the runs page (rendered here,
sorted and filtered by static/runs.js) and the API page (from the OpenAPI schema).

The markup is in archehr/templates/serve/ (Jinja2, autoescape: every value from a note, a submission or a run
is escaped); this module prepares what the pages show. The ask page's script writes answers with
`textContent` only. Style and scripts are files of this server: the pages work offline, and the
Content-Security-Policy (guard.py) forbids inline scripts, so markup in a note can never run.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from archehr.data.model import Relevance
from archehr.leaderboard.html_common import CSS
from archehr.leaderboard.html_report import anchor_of, answer_view, case_keys, question_view
from archehr.serve.runs_data import CaseRow, RunsComparison, RunsIndex
from archehr.templating import markup, render, static

SERVE_CSS = CSS + static("serve/serve-extra.css")
NAV = (("/", "Ask about a note"), ("/runs", "Compare runs"), ("/api", "JSON API"))


def shell(title: str, body: str, current: str, scripts: Sequence[str] = ()) -> str:
    return render("serve/shell.html", title=title, body=markup(body), current=current, scripts=scripts, nav=NAV)


def _body(name: str, **values: Any) -> str:
    """A page's body: its template writes each part on its own line; the body itself ends without one."""
    return render(name, **values).removesuffix("\n")


def ask_page(system: str) -> str:
    return shell("archehr: ask about a note", _body("serve/ask.html", system=system), "/", ["ask.js"])


def _fmt(v: float | None, sign: bool = False) -> str:
    return "n/a" if v is None else (f"{v:+.1f}" if sign else f"{v:.1f}")


def _delta(d: float | None) -> dict[str, str]:
    return {"cls": "" if not d else " pos" if d > 0 else " neg", "v": "" if d is None else f"{d:.6f}",
            "text": _fmt(d, True)}


def runs_page(index: RunsIndex, split: str | None, chosen: Sequence[int], cmp: RunsComparison | None,
              problems: Sequence[str], baseline: int | None = None) -> str:
    if not index.runs:
        return shell("archehr: compare runs", _body("serve/runs.html", has_runs=False), "/runs")
    chosen_tasks = {e.task for e in index.runs if e.id in chosen}
    boxes = [{"task": e.task or "", "id": e.id, "checked": e.id in chosen, "usable": e.usable, "name": e.name,
              "info": f"{e.task or 'unreadable'}" + (f", made on {e.split}" if e.split else "")} for e in index.runs]
    body = _body("serve/runs.html", has_runs=True, split=split, problems=problems, boxes=boxes, baseline=baseline,
                 splits=[(s, index.n_cases.get(s) or "?") for s in index.key_splits],
                 tasks=sorted({e.task for e in index.runs if e.task}),
                 chosen_task=next(iter(chosen_tasks)) if len(chosen_tasks) == 1 else None,
                 cmp=None if cmp is None else _comparison(index, cmp))
    return shell("archehr: compare runs", body, "/runs", ["runs.js"])


def _comparison(index: RunsIndex, cmp: RunsComparison) -> dict[str, Any]:
    """What the comparison shows: provenance, scores with their differences to the baseline, then every case."""
    provenance = []
    for e in cmp.runs:
        s = index.summary(e)
        meta = ", ".join(x for x in (f"system {s['system']}" if s["system"] else "",
                                     f"commit {s['commit']}" if s["commit"] else "") if x)
        provenance.append({"name": e.name, "meta": meta, "url": f"/runs/{e.id}/run.json" if e.run.run_json else None})
    scores = []
    for k in cmp.comparisons[0].keys:
        vals = [cmp.comparisons[0].a_scores.get(k)] + [c.b_scores.get(k) for c in cmp.comparisons]
        deltas = []
        for c in cmp.comparisons:
            r = c.results.get(k)
            ci = f"[{r.ci_low:+.1f}, {r.ci_high:+.1f}]" if r and r.ci_low is not None and r.ci_high is not None else ""
            deltas.append((_delta(r.delta if r else None), ci))
        scores.append({"key": k, "cells": [_fmt(v) for v in vals], "deltas": deltas})
    return {"names": [e.name for e in cmp.runs], "split": cmp.split, "task": cmp.task, "provenance": provenance,
            "scores": scores, "only": sorted({c for comp in cmp.comparisons for c in comp.only_in_one}),
            "specialties": sorted({s for r in cmp.rows for s in r.case.clinical_specialty}),
            "case_key": cmp.case_key, "rows": [_case(cmp, r) for r in cmp.rows]}


def _mark(v: Any, sid: str, lab: Relevance | None) -> str:
    """hit | lenient | fa | miss | "" (runs.html writes each)."""
    if sid in v.cited:
        return "hit" if lab is Relevance.ESSENTIAL else "lenient" if lab is Relevance.SUPPLEMENTARY else "fa"
    return "miss" if lab is Relevance.ESSENTIAL else ""


def _case(cmp: RunsComparison, r: CaseRow) -> dict[str, Any]:
    cid = r.case.case_id
    anchor = anchor_of(cid)
    d = r.deltas[1] if len(r.deltas) > 1 else None
    answers = []
    for i, (e, v) in enumerate(zip(cmp.runs, r.views, strict=True)):
        keys = [k for k in case_keys(cmp.task, cmp.reports[i]) if k]
        answers.append({"name": e.name, "scores": [(k, _fmt(v.scores.get(k))) for k in keys],
                        "answer": answer_view(cmp.task, v, anchor)})
    sentences = []
    for s in r.case.sentences:
        lab = r.key.label_of(s.id) if r.key else None
        sentences.append({"id": s.id, "cls": lab.value if lab else "unlabelled", "anchor": f"{anchor}-s{s.id}",
                          "text": s.text, "label": lab.value if lab else "no label",
                          "marks": [_mark(v, s.id, lab) for v in r.views]})
    return {"id": cid, "abs": "" if r.biggest is None else f"{r.biggest:.6f}", "delta": "" if d is None else
            f"{d:.6f}", "specialties": "|".join(r.case.clinical_specialty),
            "specialty": ", ".join(r.case.clinical_specialty), "scores": [_fmt(s) for s in r.scores],
            "deltas": [_delta(x) for x in r.deltas[1:]],
            "named_scores": [(e.name, _fmt(s)) for e, s in zip(cmp.runs, r.scores, strict=True)],
            "named_deltas": [(e.name, _fmt(x, True)) for e, x in zip(cmp.runs[1:], r.deltas[1:], strict=True)],
            "question": question_view(r.case), "answers": answers, "sentences": sentences}


def api_page(schema: dict[str, Any]) -> str:
    """The OpenAPI schema as a page (FastAPI's own /docs loads Swagger from a CDN: not here)."""
    comps = schema.get("components", {}).get("schemas", {})
    body = _body("serve/api.html", schema=schema, ref_name=_ref_name, repr=repr, code_spans=_code_spans,
                 request_body=lambda op: _request_body(op, comps), response_type=_response_type,
                 types=[(n, s) for n, s in comps.items() if n not in ("HTTPValidationError", "ValidationError")])
    return shell("archehr: JSON API", body, "/api")


def _code_spans(text: str) -> list[tuple[str, bool]]:
    """`x` pieces of a description (written in Markdown's style) as (text, is_code)."""
    parts = re.split(r"`([^`]+)`", text)
    return [(p, i % 2 == 1) for i, p in enumerate(parts) if p or i % 2 == 1]


def _request_body(op: dict[str, Any], comps: dict[str, Any]) -> dict[str, Any] | None:
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if not body:
        return None
    ref = body.get("$ref", "")
    return comps.get(ref.rsplit("/", 1)[-1], body) if ref else body


def _response_type(resp: dict[str, Any]) -> str:
    sch = resp.get("content", {}).get("application/json", {}).get("schema")
    return _ref_name(sch) if sch else ""


def _ref_name(sch: dict[str, Any]) -> str:
    ref = sch.get("$ref", "")
    if ref:
        return ref.rsplit("/", 1)[-1]
    if sch.get("type") == "array" and isinstance(sch.get("items"), dict):
        return f"list[{_ref_name(sch['items'])}]"
    return str(sch.get("type", ""))
