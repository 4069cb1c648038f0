"""Every page, report, board and Codabench text rendered from fixed inputs (tests/test_render_identity.py).

The rendered bytes are compared by sha256 with tests/fixtures/rendered.sha256.json: moving markup from Python
strings to template files must not change one byte. `python tests/render_snapshots.py OUT` writes every
rendered text into OUT (to diff two versions); `python tests/render_snapshots.py --update` rewrites the hashes
(only for an intended change of a page, said in the commit).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "tests" / "golden" / "demo"
DEMO = REPO / "data" / "demo"
HASHES = REPO / "tests" / "fixtures" / "rendered.sha256.json"
# model metrics are left out (they need models this machine may lack); one BERTScore whose model path does not
# exist makes its overall scores partial everywhere, so the partial markers and notes are rendered too
METRICS_2025 = ["factuality", "bleu", "rouge", "sari", "bertscore(model=/nonexistent/bert-model)"]
REPORTS = {  # name -> (task, golden run, key split, metrics)
    "report-2025-lexical": ("2025", "2025/test-lexical", "test", METRICS_2025),
    "report-2025-traps": ("2025", "2025/test-traps", "test", ["factuality"]),
    "report-st1": ("st1", "2026/st1-narrative15", "test", ["rouge"]),
    "report-st2": ("st2", "2026/st2-lexical", "test", None),
    "report-st3": ("st3", "2026/st3-lexical-extractive", "test", ["rouge"]),
    "report-st4": ("st4", "2026/st4-first-essential", "test", None),
}


def _key(split: str) -> Path:
    return DEMO / split / "archehr-qa_key.json"


def reports() -> dict[str, str]:
    from archehr.leaderboard.html_report import load_submission_items, report_html
    from archehr.leaderboard.scorer import OfficialScorer, load_key_with_notes
    from archehr_scoring.bootstrap import bootstrap_ci

    out = {}
    for name, (task, run, split, metrics) in REPORTS.items():
        sub = GOLDEN / run / "submission.json"
        rep = OfficialScorer(task, metrics).score(sub, _key(split))
        rep = dataclasses.replace(rep, ci=bootstrap_ci(rep, n=50, seed=7, partial=True))
        out[name + ".html"] = report_html(task, rep, load_key_with_notes(_key(split)), load_submission_items(sub),
                                          f"Report: {run} <&>")
    return out


def _board_folder(root: Path) -> Path:
    """The committed runs, one run of another task, one invalid run and one run with no run.json."""
    runs = root / "runs"
    for run in sorted((REPO / "submissions").glob("*/submission.json")):
        shutil.copytree(run.parent, runs / run.parent.name)
    (runs / "st2-run").mkdir()
    shutil.copy(GOLDEN / "2026" / "st2-lexical" / "submission.json", runs / "st2-run" / "submission.json")
    (runs / "broken <b>").mkdir()
    (runs / "broken <b>" / "submission.json").write_text('[{"case_id": "1", "answer": 3}]')
    (runs / "traps-with-a-very-long-run-name-that-wraps").mkdir()
    shutil.copy(GOLDEN / "2025" / "test-traps" / "submission.json",
                runs / "traps-with-a-very-long-run-name-that-wraps" / "submission.json")
    return runs


def boards() -> dict[str, str]:
    from archehr.leaderboard.board import build_leaderboard
    from archehr.leaderboard.cache import ScoreCache
    from archehr.leaderboard.html_board import leaderboard_html
    from archehr.leaderboard.render import leaderboard_markdown, to_terminal
    from archehr.leaderboard.scorer import OfficialScorer

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        runs = _board_folder(Path(tmp))
        for name, metrics, test in (("board-partial", METRICS_2025, "bootstrap"),
                                    ("board-factuality", ["factuality"], "randomization")):
            lb = build_leaderboard([runs], _key("test"), OfficialScorer("2025", metrics), cache=ScoreCache(None),
                                   test=test, n_resamples=50, seed=3)
            out[name + ".html"] = leaderboard_html(lb)
            out[name + ".md"] = leaderboard_markdown(lb)
            out[name + ".txt"] = to_terminal(lb)
    return out


def serve_pages() -> dict[str, str]:
    try:
        import fastapi  # noqa: F401
        import httpx  # noqa: F401
    except ImportError:
        return {}
    from archehr.serve.app import ServerState, create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        st2 = Path(tmp) / "st2"
        for run in ("st2-lexical", "st2-some-empty", "st2-ess-plus-supp"):
            shutil.copytree(GOLDEN / "2026" / run, st2 / run)
        with TestClient(create_app(ServerState(None, None, [str(REPO / "submissions"), str(st2)]))) as c:
            runs = c.get("/api/runs").json()["runs"]
            ids = {r["name"]: r["id"] for r in runs}
            three = "&".join(f"run={ids[n]}" for n in ("trained-extractive", "lexical-extractive", "cite-all"))
            pages = {"ask": "/", "runs-empty-pick": "/runs", "runs-three": f"/runs?split=test&{three}",
                     "runs-one": f"/runs?split=test&run={ids['cite-all']}",
                     "runs-st2": "/runs?split=test&" + "&".join(
                         f"run={ids[n]}" for n in ("st2-lexical", "st2-some-empty", "st2-ess-plus-supp")),
                     "api": "/api"}
            for name, url in pages.items():
                out[f"serve-{name}.html"] = c.get(url).text
            out["serve.css"] = c.get("/static/serve.css").text
        with TestClient(create_app(ServerState(None, None, []))) as c:
            out["serve-runs-none.html"] = c.get("/runs").text
    return out


def codabench() -> dict[str, str]:
    import datetime
    import io
    import zipfile

    from archehr.codabench import build_bundle

    out = {}
    for task, metrics, models in (("2025", None, False), ("st1", None, False),
                                  ("2025", ["factuality", "bertscore(model=/m)"], True)):
        data = build_bundle(task, DEMO / "test", docker_image="x/y:1",
                            metrics=metrics, image_has_models=models, start=datetime.date(2026, 1, 1))
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            for name in zf.namelist():
                if name.endswith(".md"):
                    out[f"codabench-{task}-{'models' if models else 'plain'}-{name.replace('/', '-')}"] = \
                        zf.read(name).decode()
    return out


SOURCES: dict[str, Callable[[], dict[str, str]]] = {
    "reports": reports, "boards": boards, "serve": serve_pages, "codabench": codabench}


def render_all() -> dict[str, str]:
    out: dict[str, str] = {}
    for make in SOURCES.values():
        out |= make()
    return out


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


if __name__ == "__main__":
    rendered = render_all()
    if sys.argv[1:] == ["--update"]:
        HASHES.parent.mkdir(parents=True, exist_ok=True)
        HASHES.write_text(json.dumps({k: sha(v) for k, v in sorted(rendered.items())}, indent=1) + "\n")
        print(f"wrote {len(rendered)} hashes to {HASHES}")
    else:
        dest = Path(sys.argv[1])
        dest.mkdir(parents=True, exist_ok=True)
        for k, v in rendered.items():
            (dest / k).write_text(v, encoding="utf-8")
        print(f"wrote {len(rendered)} files to {dest}")
