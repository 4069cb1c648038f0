"""A new task is one file: this one declares a toy subtask (its spec, submission shape, metric, aggregator,
what a system predicts for it and how that is written), and `archehr predict`, `score`, `validate`,
`leaderboard` and `report` handle it with nothing else changed.

The toy subtask: name each case's (first) clinical specialty, `[{"case_id": "21", "specialty": "..."}]`;
a registered text metric (`exact-match`: 100 when the prediction equals the reference, ignoring case) and
the task's own per-case statistic (`named`: 1 when a specialty was given); the aggregator's official keys
are `accuracy` (mean of exact-match), `coverage` and `overall_score` (= accuracy).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from archehr.cli.main import main
from archehr.errors import Problem
from archehr.pipeline import OUTPUTS
from archehr_scoring.metrics.base import TextExample, TextMetric, signature
from archehr_scoring.metrics.registry import METRICS
from archehr_scoring.stats import Batch
from archehr_scoring.tasks import TASKS, AggregationContext, Inputs, Prepared, Task

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo" / "test"
TOY = "toy-specialty"


class ExactMatch(TextMetric):
    """100 when the prediction equals the reference (case-insensitive), else 0."""

    name = "exact-match"
    keys = ("exact",)

    def signature(self) -> str:
        return signature("EXACT", lower="yes", ref=self.reference_kind)

    def compute(self, examples: Sequence[TextExample]) -> dict[str, dict[str, float]]:
        return {ex.case_id: {"exact": 100.0 * (ex.prediction.lower() == ex.reference.lower())} for ex in examples}


def detect(obj: Any) -> str | None:
    if isinstance(obj, list) and obj and all(isinstance(it, dict) and "specialty" in it for it in obj):
        return TOY
    return None


class Handler:
    def validate(self, task: str, inputs: Inputs) -> tuple[list[Problem], list[Problem]]:
        obj, file = inputs.obj, inputs.file
        if not isinstance(obj, list):
            return [Problem("expected a list of {case_id, specialty} objects", file, code="type")], []
        errors: list[Problem] = []
        for i, it in enumerate(obj):
            if not isinstance(it, dict) or not isinstance(it.get("case_id"), str):
                errors.append(Problem(f"item {i}: no case_id", file, code="type"))
            elif not isinstance(it.get("specialty"), str):
                errors.append(Problem("specialty must be a string", file, it["case_id"], "specialty", code="type"))
        if inputs.split is not None and not errors:
            given = {it["case_id"] for it in obj}
            errors += [Problem("case is in the reference but not in the submission", file, c, "case_id",
                               code="missing-case") for c in inputs.split.case_ids if c not in given]
        warnings = [Problem("empty specialty", file, it["case_id"], "specialty", code="warning-empty")
                    for it in obj if isinstance(it, dict) and it.get("specialty") == ""]
        return errors, warnings

    def prepare(self, task: str, inputs: Inputs) -> Prepared:
        from archehr.errors import SubmissionError

        errors, warnings = self.validate(task, inputs)
        if errors:
            raise SubmissionError(errors)
        preds = {it["case_id"]: it["specialty"] for it in inputs.obj}
        ids = tuple(c for c in inputs.split.case_ids if c in preds)
        examples = [TextExample(c, preds[c], inputs.split.case(c).clinical_specialty[0]) for c in ids]
        return Prepared(ids, {c: {"named": float(bool(preds[c]))} for c in ids}, examples, {"named": "NAMED|v1"},
                        warnings)


def predict_specialty(system: Any, case: Any, split: Any) -> Any:
    """The system output the toy task names: the specialty of the note, named by the system's evidence step."""
    from archehr.pipeline import CasePrediction

    ev = system.evidence_for(case)  # a system predicts through its components (here: only to show it runs)
    return CasePrediction(case.case_id, case.clinical_specialty[0] if ev.selection.cited else "",
                          cited=ev.selection.cited)


def write(task: str, predictions: dict[str, str], path: Path, note_ids: Any) -> list[Problem]:
    from archehr.atomic import write_json

    write_json(path, [{"case_id": cid, "specialty": s} for cid, s in predictions.items()])
    return []


def aggregate(b: Batch, ctx: AggregationContext) -> dict[str, Any]:
    out: dict[str, Any] = {"coverage": b.mean("named") * 100 if b.has("named") else None}
    out["accuracy"] = out["overall_score"] = b.mean("exact") if b.has("exact") else None
    return out


SPEC = Task(TOY, "toy", "specialty naming", ("accuracy", "coverage", "overall_score"), aggregator=aggregate,
            handler=Handler(), detector=detect, shape="{case_id, specialty}", metrics=("exact-match",),
            references=("clinical_specialty",), headline=("overall_score", "coverage"), case_keys=("exact", "", ""),
            output="specialty", writer=write)


