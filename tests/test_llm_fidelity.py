"""The openai-server system keeps what a perfect model writes (scripted server over ../shared synthetic),
and each LLM part falls back, recorded, when the model fails it."""

from __future__ import annotations

import dataclasses
import json

import pytest

from archehr.testing.perfect_server import STYLES, PerfectModel, prompt_kind

# the openai backend speaks HTTP through httpx (the `llm` extra): without it these tests cannot run
httpx = pytest.importorskip("httpx", reason="httpx is not installed (pip install 'archehr[llm]')")


@pytest.fixture(scope="module")
def splits():
    from conftest import shared_path

    from archehr.data.releases import load_split

    d = shared_path("data", "synthetic")
    test, dev = load_split(d, "test"), load_split(d, "dev")
    # a few cases, among them 20, whose clinician answer opens with an uncited sentence
    ids = {"9", "20", "22"}
    small = dataclasses.replace(test, cases=tuple(c for c in test.cases if c.case_id in ids),
                                key=tuple(k for k in test.key if k.case_id in ids))
    return small, dev


@pytest.mark.parametrize("style,structured", [("pipes", None)] + [(s, False) for s in STYLES])
def test_a_perfect_model_loses_nothing_through_the_system(splits, style, structured):
    from archehr.testing.fidelity import measure

    test, dev = splits
    rows, requests = measure(test, dev, ["2025", "st1", "st2", "st3", "st4"], style=style, structured=structured)
    for r in rows:
        assert r.kept >= 0.98, (style, r)
        assert r.fallbacks == 0, (style, r)
    # every subtask asked the model: evidence (5 samples a case, for st2 and both answer tasks), question,
    # answer (2025, st3), alignment
    n = len(test)
    assert requests == {"evidence": 3 * 5 * n, "question": n, "answer": 2 * n, "alignment": n}


def test_what_fidelity_measures_per_task_comes_from_the_task_registry(splits, monkeypatch):
    """A task the registry declares like a built-in one gets the same perfect submission and measure,
    with no task name compared anywhere."""
    from archehr.testing.fidelity import measured_on
    from archehr_scoring.tasks import TASKS, get_task

    assert {t: measured_on(t) for t in ("2025", "st1", "st2", "st3", "st4")} == {
        "2025": ("strict_micro_f1", ["factuality"]), "st1": ("overall_score", ["rouge"]),
        "st2": ("strict_micro_f1", None), "st3": ("overall_score", ["bleu", "rouge", "sari"]),
        "st4": ("micro_f1", None)}
    test, _ = splits
    model = PerfectModel(test)
    for name in ("2025", "st1", "st2", "st3", "st4"):
        twin = f"twin-of-{name}"
        monkeypatch.setitem(TASKS._entries, twin, dataclasses.replace(get_task(name), name=twin))
        assert model.direct_submission(twin) == model.direct_submission(name)
        assert measured_on(twin) == measured_on(name)


def test_schema_requests_get_json_and_text_requests_get_the_style(splits):
    test, _ = splits
    model = PerfectModel(test, "bold")
    case = test.cases[0]
    prompt = f"Patient question: {case.question_text}\nESSENTIAL: ..."
    assert prompt_kind(prompt) == "evidence"
    assert json.loads(model.reply(prompt, {"type": "json_schema", "json_schema": {}}))["essential"]
    assert model.reply(prompt).startswith("**Essential:**")


def test_shipped_config_asks_the_model_for_every_subtask():
    from archehr.system_config import load_config

    cfg = load_config("openai-server")
    assert cfg.selector["kind"] == "llm" and cfg.question["kind"] == "llm" and cfg.align["kind"] == "llm"
    assert cfg.generator["keep_selected"] is False
    small = load_config("smollm2")  # the tiny model keeps its heavy repair and offline evidence
    assert small.selector["kind"] == "default" and "uncited" not in small.generator


class Scripted:
    """A backend returning canned replies (or raising), recording what it was asked."""

    name = "scripted"

    def __init__(self, replies=None, error=None):
        self.replies = replies or []
        self.error = error
        self.calls = []

    def complete(self, prompt, *, n=1, temperature=0.0, seed=0, max_tokens=256, response_format=None):
        from archehr.llm.base import BackendError

        self.calls.append({"prompt": prompt, "n": n, "response_format": response_format})
        if self.error:
            raise BackendError(self.error)
        return [self.replies[i % len(self.replies)] for i in range(n)]

    def describe(self):
        return {"backend": self.name}


def _case():
    from archehr.data.model import Case, ClinicianAnswerSentence, NoteSentence

    texts = ["History:", "He fainted twice at home.", "The ECG showed heart block.", "A pacemaker was placed."]
    case = Case("7", patient_narrative="Why did my father need a pacemaker after fainting?",
                sentences=tuple(NoteSentence(str(i + 1), 1, 0, t) for i, t in enumerate(texts)))
    answers = (ClinicianAnswerSentence("1", "He fainted because of heart block.", ("2", "3")),
               ClinicianAnswerSentence("2", "So he got a pacemaker.", ("4",)))
    return case, answers


