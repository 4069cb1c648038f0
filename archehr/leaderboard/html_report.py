"""report.html: one submission against its key, readable by a clinician or a system builder.

Summary (scores with CIs, charts), then one section per case: the question, the note sentences
coloured by gold label with the system's citations marked (hit, lenient hit, false alarm, miss),
and the answer with each line's citations linked to the sentences they cite. Scores come from the
scorer's per-case rows (`report.aggregate([case])`), so the page and `archehr score` agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from archehr.data.json_io import read_json
from archehr.data.model import Case, KeyEntry, Relevance, Split
from archehr.errors import DataError, Problem, SubmissionError
from archehr.leaderboard.html_common import esc, grouped_bars, hbar_chart, histogram, page
from archehr.leaderboard.portable import portable_text
from archehr_scoring.answer_format import MAX_WORDS, ParsedLine, parse_answer
from archehr_scoring.results import ScoreReport
from archehr_scoring.tasks import TASKS, Task

PR_SERIES = (("precision", "#4a78c2"), ("recall", "#e08a2c"))
WORD_LIMIT_2025 = MAX_WORDS


@dataclass
class CaseView:
    case: Case
    key: KeyEntry | None
    cited: set[str] = field(default_factory=set)
    lines: tuple[ParsedLine, ...] = ()
    text: str | None = None  # st1/st3 prediction
    reference: str | None = None
    links: dict[str, tuple[str, ...]] = field(default_factory=dict)  # st4 answer_id -> evidence ids
    scores: dict[str, float | None] = field(default_factory=dict)


def parse_answer_2025(case_id: str, answer: str) -> tuple[ParsedLine, ...]:
    """Answer lines exactly as the scorer reads them (last |...| per line, pieces unstripped)."""
    return parse_answer(case_id, answer).lines


def load_submission_items(path: Path) -> dict[str, Any]:
    """case_id -> answer/prediction of a submission the scorer accepted (read again for display)."""
    try:
        data = read_json(path)
    except DataError as e:
        raise SubmissionError(e.problems) from None
    if not isinstance(data, list):
        raise SubmissionError(Problem("expected a JSON list of cases", str(path)))
    return {str(x.get("case_id")).strip(): x.get("answer", x.get("prediction"))
            for x in data if isinstance(x, dict)}


def _spec(task: str) -> Task | None:
    return TASKS.get(task) if task in TASKS else None


def _kind(task: str) -> str:
    """How a case's prediction is shown: answer | text | ids | links ("" = scores only)."""
    spec = _spec(task)
    return spec.prediction if spec else ""


def case_views(task: str, split: Split, items: dict[str, Any], report: ScoreReport) -> list[CaseView]:
    views = []
    kind = _kind(task)
    scored = set(report.per_case)
    for case in split.cases:
        if case.case_id not in scored:
            continue
        key = split.key_for(case.case_id) if split.has_key and case.case_id in {k.case_id for k in split.key or ()} \
            else None
        v = CaseView(case, key, scores=dict(report.aggregate([case.case_id], partial=True)))
        pred = items.get(case.case_id)
        if kind == "answer" and isinstance(pred, str):
            v.lines = parse_answer_2025(case.case_id, pred)
            v.cited = {c for line in v.lines for c in line.citations}
        elif kind == "ids" and isinstance(pred, list):
            v.cited = {str(x) for x in pred}
        elif kind == "text" and isinstance(pred, str):
            v.text = pred
            ref = (_spec(task).references or ("",))[0]  # type: ignore[union-attr]
            # the reference field the task's text metrics read: on the case (XML) or its key entry
            v.reference = getattr(case, ref, None) or getattr(key, ref, None)
        elif kind == "links" and isinstance(pred, list):
            for item in pred:
                if isinstance(item, dict):
                    ev = item.get("evidence_id") or []
                    v.links[str(item.get("answer_id"))] = tuple(str(x) for x in (ev if isinstance(ev, list) else [ev]))
            v.cited = {e for ids in v.links.values() for e in ids}
        views.append(v)
    return views


def _label(v: CaseView, sid: str) -> Relevance | None:
    return v.key.label_of(sid) if v.key else None


