"""Pieces shared by leaderboard.html and report.html: escaping, one stylesheet, inline SVG charts.

Everything is inline (CSS, JS, SVG) so a page opens from disk or an e-mail attachment with no
network request at all.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

CSS = """
:root{--ess:#1b7837;--ess-bg:#d9f0d3;--sup:#8c6d00;--sup-bg:#fdf1c7;--nr:#666;--nr-bg:#f4f4f4;
--hit:#1b7837;--miss:#b2182b;--fa:#c2410c;--fg:#1a1a1a;--bad:#b2182b;--muted:#555;--line:#ddd;--accent:#1f4e9c}
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);margin:0;padding:0 1rem 3rem;
max-width:72rem;margin-inline:auto}
h1{font-size:1.5rem;margin:1rem 0 .25rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}h3{font-size:1.05rem;margin:.75rem 0 .25rem}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,summary:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:9}
.muted{color:var(--muted)}.small{font-size:.85em}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;font-size:.9rem}
th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;
vertical-align:top}th{background:#f7f7f7;position:sticky;top:0}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
th button{all:unset;cursor:pointer}th button:after{content:"\\00a0\\2195";color:#999}
body.wide{max-width:none}
.board .x{display:none}body:has(#more-cols:checked) .board .x{display:table-cell}
.board td.name{white-space:nowrap}.board td.name.long{white-space:normal;overflow-wrap:anywhere;min-width:8rem}
main li,.sigs code{overflow-wrap:anywhere}.nw{white-space:nowrap}
.ci{color:var(--muted);font-size:.8em;white-space:nowrap}
.bad{color:var(--miss)}.ok{color:var(--hit)}.partial{color:var(--sup)}
.charts{display:flex;flex-wrap:wrap;gap:1.5rem}.chart{flex:1 1 20rem;min-width:0}
.chart svg{width:100%;max-width:44rem;height:auto}
.legend p{margin:.2rem 0}.legend p>span{display:inline-block;margin-right:1rem}
.sw{display:inline-block;width:.9em;height:.9em;border-radius:2px;vertical-align:-.1em;margin-right:.3em}
.case{border-top:2px solid var(--line);padding-top:.5rem;margin-top:1.5rem}
.sents{list-style:none;padding:0;margin:.25rem 0}
.sent{padding:.2rem .4rem;margin:.15rem 0;border-left:4px solid transparent;border-radius:3px;scroll-margin-top:3rem}
.sent .sid{font-weight:600;margin-right:.4rem;font-variant-numeric:tabular-nums}
.sent.essential{background:var(--ess-bg);border-left-color:var(--ess)}
.sent.supplementary{background:var(--sup-bg);border-left-color:var(--sup)}
.sent.not-relevant{background:var(--nr-bg);border-left-color:#bbb}
.sent.unlabelled{background:#fff;border-left-color:#eee}
.sent:target,.sent.flash{outline:3px solid var(--accent);outline-offset:1px}
.mark{font-size:.78em;font-weight:600;padding:0 .35em;border-radius:.6em;margin-left:.4em;white-space:nowrap}
.mark.hit{background:var(--hit);color:#fff}.mark.miss{background:#fff;color:var(--miss);border:1px solid var(--miss)}
.mark.fa{background:var(--fa);color:#fff}.mark.lenient{background:var(--sup);color:#fff}
.answer p{margin:.2rem 0}.cite{font-weight:600;text-decoration:none;padding:0 .2em;border-radius:3px}
.cite.hit{color:var(--hit)}.cite.fa{color:var(--fa)}.cite.lenient{color:var(--sup)}.cite.unknown{color:var(--miss)}
.cite:hover,.cite:focus{background:#e8eefb}
.q{background:#f7f9ff;border-left:4px solid var(--accent);padding:.4rem .6rem;margin:.25rem 0}
.q mark{background:#dbe7ff}
nav.toc{columns:10rem;font-size:.9rem}nav.toc a{display:block}
.badge{display:inline-block;min-width:2.5em;
text-align:center;border-radius:.6em;background:#eee;font-size:.8em;padding:0 .3em}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
@media (max-width:640px){body{font-size:14px;padding:0 .5rem 2rem}
.grid2{grid-template-columns:1fr}nav.toc{columns:6rem}}
@media print{.noprint,.skip{display:none}a{color:inherit;text-decoration:none}.case{break-inside:avoid-page}
th{position:static}body{max-width:none}.sent{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
"""


def esc(s: object) -> str:
    return html.escape("" if s is None else str(s), quote=True)


def page(title: str, body: str, script: str = "", body_class: str = "") -> str:
    """A complete HTML document: inline CSS and script, a CSP that forbids every network load."""
    csp = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; "
           "connect-src 'none'; form-action 'none'; base-uri 'none'")
    body_attr = f' class="{esc(body_class)}"' if body_class else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">"
            "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            f"<title>{esc(title)}</title><style>{CSS}</style></head>\n<body{body_attr}>\n"
            "<a class=\"skip\" href=\"#main\">Skip to content</a>\n"
            f"{body}\n" + (f"<script>{script}</script>\n" if script else "") + "</body></html>\n")


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
    parts = [f'<svg viewBox="0 0 {label_w + bar_w + 70} {h}" role="img" aria-label="{esc(title)}">',
             f"<title>{esc(title)}</title>"]
    for t in range(int(lo), int(hi) + 1, 25 if hi - lo > 100 else 20 if hi - lo > 50 else 10):
        parts.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="0" y2="{h - 18}" stroke="#eee"/>'
                     f'<text x="{x(t):.1f}" y="{h - 5}" font-size="10" text-anchor="middle" fill="#666">{t}</text>')
    for i, (label, v, ci) in enumerate(items):
        y = i * row_h + 4
        # 170 px hold about 27 characters at 11 px: a longer label is cut (the full one in its tooltip), never
        # clipped at the chart's left edge
        shown = label if len(label) <= 27 else label[:26] + "\u2026"
        parts.append(f'<text x="{label_w - 6}" y="{y + 13}" font-size="11" text-anchor="end">'
                     f"<title>{esc(label)}</title>{esc(shown)}</text>")
        if v is None:
            parts.append(f'<text x="{label_w + 4}" y="{y + 13}" font-size="11" fill="#b2182b">n/a</text>')
            continue
        x0, x1 = sorted((x(max(lo, 0.0)), x(v)))
        parts.append(f'<rect x="{x0:.1f}" y="{y}" width="{max(x1 - x0, 1):.1f}" height="{row_h - 8}" fill="#4a78c2">'
                     f"<title>{esc(label)}: {v:.2f}{unit}</title></rect>")
        if ci:
            parts.append(f'<line x1="{x(ci[0]):.1f}" x2="{x(ci[1]):.1f}" y1="{y + 7}" y2="{y + 7}" stroke="#111" '
                         f'stroke-width="1.5"/>')
        parts.append(f'<text x="{max(x1, x(ci[1]) if ci else x1) + 4:.1f}" y="{y + 13}" font-size="11">{v:.1f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def histogram(values: Sequence[float], title: str, bins: int = 10, lo: float = 0.0, hi: float = 100.0) -> str:
    """Counts of values in equal bins over [lo, hi] (the last bin includes hi)."""
    counts = [0] * bins
    for v in values:
        i = min(bins - 1, max(0, int((v - lo) / (hi - lo) * bins)))
        counts[i] += 1
    w, h, pad = 360, 160, 28
    top = max(counts) or 1
    bw = (w - pad) / bins
    parts = [f'<svg viewBox="0 0 {w} {h + 30}" role="img" aria-label="{esc(title)}"><title>{esc(title)}</title>',
             f'<line x1="{pad}" x2="{w}" y1="{h}" y2="{h}" stroke="#999"/>']
    for i, c in enumerate(counts):
        bh = c / top * (h - 20)
        a, b = lo + i * (hi - lo) / bins, lo + (i + 1) * (hi - lo) / bins
        parts.append(f'<rect x="{pad + i * bw + 1:.1f}" y="{h - bh:.1f}" width="{bw - 2:.1f}" height="{bh:.1f}" '
                     f'fill="#4a78c2"><title>{a:.0f}-{b:.0f}: {c} case{"s" if c != 1 else ""}</title></rect>')
        if c:
            parts.append(f'<text x="{pad + (i + .5) * bw:.1f}" y="{h - bh - 3:.1f}" font-size="10" '
                         f'text-anchor="middle">{c}</text>')
        parts.append(f'<text x="{pad + i * bw:.1f}" y="{h + 12}" font-size="9" text-anchor="middle" '
                     f'fill="#666">{a:.0f}</text>')
    parts.append(f'<text x="{w - 2}" y="{h + 12}" font-size="9" text-anchor="end" fill="#666">{hi:.0f}</text>')
    parts.append(f'<text x="{pad}" y="{h + 26}" font-size="10" fill="#444">{esc(title)}</text></svg>')
    return "".join(parts)


def grouped_bars(groups: Sequence[tuple[str, Sequence[float | None]]], series: Sequence[tuple[str, str]],
                 title: str) -> str:
    """Horizontal grouped bars on 0..100: one group per label, one bar per series (name, colour)."""
    label_w, bar_w, bar_h = 170, 300, 9
    group_h = bar_h * len(series) + 8
    h = group_h * len(groups) + 36
    parts = [f'<svg viewBox="0 0 {label_w + bar_w + 50} {h}" role="img" aria-label="{esc(title)}">',
             f"<title>{esc(title)}</title>"]
    for t in range(0, 101, 20):
        xt = label_w + t / 100 * bar_w
        parts.append(f'<line x1="{xt:.1f}" x2="{xt:.1f}" y1="0" y2="{h - 34}" stroke="#eee"/>'
                     f'<text x="{xt:.1f}" y="{h - 22}" font-size="10" text-anchor="middle" fill="#666">{t}</text>')
    for gi, (label, vals) in enumerate(groups):
        y0 = gi * group_h + 2
        parts.append(f'<text x="{label_w - 6}" y="{y0 + group_h / 2 + 2:.1f}" font-size="11" '
                     f'text-anchor="end">{esc(label)}</text>')
        for si, ((name, colour), v) in enumerate(zip(series, vals, strict=True)):
            if v is None:
                continue
            parts.append(f'<rect x="{label_w}" y="{y0 + si * bar_h}" width="{max(v / 100 * bar_w, 0.5):.1f}" '
                         f'height="{bar_h - 1}" fill="{colour}">'
                         f"<title>{esc(label)} {esc(name)}: {v:.1f}</title></rect>")
    lx = label_w
    for name, colour in series:
        parts.append(f'<rect x="{lx}" y="{h - 12}" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{lx + 14}" y="{h - 3}" font-size="10">{esc(name)}</text>')
        lx += 90
    parts.append("</svg>")
    return "".join(parts)


SORT_JS = """
document.querySelectorAll('table.sortable th button').forEach(function(b){b.addEventListener('click',function(){
var th=b.parentElement,table=th.closest('table'),i=[].indexOf.call(th.parentElement.children,th),
body=table.tBodies[0],rows=[].slice.call(body.rows),asc=th.getAttribute('aria-sort')!=='ascending';
rows.sort(function(r1,r2){var a=r1.cells[i].dataset.v,c=r2.cells[i].dataset.v;
var x=parseFloat(a),y=parseFloat(c);if(isNaN(x))x=-Infinity;if(isNaN(y))y=-Infinity;
if(a===undefined||c===undefined){
a=r1.cells[i].textContent;c=r2.cells[i].textContent;return asc?a.localeCompare(c):c.localeCompare(a)}
return asc?x-y:y-x});
table.querySelectorAll('th').forEach(function(h){h.removeAttribute('aria-sort')});
th.setAttribute('aria-sort',asc?'ascending':'descending');rows.forEach(function(r){body.appendChild(r)})})});
"""
