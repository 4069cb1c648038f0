"""The web app's edges: malformed JSON named by line and column; the runs page's baseline is the user's choice."""

from __future__ import annotations

import re
import warnings

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from conftest import REPO  # noqa: E402


@pytest.fixture(scope="module")
def client():
    from archehr.serve.app import ServerState, create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    with TestClient(create_app(ServerState(None, None, [str(REPO / "submissions")]))) as c:
        yield c


def test_malformed_json_is_named_by_line_and_column(client) -> None:
    body = b'{"note": "Stable.",\n "question": "Why?"\n "splitter": "rules"}'
    r = client.post("/api/answer", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422
    problem = r.json()["problems"][0]
    assert problem["text"] == ("error: field body: the request body is not valid JSON: Expecting ',' delimiter at "
                               "line 3 column 2")
    assert problem["line"] == 3 and problem["code"] == "invalid-json"
    assert "9" not in problem["field"]


def test_the_runs_page_compares_against_the_chosen_baseline(client) -> None:
    ids = {x["name"]: x["id"] for x in client.get("/api/runs").json()["runs"]}
    a, b = ids["trained-extractive"], ids["lexical-extractive"]
    default = client.get(f"/runs?split=test&run={a}&run={b}").text
    chosen = client.get(f"/runs?split=test&run={a}&run={b}&baseline={b}").text
    heading = re.compile(r"<h2>([^<]+) <span")
    assert heading.search(default).group(1) == "trained-extractive vs lexical-extractive"
    assert heading.search(chosen).group(1) == "lexical-extractive vs trained-extractive"
    assert f'<option value="{b}" data-task="2025" selected>lexical-extractive</option>' in chosen
    assert "&Delta; trained-extractive</th>" in chosen and "&Delta; lexical-extractive</th>" not in chosen
    # an empty choice is the default; a baseline outside the chosen runs joins them as the first
    assert client.get(f"/runs?split=test&run={a}&run={b}&baseline=").text == default
    third = client.get(f"/runs?split=test&run={a}&run={b}&baseline={ids['cite-all']}").text
    assert heading.search(third).group(1) == "cite-all vs trained-extractive vs lexical-extractive"