def _cite_class(v: CaseView, cid: str) -> tuple[str, str]:
    """CSS class and a plain-words title of one cited id (exact string match, as the official scorer)."""
    lab = _label(v, cid)
    if lab is Relevance.ESSENTIAL:
        return "hit", "hit: an essential sentence"
    if lab is Relevance.SUPPLEMENTARY:
        return "lenient", "supplementary sentence: counts only in the lenient score"
    if lab is Relevance.NOT_RELEVANT:
        return "fa", "false alarm: a not-relevant sentence"
    if cid.strip() != cid and v.key and v.key.label_of(cid.strip()):
        return "fa", f"false alarm: {cid!r} has spaces, so the official scorer does not match it to {cid.strip()}"
    return "unknown", "false alarm: the note has no sentence with this id"


def _question_html(c: Case) -> str:
    narrative = c.patient_narrative or ""
    spans = sorted((p.start_char_index, p.start_char_index + len(p.text)) for p in c.patient_question
                   if narrative[p.start_char_index:p.start_char_index + len(p.text)] == p.text)
    out, pos = [], 0
    for a, b in spans:
        if a < pos:
            continue
        out.append(esc(narrative[pos:a]) + f"<mark>{esc(narrative[a:b])}</mark>")
        pos = b
    out.append(esc(narrative[pos:]))
    html = f'<div class="q"><strong>Patient:</strong> {"".join(out)}</div>' if narrative else ""
    if c.clinician_question:
        html += f'<div class="q"><strong>Clinician question:</strong> {esc(c.clinician_question)}</div>'
    return html


def _sentences_html(v: CaseView, anchor: str) -> str:
    items = []
    for s in v.case.sentences:
        lab = _label(v, s.id)
        cls = lab.value if lab else "unlabelled"
        marks = []
        if s.id in v.cited:
            kind, title = _cite_class(v, s.id)
            text = {"hit": "cited &#10003;", "lenient": "cited (supplementary)", "fa": "cited &#10007; false alarm"}
            marks.append(f'<span class="mark {kind}" title="{esc(title)}">{text.get(kind, "cited")}</span>')
        elif lab is Relevance.ESSENTIAL and (v.lines or v.cited or v.links or v.text is None):
            marks.append('<span class="mark miss" title="essential sentence the system did not cite">missed</span>')
        items.append(f'<li class="sent {cls}" id="{anchor}-s{esc(s.id)}" tabindex="-1" data-sid="{esc(s.id)}">'
                     f'<span class="sid">{esc(s.id)}</span>{esc(s.text)}'
                     f'<span class="small muted"> &middot; {esc(lab.value if lab else "no label")}</span>'
                     f"{''.join(marks)}</li>")
    return f'<ol class="sents">{"".join(items)}</ol>' if items else '<p class="muted">No note sentences.</p>'


def _cite_links(v: CaseView, anchor: str, ids: tuple[str, ...]) -> str:
    known = set(v.case.sentence_ids)
    out = []
    for cid in ids:
        kind, title = _cite_class(v, cid)
        target = cid if cid in known else cid.strip() if cid.strip() in known else None
        label = esc(cid.replace(" ", "\u2423"))
        if target is None:
            out.append(f'<span class="cite {kind}" title="{esc(title)}">{label}</span>')
        else:
            out.append(f'<a class="cite {kind}" href="#{anchor}-s{esc(target)}" data-target="{anchor}-s{esc(target)}"'
                       f' title="{esc(title)}">{label}</a>')
    return ",".join(out)


def _answer_html(task: str, v: CaseView, anchor: str) -> str:
    kind = _kind(task)
    if kind == "answer":
        rows = []
        for line in v.lines:
            cut = line.first_word >= WORD_LIMIT_2025
            part = not cut and line.first_word + line.n_words > WORD_LIMIT_2025
            note = (' <span class="small muted">(past the 75-word cut: text not scored, citations still count)</span>'
                    if cut else ' <span class="small muted">(cut at 75 words inside this line)</span>' if part else "")
            cites = f" |{_cite_links(v, anchor, line.citations)}|" if line.citations else \
                ' <span class="small bad">(no citation)</span>'
            rows.append(f'<p{" class=muted" if cut else ""}>{esc(line.sentence)}{cites}{note}</p>')
        return '<div class="answer"><h3>System answer</h3>' + "".join(rows) + "</div>" if rows else ""
    if kind == "text":
        ref = f'<div><h3>Reference</h3><p>{esc(v.reference or "")}</p></div>'
        return f'<div class="grid2 answer"><div><h3>System</h3><p>{esc(v.text or "")}</p></div>{ref}</div>'
    if kind == "links" and v.key and v.key.clinician_answer_sentences:
        rows = []
        for s in v.key.clinician_answer_sentences:
            pred = v.links.get(s.id, ())
            gold = ", ".join(esc(c) for c in s.citations) or "none"
            rows.append(f"<p><span class=\"sid\">{esc(s.id)}.</span> {esc(s.text)} "
                        f"|{_cite_links_st4(v, anchor, pred, set(s.citations))}| "
                        f'<span class="small muted">gold: {gold}</span></p>')
        return '<div class="answer"><h3>Clinician answer with the system\'s evidence links</h3>' + "".join(rows) \
            + "</div>"
    return ""


