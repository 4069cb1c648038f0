"""archehr: grounded patient-question answering over clinical notes (ArchEHR-QA).

The few entry points for use from Python (README, "From Python"):

    load_split(data_dir=None, split="dev")    a release split: cases, key, mapping (data_dir None: the demo)
    load_system(name="trained-extractive")    a system from configs/systems/ or a YAML path; .predict(case, task)
    run_split(system, split, task, out_dir)   predict every case into a run folder (submission.json, run.json)
    score(task, submission, key)              official scores of a submission (path or list) -> ScoreReport
    validate(task, submission, key=None)      every problem of a submission, without scoring
    answer(note, question)                    a cited answer to one question about one note

They are imported on first use, so `import archehr` stays light (no numpy, no torch).
"""

from importlib import import_module

__version__ = "0.1.0"

_EXPORTS = {
    "answer": "archehr.ask",
    "load_split": "archehr.data.releases",
    "find_release": "archehr.data.releases",
    "load_system": "archehr.pipeline",
    "run_split": "archehr.runs",
    "score": "archehr_scoring.api",
    "validate": "archehr_scoring.api",
    "Case": "archehr.data.model",
    "Split": "archehr.data.model",
}
__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> object:
    if name in _EXPORTS:
        value = getattr(import_module(_EXPORTS[name]), name)
        globals()[name] = value  # later lookups skip this hook
        return value
    raise AttributeError(f"module 'archehr' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
