"""LEADERBOARD.md, leaderboard.json and leaderboard.csv: deterministic text, so a stale file shows in a diff."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from archehr.errors import Problem
from archehr.leaderboard.board import FALLBACK, Leaderboard, model_share, to_json_dict
from archehr.leaderboard.portable import portable_text
from archehr.leaderboard.run_folders import ensemble_summary, provenance_summary, system_cell
from archehr_scoring.tasks import TASKS

MD_NAME = "LEADERBOARD.md"
JSON_NAME = "leaderboard.json"
CSV_NAME = "leaderboard.csv"
HTML_NAME = "leaderboard.html"


def fmt(v: float | None, digits: int = 2) -> str:
    return "n/a" if v is None else f"{v:.{digits}f}"


def fmt_p(p: float | None) -> str:
    if p is None:
        return ""
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def problem_text(p: Problem) -> str:
    """A problem without its file path: outputs must not depend on where the checkout lives."""
    return portable_text(p.message) + (f" (case {p.case_id})" if p.case_id else "") + (f" [{p.field}]" if p.field
                                                                                      else "")


_MD_PUNCT = re.compile(r"([\\\[\]|])")


def _md_escape(s: str) -> str:
    """Text from a run (its name, run.json, error messages) as inert Markdown: no HTML, link, image or cell
    break survives, whatever the viewer (GitHub sanitises HTML, many viewers do not). Emphasis and code
    spans are left alone: they cannot run or fetch anything."""
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return " ".join(_MD_PUNCT.sub(r"\\\1", s).split())


def _md_code(s: str) -> str:
    """Text inside a `code span`: only a backtick (ending the span) or a newline can break out."""
    return " ".join(s.replace("`", "'").replace("|", "\\|").split())


_CSV_FORMULA = ("=", "+", "-", "@", "\t", "\r", "|")


def csv_text(s: str) -> str:
    """A text cell a spreadsheet will not run as a formula (OWASP CSV injection: a leading ' quotes it)."""
    return "'" + s if s.startswith(_CSV_FORMULA) else s


def headline_keys(lb: Leaderboard) -> list[str]:
    wanted = TASKS.get(lb.task).headline if lb.task in TASKS else ()
    keys = [k for k in wanted if k in lb.keys] if wanted else list(lb.keys)
    if lb.rank_key in keys:
        keys.remove(lb.rank_key)
    return [lb.rank_key, *keys] if lb.keys or lb.rank_key else keys


PARTIAL_NOTE = ("the official score is null here (a metric it needs could not run); shown instead is the mean "
                "of")


def has_partial(lb: Leaderboard) -> bool:
    return any(e.report is not None and e.report.partial for e in lb.entries)


def status_text(e) -> str:  # noqa: ANN001 - Entry, kept untyped to avoid an import cycle in annotations
    if e.status == "ok":
        partial = e.report.partial if e.report else {}
        return "ok" + (f" (partial {', '.join(sorted(partial))})" if partial else "")
    if e.status == "other-task":  # "st2 run: use --task st2" says it all
        return "; ".join(p.message for p in e.problems if p.code == "other-task")
    first = [str(p.message) for p in e.problems if not p.code.startswith("warning")][:3]
    more = len([p for p in e.problems if not p.code.startswith("warning")]) - len(first)
    return f"{e.status}: " + "; ".join(first) + (f" (+{more} more)" if more > 0 else "")


def leaderboard_markdown(lb: Leaderboard) -> str:
    keys = headline_keys(lb)
    out = [f"# Leaderboard ({lb.task})", ""]
    out.append(f"Ranked by `{_md_code(lb.rank_key)}` ({lb.direction})."
               + (f" Note: {_md_escape(lb.rank_note)}." if lb.rank_note else ""))
    out.append(f"Scores on the official scale with 95% bootstrap CIs over cases ({lb.n_resamples} resamples, "
               f"seed {lb.seed}); p = {'paired bootstrap' if lb.test == 'bootstrap' else 'approximate randomisation'}"
               f" test of each run against rank 1 on `{_md_code(lb.rank_key)}`."
               + (" `*` = partial score, not the official one (see the notes)." if has_partial(lb) else ""))
    out.append(f"Key: `{_md_code(Path(lb.key_file).name)}` (sha256 {lb.key_sha256[:12]}).")
    out.append("")
    head = ["#", "run", *[_md_escape(k) for k in keys], "p vs #1", "system", "commit", "status"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "|".join(["---:" if i == 0 else "---" for i in range(len(head))]) + "|")
    partial_notes: dict[str, set[str]] = {}
    for e in lb.entries:
        cells = [str(e.rank) if e.rank else "-", _md_escape(e.name)]
        for k in keys:
            v = e.value(k)
            cell = fmt(v) if e.report else ""
            if e.is_partial(k) and e.report:
                cell += "*"
                partial_notes.setdefault(k, set()).update(e.report.partial[k].averaged)
            ci = e.ci.get(k)
            if ci and k == lb.rank_key:
                cell += f" [{ci[0]:.2f}, {ci[1]:.2f}]"
            cells.append(cell)
        res = e.vs_top.get(lb.rank_key)
        cells.append(fmt_p(res.p) if res else ("—" if e.rank == 1 else ""))
        prov = provenance_summary(e.run.provenance)
        cells += [_md_escape(system_cell(prov)), _md_escape(prov["commit"]) + (" (dirty)" if prov["dirty"] else ""),
                  _md_escape(status_text(e))]
        out.append("| " + " | ".join(cells) + " |")
    notes = []
    if lb.rank_note:
        notes.append(f"- {_md_escape(lb.rank_note)}.")
    for k, what in sorted(partial_notes.items()):
        notes.append(f"- `{_md_code(k)}*` is partial: {PARTIAL_NOTE} {_md_escape(', '.join(sorted(what)))} only.")
    for m, why in sorted(lb.unavailable.items()):
        notes.append(f"- `{_md_code(m)}` unavailable: {_md_escape(portable_text(why))}")
    for e in lb.entries:
        if e.status not in ("ok", "other-task"):  # another task's run: its status cell says it all
            for p in e.problems[:20]:
                notes.append(f"- {_md_escape(e.name)}: {_md_escape(problem_text(p))}")
            if len(e.problems) > 20:
                notes.append(f"- {_md_escape(e.name)}: ... {len(e.problems) - 20} more problems in leaderboard.json")
    if notes:
        out += ["", "Notes:", "", *notes]
    if lb.signatures:
        out += ["", "Metric signatures:", ""]
        out += [f"- `{_md_code(portable_text(s))}`" for _, s in sorted(lb.signatures.items())]
    return "\n".join(out) + "\n"


def to_json_text(lb: Leaderboard, out_dir: Path) -> str:
    return json.dumps(to_json_dict(lb, out_dir), indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def leaderboard_csv(lb: Leaderboard) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    cols = list(lb.keys)
    w.writerow(["rank", "run", "status", *cols, *[f"{k}_ci_low" for k in cols], *[f"{k}_ci_high" for k in cols],
                f"p_vs_top_{lb.rank_key}", "partial", "system", "commit", "problems"])
    for e in lb.entries:
        prov = provenance_summary(e.run.provenance)
        res = e.vs_top.get(lb.rank_key)
        w.writerow([
            e.rank or "", csv_text(e.name), csv_text(e.status),
            *["" if e.report is None or e.report.scores.get(k) is None else repr(e.report.scores[k]) for k in cols],
            *[repr(e.ci[k][0]) if k in e.ci else "" for k in cols],
            *[repr(e.ci[k][1]) if k in e.ci else "" for k in cols],
            "" if res is None else repr(res.p),
            ";".join(f"{k}={e.value(k)!r}" for k in sorted(e.report.partial)) if e.report else "",
            csv_text(prov["system"]), csv_text(prov["commit"]),
            csv_text(" | ".join(problem_text(p) for p in e.problems if not p.code.startswith("warning"))),
        ])
    return buf.getvalue()


def to_terminal(lb: Leaderboard, max_name: int = 28) -> str:
    """The short ranked table `archehr leaderboard` prints: rank, run, the ranking score with its CI, p vs #1 and a
    one-word status. Every other score, the notes and the signatures are in the files it writes."""
    key = lb.rank_key
    # an LLM run's model share (the rest of its cases are its offline fallback's), when a run has one
    shares = any(model_share(e.run) is not None for e in lb.entries)
    # ensembles (archehr ensemble) listed beside runs are marked as such, when the board holds one
    kinds = [ensemble_summary(e.run.provenance)["ensemble"] for e in lb.entries]
    rows = [["#", "run", key, "95% CI", "p vs #1", *(["model"] if shares else []), *(["kind"] if any(kinds) else []),
             "status"]]
    partial = False
    for e, kind in zip(lb.entries, kinds, strict=True):
        v, ci, res = e.value(key), e.ci.get(key), e.vs_top.get(key)
        star = "*" if e.is_partial(key) else ""
        partial = partial or bool(star)
        name = e.name if len(e.name) <= max_name else e.name[:max_name - 3] + "..."
        if e.status == "ok":
            status = "ok"
        elif e.status == "other-task":
            status = status_text(e)
        elif e.status == FALLBACK:
            status = "FALLBACK: below its --min-model-share, not ranked"
        else:
            n = len([p for p in e.problems if not p.code.startswith("warning")])
            status = f"{e.status} ({n} problem{'s' if n != 1 else ''})"
        share = model_share(e.run)
        rows.append([str(e.rank) if e.rank else "-", name, "" if e.report is None else fmt(v) + star,
                     f"[{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "", fmt_p(res.p) if res else ("-" if e.rank == 1 else ""),
                     *([] if not shares else ["" if share is None else f"{100 * share:.0f}%"]),
                     *([kind or "run"] if any(kinds) else []), status])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    right = {0, 2, 4, 5} if shares else {0, 2, 4}
    lines = ["  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
             .rstrip() for r in rows]
    n_ok = sum(e.report is not None for e in lb.entries)
    head = f"Leaderboard ({lb.task}): {len(lb.entries)} run{'s' if len(lb.entries) != 1 else ''}, {n_ok} scored"
    foot = ["* partial: the mean of the parts that could run, not the official score (see LEADERBOARD.md)"] \
        if partial else []
    return "\n".join([head, *lines, *foot]) + "\n"