@pytest.mark.parametrize("reply", ["1: 2, 3\n2: 4", "- **1**: [2, 3]\n- **2**: [4]", "Sentence 1: 2,3\nSentence 2: 4",
                                   '{"alignments": [{"answer": 1, "evidence": [2, 3]}, '
                                   '{"answer": 2, "evidence": [4]}]}',
                                   '```json\n{"1": [2, 3], "2": ["4"]}\n```', "1. 2, 3\n2. 4, 99"])
def test_llm_aligner_reads_every_format(reply):
    from archehr.align import Aligner
    from archehr.align.llm import LLMAligner

    case, answers = _case()
    backend = Scripted([reply])
    got = LLMAligner(backend, Aligner(kind="learned"), structured=True).align_detailed(case, answers)
    assert got.links == [{"answer_id": "1", "evidence_id": ["2", "3"]}, {"answer_id": "2", "evidence_id": ["4"]}]
    assert got.fallback is None
    prompt = backend.calls[0]["prompt"]
    assert "1. He fainted because of heart block." in prompt and "He fainted because of heart block. So he" in prompt
    assert backend.calls[0]["response_format"]["json_schema"]["name"] == "alignment"


def test_llm_aligner_fills_skipped_sentences_and_falls_back_recorded():
    from archehr.align import Aligner
    from archehr.align.llm import LLMAligner

    case, answers = _case()
    learned = Aligner(kind="learned")
    got = LLMAligner(Scripted(["1: 2, 3"]), learned).align_detailed(case, answers)
    assert got.links[0]["evidence_id"] == ["2", "3"] and got.links[1] == learned.align(case, answers[1:])[0]
    assert any("did not link" in n for n in got.notes)
    kept_empty = LLMAligner(Scripted(["1: 2, 3\n2: none"]), learned).align_detailed(case, answers)
    assert kept_empty.links[1]["evidence_id"] == [] and not kept_empty.notes  # "none" is the model's answer
    dead = LLMAligner(Scripted(error="HTTP 500"), learned).align_detailed(case, answers)
    assert dead.links == learned.align(case, answers) and "backend error: HTTP 500" in dead.fallback


@pytest.mark.parametrize("reply", ["ESSENTIAL: 2, 3\nSUPPLEMENTARY: 4", "- **Essential:** [2, 3]\n- Supplementary: 4",
                                   '{"essential": [2, 3], "supplementary": ["4"]}',
                                   'Here you go:\n```json\n{"Essential": "2, 3", "Supplementary": [4]}\n```'])
def test_llm_evidence_reads_every_format(reply):
    from archehr.relevance.llm import parse_reply

    assert parse_reply(reply, {"1", "2", "3", "4"}) == ({"2", "3"}, {"4"})


def test_llm_evidence_falls_back_to_the_trained_selector_recorded(tmp_path):
    from archehr.relevance.evidence import LLMEvidence

    case, _ = _case()
    ev = LLMEvidence(Scripted(error="HTTP 503"), n=2)
    got = ev.evidence(case)
    assert got.fallback.startswith("trained evidence: backend error") or "backend error: HTTP 503" in got.fallback
    assert got.selection.cited == ev.trained.selector.select(ev.trained.classifier.score(case)).cited
    ok = LLMEvidence(Scripted(["ESSENTIAL: 3\nSUPPLEMENTARY: 2"]), n=3, structured=True)
    got = ok.evidence(case)
    assert got.selection.cited == ("3",) and got.fallback is None


def test_llm_evidence_ensemble_averages_with_the_trained_selector():
    from archehr.relevance.evidence import LLMEvidence

    case, _ = _case()
    reply = ["ESSENTIAL: 3\nSUPPLEMENTARY: none"]
    alone = LLMEvidence(Scripted(reply), n=1)
    mixed = LLMEvidence(Scripted(reply), n=1, ensemble_weight=0.25)
    trained = alone.trained.classifier.score(case).essential
    got = mixed.evidence(case).scores.essential
    assert got == pytest.approx([0.75 * (i == 2) + 0.25 * t for i, t in enumerate(trained)])
    assert alone.evidence(case).scores.essential == (0.0, 0.0, 1.0, 0.0)
    assert mixed.describe()["model_file"].endswith(".json")  # made portable in run.json like any model file


def test_a_custom_backend_without_response_format_gets_text():
    from archehr.llm.structured import StructuredCaller, json_schema

    class Old:
        name = "old"

        def complete(self, prompt, *, n=1, temperature=0.0, seed=0, max_tokens=256):
            return ["ok"] * n

    caller = StructuredCaller(Old(), json_schema("x", {"type": "object"}))
    replies, notes = caller.complete("p", n=2)
    assert replies == ["ok", "ok"] and "response_format" in notes[0]
    assert caller.complete("p")[1] == []  # said once


def test_llm_question_reply_is_read_not_reworded():
    from archehr.question import reply_question

    q = "Why was the patient given IV antibiotics for fever?"
    for reply in (q, f"**{q}**", f'Clinician question: "{q}"', f"- {q}", f"Sure! Here is the question:\n\n{q}\n",
                  json.dumps({"question": q})):
        assert reply_question(reply) == q, reply


