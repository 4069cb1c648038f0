"""leaderboard.html: the ranked table with every official column, CIs, p-values, status and provenance.

The markup is archehr/templates/leaderboard/board.html; this module prepares what each row shows."""

from __future__ import annotations

from typing import Any

from archehr.leaderboard.board import Entry, Leaderboard
from archehr.leaderboard.html_common import SORT_JS, hbar_chart, page
from archehr.leaderboard.portable import portable_text
from archehr.leaderboard.render import PARTIAL_NOTE, fmt, fmt_p, headline_keys, problem_text, status_text
from archehr.leaderboard.run_folders import provenance_summary, system_cell
from archehr.templating import markup, render

LONG_NAME = 24  # run names longer than this may wrap (anywhere); shorter ones stay on one line


def _th(label: str, extra: bool = False, num: bool = True, sort: bool = True) -> Any:
    """A header cell whose name may break after `_` (overall_<wbr>relevance_<wbr>score) with its sort arrow."""
    cls = " ".join(c for c in ("num" if num else "", "x" if extra else "") if c)
    return markup(render("leaderboard/th.html", label=label, cls=cls, sort=sort))


def _row(lb: Leaderboard, e: Entry, keys: list[str], extra: set[str]) -> dict[str, Any]:
    """What one run's row shows (the markup is board.html's)."""
    cells = []
    for k in keys:
        v = e.value(k)
        ci = e.ci.get(k)
        star = "*" if e.is_partial(k) else ""
        cells.append({"extra": k in extra, "v": "" if v is None else v,
                      "partial": ", ".join(e.report.partial[k].averaged) if star and e.report else
                      "" if star else None,
                      "text": "" if e.report is None else fmt(v) + star,
                      "ci": (f"{ci[0]:.1f}", f"{ci[1]:.1f}") if ci else None})
    res = e.vs_top.get(lb.rank_key)
    prov = provenance_summary(e.run.provenance)
    return {
        "rid": "run-" + "".join(c if c.isalnum() else "-" for c in e.name), "status": e.status, "rank": e.rank,
        "name": e.name, "long": len(e.name) > LONG_NAME, "cells": cells,
        "p_v": "" if res is None else res.p,
        "p_text": fmt_p(res.p) if res else None,  # rank 1 shows a dash
        "delta": f"{-res.delta:+.2f}" if res else "",
        "delta_ci": (f"{-res.ci_high:+.2f}", f"{-res.ci_low:+.2f}") if res and res.ci_low is not None
        and res.ci_high is not None else None,
        "system": system_cell(prov), "commit": prov["commit"], "dirty": prov["dirty"],
        "ensemble": prov["ensemble"],  # an ensemble listed beside runs is marked beside its name
        # which scores are partial: the starred cells (their titles) and the notes
        "partial": e.status == "ok" and e.report is not None and any(e.is_partial(k) for k in keys),
        "status_text": status_text(e), "problems": [problem_text(p) for p in e.problems],
    }


def leaderboard_html(lb: Leaderboard) -> str:
    head = headline_keys(lb)
    # The task's headline scores are shown; the other official keys, the delta to #1, system and commit are
    # columns the reader can show (a checkbox, CSS only): all of them at once do not fit 1280 px.
    # A headline score no run has (a metric unavailable here: see the notes) is hidden with them.
    keys = head + [k for k in lb.keys if k not in head]
    empty = {k for k in head if k != lb.rank_key and all(e.value(k) is None for e in lb.entries)}
    extra = (set(keys) - set(head)) | empty
    ranked = lb.ranked
    chart = hbar_chart([(e.name, e.value(lb.rank_key), e.ci.get(lb.rank_key)) for e in ranked],
                       f"{lb.rank_key} per run") if ranked else ""
    partial: dict[str, set[str]] = {}
    for e in lb.entries:
        for k, spec in (e.report.partial if e.report else {}).items():
            partial.setdefault(k, set()).update(spec.averaged)
    body = render(
        "leaderboard/board.html", lb=lb, chart=markup(chart), th=_th, keys=keys, extra=extra, n_extra=len(extra),
        test_name="paired bootstrap" if lb.test == "bootstrap" else "approximate randomisation",
        rows=[_row(lb, e, keys, extra) for e in lb.entries],
        unavailable=[(m, portable_text(why)) for m, why in sorted(lb.unavailable.items())],
        partial=[(k, ", ".join(sorted(what))) for k, what in sorted(partial.items())], partial_note=PARTIAL_NOTE,
        signatures=[portable_text(s) for _, s in sorted(lb.signatures.items())])
    return page(f"Leaderboard ({lb.task})", body, SORT_JS, body_class="wide")
