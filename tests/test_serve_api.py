"""`archehr serve`'s JSON API and pages through FastAPI's test client (no socket, no browser)."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

REPO = Path(__file__).resolve().parents[1]
SUBMISSIONS = REPO / "submissions"
KEY = REPO / "data" / "demo" / "test" / "archehr-qa_key.json"
NOTE = ("Chief Complaint: chest pain.\n\nThe patient was admitted with chest pain radiating to the left arm. "
        "Troponin was elevated at 2.3. He underwent cardiac catheterization, which showed a 90% LAD stenosis. "
        "A drug-eluting stent was placed.\n\nHe was discharged on aspirin and clopidogrel. "
        "<script>window.__pwned = 1</script> Follow up in cardiology clinic in two weeks.")
QUESTION = "Why did he need the heart catheterization?"


@pytest.fixture(scope="module")
def client():
    from archehr.serve.app import ServerState, create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # starlette's note about httpx in its test client
        from fastapi.testclient import TestClient

    state = ServerState(None, None, [str(SUBMISSIONS)])
    with TestClient(create_app(state)) as c:
        yield c


def _post_answer(client, **body):
    return client.post("/api/answer", json={"note": NOTE, "question": QUESTION, "splitter": "rules", **body})


def test_answer_is_what_the_library_returns(client) -> None:
    import archehr

    r = _post_answer(client)
    assert r.status_code == 200
    got = r.json()
    want = archehr.answer(NOTE, QUESTION, splitter="rules")
    assert got["answer"] == want.answer
    assert got["confidence"] == pytest.approx(want.confidence)
    assert got["needs_review"] == want.flagged
    assert got["splitter"] == "rules" == want.note.splitter
    assert [s["id"] for s in got["sentences"]] == [s.id for s in want.note.sentences]
    assert got["cited_ids"] == [s.id for s in want.cited] and got["cited_ids"]
    for s in got["sentences"]:  # every sentence indexes the note; cited ones carry the selector's label
        assert NOTE[s["start"]:s["end"]] == s["text"]
        assert s["cited"] == (s["id"] in got["cited_ids"])
        assert (s["cited_as"] in ("essential", "supplementary")) == s["cited"]
    assert dict(want.cited_as) == {s["id"]: s["cited_as"] for s in got["sentences"] if s["cited"]}
    # markup in a note is data: it comes back as the same characters, to be shown as text
    assert any("<script>window.__pwned = 1</script>" in s["text"] for s in got["sentences"])


def test_abstention_is_shown_with_related_sentences_not_citations(client) -> None:
    import archehr

    q = "What is the name of my dog?"
    want = archehr.answer(NOTE, q, splitter="rules")
    assert want.abstained  # the note says nothing about a dog: the answerability model abstains
    got = _post_answer(client, question=q).json()
    assert got["abstained"] is True and got["cited_ids"] == []
    assert got["answer"] == want.answer and got["confidence"] == pytest.approx(want.confidence)
    assert got["related_ids"] == [s.id for s in want.related]
    assert [s["id"] for s in got["sentences"] if s["related"]] == got["related_ids"]
    assert not any(s["cited"] for s in got["sentences"])


def test_bad_input_gets_the_cli_problem_lines(client, tmp_path, capsys) -> None:
    from archehr.cli.main import main

    r = _post_answer(client, note="   \n")
    assert r.status_code == 400
    (tmp_path / "empty.txt").write_text("   \n")
    assert main(["answer", "--note", str(tmp_path / "empty.txt"), "--question", QUESTION]) == 2
    cli_lines = capsys.readouterr().err.strip().splitlines()
    assert [p["text"] for p in r.json()["problems"]] == cli_lines


def test_malformed_request_is_422_without_echoing_the_note(client) -> None:
    secret = "Ms Zyxwvut was seen for her secret condition."
    r = client.post("/api/answer", json={"note": secret})
    assert r.status_code == 422
    assert [p["text"] for p in r.json()["problems"]] == ["error: field question: Field required"]
    assert "Zyxwvut" not in r.text
    r = client.post("/api/answer", content=b"{not json " + secret.encode(),
                    headers={"content-type": "application/json"})
    assert r.status_code == 422 and "Zyxwvut" not in r.text
    r = _post_answer(client, splitter="nltk")
    assert r.status_code == 422 and r.json()["problems"][0]["text"].startswith("error: field splitter: ")


def test_size_limits_are_413(client) -> None:
    big = b"x" * (10 * 1024 * 1024)
    r = client.post("/api/answer", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413  # refused from its Content-Length, before reading the body
    assert "larger than the 1 MB" in r.json()["problems"][0]["text"]

    def chunks():  # no Content-Length: read up to the limit, then refused
        for _ in range(10):
            yield b"x" * (1024 * 1024)

    r = client.post("/api/answer", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    r = _post_answer(client, note="Stable. " * 26_000)  # 203 KB: inside the body limit, over the note limit
    assert r.status_code == 413
    assert r.json()["problems"][0]["text"] == "error: field note: the note is 203 KB; this server takes at most 200 KB"
    r = client.post("/api/score", content=b"[" + b" " * (21 * 1024 * 1024) + b"]",
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and "20 MB" in r.json()["problems"][0]["text"]


def test_score_is_the_scorers(client) -> None:
    from archehr_scoring.api import score

    sub = SUBMISSIONS / "trained-extractive" / "submission.json"
    r = client.post("/api/score", json={"submission": json.loads(sub.read_text()), "key": "test"})
    assert r.status_code == 200
    got = r.json()
    want = score(None, sub, KEY)
    assert got["task"] == "2025" and got["n_cases"] == len(want.per_case) == 10
    assert got["scores"] == pytest.approx(want.scores)
    for case_id in want.per_case:
        assert got["per_case"][case_id] == pytest.approx(want.aggregate([case_id], partial=True))
    assert set(got["unavailable"]) == set(want.unavailable)


def test_score_bad_submission_and_unknown_key(client, tmp_path, capsys) -> None:
    from archehr.cli.main import main

    bad = [{"case_id": "21", "answer": "No citation here."}, {"case_id": "21", "answer": "Twice |1|"}]
    r = client.post("/api/score", json={"submission": bad, "key": "test"})
    assert r.status_code == 400
    api_msgs = [p["message"] for p in r.json()["problems"]]
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    assert main(["score", str(tmp_path / "bad.json"), str(KEY)]) == 2
    cli = capsys.readouterr().err
    assert api_msgs and all(m in cli for m in api_msgs)  # the same problems (the CLI adds the file name)
    r = client.post("/api/score", json={"submission": bad, "key": "nope"})
    assert r.status_code == 400 and "no split 'nope' with a key" in r.json()["problems"][0]["text"]


def test_runs_listing_and_provenance(client) -> None:
    r = client.get("/api/runs")
    assert r.status_code == 200
    got = r.json()
    names = sorted(p.parent.name for p in SUBMISSIONS.glob("*/submission.json"))
    assert sorted(x["name"] for x in got["runs"]) == names
    assert {s["name"] for s in got["splits"] if s["has_key"]} >= {"dev", "test"}
    run = next(x for x in got["runs"] if x["name"] == "trained-extractive")
    assert run["task"] == "2025" and run["split"] == "test" and run["system"] == "trained-extractive"
    prov = client.get(run["provenance_url"])
    assert prov.status_code == 200
    assert prov.json() == json.loads((SUBMISSIONS / "trained-extractive" / "run.json").read_text())


def test_runs_page_orders_cases_by_difference(client) -> None:
    import re

    from archehr.leaderboard.compare import compare_reports
    from archehr_scoring.api import score

    ids = {x["name"]: x["id"] for x in client.get("/api/runs").json()["runs"]}
    r = client.get(f"/runs?split=test&run={ids['trained-extractive']}&run={ids['lexical-extractive']}")
    assert r.status_code == 200
    order = re.findall(r'<section class="case" id="case-([^"]+)"', r.text)
    a = score(None, SUBMISSIONS / "trained-extractive" / "submission.json", KEY)
    b = score(None, SUBMISSIONS / "lexical-extractive" / "submission.json", KEY)
    want = compare_reports(a, b).cases  # `archehr compare`'s order: largest |B - A| first
    assert order == [d.case_id for d in want] and len(order) == 10
    first = want[0]
    assert f'data-delta="{first.delta:.6f}"' in r.text
    # one run only, or runs of unknown ids: a problem line, no comparison
    r = client.get(f"/runs?split=test&run={ids['trained-extractive']}")
    assert r.status_code == 400 and "pick two or more runs" in r.text
    assert client.get("/runs?split=test&run=99&run=0").status_code == 400


def test_pages_headers_and_api_page(client) -> None:
    for path in ("/", "/runs", "/api", "/static/ask.js", "/static/serve.css", "/api/health"):
        r = client.get(path)
        assert r.status_code == 200, path
        csp = r.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert r.headers["cache-control"] == "no-store"
    page = client.get("/").text
    assert "http://" not in page and "https://" not in page  # nothing loaded from elsewhere
    assert "<script>" not in page  # scripts are files of this server only (no inline code)
    assert client.get("/docs").status_code == 404  # FastAPI's Swagger page loads a CDN: switched off
    schema = client.get("/openapi.json").json()
    assert {"/api/answer", "/api/score", "/api/runs"} <= set(schema["paths"])
    api = client.get("/api").text
    for p in ("POST /api/answer", "POST /api/score", "GET /api/runs", "AnswerResponse", "ScoreResponse"):
        assert p in api
    assert client.get("/static/../app.py").status_code == 404


def test_access_log_line_is_method_path_status() -> None:
    from archehr.serve.logs import AccessFormatter

    rec = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                            ("127.0.0.1:5555", "GET", "/runs?split=test&run=1", "1.1", 200), None)
    assert AccessFormatter().format(rec) == "GET /runs 200"


def test_llm_reply_cache_is_off_when_serving() -> None:
    from archehr.serve.app import serving_config
    from archehr.system_config import load_config

    for name in ("smollm2", "openai-server"):
        cfg = load_config(name)
        assert cfg.backend is not None
        assert serving_config(cfg).backend["cache"] is False


def test_serve_command_binds_localhost_and_warns_otherwise(monkeypatch, capsys) -> None:
    import uvicorn

    from archehr.cli.main import main

    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    assert main(["serve", "--runs", str(SUBMISSIONS), "--port", "0"]) == 0
    assert calls[-1]["host"] == "127.0.0.1" and "warning" not in capsys.readouterr().err
    monkeypatch.setenv("ARCHEHR_SERVE_TOKEN", "a-test-token-of-24-chars")
    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 0
    assert calls[-1]["host"] == "0.0.0.0"
    assert "warning: listening on 0.0.0.0" in capsys.readouterr().err
    monkeypatch.delenv("ARCHEHR_SERVE_TOKEN")
    assert main(["serve", "--runs", "no/such/dir"]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    assert main(["serve", "--system", "trained-extractve"]) == 2  # a typo: one line with the near name
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "trained-extractive" in err[0]
    assert len(calls) == 2  # neither bad start got as far as the server


def test_other_commands_do_not_import_fastapi() -> None:
    code = ("import sys\nfrom archehr.cli.main import main\nmain(['--help'])\nmain(['serve', '--help'])\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('fastapi', 'uvicorn', 'starlette')]\n"
            "assert not bad, bad\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def test_llm_system_says_what_fell_back_and_caches_nothing(tmp_path, monkeypatch) -> None:
    import socket

    import yaml

    from archehr.serve.app import ServerState, create_app
    from archehr.system_config import find_system_file

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    with socket.socket() as s:  # a port nobody listens on: every LLM call fails, each part falls back
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    raw = yaml.safe_load(find_system_file("openai-server").read_text(encoding="utf-8"))
    raw["backend"].update({"base_url": f"http://127.0.0.1:{port}/v1", "timeout": 0.5, "retries": 0,
                                     "backoff": 0.01})
    cfg = tmp_path / "llm.yaml"
    cfg.write_text(yaml.safe_dump(raw))
    monkeypatch.chdir(tmp_path)
    with TestClient(create_app(ServerState(str(cfg), None, []))) as c:
        r = _post_answer(c)
    assert r.status_code == 200
    got = r.json()
    assert got["system"] == "openai-server" and got["cited_ids"]
    assert got["fallback"] and "backend error" in got["fallback"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["llm.yaml"]  # no reply cache (prompts hold the note)


def test_server_errors_say_nothing_of_the_input(client, monkeypatch, caplog) -> None:
    import archehr.ask

    def boom(note, *a, **kw):
        raise RuntimeError(f"failed on {note[:40]}")  # a library error quoting its input

    monkeypatch.setattr(archehr.ask, "answer", boom)
    with caplog.at_level(logging.DEBUG):
        r = _post_answer(client)
    assert r.status_code == 500
    assert "Chief Complaint" not in r.text and "RuntimeError" in r.text
    logged = "\n".join(rec.getMessage() + str(rec.exc_info or "") for rec in caplog.records)
    assert "internal error on POST /api/answer: RuntimeError" in logged
    assert "Chief Complaint" not in logged


def test_lone_surrogates_unknown_paths_and_bad_json_get_problem_lines(client) -> None:
    r = client.post("/api/answer", content=b'{"note": "Stable. \\ud800 Home.", "question": "Why?"}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert r.json()["problems"][0]["text"] == ("error: field note: the note is not valid Unicode text "
                                               "(a lone surrogate at character 8)")
    r = client.post("/api/answer", content=b"[" * 100_000, headers={"content-type": "application/json"})
    assert r.status_code in (400, 422) and r.json()["problems"]
    assert client.get("/no/such/page").json()["problems"][0]["text"] == "error: no such page or endpoint"


def test_port_in_use_is_one_line(capsys) -> None:
    import socket

    from archehr.cli.main import main

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        f"error: field --port: cannot listen on 127.0.0.1 port {port}: Address already in use"]


def test_runs_page_on_a_2026_subtask(tmp_path) -> None:
    """st2 runs on the demo test-2026 split: the same page, the task's own per-case score, subtask filter."""
    from archehr.cli.main import main
    from archehr.serve.app import ServerState, create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    for system in ("trained-extractive", "cite-all"):
        assert main(["predict", "--split", "test-2026", "--task", "st2", "--system", system, "-o",
                     str(tmp_path / "runs" / system), "--no-progress"]) == 0
    with TestClient(create_app(ServerState(None, None, [str(tmp_path / "runs"), str(SUBMISSIONS)]))) as c:
        runs = c.get("/api/runs").json()["runs"]
        st2 = [r["id"] for r in runs if r["task"] == "st2"]
        assert len(st2) == 2
        r = c.get("/runs?split=test-2026&" + "&".join(f"run={i}" for i in st2))
        assert r.status_code == 200
        assert r.text.count('<section class="case"') == 6
        assert '<option value="st2" selected>st2</option>' in r.text
        mixed = [st2[0], next(x["id"] for x in runs if x["task"] == "2025")]
        r = c.get("/runs?split=test-2026&" + "&".join(f"run={i}" for i in mixed))
        assert r.status_code == 400 and "different subtasks cannot be compared" in r.text


def test_only_the_serve_package_imports_the_web_stack() -> None:
    import ast

    web = ("fastapi", "uvicorn", "starlette")
    for f in list((REPO / "archehr").rglob("*.py")) + list((REPO / "scoring").rglob("*.py")):
        rel = f.relative_to(REPO)
        if rel.parts[:2] == ("archehr", "serve") or rel.name == "serve_cmd.py":
            continue
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] in web for n in names), f"{rel} imports the web stack"
