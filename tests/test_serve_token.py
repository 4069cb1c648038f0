"""`archehr serve` off this computer: a token or no start; a request without the token gets 401 and reaches nothing."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from conftest import REPO  # noqa: E402

TOKEN = "s3cret-token-for-tests-0123"
NOTE = "Chest pain on admission. A stent was placed.\n\nDischarged on aspirin."
BODY = {"note": NOTE, "question": "Why the stent?", "splitter": "rules"}


@pytest.fixture
def serve_start(monkeypatch):
    """main(['serve', ...]) with uvicorn.run recorded instead of run; no token in the environment."""
    import uvicorn

    calls: list[dict] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append({"app": app, **kw}))
    monkeypatch.delenv("ARCHEHR_SERVE_TOKEN", raising=False)
    return calls


def test_off_loopback_without_a_token_refuses_to_start(serve_start, capsys) -> None:
    from archehr.cli.main import main

    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: field --host: listening on 0.0.0.0 lets other machines")
    assert "ARCHEHR_SERVE_TOKEN" in err[0]
    assert main(["serve", "--host", "0.0.0.0", "--port", "0", "--token", "short"]) == 2
    assert "use at least 16" in capsys.readouterr().err
    assert main(["serve", "--host", "0.0.0.0", "--port", "0", "--token", "has a space in it, 16+"]) == 2
    assert serve_start == []  # nothing was served


def test_a_token_from_the_environment_option_or_generated(serve_start, monkeypatch, capsys) -> None:
    from archehr.cli.main import main
    from archehr.serve.auth import TokenGate

    monkeypatch.setenv("ARCHEHR_SERVE_TOKEN", TOKEN)
    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 0
    assert isinstance(serve_start[-1]["app"], TokenGate) and serve_start[-1]["app"].token == TOKEN.encode()
    assert f"/?token={TOKEN} once in a browser" in capsys.readouterr().err
    monkeypatch.delenv("ARCHEHR_SERVE_TOKEN")
    assert main(["serve", "--host", "0.0.0.0", "--port", "0", "--generate-token"]) == 0
    made = serve_start[-1]["app"].token.decode()
    assert len(made) >= 32 and f"?token={made} " in capsys.readouterr().err
    assert main(["serve", "--port", "0"]) == 0  # on this computer a token is optional
    assert not isinstance(serve_start[-1]["app"], TokenGate)


@pytest.fixture
def gated(monkeypatch):
    """A token-gated app, and the calls that reached the answer function."""
    import archehr.ask
    from archehr.serve.app import ServerState, create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    reached: list[str] = []
    real = archehr.ask.answer

    def spy(note, question, **kw):
        reached.append(question)
        return real(note, question, **kw)

    monkeypatch.setattr(archehr.ask, "answer", spy)
    state = ServerState(None, None, [str(REPO / "submissions")])
    with TestClient(create_app(state, TOKEN), follow_redirects=False) as c:
        yield c, reached


def test_without_the_token_401_and_the_system_is_never_called(gated) -> None:
    client, reached = gated
    for headers in ({}, {"Authorization": "Bearer wrong-token-wrong-token"}, {"Authorization": TOKEN},
                    {"Cookie": "archehr_token=nope"}):
        r = client.post("/api/answer", json=BODY, headers=headers)
        assert r.status_code == 401, headers
        assert r.json()["problems"][0]["code"] == "unauthorized"
        assert r.headers["www-authenticate"].startswith("Bearer")
        assert r.headers["cache-control"] == "no-store"
    for path in ("/", "/runs", "/api/runs", "/api/health", "/openapi.json", "/static/ask.js"):
        assert client.get(path).status_code == 401, path
    assert client.get("/?token=wrong-token-wrong-token").status_code == 401
    assert reached == []


def test_with_the_token_200(gated) -> None:
    client, reached = gated
    r = client.post("/api/answer", json=BODY, headers={"Authorization": f"Bearer {TOKEN}"})
    assert r.status_code == 200 and r.json()["cited_ids"]
    assert reached == ["Why the stent?"]


def test_the_printed_address_sets_a_cookie_the_pages_then_use(gated) -> None:
    client, reached = gated
    r = client.get(f"/runs?split=test&token={TOKEN}")
    assert r.status_code == 303 and r.headers["location"] == "/runs?split=test"  # the token leaves the address
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"archehr_token={TOKEN};") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    jar = {"Cookie": f"archehr_token={TOKEN}"}
    assert client.get("/runs?split=test", headers=jar).status_code == 200
    assert client.post("/api/answer", json=BODY, headers=jar).status_code == 200
    assert reached == ["Why the stent?"]
