"""The shipped `openai-server` system pointed at a test server, and `archehr predict` run with it on the demo
test split: shared by the fault tests (tests/test_llm_faults.py) and the realistic-server tests
(tests/test_llm_serving.py)."""

from __future__ import annotations

from pathlib import Path


def shipped_system(tmp_path: Path, url: str, selector: dict | None = None, **params) -> Path:
    """configs/systems/openai-server.yaml with its backend at `url` and `params` (small deadlines for tests)."""
    import yaml

    from archehr.system_config import find_system_file

    raw = yaml.safe_load(find_system_file("openai-server").read_text(encoding="utf-8"))
    raw["backend"].update({"base_url": url, **params})
    if selector is not None:
        raw["selector"] = selector
    path = tmp_path / "openai-server.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


def predict(tmp_path: Path, system: Path, *extra: str, force: bool = False) -> tuple[int, Path]:
    """(exit code, run folder) of `archehr predict` with `system` on the demo test split."""
    from archehr.cli.main import main

    out = tmp_path / "run"
    code = main(["predict", "--data-dir", "data/demo", "--split", "test", "--system", str(system), "-o", str(out),
                 "--cache-dir", str(tmp_path / "cache"), "--no-progress", *(["--force"] if force else []), *extra])
    return code, out
