"""The server's HTML: the ask page (filled in by static/ask.js from /api/answer), the runs page (rendered here,
sorted and filtered by static/runs.js) and the API page (from the OpenAPI schema).

Every value from a note, a submission or a run is escaped (`esc`); the ask page's script writes answers with
`textContent` only. Style and scripts are files of this server: the pages work offline, and the
Content-Security-Policy (guard.py) forbids inline scripts, so markup in a note can never run.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from archehr.data.model import Relevance
from archehr.leaderboard.html_common import CSS, esc
from archehr.serve.runs_data import CaseRow, RunsComparison, RunsIndex

SERVE_CSS = CSS + """
header.top{display:flex;gap:1.25rem;align-items:baseline;flex-wrap:wrap;border-bottom:1px solid var(--line);
padding:.5rem 0}header.top b{font-size:1.1rem}header.top a[aria-current]{font-weight:700;text-decoration:none}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}textarea,input[type=text],select,input[type=number]{
font:inherit;width:100%;padding:.35rem;border:1px solid #bbb;border-radius:4px}textarea{min-height:10rem}
input[type=number]{width:6rem}select{width:auto}
button.go{font:inherit;font-weight:600;background:var(--accent);color:#fff;border:0;border-radius:4px;
padding:.45rem 1.1rem;margin-top:.75rem;cursor:pointer}button.go:disabled{opacity:.6;cursor:wait}
.row{display:flex;gap:1rem;flex-wrap:wrap;align-items:end}.row>div{flex:1 1 14rem}
.problems{color:var(--bad);border-left:4px solid var(--bad);padding:.3rem .6rem;background:#fff5f5}
.problems:empty{display:none}
.meter{display:inline-block;width:8rem;height:.7rem;background:#eee;border-radius:.35rem;vertical-align:middle;
overflow:hidden}.meter i{display:block;height:100%;background:var(--accent)}
.flag{font-weight:700;color:var(--bad)}.okflag{color:var(--hit)}
.sent.cited-essential{background:var(--ess-bg);border-left-color:var(--ess)}
.sent.cited-supplementary{background:var(--sup-bg);border-left-color:var(--sup)}
.sent.cited-unlabelled{background:#e8eefb;border-left-color:var(--accent)}
.sent .lab{font-size:.78em;font-weight:600;margin-left:.4em}
.sent.related{background:#f3f0fb;border-left:4px dashed #7a5cc2}.answer.abstained>p:first-child{font-weight:700}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.5rem 0}.facts dt{font-weight:600}
.facts dd{margin:0}.fallback{background:#fff7e6;border-left:4px solid var(--sup);padding:.3rem .6rem}
table.cmp td.mk{text-align:center;white-space:nowrap}.hidden{display:none}
.filters{display:flex;flex-wrap:wrap;gap:1rem;align-items:end;background:#f7f7f7;padding:.5rem .75rem;
border-radius:4px;margin:.75rem 0}.filters label{margin:0 0 .2rem}
.runpick{columns:16rem}.runpick label{font-weight:400;margin:.1rem 0}
.delta.pos{color:var(--hit)}.delta.neg{color:var(--miss)}
code.api{font-weight:600}textarea#narrative{min-height:5rem}
.sw.ess{background:var(--ess-bg);border:1px solid var(--ess)}
.sw.sup{background:var(--sup-bg);border:1px solid var(--sup)}
.sw.nr{background:var(--nr-bg);border:1px solid #bbb}.sw.rel{background:#f3f0fb;border:1px dashed #7a5cc2}
"""

NAV = (("/", "Ask about a note"), ("/runs", "Compare runs"), ("/api", "JSON API"))


def shell(title: str, body: str, current: str, scripts: Sequence[str] = ()) -> str:
    nav = " ".join(f'<a href="{href}"{" aria-current=page" if href == current else ""}>{esc(label)}</a>'
                   for href, label in NAV)
    tags = "".join(f'<script src="/static/{esc(s)}" defer></script>' for s in scripts)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
            f"<title>{esc(title)}</title><link rel=\"stylesheet\" href=\"/static/serve.css\">{tags}</head>\n<body>\n"
            "<a class=\"skip\" href=\"#main\">Skip to content</a>\n"
            f"<header class=\"top\"><b>archehr</b><nav>{nav}</nav></header>\n<main id=\"main\">{body}</main>\n"
            "</body></html>\n")


def ask_page(system: str) -> str:
    body = f"""<h1>Ask about a note</h1>
<p class="muted">Paste a clinical note (or open a text file: it is read by this page, not uploaded as a file)
and type the patient's question. The note is split into numbered sentences and answered by the system
<code id="system-name">{esc(system)}</code> on this computer; nothing is stored.</p>
<form id="ask" autocomplete="off">
<label for="note">Clinical note</label>
<textarea id="note" name="note" spellcheck="false" placeholder="Paste the note here"></textarea>
<div class="row"><div><label for="file">or open a text file</label>
<input type="file" id="file" accept=".txt,text/plain">
</div><div><label for="splitter">Sentence split</label><select id="splitter" name="splitter">
<option value="auto">auto (spaCy when installed, else rules)</option><option value="spacy">spaCy</option>
<option value="rules">rules</option></select></div></div>
<label for="question">Patient's question</label><input type="text" id="question" name="question"
 placeholder="e.g. Why did they do the catheterization?">
<details><summary>The patient's whole message (optional)</summary>
<label for="narrative">Narrative</label><textarea id="narrative" name="narrative"></textarea>
</details>
<button class="go" id="go" type="submit">Answer</button> <span id="status" class="muted small" role="status"></span>
</form>
<div id="problems" class="problems" role="alert"></div>
<section id="result" class="hidden" aria-live="polite">
<h2>Answer</h2><div id="answer" class="answer"></div>
<dl class="facts"><dt>Confidence</dt>
<dd><span class="meter"><i id="conf-bar"></i></span> <span id="confidence"></span></dd>
<dt>Needs review</dt><dd id="review"></dd><dt>System</dt><dd id="system"></dd>
<dt>Sentence split</dt><dd id="splitter-used"></dd><dt>Time</dt><dd id="seconds"></dd></dl>
<div id="fallback" class="fallback hidden"></div>
<div class="legend small"><p><b>Highlight = cited by the system, as the selector labelled it:</b>
<span><i class="sw ess"></i>essential</span>
<span><i class="sw sup"></i>supplementary</span>
<span><i class="sw rel"></i>related, when the note does not say (not an answer)</span></p></div>
<h2>The note, sentence by sentence</h2><ol id="sentences" class="sents"></ol>
</section>"""
    return shell("archehr: ask about a note", body, "/", ["ask.js"])


def _fmt(v: float | None, sign: bool = False) -> str:
    return "n/a" if v is None else (f"{v:+.1f}" if sign else f"{v:.1f}")


def _delta_cell(d: float | None) -> str:
    cls = "" if not d else " pos" if d > 0 else " neg"
    return f'<td class="num delta{cls}" data-v="{"" if d is None else f"{d:.6f}"}">{_fmt(d, True)}</td>'


def runs_page(index: RunsIndex, split: str | None, chosen: Sequence[int], cmp: RunsComparison | None,
              problems: Sequence[str]) -> str:
    parts = ["<h1>Compare runs</h1>"]
    if not index.runs:
        parts.append('<p class="problems">No runs: start the server with <code>--runs DIR</code> (a folder of run '
                     "folders, each with submission.json and run.json, such as <code>submissions</code>).</p>")
        return shell("archehr: compare runs", "".join(parts), "/runs")
    parts.append(_pick_form(index, split, chosen))
    if problems:
        parts.append('<div class="problems" role="alert">' + "".join(f"<p>{esc(p)}</p>" for p in problems) + "</div>")
    if cmp is not None:
        parts.append(_comparison_html(index, cmp))
    return shell("archehr: compare runs", "\n".join(parts), "/runs", ["runs.js"])


def _pick_form(index: RunsIndex, split: str | None, chosen: Sequence[int]) -> str:
    opts = "".join(f'<option value="{esc(s)}"{" selected" if s == split else ""}>{esc(s)} '
                   f"({index.n_cases.get(s) or '?'} cases)</option>" for s in index.key_splits)
    boxes = []
    for e in index.runs:
        info = f"{e.task or 'unreadable'}" + (f", made on {e.split}" if e.split else "")
        dis = "" if e.usable else " disabled"
        boxes.append(f'<label data-task="{esc(e.task or "")}"><input type="checkbox" name="run" value="{e.id}"'
                     f'{" checked" if e.id in chosen else ""}'
                     f"{dis}> {esc(e.name)} <span class=\"muted small\">({esc(info)})</span></label>")
    tasks = sorted({e.task for e in index.runs if e.task})
    chosen_tasks = {e.task for e in index.runs if e.id in chosen}
    task_opts = "".join(f'<option value="{esc(t)}"{" selected" if chosen_tasks == {t} else ""}>{esc(t)}</option>'
                        for t in tasks)
    return (f'<form id="pick" method="get" action="/runs"><div class="row"><div><label for="split">Split with a key'
            f'</label><select id="split" name="split">{opts}</select></div><div><label for="task-filter">Subtask'
            f'</label><select id="task-filter"><option value="">all</option>{task_opts}</select></div></div>'
            '<fieldset><legend>Runs (two or more of one subtask; '
            'the first one in this list is the baseline the others are compared with)</legend>'
            f'<div class="runpick">{"".join(boxes)}</div></fieldset>'
            '<button class="go" type="submit">Compare</button></form>')


def _comparison_html(index: RunsIndex, cmp: RunsComparison) -> str:
    names = [e.name for e in cmp.runs]
    out = [f'<h2>{esc(" vs ".join(names))} <span class="muted small">on {esc(cmp.split)} &middot; subtask '
           f'{esc(cmp.task)} &middot; {len(cmp.rows)} cases</span></h2>']
    prov = []
    for e in cmp.runs:
        s = index.summary(e)
        link = (f' &middot; <a href="/runs/{e.id}/run.json">provenance (run.json)</a>' if e.run.run_json else
                ' &middot; <span class="muted">no run.json</span>')
        meta = ", ".join(x for x in (f"system {s['system']}" if s["system"] else "",
                                     f"commit {s['commit']}" if s["commit"] else "") if x)
        prov.append(f"<li><b>{esc(e.name)}</b> {esc(meta)}{link}</li>")
    out.append(f'<ul class="small">{"".join(prov)}</ul>')
    # overall scores, each run and its difference to the baseline with the paired-bootstrap CI
    keys = cmp.comparisons[0].keys
    head = "".join(f'<th class="num">{esc(n)}</th>' for n in names) + "".join(
        f'<th class="num">{esc(n)} &minus; {esc(names[0])}</th><th class="num">95% CI</th>' for n in names[1:])
    rows = []
    for k in keys:
        vals = [cmp.comparisons[0].a_scores.get(k)] + [c.b_scores.get(k) for c in cmp.comparisons]
        cells = "".join(f'<td class="num">{_fmt(v)}</td>' for v in vals)
        for c in cmp.comparisons:
            r = c.results.get(k)
            ci = f"[{r.ci_low:+.1f}, {r.ci_high:+.1f}]" if r and r.ci_low is not None and r.ci_high is not None else ""
            cells += _delta_cell(r.delta if r else None) + f'<td class="num ci">{ci}</td>'
        rows.append(f'<tr><th scope="row">{esc(k)}</th>{cells}</tr>')
    out.append('<details><summary>Scores over the cases both runs have</summary><div class="scroll"><table>'
               f"<thead><tr><th>score</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div></details>")
    only = sorted({c for comp in cmp.comparisons for c in comp.only_in_one})
    if only:
        out.append(f'<p class="small muted">Cases scored in only some runs (left out): {esc(", ".join(only))}</p>')
    specialties = sorted({s for r in cmp.rows for s in r.case.clinical_specialty})
    sp_opts = "".join(f'<option value="{esc(s)}">{esc(s)}</option>' for s in specialties)
    out.append(f"""<div class="filters noprint" id="filters"><div><label for="sort">Sort cases by</label>
<select id="sort"><option value="abs">largest difference first</option>
<option value="asc">difference, most negative first</option>
<option value="desc">difference, most positive first</option><option value="specialty">specialty</option>
<option value="case">case id</option></select>
</div><div><label for="specialty">Specialty</label>
<select id="specialty"><option value="">all</option>{sp_opts}</select></div>
<div><label for="min-diff">|difference| at least</label>
<input type="number" id="min-diff" min="0" step="1" value="0"></div>
<div><span id="shown" class="small muted" role="status"></span></div></div>""")
    out.append(f'<p class="small muted">Per-case score: <code>{esc(cmp.case_key)}</code> (the scorer\'s per-case '
               "rows); difference = each run minus the first.</p>")
    th = "".join(f'<th class="num">{esc(n)}</th>' for n in names) + "".join(
        f'<th class="num">&Delta; {esc(n)}</th>' for n in names[1:])
    trs = []
    for r in cmp.rows:
        cid = r.case.case_id
        trs.append(f'<tr {_data_attrs(r)}><td><a href="#case-{esc(cid)}">{esc(cid)}</a></td>'
                   f'<td>{esc(", ".join(r.case.clinical_specialty))}</td>'
                   + "".join(f'<td class="num">{_fmt(s)}</td>' for s in r.scores)
                   + "".join(_delta_cell(d) for d in r.deltas[1:]) + "</tr>")
    out.append(f'<div class="scroll"><table id="cases" class="cmp"><thead><tr><th>case</th><th>specialty</th>{th}'
               f'</tr></thead><tbody>{"".join(trs)}</tbody></table></div>')
    out.append(_legend())
    out.append('<div id="case-sections">' + "".join(_case_html(cmp, r) for r in cmp.rows) + "</div>")
    return "\n".join(out)


def _data_attrs(r: CaseRow) -> str:
    d = r.deltas[1] if len(r.deltas) > 1 else None
    return (f'data-case="{esc(r.case.case_id)}" data-abs="{"" if r.biggest is None else f"{r.biggest:.6f}"}" '
            f'data-delta="{"" if d is None else f"{d:.6f}"}" '
            f'data-specialty="{esc("|".join(r.case.clinical_specialty))}"')


def _legend() -> str:
    return ('<div class="legend small"><p><b>Background = gold label:</b> '
            '<span><i class="sw ess"></i>essential</span>'
            '<span><i class="sw sup"></i>supplementary</span>'
            '<span><i class="sw nr"></i>not relevant</span></p>'
            '<p><b>Marks = each run\'s citations:</b> <span><span class="mark hit">hit</span>: essential, cited</span>'
            '<span><span class="mark lenient">sup.</span>: supplementary, cited (lenient scores only)</span>'
            '<span><span class="mark fa">false alarm</span>: not relevant, cited</span>'
            '<span><span class="mark miss">miss</span>: essential, not cited</span></p></div>')


def _mark(v: Any, sid: str, lab: Relevance | None) -> str:
    if sid in v.cited:
        if lab is Relevance.ESSENTIAL:
            return '<span class="mark hit" title="essential, cited">hit</span>'
        if lab is Relevance.SUPPLEMENTARY:
            return '<span class="mark lenient" title="supplementary, cited">sup.</span>'
        return '<span class="mark fa" title="cited, not relevant">false alarm</span>'
    if lab is Relevance.ESSENTIAL:
        return '<span class="mark miss" title="essential, not cited">miss</span>'
    return ""


def _case_html(cmp: RunsComparison, r: CaseRow) -> str:
    from archehr.leaderboard.html_report import _answer_html, _question_html, case_keys

    cid = r.case.case_id
    anchor = "c" + "".join(ch if ch.isalnum() else "_" for ch in cid)
    spec = ", ".join(r.case.clinical_specialty)
    scores = " &middot; ".join(f"{esc(e.name)} {_fmt(s)}" for e, s in zip(cmp.runs, r.scores, strict=True))
    deltas = " &middot; ".join(f"&Delta; {esc(e.name)} {_fmt(d, True)}"
                               for e, d in zip(cmp.runs[1:], r.deltas[1:], strict=True))
    answers = []
    for i, (e, v) in enumerate(zip(cmp.runs, r.views, strict=True)):
        f_key, p_key, r_key = case_keys(cmp.task, cmp.reports[i])
        sc = " &middot; ".join(f"{esc(k)} {_fmt(v.scores.get(k))}" for k in (f_key, p_key, r_key) if k)
        html = _answer_html(cmp.task, v, anchor) or '<p class="muted">(no answer text for this subtask)</p>'
        answers.append(f'<div class="run-answer" data-run="{esc(e.name)}"><h4>{esc(e.name)}</h4>'
                       f'<p class="small muted">{sc}</p>{html}</div>')
    grid = "grid2" if len(answers) == 2 else ""
    head = "".join(f'<th class="mk">{esc(e.name)}</th>' for e in cmp.runs)
    sents = []
    for s in r.case.sentences:
        lab = r.key.label_of(s.id) if r.key else None
        cls = lab.value if lab else "unlabelled"
        marks = "".join(f'<td class="mk">{_mark(v, s.id, lab)}</td>' for v in r.views)
        sents.append(f'<tr><td class="num">{esc(s.id)}</td><td><div class="sent {cls}" id="{anchor}-s{esc(s.id)}">'
                     f'{esc(s.text)} <span class="small muted">&middot; {esc(lab.value if lab else "no label")}'
                     f"</span></div></td>{marks}</tr>")
    return (f'<section class="case" id="case-{esc(cid)}" {_data_attrs(r)} tabindex="-1"><h2>Case {esc(cid)}'
            f'{f" <span class=muted>({esc(spec)})</span>" if spec else ""}</h2>'
            f'<p class="small">{scores}{" &middot; " + deltas if deltas else ""}</p>{_question_html(r.case)}'
            f'<div class="{grid}">{"".join(answers)}</div><h3>Note sentences, gold labels and citations</h3>'
            '<div class="scroll"><table class="cmp sentences"><thead><tr><th>id</th><th>sentence (gold label)</th>'
            f'{head}'
            f'</tr></thead><tbody>{"".join(sents)}</tbody></table></div></section>')


def api_page(schema: dict[str, Any]) -> str:
    """The OpenAPI schema as a page (FastAPI's own /docs loads Swagger from a CDN: not here)."""
    out = ['<h1>JSON API</h1><p>The machine-readable schema is <a href="/openapi.json">/openapi.json</a> (OpenAPI '
           f'{esc(schema.get("openapi", ""))}). Bad input gets a 4xx answer with <code>problems</code>: the same '
           "one-line messages as the command line. Too large a request gets 413.</p>"]
    comps = schema.get("components", {}).get("schemas", {})
    for path, ops in schema.get("paths", {}).items():
        for method, op in ops.items():
            out.append(f'<section class="case"><h2><code class="api">{esc(method.upper())} {esc(path)}</code></h2>'
                       f"<p>{esc(op.get('summary', ''))}</p>")
            if op.get("description"):
                out.append(f'<p class="small">{_code_spans(esc(op["description"]))}</p>')
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if body:
                out.append("<h3>Request body</h3>" + _schema_table(_resolve(body, comps), comps))
            for code, resp in op.get("responses", {}).items():
                sch = resp.get("content", {}).get("application/json", {}).get("schema")
                name = _ref_name(sch) if sch else ""
                out.append(f"<p><b>{esc(code)}</b> {esc(resp.get('description', ''))}"
                           f"{f' &rarr; <code>{esc(name)}</code>' if name else ''}</p>")
            out.append("</section>")
    out.append("<h2>Types</h2>")
    for name, sch in comps.items():
        if name in ("HTTPValidationError", "ValidationError"):
            continue
        out.append(f'<h3 id="t-{esc(name)}"><code>{esc(name)}</code></h3>{_schema_table(sch, comps)}')
    return shell("archehr: JSON API", "\n".join(out), "/api")


def _code_spans(escaped: str) -> str:
    """`x` as <code>x</code> in already escaped text (the descriptions are written in Markdown's style)."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)


def _ref_name(sch: dict[str, Any]) -> str:
    ref = sch.get("$ref", "")
    if ref:
        return ref.rsplit("/", 1)[-1]
    if sch.get("type") == "array" and isinstance(sch.get("items"), dict):
        return f"list[{_ref_name(sch['items'])}]"
    return str(sch.get("type", ""))


def _resolve(sch: dict[str, Any], comps: dict[str, Any]) -> dict[str, Any]:
    ref = sch.get("$ref", "")
    return comps.get(ref.rsplit("/", 1)[-1], sch) if ref else sch


def _type_of(sch: dict[str, Any]) -> str:
    if "$ref" in sch:
        n = _ref_name(sch)
        return f'<a href="#t-{esc(n)}">{esc(n)}</a>'
    if "anyOf" in sch:
        return " | ".join(_type_of(s) for s in sch["anyOf"])
    if "enum" in sch:
        return " | ".join(esc(repr(v)) for v in sch["enum"])
    if "const" in sch:
        return esc(repr(sch["const"]))
    t = sch.get("type", "any")
    if t == "array":
        return f"list[{_type_of(sch.get('items', {}))}]"
    if t == "object" and isinstance(sch.get("additionalProperties"), dict):
        return f"dict[str, {_type_of(sch['additionalProperties'])}]"
    return esc(t)


def _schema_table(sch: dict[str, Any], comps: dict[str, Any]) -> str:
    props = sch.get("properties", {})
    if not props:
        return f"<p><code>{_type_of(sch)}</code></p>"
    req = set(sch.get("required", []))
    rows = "".join(f"<tr><td><code>{esc(k)}</code>{'' if k in req else ' <span class=muted>(optional)</span>'}</td>"
                   f"<td><code>{_type_of(v)}</code></td><td>{esc(v.get('description', ''))}</td></tr>"
                   for k, v in props.items())
    return f'<div class="scroll"><table><thead><tr><th>field</th><th>type</th><th>meaning</th></tr></thead>' \
           f"<tbody>{rows}</tbody></table></div>"
