"""leaderboard.html: the ranked table with every official column, CIs, p-values, status and provenance."""

from __future__ import annotations

from archehr.leaderboard.board import Leaderboard
from archehr.leaderboard.html_common import SORT_JS, esc, hbar_chart, page
from archehr.leaderboard.portable import portable_text
from archehr.leaderboard.render import PARTIAL_NOTE, fmt, fmt_p, headline_keys, problem_text, status_text
from archehr.leaderboard.run_folders import provenance_summary, system_cell

MORE_ID = "more-cols"
LONG_NAME = 24  # run names longer than this may wrap (anywhere); shorter ones stay on one line


def _th(label: str, extra: bool, num: bool = True, sort: bool = True) -> str:
    """A header cell whose name may break after `_` (overall_<wbr>relevance_<wbr>score) with its sort arrow."""
    cls = " ".join(c for c in ("num" if num else "", "x" if extra else "") if c)
    text = esc(label).replace("_", "_<wbr>")
    attr = f' class="{cls}"' if cls else ""
    return f"<th{attr}>" + (f"<button>{text}</button>" if sort else text) + "</th>"


def leaderboard_html(lb: Leaderboard) -> str:
    head = headline_keys(lb)
    # The task's headline scores are shown; the other official keys, the delta to #1, system and commit are
    # columns the reader can show (a checkbox, CSS only): all of them at once do not fit 1280 px.
    # A headline score no run has (a metric unavailable here: see the notes) is hidden with them.
    keys = head + [k for k in lb.keys if k not in head]
    empty = {k for k in head if k != lb.rank_key and all(e.value(k) is None for e in lb.entries)}
    extra = (set(keys) - set(head)) | empty
    test_name = "paired bootstrap" if lb.test == "bootstrap" else "approximate randomisation"
    body = [f'<header><h1>Leaderboard <span class="muted">({esc(lb.task)})</span></h1>',
            f'<p class="muted">Ranked by <code>{esc(lb.rank_key)}</code> ({lb.direction}). '
            f"95% bootstrap CIs over cases ({lb.n_resamples} resamples, seed {lb.seed}); p = {test_name} test "
            f"against rank 1 on <code>{esc(lb.rank_key)}</code>. Key <code>{esc(lb.key_file.name)}</code> "
            f"(sha256 {esc(lb.key_sha256[:12])}).</p>"]
    if lb.rank_note:
        body.append(f'<p class="partial"><strong>Note:</strong> {esc(lb.rank_note)}.</p>')
    body.append('</header><main id="main">')
    ranked = lb.ranked
    if ranked:
        body.append('<section class="chart" aria-labelledby="chart-h"><h2 id="chart-h">'
                    f"{esc(lb.rank_key)} with 95% CI</h2>")
        body.append(hbar_chart([(e.name, e.value(lb.rank_key), e.ci.get(lb.rank_key)) for e in ranked],
                               f"{lb.rank_key} per run"))
        body.append("</section>")
    body.append('<h2>Runs</h2><p class="noprint small"><label><input type="checkbox" id="' + MORE_ID + '"> '
                f"show every official score ({len(extra)} more columns), &Delta; vs #1, system and commit</label></p>"
                '<div class="scroll"><table class="sortable board" id="board"><thead><tr>'
                + _th("#", False) + _th("run", False, num=False))
    body += [_th(k, k in extra) for k in keys]
    body.append(_th("p vs #1", False) + '<th class="num x">&Delta; vs #1 [95% CI]</th>' + _th("system", True, num=False)
                + _th("commit", True, num=False) + _th("status", False, num=False, sort=False)
                + "</tr></thead><tbody>")
    for e in lb.entries:
        rid = "run-" + "".join(c if c.isalnum() else "-" for c in e.name)
        cls = "ok" if e.status == "ok" else "bad"
        row = [f'<tr id="{esc(rid)}" class="run" data-status="{esc(e.status)}">',
               f'<td class="num" data-v="{e.rank or ""}">{e.rank or "-"}</td>'
               f'<td class="name{" long" if len(e.name) > LONG_NAME else ""}">{esc(e.name)}</td>']
        for k in keys:
            v = e.value(k)
            ci = e.ci.get(k)
            star = "*" if e.is_partial(k) else ""
            parts = e.report.partial[k].averaged if star and e.report else []
            title = f' title="partial: {esc(", ".join(parts))}"' if star else ""
            row.append(f'<td class="num{" x" if k in extra else ""}" data-v="{"" if v is None else v}"{title}>'
                       f"{'' if e.report is None else fmt(v) + star}"
                       + (f'<br><span class="ci">[{ci[0]:.1f}, {ci[1]:.1f}]</span>' if ci else "") + "</td>")
        res = e.vs_top.get(lb.rank_key)
        row.append(f'<td class="num" data-v="{"" if res is None else res.p}">'
                   f"{fmt_p(res.p) if res else ('&mdash;' if e.rank == 1 else '')}</td>")
        if res and res.ci_low is not None and res.ci_high is not None:
            row.append(f'<td class="num x">{-res.delta:+.2f} <span class="ci">[{-res.ci_high:+.2f}, '
                       f"{-res.ci_low:+.2f}]</span></td>")
        else:
            row.append(f'<td class="num x">{f"{-res.delta:+.2f}" if res else ""}</td>')
        prov = provenance_summary(e.run.provenance)
        row.append(f'<td class="x">{esc(system_cell(prov))}</td><td class="x"><code>{esc(prov["commit"])}</code>'
                   f"{' (dirty)' if prov['dirty'] else ''}</td>")
        if e.status == "ok":  # which scores are partial: the starred cells (their titles) and the notes
            partial = e.report is not None and any(e.is_partial(k) for k in keys)
            row.append(f'<td class="{cls}">ok{" (partial)" if partial else ""}</td>')
        elif e.status == "other-task":  # "st2 run: use --task st2" on one line (it would break at the "--")
            row.append(f'<td class="{cls} nw">{esc(status_text(e))}</td>')
        else:
            probs = "".join(f"<li>{esc(problem_text(p))}</li>" for p in e.problems[:50])
            more = f"<li>... {len(e.problems) - 50} more</li>" if len(e.problems) > 50 else ""
            row.append(f'<td class="bad"><details><summary>{esc(e.status)}: {len(e.problems)} problem'
                       f'{"s" if len(e.problems) != 1 else ""}</summary><ul class="small">{probs}{more}</ul>'
                       "</details></td>")
        row.append("</tr>")
        body.append("".join(row))
    body.append("</tbody></table></div>")
    notes = []
    for m, why in sorted(lb.unavailable.items()):
        notes.append(f"<li><code>{esc(m)}</code> unavailable: {esc(portable_text(why))}</li>")
    partial: dict[str, set[str]] = {}
    for e in lb.entries:
        for k, spec in (e.report.partial if e.report else {}).items():
            partial.setdefault(k, set()).update(spec.averaged)
    notes += [f"<li><code>{esc(k)}*</code> is partial: {esc(PARTIAL_NOTE)} {esc(', '.join(sorted(what)))} only.</li>"
              for k, what in sorted(partial.items())]
    if notes:
        body.append(f"<h2>Notes</h2><ul>{''.join(notes)}</ul>")
    if lb.signatures:
        body.append("<h2>Metric signatures</h2><ul class=\"small sigs\">"
                    + "".join(f"<li><code>{esc(portable_text(s))}</code></li>"
                              for _, s in sorted(lb.signatures.items())) + "</ul>")
    body.append("</main>")
    return page(f"Leaderboard ({lb.task})", "\n".join(body), SORT_JS, body_class="wide")
