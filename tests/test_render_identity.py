"""Pages, reports, boards and Codabench texts render byte for byte as recorded (tests/render_snapshots.py).

The markup lives in template files; these hashes were taken from the pages as rendered before it moved there,
so a template edit that changes a page fails here until the change is meant (and the hashes are rewritten with
`python tests/render_snapshots.py --update`).
"""

from __future__ import annotations

import json

import pytest
import render_snapshots as snap

RECORDED = json.loads(snap.HASHES.read_text())


@pytest.mark.parametrize("source", sorted(snap.SOURCES))
def test_rendered_bytes_are_unchanged(source: str) -> None:
    rendered = snap.SOURCES[source]()
    if not rendered:
        pytest.skip(f"{source}: the web stack (fastapi, httpx) is not installed")
    changed = sorted(name for name, text in rendered.items() if snap.sha(text) != RECORDED.get(name))
    assert not changed, f"rendered differently from the recorded bytes: {changed}"
    assert set(rendered) == {n for n in RECORDED if snap.SOURCES[source] is _source_of(n)}


def _source_of(name: str):
    prefix = name.split("-", 1)[0].split(".", 1)[0]
    return {"report": snap.reports, "board": snap.boards, "serve": snap.serve_pages,
            "codabench": snap.codabench}[prefix]