def _cite_links_st4(v: CaseView, anchor: str, ids: tuple[str, ...], gold: set[str]) -> str:
    known = set(v.case.sentence_ids)
    out = []
    for cid in ids:
        kind, title = ("hit", "link in the gold alignment") if cid in gold else ("fa", "link not in the gold alignment")
        if cid in known:
            out.append(f'<a class="cite {kind}" href="#{anchor}-s{esc(cid)}" data-target="{anchor}-s{esc(cid)}" '
                       f'title="{esc(title)}">{esc(cid)}</a>')
        else:
            out.append(f'<span class="cite unknown" title="no such sentence">{esc(cid)}</span>')
    return ",".join(out) or '<span class="small muted">none</span>'


def case_key_names(task: str) -> tuple[str, str, str]:
    """The task's per-case score, precision and recall keys (all from its aggregator)."""
    spec = _spec(task)
    return spec.case_keys if spec else ("overall_score", "", "")


def case_keys(task: str, report: ScoreReport) -> tuple[str, str, str]:
    """Per-case score, precision and recall keys for the charts ("" when the task has none)."""
    f, p, r = case_key_names(task)
    if f not in report.scores:
        f = "overall_score" if "overall_score" in report.scores else next(iter(report.scores), "")
    if p not in report.scores or r not in report.scores:
        p = r = ""
    return f, p, r


def _fmt(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.1f}"


NAV_JS = """
(function(){var cases=[].slice.call(document.querySelectorAll('section.case'));
function cur(){var y=window.scrollY+80,i=0;cases.forEach(function(c,j){if(c.offsetTop<=y)i=j});return i}
document.addEventListener('keydown',function(e){if(e.target.closest&&e.target.closest('input,textarea'))return;
if(e.altKey||e.ctrlKey||e.metaKey)return;var i=cur();
if(e.key==='j'&&i<cases.length-1){cases[i+1].focus();cases[i+1].scrollIntoView()}
else if(e.key==='k'&&i>0){cases[i-1].focus();cases[i-1].scrollIntoView()}});
document.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a.cite');if(!a)return;
var t=document.getElementById(a.dataset.target);if(!t)return;e.preventDefault();
t.scrollIntoView({block:'center'});t.focus({preventScroll:true});
if(history.replaceState)history.replaceState(null,'','#'+a.dataset.target);
t.classList.remove('flash');void t.offsetWidth;t.classList.add('flash');
setTimeout(function(){t.classList.remove('flash')},2000)});})();
"""