def test_cli_predicts_every_subtask_from_a_perfect_server(tmp_path):
    """`archehr predict --system my.yaml` on the demo release, the server answering from the demo key."""
    import yaml

    from archehr.cli.main import main
    from archehr.data.releases import demo_dir, load_split
    from archehr.testing.fidelity import system_config
    from archehr.testing.perfect_server import PerfectServer

    test = load_split(demo_dir(), "test")
    with PerfectServer(test, "bullets") as server:
        cfg = tmp_path / "mine.yaml"
        cfg.write_text(yaml.safe_dump(system_config("openai-server", server.url).raw), encoding="utf-8")
        for task in ("st1", "st2", "2025", "st4"):
            out = tmp_path / task
            rc = main(["predict", "--data-dir", str(demo_dir()), "--split", "test", "--task", task, "--system",
                       str(cfg), "-o", str(out), "--no-progress", "--workers", "4"])
            assert rc == 0, task
            sub = json.loads((out / "submission.json").read_text(encoding="utf-8"))
            direct = {d["case_id"]: d for d in server.model.direct_submission(task)}
            field = "answer" if task == "2025" else "prediction"
            for item in sub:
                want = direct[item["case_id"]][field]
                got = item[field]
                if task == "st2":
                    got, want = sorted(got, key=int), sorted(want, key=int)
                assert got == want, (task, item["case_id"])
            run = json.loads((out / "run.json").read_text(encoding="utf-8"))
            assert not run["fallbacks"], task
        # demonstrations came from the demo dev split (--train-split dev, the default)
        assert server.requests["evidence"] and server.requests["alignment"] == len(test)


def test_a_dead_server_costs_fallbacks_not_the_run(tmp_path):
    import socket
    import threading

    from archehr.data.releases import demo_dir, load_split
    from archehr.pipeline import System
    from archehr.runs import run_split
    from archehr.testing.fidelity import system_config

    # a server that takes every connection and drops it (one with nothing listening stops the run before its
    # first case: tests/test_llm_window.py)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    stop = threading.Event()

    def drop() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            conn.close()

    threading.Thread(target=drop, daemon=True).start()
    try:
        test = load_split(demo_dir(), "test")
        system = System(system_config("openai-server", f"http://127.0.0.1:{listener.getsockname()[1]}/v1"))
        for task in ("st1", "st2", "2025", "st4"):
            result = run_split(system, test, task, tmp_path / task)
            assert set(result.fallbacks) == set(test.case_ids), task
            reasons = " ".join(result.fallbacks.values())
            assert {"st1": "template", "st2": "trained evidence", "2025": "extractive",
                    "st4": "learned aligner"}[task] in reasons, (task, reasons)
    finally:
        stop.set()
        listener.close()


def test_an_over_long_faithful_answer_loses_no_citation_and_no_more_words_than_the_scorer_cuts():
    from archehr.generate.llm import LLMGenerator
    from archehr.relevance.base import Selection
    from archehr_scoring.answer_format import cut_words, parse_answer

    case, _ = _case()
    sentences = [("He fainted twice at home, and the doctors looked for the cause of it with several tests.", "2"),
                 ("The heart tracing showed a heart block, which means the signal between chambers was stopped.", "3"),
                 ("This kind of block can cause fainting because the heart beats far too slowly at times.", "3"),
                 ("A pacemaker was placed to keep the heart rate from dropping too low again.", "4"),
                 ("After the pacemaker he had no more fainting spells during the rest of his stay in the hospital.",
                  "2,4")]
    reply = "\n".join(f"{t} |{c}|" for t, c in sentences)
    assert sum(len(t.split()) for t, _ in sentences) > 75
    gen = LLMGenerator(backend=Scripted([reply]), demonstrations=0, similarity="lexical", keep_selected=False,
                       uncited="keep")
    ans = gen.generate(case, Selection("7", ("3",), 1.0))
    assert ans.fallback is None and len(ans.lines) < len(sentences)  # the cited answer fits 75 words...
    direct = parse_answer("", reply)
    assert set(ans.cited_ids) == {c for line in direct.lines for c in line.citations}  # ...with every citation
    # st3: exactly the words the scorer keeps of the model's text submitted directly
    assert ans.text_without_citations() == cut_words(" ".join(t for t, _ in sentences), 75)


def test_llm_question_prompt_shows_the_nearest_training_narratives(splits):
    from archehr.question import LLMQuestionWriter

    test, dev = splits
    backend = Scripted(["Why was the patient given IV antibiotics?"])
    writer = LLMQuestionWriter(backend, prompt="question_v2", demonstrations=2)
    writer.prepare(dev)
    case = test.cases[0]
    assert writer.write(case).text == "Why was the patient given IV antibiotics?"
    prompt = backend.calls[0]["prompt"]
    shown = [c for c in dev.cases if c.clinician_question in prompt]
    assert len(shown) == 2 and case.clinician_question not in prompt
    assert prompt.rstrip().endswith("Clinician question:") and case.patient_narrative.strip()[:80] in prompt
    with pytest.raises(Exception, match="demonstrations"):
        LLMQuestionWriter(backend, prompt="question_v1", demonstrations=2)
