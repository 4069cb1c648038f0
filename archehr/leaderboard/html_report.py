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
from archehr.leaderboard.html_common import grouped_bars, hbar_chart, histogram, page
from archehr.leaderboard.portable import portable_text
from archehr.templating import markup, render, static
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


def question_view(c: Case) -> dict[str, Any]:
    """The patient's message cut into (text, marked) pieces at the marked question phrases, and the clinician
    question: what case.html's `question` shows."""
    narrative = c.patient_narrative or ""
    spans = sorted((p.start_char_index, p.start_char_index + len(p.text)) for p in c.patient_question
                   if narrative[p.start_char_index:p.start_char_index + len(p.text)] == p.text)
    segments, pos = [], 0
    for a, b in spans:
        if a < pos:
            continue
        segments += [(narrative[pos:a], False), (narrative[a:b], True)]
        pos = b
    segments.append((narrative[pos:], False))
    return {"segments": segments if narrative else [], "clinician": c.clinician_question}


def sentence_views(v: CaseView, anchor: str) -> list[dict[str, Any]]:
    """Each note sentence with its gold label and the system's mark: what case.html's `sentences` shows."""
    items = []
    for s in v.case.sentences:
        lab = _label(v, s.id)
        mark, title = "", ""
        if s.id in v.cited:
            mark, title = _cite_class(v, s.id)
        elif lab is Relevance.ESSENTIAL and (v.lines or v.cited or v.links or v.text is None):
            mark = "missed"
        items.append({"cls": lab.value if lab else "unlabelled", "anchor": f"{anchor}-s{s.id}", "id": s.id,
                      "text": s.text, "label": lab.value if lab else "no label", "mark": mark, "title": title})
    return items


def _cite_links(v: CaseView, anchor: str, ids: tuple[str, ...]) -> list[dict[str, Any]]:
    known = set(v.case.sentence_ids)
    out = []
    for cid in ids:
        kind, title = _cite_class(v, cid)
        target = cid if cid in known else cid.strip() if cid.strip() in known else None
        out.append({"kind": kind, "title": title, "label": cid.replace(" ", "\u2423"),
                    "target": None if target is None else f"{anchor}-s{target}"})
    return out


def answer_view(task: str, v: CaseView, anchor: str) -> dict[str, Any]:
    """The system's answer as the official parser reads it, with its citations: what case.html's `answer`
    shows (kind "answer", "text" or "links"; anything else shows nothing)."""
    kind = _kind(task)
    if kind == "answer":
        lines = []
        for line in v.lines:
            cut = line.first_word >= WORD_LIMIT_2025
            lines.append({"cut": cut, "part": not cut and line.first_word + line.n_words > WORD_LIMIT_2025,
                          "sentence": line.sentence, "citations": _cite_links(v, anchor, line.citations)})
        return {"kind": kind, "lines": lines}
    if kind == "text":
        return {"kind": kind, "text": v.text or "", "reference": v.reference or ""}
    if kind == "links" and v.key and v.key.clinician_answer_sentences:
        known = set(v.case.sentence_ids)
        rows = []
        for s in v.key.clinician_answer_sentences:
            gold = set(s.citations)
            links = [{"kind": "hit" if cid in gold else "fa", "label": cid,
                      "title": "link in the gold alignment" if cid in gold else "link not in the gold alignment",
                      "target": f"{anchor}-s{cid}" if cid in known else None} for cid in v.links.get(s.id, ())]
            rows.append({"id": s.id, "text": s.text, "links": links, "gold": ", ".join(s.citations) or "none"})
        return {"kind": kind, "rows": rows}
    return {"kind": ""}


def anchor_of(case_id: str) -> str:
    """The prefix of a case's element ids (sentences: <anchor>-s<id>)."""
    return "c" + "".join(ch if ch.isalnum() else "_" for ch in case_id)


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


NAV_JS = static("leaderboard/report-nav.js")  # j/k move between cases; a citation flashes its sentence


def _summary_rows(report: ScoreReport, overall: dict[str, Any]) -> list[dict[str, Any]]:
    ci = report.ci or {}
    rows = []
    for k in report.scores:
        official = report.scores.get(k)
        v = overall.get(k) if official is None else official
        c = ci.get(k)
        rows.append({"key": k, "value": _fmt(v) + ("*" if official is None and v is not None else ""),
                     "ci": f"[{c[0]:.1f}, {c[1]:.1f}]" if c else ""})
    return rows


def _charts(task: str, report: ScoreReport, overall: dict[str, Any], views: list[CaseView]) -> dict[str, Any]:
    """The summary's SVG charts (bars per metric; per-case histogram; P/R per specialty when the task has them)."""
    ci = report.ci or {}
    bars = [(k, overall.get(k) if report.scores.get(k) is None else report.scores.get(k), ci.get(k))
            for k in report.scores]
    out: dict[str, Any] = {"bars": markup(hbar_chart(bars, "Scores per metric")), "histogram": None, "pr": None}
    f_key, p_key, r_key = case_keys(task, report)
    vals = [x for x in (v.scores.get(f_key) for v in views) if isinstance(x, (int, float))]
    if vals:
        out["histogram"] = markup(histogram(vals, f"cases by per-case {f_key}", lo=min(0.0, min(vals))))
    if p_key:
        groups = []
        for sp in sorted({s for v in views for s in v.case.clinical_specialty}):
            ids = [v.case.case_id for v in views if sp in v.case.clinical_specialty]
            agg = report.aggregate(ids, partial=True)
            groups.append((f"{sp} ({len(ids)})", [agg.get(p_key), agg.get(r_key)]))
        if groups:
            out["pr"] = markup(grouped_bars(groups, PR_SERIES, "P/R by specialty"))
            out["pr_name"] = p_key.replace("_precision", "")
    return out


def report_html(task: str, report: ScoreReport, split: Split, items: dict[str, Any], title: str) -> str:
    views = case_views(task, split, items, report)
    overall = report.aggregate(sorted(report.per_case), partial=True)
    f_key, p_key, r_key = case_keys(task, report)
    cases = []
    for v in views:
        anchor = anchor_of(v.case.case_id)
        cases.append({"id": v.case.case_id, "anchor": anchor, "specialty": ", ".join(v.case.clinical_specialty),
                      "badge": _fmt(v.scores.get(f_key)),
                      "scores": [(k, _fmt(v.scores.get(k))) for k in (f_key, p_key, r_key) if k],
                      "question": question_view(v.case), "answer": answer_view(task, v, anchor),
                      "sentences": sentence_views(v, anchor)})
    body = render("leaderboard/report.html", title=title, task=task, summary=_summary_rows(report, overall),
                  unavailable=sorted(report.unavailable.items()), partial=sorted(report.partial.items()),
                  warnings=report.warnings[:30], signatures=[portable_text(s) for _, s in
                                                             sorted(report.signatures.items())],
                  charts=_charts(task, report, overall, views), f_key=f_key, cases=cases)
    return page(title, body, NAV_JS)
