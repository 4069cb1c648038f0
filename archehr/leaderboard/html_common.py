"""Pieces shared by leaderboard.html and report.html: escaping, one stylesheet, inline SVG charts.

Everything is inline (CSS, JS, SVG) so a page opens from disk or an e-mail attachment with no
network request at all. The markup is in archehr/templates/leaderboard/ (page.html, the charts' .svg,
style.css, sort.js); this module computes what they show.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from archehr.templating import markup, render, static

CSS = static("leaderboard/style.css")  # reports and boards; the web app adds serve/serve-extra.css
SORT_JS = static("leaderboard/sort.js")  # click a column header of a `table.sortable` to sort by it

def page(title: str, body: str, script: str = "", body_class: str = "") -> str:
    """A complete HTML document: inline CSS and script, a CSP that forbids every network load."""
    return render("leaderboard/page.html", title=title, body=markup(body), css=markup(CSS),
                  script=markup(script), body_class=body_class)


def _nice_range(values: Sequence[float]) -> tuple[float, float]:
    lo = min(0.0, *values) if values else 0.0
    hi = max(100.0, *values) if values else 100.0
    return math.floor(lo / 10) * 10, math.ceil(hi / 10) * 10


def hbar_chart(items: Sequence[tuple[str, float | None, tuple[float, float] | None]], title: str,
               unit: str = "") -> str:
    """Horizontal bars (label, value, optional CI whisker); None shows as 'n/a' with no bar."""
    vals = [v for _, v, _ in items if v is not None] + [c for _, _, ci in items if ci for c in ci]
    lo, hi = _nice_range(vals)
    label_w, bar_w, row_h = 170, 300, 22
    h = row_h * len(items) + 30
    x = lambda v: label_w + (v - lo) / (hi - lo or 1) * bar_w  # noqa: E731 - local scale
    step = 25 if hi - lo > 100 else 20 if hi - lo > 50 else 10
    ticks = [{"x": f"{x(t):.1f}", "value": t} for t in range(int(lo), int(hi) + 1, step)]
    rows = []
    for i, (label, v, ci) in enumerate(items):
        # 170 px hold about 27 characters at 11 px: a longer label is cut (the full one in its tooltip), never
        # clipped at the chart's left edge
        row: dict[str, object] = {"y": i * row_h + 4, "label": label, "value": v,
                                  "shown": label if len(label) <= 27 else label[:26] + "\u2026"}
        if v is not None:
            x0, x1 = sorted((x(max(lo, 0.0)), x(v)))
            row |= {"x0": f"{x0:.1f}", "width": f"{max(x1 - x0, 1):.1f}", "value2": f"{v:.2f}",
                    "value1": f"{v:.1f}", "ci": (f"{x(ci[0]):.1f}", f"{x(ci[1]):.1f}") if ci else None,
                    "text_x": f"{max(x1, x(ci[1]) if ci else x1) + 4:.1f}"}
        rows.append(row)
    return render("leaderboard/hbar.svg", width=label_w + bar_w + 70, h=h, title=title, ticks=ticks, rows=rows,
                  label_x=label_w - 6, na_x=label_w + 4, bar_h=row_h - 8, unit=unit)


def histogram(values: Sequence[float], title: str, bins: int = 10, lo: float = 0.0, hi: float = 100.0) -> str:
    """Counts of values in equal bins over [lo, hi] (the last bin includes hi)."""
    counts = [0] * bins
    for v in values:
        i = min(bins - 1, max(0, int((v - lo) / (hi - lo) * bins)))
        counts[i] += 1
    w, h, pad = 360, 160, 28
    top = max(counts) or 1
    bw = (w - pad) / bins
    rows = []
    for i, c in enumerate(counts):
        bh = c / top * (h - 20)
        a, b = lo + i * (hi - lo) / bins, lo + (i + 1) * (hi - lo) / bins
        rows.append({"x": f"{pad + i * bw + 1:.1f}", "y": f"{h - bh:.1f}", "height": f"{bh:.1f}", "count": c,
                     "lo": f"{a:.0f}", "hi": f"{b:.0f}", "mid": f"{pad + (i + .5) * bw:.1f}",
                     "top": f"{h - bh - 3:.1f}", "left": f"{pad + i * bw:.1f}"})
    return render("leaderboard/histogram.svg", w=w, h=h, pad=pad, bw=f"{bw - 2:.1f}", bins=rows, hi=f"{hi:.0f}",
                  title=title)


def grouped_bars(groups: Sequence[tuple[str, Sequence[float | None]]], series: Sequence[tuple[str, str]],
                 title: str) -> str:
    """Horizontal grouped bars on 0..100: one group per label, one bar per series (name, colour)."""
    label_w, bar_w, bar_h = 170, 300, 9
    group_h = bar_h * len(series) + 8
    h = group_h * len(groups) + 36
    ticks = [{"x": f"{label_w + t / 100 * bar_w:.1f}", "value": t} for t in range(0, 101, 20)]
    rows = []
    for gi, (label, vals) in enumerate(groups):
        y0 = gi * group_h + 2
        bars = [{"y": y0 + si * bar_h, "width": f"{max(v / 100 * bar_w, 0.5):.1f}", "colour": colour, "name": name,
                 "value": f"{v:.1f}"}
                for si, ((name, colour), v) in enumerate(zip(series, vals, strict=True)) if v is not None]
        rows.append({"label": label, "y": f"{y0 + group_h / 2 + 2:.1f}", "bars": bars})
    legend = [{"x": label_w + 90 * i, "colour": colour, "name": name} for i, (name, colour) in enumerate(series)]
    return render("leaderboard/grouped.svg", width=label_w + bar_w + 50, h=h, title=title, ticks=ticks,
                  groups=rows, legend=legend, label_x=label_w - 6, label_w=label_w, bar_h=bar_h)