@pytest.fixture
def toy_task(monkeypatch):
    """Registered for this test only (the registries are left as they were)."""
    monkeypatch.setitem(TASKS._entries, TOY, SPEC)
    monkeypatch.setitem(METRICS._entries, "exact-match", f"{__name__}:ExactMatch")
    monkeypatch.setitem(OUTPUTS._entries, "specialty", predict_specialty)
    return SPEC


def _submission(path: Path, right: int, cases: Sequence[Any]) -> Path:
    items = [{"case_id": c.case_id, "specialty": c.clinical_specialty[0] if i < right else "Dermatology"}
             for i, c in enumerate(cases)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(items), encoding="utf-8")
    return path


@pytest.fixture
def cases():
    from archehr.data.releases import load_split_dir

    return load_split_dir(DEMO).cases


def test_score_detects_and_scores_the_toy_task(toy_task, cases, tmp_path, capsys):
    sub = _submission(tmp_path / "sub.json", 7, cases)
    assert main(["score", str(sub), str(DEMO), "--format", "json", "--bootstrap", "50"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["_meta"]["task"] == TOY and out["_meta"]["task_detected"] is True
    assert out["accuracy"] == out["overall_score"] == pytest.approx(70.0) and out["coverage"] == 100.0
    assert set(out["_meta"]["signatures"]) == {"named", "exact-match"}
    lo, hi = out["_meta"]["ci95"]["accuracy"]
    assert lo <= 70.0 <= hi
    per_case = tmp_path / "per_case.json"
    assert main(["score", str(sub), str(DEMO), "--task", TOY, "--per-case", str(per_case)]) == 0
    assert [r["exact"] for r in json.loads(per_case.read_text())] == [100.0] * 7 + [0.0] * 3
    # options that belong to other tasks are refused with exit 2
    assert main(["score", str(sub), str(DEMO), "--task", TOY, "--metrics", "bleu"]) == 2
    assert main(["score", str(sub), str(DEMO), "--task", TOY, "--case-ids", "21"]) == 2


def test_validate_reports_the_toy_tasks_problems(toy_task, cases, tmp_path, capsys):
    sub = _submission(tmp_path / "sub.json", 10, cases[:9])
    assert main(["validate", str(sub), "--key", str(DEMO), "--format", "json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["task"] == TOY and [e["case_id"] for e in out["errors"]] == [cases[9].case_id]
    assert main(["validate", str(_submission(tmp_path / "ok.json", 10, cases))]) == 0


def test_leaderboard_and_report_rank_and_show_toy_runs(toy_task, cases, tmp_path, capsys):
    subs = tmp_path / "subs"
    for name, right in (("good", 9), ("half", 5), ("poor", 2)):
        _submission(subs / name / "submission.json", right, cases)
    (subs / "broken" / "submission.json").parent.mkdir()
    (subs / "broken" / "submission.json").write_text("[{}]")
    args = ["leaderboard", str(subs), "--key", str(DEMO), "--task", TOY, "--resamples", "100", "-q"]
    assert main(args) == 0
    board = json.loads((subs / "leaderboard.json").read_text())
    assert [e["run"] for e in board["entries"]] == ["good", "half", "poor", "broken"]
    assert [e["scores"].get("overall_score") for e in board["entries"][:3]] == [90.0, 50.0, 20.0]
    assert board["entries"][1]["vs_top"]["overall_score"]["p"] < 0.05 and board["entries"][3]["status"] == "invalid"
    assert "| coverage |" in (subs / "LEADERBOARD.md").read_text()  # the task's headline columns
    assert main(args + ["--check"]) == 0
    html = tmp_path / "report.html"
    assert main(["report", str(subs / "half" / "submission.json"), "--key", str(DEMO), "--task", TOY, "-o",
                 str(html), "--resamples", "50"]) == 0
    page = html.read_text()
    assert "accuracy" in page and f"Case {cases[0].case_id}" in page


def test_predict_writes_the_toy_task_and_score_reads_it(toy_task, tmp_path, capsys):
    run = tmp_path / "run"
    assert main(["predict", "--task", TOY, "--data-dir", str(DEMO.parent), "--split", "test", "-o", str(run),
                 "--no-progress"]) == 0
    sub = json.loads((run / "submission.json").read_text(encoding="utf-8"))
    assert len(sub) == 10 and all(set(item) == {"case_id", "specialty"} for item in sub)
    assert json.loads((run / "run.json").read_text(encoding="utf-8"))["task"] == TOY
    capsys.readouterr()
    assert main(["score", str(run / "submission.json"), str(DEMO), "--format", "json", "--bootstrap", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["_meta"]["task"] == TOY and out["accuracy"] == 100.0 and out["coverage"] == 100.0


def test_a_task_systems_do_not_predict_is_refused_in_one_line(tmp_path, capsys):
    rc = main(["predict", "--task", "st9", "--data-dir", str(DEMO.parent), "-o", str(tmp_path / "r"),
               "--no-progress"])
    assert rc == 2 and "did you mean" in capsys.readouterr().err