def report_html(task: str, report: ScoreReport, split: Split, items: dict[str, Any], title: str) -> str:
    views = case_views(task, split, items, report)
    overall = report.aggregate(sorted(report.per_case), partial=True)
    keys = list(report.scores)
    ci = report.ci or {}
    body = [f'<header><h1>{esc(title)}</h1><p class="muted">Task {esc(task)} &middot; {len(views)} cases &middot; '
            "95% bootstrap CIs over cases. Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous case; citations are "
            "links to the cited note sentence.</p></header>", '<main id="main"><section id="summary">',
            "<h2>Summary</h2>"]
    rows = []
    for k in keys:
        official = report.scores.get(k)
        v = overall.get(k) if official is None else official
        star = "*" if official is None and v is not None else ""
        c = ci.get(k)
        rows.append(f'<tr><th scope="row">{esc(k)}</th><td class="num">{_fmt(v)}{star}</td><td class="num ci">'
                    f"{f'[{c[0]:.1f}, {c[1]:.1f}]' if c else ''}</td></tr>")
    body.append('<div class="grid2"><div class="scroll"><table><thead><tr><th>score</th><th class="num">value</th>'
                '<th class="num">95% CI</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table></div><div>")
    notes = [f"<li><code>{esc(m)}</code> unavailable: {esc(why)}</li>" for m, why in sorted(report.unavailable.items())]
    notes += [f"<li><code>{esc(k)}*</code> is partial: the mean of {esc(', '.join(spec.averaged))} only "
              "(not the official score)</li>" for k, spec in sorted(report.partial.items())]
    notes += [f"<li>warning: {esc(w.message)}{f' (case {esc(w.case_id)})' if w.case_id else ''}</li>"
              for w in report.warnings[:30]]
    if notes:
        body.append(f'<h3>Notes</h3><ul class="small">{"".join(notes)}</ul>')
    if report.signatures:  # which model, layer, baseline... made these numbers (set by the model-metric options)
        # long `a|b|c` strings without spaces: let them break anywhere so a phone never scrolls sideways
        body.append('<h3>Metric signatures</h3><ul class="small" style="overflow-wrap:anywhere">' + "".join(
            f"<li><code>{esc(portable_text(sig))}</code></li>" for _, sig in sorted(report.signatures.items()))
            + "</ul>")
    body.append("</div></div>")

    charts = ['<div class="charts">']
    bars = [(k, overall.get(k) if report.scores.get(k) is None else report.scores.get(k), ci.get(k)) for k in keys]
    charts.append(f'<figure class="chart"><figcaption>Scores (official scale, 95% CI)</figcaption>'
                  f"{hbar_chart(bars, 'Scores per metric')}</figure>")
    f_key, p_key, r_key = case_keys(task, report)
    per_case = [v.scores.get(f_key) for v in views]
    vals = [x for x in per_case if isinstance(x, (int, float))]
    if vals:
        lo = min(0.0, min(vals))
        charts.append(f'<figure class="chart"><figcaption>Per-case {esc(f_key)}</figcaption>'
                      f"{histogram(vals, f'cases by per-case {f_key}', lo=lo)}</figure>")
    if p_key:
        groups = []
        specialties = sorted({s for v in views for s in v.case.clinical_specialty})
        for sp in specialties:
            ids = [v.case.case_id for v in views if sp in v.case.clinical_specialty]
            agg = report.aggregate(ids, partial=True)
            groups.append((f"{sp} ({len(ids)})", [agg.get(p_key), agg.get(r_key)]))
        if groups:
            charts.append('<figure class="chart"><figcaption>Precision and recall per clinical specialty '
                          f"({esc(p_key.replace('_precision', ''))})</figcaption>"
                          f"{grouped_bars(groups, PR_SERIES, 'P/R by specialty')}"
                          "</figure>")
    charts.append("</div>")
    body += charts
    # Two labelled lines, one item per span with its meaning after a colon: a run-on "not relevant [cited ✓] hit"
    # read as one phrase.
    body.append('<div class="legend small"><p><b>Background = gold label:</b> '
                '<span><i class="sw" style="background:var(--ess-bg);border:1px solid var(--ess)"></i>essential</span>'
                '<span><i class="sw" style="background:var(--sup-bg);border:1px solid var(--sup)"></i>supplementary'
                '</span><span><i class="sw" style="background:var(--nr-bg);border:1px solid #bbb"></i>not relevant'
                '</span></p><p><b>Badge = the system\'s citation:</b> '
                '<span><span class="mark hit">cited &#10003;</span>: essential, cited (hit)</span>'
                '<span><span class="mark lenient">cited (supplementary)</span>: counts for lenient scores only</span>'
                '<span><span class="mark fa">cited &#10007;</span>: not relevant, cited (false alarm)</span>'
                '<span><span class="mark miss">missed</span>: essential, not cited</span></p></div>')
    toc = "".join(f'<a href="#case-{esc(v.case.case_id)}">Case {esc(v.case.case_id)} '
                  f'<span class="badge">{_fmt(v.scores.get(f_key))}</span></a>' for v in views)
    body.append(f'<nav class="toc noprint" aria-label="Cases"><h2>Cases</h2>{toc}</nav></section>')

    for v in views:
        cid = v.case.case_id
        anchor = "c" + "".join(ch if ch.isalnum() else "_" for ch in cid)
        spec = ", ".join(v.case.clinical_specialty)
        sc = " &middot; ".join(f"{esc(k)} {_fmt(v.scores.get(k))}" for k in (f_key, p_key, r_key) if k)
        body.append(f'<section class="case" id="case-{esc(cid)}" tabindex="-1" aria-labelledby="h-{anchor}">'
                    f'<h2 id="h-{anchor}">Case {esc(cid)}{f" <span class=muted>({esc(spec)})</span>" if spec else ""}'
                    f'</h2><p class="small muted">{sc}</p>{_question_html(v.case)}'
                    f"{_answer_html(task, v, anchor)}<h3>Note sentences</h3>{_sentences_html(v, anchor)}</section>")
    body.append("</main>")
    return page(title, "\n".join(body), NAV_JS)
